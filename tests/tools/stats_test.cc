// Tests of tools/stats: a database written the way the referee writes it
// (engine games recorded through the Recorder), read back by ReadStats and
// compared with tallies computed here from what was played; the rating fit
// and the Wilson interval on hand-made inputs; the CSV / JSON / HTML
// formats parsed or rendered back; the `cassino stats` command.

#include "tools/stats/stats.h"

#include <png.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "competition/sprt.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "recorder/recorder.h"
#include "rules/position.h"
#include "tests/tools/stats_fixture.h"
#include "tools/stats/sprt_records.h"

namespace cassino::stats {
namespace {

using testing::GamePlan;
using ::testing::HasSubstr;
using ::testing::Not;
using testing::PlayedGame;
using testing::SeatPlan;

// ---------------------------------------------------------------------------
// The database: a league of three bots (one greedy, two random) playing
// duplicate pairs, plus a cup with 3- and 4-player games, forfeits,
// self-play, an aborted and a running game.

constexpr const char* kBots[] = {"greedy", "random_a", "random_b"};
constexpr int kLeagueSeeds = 12;

SeatPlan Plan(const std::string& bot) {
  SeatPlan s;
  s.bot = bot;
  if (bot == "greedy") {
    s.policy = testing::GreedyMove;
    s.elapsed_base_ms = 200;
    s.reject_every = 10;
  } else if (bot == "random_a") {
    s.elapsed_base_ms = 100;
  } else {
    s.elapsed_base_ms = 300;
    s.reject_every = 25;
  }
  return s;
}

Seed MakeSeed(int i) {
  Seed seed{};
  seed[0] = static_cast<uint8_t>(i);
  seed[1] = static_cast<uint8_t>(i >> 8);
  seed[31] = 0x5a;
  return seed;
}

int64_t Day(const char* date) { return *ParseDate(date); }

std::vector<GamePlan> Plans() {
  std::vector<GamePlan> plans;
  int n = 0;
  auto add = [&](GamePlan p) {
    p.rng_seed = 1000 + n++;
    plans.push_back(std::move(p));
  };
  const std::vector<std::pair<int, int>> pairs = {{0, 1}, {0, 2}, {1, 2}};
  // League: every pair on every seed, both seat orders.
  int64_t t = Day("2026-01-10");
  for (int s = 0; s < kLeagueSeeds; ++s) {
    for (auto [a, b] : pairs) {
      for (int swap = 0; swap < 2; ++swap) {
        GamePlan p;
        p.game_id = absl::StrCat("league-", s, "-", a, b, "-", swap);
        p.label = "league";
        p.seats = {Plan(kBots[swap ? b : a]), Plan(kBots[swap ? a : b])};
        p.seed = MakeSeed(s);
        p.explicit_decks = s % 4 == 3;
        p.created_us = t += 6 * 3600'000'000LL;  // 4 a day, 18 days
        add(p);
      }
    }
  }
  // Cup, a month later.
  t = Day("2026-02-15");
  for (int r = 0; r < 3; ++r) {  // 3 players, rotating seats
    GamePlan p;
    p.game_id = absl::StrCat("cup-3p-", r);
    p.label = "cup";
    for (int k = 0; k < 3; ++k) p.seats.push_back(Plan(kBots[(k + r) % 3]));
    p.seed = MakeSeed(100 + r);
    p.created_us = t += 60'000'000;
    add(p);
  }
  for (int r = 0; r < 2; ++r) {  // partnerships: greedy holds both of team 0
    GamePlan p;
    p.game_id = absl::StrCat("cup-4p-", r);
    p.label = "cup";
    p.rules = "standard partnerships=on";
    p.seats = {Plan("greedy"), Plan("random_a"), Plan("greedy"),
               Plan("random_b")};
    p.seed = MakeSeed(200 + r);
    p.created_us = t += 60'000'000;
    add(p);
  }
  {
    GamePlan p;  // random_a (seat 1) runs out of time
    p.game_id = "cup-forfeit-time";
    p.label = "cup";
    p.seats = {Plan("greedy"), Plan("random_a")};
    p.seed = MakeSeed(300);
    p.stop_after_moves = 10;
    p.forfeit_seat = 1;
    p.forfeit_reason = "time";
    p.created_us = t += 60'000'000;
    add(p);
  }
  {
    GamePlan p;  // random_b (seat 0) submits illegal moves too often
    p.game_id = "cup-forfeit-illegal";
    p.label = "cup";
    p.seats = {Plan("random_b"), Plan("greedy")};
    p.seed = MakeSeed(301);
    p.stop_after_moves = 5;
    p.forfeit_seat = 0;
    p.forfeit_reason = "illegal";
    p.created_us = t += 60'000'000;
    add(p);
  }
  {
    GamePlan p;  // self-play
    p.game_id = "cup-self";
    p.label = "cup";
    p.seats = {Plan("greedy"), Plan("greedy")};
    p.seed = MakeSeed(302);
    p.created_us = t += 60'000'000;
    add(p);
  }
  {
    GamePlan p;
    p.game_id = "cup-aborted";
    p.label = "cup";
    p.seats = {Plan("random_a"), Plan("random_b")};
    p.seed = MakeSeed(303);
    p.stop_after_moves = 7;
    p.stop = GamePlan::Stop::kAbort;
    p.created_us = t += 60'000'000;
    add(p);
  }
  {
    GamePlan p;
    p.game_id = "cup-running";
    p.label = "cup";
    p.seats = {Plan("random_a"), Plan("greedy")};
    p.seed = MakeSeed(304);
    p.stop_after_moves = 9;
    p.stop = GamePlan::Stop::kRunning;
    p.created_us = t += 60'000'000;
    add(p);
  }
  return plans;
}

// What stats should report, computed from the played games.
struct Expected {
  struct Bot {
    int64_t games = 0, wins = 0, losses = 0, draws = 0, self_play = 0;
    int64_t rejects = 0, forfeits = 0, timeouts = 0, rounds = 0;
    std::vector<int32_t> move_ms;
    std::array<int64_t, kItemKinds> points{};
    int64_t total_points = 0;
    int64_t dup_pairs = 0, dup_wins = 0, dup_losses = 0, dup_draws = 0;
  };
  std::map<std::string, Bot> bots;
  std::map<std::pair<std::string, std::string>, HeadToHead> h2h;
  // Duplicate pairs of (a, b) by a's half points over the pair.
  std::map<std::pair<std::string, std::string>, competition::Pentanomial> penta;
  int64_t games = 0, finished = 0, running = 0, aborted = 0, rounds = 0;
  int64_t moves = 0, duplicate_pairs = 0;
  int64_t two_player = 0, seat0_wins = 0;
};

bool Selected(const GamePlan& p, const Filter& f) {
  if (!f.tournament.empty() && p.label != f.tournament) return false;
  if (f.from_us != 0 && p.created_us < f.from_us) return false;
  if (f.to_us != 0 && p.created_us >= f.to_us) return false;
  if (!f.bot.empty()) {
    bool found = false;
    for (const SeatPlan& s : p.seats) found |= s.bot == f.bot;
    if (!found) return false;
  }
  return true;
}

int ItemOf(ScoreItemKind k) {
  switch (k) {
    case ScoreItemKind::kCards:
      return kCards;
    case ScoreItemKind::kSpades:
      return kSpades;
    case ScoreItemKind::kBigCassino:
      return kBigCassino;
    case ScoreItemKind::kLittleCassino:
      return kLittleCassino;
    case ScoreItemKind::kAce:
      return kAces;
    case ScoreItemKind::kSweep:
      return kSweeps;
    default:
      return -1;
  }
}

Expected Compute(const std::vector<PlayedGame>& played, const Filter& f) {
  Expected e;
  std::map<std::string, const PlayedGame*> by_id;
  for (const PlayedGame& g : played) {
    if (!Selected(g.plan, f)) continue;
    ++e.games;
    if (g.status == recorder::GameStatus::kRunning) {
      ++e.running;
      continue;
    }
    if (g.status == recorder::GameStatus::kAborted) {
      ++e.aborted;
      continue;
    }
    ++e.finished;
    by_id[g.plan.game_id] = &g;
    const int players = static_cast<int>(g.plan.seats.size());
    const bool partnerships =
        absl::StrContains(g.plan.rules, "partnerships=on");
    auto side_of = [&](int seat) { return partnerships ? seat % 2 : seat; };
    std::map<std::string, std::set<int>> sides;
    for (int s = 0; s < players; ++s)
      sides[g.plan.seats[s].bot].insert(side_of(s));
    const int winner = g.result->winner;
    for (const auto& [bot, set] : sides) {
      Expected::Bot& b = e.bots[bot];
      if (set.size() > 1) {
        ++b.self_play;
        continue;
      }
      ++b.games;
      const int side = *set.begin();
      if (winner < 0) {
        ++b.draws;
      } else if (winner == side) {
        ++b.wins;
      } else {
        ++b.losses;
      }
      b.rounds += static_cast<int64_t>(g.rounds.size());
      for (const RoundResult& r : g.rounds) {
        for (const ScoreItem& item : r.score.items) {
          if (item.side != side) continue;
          const int k = ItemOf(item.kind);
          if (k >= 0) b.points[k] += item.points;
          b.total_points += item.points;
        }
      }
      // Pairwise: two sides by the game's result; more sides by the
      // finishing order (winner first, then by final total, equal totals
      // level), which needs the totals.
      const std::vector<int>& totals = g.result->totals;
      const int nsides = partnerships ? 2 : players;
      const bool ordered =
          nsides > 2 && static_cast<int>(totals.size()) == nsides;
      auto rank_key = [&](int s) {
        return std::make_pair(s == winner ? 1 : 0, totals[s]);
      };
      for (const auto& [other, oset] : sides) {
        if (other == bot || oset.size() > 1 || *oset.begin() == side) continue;
        HeadToHead& h = e.h2h[{bot, other}];
        const int oside = *oset.begin();
        if (ordered) {
          if (rank_key(side) > rank_key(oside)) {
            ++h.wins;
          } else if (rank_key(side) < rank_key(oside)) {
            ++h.losses;
          } else {
            ++h.draws;
          }
        } else if (winner < 0) {
          ++h.draws;
        } else if (winner == side) {
          ++h.wins;
        } else if (winner == oside) {
          ++h.losses;
        }
      }
    }
    e.rounds += static_cast<int64_t>(g.rounds.size());
    e.moves += static_cast<int64_t>(g.moves.size());
    for (auto [seat, ms] : g.moves) {
      e.bots[g.plan.seats[seat].bot].move_ms.push_back(
          static_cast<int32_t>(ms));
    }
    for (int s = 0; s < players; ++s) {
      e.bots[g.plan.seats[s].bot].rejects += g.rejects[s];
    }
    if (g.result->reason == GameEndReason::kForfeit) {
      Expected::Bot& b = e.bots[g.plan.seats[g.plan.forfeit_seat].bot];
      ++b.forfeits;
      if (g.plan.forfeit_reason == "time") ++b.timeouts;
    }
    if (players == 2) {
      ++e.two_player;
      if (winner == 0) ++e.seat0_wins;
    }
  }
  // Duplicate pairs: the league's games "-0" and "-1" of each seed and pair.
  for (const auto& [id, g] : by_id) {
    if (!absl::EndsWith(id, "-0") || !absl::StartsWith(id, "league-")) continue;
    auto it = by_id.find(id.substr(0, id.size() - 1) + "1");
    if (it == by_id.end()) continue;
    const PlayedGame& h = *it->second;
    const std::string a = g->plan.seats[0].bot, b = g->plan.seats[1].bot;
    // a holds side 0 in g and side 1 in h.
    const int a_wins = (g->result->winner == 0) + (h.result->winner == 1);
    const int b_wins = (g->result->winner == 1) + (h.result->winner == 0);
    const int a_points = g->result->totals[0] + h.result->totals[1];
    const int b_points = g->result->totals[1] + h.result->totals[0];
    int result = a_wins == 2   ? 1
                 : b_wins == 2 ? -1
                               : (a_points > b_points) - (a_points < b_points);
    auto half_points = [](int winner, int side) {
      return winner == side ? 2 : winner < 0 ? 1 : 0;
    };
    const int a_half =
        half_points(g->result->winner, 0) + half_points(h.result->winner, 1);
    ++e.penta[{a, b}][a_half];
    ++e.penta[{b, a}][4 - a_half];
    ++e.duplicate_pairs;
    ++e.bots[a].dup_pairs;
    ++e.bots[b].dup_pairs;
    if (result > 0) {
      ++e.bots[a].dup_wins;
      ++e.bots[b].dup_losses;
    } else if (result < 0) {
      ++e.bots[b].dup_wins;
      ++e.bots[a].dup_losses;
    } else {
      ++e.bots[a].dup_draws;
      ++e.bots[b].dup_draws;
    }
  }
  return e;
}

double NearestRank(std::vector<int32_t> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t rank = static_cast<size_t>(std::ceil(p * v.size()));
  return v[std::clamp<size_t>(rank, 1, v.size()) - 1];
}

class StatsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::string(::testing::TempDir() + "/stats_test_" +
                           std::to_string(getpid()));
    std::filesystem::create_directories(*dir_);
    db_ = new std::string(*dir_ + "/games.db");
    played_ = new std::vector<PlayedGame>;
    auto rec = recorder::Recorder::Open(*db_, recorder::Durability::kNormal);
    ASSERT_TRUE(rec.ok()) << rec.status();
    for (const GamePlan& p : Plans()) {
      absl::StatusOr<PlayedGame> g = testing::PlayAndRecord(**rec, p);
      ASSERT_TRUE(g.ok()) << p.game_id << ": " << g.status();
      played_->push_back(*std::move(g));
    }
  }
  static void TearDownTestSuite() {
    std::filesystem::remove_all(*dir_);
    delete dir_;
    delete db_;
    delete played_;
  }

  static Stats Read(const Filter& f = {}) {
    absl::StatusOr<Stats> s = ReadStats(*db_, f);
    EXPECT_TRUE(s.ok()) << s.status();
    return s.ok() ? *std::move(s) : Stats();
  }

  static const BotStats* Find(const Stats& s, const std::string& name) {
    for (const BotStats& b : s.bots) {
      if (b.name == name) return &b;
    }
    return nullptr;
  }
  static int Index(const Stats& s, const std::string& name) {
    for (size_t i = 0; i < s.bots.size(); ++i) {
      if (s.bots[i].name == name) return static_cast<int>(i);
    }
    return -1;
  }

  // Every per-bot figure against the independent tally.
  static void CheckAgainst(const Stats& s, const Filter& f) {
    const Expected e = Compute(*played_, f);
    EXPECT_EQ(s.summary.games, e.games);
    EXPECT_EQ(s.summary.finished, e.finished);
    EXPECT_EQ(s.summary.running, e.running);
    EXPECT_EQ(s.summary.aborted, e.aborted);
    EXPECT_EQ(s.summary.rounds, e.rounds);
    EXPECT_EQ(s.summary.moves, e.moves);
    EXPECT_EQ(s.summary.bad_events, 0);
    EXPECT_EQ(s.summary.duplicate_pairs, e.duplicate_pairs);
    EXPECT_EQ(s.bots.size(), e.bots.size());
    for (const auto& [name, x] : e.bots) {
      SCOPED_TRACE(name);
      const BotStats* b = Find(s, name);
      ASSERT_NE(b, nullptr);
      EXPECT_EQ(b->games, x.games);
      EXPECT_EQ(b->wins, x.wins);
      EXPECT_EQ(b->losses, x.losses);
      EXPECT_EQ(b->draws, x.draws);
      EXPECT_EQ(b->self_play, x.self_play);
      EXPECT_EQ(b->rejects, x.rejects);
      EXPECT_EQ(b->forfeits, x.forfeits);
      EXPECT_EQ(b->timeouts, x.timeouts);
      EXPECT_EQ(b->moves, static_cast<int64_t>(x.move_ms.size()));
      EXPECT_EQ(b->move_p50_ms, NearestRank(x.move_ms, 0.5));
      EXPECT_EQ(b->move_p95_ms, NearestRank(x.move_ms, 0.95));
      EXPECT_EQ(b->rounds, x.rounds);
      for (int k = 0; k < kItemKinds; ++k) {
        EXPECT_NEAR(b->points_per_round[k],
                    x.rounds ? static_cast<double>(x.points[k]) / x.rounds : 0,
                    1e-12)
            << ItemName(k);
      }
      EXPECT_NEAR(b->total_per_round,
                  x.rounds ? static_cast<double>(x.total_points) / x.rounds : 0,
                  1e-12);
      EXPECT_EQ(b->dup_pairs, x.dup_pairs);
      EXPECT_EQ(b->dup_wins, x.dup_wins);
      EXPECT_EQ(b->dup_losses, x.dup_losses);
      EXPECT_EQ(b->dup_draws, x.dup_draws);
      EXPECT_EQ(b->win_rate.successes, x.wins);
      EXPECT_EQ(b->win_rate.trials, x.games);
    }
    for (const auto& [pair, h] : e.h2h) {
      const int i = Index(s, pair.first), j = Index(s, pair.second);
      ASSERT_GE(i, 0);
      ASSERT_GE(j, 0);
      EXPECT_EQ(s.head_to_head[i][j].wins, h.wins)
          << pair.first << " v " << pair.second;
      EXPECT_EQ(s.head_to_head[i][j].losses, h.losses)
          << pair.first << " v " << pair.second;
      EXPECT_EQ(s.head_to_head[i][j].draws, h.draws);
    }
  }

  static std::string* dir_;
  static std::string* db_;
  static std::vector<PlayedGame>* played_;
};

std::string* StatsTest::dir_ = nullptr;
std::string* StatsTest::db_ = nullptr;
std::vector<PlayedGame>* StatsTest::played_ = nullptr;

TEST_F(StatsTest, TalliesMatchWhatWasPlayed) {
  const Stats s = Read();
  CheckAgainst(s, {});
  EXPECT_EQ(s.summary.games, static_cast<int64_t>(Plans().size()));
  EXPECT_EQ(s.summary.running, 1);
  EXPECT_EQ(s.summary.aborted, 1);
  // Sanity of the fixture itself: the greedy bot rejects, forfeits happen.
  const BotStats* greedy = Find(s, "greedy");
  ASSERT_NE(greedy, nullptr);
  EXPECT_GT(greedy->rejects, 0);
  EXPECT_EQ(greedy->self_play, 1);
  EXPECT_EQ(Find(s, "random_a")->timeouts, 1);
  EXPECT_EQ(Find(s, "random_b")->forfeits, 1);
  EXPECT_EQ(Find(s, "random_b")->timeouts, 0);
}

TEST_F(StatsTest, RatingsSeparateTheGreedyBot) {
  const Stats s = Read();
  ASSERT_EQ(s.bots.size(), 3u);
  EXPECT_EQ(s.bots[0].name, "greedy");
  EXPECT_TRUE(s.rating_converged);
  double mean = 0;
  for (const BotStats& b : s.bots) {
    mean += b.rating / 3;
    EXPECT_TRUE(std::isfinite(b.rating_se));
    EXPECT_GT(b.rating_se, 0);
  }
  EXPECT_NEAR(mean, 1500, 1e-6);
  EXPECT_GT(s.bots[0].rating - s.bots[1].rating, 100);
  EXPECT_GT(s.los[0][1], 0.95);
  EXPECT_GT(s.los[0][2], 0.95);
  EXPECT_NEAR(s.los[1][2] + s.los[2][1], 1, 1e-9);
  EXPECT_GT(s.bots[0].win_rate.low, 0.5);
}

TEST_F(StatsTest, SeatAdvantage) {
  const Stats s = Read();
  const Expected e = Compute(*played_, {});
  bool found = false;
  for (const SeatStats& x : s.seats) {
    if (x.players == 2 && x.seat == 0) {
      found = true;
      EXPECT_EQ(x.win_rate.trials, e.two_player);
      EXPECT_EQ(x.win_rate.successes, e.seat0_wins);
      EXPECT_DOUBLE_EQ(x.expected, 0.5);
    }
    if (x.players == 3) {
      EXPECT_EQ(x.sides, 3);
    }
  }
  EXPECT_TRUE(found);
}

TEST_F(StatsTest, DuplicatePairsDetected) {
  const Stats s = Read();
  // Every league seed and pair: both orders finished.
  EXPECT_EQ(s.summary.duplicate_pairs, kLeagueSeeds * 3);
  ASSERT_EQ(s.duplicates.size(), 3u);
  int64_t total = 0;
  for (const DuplicateResult& d : s.duplicates) {
    EXPECT_LT(d.a, d.b);
    EXPECT_EQ(d.pairs, kLeagueSeeds);
    EXPECT_EQ(d.a_wins + d.b_wins + d.draws, d.pairs);
    total += d.pairs;
  }
  EXPECT_EQ(total, s.summary.duplicate_pairs);
  // The per-game tables still count games, not pairs.
  EXPECT_EQ(Find(s, "random_a")->games,
            Compute(*played_, {}).bots["random_a"].games);
}

// The SPRT over records: pentanomial over the duplicate pairs the league
// played (counted here from the games as played), trinomial over the
// pairwise results where two bots have no pairs.
TEST_F(StatsTest, SprtOverRecordedPairs) {
  const Stats s = Read();
  const Expected e = Compute(*played_, {});
  competition::SprtParams params;
  params.elo1 = 50;
  ASSERT_EQ(e.penta.size(), 6u);
  for (const auto& [bots, counts] : e.penta) {
    EXPECT_EQ(PairsBetween(s, bots.first, bots.second), counts)
        << bots.first << " vs " << bots.second;
    absl::StatusOr<competition::SprtResult> r =
        SprtFromStats(s, bots.first, bots.second, params);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_TRUE(r->pentanomial);
    EXPECT_EQ(r->pair_count, kLeagueSeeds);
    EXPECT_EQ(r->llr, competition::EvaluatePairs(params, counts).llr);
  }
  Filter cup;
  cup.tournament = "cup";
  const Stats c = Read(cup);
  absl::StatusOr<competition::SprtResult> games =
      SprtFromStats(c, "greedy", "random_a", params);
  ASSERT_TRUE(games.ok()) << games.status();
  EXPECT_FALSE(games->pentanomial);
  const HeadToHead h = Compute(*played_, cup).h2h[{"greedy", "random_a"}];
  EXPECT_EQ(games->games_wdl,
            (competition::Trinomial{h.losses, h.draws, h.wins}));
  EXPECT_GT(games->games, 0);
  EXPECT_EQ(SprtFromStats(s, "greedy", "nobody", params).status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(SprtFromStats(s, "greedy", "greedy", params).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST_F(StatsTest, FiltersSelectGames) {
  Filter cup;
  cup.tournament = "cup";
  Stats s = Read(cup);
  CheckAgainst(s, cup);
  EXPECT_EQ(s.summary.duplicate_pairs, 0);

  Filter league;
  league.tournament = "league";
  s = Read(league);
  CheckAgainst(s, league);
  EXPECT_EQ(s.summary.games, kLeagueSeeds * 6);

  Filter bot;
  bot.bot = "random_b";
  s = Read(bot);
  CheckAgainst(s, bot);
  // Games without random_b are left out.
  EXPECT_LT(s.summary.games, Read().summary.games);

  Filter dates;
  dates.from_us = Day("2026-02-01");
  s = Read(dates);
  CheckAgainst(s, dates);
  EXPECT_EQ(s.summary.games, Read(cup).summary.games);

  Filter before;
  before.to_us = Day("2026-01-10") + kDayUs;  // --to 2026-01-10
  s = Read(before);
  CheckAgainst(s, before);
  EXPECT_EQ(s.summary.games, 3);  // 06:00, 12:00 and 18:00 on the 10th

  Filter none;
  none.tournament = "no-such-label";
  s = Read(none);
  EXPECT_EQ(s.summary.games, 0);
  EXPECT_TRUE(s.bots.empty());
  EXPECT_THAT(FormatText(s), HasSubstr("0 games"));
  EXPECT_THAT(FormatHtml(s), HasSubstr("No rated bots"));
  EXPECT_TRUE(nlohmann::json::parse(FormatJson(s))["bots"].empty());
}

TEST_F(StatsTest, SparseAndDenseScansAgree) {
  // One thread and many; the sparse path (per-game lookups) is taken for a
  // filter selecting under a quarter of the games.
  Options one;
  one.threads = 1;
  Filter f;
  f.bot = "random_b";
  f.tournament = "cup";
  absl::StatusOr<Stats> a = ReadStats(*db_, f, one);
  ASSERT_TRUE(a.ok());
  CheckAgainst(*a, f);
  absl::StatusOr<Stats> b = ReadStats(*db_, {}, one);
  ASSERT_TRUE(b.ok());
  CheckAgainst(*b, {});
}

// The JSON document of `s` without the time the read took.
std::string Comparable(Stats s) {
  s.summary.seconds = 0;
  s.summary.tallied_games = 0;
  return FormatJson(s);
}

// Runs SQL on a database file.
void Sql(const std::string& path, const char* sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char* error = nullptr;
  EXPECT_EQ(sqlite3_exec(db, sql, nullptr, nullptr, &error), SQLITE_OK)
      << (error != nullptr ? error : "");
  sqlite3_free(error);
  sqlite3_close(db);
}

TEST_F(StatsTest, TalliesAndEventsGiveTheSameStatistics) {
  Options events;
  events.use_tallies = false;
  for (const Filter& f : {Filter{}, Filter{"cup", "random_b", 0, 0}}) {
    for (int threads : {1, 2}) {
      Options tallies;
      tallies.threads = events.threads = threads;
      absl::StatusOr<Stats> a = ReadStats(*db_, f, tallies);
      absl::StatusOr<Stats> b = ReadStats(*db_, f, events);
      ASSERT_TRUE(a.ok() && b.ok());
      EXPECT_EQ(a->summary.tallied_games, a->summary.finished);
      EXPECT_EQ(b->summary.tallied_games, 0);
      EXPECT_EQ(Comparable(*a), Comparable(*b));
      CheckAgainst(*a, f);
    }
  }
}

TEST_F(StatsTest, DatabasesWithoutTalliesAreReadFromTheEvents) {
  const Stats expected = Read();
  // A copy of the database as schema version 1 left it: no game_tallies.
  const std::string v1 = *dir_ + "/v1.db";
  std::filesystem::copy_file(*db_, v1,
                             std::filesystem::copy_options::overwrite_existing);
  Sql(v1, "DROP TABLE game_tallies; PRAGMA user_version=1");
  absl::StatusOr<Stats> s = ReadStats(v1, {});
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->summary.tallied_games, 0);
  EXPECT_EQ(Comparable(*s), Comparable(expected));
  CheckAgainst(*s, {});

  // Some tallies missing, one that does not fit its game (a seat short):
  // those games are read from their events.
  const std::string partial = *dir_ + "/partial.db";
  std::filesystem::copy_file(*db_, partial,
                             std::filesystem::copy_options::overwrite_existing);
  Sql(partial,
      "DELETE FROM game_tallies WHERE game_id LIKE 'league-1-%';"
      "UPDATE game_tallies SET conduct = '[[0,0,0,0]]' "
      "WHERE game_id = 'league-2-01-0'");
  s = ReadStats(partial, {});
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_GT(s->summary.tallied_games, 0);
  EXPECT_LT(s->summary.tallied_games, expected.summary.finished - 6);
  EXPECT_EQ(Comparable(*s), Comparable(expected));
}

// Many varied games (2, 3 and 4 players, partnerships, explicit decks,
// rejects, forfeits of every kind, aborts): the tallies the recorder wrote
// give exactly what the event scan gives.
TEST(StatsTalliesTest, ManyGeneratedGamesAgreeWithTheEventScan) {
  const std::string dir =
      ::testing::TempDir() + "/stats_tallies_" + std::to_string(getpid());
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/many.db";
  {
    auto rec = recorder::Recorder::Open(path, recorder::Durability::kNormal);
    ASSERT_TRUE(rec.ok()) << rec.status();
    const std::vector<std::string> bots = {"ann", "bob", "cid", "dee", "eve"};
    std::mt19937_64 rng(20261123);
    for (int i = 0; i < 150; ++i) {
      GamePlan p;
      p.game_id = absl::StrCat("g", 1000 + i);
      p.label = i % 3 == 0 ? "a" : "b";
      const int players = i % 5 == 0 ? 4 : i % 7 == 0 ? 3 : 2;
      if (players == 4 && i % 2 == 0) p.rules = "standard partnerships=on";
      // Variants with score items of their own (face, diamonds, ...).
      if (players == 2 && i % 8 == 3) p.rules = "tablanette";
      if (players == 2 && i % 8 == 7) p.rules = "callabra";
      for (int k = 0; k < players; ++k) {
        testing::SeatPlan seat;
        seat.bot = bots[rng() % bots.size()];
        seat.policy = rng() % 2 ? testing::RandomMove : testing::GreedyMove;
        seat.elapsed_base_ms = static_cast<int64_t>(rng() % 3000);
        seat.reject_every = static_cast<int>(rng() % 4) * 3;
        p.seats.push_back(seat);
      }
      p.seed = MakeSeed(500 + i % 40);  // repeated decks: duplicate pairs
      p.explicit_decks = i % 11 == 0;
      p.created_us = 1'800'000'000'000'000 + i * 1'000'000LL;
      p.rng_seed = rng();
      if (i % 6 == 1) {
        p.stop_after_moves = static_cast<int>(rng() % 40);
        p.stop = i % 4 == 1 ? GamePlan::Stop::kAbort : GamePlan::Stop::kForfeit;
        p.forfeit_seat = static_cast<int>(rng() % players);
        p.forfeit_reason = rng() % 2 ? "time" : "disconnected";
      }
      absl::StatusOr<testing::PlayedGame> g = testing::PlayAndRecord(**rec, p);
      ASSERT_TRUE(g.ok()) << p.game_id << ": " << g.status();
    }
  }
  Options events;
  events.use_tallies = false;
  for (bool move_times : {true, false}) {
    Options tallies;
    tallies.move_times = events.move_times = move_times;
    absl::StatusOr<Stats> a = ReadStats(path, {}, tallies);
    absl::StatusOr<Stats> b = ReadStats(path, {}, events);
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_GT(a->summary.finished, 100);
    EXPECT_EQ(a->summary.tallied_games, a->summary.finished);
    EXPECT_GT(a->summary.moves + (move_times ? 0 : 1), 0);
    EXPECT_EQ(Comparable(*a), Comparable(*b));
  }
  std::filesystem::remove_all(dir);
}

// Games of several rule sets, one with 6 players: every report groups the
// games by rule set, and --rules keeps one rule set alone.
TEST(StatsRuleSetsTest, GroupsByRuleSetAndFiltersOne) {
  const std::string dir =
      ::testing::TempDir() + "/stats_rules_" + std::to_string(getpid());
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/rules.db";
  {
    auto rec = recorder::Recorder::Open(path, recorder::Durability::kNormal);
    ASSERT_TRUE(rec.ok()) << rec.status();
    const std::vector<std::pair<std::string, int>> games = {
        {"standard", 2}, {"royal", 2},      {"standard", 2},
        {"royal", 2},    {"california", 6}, {"standard target=11", 2}};
    for (size_t i = 0; i < games.size(); ++i) {
      GamePlan p;
      p.game_id = absl::StrCat("r", i);
      p.rules = games[i].first;
      for (int k = 0; k < games[i].second; ++k) {
        testing::SeatPlan seat;
        seat.bot = k % 2 ? "odd" : "even";
        p.seats.push_back(seat);
      }
      p.seed = MakeSeed(900 + static_cast<int>(i));
      p.created_us = 1'800'000'000'000'000 + static_cast<int64_t>(i);
      p.rng_seed = 7 + i;
      absl::StatusOr<testing::PlayedGame> g = testing::PlayAndRecord(**rec, p);
      ASSERT_TRUE(g.ok()) << p.game_id << ": " << g.status();
    }
  }
  absl::StatusOr<Stats> all = ReadStats(path, {});
  ASSERT_TRUE(all.ok()) << all.status();
  EXPECT_EQ(all->summary.finished, 6);
  EXPECT_EQ(all->summary.skipped_games, 0) << "the 6-player game is read";
  std::map<std::string, int64_t> counts;
  for (const RuleSetCount& r : all->rule_sets) counts[r.rules] = r.games;
  const std::string royal = RulesDiff(*RuleSet::Preset("royal"));
  RuleSet california = *RuleSet::Preset("california");
  california.players = 6;
  EXPECT_EQ(counts, (std::map<std::string, int64_t>{{"standard", 2},
                                                    {royal, 2},
                                                    {RulesDiff(california), 1},
                                                    {"target=11", 1}}));
  EXPECT_EQ(all->rule_sets.front().games, 2);
  EXPECT_NE(FormatText(*all).find("ratings mix 4 rule sets"),
            std::string::npos);

  Filter only_royal;
  only_royal.rules = "royal";
  absl::StatusOr<Stats> r = ReadStats(path, only_royal);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->summary.games, 2);
  EXPECT_EQ(r->summary.finished, 2);
  ASSERT_EQ(r->rule_sets.size(), 1u);
  EXPECT_EQ(r->rule_sets[0].rules, royal);
  const nlohmann::json j = nlohmann::json::parse(FormatJson(*r));
  EXPECT_EQ(j["filter"]["rules"], "royal");
  ASSERT_EQ(j["rule_sets"].size(), 1u);
  EXPECT_EQ(j["rule_sets"][0]["games"], 2);

  Filter standard;
  standard.rules = "standard players=2";
  r = ReadStats(path, standard);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->summary.finished, 2);

  Filter bad;
  bad.rules = "no_such_preset";
  EXPECT_EQ(ReadStats(path, bad).status().code(),
            absl::StatusCode::kInvalidArgument);
  std::filesystem::remove_all(dir);
}

TEST_F(StatsTest, MissingAndForeignFiles) {
  EXPECT_EQ(ReadStats(*dir_ + "/missing.db", {}).status().code(),
            absl::StatusCode::kNotFound);
  const std::string other = *dir_ + "/other.db";
  std::ofstream(other) << "not a database";
  EXPECT_FALSE(ReadStats(other, {}).ok());
}

// ---------------------------------------------------------------------------
// Hand-made inputs.

TEST(WilsonTest, HandComputed) {
  // 7 of 10, z = 1.96: centre (0.7 + 0.19208) / 1.38416,
  // half-width 1.96 / 1.38416 * sqrt(0.021 + 0.009604).
  const Proportion p = Wilson(7, 10);
  EXPECT_DOUBLE_EQ(p.rate, 0.7);
  EXPECT_NEAR(p.low, 0.396773, 1e-6);  // 0.644492 - 0.247719
  EXPECT_NEAR(p.high, 0.892210, 1e-6);
  const Proportion none = Wilson(0, 0);
  EXPECT_EQ(none.low, 0);
  EXPECT_EQ(none.high, 1);
  const Proportion zero = Wilson(0, 20);
  EXPECT_EQ(zero.low, 0);
  EXPECT_NEAR(zero.high, 0.161130, 1e-6);  // 2 * 0.09604 / 1.19208
}

TEST(ParseDateTest, Dates) {
  EXPECT_EQ(*ParseDate("1970-01-02"), kDayUs);
  EXPECT_EQ(*ParseDate("2026-03-01") - *ParseDate("2026-02-28"), kDayUs);
  EXPECT_FALSE(ParseDate("2026-02-30").ok());
  EXPECT_FALSE(ParseDate("2026-2-3").ok());
  EXPECT_FALSE(ParseDate("yesterday").ok());
}

// ---------------------------------------------------------------------------
// Formats.

// Splits one CSV line (RFC 4180 quoting).
std::vector<std::string> CsvFields(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        out.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        out.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  return out;
}

// section -> rows of (header -> value).
using CsvDoc =
    std::map<std::string, std::vector<std::map<std::string, std::string>>>;
CsvDoc ParseCsv(const std::string& text) {
  CsvDoc doc;
  std::string section;
  std::vector<std::string> header;
  for (absl::string_view line_view : absl::StrSplit(text, '\n')) {
    const std::string line(line_view);
    if (line.empty()) {
      section.clear();
      continue;
    }
    if (line[0] == '#') {
      section = line.substr(2);
      header.clear();
      doc[section];
      continue;
    }
    std::vector<std::string> fields = CsvFields(line);
    if (header.empty()) {
      header = fields;
      continue;
    }
    EXPECT_EQ(fields.size(), header.size()) << line;
    std::map<std::string, std::string> row;
    for (size_t i = 0; i < fields.size() && i < header.size(); ++i) {
      row[header[i]] = fields[i];
    }
    doc[section].push_back(row);
  }
  return doc;
}

double D(const std::string& v) {
  double d = 0;
  EXPECT_TRUE(absl::SimpleAtod(v, &d)) << v;
  return d;
}

TEST_F(StatsTest, CsvParsesBack) {
  const Stats s = Read();
  const std::string csv = FormatCsv(s);
  EXPECT_TRUE(absl::StartsWith(csv, "# summary\n")) << csv.substr(0, 40);
  EXPECT_THAT(csv, HasSubstr("\n\n# bots\n"));
  const CsvDoc doc = ParseCsv(csv);
  for (const char* name : {"summary", "bots", "points", "conduct",
                           "head_to_head", "seats", "duplicates"}) {
    EXPECT_TRUE(doc.count(name)) << name;
  }
  ASSERT_EQ(doc.at("bots").size(), s.bots.size());
  for (size_t i = 0; i < s.bots.size(); ++i) {
    const auto& row = doc.at("bots")[i];
    const BotStats& b = s.bots[i];
    EXPECT_EQ(row.at("bot"), b.name);
    EXPECT_EQ(D(row.at("games")), b.games);
    EXPECT_EQ(D(row.at("wins")), b.wins);
    EXPECT_EQ(D(row.at("losses")), b.losses);
    EXPECT_NEAR(D(row.at("win_rate")), b.win_rate.rate, 1e-4);
    EXPECT_NEAR(D(row.at("rating")), b.rating, 0.05);
    EXPECT_NEAR(D(row.at("rating_high")) - D(row.at("rating_low")),
                2 * 1.96 * b.rating_se, 0.2);
  }
  for (const auto& row : doc.at("conduct")) {
    const BotStats* b = Find(s, row.at("bot"));
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(D(row.at("rejects")), b->rejects);
    EXPECT_EQ(D(row.at("move_p95_ms")), b->move_p95_ms);
  }
  EXPECT_EQ(doc.at("head_to_head").size(), 6u);
  for (const auto& row : doc.at("head_to_head")) {
    const int i = Index(s, row.at("bot")), j = Index(s, row.at("opponent"));
    EXPECT_EQ(D(row.at("wins")), s.head_to_head[i][j].wins);
    EXPECT_NEAR(D(row.at("los")), s.los[i][j], 1e-4);
  }
  std::map<std::string, std::string> summary;
  for (const auto& row : doc.at("summary"))
    summary[row.at("key")] = row.at("value");
  EXPECT_EQ(D(summary.at("games")), s.summary.games);
  EXPECT_EQ(D(summary.at("duplicate_pairs")), s.summary.duplicate_pairs);
  EXPECT_EQ(doc.at("duplicates").size(), 3u);
}

TEST_F(StatsTest, JsonParsesBack) {
  const Stats s = Read();
  const nlohmann::json j = nlohmann::json::parse(FormatJson(s));
  EXPECT_EQ(j["summary"]["games"], s.summary.games);
  EXPECT_EQ(j["summary"]["finished"], s.summary.finished);
  EXPECT_EQ(j["summary"]["duplicate_pairs"], s.summary.duplicate_pairs);
  ASSERT_EQ(j["bots"].size(), s.bots.size());
  for (size_t i = 0; i < s.bots.size(); ++i) {
    const auto& b = j["bots"][i];
    EXPECT_EQ(b["name"], s.bots[i].name);
    EXPECT_EQ(b["wins"], s.bots[i].wins);
    EXPECT_EQ(b["draws"], s.bots[i].draws);
    EXPECT_DOUBLE_EQ(b["rating"].get<double>(), s.bots[i].rating);
    EXPECT_DOUBLE_EQ(b["points_per_round"]["big_cassino"].get<double>(),
                     s.bots[i].points_per_round[kBigCassino]);
    EXPECT_EQ(b["duplicate"]["pairs"], s.bots[i].dup_pairs);
  }
  EXPECT_EQ(j["head_to_head"].size(), 6u);
  // Stable key order.
  const std::string text = FormatJson(s);
  EXPECT_LT(text.find("\"filter\""), text.find("\"summary\""));
  EXPECT_LT(text.find("\"summary\""), text.find("\"bots\""));
  EXPECT_LT(text.find("\"bots\""), text.find("\"head_to_head\""));
  EXPECT_EQ(text, FormatJson(Read()));
}

TEST_F(StatsTest, TextHasEverySection) {
  const std::string text = FormatText(Read());
  for (const char* part :
       {"Bots by rating", "Head to head", "Likelihood of superiority",
        "Mean points per round", "Conduct", "Seat advantage", "Duplicate pairs",
        "greedy", "big_cassino"}) {
    EXPECT_THAT(text, HasSubstr(part));
  }
}

// ---------------------------------------------------------------------------
// HTML.

// Decodes a PNG into 8-bit RGB (libpng's simplified API; an alpha channel
// is composited on black, which leaves Chromium's opaque pixels as they
// are).
bool DecodePng(const std::string& png, int* width, int* height,
               std::vector<uint8_t>* rgb) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_memory(&image, png.data(), png.size())) {
    return false;
  }
  image.format = PNG_FORMAT_RGB;
  rgb->resize(PNG_IMAGE_SIZE(image));
  if (!png_image_finish_read(&image, /*background=*/nullptr, rgb->data(),
                             /*row_stride=*/0, /*colormap=*/nullptr)) {
    png_image_free(&image);
    return false;
  }
  *width = static_cast<int>(image.width);
  *height = static_cast<int>(image.height);
  return true;
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST_F(StatsTest, HtmlIsSelfContained) {
  const std::string html = FormatHtml(Read());
  EXPECT_TRUE(absl::StartsWith(html, "<!DOCTYPE html>"));
  EXPECT_THAT(html, HasSubstr("<svg"));
  EXPECT_THAT(html, HasSubstr("<table>"));
  EXPECT_THAT(html, HasSubstr("<style>"));
  // Nothing is fetched: no URL but the SVG namespace name (which the
  // ratings chart carries so that the viewer can serve it as an image).
  const std::string without_ns =
      absl::StrReplaceAll(html, {{"xmlns=\"http://www.w3.org/2000/svg\"", ""}});
  EXPECT_THAT(without_ns, Not(HasSubstr("http://")));
  EXPECT_THAT(without_ns, Not(HasSubstr("https://")));
  EXPECT_THAT(html, Not(HasSubstr("<script")));
  EXPECT_THAT(html, Not(HasSubstr("<link")));
  EXPECT_THAT(html, Not(HasSubstr("src=")));
  // Three charts: ratings, head to head, points by item.
  size_t charts = 0;
  for (size_t p = html.find("<svg"); p != std::string::npos;
       p = html.find("<svg", p + 1)) {
    ++charts;
  }
  EXPECT_EQ(charts, 3u);
}

TEST(StatsHtmlTest, EscapesBotNames) {
  Stats s;
  BotStats b;
  b.name = "<b>&\"evil\"";
  s.bots = {b, b};
  s.bots[1].name = "plain";
  s.head_to_head.assign(2, std::vector<HeadToHead>(2));
  s.los.assign(2, std::vector<double>(2, 0.5));
  const std::string html = FormatHtml(s);
  EXPECT_THAT(html, Not(HasSubstr("<b>&")));
  EXPECT_THAT(html, HasSubstr("&lt;b&gt;&amp;&quot;evil&quot;"));
}

TEST_F(StatsTest, HtmlRendersInChromium) {
  const char* chromium = "/usr/bin/chromium";
  if (access(chromium, X_OK) != 0) {
    GTEST_SKIP() << "no " << chromium
                 << " (Debian package `chromium`): HTML not rendered";
  }
  const std::string html_path = *dir_ + "/stats.html";
  const std::string png_path = *dir_ + "/stats.png";
  const std::string profile = *dir_ + "/chromium-profile";
  std::ofstream(html_path) << FormatHtml(Read());
  const std::string cmd = absl::StrCat(
      chromium,
      " --headless --no-sandbox --disable-gpu --disable-quic --no-first-run"
      " --disable-background-networking --disable-component-update"
      " --disable-sync --hide-scrollbars --user-data-dir=",
      profile, " --screenshot=", png_path, " --window-size=1200,1600 file://",
      html_path, " >", *dir_, "/chromium.log 2>&1");
  const int rc = std::system(cmd.c_str());
  ASSERT_EQ(rc, 0) << ReadAll(*dir_ + "/chromium.log");
  if (const char* keep = std::getenv("CASSINO_STATS_SCREENSHOT")) {
    std::filesystem::copy_file(
        png_path, keep, std::filesystem::copy_options::overwrite_existing);
  }
  int width = 0, height = 0;
  std::vector<uint8_t> rgb;
  ASSERT_TRUE(DecodePng(ReadAll(png_path), &width, &height, &rgb));
  EXPECT_EQ(width, 1200);
  EXPECT_EQ(height, 1600);
  // Not blank: many non-white pixels, and some strongly coloured ones (the
  // charts' bars, dots and heat-map cells).
  size_t ink = 0, colour = 0;
  for (size_t i = 0; i + 2 < rgb.size(); i += 3) {
    const int r = rgb[i], g = rgb[i + 1], b = rgb[i + 2];
    if (r < 230 || g < 230 || b < 230) ++ink;
    if (std::max({r, g, b}) - std::min({r, g, b}) > 60) ++colour;
  }
  const size_t pixels = static_cast<size_t>(width) * height;
  EXPECT_GT(ink, pixels / 100) << "ink " << ink;
  EXPECT_GT(colour, pixels / 500) << "colour " << colour;
}

// ---------------------------------------------------------------------------
// The command.

struct CliRun {
  int exit_code = -1;
  std::string out, err;
};

CliRun RunCli(const std::string& args, const std::string& dir) {
  const std::string out = dir + "/cli.out", err = dir + "/cli.err";
  const int status = std::system(
      absl::StrCat(CASSINO_CLI_PATH, " ", args, " >", out, " 2>", err).c_str());
  CliRun r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = ReadAll(out);
  r.err = ReadAll(err);
  return r;
}

TEST_F(StatsTest, Command) {
  CliRun help = RunCli("stats --help", *dir_);
  EXPECT_EQ(help.exit_code, 0);
  for (const char* part : {"--tournament", "--bot", "--from", "--to",
                           "--format", "--out", "EXIT STATUS", "Wilson"}) {
    EXPECT_THAT(help.out, HasSubstr(part));
  }
  CliRun json = RunCli(absl::StrCat("stats ", *db_,
                                    " --tournament cup --from 2026-02-15 "
                                    "--to 2026-02-15 --format json"),
                       *dir_);
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const nlohmann::json j = nlohmann::json::parse(json.out);
  Filter cup;
  cup.tournament = "cup";
  EXPECT_EQ(j["summary"]["games"], Read(cup).summary.games);
  EXPECT_EQ(j["filter"]["to_us"], Day("2026-02-16"));

  const std::string html = *dir_ + "/cli.html";
  CliRun out = RunCli(
      absl::StrCat("stats ", *db_, " --format html --out ", html), *dir_);
  EXPECT_EQ(out.exit_code, 0) << out.err;
  EXPECT_TRUE(out.out.empty());
  EXPECT_THAT(ReadAll(html), HasSubstr("<svg"));

  CliRun text = RunCli(absl::StrCat("stats ", *db_), *dir_);
  EXPECT_EQ(text.exit_code, 0);
  EXPECT_THAT(text.out, HasSubstr("Bots by rating"));

  EXPECT_EQ(RunCli(absl::StrCat("stats ", *db_, " --from 2026-13-01"), *dir_)
                .exit_code,
            2);
  // An impossible range is refused, never read as "no limit".
  CliRun before_1970 =
      RunCli(absl::StrCat("stats ", *db_, " --to 1969-12-31"), *dir_);
  EXPECT_EQ(before_1970.exit_code, 2);
  EXPECT_THAT(before_1970.err, HasSubstr("before 1970-01-01"));
  EXPECT_EQ(
      RunCli(absl::StrCat("stats ", *db_, " --format xml"), *dir_).exit_code,
      2);
  // --sprt: the same LLR as the library's over the same games.
  CliRun sprt = RunCli(absl::StrCat("stats ", *db_,
                                    " --sprt elo0=0,elo1=50 --bot greedy "
                                    "--bot random_a --format json"),
                       *dir_);
  ASSERT_EQ(sprt.exit_code, 0) << sprt.err;
  const nlohmann::json sj = nlohmann::json::parse(sprt.out);
  competition::SprtParams params;
  params.elo1 = 50;
  Filter greedy;
  greedy.bot = "greedy";
  const absl::StatusOr<competition::SprtResult> lib =
      SprtFromStats(Read(greedy), "greedy", "random_a", params);
  ASSERT_TRUE(lib.ok());
  EXPECT_DOUBLE_EQ(sj["llr"].get<double>(), lib->llr);
  EXPECT_EQ(sj["pairs"], kLeagueSeeds);
  EXPECT_EQ(sj["outcomes"], "pentanomial");
  CliRun sprt_text = RunCli(absl::StrCat("stats ", *db_,
                                         " --sprt elo0=0,elo1=50 --bot greedy "
                                         "--bot random_a"),
                            *dir_);
  EXPECT_EQ(sprt_text.exit_code, 0) << sprt_text.err;
  EXPECT_THAT(sprt_text.out, HasSubstr("SPRT greedy vs random_a"));
  for (const char* bad :
       {" --sprt elo1=5 --bot greedy", " --bot greedy --bot random_a",
        " --sprt elo1=-5 --bot greedy --bot random_a",
        " --sprt elo1=5 --bot greedy --bot random_a "
        "--format csv"}) {
    EXPECT_EQ(RunCli(absl::StrCat("stats ", *db_, bad), *dir_).exit_code, 2)
        << bad;
  }

  CliRun missing = RunCli(absl::StrCat("stats ", *dir_, "/nope.db"), *dir_);
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_THAT(missing.err, HasSubstr("no such file"));
}

// Removes from the database at `path` every game for which `drop(rowid of
// its games row)` holds, from every table that has a game_id column.
void DropGames(const std::string& path, const std::string& where) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  std::vector<std::string> tables;
  sqlite3_stmt* st = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db,
                               "SELECT m.name FROM sqlite_master m, "
                               "pragma_table_info(m.name) c WHERE m.type = "
                               "'table' AND c.name = 'game_id'",
                               -1, &st, nullptr),
            SQLITE_OK);
  while (sqlite3_step(st) == SQLITE_ROW) {
    tables.emplace_back(
        reinterpret_cast<const char*>(sqlite3_column_text(st, 0)));
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
  ASSERT_GE(tables.size(), 3u);
  std::string sql = absl::StrCat(
      "CREATE TEMP TABLE dropped AS SELECT game_id FROM games WHERE ", where,
      ";");
  for (const std::string& t : tables) {
    absl::StrAppend(&sql, "DELETE FROM ", t,
                    " WHERE game_id IN (SELECT game_id FROM dropped);");
  }
  Sql(path, sql.c_str());
}

TEST_F(StatsTest, ARecordSetReadsAsOneDatabase) {
  // The games split between two databases (as two referees would hold
  // them), alternating in id order so that duplicate pairs span the files.
  const std::string a = *dir_ + "/set_a.db", b = *dir_ + "/set_b.db";
  for (const std::string& path : {a, b}) {
    std::filesystem::copy_file(
        *db_, path, std::filesystem::copy_options::overwrite_existing);
  }
  DropGames(a, "rowid % 2 = 0");
  DropGames(b, "rowid % 2 = 1");
  const Stats whole = Read();
  ASSERT_GT(whole.summary.duplicate_pairs, 0);
  for (const Filter& f : {Filter{}, Filter{"cup", "random_b", 0, 0}}) {
    for (int threads : {1, 2}) {
      Options options;
      options.threads = threads;
      const std::vector<std::string> set = {a, b};
      absl::StatusOr<Stats> s = ReadStats(set, f, options);
      ASSERT_TRUE(s.ok()) << s.status();
      absl::StatusOr<Stats> one = ReadStats(*db_, f, options);
      ASSERT_TRUE(one.ok()) << one.status();
      EXPECT_EQ(Comparable(*s), Comparable(*one));
      CheckAgainst(*s, f);
    }
  }
  // Each half alone holds fewer pairs than the set: pairs span the files.
  absl::StatusOr<Stats> half_a = ReadStats(a, {});
  absl::StatusOr<Stats> half_b = ReadStats(b, {});
  ASSERT_TRUE(half_a.ok() && half_b.ok());
  EXPECT_LT(half_a->summary.duplicate_pairs + half_b->summary.duplicate_pairs,
            whole.summary.duplicate_pairs);
  EXPECT_EQ(half_a->summary.games + half_b->summary.games, whole.summary.games);

  // A game held by two databases would count twice: refused, naming both.
  const std::vector<std::string> twice = {*db_, a};
  absl::StatusOr<Stats> dup = ReadStats(twice, {});
  EXPECT_EQ(dup.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(dup.status().message(), HasSubstr(*db_));
  EXPECT_THAT(dup.status().message(), HasSubstr(a));

  // The command: files, or a directory of them.
  const std::string set_dir = *dir_ + "/set";
  std::filesystem::create_directories(set_dir);
  std::filesystem::copy_file(a, set_dir + "/a.db",
                             std::filesystem::copy_options::overwrite_existing);
  std::filesystem::copy_file(b, set_dir + "/b.db",
                             std::filesystem::copy_options::overwrite_existing);
  const CliRun from_files =
      RunCli(absl::StrCat("stats ", a, " ", b, " --format json"), *dir_);
  ASSERT_EQ(from_files.exit_code, 0) << from_files.err;
  const CliRun from_dir =
      RunCli(absl::StrCat("stats ", set_dir, " --format json"), *dir_);
  ASSERT_EQ(from_dir.exit_code, 0) << from_dir.err;
  const CliRun from_one =
      RunCli(absl::StrCat("stats ", *db_, " --format json"), *dir_);
  ASSERT_EQ(from_one.exit_code, 0) << from_one.err;
  auto without_time = [](const std::string& text) {
    nlohmann::json j = nlohmann::json::parse(text);
    j["summary"].erase("seconds");
    return j;
  };
  EXPECT_EQ(without_time(from_files.out), without_time(from_one.out));
  EXPECT_EQ(without_time(from_dir.out), without_time(from_one.out));
  const CliRun refused = RunCli(absl::StrCat("stats ", *db_, " ", a), *dir_);
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_THAT(refused.err, HasSubstr("count twice"));
}

}  // namespace
}  // namespace cassino::stats
