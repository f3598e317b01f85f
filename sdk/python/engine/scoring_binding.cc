// cassino._engine's results: ScoreItem, SideTally, RoundScore,
// RoundResult, GameResult, and score_round (rules/scoring.h).

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "rules/game.h"
#include "rules/rule_set.h"
#include "rules/scoring.h"
#include "sdk/python/engine/engine.h"

namespace cassino::py_engine {
namespace {

std::string Name(absl::string_view name) { return std::string(name); }

// score_round's sweeps: a list of sides (each sweep worth the rules'
// sweep points) or of (side, points) pairs.
std::vector<Sweep> SweepsArg(const RuleSet& rules, py::handle sweeps) {
  std::vector<Sweep> out;
  for (py::handle s : sweeps) {
    if (py::isinstance<py::int_>(s)) {
      out.push_back({s.cast<int>(), rules.sweep_points});
    } else {
      const auto pair = s.cast<std::pair<int, int>>();
      out.push_back({pair.first, pair.second});
    }
    if (out.back().side < 0 || out.back().side >= rules.Sides()) {
      throw py::value_error(
          absl::StrCat("a sweep's side ", out.back().side, " is not a side"));
    }
  }
  return out;
}

}  // namespace

void BindScoring(py::module_& m) {
  py::class_<ScoreItem>(m, "ScoreItem", "One scoring item of a round.")
      .def_property_readonly(
          "kind",
          [](const ScoreItem& i) { return Name(ScoreItemName(i.kind)); },
          "'cards', 'spades', 'big_cassino', 'little_cassino', 'ace', "
          "'sweep', 'all_eleven', 'diamonds', 'card', 'all_aces', 'spade' "
          "or (Tablanette) 'face'.")
      .def_readonly("side", &ScoreItem::side)
      .def_readonly("points", &ScoreItem::points)
      .def_property_readonly(
          "card",
          [](const ScoreItem& i) {
            return ScoreItemHasCard(i.kind) ? i.card.ToString() : "";
          },
          "The card the item is for (aces, faces, point cards, spades); ''.")
      .def("__repr__", [](const ScoreItem& i) {
        return absl::StrCat("ScoreItem(", ScoreItemName(i.kind), ", side ",
                            i.side, ", ", i.points, ")");
      });

  py::class_<SideTally>(m, "SideTally", "What one side took in a round.")
      .def_readonly("cards", &SideTally::cards)
      .def_readonly("spades", &SideTally::spades)
      .def_readonly("big_cassino", &SideTally::big_cassino)
      .def_readonly("little_cassino", &SideTally::little_cassino)
      .def_readonly("aces", &SideTally::aces)
      .def_readonly("sweeps", &SideTally::sweeps)
      .def_readonly("diamonds", &SideTally::diamonds)
      .def_readonly("points", &SideTally::points,
                    "The round's items for this side.");

  py::class_<RoundScore>(m, "RoundScore", "A round's score, item by item.")
      .def_readonly("items", &RoundScore::items, "In count-out order.")
      .def_readonly("sides", &RoundScore::sides, "A SideTally per side.")
      .def_readonly("all_eleven_side", &RoundScore::all_eleven_side)
      .def_property_readonly(
          "points",
          [](const RoundScore& s) {
            std::vector<int> points;
            for (const SideTally& t : s.sides) points.push_back(t.points);
            return points;
          },
          "Each side's points.");

  py::class_<RoundResult>(m, "RoundResult", "A round as it was scored.")
      .def_readonly("round", &RoundResult::round)
      .def_readonly("dealer", &RoundResult::dealer)
      .def_property_readonly(
          "leftovers",
          [](const RoundResult& r) { return CardsTuple(r.leftovers); },
          "The table cards given to the last capturer.")
      .def_readonly("leftover_side", &RoundResult::leftover_side)
      .def_readonly("score", &RoundResult::score)
      .def_readonly("totals_before", &RoundResult::totals_before)
      .def_readonly("totals_after", &RoundResult::totals_after)
      .def_readonly("ended_early", &RoundResult::ended_early);

  py::class_<GameResult>(m, "GameResult", "How a game ended.")
      .def_readonly("winner", &GameResult::winner,
                    "The winning side; -1 when nobody won.")
      .def_property_readonly(
          "reason",
          [](const GameResult& r) { return Name(GameEndReasonName(r.reason)); },
          "'target', 'highest_total', 'call_out', 'forfeit', ...")
      .def_readonly("totals", &GameResult::totals)
      .def_readonly("detail", &GameResult::detail)
      .def_readonly("draw", &GameResult::draw)
      .def("__repr__", [](const GameResult& r) {
        return absl::StrCat("GameResult(winner=", r.winner,
                            ", reason=", GameEndReasonName(r.reason), ")");
      });

  m.def(
      "score_round",
      [](const std::string& rules, py::handle piles, py::handle sweeps) {
        const RuleSet r = Value(RuleSet::Parse(rules));
        std::vector<CardSet> sets;
        for (py::handle pile : piles) sets.push_back(CardsArg(pile));
        if (static_cast<int>(sets.size()) != r.Sides()) {
          throw py::value_error(absl::StrCat("score_round: ", sets.size(),
                                             " piles for ", r.Sides(),
                                             " sides"));
        }
        const std::vector<Sweep> sw = SweepsArg(r, sweeps);
        return ScoreRound(r, sets, sw);
      },
      py::arg("rules"), py::arg("piles"), py::arg("sweeps") = py::tuple(),
      "Scores a round: piles[s] is every card side s took (leftovers "
      "included); sweeps lists the side of each sweep (or (side, points) "
      "pairs), in the order made. Returns a RoundScore.");
}

}  // namespace cassino::py_engine
