// cassino._engine.Observation: what one seat may see (rules/observation.h),
// made from the referee's message (an SDK Turn, a YourTurn or an
// Observation) or from a Game, and sampled into Games (rules/
// sampled_game.h: determinization).

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "rules/observation.h"
#include "rules/sampled_game.h"
#include "sdk/python/engine/engine.h"
#include "sdk/python/engine/game_binding.h"

namespace cassino::py_engine {
namespace {

int Int(py::handle message, const char* field) {
  return message.attr(field).cast<int>();
}

// A message's repeated card field.
CardSet Cards(py::handle message, const char* field) {
  return CardsArg(message.attr(field));
}

Card OptionalCard(py::handle message, const char* field) {
  return CardArg(py::str(message.attr(field)).cast<std::string>());
}

PlayedMove PlayedMoveFromMessage(py::handle pm) {
  PlayedMove out;
  out.turn = Int(pm, "turn");
  out.round = Int(pm, "round");
  out.deal = Int(pm, "deal");
  out.seat = Int(pm, "seat");
  out.move = Value(Move::Parse(
      py::str(pm.attr("move").attr("notation")).cast<std::string>()));
  out.outcome.captured = Cards(pm, "captured");
  out.outcome.sweep = pm.attr("sweep").cast<bool>();
  out.outcome.penalty = Int(pm, "penalty");
  out.outcome.plucked = OptionalCard(pm, "plucked");
  out.immediate_points = Int(pm, "immediate_points");
  out.drew = pm.attr("drew").cast<bool>();
  out.drawn = OptionalCard(pm, "drawn");
  return out;
}

// The engine's Observation from a cassino.v1.Observation message (read
// field by field, so any protobuf implementation will do). The earlier
// rounds' results are not carried over (their totals are, in `sides`).
Observation ObservationFromMessage(py::handle turn) {
  py::object o = py::reinterpret_borrow<py::object>(turn);
  if (py::hasattr(o, "proto")) o = o.attr("proto");  // the SDK's Turn
  if (py::hasattr(o, "observation")) {               // a YourTurn
    if (py::hasattr(o, "round_history_omitted") &&
        o.attr("round_history_omitted").cast<bool>()) {
      throw py::value_error(
          "this YourTurn omits the round's history (compact mode): complete "
          "it with cassino.RoundHistory first (the SDK's Turn always is)");
    }
    o = o.attr("observation");
  }
  if (!py::hasattr(o, "hand_sizes") || !py::hasattr(o, "round_history")) {
    throw py::type_error(
        "from_turn takes a cassino.Turn, a cassino.v1 YourTurn or an "
        "Observation message");
  }
  Observation obs;
  obs.seat = Int(o, "seat");
  obs.rules =
      Value(RuleSet::Parse(py::str(o.attr("rules")).cast<std::string>()));
  obs.round = Int(o, "round");
  obs.deal = Int(o, "deal");
  obs.dealer = Int(o, "dealer");
  obs.to_move = Int(o, "to_move");
  obs.turn = Int(o, "turn");
  obs.hand = Cards(o, "hand");
  py::object table = o.attr("table");
  obs.table.loose = Cards(table, "loose");
  for (py::handle b : table.attr("builds")) {
    obs.table.AddBuild({Cards(b, "cards"), Int(b, "value"),
                        Int(b, "controller"), b.attr("multiple").cast<bool>()});
  }
  for (py::handle n : o.attr("hand_sizes"))
    obs.hand_sizes.push_back(n.cast<int>());
  obs.stock_size = Int(o, "stock_size");
  for (py::handle s : o.attr("sides")) {
    obs.sides.push_back({Int(s, "captured"), Int(s, "spades"), Int(s, "sweeps"),
                         Int(s, "total")});
  }
  for (py::handle pm : o.attr("round_history")) {
    obs.history.push_back(PlayedMoveFromMessage(pm));
  }
  py::object ic = o.attr("initial_capture");
  obs.initial_capture.cards = Cards(ic, "cards");
  if (!obs.initial_capture.cards.empty()) {
    obs.initial_capture.side = Int(ic, "side");
    obs.initial_capture.sweep = ic.attr("sweep").cast<bool>();
  }
  int seat = 0;
  for (py::handle p : o.attr("plucked")) {
    if (seat < 32 && p.cast<bool>()) obs.plucked |= uint32_t{1} << seat;
    ++seat;
  }
  if (obs.seat < 0 || obs.seat >= obs.rules.players ||
      static_cast<int>(obs.hand_sizes.size()) != obs.rules.players ||
      static_cast<int>(obs.sides.size()) != obs.rules.Sides()) {
    throw py::value_error(
        "the observation's seat, hand sizes or sides do not match its rules");
  }
  // Every card once, builds well formed.
  const Position pos = SeenPosition(obs);
  Check(pos.Validate());
  return obs;
}

}  // namespace

void BindObservation(py::module_& m) {
  py::class_<SidePublic>(m, "SidePublic", "A side's public counts this round.")
      .def_readonly("captured", &SidePublic::captured)
      .def_readonly("spades", &SidePublic::spades)
      .def_readonly("sweeps", &SidePublic::sweeps)
      .def_readonly("total", &SidePublic::total,
                    "The game total before this round.");

  py::class_<Observation>(
      m, "Observation",
      "What one seat may see: its hand, the table, hand sizes, the stock "
      "size, each side's counts and totals, and the round's moves.")
      .def_static("from_turn", &ObservationFromMessage, py::arg("turn"),
                  "From a cassino.Turn (the SDK's), a YourTurn or an "
                  "Observation message. ValueError if it is inconsistent.")
      .def_readonly("seat", &Observation::seat)
      .def_property_readonly(
          "rules", [](const Observation& o) { return o.rules.ToString(); })
      .def_readonly("round", &Observation::round)
      .def_readonly("deal", &Observation::deal)
      .def_readonly("dealer", &Observation::dealer)
      .def_readonly("to_move", &Observation::to_move)
      .def_readonly("turn", &Observation::turn)
      .def_property_readonly(
          "hand", [](const Observation& o) { return CardsTuple(o.hand); })
      .def_property_readonly(
          "table",
          [](const Observation& o) { return CardsTuple(o.table.loose); })
      .def_property_readonly(
          "builds", [](const Observation& o) { return BuildsList(o.table); })
      .def_readonly("hand_sizes", &Observation::hand_sizes)
      .def_readonly("stock_size", &Observation::stock_size)
      .def_readonly("sides", &Observation::sides)
      .def_readonly("history", &Observation::history,
                    "This round's PlayedMoves, oldest first.")
      .def_property_readonly(
          "position", &SeenPosition,
          "The Position as this seat sees it (other hands empty).")
      .def(
          "legal_moves",
          [](const Observation& o) {
            if (o.to_move != o.seat) return std::vector<PyMove>();
            MoveGenerator gen;
            return LegalInApiOrder(SeenPosition(o), gen);
          },
          "This seat's legal moves when it is to move (the referee's order), "
          "else [].")
      .def(
          "unseen_cards",
          [](const Observation& o) { return CardsTuple(UnseenCards(o)); },
          "The cards this seat has not seen this round (the other hands and "
          "the stock hold exactly these).")
      .def(
          "sample",
          [](const Observation& o, uint64_t seed) {
            return PyGame(Value(SampleGame(o, seed)));
          },
          py::arg("seed"),
          "A Game that agrees with everything this seat has seen, the unseen "
          "cards dealt at random from `seed` (determinization). "
          "UnsupportedRulesError for Callabra, Tablanette and the options "
          "that score during play; ValueError if the observation is "
          "inconsistent.")
      .def("__eq__",
           [](const Observation& a, const Observation& b) { return a == b; });
}

}  // namespace cassino::py_engine
