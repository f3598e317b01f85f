// competition/rating.h: Weng and Lin's Plackett–Luce update, against values
// worked out by hand from the paper's formulas and against the properties
// any rating of a game must have.

#include "competition/rating.h"

#include <cmath>
#include <vector>

#include "gtest/gtest.h"

namespace cassino::competition {
namespace {

const RatingModel kModel;

// The closed form for two new players (sigma^2 = 625/9, beta^2 = 625/36):
// c^2 = 2 (sigma^2 + beta^2); the winner's mu grows by
// Omega = sigma^2 / (2c); each sigma shrinks by sqrt(1 - Delta) with
// Delta = (1/4) (sigma / c) (sigma^2 / c^2).
TEST(RatingTest, TwoNewPlayersOneWins) {
  const double s2 = 625.0 / 9.0, b2 = 625.0 / 36.0;
  const double c = std::sqrt(2 * (s2 + b2));
  const double omega = s2 / (2 * c);
  const double delta = 0.25 * (std::sqrt(s2) / c) * (s2 / (c * c));
  const auto after =
      RateGame(kModel, {{NewRating(kModel)}, {NewRating(kModel)}}, {0, 1});
  ASSERT_EQ(after.size(), 2u);
  EXPECT_NEAR(after[0][0].mu, 25 + omega, 1e-12);
  EXPECT_NEAR(after[1][0].mu, 25 - omega, 1e-12);
  EXPECT_NEAR(after[0][0].mu, 27.63523138347365, 1e-12);
  EXPECT_NEAR(after[0][0].sigma, std::sqrt(s2 * (1 - delta)), 1e-12);
  EXPECT_NEAR(after[0][0].sigma, 8.065506316323548, 1e-12);
  EXPECT_EQ(after[0][0].sigma, after[1][0].sigma);
  // The order of the sides does not matter, only their places.
  const auto swapped =
      RateGame(kModel, {{NewRating(kModel)}, {NewRating(kModel)}}, {1, 0});
  EXPECT_EQ(swapped[1][0], after[0][0]);
  EXPECT_EQ(swapped[0][0], after[1][0]);
}

TEST(RatingTest, ADrawBetweenEqualsMovesNoMeanAndShrinksBoth) {
  const auto after =
      RateGame(kModel, {{NewRating(kModel)}, {NewRating(kModel)}}, {0, 0});
  EXPECT_DOUBLE_EQ(after[0][0].mu, 25.0);
  EXPECT_DOUBLE_EQ(after[1][0].mu, 25.0);
  EXPECT_NEAR(after[0][0].sigma, 8.065506316323548, 1e-12);
  // A draw against a stronger player raises the weaker one.
  const auto upset = RateGame(kModel, {{{20, 3}}, {{30, 3}}}, {0, 0});
  EXPECT_GT(upset[0][0].mu, 20);
  EXPECT_LT(upset[1][0].mu, 30);
}

TEST(RatingTest, AnUpsetMovesMoreThanAnExpectedWin) {
  const Rating strong{30, 2}, weak{20, 2};
  const auto expected = RateGame(kModel, {{strong}, {weak}}, {0, 1});
  const auto upset = RateGame(kModel, {{strong}, {weak}}, {1, 0});
  EXPECT_GT(expected[0][0].mu, strong.mu);
  EXPECT_LT(upset[0][0].mu, strong.mu);
  EXPECT_GT(strong.mu - upset[0][0].mu, expected[0][0].mu - strong.mu);
}

// A partnership: each partner moves by its share of the team's variance,
// so the less certain partner moves more; both move the same way.
TEST(RatingTest, PartnersShareTheirTeamsUpdateByVariance) {
  const Rating sure{25, 2}, unsure{25, 6};
  const auto after = RateGame(
      kModel, {{sure, unsure}, {NewRating(kModel), NewRating(kModel)}}, {0, 1});
  ASSERT_EQ(after[0].size(), 2u);
  const double d_sure = after[0][0].mu - sure.mu;
  const double d_unsure = after[0][1].mu - unsure.mu;
  EXPECT_GT(d_sure, 0);
  EXPECT_GT(d_unsure, 0);
  EXPECT_NEAR(d_unsure / d_sure, 36.0 / 4.0, 1e-9);
  EXPECT_LT(after[1][0].mu, 25);
  EXPECT_EQ(after[1][0], after[1][1]);  // the same ratings move alike
}

// Three sides, the last two tied: the first gains, the tied pair lose the
// same, and the ranks, not the side order, decide.
TEST(RatingTest, ThreeSidesWithATie) {
  const Rating r = NewRating(kModel);
  const auto after = RateGame(kModel, {{r}, {r}, {r}}, {0, 1, 1});
  EXPECT_GT(after[0][0].mu, 25);
  EXPECT_LT(after[1][0].mu, 25);
  EXPECT_DOUBLE_EQ(after[1][0].mu, after[2][0].mu);
  const auto order = RateGame(kModel, {{r}, {r}, {r}}, {2, 0, 1});
  EXPECT_GT(order[1][0].mu, order[2][0].mu);
  EXPECT_GT(order[2][0].mu, order[0][0].mu);
  for (const auto& side : order) EXPECT_LT(side[0].sigma, r.sigma);
}

TEST(RatingTest, ConservativeRatingAndWinProbability) {
  EXPECT_DOUBLE_EQ(Conservative(kModel, {30, 2}), 24.0);
  EXPECT_DOUBLE_EQ(
      WinProbability(kModel, {NewRating(kModel)}, {NewRating(kModel)}), 0.5);
  const double p = WinProbability(kModel, {{30, 1}}, {{20, 1}});
  EXPECT_GT(p, 0.85);
  EXPECT_NEAR(p + WinProbability(kModel, {{20, 1}}, {{30, 1}}), 1.0, 1e-12);
}

TEST(RatingTest, TauWidensBeforeTheGame) {
  RatingModel drifting = kModel;
  drifting.tau = 1.0;
  const Rating r{25, 1};
  const auto a = RateGame(kModel, {{r}, {r}}, {0, 1});
  const auto b = RateGame(drifting, {{r}, {r}}, {0, 1});
  EXPECT_GT(b[0][0].mu - 25, a[0][0].mu - 25);
}

}  // namespace
}  // namespace cassino::competition
