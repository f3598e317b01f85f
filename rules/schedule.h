// The schedule of a two-player tournament, shared by the local `cassino
// tournament` and the referee's own tournaments (docs/tournaments.md).
//
// Pairings: round robin, every (i, j) with i < j in participant order;
// gauntlet, (0, j) for each j >= 1. Each pairing (a, b) plays
// games_per_pairing consecutive games (at least 1; rounded up to even with
// duplicate); its game k seats a at seat 0 when k is even and b otherwise.
// Games are numbered 0, 1, 2, ... through the pairings in order. Game i's
// seed is BatchGameSeed(seed, i) (deal.h); with duplicate, the second game
// of each pair (k odd) reuses the seed of game i - 1, so both bots play the
// deal from both seats.
//
// Lifetimes: values.

#ifndef CASSINO_RULES_SCHEDULE_H_
#define CASSINO_RULES_SCHEDULE_H_

#include <array>
#include <vector>

#include "rules/deal.h"

namespace cassino {

struct ScheduledGame {
  int index = 0;
  std::array<int, 2> seat = {0, 0};  // participant indices, per seat
  Seed seed{};
};

std::vector<ScheduledGame> TournamentSchedule(int participants, bool gauntlet,
                                              int games_per_pairing,
                                              bool duplicate, const Seed& seed);

}  // namespace cassino

#endif  // CASSINO_RULES_SCHEDULE_H_
