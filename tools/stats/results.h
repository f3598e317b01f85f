// The third pass of `cassino stats`: from the games read (game_table.h) and
// the scan's per-bot counts (event_scan.h) to the tables of Stats: results
// per bot, head to head, seat advantage, duplicate pairs, and the ratings.
// The rules of what counts are the contract in stats.h. Internal to
// tools/stats.

#ifndef CASSINO_TOOLS_STATS_RESULTS_H_
#define CASSINO_TOOLS_STATS_RESULTS_H_

#include "tools/stats/event_scan.h"
#include "tools/stats/game_table.h"
#include "tools/stats/stats.h"

namespace cassino::stats::internal {

// Fills stats->bots, head_to_head, los, duplicates, seats and the rating
// fit's fields; adds the duplicate pairs to stats->summary.
void Summarize(const GameTable& table, const Partial& total,
               const Options& options, Stats* stats);

}  // namespace cassino::stats::internal

#endif  // CASSINO_TOOLS_STATS_RESULTS_H_
