// competition/matchmaking.h: the matchmaker's rules, each on a small case,
// and a simulated day of a ladder under an injected clock.

#include "competition/matchmaking.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace cassino::competition {
namespace {

const RatingModel kModel;

Candidate Bot(const std::string& account, double mu, int games = 50,
              const std::string& version = "1") {
  Candidate c;
  c.account = account;
  c.bot = account + "@" + version;
  c.free_slots = 1;
  c.rating = {mu, 2.0};
  c.rated_games = games;
  return c;
}

// Records a game of these accounts' first versions ("a" plays as "a@1").
void Played(MatchHistory& history, int64_t at_us,
            const std::vector<std::string>& accounts) {
  std::vector<std::string> bots;
  for (const std::string& a : accounts) bots.push_back(a + "@1");
  history.Started(at_us, accounts, bots);
}

TEST(MatchmakingTest, NoBotPlaysItselfOrAnotherVersionOfItself) {
  MatchHistory history(3600000);
  // Only one account, in two versions: nobody to play.
  auto matches = MakeMatches({}, kModel, {Bot("a", 25), Bot("a", 25, 50, "2")},
                             history, 10);
  EXPECT_TRUE(matches.empty());
  matches = MakeMatches({}, kModel,
                        {Bot("a", 25), Bot("a", 25, 50, "2"), Bot("b", 25)},
                        history, 10);
  ASSERT_EQ(matches.size(), 1u);
  std::set<std::string> accounts(matches[0].accounts.begin(),
                                 matches[0].accounts.end());
  EXPECT_EQ(accounts, (std::set<std::string>{"a", "b"}));
}

TEST(MatchmakingTest, CloseRatingsAreMatchedAndTheSameInputsGiveTheSame) {
  MatchHistory history(3600000);
  // Every pair has met once (no discovery bonus).
  for (const char* a : {"a", "b", "c", "d"}) {
    for (const char* b : {"a", "b", "c", "d"}) {
      if (std::string(a) < b) Played(history, 0, {a, b});
    }
  }
  history.Expire(3600000);  // out of the period, still met
  const std::vector<Candidate> bots = {Bot("a", 30), Bot("b", 10), Bot("c", 29),
                                       Bot("d", 11)};
  const auto m = MakeMatches({}, kModel, bots, history, 10);
  ASSERT_EQ(m.size(), 2u);
  std::set<std::set<std::string>> pairs;
  for (const Match& x : m) {
    pairs.insert({x.accounts.begin(), x.accounts.end()});
  }
  EXPECT_EQ(pairs, (std::set<std::set<std::string>>{{"a", "c"}, {"b", "d"}}));
  const auto again = MakeMatches({}, kModel, bots, history, 10);
  ASSERT_EQ(again.size(), m.size());
  for (size_t i = 0; i < m.size(); ++i) EXPECT_EQ(again[i].seats, m[i].seats);
}

TEST(MatchmakingTest, PairSaturationAndTheBotRateLimitHoldForAPeriod) {
  MatchSettings s;
  s.period_ms = 1000;
  s.max_pair_games = 3;
  s.max_bot_games = 5;
  MatchHistory history(s.period_ms);
  for (int i = 0; i < 3; ++i) Played(history, 100 * i, {"a", "b"});
  // a and b are saturated: nothing, though both are free.
  EXPECT_TRUE(
      MakeMatches(s, kModel, {Bot("a", 25), Bot("b", 25)}, history, 5).empty());
  // With c there, both play c (b first: it started fewer... equal, so by
  // name; one match per bot per call).
  auto m = MakeMatches(s, kModel, {Bot("a", 25), Bot("b", 25), Bot("c", 40)},
                       history, 5);
  ASSERT_EQ(m.size(), 1u);
  EXPECT_NE(std::find(m[0].accounts.begin(), m[0].accounts.end(), "c"),
            m[0].accounts.end());
  // A period later (the injected clock), they may meet again.
  history.Expire(200 + 1'000'000);
  EXPECT_EQ(history.PairGames("a@1", "b@1"), 0);
  EXPECT_TRUE(history.Met("a@1", "b@1"));
  EXPECT_EQ(
      MakeMatches(s, kModel, {Bot("a", 25), Bot("b", 25)}, history, 5).size(),
      1u);
  // The rate limit: a bot that started max_bot_games in the period waits.
  MatchHistory busy(s.period_ms);
  for (int i = 0; i < 5; ++i) Played(busy, i, {"a", "x" + std::to_string(i)});
  EXPECT_TRUE(
      MakeMatches(s, kModel, {Bot("a", 25), Bot("b", 25)}, busy, 5).empty());
}

// A new version of an account is a new bot: the pairs its old version
// saturated do not hold it back, so it is placed quickly.
TEST(MatchmakingTest, ANewVersionHasPairsOfItsOwn) {
  MatchSettings s;
  s.max_pair_games = 2;
  MatchHistory history(3600000);
  for (int i = 0; i < 2; ++i) Played(history, i, {"a", "b"});
  EXPECT_TRUE(
      MakeMatches(s, kModel, {Bot("a", 25), Bot("b", 25)}, history, 5).empty());
  const auto m =
      MakeMatches(s, kModel, {Bot("a", 25, 0, "2"), Bot("b", 25)}, history, 5);
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(std::set<std::string>(m[0].seats.begin(), m[0].seats.end()),
            (std::set<std::string>{"a@2", "b@1"}));
}

// A bot with many free slots does not crowd the others out: anchors come
// by fewest games in the period, and each bot plays once per call.
TEST(MatchmakingTest, TheBotWithFewestGamesGoesFirst) {
  MatchHistory history(3600000);
  for (int i = 0; i < 4; ++i) Played(history, i, {"greedy", "z"});
  Candidate greedy = Bot("greedy", 25);
  greedy.free_slots = 64;
  const auto m = MakeMatches({}, kModel,
                             {greedy, Bot("p", 25), Bot("q", 25), Bot("z", 25)},
                             history, 1);
  ASSERT_EQ(m.size(), 1u);
  std::set<std::string> accounts(m[0].accounts.begin(), m[0].accounts.end());
  EXPECT_EQ(accounts, (std::set<std::string>{"p", "q"}));
  const auto all = MakeMatches(
      {}, kModel, {greedy, Bot("p", 25), Bot("q", 25), Bot("z", 25)}, history,
      10);
  int greedy_games = 0;
  for (const Match& x : all) {
    greedy_games += std::count(x.accounts.begin(), x.accounts.end(), "greedy");
  }
  EXPECT_EQ(greedy_games, 1);
}

TEST(MatchmakingTest, SeatZeroGoesToTheBotThatHadItLess) {
  MatchHistory history(3600000);
  Candidate a = Bot("a", 25), b = Bot("b", 25);
  a.seat_balance = 2;
  b.seat_balance = -1;
  auto m = MakeMatches({}, kModel, {a, b}, history, 1);
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].seats, (std::vector<std::string>{"b@1", "a@1"}));
  a.seat_balance = -3;
  m = MakeMatches({}, kModel, {a, b}, history, 1);
  EXPECT_EQ(m[0].seats, (std::vector<std::string>{"a@1", "b@1"}));
}

// A provisional bot's first games sample the whole range of ratings.
TEST(MatchmakingTest, ANewBotMeetsASpreadOfRatings) {
  std::vector<Candidate> field;
  for (int i = 0; i < 10; ++i) {
    field.push_back(Bot("f" + std::to_string(i), 10 + 2.0 * i));
  }
  std::set<std::string> met;
  MatchHistory history(3600000);
  // Everyone else has played more this period: the newcomer anchors.
  for (const Candidate& f : field) {
    for (int i = 0; i < 10; ++i) Played(history, 0, {f.account});
  }
  for (int n = 0; n < 6; ++n) {
    Candidate fresh = Bot("new", 25, n);
    fresh.rating.sigma = 8;
    std::vector<Candidate> all = field;
    all.insert(all.begin(), fresh);
    const auto m = MakeMatches({}, kModel, all, history, 1);
    ASSERT_EQ(m.size(), 1u);
    history.Started(1 + n, m[0].accounts, m[0].seats);
    for (const std::string& a : m[0].accounts) {
      if (a != "new") met.insert(a);
    }
  }
  // Six games, six different opponents from across the field (its lowest
  // third, middle and highest third all met).
  EXPECT_EQ(met.size(), 6u);
  int low = 0, high = 0;
  for (const std::string& a : met) {
    const int i = std::stoi(a.substr(1));
    low += i < 4;
    high += i >= 6;
  }
  EXPECT_GE(low, 2);
  EXPECT_GE(high, 2);
}

TEST(MatchmakingTest, PartnershipsSplitIntoBalancedTeamsAcrossTheTable) {
  MatchSettings s;
  s.players = 4;
  s.partnerships = true;
  MatchHistory history(3600000);
  const auto m = MakeMatches(
      s, kModel, {Bot("a", 30), Bot("b", 28), Bot("c", 22), Bot("d", 20)},
      history, 1);
  ASSERT_EQ(m.size(), 1u);
  ASSERT_EQ(m[0].accounts.size(), 4u);
  // The anchor (a: by name, all equal) partners d (30+20 vs 28+22), seats
  // 0 and 2.
  EXPECT_EQ(m[0].accounts[0], "a");
  EXPECT_EQ(m[0].accounts[2], "d");
}

// A simulated day: eight bots of spread ratings, each free again when its
// last game has ended, games lasting 3 to 7 minutes (a fixed sequence);
// the injected clock advances a minute per call. Close pairs meet more often
// than distant ones, every pair meets, the pair cap holds in every period, and
// the games are spread evenly over the bots.
TEST(MatchmakingTest, ADayOfMatchesMeetsEveryoneCloseOnesMoreOften) {
  MatchSettings s;
  s.period_ms = 3600000;
  s.max_pair_games = 6;
  MatchHistory history(s.period_ms);
  std::map<std::pair<int, int>, int> met;
  std::map<int, int> games;
  std::map<std::pair<int, int>, std::vector<int64_t>> starts;
  std::vector<int64_t> busy_until(8, 0);
  int played = 0;
  for (int minute = 0; minute < 24 * 60; ++minute) {
    const int64_t now = int64_t{minute} * 60'000'000;
    history.Expire(now);
    std::vector<Candidate> free;
    for (int i = 0; i < 8; ++i) {
      if (busy_until[i] <= now) {
        free.push_back(Bot("b" + std::to_string(i), 10 + 3.0 * i));
      }
    }
    for (const Match& m : MakeMatches(s, kModel, free, history, 100)) {
      history.Started(now, m.accounts, m.seats);
      const int a = std::stoi(m.accounts[0].substr(1));
      const int b = std::stoi(m.accounts[1].substr(1));
      ++met[{std::min(a, b), std::max(a, b)}];
      starts[{std::min(a, b), std::max(a, b)}].push_back(now);
      const int64_t length = int64_t{3 + (played++ * 7) % 5} * 60'000'000;
      for (int x : {a, b}) {
        ++games[x];
        busy_until[x] = now + length;
      }
    }
  }
  EXPECT_EQ(met.size(), 28u);  // every pair of 8
  auto times = [&](int a, int b) { return met[std::make_pair(a, b)]; };
  // Neighbours far more often than the far ends, and than farther pairs.
  EXPECT_GT(times(3, 4), 2 * times(0, 7));
  EXPECT_GT(times(0, 1), times(0, 4));
  EXPECT_GT(times(6, 7), times(3, 7));
  // The cap: never more than 6 games of a pair within an hour.
  for (const auto& [pair, t] : starts) {
    for (size_t i = 0; i + 6 < t.size(); ++i) {
      EXPECT_GE(t[i + 6] - t[i], int64_t{3600} * 1'000'000)
          << pair.first << "-" << pair.second;
    }
  }
  // About a game every five to six minutes: the same number for every bot,
  // within 5% of the mean.
  double mean = 0;
  for (const auto& [bot, n] : games) mean += n / 8.0;
  for (const auto& [bot, n] : games) {
    EXPECT_NEAR(n, mean, 0.05 * mean) << bot;
  }
  for (int a = 0; a < 8; ++a) {
    std::printf("b%d:", a);
    for (int b = 0; b < 8; ++b)
      std::printf(" %3d", a == b ? 0 : times(std::min(a, b), std::max(a, b)));
    std::printf("\n");
  }
}

}  // namespace
}  // namespace cassino::competition
