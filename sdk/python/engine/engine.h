// cassino._engine: the referee's rules engine (rules/) as a Python module,
// the forward model of the Python SDK (sdk/python/README.md, *The forward
// model*). This header holds what the binding's files share: the Python
// view of a move, argument conversions and the mapping of absl::Status to
// Python exceptions.
//
// Conventions, for every class of the module:
//   - cards are two-character strings ("7H", "TD"); a set of cards is a
//     tuple of them in deck order (the API's canonical order);
//   - a move argument is a Move, its notation ("take 8C 8H"), or any
//     object with a `notation` attribute (the SDK's cassino.Move);
//   - legal moves come in the referee's order (YourTurn.legal_moves: by
//     notation, rules/game_moves.h's InNotationOrder);
//   - errors: IllegalMoveError (a ValueError) for a move the rules refuse,
//     with the engine's reason; ValueError for text that does not parse;
//     UnsupportedRulesError (a NotImplementedError) for what the engine
//     does not support (SampleGame's Unimplemented); GameOverError (a
//     RuntimeError) for a move in a game that is over.

#ifndef CASSINO_SDK_PYTHON_ENGINE_ENGINE_H_
#define CASSINO_SDK_PYTHON_ENGINE_ENGINE_H_

#include <pybind11/pybind11.h>

#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "rules/card.h"
#include "rules/game_moves.h"
#include "rules/move.h"
#include "rules/position.h"

namespace cassino::py_engine {

namespace py = pybind11;

// The Python class Move: a move and its canonical notation.
struct PyMove {
  Move move;
  std::string notation;
};

// Raises the Python exception for a failed status (see the file comment).
// `move`: an InvalidArgument is a refused move (IllegalMoveError), not a
// parse error (ValueError).
[[noreturn]] void Raise(const absl::Status& status, bool move = false);
inline void Check(const absl::Status& status) {
  if (!status.ok()) Raise(status);
}
template <typename T>
T Value(absl::StatusOr<T> value) {
  if (!value.ok()) Raise(value.status());
  return *std::move(value);
}

// Cards as a tuple of strings, deck order.
py::tuple CardsTuple(CardSet cards);
// A card ("" is no card: invalid) and a set of cards from an iterable of
// strings or one space-separated string; ValueError if malformed.
Card CardArg(const std::string& text);
CardSet CardsArg(py::handle cards);
// A move argument (see the file comment); ValueError if it does not parse.
Move MoveArg(py::handle move);

// Every legal move of pos.to_move in the referee's order. `gen` is scratch.
std::vector<PyMove> LegalInApiOrder(const Position& pos, MoveGenerator& gen);

// The builds of a table as Build objects.
py::list BuildsList(const Table& table);

// Registers each part of the module.
void BindErrors(py::module_& m);
void BindMove(py::module_& m);
void BindPosition(py::module_& m);
void BindScoring(py::module_& m);
void BindGame(py::module_& m);
void BindObservation(py::module_& m);

}  // namespace cassino::py_engine

#endif  // CASSINO_SDK_PYTHON_ENGINE_ENGINE_H_
