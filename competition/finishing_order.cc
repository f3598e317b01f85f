#include "competition/finishing_order.h"

#include <cstddef>

namespace cassino::competition {

std::vector<int> FinishingRanks(int winner, const std::vector<int>& totals) {
  const int sides = static_cast<int>(totals.size());
  if (winner < 0 || winner >= sides) winner = -1;
  std::vector<int> rank(sides, 0);
  for (int s = 0; s < sides; ++s) {
    if (s == winner) continue;  // first
    // One more than the sides ahead of s: the winner, and every other side
    // with a higher total.
    int ahead = winner >= 0 ? 1 : 0;
    for (int o = 0; o < sides; ++o) {
      if (o != s && o != winner && totals[o] > totals[s]) ++ahead;
    }
    rank[s] = ahead;
  }
  return rank;
}

std::vector<PairwiseResult> PairwiseResults(int winner,
                                            const std::vector<int>& totals) {
  const int sides = static_cast<int>(totals.size());
  if (winner < 0 || winner >= sides) winner = -1;
  std::vector<PairwiseResult> out;
  if (sides == 2) {
    // The game's own result: a game without a winner is a draw.
    out.push_back({0, 1, winner < 0 ? 0.5 : winner == 0 ? 1.0 : 0.0});
    return out;
  }
  const std::vector<int> rank = FinishingRanks(winner, totals);
  for (int a = 0; a < sides; ++a) {
    for (int b = a + 1; b < sides; ++b) {
      out.push_back({a, b,
                     rank[a] < rank[b]   ? 1.0
                     : rank[a] > rank[b] ? 0.0
                                         : 0.5});
    }
  }
  return out;
}

std::vector<int> OutcomeRanks(int winner, const std::vector<int>& totals) {
  const int sides = static_cast<int>(totals.size());
  if (winner < 0 || winner >= sides) winner = -1;
  if (sides == 2) {
    if (winner < 0) return {0, 0};
    return winner == 0 ? std::vector<int>{0, 1} : std::vector<int>{1, 0};
  }
  return FinishingRanks(winner, totals);
}

}  // namespace cassino::competition
