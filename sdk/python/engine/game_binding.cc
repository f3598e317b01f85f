// cassino._engine.Game and PlayedMove: a whole game (deals, rounds,
// scoring, the end) as the referee plays it, with random or greedy
// playouts run in C++ without the GIL.

#include "sdk/python/engine/game_binding.h"

#include <pybind11/stl.h>

#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "rules/deal.h"
#include "rules/game_moves.h"
#include "rules/observation.h"
#include "rules/scoring.h"
#include "sdk/python/engine/engine.h"
#include "tools/playout/playout_policy.h"

namespace cassino::py_engine {

PyGame::PyGame(const PyGame& other) : game_(other.Get()) {}

const Game& PyGame::Get() const {
  if (busy_.load(std::memory_order_acquire)) {
    throw std::runtime_error(
        "this Game is in a playout on another thread; use a copy()");
  }
  return game_;
}

int PyGame::Playout(uint64_t seed, PlayUntil until, PlayoutPolicy policy) {
  bool idle = false;
  if (!busy_.compare_exchange_strong(idle, true, std::memory_order_acq_rel)) {
    throw std::runtime_error(
        "this Game is in a playout on another thread; use a copy()");
  }
  int moves = 0;
  {
    py::gil_scoped_release release;
    moves = PlaySeeded(game_, seed, until, policy);
  }
  busy_.store(false, std::memory_order_release);
  return moves;
}

namespace {

// Game's seed argument: an int (0 to 2**64-1: the seed's first 8 bytes,
// big-endian, the rest zero), 64 hex digits (a record's seed) or 32 bytes.
Seed SeedArg(py::handle seed) {
  Seed out{};
  if (py::isinstance<py::str>(seed))
    return Value(ParseSeed(seed.cast<std::string>()));
  if (py::isinstance<py::bytes>(seed)) {
    const std::string bytes = seed.cast<std::string>();
    if (bytes.size() != out.size()) {
      throw py::value_error("a seed of bytes has exactly 32 of them");
    }
    std::memcpy(out.data(), bytes.data(), out.size());
    return out;
  }
  const uint64_t n = seed.cast<uint64_t>();
  for (int i = 0; i < 8; ++i) out[i] = static_cast<uint8_t>(n >> (56 - 8 * i));
  return out;
}

Move PlayArg(const Game& game, py::handle move) {
  const Move m = MoveArg(move);
  const absl::Status s = game.Validate(m);
  if (!s.ok()) Raise(s, /*move=*/true);
  return m;
}

std::vector<PlayedMove> RoundHistory(const Game& game) {
  std::vector<PlayedMove> out;
  for (const PlayedMove& m : game.history()) {
    if (m.round == game.round()) out.push_back(m);
  }
  return out;
}

}  // namespace

void BindGame(py::module_& m) {
  py::class_<PlayedMove>(m, "PlayedMove", "One accepted move.")
      .def_readonly("turn", &PlayedMove::turn, "0-based, in the game.")
      .def_readonly("round", &PlayedMove::round)
      .def_readonly("deal", &PlayedMove::deal)
      .def_readonly("seat", &PlayedMove::seat)
      .def_property_readonly("move",
                             [](const PlayedMove& p) {
                               return PyMove{p.move, p.move.ToString()};
                             })
      .def_readonly("outcome", &PlayedMove::outcome)
      .def_readonly("drew", &PlayedMove::drew,
                    "draw: the mover drew a card after the play.")
      .def_readonly("immediate_points", &PlayedMove::immediate_points);

  py::class_<PyGame>(
      m, "Game",
      "A complete game as the referee plays it: deals, turns, rounds, "
      "scoring and the end. Game(rules, seed) deals round 1 from the seed; "
      "Observation.sample() makes one from what a seat has seen.")
      .def(py::init([](const std::string& rules, py::handle seed) {
             const RuleSet r = Value(RuleSet::Parse(rules));
             return PyGame(
                 Value(Game::Create(r, DeckSource::FromSeed(SeedArg(seed)))));
           }),
           py::arg("rules") = "standard", py::arg("seed") = 0,
           "A new game under `rules` (RuleSet text) with round 1 dealt from "
           "`seed`: an int, 64 hex digits (a record's seed: the same deals) "
           "or 32 bytes.")
      .def_property_readonly(
          "rules", [](const PyGame& g) { return g.Get().rules().ToString(); })
      .def_property_readonly(
          "position", [](const PyGame& g) { return g.Get().position(); },
          "A copy of the position (every hand).")
      .def_property_readonly("to_move",
                             [](const PyGame& g) { return g.Get().to_move(); })
      .def_property_readonly("round",
                             [](const PyGame& g) { return g.Get().round(); })
      .def_property_readonly("deal",
                             [](const PyGame& g) { return g.Get().deal(); })
      .def_property_readonly("dealer",
                             [](const PyGame& g) { return g.Get().dealer(); })
      .def_property_readonly(
          "turn", [](const PyGame& g) { return g.Get().turn(); },
          "Moves played so far in the game.")
      .def_property_readonly(
          "stock_size", [](const PyGame& g) { return g.Get().stock_size(); })
      .def_property_readonly("over",
                             [](const PyGame& g) { return g.Get().over(); })
      .def_property_readonly(
          "result", [](const PyGame& g) { return g.Get().result(); },
          "The GameResult once over, else None.")
      .def_property_readonly(
          "totals", [](const PyGame& g) { return g.Get().totals(); },
          "Each side's game total.")
      .def_property_readonly(
          "hands",
          [](const PyGame& g) {
            py::list out;
            for (CardSet h : g.Get().position().hands)
              out.append(CardsTuple(h));
            return out;
          },
          "Every seat's hand (in a sampled game: as sampled).")
      .def_property_readonly(
          "table",
          [](const PyGame& g) {
            return CardsTuple(g.Get().position().table.loose);
          })
      .def_property_readonly(
          "builds",
          [](const PyGame& g) { return BuildsList(g.Get().position().table); })
      .def_property_readonly(
          "piles",
          [](const PyGame& g) {
            py::list out;
            for (CardSet p : g.Get().piles()) out.append(CardsTuple(p));
            return out;
          },
          "What each side has taken this round.")
      .def_property_readonly(
          "sweeps",
          [](const PyGame& g) {
            std::vector<std::pair<int, int>> out;
            for (const Sweep& s : g.Get().sweeps())
              out.push_back({s.side, s.points});
            return out;
          },
          "This round's sweeps: (side, points), in the order made.")
      .def_property_readonly(
          "last_capturer",
          [](const PyGame& g) { return g.Get().last_capturer(); },
          "The side that captured last this round; -1 if none.")
      .def_property_readonly(
          "rounds", [](const PyGame& g) { return g.Get().rounds(); },
          "The RoundResult of every round scored.")
      .def_property_readonly(
          "round_history",
          [](const PyGame& g) { return RoundHistory(g.Get()); },
          "This round's PlayedMoves, oldest first.")
      .def(
          "legal_moves",
          [](PyGame& g) {
            if (g.Get().over()) return std::vector<PyMove>();
            return LegalInApiOrder(g.Get().position(), g.generator());
          },
          "Every legal move of the seat to move, in the referee's order and "
          "notation (empty once over).")
      .def(
          "validate",
          [](const PyGame& g, py::handle move) { PlayArg(g.Get(), move); },
          py::arg("move"),
          "Returns if the move is legal now; IllegalMoveError (the engine's "
          "reason) if not, GameOverError once over.")
      .def(
          "play",
          [](PyGame& g, py::handle move) {
            const Move mv = PlayArg(g.Get(), move);
            g.Mutable().PlayUnchecked(mv);
            return g.Get().history().back().outcome;
          },
          py::arg("move"),
          "Plays a legal move: the next seat moves, the next deal or round "
          "follows when hands are empty. Returns its Outcome. "
          "IllegalMoveError if illegal, GameOverError once over.")
      .def(
          "playout",
          [](PyGame& g, uint64_t seed, const std::string& until,
             const std::string& policy) {
            return g.Playout(seed, Value(ParsePlayUntil(until)),
                             Value(ParsePlayoutPolicy(policy)));
          },
          py::arg("seed"), py::arg("until") = "round",
          py::arg("policy") = "random",
          "Plays seeded moves in C++ with the GIL released until the round "
          "under way has been scored (until='round') or the game is over "
          "('game'); returns the moves played. policy='random': uniformly "
          "random legal moves (never a call-out); 'greedy': mostly the "
          "capture worth most (tools/playout/greedy_playout.h). Then read "
          "totals, rounds[-1] or result.")
      .def(
          "observe",
          [](const PyGame& g, int seat) {
            if (seat < 0 || seat >= g.Get().rules().players) {
              throw py::value_error(absl::StrCat("no seat ", seat));
            }
            return Observe(g.Get(), seat);
          },
          py::arg("seat"), "What `seat` may see now: an Observation.")
      .def(
          "earned_this_round",
          [](const PyGame& g, int side) {
            if (side < 0 || side >= g.Get().rules().Sides()) {
              throw py::value_error(absl::StrCat("no side ", side));
            }
            return g.Get().EarnedThisRound(side);
          },
          py::arg("side"),
          "The points `side` has certainly earned this round (as a "
          "call-out counts them).")
      .def(
          "round_score",
          [](const PyGame& g) {
            const Game& game = g.Get();
            if (game.rules().game != GameKind::kCassino) {
              Raise(absl::UnimplementedError(
                  "round_score: Cassino's scoring only (not Callabra or "
                  "Tablanette)"));
            }
            return ScoreRound(game.rules(), game.piles(), game.sweeps());
          },
          "This round scored as if it ended now (piles and sweeps so far, "
          "no leftovers): a RoundScore.")
      .def("copy", [](const PyGame& g) { return PyGame(g); })
      .def("__copy__", [](const PyGame& g) { return PyGame(g); })
      .def("__deepcopy__", [](const PyGame& g, py::dict) { return PyGame(g); });
}

}  // namespace cassino::py_engine
