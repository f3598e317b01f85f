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
  const std::vector<Move>& last_moves() const { return moves_; }
  Mt19937_64& rng() { return rng_; }

 private:
  Mt19937_64 rng_;
  MoveGenerator generator_;
  std::vector<Move> moves_;
};

// Plays a whole game with random moves. Never calls out (the call-out
// option would end random games at once).
Game PlayRandomGame(const RuleSet& rules, const Seed& seed);

}  // namespace cassino

#endif  // CASSINO_TOOLS_PLAYOUT_RANDOM_PLAYOUT_H_
