// Playouts by name, as the forward models offer them (sdk/python's
// Game.playout, sdk/node's game.playout): seeded random or greedy moves
// (random_playout.h, greedy_playout.h) to the end of the round under way
// or of the game.

#ifndef CASSINO_TOOLS_PLAYOUT_PLAYOUT_POLICY_H_
#define CASSINO_TOOLS_PLAYOUT_PLAYOUT_POLICY_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "rules/game.h"
#include "tools/playout/random_playout.h"

namespace cassino {

enum class PlayoutPolicy { kRandom, kGreedy };

// "round" or "game"; InvalidArgument otherwise.
absl::StatusOr<PlayUntil> ParsePlayUntil(absl::string_view text);
// "random" or "greedy"; InvalidArgument otherwise.
absl::StatusOr<PlayoutPolicy> ParsePlayoutPolicy(absl::string_view text);

// PlayOut with a RandomPlayer or a GreedyPlayer seeded with `seed`;
// returns the moves played.
int PlaySeeded(Game& game, uint64_t seed, PlayUntil until,
               PlayoutPolicy policy);

}  // namespace cassino

#endif  // CASSINO_TOOLS_PLAYOUT_PLAYOUT_POLICY_H_
