#include "tools/playout/playout_policy.h"

#include "absl/status/status.h"
#include "tools/playout/greedy_playout.h"

namespace cassino {

absl::StatusOr<PlayUntil> ParsePlayUntil(absl::string_view text) {
  if (text == "round") return PlayUntil::kRoundEnd;
  if (text == "game") return PlayUntil::kGameEnd;
  return absl::InvalidArgumentError("until is 'round' or 'game'");
}

absl::StatusOr<PlayoutPolicy> ParsePlayoutPolicy(absl::string_view text) {
  if (text == "random") return PlayoutPolicy::kRandom;
  if (text == "greedy") return PlayoutPolicy::kGreedy;
  return absl::InvalidArgumentError("policy is 'random' or 'greedy'");
}

int PlaySeeded(Game& game, uint64_t seed, PlayUntil until,
               PlayoutPolicy policy) {
  if (policy == PlayoutPolicy::kGreedy) {
    GreedyPlayer player(seed);
    return PlayOut(game, player, until);
  }
  RandomPlayer player(seed);
  return PlayRandomly(game, player, until);
}

}  // namespace cassino
