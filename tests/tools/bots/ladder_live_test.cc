// A ladder of reference bots against the real referee, end to end (issue
// #27, part 8; docs/ladder.md, *Tests and measurements*).
//
// Five bot accounts join a ladder as cassino-bot processes: random, greedy
// and builder (known to rank builder > greedy > random), then, after a
// kill -9 of the referee and its restart on the same port and database
// (the bots reconnect by themselves), a builder that crashes (exits) after
// a few moves (room for one game; started again once, as a supervisor
// would) and a greedy that stalls on every move. At the end (the ladder
// paused, its games played out):
//   - the leaderboard ranks builder > greedy > random by mean, and by the
//     conservative rating, within kGames rated games (360; 240 under a
//     sanitizer);
//   - the crashing and the stalling bots are on probation, with the
//     reason;
//   - matchmaking went on after the restart, and no game is left running;
//   - every finished game of the ladder is rated exactly once (the
//     referee's count equals the records'), and `cassino stats --ladder`
//     over the database equals the referee's leaderboard bit for bit;
//   - `cassino verify` passes on the database.

#include <signal.h>

#include <chrono>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "tests/sanitizers.h"
#include "tests/tools/bots/live_process.h"
#include "tools/stats/ladder.h"
#include "tools/verify/verifier.h"

namespace cassino::bots::testing {
namespace {

#ifdef CASSINO_REFEREE_BIN

constexpr char kLadder[] = "live";
// Rated games by the end: about 120 for each pair of the three healthy
// bots once the faulty ones are on probation (builder beats greedy about
// 70% of the time: the order is then wrong with a probability near 1e-4).
// (Under a sanitizer everything is several times slower: fewer games, and
// builder's ~70% against greedy over ~80 games still orders them with a
// probability of error near 5e-5.)
constexpr int kGames = ::cassino::testing::kSanitized ? 240 : 360;
constexpr int kWaitSeconds = ::cassino::testing::kSanitized ? 400 : 120;

class LadderLiveTest : public LiveRefereeTest {
 protected:
  // The ladder now (retried while the referee is starting).
  v1::LadderInfo Ladder() {
    grpc::Status st;
    for (int attempt = 0; attempt < 100; ++attempt) {
      grpc::ClientContext ctx;
      Admin(&ctx);
      ctx.set_wait_for_ready(true);
      v1::GetLadderRequest req;
      req.set_name(kLadder);
      v1::GetLadderResponse resp;
      st = stub_->GetLadder(&ctx, req, &resp);
      if (st.ok()) return resp.ladder();
      if (st.error_code() != grpc::StatusCode::UNAVAILABLE) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    ADD_FAILURE() << st.error_code() << ": " << st.error_message();
    return v1::LadderInfo();
  }

  // Waits until `done` (at most `seconds`).
  v1::LadderInfo WaitFor(const std::function<bool(const v1::LadderInfo&)>& done,
                         int seconds = kWaitSeconds) {
    const auto until =
        std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
    v1::LadderInfo info;
    while (std::chrono::steady_clock::now() < until) {
      info = Ladder();
      if (done(info)) return info;
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    ADD_FAILURE() << "the ladder did not get there: "
                  << info.ShortDebugString();
    return info;
  }

  std::vector<v1::LeaderboardEntry> Leaderboard(bool all) {
    std::vector<v1::LeaderboardEntry> rows;
    v1::GetLeaderboardRequest req;
    req.set_ladder(kLadder);
    req.set_all_versions(all);
    do {
      grpc::ClientContext ctx;  // (no token needed)
      v1::GetLeaderboardResponse resp;
      const grpc::Status st = stub_->GetLeaderboard(&ctx, req, &resp);
      EXPECT_TRUE(st.ok()) << st.error_message();
      if (!st.ok()) break;
      rows.insert(rows.end(), resp.entries().begin(), resp.entries().end());
      req.set_page_token(resp.next_page_token());
    } while (!req.page_token().empty());
    return rows;
  }

  // The leaderboard's row for `account`'s current version (empty before it
  // joined).
  v1::LeaderboardEntry Entry(const std::string& account) {
    for (const v1::LeaderboardEntry& e : Leaderboard(false)) {
      if (e.account() == account) return e;
    }
    return v1::LeaderboardEntry();
  }

  std::unique_ptr<Child> StartBot(const std::string& key,
                                  const std::string& strategy,
                                  std::vector<std::string> extra = {},
                                  int capacity = 2) {
    std::vector<std::string> args = {
        kBotBin,      "--address", address_,        "--lobby",
        "--key",      key,         "--capacity",    absl::StrCat(capacity),
        "--ladder",   kLadder,     "--version",     "v1",
        "--strategy", strategy,    "--max-retries", "1000",
        "-q"};
    args.insert(args.end(), extra.begin(), extra.end());
    auto child = std::make_unique<Child>(args);
    EXPECT_TRUE(child->started());
    return child;
  }
};

TEST_F(LadderLiveTest, ReferenceBotsConvergeAcrossAKill9) {
  std::map<std::string, std::string> keys;
  for (const char* name : {"rnd", "grd", "bld", "crash", "stall"}) {
    keys[name] = RegisterBot(name);
  }
  {
    grpc::ClientContext ctx;
    Admin(&ctx);
    v1::CreateLadderRequest req;
    v1::LadderSpec* spec = req.mutable_spec();
    spec->set_name(kLadder);
    spec->mutable_clock()->set_per_move_ms(800);
    spec->mutable_clock()->set_bank_ms(0);
    spec->mutable_settings()->set_max_pair_games(1000);
    spec->mutable_settings()->set_max_bot_games(100000);
    spec->mutable_settings()->set_max_games_per_bot(2);
    spec->mutable_settings()->set_probation_faults(2);
    spec->mutable_settings()->set_probation_ms(600000);
    v1::CreateLadderResponse resp;
    const grpc::Status st = stub_->CreateLadder(&ctx, req, &resp);
    ASSERT_TRUE(st.ok()) << st.error_message();
  }
  std::vector<std::unique_ptr<Child>> bots;
  bots.push_back(StartBot(keys["rnd"], "random"));
  bots.push_back(StartBot(keys["grd"], "greedy"));
  bots.push_back(StartBot(keys["bld"], "builder"));

  const auto started = std::chrono::steady_clock::now();
  WaitFor(
      [](const v1::LadderInfo& l) { return l.games_rated() >= kGames / 3; });
  // kill -9, and the same port and database again.
  const std::string address = address_;
  referee_->Stop(SIGKILL);
  StartReferee(address);
  ASSERT_EQ(address_, address);
  stub_ = v1::RefereeService::NewStub(
      grpc::CreateChannel(address_, grpc::InsecureChannelCredentials()));
  const int64_t at_restart = Ladder().games_rated();
  // The faulty bots join now (the games a restart interrupts are nobody's
  // fault: theirs must be their own).
  // One after the other: two new bots would be matched together, and one's
  // fault would be the other's clean win.
  // The crashing bot has room for one game, so that each crash costs it
  // exactly one fault (with two games a crash would cost one or two, as the
  // ladder happened to match it). It is started again, as its operator's
  // supervisor would, once the game it crashed in is over and rated
  // (started sooner, it would resume that game), until its second fault
  // puts it on probation.
  const std::vector<std::string> crash = {"--fault", "crash", "--fault-after",
                                          "8"};
  bots.push_back(StartBot(keys["crash"], "builder", crash, /*capacity=*/1));
  int crash_rated = 0;  // its rated games when it was last started
  int crash_lives = 1;
  WaitFor([&](const v1::LadderInfo& l) {
    if (l.on_probation() == 1) return true;
    if (bots.back()->Exited()) {
      // (Probation comes before the rating of the game that caused it, so
      // a row with that game rated shows it.)
      const v1::LeaderboardEntry row = Entry("crash");
      if (row.on_probation()) return true;
      if (row.games() > crash_rated) {
        crash_rated = row.games();
        ++crash_lives;
        bots.back() = StartBot(keys["crash"], "builder", crash, 1);
      }
    }
    return false;
  });
  // One fault a life: on probation in its second.
  EXPECT_EQ(crash_lives, 2);
  bots.push_back(StartBot(keys["stall"], "greedy",
                          {"--fault", "stall", "--fault-after", "0"}));
  WaitFor([](const v1::LadderInfo& l) {
    return l.games_rated() >= kGames && l.on_probation() == 2;
  });
  {
    grpc::ClientContext ctx;
    Admin(&ctx);
    v1::PauseLadderRequest req;
    req.set_name(kLadder);
    v1::PauseLadderResponse resp;
    ASSERT_TRUE(stub_->PauseLadder(&ctx, req, &resp).ok());
  }
  const v1::LadderInfo end = WaitFor([](const v1::LadderInfo& l) {
    return l.games_running() == 0 && l.games_unrated() == 0;
  });
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started)
          .count();
  EXPECT_GT(end.games_rated(), at_restart) << "no game after the restart";

  const std::vector<v1::LeaderboardEntry> board = Leaderboard(false);
  std::map<std::string, v1::LeaderboardEntry> by;
  for (const auto& e : board) {
    by[e.account()] = e;
    std::printf("[ ladder   ] %d %-10s %7.2f  %6.2f +- %5.2f  %3d games %s\n",
                e.rank(), e.bot().c_str(), e.conservative(), e.mu(), e.sigma(),
                e.games(), e.on_probation() ? "probation" : "");
  }
  std::printf("[ ladder   ] %lld games rated in %.0f s, a kill -9 after %lld\n",
              static_cast<long long>(end.games_rated()), seconds,
              static_cast<long long>(at_restart));
  ASSERT_TRUE(by.contains("bld") && by.contains("grd") && by.contains("rnd"));
  EXPECT_GT(by["bld"].mu(), by["grd"].mu());
  EXPECT_GT(by["grd"].mu(), by["rnd"].mu());
  EXPECT_GT(by["bld"].conservative(), by["grd"].conservative());
  EXPECT_GT(by["grd"].conservative(), by["rnd"].conservative());
  for (const char* faulty : {"crash", "stall"}) {
    ASSERT_TRUE(by.contains(faulty)) << faulty;
    EXPECT_TRUE(by[faulty].on_probation()) << faulty;
    EXPECT_NE(by[faulty].probation_reason().find("on time"), std::string::npos)
        << by[faulty].probation_reason();
  }
  EXPECT_EQ(end.on_probation(), 2);

  // From the records alone: the same leaderboard, bit for bit; each
  // finished game rated once.
  const std::string db = (dir_ / "referee.db").string();
  for (const bool all : {false, true}) {
    stats::LadderOptions options;
    options.all_versions = all;
    options.details = true;
    absl::StatusOr<stats::LadderStats> st =
        stats::ReadLadder({db}, kLadder, options);
    ASSERT_TRUE(st.ok()) << st.status();
    if (!all) {
      for (const stats::LadderPair& p : st->pairs) {
        std::printf("[ pairs    ] %s %s: %d games, %d-%d-%d\n", p.a.c_str(),
                    p.b.c_str(), p.games, p.a_wins, p.b_wins, p.draws);
      }
    }
    EXPECT_EQ(st->games_rated, end.games_rated());
    EXPECT_EQ(st->games_running, 0);
    const std::vector<v1::LeaderboardEntry> rows = Leaderboard(all);
    ASSERT_EQ(st->leaderboard.size(), rows.size());
    for (size_t i = 0; i < rows.size(); ++i) {
      EXPECT_EQ(st->leaderboard[i].bot, rows[i].bot());
      EXPECT_EQ(st->leaderboard[i].rating.mu, rows[i].mu());
      EXPECT_EQ(st->leaderboard[i].rating.sigma, rows[i].sigma());
      EXPECT_EQ(st->leaderboard[i].games, rows[i].games());
      EXPECT_EQ(st->leaderboard[i].wins, rows[i].wins());
    }
  }
  for (auto& bot : bots) bot->Stop(SIGTERM);
  verify::VerifyOptions options;
  options.threads = 1;
  absl::StatusOr<verify::VerifyReport> report =
      verify::VerifyDatabase(db, options);
  ASSERT_TRUE(report.ok()) << report.status();
  for (const verify::Failure& f : report->failures) {
    ADD_FAILURE() << f.ToString();
  }
  EXPECT_EQ(report->ok, report->games);
}

#endif  // CASSINO_REFEREE_BIN

}  // namespace
}  // namespace cassino::bots::testing
