// End-to-end tests of the bots over real gRPC connections.
//
// FakeRefereeTest: every bot (C++ client in stream and unary mode, the
// cassino-bot binary, the Python and Node examples) plays complete games
// against an in-process fake referee that injects a rejected move and a
// dropped stream, so the bots' request/response, rejection and reconnect
// handling is covered even without the real referee.
//
// PythonBotTest: the Python bot prints every thread's stack on SIGUSR1,
// which Child::Wait sends a bot before killing it at the timeout.
//
// RealRefereeTest (compiled only when CMake found the cassino-referee
// target; CASSINO_REFEREE_BIN is its path): starts the real cassino-referee
// on 127.0.0.1 with a temporary database, creates games through the admin
// API and plays them to the end with the cassino-bot binary (stream and
// unary), the Python bot and the Node bot; then registers bot accounts and
// plays games seated by account with each bot in lobby mode (--lobby),
// including three bots in three processes (C++, Python, Node) across a
// restart of the referee.
//
// The Python parts skip when /usr/bin/python3 cannot import grpc (or protoc
// or /usr/bin/grpc_python_plugin is missing); the Node parts skip when node
// or tools/bots/node/node_modules is missing (run `npm install` there).

#include <chrono>
#include <cstdio>
#include <functional>
#include <future>
#include <memory>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "tests/child_process.h"
#include "tests/tools/bots/fake_referee.h"
#include "tests/tools/bots/live_process.h"
#include "tools/bots/client/bot_client.h"
#include "tools/bots/strategies.h"

// In the helpers' namespace (live_process.h, fake_referee.h).
namespace cassino::bots::testing {
namespace {

// --------------------------------------------------------- fake referee

BotOptions ClientOptions(const FakeReferee& fake, int seat, bool unary) {
  BotOptions o;
  o.address = fake.address();
  o.token = FakeReferee::kTokens[seat];
  o.game_id = FakeReferee::kGameId;
  o.unary = unary;
  o.initial_backoff = std::chrono::milliseconds(20);
  return o;
}

// Plays both seats with in-process clients; `unary[seat]` picks the mode.
void PlayBothInProcess(const FakeOptions& fo, bool unary0, bool unary1,
                       int rejecting_seat) {
  FakeReferee fake(fo);
  BuilderStrategy builder;
  GreedyStrategy greedy;
  BotClient c0(ClientOptions(fake, 0, unary0), &builder);
  BotClient c1(ClientOptions(fake, 1, unary1), &greedy);
  auto r1 = std::async(std::launch::async, [&] { return c1.Run(); });
  absl::StatusOr<BotResult> r0 = c0.Run();
  absl::StatusOr<BotResult> other = r1.get();
  ASSERT_TRUE(r0.ok()) << r0.status();
  ASSERT_TRUE(other.ok()) << other.status();
  const Game game = fake.game();
  ASSERT_TRUE(game.over());
  for (const BotResult* r : {&*r0, &*other}) {
    EXPECT_EQ(r->game_id, FakeReferee::kGameId);
    EXPECT_EQ(r->ended.result().winner(), game.result()->winner);
    EXPECT_EQ(r->ended.result().reason(),
              GameEndReasonName(game.result()->reason));
    std::printf("%s [%d moves, %d rejected, %d retries]\n",
                r->Describe().c_str(), r->moves, r->rejected, r->reconnects);
  }
  EXPECT_EQ(r0->moves + other->moves, game.turn());
  const BotResult& rejecting = rejecting_seat == 0 ? *r0 : *other;
  EXPECT_EQ(rejecting.rejected, 1);
}

TEST(FakeRefereeTest, CppStreamVsUnaryWithRejectionAndDrop) {
  // Turn 4 is seat 0's (seat 0 moves first); the drop hits seat 0's stream.
  PlayBothInProcess({.reject_turn = 4, .drop_turn = 9}, false, true, 0);
}

TEST(FakeRefereeTest, CppUnaryVsStreamWithRejection) {
  PlayBothInProcess({.reject_turn = 5, .drop_turn = 12}, false, true, 1);
  PlayBothInProcess({.reject_turn = 4, .seed_byte = 9}, true, false, 0);
}

TEST(FakeRefereeTest, WrongTokenFailsFast) {
  FakeReferee fake({});
  GreedyStrategy greedy;
  BotOptions o = ClientOptions(fake, 0, false);
  o.token = "nonsense";
  absl::StatusOr<BotResult> r = BotClient(o, &greedy).Run();
  EXPECT_EQ(r.status().code(), absl::StatusCode::kUnauthenticated);
}

TEST(FakeRefereeTest, CassinoBotBinaryBothModes) {
  FakeReferee fake({.reject_turn = 4, .drop_turn = 9});
  auto unary = std::async(std::launch::async, [&] {
    return RunProcess(CppBotArgs(fake.address(), FakeReferee::kTokens[1],
                                 FakeReferee::kGameId, "greedy", true));
  });
  ProcResult stream =
      RunProcess(CppBotArgs(fake.address(), FakeReferee::kTokens[0],
                            FakeReferee::kGameId, "builder", false));
  ProcResult u = unary.get();
  EXPECT_EQ(stream.exit_code, 0) << stream.Describe();
  EXPECT_EQ(u.exit_code, 0) << u.Describe();
  EXPECT_NE(stream.out.find("game fake-1 seat 0: "), std::string::npos)
      << stream.Describe();
  EXPECT_NE(u.out.find("game fake-1 seat 1: "), std::string::npos)
      << u.Describe();
  EXPECT_NE(stream.out.find("1 rejected"), std::string::npos)
      << stream.Describe();
  EXPECT_TRUE(fake.game().over());
}

// --think-ms: the bot waits that long before each of its moves, so the
// process cannot end sooner than its moves times the wait (a lower bound:
// never a timed test of speed).
TEST(FakeRefereeTest, CassinoBotThinksAsLongAsItIsTold) {
  constexpr int kThinkMs = 25;
  FakeReferee fake({});
  GreedyStrategy greedy;
  BotClient c1(ClientOptions(fake, 1, false), &greedy);
  auto r1 = std::async(std::launch::async, [&] { return c1.Run(); });
  std::vector<std::string> args =
      CppBotArgs(fake.address(), FakeReferee::kTokens[0], FakeReferee::kGameId,
                 "builder", false);
  args.insert(args.end(), {"--think-ms", std::to_string(kThinkMs)});
  const auto began = std::chrono::steady_clock::now();
  ProcResult paced = RunProcess(args);
  const auto took = std::chrono::steady_clock::now() - began;
  ASSERT_TRUE(r1.get().ok());
  ASSERT_EQ(paced.exit_code, 0) << paced.Describe();
  std::smatch m;
  ASSERT_TRUE(std::regex_search(paced.out, m, std::regex(R"(, (\d+) moves,)")))
      << paced.Describe();
  const int moves = std::stoi(m[1]);
  EXPECT_GT(moves, 10) << paced.Describe();
  EXPECT_GE(took, std::chrono::milliseconds(moves * kThinkMs))
      << moves << " moves";
  EXPECT_TRUE(fake.game().over());
  // Out of range: refused as a bad flag.
  args.back() = "-1";
  EXPECT_EQ(RunProcess(args).exit_code, 2);
}

// One seat is a script bot (subprocess), the other an in-process client.
void PlayScriptAgainstFake(
    const std::function<std::vector<std::string>(
        const std::string&, const std::string&, const std::string&)>& args) {
  FakeReferee fake({.reject_turn = 4, .drop_turn = 9});
  GreedyStrategy greedy;
  BotClient c1(ClientOptions(fake, 1, false), &greedy);
  auto r1 = std::async(std::launch::async, [&] { return c1.Run(); });
  ProcResult script = RunProcess(
      args(fake.address(), FakeReferee::kTokens[0], FakeReferee::kGameId));
  absl::StatusOr<BotResult> other = r1.get();
  EXPECT_EQ(script.exit_code, 0) << script.Describe();
  EXPECT_NE(script.out.find("game fake-1 ended: winner side"),
            std::string::npos)
      << script.Describe();
  EXPECT_NE(script.err.find("rejected"), std::string::npos)
      << script.Describe();
  ASSERT_TRUE(other.ok()) << other.status();
  EXPECT_TRUE(fake.game().over());
  std::printf("%s", script.out.c_str());
}

TEST(FakeRefereeTest, PythonBot) {
  const std::string why = PythonUnavailable();
  if (!why.empty()) GTEST_SKIP() << why;
  PlayScriptAgainstFake(PythonBotArgs);
}

TEST(FakeRefereeTest, NodeBot) {
  const std::string why = NodeUnavailable();
  if (!why.empty()) GTEST_SKIP() << why;
  PlayScriptAgainstFake(NodeBotArgs);
}

// The Python bot prints every thread's stack on SIGUSR1 and goes on: what
// Child::Wait sends before it kills a bot that did not exit in time.
TEST(PythonBotTest, PrintsItsThreadsOnSigusr1) {
  const std::string why = PythonUnavailable();
  if (!why.empty()) GTEST_SKIP() << why;
  // Nothing listens on the port: the lobby loop keeps reconnecting.
  const int port = cassino::testing::PickFreePort(getpid());
  ASSERT_GT(port, 0);
  Child bot(PythonLobbyBot(absl::StrCat("127.0.0.1:", port), "key", 1, 0));
  ASSERT_TRUE(bot.started());
  // Polls the bot's stderr for `text` for up to 60 s.
  auto wait_for = [&](const std::string& text) {
    for (int i = 0; i < 3000; ++i) {
      if (bot.stderr_text().find(text) != std::string::npos) return true;
      if (bot.Exited()) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
  };
  // main() registers the handler before the lobby loop starts.
  ASSERT_TRUE(wait_for("reconnecting")) << bot.stderr_text();
  bot.Signal(SIGUSR1);
  ASSERT_TRUE(wait_for(" in run_lobby")) << bot.stderr_text();
  EXPECT_NE(bot.stderr_text().find("most recent call first"), std::string::npos)
      << bot.stderr_text();
  EXPECT_FALSE(bot.Exited()) << bot.stderr_text();
}

// --------------------------------------------------------- real referee

#ifdef CASSINO_REFEREE_BIN

class RealRefereeTest : public LiveRefereeTest {
 protected:
  // Creates a two-seat standard game with a generous clock.
  v1::CreateGameResponse CreateGame(const std::string& bot0,
                                    const std::string& bot1) {
    grpc::ClientContext ctx;
    Admin(&ctx);
    v1::CreateGameRequest req;
    req.set_rules("standard");
    req.add_seats()->set_bot_name(bot0);
    req.add_seats()->set_bot_name(bot1);
    req.mutable_clock()->set_per_move_ms(20000);
    req.mutable_clock()->set_bank_ms(120000);
    req.set_label("bots-live-test");
    v1::CreateGameResponse resp;
    grpc::Status st = stub_->CreateGame(&ctx, req, &resp);
    EXPECT_TRUE(st.ok()) << st.error_code() << ": " << st.error_message()
                         << "\nreferee stderr:\n"
                         << referee_->stderr_text();
    EXPECT_EQ(resp.tokens_size(), 2);
    return resp;
  }

  v1::GameInfo GetGame(const std::string& id) {
    grpc::ClientContext ctx;
    Admin(&ctx);
    v1::GetGameRequest req;
    req.set_game_id(id);
    v1::GetGameResponse resp;
    grpc::Status st = stub_->GetGame(&ctx, req, &resp);
    EXPECT_TRUE(st.ok()) << st.error_code() << ": " << st.error_message();
    return resp.game();
  }

  // Plays seat 0 and seat 1 as two concurrent processes; both must end
  // the game with exit status 0 and the referee must show it finished.
  void PlayGame(
      const std::string& name0, const std::string& name1,
      const std::function<std::vector<std::string>(
          const std::string&, const std::string&, const std::string&)>& seat0,
      const std::function<std::vector<std::string>(
          const std::string&, const std::string&, const std::string&)>& seat1) {
    const v1::CreateGameResponse game = CreateGame(name0, name1);
    ASSERT_EQ(game.tokens_size(), 2);
    const std::string id = game.game_id();
    auto other = std::async(std::launch::async, [&] {
      return RunProcess(seat1(address_, game.tokens(1).token(), id));
    });
    ProcResult p0 = RunProcess(seat0(address_, game.tokens(0).token(), id));
    ProcResult p1 = other.get();
    EXPECT_EQ(p0.exit_code, 0) << name0 << ": " << p0.Describe();
    EXPECT_EQ(p1.exit_code, 0) << name1 << ": " << p1.Describe();
    EXPECT_NE(p0.out.find(id), std::string::npos) << p0.Describe();
    EXPECT_NE(p1.out.find(id), std::string::npos) << p1.Describe();
    const v1::GameInfo info = GetGame(id);
    EXPECT_EQ(info.status(), v1::GAME_STATUS_FINISHED) << info.DebugString();
    EXPECT_TRUE(info.has_result());
    EXPECT_NE(info.result().reason(), "forfeit") << info.DebugString();
    std::printf("%s: %s%s: %s", id.c_str(), p0.out.c_str(), id.c_str(),
                p1.out.c_str());
  }

  // Registers two bot accounts, creates `games` games between them (seats
  // by account) and runs each bot as one process in lobby mode, which must
  // play all of them (up to `capacity` at once) and exit 0.
  void PlayLobbyGames(
      const std::string& name0, const std::string& name1,
      const std::function<std::vector<std::string>(
          const std::string&, const std::string&, int, int)>& bot0,
      const std::function<std::vector<std::string>(
          const std::string&, const std::string&, int, int)>& bot1,
      int games = 1, int capacity = 1) {
    const std::string key0 = RegisterBot(name0);
    const std::string key1 = RegisterBot(name1);
    std::vector<std::string> ids;
    for (int i = 0; i < games; ++i) {
      grpc::ClientContext ctx;
      Admin(&ctx);
      v1::CreateGameRequest req;
      req.add_seats()->set_account(i % 2 == 0 ? name0 : name1);
      req.add_seats()->set_account(i % 2 == 0 ? name1 : name0);
      req.mutable_clock()->set_per_move_ms(20000);
      req.mutable_clock()->set_bank_ms(120000);
      req.set_label("bots-live-lobby-test");
      v1::CreateGameResponse resp;
      grpc::Status st = stub_->CreateGame(&ctx, req, &resp);
      ASSERT_TRUE(st.ok()) << st.error_code() << ": " << st.error_message();
      EXPECT_EQ(resp.tokens(0).token(), "");
      ids.push_back(resp.game_id());
    }
    auto other = std::async(std::launch::async, [&] {
      return RunProcess(bot1(address_, key1, capacity, games));
    });
    ProcResult p0 = RunProcess(bot0(address_, key0, capacity, games));
    ProcResult p1 = other.get();
    EXPECT_EQ(p0.exit_code, 0) << name0 << ": " << p0.Describe();
    EXPECT_EQ(p1.exit_code, 0) << name1 << ": " << p1.Describe();
    for (int i = 0; i < games; ++i) {
      const std::string& id = ids[i];
      EXPECT_NE(p0.out.find(id), std::string::npos) << p0.Describe();
      EXPECT_NE(p1.out.find(id), std::string::npos) << p1.Describe();
      const v1::GameInfo info = GetGame(id);
      EXPECT_EQ(info.status(), v1::GAME_STATUS_FINISHED) << info.DebugString();
      EXPECT_NE(info.result().reason(), "forfeit") << info.DebugString();
      ASSERT_EQ(info.accounts_size(), 2);
      EXPECT_EQ(info.accounts(0), i % 2 == 0 ? name0 : name1);
      EXPECT_EQ(info.accounts(1), i % 2 == 0 ? name1 : name0);
    }
    std::printf("%s%s", p0.out.c_str(), p1.out.c_str());
  }
};

std::function<std::vector<std::string>(const std::string&, const std::string&,
                                       const std::string&)>
CppBot(const std::string& strategy, bool unary) {
  return [=](const std::string& address, const std::string& token,
             const std::string& game) {
    return CppBotArgs(address, token, game, strategy, unary);
  };
}

TEST_F(RealRefereeTest, CppStreamVsCppUnary) {
  PlayGame("builder-stream", "greedy-unary", CppBot("builder", false),
           CppBot("greedy", true));
}

TEST_F(RealRefereeTest, PythonBotVsCpp) {
  const std::string why = PythonUnavailable();
  if (!why.empty()) GTEST_SKIP() << why;
  PlayGame("python-example", "random-stream", PythonBotArgs,
           CppBot("random", false));
}

TEST_F(RealRefereeTest, NodeBotVsCpp) {
  const std::string why = NodeUnavailable();
  if (!why.empty()) GTEST_SKIP() << why;
  PlayGame("node-example", "greedy-unary", NodeBotArgs, CppBot("greedy", true));
}

TEST_F(RealRefereeTest, PythonBotVsNodeBot) {
  std::string why = PythonUnavailable();
  if (why.empty()) why = NodeUnavailable();
  if (!why.empty()) GTEST_SKIP() << why;
  PlayGame("python-example", "node-example", PythonBotArgs, NodeBotArgs);
}

// Three bots in separate processes (C++, and the Python and Node examples
// when they can run) play six games through the lobby, two at a time each;
// the referee is stopped (SIGTERM) mid-way and restarted on the same port
// and database; the bots reconnect and every game is played to the end.
TEST_F(RealRefereeTest, LobbyBotsSurviveARefereeRestart) {
  using BotArgs = std::function<std::vector<std::string>(
      const std::string&, const std::string&, int, int)>;
  std::vector<std::pair<std::string, BotArgs>> bots = {
      {"cpp-bot", CppLobbyBot}};
  bots.emplace_back(
      PythonUnavailable().empty()
          ? std::pair<std::string, BotArgs>{"python-bot", PythonLobbyBot}
          : std::pair<std::string, BotArgs>{"cpp-bot-2", CppLobbyBot});
  bots.emplace_back(
      NodeUnavailable().empty()
          ? std::pair<std::string, BotArgs>{"node-bot", NodeLobbyBot}
          : std::pair<std::string, BotArgs>{"cpp-bot-3", CppLobbyBot});
  std::vector<std::string> keys;
  for (const auto& [name, args] : bots) keys.push_back(RegisterBot(name));
  std::vector<std::string> ids;
  for (int a = 0; a < 3; ++a) {
    for (int b = 0; b < 3; ++b) {
      if (a == b) continue;
      grpc::ClientContext ctx;
      Admin(&ctx);
      v1::CreateGameRequest req;
      req.add_seats()->set_account(bots[a].first);
      req.add_seats()->set_account(bots[b].first);
      req.mutable_clock()->set_per_move_ms(20000);
      req.mutable_clock()->set_bank_ms(120000);
      req.set_label("lobby-restart");
      v1::CreateGameResponse resp;
      ASSERT_TRUE(stub_->CreateGame(&ctx, req, &resp).ok());
      ids.push_back(resp.game_id());
    }
  }
  const std::string address = address_;
  std::vector<std::unique_ptr<Child>> children;
  for (int i = 0; i < 3; ++i) {
    // Each bot plays four of the six games, two at a time.
    children.push_back(
        std::make_unique<Child>(bots[i].second(address, keys[i], 2, 4)));
    ASSERT_TRUE(children.back()->started());
  }
  // Stop the referee once a game is under way.
  bool under_way = false;
  for (int i = 0; i < 1000 && !under_way; ++i) {
    grpc::ClientContext ctx;
    Admin(&ctx);
    v1::ListGamesRequest req;
    req.set_status(v1::GAME_STATUS_RUNNING);
    v1::ListGamesResponse resp;
    if (stub_->ListGames(&ctx, req, &resp).ok()) {
      for (const v1::GameInfo& g : resp.games()) under_way |= g.turn() >= 4;
    }
    if (!under_way) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_TRUE(under_way);
  referee_->Stop(SIGTERM);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  StartReferee(address);
  ASSERT_EQ(address_, address);
  const std::string resumed = referee_->stderr_text();
  EXPECT_EQ(resumed.find(" 0 unfinished game(s) resumed"), std::string::npos)
      << resumed;
  stub_ = v1::RefereeService::NewStub(
      grpc::CreateChannel(address_, grpc::InsecureChannelCredentials()));

  for (int i = 0; i < 3; ++i) {
    ProcResult r = children[i]->Wait(kProcessTimeoutSeconds);
    EXPECT_EQ(r.exit_code, 0) << bots[i].first << ": " << r.Describe();
    std::printf("%s:\n%s", bots[i].first.c_str(), r.out.c_str());
  }
  for (const std::string& id : ids) {
    const v1::GameInfo info = GetGame(id);
    EXPECT_EQ(info.status(), v1::GAME_STATUS_FINISHED) << info.DebugString();
    EXPECT_NE(info.result().reason(), "forfeit") << info.DebugString();
  }
}

TEST_F(RealRefereeTest, CppLobbyBotsPlayTwoGamesAtOnce) {
  PlayLobbyGames("cpp-a", "cpp-b", CppLobbyBot, CppLobbyBot, 2, 2);
}

TEST_F(RealRefereeTest, PythonBotInLobbyMode) {
  const std::string why = PythonUnavailable();
  if (!why.empty()) GTEST_SKIP() << why;
  PlayLobbyGames("python-example", "cpp-lobby", PythonLobbyBot, CppLobbyBot);
}

TEST_F(RealRefereeTest, NodeBotInLobbyMode) {
  const std::string why = NodeUnavailable();
  if (!why.empty()) GTEST_SKIP() << why;
  PlayLobbyGames("node-example", "cpp-lobby", NodeLobbyBot, CppLobbyBot);
}

TEST_F(RealRefereeTest, PythonAndNodeBotsInLobbyModeTwoGamesAtOnce) {
  std::string why = PythonUnavailable();
  if (why.empty()) why = NodeUnavailable();
  if (!why.empty()) GTEST_SKIP() << why;
  PlayLobbyGames("python-example", "node-example", PythonLobbyBot, NodeLobbyBot,
                 2, 2);
}

#endif  // CASSINO_REFEREE_BIN

}  // namespace
}  // namespace cassino::bots::testing
