// Bot accounts and the lobby, end to end: an in-process referee on
// 127.0.0.1:0, real gRPC clients, a real database.

#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <thread>
#include <vector>

#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "gtest/gtest.h"
#include "recorder/recorder.h"
#include "tests/referee/lobby_client.h"
#include "tests/referee/test_referee.h"

namespace cassino::testing {
namespace {

using ::grpc::StatusCode;

TEST(LobbyAuthTest, EveryCase) {
  TestReferee referee(TempDir() / "cassino.db");
  auto& stub = referee.stub();
  const std::string key = Register(referee, "alpha");
  Register(referee, "beta");
  const v1::CreateGameResponse plain = referee.Create("standard", 2);
  const std::string seat_token = plain.tokens(0).token();

  // Organiser calls: no token, a wrong one, a seat token, a bot key.
  for (const std::string& token : {std::string(), std::string("nope")}) {
    v1::RegisterBotRequest reg;
    reg.set_name("gamma");
    v1::RegisterBotResponse reg_resp;
    EXPECT_EQ(
        stub.RegisterBot(TestReferee::Context(token).get(), reg, &reg_resp)
            .error_code(),
        StatusCode::UNAUTHENTICATED);
    v1::RotateBotKeyRequest rot;
    rot.set_name("alpha");
    v1::RotateBotKeyResponse rot_resp;
    EXPECT_EQ(
        stub.RotateBotKey(TestReferee::Context(token).get(), rot, &rot_resp)
            .error_code(),
        StatusCode::UNAUTHENTICATED);
    v1::RevokeBotRequest rev;
    rev.set_name("alpha");
    v1::RevokeBotResponse rev_resp;
    EXPECT_EQ(stub.RevokeBot(TestReferee::Context(token).get(), rev, &rev_resp)
                  .error_code(),
              StatusCode::UNAUTHENTICATED);
    v1::GetBotRequest get;
    get.set_name("alpha");
    v1::GetBotResponse get_resp;
    EXPECT_EQ(stub.GetBot(TestReferee::Context(token).get(), get, &get_resp)
                  .error_code(),
              StatusCode::UNAUTHENTICATED);
    v1::ListBotsResponse list;
    EXPECT_EQ(stub.ListBots(TestReferee::Context(token).get(),
                            v1::ListBotsRequest(), &list)
                  .error_code(),
              StatusCode::UNAUTHENTICATED);
  }
  for (const std::string& token : {seat_token, key}) {
    v1::ListBotsResponse list;
    EXPECT_EQ(stub.ListBots(TestReferee::Context(token).get(),
                            v1::ListBotsRequest(), &list)
                  .error_code(),
              StatusCode::PERMISSION_DENIED);
    v1::CreateGameResponse created;
    EXPECT_EQ(CreateWithAccounts(referee, {"alpha", "beta"}, &created, token)
                  .error_code(),
              StatusCode::PERMISSION_DENIED);
  }

  // Registration: bad names, a taken name; the key is never shown again.
  {
    v1::RegisterBotRequest reg;
    v1::RegisterBotResponse resp;
    for (const char* bad : {"", "has space", "x/y"}) {
      reg.set_name(bad);
      EXPECT_EQ(
          stub.RegisterBot(TestReferee::Context(kAdminToken).get(), reg, &resp)
              .error_code(),
          StatusCode::INVALID_ARGUMENT)
          << bad;
    }
    reg.set_name(std::string(65, 'a'));
    EXPECT_EQ(
        stub.RegisterBot(TestReferee::Context(kAdminToken).get(), reg, &resp)
            .error_code(),
        StatusCode::INVALID_ARGUMENT);
    reg.set_name("alpha");
    EXPECT_EQ(
        stub.RegisterBot(TestReferee::Context(kAdminToken).get(), reg, &resp)
            .error_code(),
        StatusCode::ALREADY_EXISTS);
    const v1::BotAccount alpha = GetBot(referee, "alpha");
    EXPECT_EQ(alpha.owner(), "owner of alpha");
    EXPECT_EQ(alpha.contact(), "alpha@example.org");
    EXPECT_FALSE(alpha.revoked());
    EXPECT_EQ(alpha.DebugString().find(key), std::string::npos);
    v1::GetBotRequest get;
    get.set_name("nobody");
    v1::GetBotResponse get_resp;
    EXPECT_EQ(
        stub.GetBot(TestReferee::Context(kAdminToken).get(), get, &get_resp)
            .error_code(),
        StatusCode::NOT_FOUND);
    v1::ListBotsResponse list;
    ASSERT_TRUE(stub.ListBots(TestReferee::Context(kAdminToken).get(),
                              v1::ListBotsRequest(), &list)
                    .ok());
    ASSERT_EQ(list.bots_size(), 2);
    EXPECT_EQ(list.bots(0).name(), "alpha");
    EXPECT_EQ(list.bots(1).name(), "beta");
  }

  // The key plays no seat directly; the lobby takes only bot keys.
  {
    v1::GetTurnRequest req;
    req.set_game_id(plain.game_id());
    v1::GetTurnResponse resp;
    EXPECT_EQ(
        stub.GetTurn(TestReferee::Context(key).get(), req, &resp).error_code(),
        StatusCode::PERMISSION_DENIED);
  }
  EXPECT_EQ(LobbyStatus(referee, "").error_code(), StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(LobbyStatus(referee, std::string(64, '0')).error_code(),
            StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(LobbyStatus(referee, kAdminToken).error_code(),
            StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(LobbyStatus(referee, seat_token).error_code(),
            StatusCode::PERMISSION_DENIED);
  {
    LobbyStream lobby(stub, key, 65, 5000);
    v1::LobbyResponse msg;
    EXPECT_FALSE(lobby.Read(&msg));
    EXPECT_EQ(lobby.Finish().error_code(), StatusCode::INVALID_ARGUMENT);
  }

  // Rotation: the open stream ends, the old key is refused, the new works.
  std::string new_key;
  {
    LobbyStream lobby(stub, key, 1);
    v1::LobbyResponse msg;
    ASSERT_TRUE(lobby.Read(&msg));
    ASSERT_TRUE(msg.has_welcome());
    EXPECT_EQ(msg.welcome().account(), "alpha");
    EXPECT_EQ(msg.welcome().capacity(), 1);
    EXPECT_TRUE(GetBot(referee, "alpha").connected());
    v1::RotateBotKeyRequest rot;
    rot.set_name("alpha");
    v1::RotateBotKeyResponse rot_resp;
    ASSERT_TRUE(stub.RotateBotKey(TestReferee::Context(kAdminToken).get(), rot,
                                  &rot_resp)
                    .ok());
    new_key = rot_resp.key();
    EXPECT_EQ(new_key.size(), 64u);
    EXPECT_NE(new_key, key);
    EXPECT_FALSE(lobby.Read(&msg));
    EXPECT_EQ(lobby.Finish().error_code(), StatusCode::UNAUTHENTICATED);
  }
  EXPECT_EQ(LobbyStatus(referee, key).error_code(),
            StatusCode::UNAUTHENTICATED);
  {
    LobbyStream lobby(stub, new_key, 1);
    v1::LobbyResponse msg;
    ASSERT_TRUE(lobby.Read(&msg));
    EXPECT_TRUE(msg.has_welcome());
  }

  // Revocation: the open stream ends, the key is refused, no new seats.
  {
    LobbyStream lobby(stub, new_key, 1);
    v1::LobbyResponse msg;
    ASSERT_TRUE(lobby.Read(&msg));
    v1::RevokeBotRequest rev;
    rev.set_name("alpha");
    v1::RevokeBotResponse rev_resp;
    ASSERT_TRUE(
        stub.RevokeBot(TestReferee::Context(kAdminToken).get(), rev, &rev_resp)
            .ok());
    EXPECT_TRUE(rev_resp.bot().revoked());
    EXPECT_FALSE(lobby.Read(&msg));
    EXPECT_EQ(lobby.Finish().error_code(), StatusCode::UNAUTHENTICATED);
  }
  EXPECT_EQ(LobbyStatus(referee, new_key).error_code(),
            StatusCode::UNAUTHENTICATED);
  v1::CreateGameResponse created;
  EXPECT_EQ(
      CreateWithAccounts(referee, {"alpha", "beta"}, &created).error_code(),
      StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(
      CreateWithAccounts(referee, {"nobody", "beta"}, &created).error_code(),
      StatusCode::NOT_FOUND);
  EXPECT_TRUE(GetBot(referee, "alpha").revoked());

  // A rotation reinstates a revoked account.
  v1::RotateBotKeyRequest rot;
  rot.set_name("alpha");
  v1::RotateBotKeyResponse rot_resp;
  ASSERT_TRUE(
      stub.RotateBotKey(TestReferee::Context(kAdminToken).get(), rot, &rot_resp)
          .ok());
  EXPECT_FALSE(rot_resp.bot().revoked());
  EXPECT_TRUE(CreateWithAccounts(referee, {"alpha", "beta"}, &created).ok());
}

TEST(LobbyGameTest, TwoBotsPlayAGameThroughTheLobby) {
  const std::filesystem::path dir = TempDir();
  TestReferee referee(dir / "cassino.db");
  const std::string alice_key = Register(referee, "alice");
  const std::string bob_key = Register(referee, "bob");
  v1::CreateGameRequest req;
  req.add_seats()->set_account("alice");
  v1::SeatSpec* bob_seat = req.add_seats();
  bob_seat->set_account("bob");
  bob_seat->set_bot_name("bob-v2");
  *req.mutable_clock() = SlowClock();
  v1::CreateGameResponse g;
  ASSERT_TRUE(referee.stub()
                  .CreateGame(TestReferee::Context(kAdminToken).get(), req, &g)
                  .ok());
  ASSERT_EQ(g.tokens_size(), 2);
  EXPECT_EQ(g.tokens(0).token(), "");  // the lobby hands it out
  EXPECT_EQ(g.tokens(0).account(), "alice");
  EXPECT_EQ(g.tokens(0).bot_name(), "alice");
  EXPECT_EQ(g.tokens(1).bot_name(), "bob-v2");

  LobbyBot alice(referee.stub(), alice_key, 1);
  LobbyBot bob(referee.stub(), bob_key, 1);
  ASSERT_TRUE(alice.WaitFinished(1));
  ASSERT_TRUE(bob.WaitFinished(1));
  const std::vector<v1::GameOffer> offers = alice.offers();
  ASSERT_EQ(offers.size(), 1u);
  EXPECT_EQ(offers[0].game().game_id(), g.game_id());
  EXPECT_EQ(offers[0].game().seat(), 0);
  EXPECT_EQ(offers[0].game().clock().per_move_ms(), 60000);
  EXPECT_FALSE(offers[0].reoffer());
  EXPECT_EQ(bob.offers().at(0).game().seat(), 1);

  const v1::GameInfo info = referee.Info(g.game_id());
  EXPECT_EQ(info.status(), v1::GAME_STATUS_FINISHED);
  ASSERT_EQ(info.accounts_size(), 2);
  EXPECT_EQ(info.accounts(0), "alice");
  EXPECT_EQ(info.accounts(1), "bob");
  EXPECT_EQ(GetBot(referee, "alice").unfinished_seats(), 0);
  alice.Stop();
  bob.Stop();

  // The record names the account per seat; a plain seat names none.
  const v1::CreateGameResponse plain = referee.Create("standard", 2);
  absl::StatusOr<recorder::GameRecord> record =
      referee.server().recorder().Load(g.game_id());
  ASSERT_TRUE(record.ok()) << record.status();
  EXPECT_EQ(record->header.seats[0].account, "alice");
  EXPECT_EQ(record->header.seats[1].account, "bob");
  EXPECT_EQ(record->header.seats[1].bot_name, "bob-v2");
  record = referee.server().recorder().Load(plain.game_id());
  ASSERT_TRUE(record.ok());
  EXPECT_EQ(record->header.seats[0].account, "");
}

TEST(LobbyGameTest, CapacityIsRespectedAndTheRestWaitQueued) {
  TestReferee referee(TempDir() / "cassino.db");
  const std::string alice_key = Register(referee, "alice");
  const std::string bob_key = Register(referee, "bob");
  std::vector<std::string> games;
  for (int i = 0; i < 4; ++i) {
    games.push_back(MustCreate(referee, {"alice", "bob"}).game_id());
  }
  // Alone, alice is offered only two: nobody can finish a game without bob.
  std::atomic<int> over_capacity{0};
  std::vector<std::string> offered;
  std::mutex offered_mu;
  {
    // Each time an offer arrives, at most two offered games are unfinished
    // (a game running now was running when the offer was made).
    LobbyBot alice(
        referee.stub(), alice_key, 2, [&](const v1::GameOffer& offer) {
          std::lock_guard<std::mutex> lock(offered_mu);
          offered.push_back(offer.game().game_id());
          int running = 0;
          for (const std::string& id : offered) {
            running += referee.Info(id).status() == v1::GAME_STATUS_RUNNING;
          }
          if (running > 2) ++over_capacity;
        });
    for (int i = 0; i < 100 && alice.offers().size() < 2; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    const v1::BotAccount a = GetBot(referee, "alice");
    EXPECT_TRUE(a.connected());
    EXPECT_EQ(a.capacity(), 2);
    EXPECT_EQ(a.unfinished_seats(), 4);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    ASSERT_EQ(alice.offers().size(), 2u);
    EXPECT_EQ(alice.offers()[0].game().game_id(), games[0]);  // oldest first
    EXPECT_EQ(alice.offers()[1].game().game_id(), games[1]);

    // With bob (room for all four), every game is played out.
    LobbyBot bob(referee.stub(), bob_key, 4);
    ASSERT_TRUE(alice.WaitFinished(4));
    ASSERT_TRUE(bob.WaitFinished(4));
    EXPECT_EQ(alice.offers().size(), 4u);
    EXPECT_EQ(bob.offers().size(), 4u);
  }
  EXPECT_EQ(over_capacity.load(), 0);
  for (const std::string& id : games) {
    EXPECT_EQ(referee.Info(id).status(), v1::GAME_STATUS_FINISHED);
  }
}

TEST(LobbyGameTest, AnAbortedGameFreesItsPlaceForTheNextOne) {
  TestReferee referee(TempDir() / "cassino.db");
  const std::string alice_key = Register(referee, "alice");
  Register(referee, "bob");
  const v1::CreateGameResponse first = MustCreate(referee, {"alice", "bob"});
  const v1::CreateGameResponse second = MustCreate(referee, {"bob", "alice"});
  LobbyStream lobby(referee.stub(), alice_key, 1);
  EXPECT_EQ(lobby.NextOffer().game().game_id(), first.game_id());
  v1::AbortGameRequest abort;
  abort.set_game_id(first.game_id());
  v1::AbortGameResponse aborted;
  ASSERT_TRUE(
      referee.stub()
          .AbortGame(TestReferee::Context(kAdminToken).get(), abort, &aborted)
          .ok());
  const v1::GameOffer next = lobby.NextOffer();
  EXPECT_EQ(next.game().game_id(), second.game_id());
  EXPECT_EQ(next.game().seat(), 1);
  EXPECT_FALSE(next.reoffer());
}

TEST(LobbyGameTest, ABotThatDropsReconnectsThroughTheLobbyAndFinishes) {
  TestReferee referee(TempDir() / "cassino.db");
  const std::string alice_key = Register(referee, "alice");
  const std::string bob_key = Register(referee, "bob");
  const v1::CreateGameResponse g = MustCreate(referee, {"alice", "bob"});
  LobbyBot bob(referee.stub(), bob_key, 1);

  std::string first_token;
  {
    LobbyStream lobby(referee.stub(), alice_key, 1);
    const v1::GameOffer offer = lobby.NextOffer();
    EXPECT_FALSE(offer.reoffer());
    first_token = offer.token();
    EXPECT_EQ(PlayUnary(referee.stub(), first_token, g.game_id(), 1, 5),
              v1::GAME_STATUS_RUNNING);
  }  // alice drops: her seat stays, its clock runs
  EXPECT_EQ(referee.Info(g.game_id()).status(), v1::GAME_STATUS_RUNNING);
  EXPECT_EQ(GetBot(referee, "alice").unfinished_seats(), 1);

  LobbyStream lobby(referee.stub(), alice_key, 1);
  const v1::GameOffer again = lobby.NextOffer();
  EXPECT_EQ(again.game().game_id(), g.game_id());
  EXPECT_TRUE(again.reoffer());
  EXPECT_NE(again.token(), first_token);
  // The earlier seat token was replaced.
  {
    v1::GetTurnRequest req;
    req.set_game_id(g.game_id());
    v1::GetTurnResponse resp;
    EXPECT_EQ(referee.stub()
                  .GetTurn(TestReferee::Context(first_token).get(), req, &resp)
                  .error_code(),
              StatusCode::UNAUTHENTICATED);
  }
  EXPECT_EQ(PlayUnary(referee.stub(), again.token(), g.game_id(), 2),
            v1::GAME_STATUS_FINISHED);
  EXPECT_TRUE(bob.WaitFinished(1));
}

TEST(LobbyGameTest, ARestartedRefereeOffersTheRunningGameAgain) {
  const std::filesystem::path dir = TempDir();
  TestReferee referee(dir / "cassino.db");
  const std::string alice_key = Register(referee, "alice");
  const std::string bob_key = Register(referee, "bob");
  const v1::CreateGameResponse g = MustCreate(referee, {"alice", "bob"});
  std::string bob_token;
  {
    LobbyStream alice(referee.stub(), alice_key, 1);
    LobbyStream bob(referee.stub(), bob_key, 1);
    const std::string alice_token = alice.NextOffer().token();
    bob_token = bob.NextOffer().token();
    // A few moves each.
    for (int i = 0; i < 6; ++i) {
      const v1::GameInfo info = referee.Info(g.game_id());
      ASSERT_EQ(info.status(), v1::GAME_STATUS_RUNNING);
      PlayUnary(referee.stub(), info.to_move() == 0 ? alice_token : bob_token,
                g.game_id(), i, 1);
    }
  }
  const int turn = referee.Info(g.game_id()).turn();
  EXPECT_GE(turn, 6);

  referee.Restart();
  EXPECT_EQ(referee.server().resumed_games(), 1);
  EXPECT_EQ(referee.Info(g.game_id()).turn(), turn);
  // The accounts and the seat tokens last offered survive the restart.
  EXPECT_EQ(GetBot(referee, "alice").unfinished_seats(), 1);
  {
    v1::GetTurnRequest req;
    req.set_game_id(g.game_id());
    v1::GetTurnResponse resp;
    EXPECT_TRUE(referee.stub()
                    .GetTurn(TestReferee::Context(bob_token).get(), req, &resp)
                    .ok());
  }
  LobbyBot alice(referee.stub(), alice_key, 1);
  LobbyBot bob(referee.stub(), bob_key, 1);
  ASSERT_TRUE(alice.WaitFinished(1));
  ASSERT_TRUE(bob.WaitFinished(1));
  EXPECT_TRUE(alice.offers().at(0).reoffer());
  EXPECT_EQ(alice.offers().at(0).game().game_id(), g.game_id());
  const v1::GameInfo done = referee.Info(g.game_id());
  EXPECT_EQ(done.status(), v1::GAME_STATUS_FINISHED);
  EXPECT_GT(done.turn(), turn);
  alice.Stop();
  bob.Stop();
  absl::StatusOr<recorder::GameRecord> record =
      referee.server().recorder().Load(g.game_id());
  ASSERT_TRUE(record.ok());
  EXPECT_EQ(record->header.seats[0].account, "alice");
  EXPECT_EQ(record->header.seats[1].account, "bob");
}

TEST(LobbyGameTest, RevokingEndsTheOfferedSeatTokens) {
  TestReferee referee(TempDir() / "cassino.db");
  const std::string alice_key = Register(referee, "alice");
  Register(referee, "bob");
  const v1::CreateGameResponse g = MustCreate(referee, {"alice", "bob"});
  LobbyStream lobby(referee.stub(), alice_key, 1);
  const std::string token = lobby.NextOffer().token();
  v1::GetTurnRequest turn;
  turn.set_game_id(g.game_id());
  v1::GetTurnResponse resp;
  ASSERT_TRUE(referee.stub()
                  .GetTurn(TestReferee::Context(token).get(), turn, &resp)
                  .ok());
  // An open Play stream of the seat is ended too.
  auto play_ctx = TestReferee::Context(token);
  auto play = referee.stub().Play(play_ctx.get());
  v1::PlayResponse started;
  ASSERT_TRUE(play->Read(&started));
  EXPECT_TRUE(started.has_game_started());
  v1::RevokeBotRequest rev;
  rev.set_name("alice");
  v1::RevokeBotResponse rev_resp;
  ASSERT_TRUE(
      referee.stub()
          .RevokeBot(TestReferee::Context(kAdminToken).get(), rev, &rev_resp)
          .ok());
  // KEY_REVOKED, as documented (issue #22, A9: it was UNKNOWN_TOKEN), on
  // the unary calls and on a new Play stream.
  {
    const grpc::Status refused =
        referee.stub().GetTurn(TestReferee::Context(token).get(), turn, &resp);
    EXPECT_EQ(refused.error_code(), StatusCode::UNAUTHENTICATED);
    EXPECT_EQ(ReasonOf(refused), "KEY_REVOKED") << refused.error_message();
    auto ctx = TestReferee::Context(token);
    auto again = referee.stub().Play(ctx.get());
    v1::PlayResponse none;
    while (again->Read(&none)) {
    }
    const grpc::Status stream = again->Finish();
    EXPECT_EQ(stream.error_code(), StatusCode::UNAUTHENTICATED);
    EXPECT_EQ(ReasonOf(stream), "KEY_REVOKED") << stream.error_message();
  }
  v1::PlayResponse more;
  while (play->Read(&more)) {
  }
  play->WritesDone();
  EXPECT_EQ(play->Finish().error_code(), StatusCode::UNAUTHENTICATED);
  // Also after a restart.
  lobby.Cancel();
  referee.Restart();
  EXPECT_EQ(referee.stub()
                .GetTurn(TestReferee::Context(token).get(), turn, &resp)
                .error_code(),
            StatusCode::UNAUTHENTICATED);
  EXPECT_TRUE(GetBot(referee, "alice").revoked());
}

}  // namespace
}  // namespace cassino::testing
