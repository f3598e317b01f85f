// cassino._engine.Position and Build: a position in the engine's text
// format (rules/position.h), its legal moves, and moves applied to it.

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "rules/game_moves.h"
#include "sdk/python/engine/engine.h"

namespace cassino::py_engine {

py::list BuildsList(const Table& table) {
  py::list out;
  for (const Build& b : table.builds) out.append(py::cast(b));
  return out;
}

namespace {

py::list Hands(const Position& pos) {
  py::list out;
  for (CardSet hand : pos.hands) out.append(CardsTuple(hand));
  return out;
}

}  // namespace

void BindPosition(py::module_& m) {
  py::class_<Build>(m, "Build", "A build on the table.")
      .def_property_readonly(
          "cards", [](const Build& b) { return CardsTuple(b.cards); },
          "Its cards, deck order.")
      .def_readonly("value", &Build::value)
      .def_readonly("controller", &Build::controller,
                    "The seat that controls it.")
      .def_readonly("multiple", &Build::multiple,
                    "Two or more groups of the value.")
      .def("__repr__", [](const Build& b) { return b.ToString(); });

  py::class_<Position>(
      m, "Position",
      "What move generation needs: the table, the hands and the seat to "
      "move, under a rule set. Its text is the engine's position format, "
      "e.g. 'table: 2C KH [5S 3H]=8@0; hands: 4D 8C / ?; to_move: 0'.")
      .def_static(
          "parse",
          [](const std::string& text) { return Value(Position::Parse(text)); },
          py::arg("text"),
          "Parses a position; ValueError if malformed or inconsistent.")
      .def("__str__", &Position::ToString)
      .def("__repr__",
           [](const Position& p) { return "Position('" + p.ToString() + "')"; })
      .def("__eq__",
           [](const Position& a, const Position& b) { return a == b; })
      .def_property_readonly(
          "rules", [](const Position& p) { return p.rules.ToString(); },
          "The complete rule set as text.")
      .def_readonly("to_move", &Position::to_move)
      .def_property_readonly("hands", &Hands,
                             "Each seat's hand (empty when not known).")
      .def_property_readonly(
          "table", [](const Position& p) { return CardsTuple(p.table.loose); },
          "The loose table cards.")
      .def_property_readonly(
          "builds", [](const Position& p) { return BuildsList(p.table); },
          "The builds, sorted by their lowest card.")
      .def_property_readonly(
          "plucked",
          [](const Position& p) {
            std::vector<int> seats;
            for (int s = 0; s < p.rules.players; ++s) {
              if (p.plucked >> s & 1) seats.push_back(s);
            }
            return seats;
          },
          "pluck: the seats that have plucked in this deal.")
      .def_readonly("stock_empty", &Position::stock_empty)
      .def(
          "legal_moves",
          [](const Position& p) {
            MoveGenerator gen;
            return LegalInApiOrder(p, gen);
          },
          "Every legal move of the seat to move, in the referee's order.")
      .def(
          "validate",
          [](const Position& p, py::handle move) {
            const absl::Status s = ValidateGameMove(p, MoveArg(move));
            if (!s.ok()) Raise(s, /*move=*/true);
          },
          py::arg("move"),
          "Returns if the move is legal; raises IllegalMoveError with the "
          "engine's reason if not.")
      .def(
          "play",
          [](Position& p, py::handle move) {
            const Move mv = MoveArg(move);
            const absl::Status s = ValidateGameMove(p, mv);
            if (!s.ok()) Raise(s, /*move=*/true);
            return ApplyGameMove(p, mv);
          },
          py::arg("move"),
          "Plays a legal move here (in place) and passes the turn; returns "
          "its Outcome. IllegalMoveError if the move is illegal. (No deal, "
          "no scoring: a Game does those.)")
      .def("copy", [](const Position& p) { return Position(p); })
      .def("__copy__", [](const Position& p) { return Position(p); })
      .def("__deepcopy__",
           [](const Position& p, py::dict) { return Position(p); });
}

}  // namespace cassino::py_engine
