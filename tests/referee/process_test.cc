// The referee binary as separate processes: what only a second process or
// a real restart shows (issue #14: two referees on one port or database;
// seat tokens across restarts).

#include <signal.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cassino/v1/referee_service.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "tests/child_process.h"
#include "tests/referee/lobby_client.h"
#include "tests/referee/test_referee.h"
#include "tests/sanitizers.h"

namespace cassino::testing {
namespace {

namespace v1 = ::cassino::v1;
using Clock = std::chrono::steady_clock;

constexpr const char* kAdmin = kAdminToken;

std::filesystem::path FreshDir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::filesystem::path dir = std::filesystem::temp_directory_path() /
                              (std::string("cassino_process_") + info->name() +
                               "_" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "admin_token") << kAdmin << "\n";
  return ::cassino::testing::RemoveAtTestEnd(dir);
}

// A cassino-referee child process.
class Referee {
 public:
  // Starts the binary with `listen` and `db` (and the test's admin token);
  // logs to `log`.
  Referee(const std::filesystem::path& dir, const std::string& listen,
          const std::filesystem::path& db, const std::string& log_name)
      : log_(dir / log_name), port_file_(dir / (log_name + ".port")) {
    std::filesystem::remove(port_file_);
    // (CASSINO_REFEREE_UNDER_TEST runs these tests against another build,
    // e.g. an older one, to see what a change fixed.)
    const char* other = std::getenv("CASSINO_REFEREE_UNDER_TEST");
    pid_ = Spawn(
        {other != nullptr ? other : CASSINO_REFEREE_BINARY, "--listen", listen,
         "--db", db.string(), "--admin-token-file",
         (dir / "admin_token").string(), "--port-file", port_file_.string()},
        log_);
  }
  ~Referee() { Kill(); }

  // Waits until it listens (its port) or exits (0, `exit_status` set).
  int WaitListening(int* exit_status = nullptr,
                    milliseconds timeout = milliseconds(20000)) {
    const auto until = Clock::now() + timeout;
    while (Clock::now() < until && pid_ > 0) {
      const std::string text = ReadText(port_file_);
      if (!text.empty() && text.back() == '\n') return std::atoi(text.c_str());
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        if (exit_status != nullptr) *exit_status = status;
        return 0;
      }
      std::this_thread::sleep_for(milliseconds(10));
    }
    return 0;
  }
  void Kill() { KillAndReap(&pid_); }
  // SIGTERM; the wait status (-1 if it had to be killed after `timeout`).
  int Stop(milliseconds timeout = milliseconds(10000)) {
    return TerminateAndReap(&pid_, timeout);
  }
  pid_t pid() const { return pid_; }
  std::string Log() const { return Tail(log_); }

 private:
  std::filesystem::path log_, port_file_;
  pid_t pid_ = -1;
};

// Issue #14, Medium 4: a second referee on the port or the database of a
// running one refuses to start, with a message saying why; once the first
// is gone (even by kill -9), the database is free again.
TEST(TwoRefereesTest, ASecondRefereeOnThePortOrTheDatabaseRefusesToStart) {
  const auto dir = FreshDir();
  Referee first(dir, "127.0.0.1:0", dir / "a.db", "first.log");
  const int port = first.WaitListening();
  ASSERT_GT(port, 0) << first.Log();
  const std::string address = "127.0.0.1:" + std::to_string(port);

  {  // Same port, another database.
    Referee second(dir, address, dir / "b.db", "second.log");
    int status = 0;
    EXPECT_EQ(second.WaitListening(&status, milliseconds(10000)), 0)
        << "a second referee listens on the first one's port";
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 1) << status;
    EXPECT_NE(second.Log().find("cannot listen on " + address +
                                ": the address is in use"),
              std::string::npos)
        << second.Log();
  }
  {  // Same database, another port.
    Referee third(dir, "127.0.0.1:0", dir / "a.db", "third.log");
    int status = 0;
    EXPECT_EQ(third.WaitListening(&status, milliseconds(10000)), 0)
        << "a second referee runs on the first one's database";
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 1) << status;
    EXPECT_NE(third.Log().find("is in use by another referee (pid " +
                               std::to_string(first.pid()) + ")"),
              std::string::npos)
        << third.Log();
  }
  // kill -9 releases both.
  first.Kill();
  Referee again(dir, address, dir / "a.db", "again.log");
  EXPECT_EQ(again.WaitListening(), port) << again.Log();
  EXPECT_EQ(again.Stop(), 0);
}

std::unique_ptr<v1::RefereeService::Stub> Connect(int port) {
  return v1::RefereeService::NewStub(grpc::CreateChannel(
      "127.0.0.1:" + std::to_string(port), grpc::InsecureChannelCredentials()));
}

// Issue #14, Medium 3: after the end, and across restarts (kill -9 and
// SIGTERM), a seat token still reads its game's result and resends its last
// move for the same verdict.
TEST(SeatTokenRetentionTest, TokensOfAnEndedGameWorkAcrossRestarts) {
  const auto dir = FreshDir();
  auto referee =
      std::make_unique<Referee>(dir, "127.0.0.1:0", dir / "g.db", "r1.log");
  int port = referee->WaitListening();
  ASSERT_GT(port, 0) << referee->Log();
  auto stub = Connect(port);
  v1::CreateGameRequest create;
  create.add_seats()->set_bot_name("a");
  create.add_seats()->set_bot_name("b");
  create.set_seed(kSeed);
  v1::CreateGameResponse game;
  ASSERT_TRUE(
      stub->CreateGame(TestReferee::Context(kAdmin).get(), create, &game).ok());
  UnarySeatLog logs[2];
  v1::GameEnded ended;
  std::thread other([&] {
    PlayUnarySeat(*stub, game.tokens(1).token(), game.game_id(), 2, nullptr,
                  &logs[1]);
  });
  PlayUnarySeat(*stub, game.tokens(0).token(), game.game_id(), 1, &ended,
                &logs[0]);
  other.join();
  ASSERT_TRUE(ended.has_result());
  // The seat that made the last move, and that move's answer.
  int last_seat = -1;
  v1::SubmitMoveResponse last;
  for (int seat = 0; seat < 2; ++seat) {
    if (!logs[seat].answers.empty() &&
        (last_seat < 0 ||
         logs[seat].answers.back().verdict().turn() > last.verdict().turn())) {
      last_seat = seat;
      last = logs[seat].answers.back();
    }
  }
  ASSERT_GE(last_seat, 0);

  auto check = [&](const char* when) {
    for (int seat = 0; seat < 2; ++seat) {
      v1::GetTurnRequest req;
      req.set_game_id(game.game_id());
      v1::GetTurnResponse turn;
      grpc::Status s = stub->GetTurn(
          TestReferee::Context(game.tokens(seat).token()).get(), req, &turn);
      ASSERT_TRUE(s.ok()) << when << ", seat " << seat << ": "
                          << s.error_message();
      EXPECT_EQ(turn.status(), v1::GAME_STATUS_FINISHED) << when;
      EXPECT_EQ(turn.ended().result().winner(), ended.result().winner())
          << when;
      EXPECT_EQ(turn.ended().seed(), ended.seed()) << when;
    }
    v1::SubmitMoveRequest resend;
    resend.set_game_id(game.game_id());
    resend.set_turn(last.verdict().turn());
    *resend.mutable_move() = last.verdict().move();
    v1::SubmitMoveResponse again;
    grpc::Status s = stub->SubmitMove(
        TestReferee::Context(game.tokens(last_seat).token()).get(), resend,
        &again);
    ASSERT_TRUE(s.ok()) << when << ": " << s.error_message();
    EXPECT_TRUE(again.verdict().accepted()) << when;
    EXPECT_EQ(again.verdict().move().notation(),
              last.verdict().move().notation())
        << when;
  };
  check("after the end");
  referee->Kill();  // kill -9
  referee =
      std::make_unique<Referee>(dir, "127.0.0.1:0", dir / "g.db", "r2.log");
  port = referee->WaitListening();
  ASSERT_GT(port, 0) << referee->Log();
  stub = Connect(port);
  check("after kill -9");
  EXPECT_EQ(referee->Stop(), 0);  // SIGTERM
  referee =
      std::make_unique<Referee>(dir, "127.0.0.1:0", dir / "g.db", "r3.log");
  port = referee->WaitListening();
  ASSERT_GT(port, 0) << referee->Log();
  stub = Connect(port);
  check("after SIGTERM");
  EXPECT_EQ(referee->Stop(), 0);
}

// Every game the referee lists, all pages.
std::vector<v1::GameInfo> AllGames(v1::RefereeService::Stub& stub) {
  std::vector<v1::GameInfo> games;
  v1::ListGamesRequest req;
  req.set_page_size(1000);
  do {
    v1::ListGamesResponse resp;
    grpc::Status s =
        stub.ListGames(TestReferee::Context(kAdmin).get(), req, &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    if (!s.ok()) break;
    games.insert(games.end(), resp.games().begin(), resp.games().end());
    req.set_page_token(resp.next_page_token());
  } while (!req.page_token().empty());
  return games;
}

// Issue #27, part 5: a referee killed (kill -9) and restarted with games
// whose bots never connected to them. Before, each such game was decided
// by the clock of the seat to move, crediting a bot that was never there
// with a win. Three kinds, none of whose bots come back after the restart:
//  - games seating bot accounts (CreateGame), whose bots never connected;
//  - games by seat token that nobody played;
//  - a tournament's games, created while both bots were in the lobby, whose
//    bots then vanished without opening their seats (with the kill).
// Every one ends aborted: none is finished, nobody won.
TEST(AbsentBotsTest, GamesNobodyConnectedToAreAbortedAcrossAKill9) {
  const auto dir = FreshDir();
  auto referee =
      std::make_unique<Referee>(dir, "127.0.0.1:0", dir / "a.db", "r1.log");
  int port = referee->WaitListening();
  ASSERT_GT(port, 0) << referee->Log();
  auto stub = Connect(port);
  std::map<std::string, std::string> keys;
  for (const char* name : {"a", "b", "c", "d", "e", "f"}) {
    v1::RegisterBotRequest req;
    req.set_name(name);
    v1::RegisterBotResponse resp;
    ASSERT_TRUE(
        stub->RegisterBot(TestReferee::Context(kAdmin).get(), req, &resp).ok());
    keys[name] = resp.key();
  }
  v1::Clock clock;
  clock.set_per_move_ms(1500);
  clock.set_bank_ms(-1);  // none
  auto create = [&](std::vector<std::pair<std::string, std::string>> seats) {
    v1::CreateGameRequest req;
    for (const auto& [account, bot] : seats) {
      v1::SeatSpec* seat = req.add_seats();
      seat->set_account(account);
      seat->set_bot_name(bot);
    }
    *req.mutable_clock() = clock;
    v1::CreateGameResponse resp;
    grpc::Status s =
        stub->CreateGame(TestReferee::Context(kAdmin).get(), req, &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
  };
  create({{"a", ""}, {"b", ""}});
  create({{"c", ""}, {"d", ""}});
  create({{"", "x"}, {"", "y"}});
  create({{"", "y"}, {"", "x"}});
  {
    // e and f in the lobby: the tournament's two games are created and
    // offered; then both bots vanish with the referee.
    LobbyStream le(*stub, keys["e"], 2), lf(*stub, keys["f"], 2);
    v1::CreateTournamentRequest req;
    req.mutable_spec()->set_name("cup");
    req.mutable_spec()->add_participants("e");
    req.mutable_spec()->add_participants("f");
    req.mutable_spec()->set_games_per_pairing(2);
    req.mutable_spec()->set_grace_ms(1000);
    *req.mutable_spec()->mutable_clock() = clock;
    v1::CreateTournamentResponse resp;
    ASSERT_TRUE(
        stub->CreateTournament(TestReferee::Context(kAdmin).get(), req, &resp)
            .ok());
    for (int i = 0; i < 2; ++i) {
      EXPECT_FALSE(le.NextOffer().token().empty());
      EXPECT_FALSE(lf.NextOffer().token().empty());
    }
    referee->Kill();  // kill -9, well within the games' first 1.5 s
    le.TryCancel();
    lf.TryCancel();
  }
  referee =
      std::make_unique<Referee>(dir, "127.0.0.1:0", dir / "a.db", "r2.log");
  port = referee->WaitListening();
  ASSERT_GT(port, 0) << referee->Log();
  stub = Connect(port);
  // Nobody comes back: each clock runs out (1.5 s), the tournament's grace
  // passes (1 s).
  std::vector<v1::GameInfo> games;
  const auto until = Clock::now() + std::chrono::seconds(30);
  while (Clock::now() < until) {
    games = AllGames(*stub);
    if (std::none_of(games.begin(), games.end(), [](const v1::GameInfo& g) {
          return g.status() == v1::GAME_STATUS_RUNNING;
        })) {
      break;
    }
    std::this_thread::sleep_for(milliseconds(100));
  }
  // 4 created games, 2 tournament games aborted at the restart and their 2
  // replacements the grace aborted.
  EXPECT_EQ(games.size(), 8u);
  for (const v1::GameInfo& g : games) {
    EXPECT_EQ(g.status(), v1::GAME_STATUS_ABORTED)
        << g.game_id() << " (" << g.label()
        << "): " << g.result().ShortDebugString();
    EXPECT_EQ(g.result().winner(), -1) << g.game_id();
  }
  v1::GetTournamentRequest get;
  get.set_name("cup");
  v1::GetTournamentResponse cup;
  ASSERT_TRUE(
      stub->GetTournament(TestReferee::Context(kAdmin).get(), get, &cup).ok());
  EXPECT_EQ(cup.tournament().games_finished(), 0);
  for (const v1::TournamentStanding& s : cup.tournament().standings()) {
    EXPECT_EQ(s.games(), 0) << s.bot();
    EXPECT_EQ(s.forfeits(), 0) << s.bot();
  }
  EXPECT_EQ(referee->Stop(), 0);
}

// The resident memory of a process, in bytes (VmRSS); 0 if unknown.
int64_t ResidentBytes(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0) {
      return std::atoll(line.c_str() + 6) * 1024;
    }
  }
  return 0;
}

// A two-seat game with a one-hour clock, created as the organiser.
v1::CreateGameResponse CreateSlowGame(v1::RefereeService::Stub& stub) {
  v1::CreateGameRequest req;
  req.set_rules("standard");
  req.add_seats()->set_bot_name("a");
  req.add_seats()->set_bot_name("b");
  req.mutable_clock()->set_per_move_ms(3'600'000);
  v1::CreateGameResponse resp;
  grpc::Status s =
      stub.CreateGame(TestReferee::Context(kAdmin).get(), req, &resp);
  EXPECT_TRUE(s.ok()) << s.error_message();
  return resp;
}

// Issue #22, A6 and B3: SIGTERM while a bot waits in GetTurn(wait) (the
// way `cassino-bot --unary` plays) ends at once: the call is answered
// UNAVAILABLE, the process exits 0 well within its stop bound, and the game
// is resumed, not decided, by the next referee.
TEST(StopTest, SigtermWithAParkedGetTurnEndsPromptly) {
  const auto dir = FreshDir();
  auto referee =
      std::make_unique<Referee>(dir, "127.0.0.1:0", dir / "g.db", "r1.log");
  int port = referee->WaitListening();
  ASSERT_GT(port, 0) << referee->Log();
  auto stub = Connect(port);
  const v1::CreateGameResponse game = CreateSlowGame(*stub);
  v1::GetGameRequest info_req;
  info_req.set_game_id(game.game_id());
  v1::GetGameResponse info;
  ASSERT_TRUE(
      stub->GetGame(TestReferee::Context(kAdmin).get(), info_req, &info).ok());
  const int other = 1 - info.game().to_move();
  grpc::Status parked;
  std::thread waiter([&] {
    v1::GetTurnRequest req;
    req.set_game_id(game.game_id());
    req.set_wait(true);
    v1::GetTurnResponse resp;
    parked = stub->GetTurn(
        TestReferee::Context(game.tokens(other).token(), 60000).get(), req,
        &resp);
  });
  std::this_thread::sleep_for(milliseconds(300));
  const auto start = Clock::now();
  EXPECT_EQ(referee->Stop(), 0) << referee->Log();
  EXPECT_LT(Clock::now() - start, milliseconds(5000));
  waiter.join();
  EXPECT_EQ(parked.error_code(), grpc::StatusCode::UNAVAILABLE)
      << parked.error_message();
  referee =
      std::make_unique<Referee>(dir, "127.0.0.1:0", dir / "g.db", "r2.log");
  port = referee->WaitListening();
  ASSERT_GT(port, 0) << referee->Log();
  stub = Connect(port);
  info.Clear();
  ASSERT_TRUE(
      stub->GetGame(TestReferee::Context(kAdmin).get(), info_req, &info).ok());
  EXPECT_EQ(info.game().status(), v1::GAME_STATUS_RUNNING);
  EXPECT_EQ(referee->Stop(), 0);
}

// CPU time the process has used (user + system), in seconds; from
// /proc/PID/stat.
double CpuSeconds(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(in)),
                   std::istreambuf_iterator<char>());
  const size_t close = text.rfind(')');
  if (close == std::string::npos) return 0;
  std::istringstream fields(text.substr(close + 2));
  std::string field;
  long long utime = 0, stime = 0;
  for (int i = 3; i <= 15 && fields >> field; ++i) {
    if (i == 14) utime = std::atoll(field.c_str());
    if (i == 15) stime = std::atoll(field.c_str());
  }
  return static_cast<double>(utime + stime) / sysconf(_SC_CLK_TCK);
}

// Issue #27, part 7: hundreds of bots connected to a ladder hold the
// referee's memory and CPU within bounds: 300 lobby streams in ladder mode
// (bots that take their offers and never play: the ladder's
// max_concurrent_games bounds the games they make it hold) add a few
// megabytes, and idle they cost the referee little CPU (a matchmaking pass
// a second, and on every event).
TEST(LadderMemoryTest, HundredsOfConnectedBotsHoldBoundedMemoryAndCpu) {
  if (kSanitized)
    GTEST_SKIP() << "resident memory is measured in the plain build";
  constexpr int kBots = 300;
  const auto dir = FreshDir();
  Referee referee(dir, "127.0.0.1:0", dir / "g.db", "r.log");
  const int port = referee.WaitListening();
  ASSERT_GT(port, 0) << referee.Log();
  auto stub = Connect(port);
  {
    v1::CreateLadderRequest req;
    req.mutable_spec()->set_name("crowd");
    req.mutable_spec()->mutable_clock()->set_per_move_ms(600000);
    req.mutable_spec()->mutable_settings()->set_max_concurrent_games(32);
    v1::CreateLadderResponse resp;
    ASSERT_TRUE(
        stub->CreateLadder(TestReferee::Context(kAdmin).get(), req, &resp)
            .ok());
  }
  std::vector<std::string> keys;
  for (int i = 0; i < kBots; ++i) {
    v1::RegisterBotRequest req;
    req.set_name("m" + std::to_string(i));
    v1::RegisterBotResponse resp;
    ASSERT_TRUE(
        stub->RegisterBot(TestReferee::Context(kAdmin).get(), req, &resp).ok());
    keys.push_back(resp.key());
  }
  std::this_thread::sleep_for(milliseconds(300));
  const int64_t before = ResidentBytes(referee.pid());
  std::vector<std::unique_ptr<LobbyStream>> streams;
  for (const std::string& key : keys) {
    streams.push_back(
        std::make_unique<LobbyStream>(*stub, key, 4, 60000, "crowd", "1"));
  }
  v1::GetLadderResponse ladder;
  for (int i = 0; i < 100; ++i) {
    v1::GetLadderRequest req;
    req.set_name("crowd");
    ASSERT_TRUE(
        stub->GetLadder(TestReferee::Context(kAdmin).get(), req, &ladder).ok());
    if (ladder.ladder().bots_connected() == kBots &&
        ladder.ladder().games_running() == 32) {
      break;
    }
    std::this_thread::sleep_for(milliseconds(100));
  }
  EXPECT_EQ(ladder.ladder().bots_connected(), kBots);
  EXPECT_EQ(ladder.ladder().games_running(), 32);  // and no more
  const int64_t after = ResidentBytes(referee.pid());
  const double cpu0 = CpuSeconds(referee.pid());
  std::this_thread::sleep_for(milliseconds(5000));
  const double idle_cpu = (CpuSeconds(referee.pid()) - cpu0) / 5.0;
  std::printf(
      "[ figures  ] %d bots connected to a ladder: resident memory %.1f -> "
      "%.1f MB; idle, %.1f%% of a core\n",
      kBots, before / 1048576.0, after / 1048576.0, 100 * idle_cpu);
  EXPECT_LT(after - before, int64_t{64} << 20);
  EXPECT_LT(idle_cpu, 0.10);
  for (auto& s : streams) s->TryCancel();
  streams.clear();
  EXPECT_EQ(referee.Stop(), 0);
}

// Issue #22, A4: a Play stream that sends without ever reading does not
// grow the referee's memory (before: 200,000 requests took it to 301 MB).
// The referee stops reading such a stream while its answers wait, so the
// client's writes stall under HTTP/2 flow control.
TEST(AbuseTest, PlayStreamThatNeverReadsHoldsBoundedMemory) {
  if (kSanitized) {
    // AddressSanitizer keeps freed memory in its quarantine (256 MB by
    // default): resident memory says nothing there. The plain build (the
    // gcc pass of CI) checks the bound.
    GTEST_SKIP() << "resident memory is measured in the plain build";
  }
  const auto dir = FreshDir();
  Referee referee(dir, "127.0.0.1:0", dir / "g.db", "r.log");
  const int port = referee.WaitListening();
  ASSERT_GT(port, 0) << referee.Log();
  auto stub = Connect(port);
  const v1::CreateGameResponse game = CreateSlowGame(*stub);
  std::this_thread::sleep_for(milliseconds(200));
  const int64_t before = ResidentBytes(referee.pid());
  ASSERT_GT(before, 0);
  auto context = TestReferee::Context(game.tokens(0).token(), 60000);
  auto stream = stub->Play(context.get());
  constexpr int kRequests = 200000;
  std::atomic<int> written{0};
  std::thread writer([&] {
    v1::PlayRequest req;
    req.set_turn(1000);  // not begun: every request is refused
    req.mutable_move()->set_notation("trail 8C");
    for (int i = 0; i < kRequests; ++i) {
      if (!stream->Write(req)) return;
      written.fetch_add(1);
    }
  });
  // Until the writes stall (or all are sent), at most 20 s.
  int last = -1;
  for (int i = 0; i < 100; ++i) {
    std::this_thread::sleep_for(milliseconds(200));
    const int now = written.load();
    if (now == kRequests || now == last) break;
    last = now;
  }
  const int64_t after = ResidentBytes(referee.pid());
  context->TryCancel();
  writer.join();
  EXPECT_LT(after - before, int64_t{64} << 20)
      << "resident memory grew from " << before << " to " << after
      << " bytes after " << written.load() << " unread requests";
  // gRPC's own teardown of what such a client left in its buffers can take
  // seconds; the referee's stop bound (--stop-timeout-ms, 15 s) holds it.
  const int status = referee.Stop(milliseconds(20000));
  EXPECT_TRUE(status != -1 && WIFEXITED(status)) << referee.Log();
}

}  // namespace
}  // namespace cassino::testing
