// The SPRT (sprt.h) of one bot against another over recorded games: what
// `cassino stats --sprt` reports and what `cassino tournament --sprt`
// resumes from.
//
// Over Stats read with any filter (stats.h): when the two bots have
// duplicate pairs (the same deal, the seats swapped; stats.h says how games
// are matched) the test is pentanomial over those pairs, each counted by
// its two games' results from a's side (2 half points a win, 1 a game
// without a winner, 0 a loss); games not in a pair are left out. Without
// pairs it is trinomial over their pairwise results (head to head). Only
// finished games count; a forfeit is a loss of the side forfeiting, as
// everywhere.
//
// Lifetimes: values only.

#ifndef CASSINO_TOOLS_STATS_SPRT_RECORDS_H_
#define CASSINO_TOOLS_STATS_SPRT_RECORDS_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "competition/sprt.h"
#include "tools/stats/stats.h"

namespace cassino::stats {

// The pair counts of a against b (all zero when they have none); a and b
// name bots of `stats`.
competition::Pentanomial PairsBetween(const Stats& stats, absl::string_view a,
                                      absl::string_view b);

// The test as described above. NotFound (naming the bot) when a or b is not
// in `stats`; InvalidArgument when a == b.
absl::StatusOr<competition::SprtResult> SprtFromStats(
    const Stats& stats, absl::string_view a, absl::string_view b,
    const competition::SprtParams& params);

}  // namespace cassino::stats

#endif  // CASSINO_TOOLS_STATS_SPRT_RECORDS_H_
