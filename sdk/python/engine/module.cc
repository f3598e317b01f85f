// The module cassino._engine (see engine.h); cassino/engine.py re-exports
// it with its documentation.

#include <pybind11/pybind11.h>

#include "sdk/python/engine/engine.h"

PYBIND11_MODULE(_engine, m) {
  namespace e = ::cassino::py_engine;
  m.doc() =
      "The referee's rules engine as a forward model (see cassino.engine).";
  e::BindErrors(m);
  e::BindMove(m);
  e::BindPosition(m);
  e::BindScoring(m);
  e::BindGame(m);
  e::BindObservation(m);
}
