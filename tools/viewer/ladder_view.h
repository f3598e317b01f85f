// The viewer's ladder page data (docs/viewer.md, *Ladders*; docs/ladder.md):
// the JSON of /api/ladders and /api/ladders/NAME, read from the record
// databases with `cassino stats --ladder`'s code (tools/stats/ladder.h), so
// the page shows exactly the figures the referee's leaderboard and stats
// give. Its own files, beside the viewer's (viewer.h), which serve it.

#ifndef CASSINO_TOOLS_VIEWER_LADDER_VIEW_H_
#define CASSINO_TOOLS_VIEWER_LADDER_VIEW_H_

#include <cstddef>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace cassino::viewer {

// {"ladders": [{"name", "status", "rules", "duplicate", "created_us"}]}:
// every ladder any of the databases records, by name.
absl::StatusOr<std::string> LaddersJson(const std::vector<std::string>& paths);

// The most points of one version's rating history /api/ladders/NAME sends
// (a chart has fewer pixels across): the answer's size is bounded however
// long the ladder runs.
inline constexpr size_t kMaxHistoryPoints = 400;

// The indexes of the points kept of `n` when at most `max` (>= 2) may be:
// all of them when n <= max; else the first, the last and max - 2 others
// evenly spaced between, in increasing order.
std::vector<size_t> KeptHistoryPoints(size_t n, size_t max);

// One ladder: its row's facts, "leaderboard" (every version, rank, bot,
// mu, sigma, conservative, games, wins, losses, draws, provisional,
// current, on_probation, probation_reason), "history" (per bot, its rating
// after each game: [finished_us, mu, sigma]; at most kMaxHistoryPoints of
// them, the first and last game's always, see KeptHistoryPoints), "recent"
// (the last 50 games,
// newest first), "pairs" (games and results of each pair of versions).
// NotFound when no database has the ladder nor any game labelled with it.
absl::StatusOr<std::string> LadderJson(const std::vector<std::string>& paths,
                                       const std::string& name);

}  // namespace cassino::viewer

#endif  // CASSINO_TOOLS_VIEWER_LADDER_VIEW_H_
