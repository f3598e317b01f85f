// cassino._engine.Move and Outcome.

#include <pybind11/pybind11.h>

#include <string>

#include "rules/adjudicator.h"
#include "sdk/python/engine/engine.h"

namespace cassino::py_engine {
namespace {

std::string CardText(Card c) { return c.valid() ? c.ToString() : ""; }

}  // namespace

void BindMove(py::module_& m) {
  py::class_<PyMove>(m, "Move",
                     "A move: its identity and canonical notation. Equal to "
                     "another Move of the same identity and to its notation "
                     "string; hashable.")
      .def_static(
          "parse",
          [](const std::string& text) {
            const Move move = Value(Move::Parse(text));
            return PyMove{move, move.ToString()};
          },
          py::arg("notation"),
          "Parses a notation (syntax only, not legality); ValueError if "
          "malformed.")
      .def_property_readonly(
          "notation", [](const PyMove& m) { return m.notation; },
          "Canonical notation: 'take 8C 8H', 'build 8 3D 5S', 'trail 7H'.")
      .def_property_readonly(
          "kind",
          [](const PyMove& m) {
            return std::string(MoveKindName(m.move.kind));
          },
          "'trail', 'capture', 'build' or 'call_out'.")
      .def_property_readonly(
          "card", [](const PyMove& m) { return CardText(m.move.card); },
          "The card played ('' for a call-out).")
      .def_property_readonly(
          "value", [](const PyMove& m) { return int{m.move.value}; },
          "A build's value after the move; 0 otherwise.")
      .def_property_readonly(
          "table_cards",
          [](const PyMove& m) { return CardsTuple(m.move.table); },
          "The table cards taken or used (whole builds included).")
      .def_property_readonly(
          "declared", [](const PyMove& m) { return int{m.move.declared}; },
          "The value declared for the played card when not its default "
          "(ace_high, dual_ten); 0 otherwise.")
      .def_property_readonly(
          "second_card",
          [](const PyMove& m) { return CardText(m.move.second); },
          "Callabra's pair capture: the second hand card; '' otherwise.")
      .def_property_readonly(
          "pluck_card", [](const PyMove& m) { return CardText(m.move.pluck); },
          "pluck: the card plucked with this move; '' for none.")
      .def_property_readonly(
          "pluck_after", [](const PyMove& m) { return m.move.pluck_after; },
          "pluck: whether the pluck comes after the play.")
      .def("__str__", [](const PyMove& m) { return m.notation; })
      .def("__repr__",
           [](const PyMove& m) { return "Move('" + m.notation + "')"; })
      .def("__hash__",
           [](const PyMove& m) { return py::hash(py::str(m.notation)); })
      .def("__eq__", [](const PyMove& a, py::object b) -> py::object {
        if (py::isinstance<PyMove>(b)) {
          return py::bool_(a.move == b.cast<const PyMove&>().move);
        }
        if (py::isinstance<py::str>(b)) {
          return py::bool_(a.notation == b.cast<std::string>());
        }
        return py::reinterpret_borrow<py::object>(Py_NotImplemented);
      });

  py::class_<MoveOutcome>(m, "Outcome", "What playing a move did.")
      .def_property_readonly(
          "captured",
          [](const MoveOutcome& o) { return CardsTuple(o.captured); },
          "For captures: the played card and every card taken.")
      .def_readonly("sweep", &MoveOutcome::sweep,
                    "A capture that left the table empty.")
      .def_property_readonly(
          "plucked", [](const MoveOutcome& o) { return CardText(o.plucked); },
          "pluck: the card plucked into the mover's pile; '' for none.")
      .def_readonly("penalty", &MoveOutcome::penalty,
                    "defaults_cost: the points the move cost its player.")
      .def("__repr__", [](const MoveOutcome& o) {
        return "Outcome(captured=" + o.captured.ToString() +
               ", sweep=" + (o.sweep ? "True" : "False") + ")";
      });
}

}  // namespace cassino::py_engine
