#include "rules/schedule.h"

#include <algorithm>
#include <utility>

namespace cassino {

std::vector<ScheduledGame> TournamentSchedule(int participants, bool gauntlet,
                                              int games_per_pairing,
                                              bool duplicate,
                                              const Seed& seed) {
  std::vector<std::pair<int, int>> pairings;
  if (gauntlet) {
    for (int j = 1; j < participants; ++j) pairings.emplace_back(0, j);
  } else {
    for (int i = 0; i < participants; ++i) {
      for (int j = i + 1; j < participants; ++j) pairings.emplace_back(i, j);
    }
  }
  int per_pairing = std::max(1, games_per_pairing);
  if (duplicate && per_pairing % 2 == 1) ++per_pairing;
  std::vector<ScheduledGame> games;
  games.reserve(pairings.size() * per_pairing);
  for (const auto& [a, b] : pairings) {
    for (int k = 0; k < per_pairing; ++k) {
      ScheduledGame g;
      g.index = static_cast<int>(games.size());
      const bool swap = k % 2 == 1;
      g.seat = {swap ? b : a, swap ? a : b};
      // Duplicate pairs share the seed of the pair's first game.
      const int seed_index = duplicate && swap ? g.index - 1 : g.index;
      g.seed = BatchGameSeed(seed, static_cast<uint32_t>(seed_index));
      games.push_back(g);
    }
  }
  return games;
}

}  // namespace cassino
