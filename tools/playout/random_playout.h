// Seeded random playouts: whole games with uniformly random legal moves.
//
// Used by `cassino simulate`, the property tests and the benchmarks. Game i
// of a batch with seed S uses the game seed BatchGameSeed(S, i) (deal.h); the
// move choices come from a std::mt19937_64 seeded with the first 8 bytes of
// the game seed (big-endian), so a batch replays identically everywhere.
// (Mt19937_64, mt19937_64.h, gives that sequence more cheaply.)

#ifndef CASSINO_TOOLS_PLAYOUT_RANDOM_PLAYOUT_H_
#define CASSINO_TOOLS_PLAYOUT_RANDOM_PLAYOUT_H_

#include <cstdint>
#include <random>

#include "rules/game.h"
#include "tools/playout/mt19937_64.h"

namespace cassino {

// Picks uniformly among the legal moves; reuses its buffers.
class RandomPlayer {
 public:
  explicit RandomPlayer(uint64_t seed) : rng_(seed) { moves_.reserve(64); }
  explicit RandomPlayer(const Seed& seed);
  // A uniformly random legal move; the game must not be over.
  Move Choose(const Game& game);
  Mt19937_64& rng() { return rng_; }

 private:
  Mt19937_64 rng_;
  MoveGenerator generator_;
  std::vector<Move> moves_;
};

// How far PlayRandomly plays.
enum class PlayUntil {
  kRoundEnd,  // until the round under way has been scored (or the game ends)
  kGameEnd,   // until the game is over
};

// Plays `player`'s moves on `game` as far as `until` says; returns the
// number of moves played (0 if the game is over). `Player` has
// `Move Choose(const Game&)` (RandomPlayer, GreedyPlayer).
template <typename Player>
int PlayOut(Game& game, Player& player, PlayUntil until) {
  const int start = game.turn();
  const size_t rounds = game.rounds().size();
  while (!game.over() &&
         (until == PlayUntil::kGameEnd || game.rounds().size() == rounds)) {
    game.PlayUnchecked(player.Choose(game));
  }
  return game.turn() - start;
}

// PlayOut with random moves (never a call-out): the loop of rules_bench's
// BM_RandomRounds and of the Python forward model's playouts (sdk/python).
int PlayRandomly(Game& game, RandomPlayer& player, PlayUntil until);

// Plays a whole game with random moves. Never calls out (the call-out
// option would end random games at once).
Game PlayRandomGame(const RuleSet& rules, const Seed& seed);

}  // namespace cassino

#endif  // CASSINO_TOOLS_PLAYOUT_RANDOM_PLAYOUT_H_
