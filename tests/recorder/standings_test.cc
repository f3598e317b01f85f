// ComputeStandings: what counts, the order and shared ranks
// (recorder/standings.h). The comparison with `cassino stats` over a real
// tournament is in tests/referee/tournament_test.cc.

#include "recorder/standings.h"

#include "gtest/gtest.h"

namespace cassino::recorder {
namespace {

TEST(StandingsTest, CountsWinsLossesDrawsForfeitsAndPoints) {
  const std::vector<StandingGame> games = {
      {{"a", "b"}, {0, 0}, 0, {21, 10}},   // a beats b
      {{"b", "a"}, {1, 0}, 1, {3, 0}},     // b forfeits: a wins
      {{"a", "c"}, {0, 0}, -1, {11, 11}},  // a draws c
      {{"c", "c"}, {0, 1}, 0, {5, 6}},     // self-play: counts for nobody
  };
  const std::vector<Standing> s = ComputeStandings({"a", "b", "c", "d"}, games);
  ASSERT_EQ(s.size(), 4u);
  EXPECT_EQ(s[0], (Standing{1, "a", 3, 2, 0, 1, 0, 2.5, 32, 24}));
  // c and d: c drew once (score 0.5); b lost twice (0); d has played nothing.
  EXPECT_EQ(s[1].bot, "c");
  EXPECT_EQ(s[1].rank, 2);
  EXPECT_EQ(s[1].games, 1);
  EXPECT_EQ(s[1].forfeits, 1);  // its self-play forfeit still counts
  EXPECT_EQ(s[2].bot, "d");     // 0 points difference beats b's -8
  EXPECT_EQ(s[2].rank, 3);
  EXPECT_EQ(s[3], (Standing{4, "b", 2, 0, 2, 0, 1, 0, 13, 21}));
}

TEST(StandingsTest, EqualScoreAndDifferenceShareARank) {
  const std::vector<StandingGame> games = {
      {{"a", "b"}, {0, 0}, 0, {21, 10}},
      {{"b", "a"}, {0, 0}, 0, {21, 10}},
  };
  const std::vector<Standing> s = ComputeStandings({"b", "a", "z"}, games);
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0].bot, "a");
  EXPECT_EQ(s[0].rank, 1);
  EXPECT_EQ(s[1].bot, "b");
  EXPECT_EQ(s[1].rank, 1);
  EXPECT_EQ(s[2].rank, 3);
  EXPECT_EQ(s[2].games, 0);
}

}  // namespace
}  // namespace cassino::recorder
