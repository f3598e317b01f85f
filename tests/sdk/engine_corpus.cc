// engine_corpus: the C++ engine's answers over seeded games, for the
// Python forward model's test (tests/sdk/python/engine_test.py) to compare
// with, exactly.
//
//   engine_corpus > corpus.json
//
// For each rule set of kRuleSets, kGames games with seeds
// BatchGameSeed(SHA-256("engine_corpus"), i), played with moves drawn by a
// std::mt19937_64 seeded with i from the referee-ordered legal moves (a
// call-out only when nothing else is legal). Per game it writes the rules,
// the seed (hex) and, at every turn, the position (Position::ToString), the
// legal moves in the referee's order (Game::LegalMoves, InNotationOrder),
// the move played and the position ApplyGameMove makes of it; then each
// round's points and totals, the result, and three playouts of the fresh
// game (PlaySeeded: random moves to the round's end and to the game's,
// greedy ones to the game's) with the turn and totals they reach.

#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "nlohmann/json.hpp"
#include "rules/deal.h"
#include "rules/game.h"
#include "rules/game_moves.h"
#include "tools/playout/playout_policy.h"

namespace cassino {
namespace {

using nlohmann::json;

constexpr const char* kRuleSets[] = {
    "standard",
    "standard players=3",
    "standard players=4 partnerships=on",
    "standard builder_obligation=v3",
    "standard call_out=on",
    "standard dual_ten=on",
    "standard card_values=royal ace_high=on",
    "standard draw=on",
    "standard initial_pairs=on",
    "standard multiple_builds=on",
    "standard defaults_cost=2",
    "royal",
    "pluck",
    "california",
    "five_spades",
    "callabra",
    "tablanette",
};
constexpr int kGames = 2;

json Playout(const RuleSet& rules, const Seed& seed, uint64_t player_seed,
             PlayUntil until, PlayoutPolicy policy) {
  Game game = *Game::Create(rules, DeckSource::FromSeed(seed));
  const int moves = PlaySeeded(game, player_seed, until, policy);
  return {{"seed", player_seed},
          {"until", until == PlayUntil::kRoundEnd ? "round" : "game"},
          {"policy", policy == PlayoutPolicy::kGreedy ? "greedy" : "random"},
          {"moves", moves},
          {"turn", game.turn()},
          {"totals", game.totals()},
          {"over", game.over()}};
}

json PlayGame(const RuleSet& rules, const Seed& seed, uint64_t index) {
  Game game = *Game::Create(rules, DeckSource::FromSeed(seed));
  std::mt19937_64 rng(index);
  json turns = json::array();
  while (!game.over()) {
    const std::vector<NotatedMove> moves = InNotationOrder(game.LegalMoves());
    json notations = json::array();
    for (const NotatedMove& m : moves) notations.push_back(m.notation);
    size_t pick = rng() % moves.size();
    if (moves[pick].move.kind == MoveKind::kCallOut && moves.size() > 1) {
      pick = (pick + 1) % moves.size();
    }
    Position applied = game.position();
    ApplyGameMove(applied, moves[pick].move);
    turns.push_back({{"position", game.position().ToString()},
                     {"moves", notations},
                     {"move", moves[pick].notation},
                     {"applied", applied.ToString()}});
    game.PlayUnchecked(moves[pick].move);
  }
  json rounds = json::array();
  for (const RoundResult& r : game.rounds()) {
    std::vector<int> points;
    for (const SideTally& t : r.score.sides) points.push_back(t.points);
    rounds.push_back({{"points", points}, {"totals_after", r.totals_after}});
  }
  const GameResult& result = *game.result();
  return {{"rules", rules.ToString()},
          {"seed", ToHex(seed)},
          {"turns", turns},
          {"rounds", rounds},
          {"result",
           {{"winner", result.winner},
            {"reason", std::string(GameEndReasonName(result.reason))},
            {"totals", result.totals}}},
          {"playouts",
           {Playout(rules, seed, index + 99, PlayUntil::kRoundEnd,
                    PlayoutPolicy::kRandom),
            Playout(rules, seed, index + 99, PlayUntil::kGameEnd,
                    PlayoutPolicy::kRandom),
            Playout(rules, seed, index + 99, PlayUntil::kGameEnd,
                    PlayoutPolicy::kGreedy)}}};
}

int Main() {
  const Seed batch = Sha256(TextBytes("engine_corpus"));
  json games = json::array();
  uint64_t index = 0;
  for (const char* text : kRuleSets) {
    absl::StatusOr<RuleSet> rules = RuleSet::Parse(text);
    if (!rules.ok()) {
      std::fprintf(stderr, "engine_corpus: %s: %s\n", text,
                   std::string(rules.status().message()).c_str());
      return 1;
    }
    for (int g = 0; g < kGames; ++g, ++index) {
      games.push_back(PlayGame(
          *rules, BatchGameSeed(batch, static_cast<uint32_t>(index)), index));
    }
  }
  std::printf("%s\n", games.dump().c_str());
  return 0;
}

}  // namespace
}  // namespace cassino

int main() { return cassino::Main(); }
