// tools/tournament/tournament.h without a referee: the schedules of
// multiplayer and partnership tournaments (seat holdings, partner pairs,
// shared seeds), and the standings and ratings of multi-seat outcomes.

#include <algorithm>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "rules/schedule.h"
#include "tools/tournament/tournament.h"

namespace cassino::tournament {
namespace {

TournamentOptions Options(int bots, int players, bool partnerships, int games,
                          bool duplicate,
                          Schedule schedule = Schedule::kRoundRobin) {
  TournamentOptions o;
  for (int i = 0; i < bots; ++i) {
    o.bots.push_back({std::string(1, static_cast<char>('a' + i)), "true"});
  }
  o.players = players;
  o.partnerships = partnerships;
  o.games_per_pairing = games;
  o.duplicate = duplicate;
  o.schedule = schedule;
  o.seed[0] = 7;
  return o;
}

int Choose(int n, int k) {
  int64_t c = 1;
  for (int i = 0; i < k; ++i) c = c * (n - i) / (i + 1);
  return static_cast<int>(c);
}

// (bot, seat) -> games.
std::map<std::pair<int, int>, int> SeatHoldings(
    const std::vector<GameSpec>& games) {
  std::map<std::pair<int, int>, int> held;
  for (const GameSpec& g : games) {
    for (size_t s = 0; s < g.bot.size(); ++s) ++held[{g.bot[s], int(s)}];
  }
  return held;
}

TEST(TournamentScheduleTest, TwoPlayersIsTheRefereesSchedule) {
  for (bool duplicate : {false, true}) {
    for (Schedule sch : {Schedule::kRoundRobin, Schedule::kGauntlet}) {
      for (int games : {1, 2, 3}) {
        const TournamentOptions o = Options(4, 2, false, games, duplicate, sch);
        const std::vector<GameSpec> mine = MakeSchedule(o);
        const std::vector<ScheduledGame> theirs = TournamentSchedule(
            4, sch == Schedule::kGauntlet, games, duplicate, o.seed);
        ASSERT_EQ(mine.size(), theirs.size());
        for (size_t i = 0; i < mine.size(); ++i) {
          EXPECT_EQ(mine[i].index, theirs[i].index);
          EXPECT_EQ(mine[i].bot,
                    (std::vector<int>{theirs[i].seat[0], theirs[i].seat[1]}));
          EXPECT_EQ(mine[i].seed, theirs[i].seed);
        }
      }
    }
  }
}

TEST(TournamentScheduleTest, ThreePlayersRoundRobinRotatesEverySeat) {
  // 5 bots, 3 seats: C(5,3) = 10 tables, 3 games each (--games 2 rounded
  // up to a multiple of 3).
  const std::vector<GameSpec> games =
      MakeSchedule(Options(5, 3, false, 2, false));
  ASSERT_EQ(games.size(), 10u * 3);
  std::set<std::vector<int>> tables;
  for (size_t i = 0; i < games.size(); ++i) {
    EXPECT_EQ(games[i].index, static_cast<int>(i));
    std::vector<int> t = games[i].bot;
    std::sort(t.begin(), t.end());
    EXPECT_EQ(std::set<int>(t.begin(), t.end()).size(), 3u);
    tables.insert(t);
  }
  EXPECT_EQ(tables.size(), 10u);
  // Each bot is at C(4,2) = 6 tables, holding each seat once per table.
  for (const auto& [key, n] : SeatHoldings(games)) EXPECT_EQ(n, 6) << key.first;
  EXPECT_EQ(SeatHoldings(games).size(), 5u * 3);
  // The first table, rotated: abc, bca, cab.
  EXPECT_EQ(games[0].bot, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(games[1].bot, (std::vector<int>{1, 2, 0}));
  EXPECT_EQ(games[2].bot, (std::vector<int>{2, 0, 1}));
  // Without duplicate every game has its own deal.
  std::set<Seed> seeds;
  for (const GameSpec& g : games) seeds.insert(g.seed);
  EXPECT_EQ(seeds.size(), games.size());
}

TEST(TournamentScheduleTest, GauntletSeatsBotZeroAtEveryTable) {
  for (int players : {3, 4, 5, 6}) {
    const int bots = 7;
    const std::vector<GameSpec> games = MakeSchedule(
        Options(bots, players, false, 1, false, Schedule::kGauntlet));
    ASSERT_EQ(games.size(),
              static_cast<size_t>(Choose(bots - 1, players - 1) * players))
        << players;
    for (const GameSpec& g : games) {
      EXPECT_NE(std::find(g.bot.begin(), g.bot.end(), 0), g.bot.end());
    }
    // Bot 0 holds every seat at every table once.
    for (int s = 0; s < players; ++s) {
      EXPECT_EQ((SeatHoldings(games)[{0, s}]), Choose(bots - 1, players - 1));
    }
  }
}

TEST(TournamentScheduleTest, DuplicateRotatesOneDealThroughTheSeats) {
  for (int players : {3, 4, 5, 6}) {
    const std::vector<GameSpec> games =
        MakeSchedule(Options(players + 1, players, false, 2 * players, true));
    // C(P+1, P) = P+1 tables, 2P games each: two deals per table.
    ASSERT_EQ(games.size(), static_cast<size_t>((players + 1) * 2 * players));
    std::map<Seed, std::vector<const GameSpec*>> by_seed;
    for (const GameSpec& g : games) by_seed[g.seed].push_back(&g);
    EXPECT_EQ(by_seed.size(), static_cast<size_t>((players + 1) * 2));
    for (const auto& [seed, block] : by_seed) {
      ASSERT_EQ(block.size(), static_cast<size_t>(players));
      // Consecutive games; each bot of the table in each seat once.
      std::set<std::pair<int, int>> held;
      for (size_t k = 0; k < block.size(); ++k) {
        EXPECT_EQ(block[k]->index, block[0]->index + static_cast<int>(k));
        for (int s = 0; s < players; ++s) held.insert({block[k]->bot[s], s});
      }
      EXPECT_EQ(held.size(), static_cast<size_t>(players * players));
      EXPECT_EQ(block[0]->seed,
                BatchGameSeed(Options(1, 2, false, 1, false).seed,
                              static_cast<uint32_t>(block[0]->index)));
    }
  }
}

TEST(TournamentScheduleTest, PartnershipsPlayWithAndAgainstEveryBot) {
  // 5 bots: C(5,4) = 5 tables, 3 partner splits each, 4 rotations each.
  const std::vector<GameSpec> games =
      MakeSchedule(Options(5, 4, true, 1, false));
  ASSERT_EQ(games.size(), 5u * 3 * 4);
  std::map<std::pair<int, int>, int> partners, opponents;
  for (const GameSpec& g : games) {
    ASSERT_EQ(g.bot.size(), 4u);
    for (int s = 0; s < 4; ++s) {
      for (int t = s + 1; t < 4; ++t) {
        const auto key = std::minmax(g.bot[s], g.bot[t]);
        ++((s % 2 == t % 2) ? partners : opponents)[key];
      }
    }
  }
  // Every pair of bots: partners in 3 tables x 4 rotations... each pair is
  // at C(3,2) = 3 tables; at each, partners in 1 split, opponents in 2.
  EXPECT_EQ(partners.size(), 10u);
  EXPECT_EQ(opponents.size(), 10u);
  for (const auto& [pair, n] : partners) EXPECT_EQ(n, 3 * 4);
  for (const auto& [pair, n] : opponents) EXPECT_EQ(n, 3 * 2 * 4);
  // Every bot holds every seat equally often: at 4 tables, 3 splits, once
  // per rotation.
  for (const auto& [key, n] : SeatHoldings(games)) EXPECT_EQ(n, 4 * 3);
  EXPECT_EQ(SeatHoldings(games).size(), 5u * 4);
  // The first table's splits: a with b, then c, then d (seats 0 and 2).
  EXPECT_EQ(games[0].bot, (std::vector<int>{0, 2, 1, 3}));
  EXPECT_EQ(games[4].bot, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(games[8].bot, (std::vector<int>{0, 1, 3, 2}));
  // Rotation keeps partners opposite: a+b at seats 3+1.
  EXPECT_EQ(games[1].bot, (std::vector<int>{2, 1, 3, 0}));
}

TEST(TournamentScheduleTest, PartnershipDuplicateSharesOneDealPerRotation) {
  const std::vector<GameSpec> games =
      MakeSchedule(Options(4, 4, true, 4, true));
  ASSERT_EQ(games.size(), 12u);  // one table, 3 splits, 4 rotations
  for (int block = 0; block < 3; ++block) {
    for (int k = 1; k < 4; ++k) {
      EXPECT_EQ(games[4 * block + k].seed, games[4 * block].seed);
    }
    EXPECT_NE(games[4 * block].seed, games[(4 * block + 4) % 12].seed);
  }
}

TEST(TournamentScheduleTest, FewerBotsThanSeatsIsEmpty) {
  EXPECT_TRUE(MakeSchedule(Options(3, 4, false, 1, false)).empty());
}

GameOutcome Outcome(std::vector<int> bots, int winner, std::vector<int> totals,
                    int forfeiting_seat = -1) {
  GameOutcome g;
  g.spec.bot = std::move(bots);
  g.game_id = "g";
  g.winner = winner;
  g.reason = forfeiting_seat >= 0 ? "forfeit" : "target";
  g.totals = std::move(totals);
  g.forfeiting_seat = forfeiting_seat;
  return g;
}

TEST(TournamentScheduleTest, MultiSeatStandingsAddUp) {
  const TournamentOptions o = Options(4, 4, true, 1, false);
  // Teams a+c (seats 0, 2) and b+d: a+c win 21-15, then b+d by forfeit of
  // c's seat 2. A three-player game a, b, c: b wins.
  const std::vector<GameOutcome> games = {
      Outcome({0, 1, 2, 3}, 0, {21, 15}),
      Outcome({0, 1, 2, 3}, 1, {4, 10}, 2),
      Outcome({0, 1, 2}, 1, {9, 22, 15}),
  };
  const std::vector<Standing> table = ComputeStandings(o.bots, games);
  std::map<std::string, Standing> by;
  for (const Standing& s : table) by[s.bot] = s;
  EXPECT_EQ(by["a"].games, 3);
  EXPECT_EQ(by["a"].wins, 1);
  EXPECT_EQ(by["a"].losses, 2);
  EXPECT_EQ(by["b"].wins, 2);
  EXPECT_EQ(by["c"].forfeits, 1);
  EXPECT_EQ(by["d"].games, 2);
  EXPECT_EQ(by["a"].points_for, 21 + 4 + 9);
  EXPECT_EQ(by["a"].points_against, 15 + 10 + 22 + 15);
  int wins = 0, games_played = 0;
  for (const Standing& s : table) {
    wins += s.wins;
    games_played += s.games;
    EXPECT_EQ(s.games, s.wins + s.losses + s.draws);
  }
  // Two partnership games of 4 bots, one three-player game.
  EXPECT_EQ(games_played, 4 + 4 + 3);
  EXPECT_EQ(wins, 2 + 2 + 1);
}

TEST(TournamentScheduleTest, RatingsFollowTheFinishingOrder) {
  const TournamentOptions o = Options(3, 3, false, 1, false);
  // a always first, b second, c last, at every seat.
  std::vector<GameOutcome> games;
  for (int r = 0; r < 3; ++r) {
    std::vector<int> seats = {(0 + r) % 3, (1 + r) % 3, (2 + r) % 3};
    std::vector<int> totals(3);
    int winner = -1;
    for (int s = 0; s < 3; ++s) {
      totals[s] = seats[s] == 0 ? 21 : seats[s] == 1 ? 12 : 3;
      if (seats[s] == 0) winner = s;
    }
    games.push_back(Outcome(seats, winner, totals));
  }
  const std::vector<Rating> ratings = ComputeRatings(o.bots, games);
  ASSERT_EQ(ratings.size(), 3u);
  EXPECT_EQ(ratings[0].bot, "a");
  EXPECT_GT(ratings[0].elo, ratings[1].elo);
  EXPECT_GT(ratings[1].elo, ratings[2].elo);
  // Symmetric results: b sits at the mean.
  EXPECT_NEAR(ratings[1].elo, 1500, 0.5);
  // An error or an aborted game does not count.
  GameOutcome aborted = Outcome({2, 1, 0}, 0, {21, 0, 0});
  aborted.reason = "aborted";
  GameOutcome failed = Outcome({2, 1, 0}, 0, {21, 0, 0});
  failed.error = "CreateGame: down";
  std::vector<GameOutcome> more = games;
  more.push_back(aborted);
  more.push_back(failed);
  const std::vector<Rating> same = ComputeRatings(o.bots, more);
  for (int i = 0; i < 3; ++i) EXPECT_DOUBLE_EQ(same[i].elo, ratings[i].elo);
  EXPECT_EQ(ComputeStandings(o.bots, more), ComputeStandings(o.bots, games));
}

TEST(TournamentScheduleTest, DescribesMultiSeatGames) {
  const TournamentOptions o = Options(4, 4, true, 1, false);
  GameOutcome g = Outcome({0, 1, 2, 3}, 1, {15, 21});
  g.game_id = "G1";
  EXPECT_EQ(DescribeGame(g, o.bots), "G1 a+c vs b+d: b+d wins, totals 15-21");
  GameOutcome three = Outcome({2, 0, 1}, -1, {12, 12, 3});
  three.game_id = "G2";
  three.reason = "draw";
  EXPECT_EQ(DescribeGame(three, o.bots),
            "G2 c vs a vs b: no winner (draw), totals 12-12-3");
}

}  // namespace
}  // namespace cassino::tournament
