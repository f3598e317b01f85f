// Issue #14, High 2 and Low 9: no submission can make a record fail
// `cassino verify`. Hostile submissions (malformed, illegal, with fields
// that disagree) go through the real gRPC server; every game's record must
// then verify, and a submission whose fields disagree is refused.

#include <random>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "recorder/submission_text.h"
#include "rules/submission.h"
#include "tests/referee/test_referee.h"
#include "tools/verify/verifier.h"

namespace cassino::testing {
namespace {

v1::Clock ManyIllegal(int max_illegal) {
  v1::Clock c;
  c.set_per_move_ms(60000);
  c.set_max_illegal(max_illegal);
  return c;
}

std::vector<std::string> VerifyFailures(const std::filesystem::path& db) {
  verify::VerifyOptions options;
  options.threads = 1;
  absl::StatusOr<verify::VerifyReport> report =
      verify::VerifyDatabase(db.string(), options);
  EXPECT_TRUE(report.ok()) << report.status();
  std::vector<std::string> out;
  if (report.ok()) {
    for (const verify::Failure& f : report->failures) {
      out.push_back(f.ToString());
    }
  }
  return out;
}

v1::SubmitMoveResponse Submit(TestReferee& referee, const std::string& token,
                              const std::string& game_id, int turn,
                              const v1::Move& move, grpc::Status* status) {
  v1::SubmitMoveRequest req;
  req.set_game_id(game_id);
  req.set_turn(turn);
  *req.mutable_move() = move;
  v1::SubmitMoveResponse resp;
  *status =
      referee.stub().SubmitMove(TestReferee::Context(token).get(), req, &resp);
  return resp;
}

v1::GetTurnResponse Turn(TestReferee& referee, const std::string& token,
                         const std::string& game_id) {
  v1::GetTurnRequest req;
  req.set_game_id(game_id);
  v1::GetTurnResponse turn;
  grpc::Status s =
      referee.stub().GetTurn(TestReferee::Context(token).get(), req, &turn);
  EXPECT_TRUE(s.ok()) << s.error_message();
  return turn;
}

// The example: a notation and structured fields that are each a
// legal move but not the same one.
TEST(SubmissionIntegrityTest, DisagreeingFieldsAreRefusedAndTheRecordVerifies) {
  const auto dir = TempDir();
  TestReferee referee(dir / "r.db");
  const v1::CreateGameResponse game =
      referee.Create("standard", 2, kSeed, ManyIllegal(100));
  const std::string& id = game.game_id();
  const int seat =
      Turn(referee, game.tokens(0).token(), id).observation().to_move();
  const std::string& token = game.tokens(seat).token();
  const v1::GetTurnResponse turn = Turn(referee, token, id);
  ASSERT_TRUE(turn.your_turn());
  // Two different legal trails (a hand has four cards; trails are legal
  // unless a rule forbids them, so find two).
  std::vector<v1::Move> trails;
  for (const v1::Move& m : turn.turn().legal_moves()) {
    if (m.kind() == v1::MOVE_KIND_TRAIL) trails.push_back(m);
  }
  ASSERT_GE(trails.size(), 2u);
  struct Case {
    const char* what;
    v1::Move move;
  };
  std::vector<Case> cases;
  {
    v1::Move m = trails[1];
    m.set_notation(trails[0].notation());
    cases.push_back({"notation and kind/card name different trails", m});
  }
  {
    v1::Move m;
    m.set_notation(trails[0].notation());
    m.set_pluck_card(trails[1].card());
    cases.push_back({"a pluck_card beside a notation without kind", m});
  }
  {
    v1::Move m;
    m.set_notation(trails[0].notation());
    m.set_declared_value(14);
    cases.push_back({"a declared_value beside a notation without kind", m});
  }
  {
    v1::Move m = trails[0];
    m.set_value(7);
    cases.push_back({"a trail with a build value", m});
  }
  {
    v1::Move m;
    m.set_kind(v1::MOVE_KIND_CALL_OUT);
    m.set_card(trails[0].card());
    cases.push_back({"a call-out with a card", m});
  }
  {
    // A notation that reads as the record's structured form of a legal
    // move: it must stay a (malformed) notation.
    v1::Move structured;
    structured.set_kind(v1::MOVE_KIND_TRAIL);
    structured.set_card(trails[0].card());
    Submission s;
    s.kind = kSubmittedTrail;
    s.card = trails[0].card();
    v1::Move m;
    m.set_notation(recorder::SubmissionText(s));
    cases.push_back({"a notation that looks like a recorded submission", m});
  }
  for (const Case& c : cases) {
    grpc::Status status;
    const v1::SubmitMoveResponse r =
        Submit(referee, token, id, turn.turn().turn(), c.move, &status);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT)
        << c.what << ": " << status.error_message();
    EXPECT_FALSE(r.verdict().accepted()) << c.what;
  }
  // The game goes on and ends; its record verifies.
  std::thread other([&] {
    PlayUnarySeat(referee.stub(), game.tokens(1 - seat).token(), id, 2);
  });
  PlayUnarySeat(referee.stub(), token, id, 1);
  other.join();
  EXPECT_EQ(VerifyFailures(dir / "r.db"), std::vector<std::string>());
}

// A random hostile submission for a turn whose legal moves are `legal`.
v1::Move Hostile(std::mt19937_64& rng, const v1::YourTurn& turn) {
  const auto& legal = turn.legal_moves();
  auto pick = [&]() -> v1::Move { return legal[rng() % legal.size()]; };
  // Random valid UTF-8 (what a proto3 string can carry): ASCII with
  // control characters, accented letters, bidi overrides, an emoji.
  auto text = [&](size_t max) {
    static const char* kPieces[] = {"\x01",
                                    "\x1b",
                                    "\n",
                                    " ",
                                    "A",
                                    "5",
                                    "H",
                                    "\"",
                                    "{",
                                    "\xc3\xa9",
                                    "\xe2\x80\xae",
                                    "\xf0\x9f\x82\xa1"};
    std::string s;
    for (size_t n = rng() % (max + 1); n > 0; --n) {
      s += kPieces[rng() % std::size(kPieces)];
    }
    return s;
  };
  static const char* kCards[] = {"AS", "5H", "TD", "KC", "7S", "2H",
                                 "QD", "9C", "XX", "",   "5h", "10H"};
  auto card = [&] { return std::string(kCards[rng() % std::size(kCards)]); };
  v1::Move m;
  switch (rng() % 14) {
    case 0:  // a legal move, every field filled
      return pick();
    case 1: {  // the notation alone
      m.set_notation(pick().notation());
      return m;
    }
    case 2: {  // the structured fields alone
      m = pick();
      m.clear_notation();
      return m;
    }
    case 3: {  // notation of one, fields of another
      m = pick();
      m.set_notation(pick().notation());
      return m;
    }
    case 4: {  // a notation with a stray field
      m.set_notation(pick().notation());
      switch (rng() % 5) {
        case 0:
          m.set_pluck_card(card());
          break;
        case 1:
          m.set_declared_value(static_cast<int>(rng() % 16) - 1);
          break;
        case 2:
          m.set_second_card(card());
          break;
        case 3:
          m.add_table_cards(card());
          break;
        default:
          m.set_value(static_cast<int>(rng() % 15));
      }
      return m;
    }
    case 5: {  // structured, one field changed
      m = pick();
      if (rng() % 2) m.clear_notation();
      switch (rng() % 6) {
        case 0:
          m.set_card(card());
          break;
        case 1:
          m.set_value(static_cast<int>(rng() % 16) - 1);
          break;
        case 2:
          m.add_table_cards(card());
          break;
        case 3:
          m.set_kind(static_cast<v1::MoveKind>(rng() % 7));
          break;
        case 4:
          m.set_pluck_after(!m.pluck_after());
          break;
        default:
          m.set_declared_value(static_cast<int>(rng() % 16));
      }
      return m;
    }
    case 6:  // random bytes as notation
      m.set_notation(text(300));
      return m;
    case 7:  // random bytes in every text field
      m.set_kind(static_cast<v1::MoveKind>(rng() % 5));
      m.set_card(text(12));
      m.set_second_card(text(3));
      m.set_pluck_card(text(3));
      for (int i = static_cast<int>(rng() % 3); i > 0; --i) {
        m.add_table_cards(text(4));
      }
      return m;
    case 8:  // too many table cards
      m = pick();
      for (int i = 0; i < 60; ++i) m.add_table_cards(card());
      return m;
    case 9:  // an overlong notation that starts as a legal one
      m.set_notation(pick().notation() + std::string(300, ' '));
      return m;
    case 10:  // a notation beginning with '{'
      m.set_notation("{" + pick().notation());
      return m;
    case 11:  // nothing
      return m;
    case 12:  // a card the seat does not hold
      m.set_notation("trail " + card());
      return m;
    default: {  // a legal move's notation with the kind of another
      m = pick();
      m.set_kind(pick().kind());
      return m;
    }
  }
}

TEST(SubmissionIntegrityTest, RandomHostileSubmissionsLeaveVerifiableRecords) {
  const auto dir = TempDir();
  TestReferee referee(dir / "p.db");
  std::mt19937_64 rng(20261124);
  int refused = 0, accepted_hostile = 0;
  for (int g = 0; g < 6; ++g) {
    // One game in three may forfeit on illegal submissions.
    const v1::CreateGameResponse game =
        referee.Create(g % 2 ? "draw" : "standard", 2, SeedHex(g),
                       ManyIllegal(g % 3 == 2 ? 5 : 1000));
    const std::string& id = game.game_id();
    for (int step = 0; step < 400; ++step) {
      const v1::GetTurnResponse any = Turn(referee, game.tokens(0).token(), id);
      if (any.status() != v1::GAME_STATUS_RUNNING) break;
      const int seat = any.observation().to_move();
      const std::string& token = game.tokens(seat).token();
      const v1::GetTurnResponse turn = Turn(referee, token, id);
      if (!turn.your_turn()) continue;
      const v1::Move move = Hostile(rng, turn.turn());
      grpc::Status status;
      const v1::SubmitMoveResponse r =
          Submit(referee, token, id, turn.turn().turn(), move, &status);
      if (status.ok()) {
        accepted_hostile += 1;
      } else {
        EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT)
            << status.error_message();
        EXPECT_FALSE(r.verdict().accepted());
        ++refused;
      }
    }
    // Whatever is left, played legally to the end.
    std::thread other([&] {
      PlayUnarySeat(referee.stub(), game.tokens(1).token(), id, 2 * g + 1);
    });
    PlayUnarySeat(referee.stub(), game.tokens(0).token(), id, 2 * g);
    other.join();
  }
  EXPECT_GT(refused, 100);
  EXPECT_GT(accepted_hostile, 20);
  EXPECT_EQ(VerifyFailures(dir / "p.db"), std::vector<std::string>());
}

// Issue #14, Low 5: an aborted game's seed stays secret, through every
// surface and after a restart.
TEST(SeedSecrecyTest, AnAbortedGameKeepsItsSeedSecret) {
  const auto dir = TempDir();
  TestReferee referee(dir / "a.db");
  const v1::CreateGameResponse game = referee.Create("standard", 2, kSeed);
  const std::string& id = game.game_id();
  auto ctx = TestReferee::Context(game.tokens(0).token());
  auto stream = referee.stub().Play(ctx.get());
  v1::PlayResponse msg;
  ASSERT_TRUE(stream->Read(&msg));
  ASSERT_TRUE(msg.has_game_started());
  v1::AbortGameRequest abort;
  abort.set_game_id(id);
  abort.set_reason("test");
  v1::AbortGameResponse aborted;
  ASSERT_TRUE(
      referee.stub()
          .AbortGame(TestReferee::Context(kAdminToken).get(), abort, &aborted)
          .ok());
  bool ended = false;
  while (stream->Read(&msg)) {
    if (msg.has_game_ended()) {
      ended = true;
      EXPECT_EQ(msg.game_ended().seed(), "");
    }
  }
  stream->Finish();
  EXPECT_TRUE(ended);
  EXPECT_EQ(referee.Info(id).status(), v1::GAME_STATUS_ABORTED);
  EXPECT_EQ(referee.Info(id).seed(), "");
  for (const v1::WatchGameResponse& e : WatchToEnd(referee.stub(), id)) {
    EXPECT_EQ(e.game_ended().seed(), "");
    EXPECT_EQ(e.record().payload().find(kSeed), std::string::npos);
  }
  referee.Restart();  // read from the record now
  EXPECT_EQ(referee.Info(id).status(), v1::GAME_STATUS_ABORTED);
  EXPECT_EQ(referee.Info(id).seed(), "");
}

// Issue #14, Low 7: an error quotes at most a short prefix of what the
// client sent.
TEST(ErrorMessageTest, LongInputsAreQuotedShort) {
  const auto dir = TempDir();
  TestReferee referee(dir / "m.db");
  const v1::CreateGameResponse game = referee.Create("standard", 2, kSeed);
  const std::string huge(7000, 'g');
  std::vector<std::pair<std::string, grpc::Status>> calls;
  {
    v1::GetGameRequest req;
    req.set_game_id(huge);
    v1::GetGameResponse resp;
    calls.emplace_back(
        "GetGame", referee.stub().GetGame(
                       TestReferee::Context(kAdminToken).get(), req, &resp));
  }
  {
    v1::GetTurnRequest req;
    req.set_game_id(huge);
    v1::GetTurnResponse resp;
    calls.emplace_back(
        "GetTurn",
        referee.stub().GetTurn(
            TestReferee::Context(game.tokens(0).token()).get(), req, &resp));
  }
  {
    v1::AbortGameRequest req;
    req.set_game_id(huge);
    v1::AbortGameResponse resp;
    calls.emplace_back(
        "AbortGame", referee.stub().AbortGame(
                         TestReferee::Context(kAdminToken).get(), req, &resp));
  }
  {
    v1::GetBotRequest req;
    req.set_name(huge);
    v1::GetBotResponse resp;
    calls.emplace_back(
        "GetBot", referee.stub().GetBot(TestReferee::Context(kAdminToken).get(),
                                        req, &resp));
  }
  {
    v1::GetTournamentRequest req;
    req.set_name(huge);
    v1::GetTournamentResponse resp;
    calls.emplace_back(
        "GetTournament",
        referee.stub().GetTournament(TestReferee::Context(kAdminToken).get(),
                                     req, &resp));
  }
  {
    v1::SubmitMoveRequest req;
    req.set_game_id(game.game_id());
    req.mutable_move()->set_notation(huge);
    v1::SubmitMoveResponse resp;
    calls.emplace_back(
        "SubmitMove",
        referee.stub().SubmitMove(
            TestReferee::Context(game.tokens(0).token()).get(), req, &resp));
  }
  for (const auto& [call, status] : calls) {
    EXPECT_FALSE(status.ok()) << call;
    EXPECT_LT(status.error_message().size(), 200u)
        << call << ": " << status.error_message().substr(0, 300);
  }
}

// Issue #14, Medium 3: a seat token reads its ended game's result and
// resends its last move after the game left memory, and is refused as
// expired, saying so, once the retention has passed.
TEST(SeatTokenRetentionTest, TokensWorkAfterEvictionUntilTheRetentionEnds) {
  const auto dir = TempDir();
  const auto retention = std::chrono::seconds(3);
  TestReferee referee(dir / "t.db", recorder::Durability::kNormal,
                      service::RateLimit(), std::chrono::milliseconds(50),
                      retention);
  const v1::CreateGameResponse game = referee.Create("standard", 2, kSeed);
  const std::string& id = game.game_id();
  UnarySeatLog log;
  v1::GameEnded ended;
  std::thread other(
      [&] { PlayUnarySeat(referee.stub(), game.tokens(1).token(), id, 2); });
  PlayUnarySeat(referee.stub(), game.tokens(0).token(), id, 1, &ended, &log);
  other.join();
  const auto end = std::chrono::steady_clock::now();
  ASSERT_FALSE(log.answers.empty());
  const v1::SubmitMoveResponse last = log.answers.back();
  for (int i = 0; i < 200 && referee.server().registry().Find(id); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_EQ(referee.server().registry().Find(id), nullptr);
  // Seat 0 resends its own last move: the same verdict.
  v1::SubmitMoveRequest resend;
  resend.set_game_id(id);
  resend.set_turn(last.verdict().turn());
  *resend.mutable_move() = last.verdict().move();
  v1::SubmitMoveResponse again;
  grpc::Status s = referee.stub().SubmitMove(
      TestReferee::Context(game.tokens(0).token()).get(), resend, &again);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_TRUE(again.verdict().accepted());
  EXPECT_EQ(again.verdict().turn(), last.verdict().turn());
  EXPECT_EQ(Turn(referee, game.tokens(1).token(), id).ended().result().winner(),
            ended.result().winner());
  // Past the retention: refused, naming the cause.
  std::this_thread::sleep_until(end + retention +
                                std::chrono::milliseconds(200));
  v1::GetTurnRequest req;
  req.set_game_id(id);
  v1::GetTurnResponse turn;
  s = referee.stub().GetTurn(TestReferee::Context(game.tokens(1).token()).get(),
                             req, &turn);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAUTHENTICATED);
  // ("expired", or "unknown ... expires" once the sweep forgot it.)
  EXPECT_NE(s.error_message().find("expire"), std::string::npos)
      << s.error_message();
}

// Issue #14, Low 10: out-of-range list parameters are refused, not
// defaulted.
TEST(ListGamesTest, OutOfRangeIsRefused) {
  const auto dir = TempDir();
  TestReferee referee(dir / "l.db");
  referee.Create("standard", 2, kSeed);
  auto list = [&](int page_size, int status) {
    v1::ListGamesRequest req;
    req.set_page_size(page_size);
    req.set_status(static_cast<v1::GameStatus>(status));
    v1::ListGamesResponse resp;
    return referee.stub().ListGames(TestReferee::Context(kAdminToken).get(),
                                    req, &resp);
  };
  EXPECT_TRUE(list(0, 0).ok());
  EXPECT_TRUE(list(1000, v1::GAME_STATUS_RUNNING).ok());
  for (const auto& [page_size, status] :
       {std::pair{-1, 0}, std::pair{1001, 0}, std::pair{10, 9}}) {
    const grpc::Status s = list(page_size, status);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT)
        << page_size << " " << status;
  }
}

// The record's form of a submission reads back as the same fields.
TEST(SubmissionTextTest, RoundTripsEveryField) {
  Submission s;
  s.kind = kSubmittedCapture;
  s.card = "5H";
  s.table_cards = {"5D", "x\"\\"};
  s.notation = "take 5H 5D";
  s.second_card = "2C";
  s.declared_value = 14;
  s.pluck_card = "3S";
  s.pluck_after = true;
  s.value = -3;
  EXPECT_EQ(recorder::ParseSubmissionText(recorder::SubmissionText(s)), s);
  Submission notation;
  notation.notation = "trail 5H";
  EXPECT_EQ(recorder::SubmissionText(notation), "trail 5H");
  EXPECT_EQ(recorder::ParseSubmissionText("trail 5H"), notation);
  notation.notation = "{trail 5H";
  EXPECT_EQ(recorder::ParseSubmissionText(recorder::SubmissionText(notation)),
            notation);
  // Cut just past the limits: still refused for its size.
  Submission longer;
  longer.notation = "trail 5H" + std::string(1000, ' ');
  const Submission clipped =
      recorder::ParseSubmissionText(recorder::SubmissionText(longer));
  EXPECT_EQ(clipped.notation.size(), kMaxNotation + 1);
  EXPECT_FALSE(Interpret(clipped).ok());
}

}  // namespace
}  // namespace cassino::testing
