// The referee under faults and hostile clients, in process (issue #22):
// a failed record write is never acknowledged, on any path, and the game
// resumes by itself once writes succeed; a stop answers parked calls, ends
// within its bound and decides no game; abandoned GetTurn(wait) calls are
// dropped and parked ones bounded; spectators are bounded.

#include <sqlite3.h>

#include <atomic>
#include <chrono>
#include <future>
#include <optional>
#include <random>
#include <thread>

#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "gtest/gtest.h"
#include "recorder/record.h"
#include "tests/recorder/faulty_vfs.h"
#include "tests/referee/test_referee.h"
#include "tools/health/health_check.h"
#include "tools/verify/verifier.h"

namespace cassino::testing {
namespace {

using std::chrono::milliseconds;

v1::Clock HourClock() {
  v1::Clock clock;
  clock.set_per_move_ms(3'600'000);
  clock.set_bank_ms(0);
  return clock;
}

// What the referee's health service says of the server as a whole.
health::ServingStatus Health(TestReferee& referee) {
  absl::StatusOr<health::ServingStatus> s =
      health::Check(referee.channel(), "",
                    std::chrono::system_clock::now() + std::chrono::seconds(5));
  EXPECT_TRUE(s.ok()) << s.status();
  return s.ok() ? *s : health::ServingStatus::kUnknown;
}

// Reads a Play stream until `pred` holds for a message (returned) or the
// stream ends (nullopt).
template <typename Stream, typename Pred>
std::optional<v1::PlayResponse> ReadUntil(Stream& stream, Pred pred) {
  v1::PlayResponse msg;
  while (stream.Read(&msg)) {
    if (pred(msg)) return msg;
  }
  return std::nullopt;
}

class RobustnessTest : public ::testing::Test {
 protected:
  void TearDown() override { FaultyVfs::FailWrites(false); }
};

// Finding B1 and B2: a move whose commit fails gets a verdict that is not
// an acceptance, on the stream as on the unary call; the game then waits,
// and once writes succeed again it asks the same turn again by itself, and
// the record of the game played to the end verifies.
TEST_F(RobustnessTest, FailedCommitIsNeverAcknowledgedAndTheGameResumes) {
  const std::filesystem::path dir = TempDir();
  const std::string db = FaultyVfs::Uri((dir / "r.db").string());
  TestReferee referee(db, [](service::ServerOptions& o) {
    o.limits.recover_interval = milliseconds(50);
  });
  const v1::CreateGameResponse game =
      referee.Create("standard", 2, kSeed, HourClock());
  std::vector<std::unique_ptr<grpc::ClientContext>> contexts;
  std::vector<std::unique_ptr<
      grpc::ClientReaderWriter<v1::PlayRequest, v1::PlayResponse>>>
      streams;
  for (int seat = 0; seat < 2; ++seat) {
    contexts.push_back(TestReferee::Context(game.tokens(seat).token(), 60000));
    streams.push_back(referee.stub().Play(contexts.back().get()));
  }
  const v1::GameInfo info = referee.Info(game.game_id());
  const int mover = info.to_move();
  auto& stream = *streams[mover];
  std::optional<v1::PlayResponse> turn =
      ReadUntil(stream, [](const auto& m) { return m.has_your_turn(); });
  ASSERT_TRUE(turn.has_value());
  ASSERT_EQ(turn->your_turn().turn(), 0);

  FaultyVfs::FailWrites(true);
  v1::PlayRequest req;
  req.set_turn(0);
  *req.mutable_move() = turn->your_turn().legal_moves(0);
  ASSERT_TRUE(stream.Write(req));
  std::optional<v1::PlayResponse> verdict =
      ReadUntil(stream, [](const auto& m) { return m.has_verdict(); });
  ASSERT_TRUE(verdict.has_value());
  EXPECT_FALSE(verdict->verdict().accepted());
  EXPECT_EQ(verdict->verdict().code(), "UNAVAILABLE");
  EXPECT_EQ(verdict->verdict().error_reason(), "RECORD_UNAVAILABLE");
  EXPECT_TRUE(verdict->verdict().drawn().empty());
  EXPECT_FALSE(referee.server().recorder().health().writable);
  EXPECT_EQ(Health(referee), health::ServingStatus::kNotServing);

  // The unary path says the same, and takes nothing while the game waits.
  v1::SubmitMoveRequest sub;
  sub.set_game_id(game.game_id());
  sub.set_turn(0);
  *sub.mutable_move() = turn->your_turn().legal_moves(0);
  v1::SubmitMoveResponse answer;
  grpc::Status unary = referee.stub().SubmitMove(
      TestReferee::Context(game.tokens(mover).token()).get(), sub, &answer);
  EXPECT_EQ(unary.error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_EQ(ReasonOf(unary), "RECORD_UNAVAILABLE");
  EXPECT_FALSE(answer.verdict().accepted());

  // Writes succeed again: the seat is asked the same turn by itself.
  FaultyVfs::FailWrites(false);
  turn = ReadUntil(stream, [](const auto& m) { return m.has_your_turn(); });
  ASSERT_TRUE(turn.has_value());
  EXPECT_EQ(turn->your_turn().turn(), 0);
  EXPECT_TRUE(referee.server().recorder().health().writable);
  EXPECT_EQ(Health(referee), health::ServingStatus::kServing);

  // Both seats play the game to the end over their streams.
  std::vector<std::thread> seats;
  for (int seat = 0; seat < 2; ++seat) {
    seats.emplace_back([&, seat] {
      std::mt19937_64 rng(seat);
      auto& s = *streams[seat];
      if (seat == mover) {
        v1::PlayRequest again;
        again.set_turn(0);
        *again.mutable_move() = turn->your_turn().legal_moves(0);
        EXPECT_TRUE(s.Write(again));
      }
      v1::PlayResponse msg;
      while (s.Read(&msg)) {
        if (msg.has_verdict()) {
          EXPECT_TRUE(msg.verdict().accepted()) << msg.verdict().reason();
        }
        if (!msg.has_your_turn()) continue;
        if (seat == mover && msg.your_turn().turn() == 0) continue;
        v1::PlayRequest r;
        r.set_turn(msg.your_turn().turn());
        *r.mutable_move() = msg.your_turn().legal_moves(
            rng() % msg.your_turn().legal_moves_size());
        EXPECT_TRUE(s.Write(r));
      }
      s.WritesDone();
      EXPECT_TRUE(s.Finish().ok());
    });
  }
  for (auto& t : seats) t.join();
  EXPECT_EQ(referee.Info(game.game_id()).status(), v1::GAME_STATUS_FINISHED);
  referee.Stop();
  absl::StatusOr<recorder::GameRecord> record = LoadRecord(db, game.game_id());
  ASSERT_TRUE(record.ok()) << record.status();
  EXPECT_TRUE(recorder::CheckChain(*record).ok());
  const std::optional<verify::Failure> failure = verify::VerifyRecord(*record);
  EXPECT_FALSE(failure.has_value()) << failure->ToString();
}

// Finding B2: a GetTurn(wait) parked on a game whose write fails is
// answered (UNAVAILABLE), not left hanging until a restart.
TEST_F(RobustnessTest, ParkedWaitOfABrokenGameIsAnswered) {
  const std::filesystem::path dir = TempDir();
  TestReferee referee(FaultyVfs::Uri((dir / "r.db").string()),
                      [](service::ServerOptions& o) {
                        o.limits.recover_interval = milliseconds(50);
                      });
  const v1::CreateGameResponse game =
      referee.Create("standard", 2, kSeed, HourClock());
  const int mover = referee.Info(game.game_id()).to_move();
  const int other = 1 - mover;
  auto waiting = std::async(std::launch::async, [&] {
    v1::GetTurnRequest req;
    req.set_game_id(game.game_id());
    req.set_wait(true);
    v1::GetTurnResponse resp;
    return referee.stub().GetTurn(
        TestReferee::Context(game.tokens(other).token(), 30000).get(), req,
        &resp);
  });
  v1::GetTurnRequest req;
  req.set_game_id(game.game_id());
  v1::GetTurnResponse turn;
  ASSERT_TRUE(
      referee.stub()
          .GetTurn(TestReferee::Context(game.tokens(mover).token()).get(), req,
                   &turn)
          .ok());
  ASSERT_TRUE(turn.your_turn());
  std::this_thread::sleep_for(milliseconds(100));  // the wait is parked
  FaultyVfs::FailWrites(true);
  v1::SubmitMoveRequest sub;
  sub.set_game_id(game.game_id());
  sub.set_turn(0);
  *sub.mutable_move() = turn.turn().legal_moves(0);
  v1::SubmitMoveResponse answer;
  grpc::Status s = referee.stub().SubmitMove(
      TestReferee::Context(game.tokens(mover).token()).get(), sub, &answer);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_FALSE(answer.verdict().accepted());
  ASSERT_EQ(waiting.wait_for(std::chrono::seconds(5)),
            std::future_status::ready);
  const grpc::Status parked = waiting.get();
  EXPECT_EQ(parked.error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_EQ(ReasonOf(parked), "RECORD_UNAVAILABLE");
  FaultyVfs::FailWrites(false);
  // Recovered: the mover's turn 0 is live again, the same move accepted.
  for (int i = 0; i < 100; ++i) {
    req.set_wait(true);
    turn.Clear();
    if (referee.stub()
            .GetTurn(TestReferee::Context(game.tokens(mover).token()).get(),
                     req, &turn)
            .ok() &&
        turn.your_turn()) {
      break;
    }
    std::this_thread::sleep_for(milliseconds(50));
  }
  ASSERT_TRUE(turn.your_turn());
  EXPECT_EQ(turn.turn().turn(), 0);
  answer.Clear();
  s = referee.stub().SubmitMove(
      TestReferee::Context(game.tokens(mover).token()).get(), sub, &answer);
  EXPECT_TRUE(s.ok()) << s.error_message();
  EXPECT_TRUE(answer.verdict().accepted());
}

// Findings A6 and B3: a stop with a GetTurn(wait) parked (a bot that cannot
// reach the referee meanwhile) ends within its bound, answers the call
// SHUTTING_DOWN, and decides no game: after the restart the game runs on.
TEST(StopTest, StopAnswersParkedWaitsAndDecidesNoGame) {
  const std::filesystem::path dir = TempDir();
  TestReferee referee(dir / "r.db", [](service::ServerOptions& o) {
    o.stop_grace = milliseconds(500);
  });
  v1::Clock clock;
  clock.set_per_move_ms(1500);  // shorter than the stop would take today
  clock.set_bank_ms(0);
  const v1::CreateGameResponse game =
      referee.Create("standard", 2, kSeed, clock);
  const int other = 1 - referee.Info(game.game_id()).to_move();
  auto waiting = std::async(std::launch::async, [&] {
    v1::GetTurnRequest req;
    req.set_game_id(game.game_id());
    req.set_wait(true);
    v1::GetTurnResponse resp;
    return referee.stub().GetTurn(
        TestReferee::Context(game.tokens(other).token(), 60000).get(), req,
        &resp);
  });
  std::this_thread::sleep_for(milliseconds(200));
  const auto start = std::chrono::steady_clock::now();
  referee.Stop();
  const auto took = std::chrono::steady_clock::now() - start;
  EXPECT_LT(took, milliseconds(1500));
  ASSERT_EQ(waiting.wait_for(std::chrono::seconds(5)),
            std::future_status::ready);
  const grpc::Status parked = waiting.get();
  EXPECT_EQ(parked.error_code(), grpc::StatusCode::UNAVAILABLE)
      << parked.error_message();
  EXPECT_EQ(ReasonOf(parked), "SHUTTING_DOWN");
  std::this_thread::sleep_for(milliseconds(1600));  // past the move clock
  referee.Start();
  const v1::GameInfo info = referee.Info(game.game_id());
  EXPECT_EQ(info.status(), v1::GAME_STATUS_RUNNING);
  EXPECT_EQ(info.turn(), 0);
}

// Finding A3: a GetTurn(wait) abandoned by its client (deadline passed) is
// dropped at once, and a seat may park only a few.
TEST(WaitBoundsTest, AbandonedWaitsAreDroppedAndParkedOnesBounded) {
  const std::filesystem::path dir = TempDir();
  TestReferee referee(dir / "r.db", [](service::ServerOptions& o) {
    o.limits.max_waiters_per_seat = 3;
  });
  const v1::CreateGameResponse game =
      referee.Create("standard", 2, kSeed, HourClock());
  const int other = 1 - referee.Info(game.game_id()).to_move();
  const std::string token = game.tokens(other).token();
  v1::GetTurnRequest req;
  req.set_game_id(game.game_id());
  req.set_wait(true);
  // Abandoned calls: each gives up after 20 ms.
  for (int i = 0; i < 40; ++i) {
    v1::GetTurnResponse resp;
    grpc::Status s = referee.stub().GetTurn(
        TestReferee::Context(token, 20).get(), req, &resp);
    ASSERT_EQ(s.error_code(), grpc::StatusCode::DEADLINE_EXCEEDED);
  }
  // None of them is held once the referee has seen the cancellations (they
  // reach it a moment after the client gives up).
  std::shared_ptr<service::GameSession> session =
      referee.server().registry().Find(game.game_id());
  ASSERT_TRUE(session);
  auto parked_becomes = [&](int n) {
    for (int i = 0; i < 500 && session->ParkedWaits(other) != n; ++i) {
      std::this_thread::sleep_for(milliseconds(10));
    }
    return session->ParkedWaits(other) == n;
  };
  ASSERT_TRUE(parked_becomes(0)) << session->ParkedWaits(other) << " held";
  // Three may park now, the fourth is refused.
  struct Call {
    std::unique_ptr<grpc::ClientContext> context;
    v1::GetTurnResponse response;
    std::promise<grpc::Status> done;
  };
  std::vector<std::unique_ptr<Call>> calls;
  for (int i = 0; i < 3; ++i) {
    auto call = std::make_unique<Call>();
    call->context = TestReferee::Context(token, 30000);
    referee.stub().async()->GetTurn(
        call->context.get(), &req, &call->response,
        [c = call.get()](grpc::Status s) { c->done.set_value(s); });
    calls.push_back(std::move(call));
  }
  ASSERT_TRUE(parked_becomes(3)) << session->ParkedWaits(other) << " parked";
  v1::GetTurnResponse resp;
  grpc::Status fourth = referee.stub().GetTurn(
      TestReferee::Context(token, 5000).get(), req, &resp);
  EXPECT_EQ(fourth.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_EQ(ReasonOf(fourth), "LIMIT_REACHED");
  for (auto& call : calls) {
    std::future<grpc::Status> f = call->done.get_future();
    EXPECT_EQ(f.wait_for(milliseconds(10)), std::future_status::timeout)
        << "a parked wait was answered";
    call->context->TryCancel();
    ASSERT_EQ(f.wait_for(std::chrono::seconds(5)), std::future_status::ready);
    EXPECT_EQ(f.get().error_code(), grpc::StatusCode::CANCELLED);
  }
  // Cancelled, they are dropped: the seat may park again.
  ASSERT_TRUE(parked_becomes(0)) << session->ParkedWaits(other) << " held";
  auto again = std::async(std::launch::async, [&] {
    v1::GetTurnResponse r;
    return referee.stub().GetTurn(TestReferee::Context(token, 300).get(), req,
                                  &r);
  });
  EXPECT_EQ(again.get().error_code(), grpc::StatusCode::DEADLINE_EXCEEDED);
}

// Finding A5: spectators are bounded per game and in all.
TEST(WatchBoundsTest, SpectatorsAreBoundedPerGameAndInAll) {
  const std::filesystem::path dir = TempDir();
  TestReferee referee(dir / "r.db", [](service::ServerOptions& o) {
    o.limits.max_watchers_per_game = 2;
    o.limits.max_watchers = 3;
  });
  const v1::CreateGameResponse a =
      referee.Create("standard", 2, SeedHex(1), HourClock());
  const v1::CreateGameResponse b =
      referee.Create("standard", 2, SeedHex(2), HourClock());
  struct Watch {
    std::unique_ptr<grpc::ClientContext> context;
    std::unique_ptr<grpc::ClientReader<v1::WatchGameResponse>> reader;
  };
  auto open = [&](const std::string& game_id, Watch* w) {
    v1::WatchGameRequest req;
    req.set_game_id(game_id);
    w->context = TestReferee::Context("", 30000);
    w->reader = referee.stub().WatchGame(w->context.get(), req);
    v1::WatchGameResponse first;
    return w->reader->Read(&first);  // the game's start
  };
  auto refused = [&](const std::string& game_id) {
    Watch w;
    EXPECT_FALSE(open(game_id, &w));
    return w.reader->Finish();
  };
  Watch a1, a2, b1;
  ASSERT_TRUE(open(a.game_id(), &a1));
  ASSERT_TRUE(open(a.game_id(), &a2));
  grpc::Status third = refused(a.game_id());
  EXPECT_EQ(third.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_EQ(ReasonOf(third), "LIMIT_REACHED");
  ASSERT_TRUE(open(b.game_id(), &b1));
  grpc::Status fourth = refused(b.game_id());
  EXPECT_EQ(fourth.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_NE(fourth.error_message().find("the referee has 3"), std::string::npos)
      << fourth.error_message();
  // A spectator who leaves frees its place.
  a1.context->TryCancel();
  a1.reader->Finish();
  Watch again;
  bool reopened = false;
  for (int i = 0; i < 50 && !reopened; ++i) {
    reopened = open(a.game_id(), &again);
    if (!reopened) {
      again.reader->Finish();
      std::this_thread::sleep_for(milliseconds(20));
    }
  }
  EXPECT_TRUE(reopened);
  for (Watch* w : {&a2, &b1, &again}) w->context->TryCancel();
}

// Findings A9 and B8: the clock's figures tell the truth. A bot that
// reconnects late in its turn is shown the bank it has left; a move sent
// after the seat's time ran out is told TIME_EXPIRED (not GAME_OVER); the
// forfeit's detail does not claim a bank that was used up.
TEST(ClockTest, BankLeftTimeExpiredAndTheForfeitDetail) {
  const std::filesystem::path dir = TempDir();
  TestReferee referee(dir / "r.db",
                      [](service::ServerOptions& o) { o.manual_time = true; });
  v1::Clock clock;
  clock.set_per_move_ms(300);
  clock.set_bank_ms(900);
  const v1::CreateGameResponse game =
      referee.Create("standard", 2, kSeed, clock);
  const int mover = referee.Info(game.game_id()).to_move();
  const std::string token = game.tokens(mover).token();
  v1::GetTurnRequest req;
  req.set_game_id(game.game_id());
  v1::GetTurnResponse first;
  ASSERT_TRUE(referee.stub()
                  .GetTurn(TestReferee::Context(token).get(), req, &first)
                  .ok());
  ASSERT_TRUE(first.your_turn());
  referee.server().timer().Advance(milliseconds(700));
  v1::GetTurnResponse late;
  ASSERT_TRUE(referee.stub()
                  .GetTurn(TestReferee::Context(token).get(), req, &late)
                  .ok());
  ASSERT_TRUE(late.your_turn());
  // 700 ms into the turn: 400 ms of the bank are spent.
  EXPECT_EQ(late.turn().bank_left_ms(), 500);
  EXPECT_EQ(late.turn().time_left_ms(), 500);
  referee.server().timer().Advance(milliseconds(500));  // the deadline
  v1::SubmitMoveRequest sub;
  sub.set_game_id(game.game_id());
  sub.set_turn(0);
  *sub.mutable_move() = first.turn().legal_moves(0);
  v1::SubmitMoveResponse answer;
  grpc::Status s = referee.stub().SubmitMove(TestReferee::Context(token).get(),
                                             sub, &answer);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(ReasonOf(s), "TIME_EXPIRED") << s.error_message();
  const v1::GameInfo info = referee.Info(game.game_id());
  EXPECT_EQ(info.status(), v1::GAME_STATUS_FINISHED);
  EXPECT_EQ(info.result().forfeiting_seat(), mover);
  EXPECT_EQ(info.result().detail(),
            "seat " + std::to_string(mover) +
                " ran out of time on turn 0 (300 ms per move and its 900 ms "
                "bank used up)");
}

// No hidden card leaves the referee: a spectator of a finished game whose
// seed another running game is dealt from (a duplicate twin) is not sent
// its record, whose deals hold that game's cards; once the twin is over,
// the record is sent.
TEST(WatchSecrecyTest, RecordIsWithheldWhileATwinRuns) {
  const std::filesystem::path dir = TempDir();
  TestReferee referee(dir / "r.db");
  const v1::CreateGameResponse a =
      referee.Create("standard", 2, kSeed, HourClock());
  const v1::CreateGameResponse b =
      referee.Create("standard", 2, kSeed, HourClock());
  std::thread s0([&] {
    PlayUnarySeat(referee.stub(), a.tokens(0).token(), a.game_id(), 1);
  });
  std::thread s1([&] {
    PlayUnarySeat(referee.stub(), a.tokens(1).token(), a.game_id(), 2);
  });
  s0.join();
  s1.join();
  ASSERT_EQ(referee.Info(a.game_id()).status(), v1::GAME_STATUS_FINISHED);
  auto count_deals = [](const std::vector<v1::WatchGameResponse>& seen) {
    int deals = 0;
    for (const auto& e : seen) {
      deals += e.has_record() && e.record().kind() == "deal";
    }
    return deals;
  };
  const std::vector<v1::WatchGameResponse> during =
      WatchToEnd(referee.stub(), a.game_id());
  EXPECT_FALSE(during.empty());
  EXPECT_EQ(count_deals(during), 0);
  v1::AbortGameRequest abort;
  abort.set_game_id(b.game_id());
  v1::AbortGameResponse aborted;
  ASSERT_TRUE(
      referee.stub()
          .AbortGame(TestReferee::Context(kAdminToken).get(), abort, &aborted)
          .ok());
  for (int i = 0;
       i < 100 && referee.Info(b.game_id()).status() == v1::GAME_STATUS_RUNNING;
       ++i) {
    std::this_thread::sleep_for(milliseconds(20));
  }
  EXPECT_GT(count_deals(WatchToEnd(referee.stub(), a.game_id())), 0);
}

// Issue #22, C: spectators of a resumed game see what the live ones saw,
// deals included (the restored log used to lack every DealInfo but the
// last).
TEST(ResumeTest, ARestartedGameShowsSpectatorsTheSameEvents) {
  const std::filesystem::path dir = TempDir();
  TestReferee referee(dir / "r.db");
  const v1::CreateGameResponse game =
      referee.Create("standard", 2, kSeed, HourClock());
  // 60 moves: several deals and the end of the first round.
  for (int i = 0; i < 60; ++i) {
    const int seat = referee.Info(game.game_id()).to_move();
    v1::GetTurnRequest req;
    req.set_game_id(game.game_id());
    v1::GetTurnResponse turn;
    ASSERT_TRUE(
        referee.stub()
            .GetTurn(TestReferee::Context(game.tokens(seat).token()).get(), req,
                     &turn)
            .ok());
    ASSERT_TRUE(turn.your_turn());
    v1::SubmitMoveRequest sub;
    sub.set_game_id(game.game_id());
    sub.set_turn(turn.turn().turn());
    *sub.mutable_move() = turn.turn().legal_moves(0);
    v1::SubmitMoveResponse answer;
    ASSERT_TRUE(
        referee.stub()
            .SubmitMove(TestReferee::Context(game.tokens(seat).token()).get(),
                        sub, &answer)
            .ok());
  }
  // What a spectator is sent now (the stream stays open: read for 1 s).
  auto watch = [&] {
    std::vector<std::string> seen;
    v1::WatchGameRequest req;
    req.set_game_id(game.game_id());
    auto ctx = TestReferee::Context("", 1000);
    auto reader = referee.stub().WatchGame(ctx.get(), req);
    v1::WatchGameResponse e;
    while (reader->Read(&e)) seen.push_back(e.SerializeAsString());
    reader->Finish();
    return seen;
  };
  const std::vector<std::string> live = watch();
  int deals = 0;
  for (const std::string& bytes : live) {
    v1::WatchGameResponse e;
    e.ParseFromString(bytes);
    deals += e.has_deal();
  }
  EXPECT_GE(deals, 7);  // 60 moves of 8 a deal, and a new round
  referee.Restart();
  EXPECT_EQ(watch(), live);
}

// Finding B7: a running game whose stored hash was changed is not resumed
// (the chain is checked at resume), and it does not keep the referee, or
// any other game, from starting.
TEST(ResumeTest, ADamagedGameIsLeftAsItIsAndTheOthersResume) {
  const std::filesystem::path dir = TempDir();
  const std::filesystem::path db = dir / "r.db";
  TestReferee referee(db);
  const v1::CreateGameResponse a =
      referee.Create("standard", 2, SeedHex(1), HourClock());
  const v1::CreateGameResponse b =
      referee.Create("standard", 2, SeedHex(2), HourClock());
  referee.Stop();
  {
    sqlite3* raw = nullptr;
    ASSERT_EQ(sqlite3_open(db.c_str(), &raw), SQLITE_OK);
    const std::string sql = "UPDATE events SET hash = '" +
                            std::string(64, 'a') + "' WHERE game_id = '" +
                            a.game_id() + "' AND seq = 1";
    EXPECT_EQ(sqlite3_exec(raw, sql.c_str(), nullptr, nullptr, nullptr),
              SQLITE_OK);
    EXPECT_EQ(sqlite3_changes(raw), 1);
    sqlite3_close(raw);
  }
  referee.Start();
  EXPECT_EQ(referee.server().resumed_games(), 1);
  ASSERT_EQ(referee.server().damaged_games().size(), 1u);
  EXPECT_NE(referee.server().damaged_games()[0].find(a.game_id()),
            std::string::npos);
  EXPECT_NE(referee.server().damaged_games()[0].find("event 1"),
            std::string::npos)
      << referee.server().damaged_games()[0];
  EXPECT_EQ(referee.Info(b.game_id()).status(), v1::GAME_STATUS_RUNNING);
  v1::GetTurnRequest req;
  req.set_game_id(a.game_id());
  v1::GetTurnResponse resp;
  grpc::Status s = referee.stub().GetTurn(
      TestReferee::Context(a.tokens(0).token()).get(), req, &resp);
  EXPECT_FALSE(s.ok());
}

}  // namespace
}  // namespace cassino::testing
