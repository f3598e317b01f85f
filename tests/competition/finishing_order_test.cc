// competition/finishing_order.h: the finishing order of a game's sides and
// the pairwise results drawn from it, on hand-made results.

#include "competition/finishing_order.h"

#include <vector>

#include "gtest/gtest.h"

namespace cassino::competition {
namespace {

using R = PairwiseResult;

TEST(FinishingOrderTest, TwoSidesAreTheGamesWinLossOrDraw) {
  EXPECT_EQ(PairwiseResults(0, {21, 9}), (std::vector<R>{{0, 1, 1.0}}));
  EXPECT_EQ(PairwiseResults(1, {21, 9}), (std::vector<R>{{0, 1, 0.0}}));
  // The winner wins even with the lower total (e.g. by the other's forfeit).
  EXPECT_EQ(PairwiseResults(1, {15, 3}), (std::vector<R>{{0, 1, 0.0}}));
  // No winner: a draw, whatever the totals.
  EXPECT_EQ(PairwiseResults(-1, {12, 12}), (std::vector<R>{{0, 1, 0.5}}));
  EXPECT_EQ(PairwiseResults(-1, {14, 12}), (std::vector<R>{{0, 1, 0.5}}));
}

TEST(FinishingOrderTest, WinnerFirstThenTotalsDescending) {
  // Side 2 won with 21; side 0 has 15, side 1 has 18, side 3 has 4.
  EXPECT_EQ(FinishingRanks(2, {15, 18, 21, 4}), (std::vector<int>{2, 1, 0, 3}));
  EXPECT_EQ(PairwiseResults(2, {15, 18, 21, 4}), (std::vector<R>{{0, 1, 0.0},
                                                                 {0, 2, 0.0},
                                                                 {0, 3, 1.0},
                                                                 {1, 2, 0.0},
                                                                 {1, 3, 1.0},
                                                                 {2, 3, 1.0}}));
}

TEST(FinishingOrderTest, WinnerFirstEvenBelowAnotherTotal) {
  // Side 0 won (say, another side forfeited) with fewer points than side 1.
  EXPECT_EQ(FinishingRanks(0, {10, 20, 5}), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(PairwiseResults(0, {10, 20, 5}),
            (std::vector<R>{{0, 1, 1.0}, {0, 2, 1.0}, {1, 2, 1.0}}));
}

TEST(FinishingOrderTest, EqualTotalsAmongNonWinnersDraw) {
  // The winner's total equals a loser's: the winner still wins that pair.
  EXPECT_EQ(FinishingRanks(1, {9, 21, 9, 21}), (std::vector<int>{2, 0, 2, 1}));
  EXPECT_EQ(PairwiseResults(1, {9, 21, 9, 21}), (std::vector<R>{{0, 1, 0.0},
                                                                {0, 2, 0.5},
                                                                {0, 3, 0.0},
                                                                {1, 2, 1.0},
                                                                {1, 3, 1.0},
                                                                {2, 3, 0.0}}));
}

TEST(FinishingOrderTest, NoWinnerRanksByTotalWithTies) {
  // A shared highest total (match=deal_rounds draw) among three sides.
  EXPECT_EQ(FinishingRanks(-1, {30, 12, 30}), (std::vector<int>{0, 2, 0}));
  EXPECT_EQ(PairwiseResults(-1, {30, 12, 30}),
            (std::vector<R>{{0, 1, 1.0}, {0, 2, 0.5}, {1, 2, 0.0}}));
  // A winner out of range counts as none.
  EXPECT_EQ(PairwiseResults(7, {30, 12, 30}),
            PairwiseResults(-1, {30, 12, 30}));
}

TEST(FinishingOrderTest, EveryPairOnceAndScoresAddUp) {
  for (int sides = 2; sides <= 6; ++sides) {
    std::vector<int> totals;
    for (int s = 0; s < sides; ++s) totals.push_back((s * 7) % 5);
    for (int winner = -1; winner < sides; ++winner) {
      const std::vector<R> r = PairwiseResults(winner, totals);
      ASSERT_EQ(r.size(), static_cast<size_t>(sides * (sides - 1) / 2));
      // The winner wins every pair it is in.
      for (const R& p : r) {
        if (p.a == winner) {
          EXPECT_EQ(p.score, 1.0);
        }
        if (p.b == winner) {
          EXPECT_EQ(p.score, 0.0);
        }
      }
    }
  }
}

TEST(FinishingOrderTest, OutcomeRanksAreThoseThePairwiseResultsComeFrom) {
  EXPECT_EQ(OutcomeRanks(0, {21, 9}), (std::vector<int>{0, 1}));
  EXPECT_EQ(OutcomeRanks(1, {21, 9}), (std::vector<int>{1, 0}));
  EXPECT_EQ(OutcomeRanks(-1, {14, 12}), (std::vector<int>{0, 0}));
  EXPECT_EQ(OutcomeRanks(2, {15, 18, 21, 4}), (std::vector<int>{2, 1, 0, 3}));
  EXPECT_EQ(OutcomeRanks(-1, {15, 18, 18}), (std::vector<int>{2, 0, 0}));
}

}  // namespace
}  // namespace cassino::competition
