#include "rules/schedule.h"

#include <algorithm>
#include <utility>

namespace cassino {
namespace {

// Every k-subset of `from` in lexicographic order, each sorted.
void Subsets(const std::vector<int>& from, int k, size_t start,
             std::vector<int>& current, std::vector<std::vector<int>>& out) {
  if (static_cast<int>(current.size()) == k) {
    out.push_back(current);
    return;
  }
  for (size_t i = start; i < from.size(); ++i) {
    if (from.size() - i < static_cast<size_t>(k) - current.size()) break;
    current.push_back(from[i]);
    Subsets(from, k, i + 1, current, out);
    current.pop_back();
  }
}

int Players(const TableScheduleSpec& spec) {
  return std::clamp(spec.players, 2, 6);
}

// Games per table or partner split.
int GamesPerTable(const TableScheduleSpec& spec) {
  const int p = Players(spec);
  int per = std::max(1, spec.games_per_table);
  if (p >= 3 || spec.duplicate) per = (per + p - 1) / p * p;
  return per;
}

bool Teams(const TableScheduleSpec& spec) {
  return spec.partnerships && Players(spec) == 4;
}

}  // namespace

std::vector<TableGame> TableSchedule(const TableScheduleSpec& spec,
                                     const Seed& seed) {
  const int n = spec.participants;
  const int p = Players(spec);
  std::vector<TableGame> games;
  if (n < p) return games;
  std::vector<std::vector<int>> tables;
  std::vector<int> current;
  std::vector<int> from;
  if (spec.gauntlet) {
    for (int i = 1; i < n; ++i) from.push_back(i);
    current = {0};
  } else {
    for (int i = 0; i < n; ++i) from.push_back(i);
  }
  Subsets(from, p, 0, current, tables);
  const int per = GamesPerTable(spec);
  for (const std::vector<int>& t : tables) {
    std::vector<std::vector<int>> arrangements;
    if (Teams(spec)) {
      // t[0] partnered with t[k]; partners opposite: seats 0 and 2.
      for (int k = 1; k < 4; ++k) {
        std::vector<int> rest;
        for (int i = 1; i < 4; ++i) {
          if (i != k) rest.push_back(t[i]);
        }
        arrangements.push_back({t[0], rest[0], t[k], rest[1]});
      }
    } else {
      arrangements.push_back(t);
    }
    for (const std::vector<int>& base : arrangements) {
      for (int k = 0; k < per; ++k) {
        TableGame g;
        g.index = static_cast<int>(games.size());
        const int r = k % p;
        for (int s = 0; s < p; ++s) g.seat.push_back(base[(s + r) % p]);
        // Duplicate rotations share the seed of the rotation's first game.
        const int seed_index = spec.duplicate ? g.index - r : g.index;
        g.seed = BatchGameSeed(seed, static_cast<uint32_t>(seed_index));
        games.push_back(std::move(g));
      }
    }
  }
  return games;
}

int64_t TableScheduleSize(const TableScheduleSpec& spec) {
  const int p = Players(spec);
  const int from = spec.gauntlet ? spec.participants - 1 : spec.participants;
  const int k = spec.gauntlet ? p - 1 : p;
  if (spec.participants < p) return 0;
  // C(from, k), exactly: each step's product is divisible by i + 1.
  int64_t tables = 1;
  for (int i = 0; i < k; ++i) tables = tables * (from - i) / (i + 1);
  return tables * GamesPerTable(spec) * (Teams(spec) ? 3 : 1);
}

std::vector<ScheduledGame> TournamentSchedule(int participants, bool gauntlet,
                                              int games_per_pairing,
                                              bool duplicate,
                                              const Seed& seed) {
  TableScheduleSpec spec;
  spec.participants = participants;
  spec.gauntlet = gauntlet;
  spec.games_per_table = games_per_pairing;
  spec.duplicate = duplicate;
  std::vector<ScheduledGame> games;
  for (const TableGame& t : TableSchedule(spec, seed)) {
    games.push_back({t.index, {t.seat[0], t.seat[1]}, t.seed});
  }
  return games;
}

}  // namespace cassino
