// The referee end to end: an in-process server on 127.0.0.1:0, real gRPC
// clients, a real database.

#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>
#include <regex>
#include <set>
#include <thread>

#include "grpcpp/generic/generic_stub.h"
#include "gtest/gtest.h"
#include "recorder/recorder.h"
#include "rules/game.h"
#include "tests/referee/test_referee.h"

namespace cassino::testing {
namespace {

using ::grpc::StatusCode;

struct GameShape {
  const char* rules;
  int seats;
};

class CompleteGameTest : public ::testing::TestWithParam<GameShape> {};

TEST_P(CompleteGameTest, OverTheStream) {
  const std::filesystem::path dir = TempDir();
  TestReferee referee(dir / "cassino.db");
  const GameShape shape = GetParam();
  v1::CreateGameResponse game =
      referee.Create(shape.rules, shape.seats, SeedHex(shape.seats));
  ASSERT_EQ(game.tokens_size(), shape.seats);
  std::vector<SeatLog> logs(shape.seats);
  std::vector<std::thread> bots;
  for (int seat = 0; seat < shape.seats; ++seat) {
    bots.emplace_back([&, seat] {
      logs[seat] =
          PlayStreamSeat(referee.stub(), game.tokens(seat).token(), seat);
    });
  }
  for (auto& t : bots) t.join();
  const v1::GameInfo info = referee.Info(game.game_id());
  EXPECT_EQ(info.status(), v1::GAME_STATUS_FINISHED);
  int moves = 0;
  for (const SeatLog& log : logs) {
    moves += log.moves;
    EXPECT_EQ(log.ended.result().winner(), info.result().winner());
    EXPECT_EQ(log.ended.seed(), SeedHex(shape.seats));
    EXPECT_EQ(log.illegal_verdicts, 0);
    ASSERT_FALSE(log.messages.empty());
    EXPECT_TRUE(log.messages.front().has_game_started());
  }
  EXPECT_EQ(moves, info.turn());
  EXPECT_GE(info.result().winner(), 0);

  referee.Stop();
  absl::StatusOr<recorder::GameRecord> record =
      LoadRecord(dir / "cassino.db", game.game_id());
  ASSERT_TRUE(record.ok()) << record.status();
  EXPECT_EQ(record->status, recorder::GameStatus::kFinished);
  absl::StatusOr<recorder::ReplayedGame> replayed = recorder::Replay(*record);
  ASSERT_TRUE(replayed.ok()) << replayed.status();
  EXPECT_TRUE(replayed->game.over());
  EXPECT_EQ(replayed->game.turn(), moves);
  EXPECT_EQ(replayed->game.result()->winner, info.result().winner());
}

TEST_P(CompleteGameTest, OverTheUnaryApi) {
  const std::filesystem::path dir = TempDir();
  TestReferee referee(dir / "cassino.db");
  const GameShape shape = GetParam();
  v1::CreateGameResponse game =
      referee.Create(shape.rules, shape.seats, SeedHex(10 + shape.seats));
  std::vector<v1::GameEnded> ended(shape.seats);
  std::vector<int> moves(shape.seats);
  std::vector<std::thread> bots;
  for (int seat = 0; seat < shape.seats; ++seat) {
    bots.emplace_back([&, seat] {
      moves[seat] = PlayUnarySeat(referee.stub(), game.tokens(seat).token(),
                                  game.game_id(), seat, &ended[seat]);
    });
  }
  for (auto& t : bots) t.join();
  const v1::GameInfo info = referee.Info(game.game_id());
  EXPECT_EQ(info.status(), v1::GAME_STATUS_FINISHED);
  int total = 0;
  for (int seat = 0; seat < shape.seats; ++seat) {
    total += moves[seat];
    EXPECT_EQ(ended[seat].result().winner(), info.result().winner());
  }
  EXPECT_EQ(total, info.turn());
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, CompleteGameTest,
    ::testing::Values(GameShape{"standard", 2}, GameShape{"standard", 3},
                      GameShape{"standard", 4},
                      GameShape{"standard partnerships=on", 4}),
    [](const auto& info) {
      return std::to_string(info.param.seats) + "_players" +
             (std::string(info.param.rules).find("partnerships") !=
                      std::string::npos
                  ? "_partnerships"
                  : "");
    });

// A unary call's status code.
StatusCode Submit(TestReferee& referee, const std::string& token,
                  const std::string& game_id, int turn,
                  const std::string& notation, std::string* message = nullptr,
                  v1::SubmitMoveResponse* out = nullptr) {
  v1::SubmitMoveRequest req;
  req.set_game_id(game_id);
  req.set_turn(turn);
  req.mutable_move()->set_notation(notation);
  v1::SubmitMoveResponse resp;
  grpc::Status s =
      referee.stub().SubmitMove(TestReferee::Context(token).get(), req, &resp);
  if (message) *message = s.error_message();
  if (out) *out = resp;
  return s.error_code();
}

v1::GetTurnResponse Turn(TestReferee& referee, const std::string& token,
                         const std::string& game_id) {
  v1::GetTurnRequest req;
  req.set_game_id(game_id);
  req.set_wait(true);
  v1::GetTurnResponse resp;
  grpc::Status s =
      referee.stub().GetTurn(TestReferee::Context(token).get(), req, &resp);
  EXPECT_TRUE(s.ok()) << s.error_message();
  return resp;
}

TEST(RefereeAuthTest, EveryCase) {
  const std::filesystem::path dir = TempDir();
  TestReferee referee(dir / "cassino.db");
  v1::CreateGameResponse a = referee.Create("standard", 2, SeedHex(1));
  v1::CreateGameResponse b = referee.Create("standard", 2, SeedHex(2));
  const std::string a0 = a.tokens(0).token(), a1 = a.tokens(1).token();
  const std::string b0 = b.tokens(0).token();
  const std::string move =
      Turn(referee, a0, a.game_id()).turn().legal_moves(0).notation();

  EXPECT_EQ(Submit(referee, "", a.game_id(), 0, move),
            StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(Submit(referee, "not-a-token", a.game_id(), 0, move),
            StatusCode::UNAUTHENTICATED);
  // Another seat's token: that seat is not to move.
  EXPECT_EQ(Submit(referee, a1, a.game_id(), 0, move),
            StatusCode::FAILED_PRECONDITION);
  // Another game's token.
  EXPECT_EQ(Submit(referee, b0, a.game_id(), 0, move),
            StatusCode::PERMISSION_DENIED);
  // A seat token says nothing of other games, existing or not (it was
  // NOT_FOUND for an id not in memory, even for an evicted game that
  // exists).
  EXPECT_EQ(Submit(referee, a0, "no-such-game", 0, move),
            StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(Submit(referee, kAdminToken, a.game_id(), 0, move),
            StatusCode::PERMISSION_DENIED);

  // Organiser calls.
  v1::CreateGameRequest create;
  create.add_seats()->set_bot_name("x");
  create.add_seats()->set_bot_name("y");
  v1::CreateGameResponse created;
  EXPECT_EQ(referee.stub()
                .CreateGame(TestReferee::Context("").get(), create, &created)
                .error_code(),
            StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(referee.stub()
                .CreateGame(TestReferee::Context(a0).get(), create, &created)
                .error_code(),
            StatusCode::PERMISSION_DENIED);
  v1::ListGamesRequest list;
  v1::ListGamesResponse games;
  EXPECT_EQ(referee.stub()
                .ListGames(TestReferee::Context("wrong").get(), list, &games)
                .error_code(),
            StatusCode::UNAUTHENTICATED);
  ASSERT_TRUE(
      referee.stub()
          .ListGames(TestReferee::Context(kAdminToken).get(), list, &games)
          .ok());
  ASSERT_EQ(games.games_size(), 2);
  // Newest first.
  EXPECT_EQ(games.games(0).game_id(), b.game_id());
  EXPECT_EQ(games.games(1).game_id(), a.game_id());
  v1::ListGamesRequest one;
  one.set_page_size(1);
  ASSERT_TRUE(
      referee.stub()
          .ListGames(TestReferee::Context(kAdminToken).get(), one, &games)
          .ok());
  ASSERT_EQ(games.games_size(), 1);
  EXPECT_EQ(games.games(0).game_id(), b.game_id());
  v1::AbortGameRequest abort;
  abort.set_game_id(b.game_id());
  v1::AbortGameResponse aborted;
  EXPECT_EQ(referee.stub()
                .AbortGame(TestReferee::Context(b0).get(), abort, &aborted)
                .error_code(),
            StatusCode::PERMISSION_DENIED);
  ASSERT_TRUE(
      referee.stub()
          .AbortGame(TestReferee::Context(kAdminToken).get(), abort, &aborted)
          .ok());
  EXPECT_EQ(aborted.game().status(), v1::GAME_STATUS_ABORTED);

  // The right token works.
  EXPECT_EQ(Submit(referee, a0, a.game_id(), 0, move), StatusCode::OK);
  // A Play stream with a bad token is refused at once.
  auto ctx = TestReferee::Context("bad");
  auto stream = referee.stub().Play(ctx.get());
  v1::PlayResponse msg;
  EXPECT_FALSE(stream->Read(&msg));
  EXPECT_EQ(stream->Finish().error_code(), StatusCode::UNAUTHENTICATED);
}

TEST(RefereeSubmitTest, OutOfTurnStaleAndDuplicate) {
  const std::filesystem::path dir = TempDir();
  TestReferee referee(dir / "cassino.db");
  v1::CreateGameResponse g = referee.Create("standard", 2, SeedHex(3));
  const std::string t0 = g.tokens(0).token(), t1 = g.tokens(1).token();
  const v1::YourTurn turn = Turn(referee, t0, g.game_id()).turn();
  ASSERT_EQ(turn.turn(), 0);
  ASSERT_GE(turn.legal_moves_size(), 2);
  const std::string first = turn.legal_moves(0).notation();
  const std::string other = turn.legal_moves(1).notation();

  v1::SubmitMoveResponse accepted, again;
  ASSERT_EQ(Submit(referee, t0, g.game_id(), 0, first, nullptr, &accepted),
            StatusCode::OK);
  EXPECT_TRUE(accepted.verdict().accepted());
  EXPECT_EQ(accepted.next_to_move(), 1);
  // The same move again: the same verdict.
  ASSERT_EQ(Submit(referee, t0, g.game_id(), 0, first, nullptr, &again),
            StatusCode::OK);
  EXPECT_EQ(again.verdict().SerializeAsString(),
            accepted.verdict().SerializeAsString());
  // Another move for a turn already played: stale.
  std::string message;
  EXPECT_EQ(Submit(referee, t0, g.game_id(), 0, other, &message),
            StatusCode::ABORTED);
  EXPECT_NE(message.find("already played"), std::string::npos) << message;
  // Seat 0 again, out of turn.
  EXPECT_EQ(Submit(referee, t0, g.game_id(), 1, other, &message),
            StatusCode::FAILED_PRECONDITION);
  EXPECT_NE(message.find("not your turn"), std::string::npos) << message;
  // A turn that has not begun.
  EXPECT_EQ(Submit(referee, t1, g.game_id(), 5, other, &message),
            StatusCode::FAILED_PRECONDITION);
  EXPECT_NE(message.find("has not begun"), std::string::npos) << message;
  EXPECT_EQ(referee.Info(g.game_id()).turn(), 1);
}

TEST(RefereeSubmitTest, IllegalMovesAreRejectedThenForfeit) {
  const std::filesystem::path dir = TempDir();
  TestReferee referee(dir / "cassino.db");
  v1::Clock clock;
  clock.set_max_illegal(3);
  v1::CreateGameResponse g = referee.Create("standard", 2, SeedHex(4), clock);
  const std::string t0 = g.tokens(0).token();
  const v1::YourTurn turn = Turn(referee, t0, g.game_id()).turn();
  // A card seat 0 does not hold.
  std::set<std::string> hand(turn.observation().hand().begin(),
                             turn.observation().hand().end());
  std::string foreign;
  for (const char* c : {"AS", "2S", "3S", "4S", "5S", "6S"}) {
    if (!hand.count(c)) {
      foreign = c;
      break;
    }
  }
  std::string message;
  v1::SubmitMoveResponse unused;
  EXPECT_EQ(Submit(referee, t0, g.game_id(), 0, "trail " + foreign, &message),
            StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(message.find("2 illegal submissions left"), std::string::npos)
      << message;
  EXPECT_EQ(Submit(referee, t0, g.game_id(), 0, "dance 7H", &message),
            StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(message.find("move.notation"), std::string::npos) << message;
  EXPECT_EQ(referee.Info(g.game_id()).status(), v1::GAME_STATUS_RUNNING);
  EXPECT_EQ(Submit(referee, t0, g.game_id(), 0, "trail " + foreign, &message),
            StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(message.find("forfeit"), std::string::npos) << message;
  const v1::GameInfo info = referee.Info(g.game_id());
  EXPECT_EQ(info.status(), v1::GAME_STATUS_FINISHED);
  EXPECT_EQ(info.result().reason(), "forfeit");
  EXPECT_EQ(info.result().winner(), 1);
  EXPECT_EQ(info.result().forfeiting_seat(), 0);

  // The record holds the three rejections, the forfeit and the end.
  referee.Stop();
  absl::StatusOr<recorder::GameRecord> record =
      LoadRecord(dir / "cassino.db", g.game_id());
  ASSERT_TRUE(record.ok()) << record.status();
  std::vector<std::string> kinds;
  for (const recorder::Event& e : record->events) {
    kinds.push_back(std::string(recorder::EventKindName(e.kind)));
  }
  EXPECT_EQ(kinds,
            (std::vector<std::string>{"create", "deal", "reject", "reject",
                                      "reject", "forfeit", "end"}));
}

TEST(RefereeClockTest, TimeoutForfeits) {
  const std::filesystem::path dir = TempDir();
  TestReferee referee(dir / "cassino.db");
  v1::Clock clock;
  clock.set_per_move_ms(150);
  clock.set_bank_ms(-1);  // no bank
  v1::CreateGameResponse g = referee.Create("standard", 2, SeedHex(5), clock);
  // Seat 1 waits for its turn, which never comes: seat 0 times out.
  const v1::GetTurnResponse r = Turn(referee, g.tokens(1).token(), g.game_id());
  EXPECT_EQ(r.status(), v1::GAME_STATUS_FINISHED);
  EXPECT_EQ(r.ended().result().reason(), "forfeit");
  EXPECT_EQ(r.ended().result().forfeiting_seat(), 0);
  EXPECT_NE(r.ended().result().detail().find("ran out of time"),
            std::string::npos);
  // A late move is refused.
  EXPECT_EQ(Submit(referee, g.tokens(0).token(), g.game_id(), 0, "trail AS"),
            StatusCode::FAILED_PRECONDITION);
}

// ForfeitSeat: only the organiser may call it; it ends a running game at
// once with the seat forfeiting (a waiting seat learns the end), records
// the forfeit as reason "organiser" with the given detail, and refuses an
// ended game, a seat the game does not have, an unknown game and a reason
// with a control character.
TEST(RefereeForfeitSeatTest, TheOrganiserForfeitsASeatAtOnce) {
  const std::filesystem::path dir = TempDir();
  TestReferee referee(dir / "cassino.db");
  v1::Clock clock;
  clock.set_per_move_ms(60000);
  v1::CreateGameResponse g = referee.Create("standard", 2, SeedHex(6), clock);
  auto forfeit = [&](const std::string& token, const std::string& game_id,
                     int seat, const std::string& reason,
                     v1::ForfeitSeatResponse* out = nullptr) {
    v1::ForfeitSeatRequest req;
    req.set_game_id(game_id);
    req.set_seat(seat);
    req.set_reason(reason);
    v1::ForfeitSeatResponse resp;
    const grpc::Status s = referee.stub().ForfeitSeat(
        TestReferee::Context(token).get(), req, &resp);
    if (out != nullptr) *out = resp;
    return s;
  };
  // Seat 1 waits for its turn; the forfeit of seat 0 answers it.
  std::thread waiter([&] {
    const v1::GetTurnResponse r =
        Turn(referee, g.tokens(1).token(), g.game_id());
    EXPECT_EQ(r.status(), v1::GAME_STATUS_FINISHED);
    EXPECT_EQ(r.ended().result().forfeiting_seat(), 0);
  });
  EXPECT_EQ(forfeit(g.tokens(0).token(), g.game_id(), 0, "").error_code(),
            StatusCode::PERMISSION_DENIED);
  const grpc::Status bad_reason =
      forfeit(kAdminToken, g.game_id(), 0, "line\nbreak");
  EXPECT_EQ(bad_reason.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(ReasonOf(bad_reason), "INVALID_REQUEST");
  const grpc::Status bad_seat = forfeit(kAdminToken, g.game_id(), 2, "");
  EXPECT_EQ(bad_seat.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(bad_seat.error_message().find("no seat 2"), std::string::npos)
      << bad_seat.error_message();
  const grpc::Status unknown =
      forfeit(kAdminToken, "00000000000000000000", 0, "");
  EXPECT_EQ(unknown.error_code(), StatusCode::NOT_FOUND);
  EXPECT_EQ(ReasonOf(unknown), "GAME_NOT_FOUND");

  v1::ForfeitSeatResponse done;
  const grpc::Status ok =
      forfeit(kAdminToken, g.game_id(), 0,
              "the bot process exited with status 3", &done);
  ASSERT_TRUE(ok.ok()) << ok.error_message();
  EXPECT_EQ(done.game().status(), v1::GAME_STATUS_FINISHED);
  EXPECT_EQ(done.game().result().reason(), "forfeit");
  EXPECT_EQ(done.game().result().winner(), 1);
  EXPECT_EQ(done.game().result().forfeiting_seat(), 0);
  waiter.join();
  const grpc::Status again = forfeit(kAdminToken, g.game_id(), 1, "");
  EXPECT_EQ(again.error_code(), StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(ReasonOf(again), "GAME_OVER");

  referee.Stop();
  absl::StatusOr<recorder::GameRecord> record =
      LoadRecord(dir / "cassino.db", g.game_id());
  ASSERT_TRUE(record.ok()) << record.status();
  ASSERT_GE(record->events.size(), 2u);
  const recorder::Event& f = record->events[record->events.size() - 2];
  EXPECT_EQ(recorder::EventKindName(f.kind), "forfeit");
  EXPECT_NE(f.payload.find("\"reason\":\"organiser\""), std::string::npos)
      << f.payload;
  EXPECT_NE(f.payload.find("the bot process exited with status 3"),
            std::string::npos)
      << f.payload;
  EXPECT_EQ(recorder::EventKindName(record->events.back().kind), "end");
}

TEST(RefereeStreamTest, ReconnectGetsTheTurnAgain) {
  const std::filesystem::path dir = TempDir();
  TestReferee referee(dir / "cassino.db");
  v1::CreateGameResponse g = referee.Create("standard", 2, SeedHex(6));
  const std::string t0 = g.tokens(0).token();
  int first_turn = -1;
  {
    auto ctx = TestReferee::Context(t0);
    auto stream = referee.stub().Play(ctx.get());
    v1::PlayResponse msg;
    ASSERT_TRUE(stream->Read(&msg));
    EXPECT_TRUE(msg.has_game_started());
    EXPECT_EQ(msg.game_started().seat(), 0);
    ASSERT_TRUE(stream->Read(&msg));
    ASSERT_TRUE(msg.has_your_turn());
    first_turn = msg.your_turn().turn();
    ctx->TryCancel();  // drop the connection without moving
    stream->Finish();
  }
  SeatLog log;
  std::thread other(
      [&] { PlayStreamSeat(referee.stub(), g.tokens(1).token(), 9); });
  log = PlayStreamSeat(referee.stub(), t0, 8);
  other.join();
  ASSERT_GE(log.messages.size(), 2u);
  EXPECT_TRUE(log.messages[0].has_game_started());
  ASSERT_TRUE(log.messages[1].has_your_turn());
  EXPECT_EQ(log.messages[1].your_turn().turn(), first_turn);
  EXPECT_EQ(referee.Info(g.game_id()).status(), v1::GAME_STATUS_FINISHED);
}

// A deterministic player: the first legal move in canonical order.
std::string FirstMove(const v1::YourTurn& t) {
  return t.legal_moves(0).notation();
}

TEST(RefereeRestartTest, ResumesMidGameAndFinishesIdentically) {
  const std::filesystem::path dir = TempDir();
  const std::string seed = SeedHex(7);
  // The game as the engine alone plays it with the same policy.
  absl::StatusOr<Seed> s = ParseSeed(seed);
  ASSERT_TRUE(s.ok());
  Game expected = *Game::Create(RuleSet::Standard(), DeckSource::FromSeed(*s));
  while (!expected.over()) {
    std::vector<std::string> moves;
    for (const Move& m : expected.LegalMoves()) moves.push_back(m.ToString());
    std::sort(moves.begin(), moves.end());
    ASSERT_TRUE(expected.Play(*Move::Parse(moves[0])).ok());
  }

  TestReferee referee(dir / "cassino.db");
  v1::CreateGameResponse g = referee.Create("standard", 2, seed);
  auto play = [&](int max_moves) {
    for (int i = 0; i < max_moves; ++i) {
      const v1::GameInfo info = referee.Info(g.game_id());
      if (info.status() != v1::GAME_STATUS_RUNNING) return;
      const std::string& token = g.tokens(info.to_move()).token();
      const v1::GetTurnResponse t = Turn(referee, token, g.game_id());
      ASSERT_TRUE(t.your_turn());
      ASSERT_EQ(Submit(referee, token, g.game_id(), t.turn().turn(),
                       FirstMove(t.turn())),
                StatusCode::OK);
    }
  };
  play(30);
  const v1::GameInfo before = referee.Info(g.game_id());
  ASSERT_EQ(before.turn(), 30);
  referee.Restart();
  EXPECT_EQ(referee.server().resumed_games(), 1);
  const v1::GameInfo after = referee.Info(g.game_id());
  EXPECT_EQ(after.turn(), 30);
  EXPECT_EQ(after.to_move(), before.to_move());
  EXPECT_EQ(after.status(), v1::GAME_STATUS_RUNNING);
  // The old tokens still work.
  play(100000);
  const v1::GameInfo done = referee.Info(g.game_id());
  EXPECT_EQ(done.status(), v1::GAME_STATUS_FINISHED);
  EXPECT_EQ(done.turn(), expected.turn());
  EXPECT_EQ(done.result().winner(), expected.result()->winner);
  EXPECT_EQ(std::vector<int>(done.totals().begin(), done.totals().end()),
            expected.totals());
}

// Every card named in a message.
std::set<std::string> CardsIn(const google::protobuf::Message& m) {
  static const std::regex kCard("\"([A2-9TJQK][SHDC])\"");
  const std::string text = m.DebugString();
  std::set<std::string> cards;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), kCard);
       it != std::sregex_iterator(); ++it) {
    cards.insert((*it)[1]);
  }
  return cards;
}

// Under `draw` the hands change after every play, and each seat is told
// the cards it drew itself: the same check covers those.
class RefereeLeakTest : public ::testing::TestWithParam<const char*> {};

TEST_P(RefereeLeakTest, NoSeatEverSeesHiddenCards) {
  const std::filesystem::path dir = TempDir();
  TestReferee referee(dir / "cassino.db");
  const std::string preset = GetParam();
  int checked = 0;
  for (int n = 0; n < 12; ++n) {
    const int seats = n % 3 == 2 ? 4 : 2;
    const std::string seed = SeedHex(100 + n);
    v1::CreateGameResponse g = referee.Create(preset, seats, seed);
    std::vector<SeatLog> logs(seats);
    std::vector<std::thread> bots;
    for (int seat = 0; seat < seats; ++seat) {
      bots.emplace_back([&, seat] {
        logs[seat] = PlayStreamSeat(referee.stub(), g.tokens(seat).token(),
                                    n * 10 + seat);
      });
    }
    for (auto& t : bots) t.join();

    // Replay with the engine: before move k, which cards each seat may not
    // see (the other hands and the stock).
    std::vector<Move> moves;
    for (const v1::PlayResponse& m : logs[0].messages) {
      if (m.has_move_played()) {
        moves.push_back(*Move::Parse(m.move_played().move().notation()));
      }
    }
    RuleSet rules =
        *RuleSet::Parse(preset + " players=" + std::to_string(seats));
    Game game = *Game::Create(rules, DeckSource::FromSeed(*ParseSeed(seed)));
    std::vector<std::vector<std::set<std::string>>> hidden(seats);
    for (size_t k = 0; k <= moves.size(); ++k) {
      for (int s = 0; s < seats; ++s) {
        std::set<std::string> h;
        if (!game.over()) {
          for (int o = 0; o < seats; ++o) {
            if (o == s) continue;
            for (Card c : game.position().hands[o]) h.insert(c.ToString());
          }
          const int dealt = game.deck().size() - game.stock_size();
          for (size_t i = dealt; i < game.deck().size(); ++i) {
            h.insert(game.deck()[i].ToString());
          }
        }
        hidden[s].push_back(std::move(h));
      }
      if (k < moves.size()) {
        ASSERT_TRUE(game.Play(moves[k]).ok());
      }
    }
    for (int s = 0; s < seats; ++s) {
      for (v1::PlayResponse m : logs[s].messages) {
        std::set<std::string> secret;
        if (m.has_your_turn()) {
          // Earlier rounds' results name cards of earlier decks.
          m.mutable_your_turn()->mutable_observation()->clear_rounds();
          secret = hidden[s][m.your_turn().turn()];
        } else if (m.has_move_played()) {
          secret = hidden[s][m.move_played().turn()];
          secret.erase(m.move_played().move().card());
          // The card a seat drew itself is its own (tested for the other
          // seats' copies like any hidden card).
          if (m.move_played().seat() == s) {
            secret.erase(m.move_played().drawn());
          }
        } else {
          continue;  // round results and the end name only public cards
        }
        for (const std::string& c : CardsIn(m)) {
          ASSERT_EQ(secret.count(c), 0u)
              << "seat " << s << " was sent hidden card " << c << " in "
              << m.DebugString();
        }
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 500);
}

INSTANTIATE_TEST_SUITE_P(Presets, RefereeLeakTest,
                         ::testing::Values("standard", "draw"));

TEST(RefereeWatchTest, SpectatorSeesPublicEventsThenTheRecord) {
  const std::filesystem::path dir = TempDir();
  TestReferee referee(dir / "cassino.db");
  v1::CreateGameResponse g = referee.Create("standard", 2, SeedHex(8));
  std::vector<v1::WatchGameResponse> seen;
  std::thread watcher([&] { seen = WatchToEnd(referee.stub(), g.game_id()); });
  std::thread a(
      [&] { PlayStreamSeat(referee.stub(), g.tokens(0).token(), 1); });
  std::thread b(
      [&] { PlayStreamSeat(referee.stub(), g.tokens(1).token(), 2); });
  a.join();
  b.join();
  watcher.join();
  ASSERT_FALSE(seen.empty());
  EXPECT_TRUE(seen.front().has_game_started());
  bool ended = false;
  int moves = 0, records = 0;
  for (const v1::WatchGameResponse& e : seen) {
    if (!ended) {
      // Nothing recorded (decks, the seed) before the end.
      EXPECT_FALSE(e.has_record());
      moves += e.has_move_played();
      ended = e.has_game_ended();
    } else {
      EXPECT_TRUE(e.has_record());
      ++records;
    }
  }
  EXPECT_TRUE(ended);
  EXPECT_EQ(moves, referee.Info(g.game_id()).turn());
  EXPECT_GT(records, moves);
  EXPECT_EQ(seen.back().record().kind(), "end");
}

}  // namespace
}  // namespace cassino::testing

namespace cassino::testing {
namespace {

TEST(RefereeHealthTest, HealthServiceSaysServing) {
  const std::filesystem::path dir = TempDir();
  TestReferee referee(dir / "cassino.db");
  grpc::GenericStub generic(referee.channel());
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(5));
  grpc::Slice empty("");  // HealthCheckRequest{} is empty
  grpc::ByteBuffer request(&empty, 1), response;
  std::mutex mu;
  std::condition_variable cv;
  bool done = false;
  grpc::Status status;
  generic.UnaryCall(&ctx, "/grpc.health.v1.Health/Check", grpc::StubOptions(),
                    &request, &response, [&](grpc::Status s) {
                      std::lock_guard<std::mutex> lock(mu);
                      status = std::move(s);
                      done = true;
                      cv.notify_all();
                    });
  std::unique_lock<std::mutex> lock(mu);
  cv.wait(lock, [&] { return done; });
  ASSERT_TRUE(status.ok()) << status.error_message();
  std::vector<grpc::Slice> slices;
  ASSERT_TRUE(response.Dump(&slices).ok());
  std::string bytes;
  for (const grpc::Slice& s : slices) {
    bytes.append(reinterpret_cast<const char*>(s.begin()), s.size());
  }
  // HealthCheckResponse{status: SERVING (1)}: field 1, varint 1.
  EXPECT_EQ(bytes, std::string("\x08\x01", 2));
}

}  // namespace
}  // namespace cassino::testing

namespace cassino::testing {
namespace {

TEST(RefereeRateLimitTest, AFloodingSeatIsRefusedOthersAreNot) {
  const std::filesystem::path dir = TempDir();
  TestReferee referee(dir / "cassino.db", recorder::Durability::kNormal,
                      service::RateLimit{/*per_second=*/20, /*burst=*/20});
  v1::CreateGameResponse g = referee.Create("standard", 2, SeedHex(9));
  // Seat 1 floods GetTurn.
  int refused = 0;
  for (int i = 0; i < 100; ++i) {
    v1::GetTurnRequest req;
    req.set_game_id(g.game_id());
    v1::GetTurnResponse resp;
    grpc::Status s = referee.stub().GetTurn(
        TestReferee::Context(g.tokens(1).token()).get(), req, &resp);
    if (s.error_code() == StatusCode::RESOURCE_EXHAUSTED) {
      ++refused;
    } else {
      EXPECT_TRUE(s.ok()) << s.error_message();
    }
  }
  EXPECT_GE(refused, 50);
  // Seat 0 is unaffected: it sees its turn and plays.
  const v1::GetTurnResponse t = Turn(referee, g.tokens(0).token(), g.game_id());
  ASSERT_TRUE(t.your_turn());
  EXPECT_EQ(Submit(referee, g.tokens(0).token(), g.game_id(), 0,
                   t.turn().legal_moves(0).notation()),
            StatusCode::OK);
}

}  // namespace
}  // namespace cassino::testing

namespace cassino::testing {
namespace {

TEST(RefereeEvictionTest, EndedGamesLeaveMemoryAndTheDatabaseServesThem) {
  const std::filesystem::path dir = TempDir();
  TestReferee referee(dir / "cassino.db", recorder::Durability::kNormal,
                      service::RateLimit(), std::chrono::milliseconds(50));
  v1::CreateGameResponse g = referee.Create("standard", 2, SeedHex(11));
  std::thread a(
      [&] { PlayStreamSeat(referee.stub(), g.tokens(0).token(), 1); });
  std::thread b(
      [&] { PlayStreamSeat(referee.stub(), g.tokens(1).token(), 2); });
  a.join();
  b.join();
  const v1::GameInfo live = referee.Info(g.game_id());
  ASSERT_EQ(live.status(), v1::GAME_STATUS_FINISHED);
  // Wait until the game has left memory (bounded).
  for (int i = 0; i < 200 && referee.server().registry().Find(g.game_id());
       ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_EQ(referee.server().registry().Find(g.game_id()), nullptr);
  // The organiser still sees it, from the database.
  const v1::GameInfo stored = referee.Info(g.game_id());
  EXPECT_EQ(stored.status(), v1::GAME_STATUS_FINISHED);
  EXPECT_EQ(stored.result().winner(), live.result().winner());
  EXPECT_EQ(stored.seed(), live.seed());
  // A bot still reads the result with its seat token (issue #14, Medium
  // 3): the game comes back from the record.
  v1::GetTurnRequest req;
  req.set_game_id(g.game_id());
  v1::GetTurnResponse resp;
  grpc::Status s = referee.stub().GetTurn(
      TestReferee::Context(g.tokens(0).token()).get(), req, &resp);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(resp.status(), v1::GAME_STATUS_FINISHED);
  EXPECT_EQ(resp.ended().result().winner(), live.result().winner());
  EXPECT_EQ(resp.ended().seed(), live.seed());
  // A spectator gets the whole record.
  const std::vector<v1::WatchGameResponse> seen =
      WatchToEnd(referee.stub(), g.game_id());
  int records = 0;
  for (const v1::WatchGameResponse& e : seen) records += e.has_record();
  EXPECT_GT(records, live.turn());
  ASSERT_FALSE(seen.empty());
  EXPECT_EQ(seen.back().record().kind(), "end");
}

}  // namespace
}  // namespace cassino::testing
