// A tournament the referee schedules itself, end to end (issue #7).
//
// Four registered bot accounts play a round robin through the lobby, each
// bot a separate process: two C++ bots (cassino-bot, greedy and builder)
// and the Python and Node examples (C++ bots stand in for them where they
// cannot run here; the test says so). `cassino tournament --account ...
// --address` creates the tournament on the running referee and follows it.
// Mid-tournament the Python bot is killed and started again: it reconnects
// to the lobby and is offered its seats again. Later the referee itself is
// stopped and restarted on the same port and database: it continues the
// persisted schedule, and the follower rides out the gap. At the end:
//   - every scheduled game finished, none aborted;
//   - the standings the referee reports (and the follower printed) equal
//     what `cassino stats` computes over the database for the tournament;
//   - `cassino verify` passes on the database.

#include <signal.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "tests/tools/bots/live_process.h"
#include "tools/stats/stats.h"
#include "tools/tournament/remote.h"

namespace cassino::bots::testing {
namespace {

#ifdef CASSINO_REFEREE_BIN

const std::string kCli = CASSINO_CLI_PATH;
constexpr char kTournament[] = "live-cup";

using BotArgs = std::function<std::vector<std::string>(
    const std::string& address, const std::string& key, int capacity,
    int games)>;

struct Participant {
  Participant(std::string account, BotArgs args)
      : account(std::move(account)), args(std::move(args)) {}
  std::string account;
  BotArgs args;
  std::string key;
  std::unique_ptr<Child> process;
};

class TournamentLiveTest : public LiveRefereeTest {
 protected:
  // The tournament now; fails the test if the referee cannot say.
  v1::TournamentInfo Tournament() {
    grpc::ClientContext ctx;
    Admin(&ctx);
    v1::GetTournamentRequest req;
    req.set_name(kTournament);
    v1::GetTournamentResponse resp;
    const grpc::Status st = stub_->GetTournament(&ctx, req, &resp);
    EXPECT_TRUE(st.ok()) << st.error_code() << ": " << st.error_message();
    return resp.tournament();
  }

  // Waits (up to two minutes) until at least `n` of the tournament's games
  // have ended.
  void WaitForEndedGames(int n) { WaitForEndedGames(kTournament, n); }
  void WaitForEndedGames(const std::string& name, int n) {
    for (int i = 0; i < 1200; ++i) {
      grpc::ClientContext ctx;
      Admin(&ctx);
      v1::GetTournamentRequest req;
      req.set_name(name);
      v1::GetTournamentResponse resp;
      if (stub_->GetTournament(&ctx, req, &resp).ok() &&
          resp.tournament().games_finished() +
                  resp.tournament().games_aborted() >=
              n) {
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    FAIL() << "fewer than " << n << " games ended in two minutes";
  }

  void StartBot(Participant& p) {
    // Two games at once; never exits by itself (--games 0).
    p.process = std::make_unique<Child>(p.args(address_, p.key, 2, 0));
    ASSERT_TRUE(p.process->started()) << p.account;
  }
};

BotArgs CppStrategy(const std::string& strategy) {
  return [strategy](const std::string& address, const std::string& key,
                    int capacity, int games) {
    std::vector<std::string> args = CppLobbyBot(address, key, capacity, games);
    args.back() = strategy;  // CppLobbyBot ends with "--strategy", "greedy"
    return args;
  };
}

TEST_F(TournamentLiveTest, FourBotsThreeLanguagesThroughARestart) {
  std::vector<Participant> bots;
  bots.emplace_back("cpp-greedy", CppStrategy("greedy"));
  bots.emplace_back("cpp-builder", CppStrategy("builder"));
  const std::string no_python = PythonUnavailable();
  const std::string no_node = NodeUnavailable();
  if (!no_python.empty())
    std::printf("Python bot replaced: %s\n", no_python.c_str());
  if (!no_node.empty()) std::printf("Node bot replaced: %s\n", no_node.c_str());
  bots.push_back(no_python.empty()
                     ? Participant{"python-bot", PythonLobbyBot}
                     : Participant{"cpp-random", CppStrategy("random")});
  bots.push_back(no_node.empty()
                     ? Participant{"node-bot", NodeLobbyBot}
                     : Participant{"cpp-greedy-2", CppStrategy("greedy")});
  for (Participant& p : bots) {
    p.key = RegisterBot(p.account);
    ASSERT_FALSE(p.key.empty());
  }
  for (Participant& p : bots) StartBot(p);

  // The organiser's side: create the tournament and follow it.
  std::vector<std::string> follow = {kCli,
                                     "tournament",
                                     "--address",
                                     address_,
                                     "--admin-token",
                                     kAdminToken,
                                     "--name",
                                     kTournament,
                                     "--games",
                                     "2",
                                     "--concurrency",
                                     "3",
                                     "--per-move-ms",
                                     "20000",
                                     "--bank-ms",
                                     "120000",
                                     "--grace-ms",
                                     "60000"};
  for (const Participant& p : bots) {
    follow.push_back("--account");
    follow.push_back(p.account);
  }
  Child follower(follow);
  ASSERT_TRUE(follower.started());

  // A bot drops out and comes back: kill the Python bot (or its stand-in)
  // once two games have ended, and start it again.
  WaitForEndedGames(2);
  Participant& dropper = bots[2];
  dropper.process->Stop(SIGKILL);
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  StartBot(dropper);

  // The referee restarts once more games have ended.
  WaitForEndedGames(5);
  const std::string address = address_;
  referee_->Stop(SIGTERM);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  StartReferee(address);
  ASSERT_EQ(address_, address);
  stub_ = v1::RefereeService::NewStub(
      grpc::CreateChannel(address_, grpc::InsecureChannelCredentials()));

  const ProcResult followed = follower.Wait(kProcessTimeoutSeconds * 2);
  ASSERT_EQ(followed.exit_code, 0) << followed.Describe() << "\nreferee:\n"
                                   << referee_->stderr_text();
  std::printf("%s", followed.out.c_str());

  const v1::TournamentInfo info = Tournament();
  EXPECT_EQ(info.status(), v1::TOURNAMENT_STATUS_FINISHED);
  EXPECT_EQ(info.games_total(), 12);  // 6 pairings x 2 games
  EXPECT_EQ(info.games_finished(), 12);
  EXPECT_EQ(info.games_aborted(), 0);
  EXPECT_EQ(info.games_pending(), 0);
  EXPECT_FALSE(info.spec().seed().empty()) << "the seed is revealed at the end";

  // The follower printed the referee's final standings.
  EXPECT_NE(followed.out.find(tournament::FormatStandings(
                tournament::StandingsFromProto(info))),
            std::string::npos)
      << followed.out;

  // The referee's standings are what `cassino stats` computes.
  const absl::StatusOr<stats::Stats> st =
      stats::ReadStats((dir_ / "referee.db").string(), [] {
        stats::Filter f;
        f.tournament = kTournament;
        return f;
      }());
  ASSERT_TRUE(st.ok()) << st.status();
  EXPECT_EQ(st->summary.finished, 12);
  std::map<std::string, const stats::BotStats*> by_name;
  for (const stats::BotStats& b : st->bots) by_name[b.name] = &b;
  ASSERT_EQ(info.standings_size(), 4);
  ASSERT_EQ(by_name.size(), 4u);
  int total_games = 0;
  for (const v1::TournamentStanding& s : info.standings()) {
    SCOPED_TRACE(s.bot());
    ASSERT_TRUE(by_name.count(s.bot()));
    const stats::BotStats& b = *by_name[s.bot()];
    EXPECT_EQ(s.games(), b.games);
    EXPECT_EQ(s.wins(), b.wins);
    EXPECT_EQ(s.losses(), b.losses);
    EXPECT_EQ(s.draws(), b.draws);
    EXPECT_EQ(s.forfeits(), b.forfeits);
    EXPECT_DOUBLE_EQ(s.score(), b.wins + b.draws / 2.0);
    total_games += s.games();
  }
  EXPECT_EQ(total_games, 24);  // each game counts for both of its bots

  // Every record verifies.
  const ProcResult verified =
      RunProcess({kCli, "verify", (dir_ / "referee.db").string()});
  EXPECT_EQ(verified.exit_code, 0) << verified.Describe();

  for (Participant& p : bots) p.process->Stop(SIGTERM);
}

// --sprt with --account: the builder against the random bot, both lobby
// bots of a running referee. The runner creates a duplicate tournament of
// the two accounts, follows it pair by pair, and cancels it when the test
// first crosses a bound (H1 within the pair cap); `cassino stats --sprt`
// over the referee's database recomputes the same LLR from the records.
TEST_F(TournamentLiveTest, SprtBetweenTwoAccountsCancelsAtTheCrossing) {
  std::vector<Participant> bots;
  bots.emplace_back("builder", CppStrategy("builder"));
  bots.emplace_back("random", CppStrategy("random"));
  for (Participant& p : bots) {
    p.key = RegisterBot(p.account);
    ASSERT_FALSE(p.key.empty());
    StartBot(p);
  }
  const std::string sprt = "elo0=0,elo1=150,alpha=0.05,beta=0.05";
  const ProcResult run = RunProcess({kCli,
                                     "tournament",
                                     "--address",
                                     address_,
                                     "--admin-token",
                                     kAdminToken,
                                     "--name",
                                     "sprt-cup",
                                     "--account",
                                     "builder",
                                     "--account",
                                     "random",
                                     "--sprt",
                                     sprt,
                                     "--max-pairs",
                                     "40",
                                     "-j",
                                     "2",
                                     "--per-move-ms",
                                     "20000",
                                     "--grace-ms",
                                     "60000"});
  ASSERT_EQ(run.exit_code, 0) << run.Describe();
  std::printf("%s%s", run.err.c_str(), run.out.c_str());
  EXPECT_NE(run.out.find("sprt sprt-cup: H1 accepted after "),
            std::string::npos)
      << run.Describe();
  // Each pair's line, then the verdict; the tournament was cancelled
  // unless the crossing came with its very last pair.
  EXPECT_NE(run.err.find("[pair 0] builder vs random: "), std::string::npos)
      << run.Describe();
  grpc::ClientContext ctx;
  Admin(&ctx);
  v1::GetTournamentRequest req;
  req.set_name("sprt-cup");
  v1::GetTournamentResponse resp;
  ASSERT_TRUE(stub_->GetTournament(&ctx, req, &resp).ok());
  const v1::TournamentInfo& info = resp.tournament();
  EXPECT_EQ(info.games_total(), 80);
  EXPECT_EQ(info.games_running(), 0);
  if (info.games_pending() > 0) {
    EXPECT_EQ(info.status(), v1::TOURNAMENT_STATUS_CANCELLED);
    EXPECT_NE(run.out.find("; tournament cancelled"), std::string::npos)
        << run.Describe();
  }

  const ProcResult audit = RunProcess(
      {kCli, "stats", (dir_ / "referee.db").string(), "--sprt", sprt, "--bot",
       "builder", "--bot", "random", "--tournament", "sprt-cup"});
  ASSERT_EQ(audit.exit_code, 0) << audit.Describe();
  auto llr = [](const std::string& text) {
    const size_t at = text.rfind("LLR      ");
    return at == std::string::npos
               ? std::nan("")
               : std::strtod(text.c_str() + at + 9, nullptr);
  };
  EXPECT_NEAR(llr(audit.out), llr(run.out), 0.005)
      << run.Describe() << audit.Describe();
  EXPECT_GE(llr(run.out), std::log(0.95 / 0.05) - 0.005) << run.Describe();
  for (Participant& p : bots) p.process->Stop(SIGTERM);
}

// The same test created with --detach (the runner exits at once; the
// referee plays on) and then followed with --follow NAME --sprt: the pairs
// that ended before the follower started count, and the follower cancels
// the tournament at the crossing.
TEST_F(TournamentLiveTest, SprtFollowedAfterDetachResumesTheCount) {
  std::vector<Participant> bots;
  bots.emplace_back("builder", CppStrategy("builder"));
  bots.emplace_back("random", CppStrategy("random"));
  for (Participant& p : bots) {
    p.key = RegisterBot(p.account);
    ASSERT_FALSE(p.key.empty());
  }
  const std::string sprt = "elo0=0,elo1=150";
  const ProcResult created = RunProcess({kCli,
                                         "tournament",
                                         "--address",
                                         address_,
                                         "--admin-token",
                                         kAdminToken,
                                         "--name",
                                         "sprt-later",
                                         "--account",
                                         "builder",
                                         "--account",
                                         "random",
                                         "--sprt",
                                         sprt,
                                         "--max-pairs",
                                         "40",
                                         "-j",
                                         "2",
                                         "--per-move-ms",
                                         "20000",
                                         "--detach"});
  ASSERT_EQ(created.exit_code, 0) << created.Describe();
  EXPECT_NE(created.out.find("tournament sprt-later created on "),
            std::string::npos)
      << created.Describe();
  // The bots connect now; wait for the first pair, then follow.
  for (Participant& p : bots) StartBot(p);
  WaitForEndedGames("sprt-later", 2);
  const ProcResult run =
      RunProcess({kCli, "tournament", "--address", address_, "--admin-token",
                  kAdminToken, "--follow", "sprt-later", "--sprt", sprt});
  ASSERT_EQ(run.exit_code, 0) << run.Describe();
  EXPECT_NE(run.err.find("[pair 0] builder vs random: "), std::string::npos)
      << run.Describe();
  EXPECT_NE(run.out.find("sprt sprt-later: H1 accepted after "),
            std::string::npos)
      << run.Describe();
  for (Participant& p : bots) p.process->Stop(SIGTERM);
}

#endif  // CASSINO_REFEREE_BIN

}  // namespace
}  // namespace cassino::bots::testing
