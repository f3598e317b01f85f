// Greedy playouts: a cheap heuristic policy for Monte Carlo search, which
// plays much more like a player than uniformly random moves do, so that a
// playout's result says more about the move that started it.
//
// GreedyPlayer::Choose, on the full position of a Game (every hand known,
// as in a sampled game): with probability 1/8 a uniformly random legal move
// (never a call-out); otherwise the move of highest worth, ties to the
// first in the generator's order, where (Worth of cards below)
//   - a capture is worth the cards it takes, the played card included,
//     plus the rules' sweep points when it empties the table;
//   - a build is worth kBuildWorth (it holds cards for a later capture);
//   - a trail is worth minus the trailed card's worth (it is left to take).
// Worth(cards) = per card 0.1 (towards most cards) + 0.05 if a spade
// (towards most spades) + the card's own points under the rules' scoring
// (TD 2, 2S 1 in the standard game) + each_ace and each_spade points.
//
// Deterministic for a seed, like RandomPlayer.

#ifndef CASSINO_TOOLS_PLAYOUT_GREEDY_PLAYOUT_H_
#define CASSINO_TOOLS_PLAYOUT_GREEDY_PLAYOUT_H_

#include <cstdint>
#include <vector>

#include "rules/game.h"
#include "rules/legal_moves.h"
#include "tools/playout/mt19937_64.h"

namespace cassino {

class GreedyPlayer {
 public:
  static constexpr double kBuildWorth = 0.3;

  explicit GreedyPlayer(uint64_t seed) : rng_(seed) {}
  // The move described above; the game must not be over.
  Move Choose(const Game& game);

  // The worth of `cards` under `rules` (see the file comment).
  static double Worth(const RuleSet& rules, CardSet cards);

 private:
  Mt19937_64 rng_;
  MoveGenerator generator_;
  std::vector<Move> moves_;
};

}  // namespace cassino

#endif  // CASSINO_TOOLS_PLAYOUT_GREEDY_PLAYOUT_H_
