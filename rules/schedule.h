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
#include <cstdint>
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

// The general schedule, at tables of `players` seats (2 to 6); for two
// players it is TournamentSchedule's. Tables: round robin, every
// `players`-subset of the participants in lexicographic order; gauntlet,
// participant 0 with every (players - 1)-subset of the others. With
// `partnerships` (4 players) each table plays its three partner splits
// (t0 with t1, t2 or t3, partners opposite: seats 0 and 2). Each table or
// split plays games_per_table games (at least 1; rounded up to a multiple
// of `players` when players >= 3 or with duplicate): its game k seats
// position (s + k) mod players at seat s, so each participant holds each
// seat equally often. Seeds as in TournamentSchedule: with duplicate, the
// `players` games of one rotation share the seed of its first game.
struct TableGame {
  int index = 0;
  std::vector<int> seat;  // participant indices, per seat
  Seed seed{};
};
struct TableScheduleSpec {
  int participants = 0;
  int players = 2;
  bool partnerships = false;
  bool gauntlet = false;
  int games_per_table = 1;
  bool duplicate = false;
};
std::vector<TableGame> TableSchedule(const TableScheduleSpec& spec,
                                     const Seed& seed);
// How many games TableSchedule(spec) makes, computed without making them
// (the number of tables grows as C(participants, players)).
int64_t TableScheduleSize(const TableScheduleSpec& spec);

}  // namespace cassino

#endif  // CASSINO_RULES_SCHEDULE_H_
