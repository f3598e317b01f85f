// A finished game's finishing order and the pairwise results it implies:
// the one rule by which multi-side games enter pairwise ratings, shared by
// the tournament runner's standings (tools/tournament/tournament.h),
// `cassino stats` and the ladders' ratings (competition/ladder_table.h),
// so that all of them rate a record set alike (docs/tournaments.md,
// *Standings of multi-seat games*; docs/ladder.md).
//
// The rule. Sides (players, or teams in partnerships) are ranked with the
// game's winner first, then the other sides by final total, descending;
// sides with equal totals share a rank (competition ranking: 1, 2, 2, 4).
// A finished game without a winner ranks every side by total the same way.
// Every unordered pair of sides gives one pairwise result: the side with
// the better rank wins it, sides of equal rank draw it. With two sides the
// result is the game's win / loss / draw: the winner beats the other side,
// and a game without a winner (a shared highest total) is a draw whatever
// the totals say.
//
// Pure functions over values; no state.

#ifndef CASSINO_COMPETITION_FINISHING_ORDER_H_
#define CASSINO_COMPETITION_FINISHING_ORDER_H_

#include <vector>

namespace cassino::competition {

// rank[side], 0 the best; equal ranks are shared. `winner` is a side or -1
// (no winner; also any value outside [0, totals.size())). `totals` are the
// final totals per side.
std::vector<int> FinishingRanks(int winner, const std::vector<int>& totals);

// One pairwise result: side `a` against side `b` (a < b); `score` is a's
// share: 1 a won, 0.5 a draw, 0 b won.
struct PairwiseResult {
  int a = 0;
  int b = 0;
  double score = 0.5;
  friend bool operator==(const PairwiseResult&,
                         const PairwiseResult&) = default;
};

// The sides(sides - 1) / 2 pairwise results of a finished game, ordered by
// (a, b).
std::vector<PairwiseResult> PairwiseResults(int winner,
                                            const std::vector<int>& totals);

// The ranks the pairwise results above are drawn from, for a rating over
// whole games (competition/rating.h): two sides, the winner 0 and the other
// 1, or both 0 when nobody won (whatever the totals); more sides,
// FinishingRanks.
std::vector<int> OutcomeRanks(int winner, const std::vector<int>& totals);

}  // namespace cassino::competition

#endif  // CASSINO_COMPETITION_FINISHING_ORDER_H_
