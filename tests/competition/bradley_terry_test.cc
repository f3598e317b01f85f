// competition/bradley_terry.h: closed forms, the maximum-likelihood
// condition, and the prior's effect.

#include "competition/bradley_terry.h"

#include <cmath>
#include <vector>

#include "gtest/gtest.h"

namespace cassino::competition {
namespace {

TEST(BradleyTerryTest, TwoBotsMatchTheClosedForm) {
  // 30-10: strength ratio 3, Elo gap 400 log10(3); Var(theta diff) =
  // 1 / (n p (1-p)) = 1 / 7.5; each centred rating has half the gap's SE.
  const Ratings r = FitBradleyTerry({{0, 30}, {10, 0}}, 0);
  EXPECT_TRUE(r.converged);
  EXPECT_NEAR(r.elo[0] - r.elo[1], 400 * std::log10(3.0), 1e-6);
  EXPECT_NEAR(r.elo[0] + r.elo[1], 3000, 1e-6);
  const double k = 400 / std::log(10.0);
  EXPECT_NEAR(r.se[0], k * std::sqrt(1 / 7.5) / 2, 1e-6);
  EXPECT_NEAR(r.se[1], r.se[0], 1e-9);
  EXPECT_NEAR(
      r.los[0][1],
      0.5 * std::erfc(-std::log(3.0) / std::sqrt(1 / 7.5) / std::sqrt(2.0)),
      1e-9);
}

TEST(BradleyTerryTest, HandMadeTableOrdering) {
  // A beats B 7-3, C 8-2 and D 8-2; B beats C 6-4 and D 7-2 with one
  // draw (draws count half to each); C beats D 8-2.
  const std::vector<std::vector<double>> table = {
      {0, 7, 8, 8},
      {3, 0, 6, 7.5},
      {2, 4, 0, 8},
      {2, 2.5, 2, 0},
  };
  const Ratings r = FitBradleyTerry(table, 0);
  EXPECT_TRUE(r.converged);
  EXPECT_GT(r.elo[0], r.elo[1]);
  EXPECT_GT(r.elo[1], r.elo[2]);
  EXPECT_GT(r.elo[2], r.elo[3]);
  for (double se : r.se) {
    EXPECT_TRUE(std::isfinite(se));
    EXPECT_GT(se, 0);
  }
  EXPECT_GT(r.los[0][3], 0.99);
  // The maximum-likelihood condition: each bot's expected wins equal its
  // actual wins.
  const double k = 400 / std::log(10.0);
  for (size_t i = 0; i < 4; ++i) {
    double actual = 0, expected = 0;
    for (size_t j = 0; j < 4; ++j) {
      if (i == j) continue;
      actual += table[i][j];
      const double p = 1 / (1 + std::exp(-(r.elo[i] - r.elo[j]) / k));
      expected += (table[i][j] + table[j][i]) * p;
    }
    EXPECT_NEAR(actual, expected, 1e-6) << i;
  }
  // The prior shrinks towards the mean but keeps the order.
  const Ratings shrunk = FitBradleyTerry(table, 1);
  EXPECT_GT(shrunk.elo[0], shrunk.elo[1]);
  EXPECT_LT(shrunk.elo[0] - shrunk.elo[3], r.elo[0] - r.elo[3]);
}

TEST(BradleyTerryTest, UnbeatenBotStaysFiniteWithThePrior) {
  const Ratings r = FitBradleyTerry({{0, 10}, {0, 0}}, 1);
  EXPECT_TRUE(r.converged);
  EXPECT_TRUE(std::isfinite(r.elo[0]));
  EXPECT_GT(r.elo[0], r.elo[1]);
  EXPECT_TRUE(std::isfinite(r.se[0]));
  // Without it the maximum-likelihood estimate does not exist.
  EXPECT_FALSE(FitBradleyTerry({{0, 10}, {0, 0}}, 0).converged);
}

}  // namespace
}  // namespace cassino::competition
