// competition/ladder_table.h: a ladder's table is the fold of its rated
// games in (finished_us, game_id) order whatever the order they are added
// in; versions are rated apart; the leaderboard is conservative.

#include "competition/ladder_table.h"

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace cassino::competition {
namespace {

LadderGame Game(int i, const std::string& a, const std::string& b, int winner) {
  LadderGame g;
  g.game_id = "g" + std::to_string(1000 + i);
  g.created_us = 1000 * i;
  g.finished_us = 1000 * i + 500;
  g.sides = {{a}, {b}};
  g.winner = winner;
  g.totals = {winner == 0 ? 21 : 10, winner == 1 ? 21 : 10};
  return g;
}

// A season among four versions of known strength: x beats y beats z.
std::vector<LadderGame> Season(int n) {
  std::mt19937_64 rng(7);
  const std::vector<std::string> bots = {"x@1", "y@1", "z@1", "w@1"};
  std::vector<LadderGame> games;
  for (int i = 0; i < n; ++i) {
    const int a = static_cast<int>(rng() % 4);
    int b = static_cast<int>(rng() % 3);
    if (b >= a) ++b;
    // The better (lower index) wins 80% of the time; w is like z.
    const int sa = std::min(a, 2), sb = std::min(b, 2);
    int winner = sa == sb                        ? static_cast<int>(rng() % 2)
                 : (rng() % 10 < 8) == (sa < sb) ? 0
                                                 : 1;
    games.push_back(Game(i, bots[a], bots[b], winner));
  }
  // Two games end in the same microsecond: the id orders them.
  games[5].finished_us = games[4].finished_us;
  return games;
}

TEST(LadderTableTest, AnyOrderOfAddingGivesTheSameTableExactly) {
  const std::vector<LadderGame> season = Season(300);
  LadderTable in_order{RatingModel()};
  for (const LadderGame& g : season) {
    EXPECT_EQ(in_order.Add(g), LadderTable::Added::kApplied);
  }
  std::vector<LadderGame> shuffled = season;
  std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937_64(3));
  LadderTable any_order{RatingModel()};
  for (const LadderGame& g : shuffled) any_order.Add(g);
  const auto a = in_order.Leaderboard(true);
  const auto b = any_order.Leaderboard(true);
  ASSERT_EQ(a.size(), 4u);
  ASSERT_EQ(b.size(), a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].bot, b[i].bot);
    EXPECT_EQ(a[i].rating, b[i].rating);  // bit for bit
    EXPECT_EQ(a[i].games, b[i].games);
  }
  EXPECT_EQ(in_order.games(), 300);
  // Known strengths, known order.
  EXPECT_EQ(a[0].bot, "x@1");
  EXPECT_EQ(a[1].bot, "y@1");
  // Adding a game twice changes nothing.
  EXPECT_EQ(any_order.Add(season[10]), LadderTable::Added::kAlreadyHere);
}

TEST(LadderTableTest, SettledGamesAreForgottenAndOlderOnesAreStale) {
  const std::vector<LadderGame> season = Season(50);
  LadderTable whole{RatingModel()};
  LadderTable settled{RatingModel()};
  for (int i = 0; i < 50; ++i) {
    whole.Add(season[i]);
    settled.Add(season[i]);
    if (i % 7 == 6) settled.Settle(season[i - 3].finished_us);
  }
  EXPECT_EQ(whole.Leaderboard(true)[0].rating,
            settled.Leaderboard(true)[0].rating);
  // A game before the settled ones cannot be put in its place any more.
  LadderGame early = Game(0, "x@1", "y@1", 1);
  early.game_id = "g0999";
  EXPECT_EQ(settled.Add(early), LadderTable::Added::kStale);
  // One after them still can, out of order among the unsettled.
  LadderGame late = Game(48, "x@1", "y@1", 1);
  late.game_id = "g1048a";
  EXPECT_EQ(settled.Add(late), LadderTable::Added::kApplied);
  EXPECT_EQ(whole.Add(late), LadderTable::Added::kApplied);
  EXPECT_EQ(whole.Find("y@1")->rating, settled.Find("y@1")->rating);
}

TEST(LadderTableTest, SelfPlayAndMalformedGamesAreNotRated) {
  LadderTable t{RatingModel()};
  EXPECT_EQ(t.Add(Game(1, "x@1", "x@1", 0)), LadderTable::Added::kNotRated);
  LadderGame one_side = Game(2, "x@1", "y@1", 0);
  one_side.sides.pop_back();
  EXPECT_EQ(t.Add(one_side), LadderTable::Added::kNotRated);
  EXPECT_EQ(t.games(), 0);
  // Two versions of one account are different bots (the matchmaker never
  // seats them together, but a record that does is rated as written).
  EXPECT_EQ(t.Add(Game(3, "x@1", "x@2", 0)), LadderTable::Added::kApplied);
}

TEST(LadderTableTest, EachVersionFromScratchTheNewestIsCurrent) {
  LadderTable t{RatingModel()};
  for (int i = 0; i < 20; ++i) t.Add(Game(i, "a@1", "b@1", 0));
  for (int i = 20; i < 23; ++i) t.Add(Game(i, "a@2", "b@1", 1));
  const auto board = t.Leaderboard(false);
  ASSERT_EQ(board.size(), 2u);
  const auto a2 = t.Find("a@2");
  ASSERT_TRUE(a2.has_value());
  EXPECT_EQ(a2->games, 3);
  EXPECT_EQ(a2->losses, 3);
  EXPECT_EQ(a2->account, "a");
  EXPECT_EQ(a2->version, "2");
  // a@1's history is kept, listed with every version.
  const auto all = t.Leaderboard(true);
  ASSERT_EQ(all.size(), 3u);
  for (const Standing& s : all) EXPECT_EQ(s.current, s.bot != "a@1") << s.bot;
  for (const Standing& s : board) EXPECT_NE(s.bot, "a@1");
}

// Three lucky wins do not lead: a bot with a long good record stays above
// a newcomer that won its three games, on the conservative rating, even
// though the newcomer's mean may be higher.
TEST(LadderTableTest, ThreeLuckyGamesDoNotLead) {
  LadderTable t{RatingModel()};
  int i = 0;
  for (; i < 60; ++i) t.Add(Game(i, "solid@1", "field@1", i % 4 == 0 ? 1 : 0));
  for (int j = 0; j < 3; ++j, ++i) t.Add(Game(i, "lucky@1", "field@1", 0));
  const auto board = t.Leaderboard(false);
  ASSERT_EQ(board[0].bot, "solid@1");
  const auto lucky = t.Find("lucky@1");
  EXPECT_GT(lucky->rating.sigma, t.Find("solid@1")->rating.sigma);
  EXPECT_EQ(lucky->wins, 3);
}

TEST(LadderTableTest, TeamsAndHistory) {
  LadderTable t{RatingModel(), /*history=*/true};
  LadderGame g;
  g.game_id = "p1";
  g.finished_us = 10;
  g.sides = {{"a@1", "b@1"}, {"c@1", "d@1"}};
  g.winner = 1;
  g.totals = {8, 21};
  EXPECT_EQ(t.Add(g), LadderTable::Added::kApplied);
  EXPECT_LT(t.RatingOf("a@1").mu, 25);
  EXPECT_GT(t.RatingOf("d@1").mu, 25);
  ASSERT_EQ(t.history().at("c@1").size(), 1u);
  EXPECT_EQ(t.history().at("c@1")[0].game_id, "p1");
  EXPECT_EQ(t.Find("a@1")->losses, 1);
  EXPECT_EQ(t.Find("c@1")->wins, 1);
  EXPECT_EQ(t.RatingOf("nobody@1"), NewRating(RatingModel()));
}

}  // namespace
}  // namespace cassino::competition
