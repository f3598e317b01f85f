// The API conventions of issue #14, Low 10, through the real gRPC server:
// google.rpc.Status error details (ErrorInfo reasons, BadRequest fields),
// page tokens, one meaning of a clock value of 0, GetTurn's game_id check,
// and requests that do not decode.

#include <condition_variable>
#include <functional>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "grpcpp/generic/generic_stub.h"
#include "gtest/gtest.h"
#include "tests/referee/test_referee.h"

namespace cassino::testing {
namespace {

using ::grpc::StatusCode;

// What an error's `grpc-status-details-bin` trailer says.
struct Details {
  bool decoded = false;
  int code = -1;
  std::string message;
  google::rpc::ErrorInfo info;
  bool has_info = false;
  google::rpc::BadRequest bad;
};

Details Decode(const grpc::Status& status) {
  Details d;
  google::rpc::Status rpc;
  if (!rpc.ParseFromString(status.error_details())) return d;
  d.decoded = !status.error_details().empty();
  d.code = rpc.code();
  d.message = rpc.message();
  for (const google::protobuf::Any& any : rpc.details()) {
    if (any.Is<google::rpc::ErrorInfo>()) {
      d.has_info = any.UnpackTo(&d.info);
    } else if (any.Is<google::rpc::BadRequest>()) {
      any.UnpackTo(&d.bad);
    }
  }
  return d;
}

// Checks the trailer of `status`: code and message as the status's, domain
// cassino.v1, the reason; returns the details for more checks.
Details ExpectReason(const grpc::Status& status, StatusCode code,
                     const std::string& reason) {
  EXPECT_EQ(status.error_code(), code) << status.error_message();
  Details d = Decode(status);
  EXPECT_TRUE(d.decoded) << "no details for: " << status.error_message();
  EXPECT_EQ(d.code, static_cast<int>(code));
  EXPECT_EQ(d.message, status.error_message());
  EXPECT_TRUE(d.has_info);
  EXPECT_EQ(d.info.domain(), "cassino.v1");
  EXPECT_EQ(d.info.reason(), reason) << status.error_message();
  return d;
}

// The field paths of a BadRequest.
std::vector<std::string> Fields(const Details& d) {
  std::vector<std::string> out;
  for (const auto& v : d.bad.field_violations()) {
    out.push_back(v.field());
    EXPECT_FALSE(v.description().empty());
  }
  return out;
}

grpc::Status Submit(TestReferee& referee, const std::string& token,
                    const std::string& game_id, int turn, const v1::Move& move,
                    v1::SubmitMoveResponse* resp = nullptr) {
  v1::SubmitMoveRequest req;
  req.set_game_id(game_id);
  req.set_turn(turn);
  *req.mutable_move() = move;
  v1::SubmitMoveResponse ignored;
  return referee.stub().SubmitMove(TestReferee::Context(token).get(), req,
                                   resp ? resp : &ignored);
}

v1::GetTurnResponse Turn(TestReferee& referee, const std::string& token,
                         const std::string& game_id) {
  v1::GetTurnRequest req;
  req.set_game_id(game_id);
  v1::GetTurnResponse resp;
  grpc::Status s =
      referee.stub().GetTurn(TestReferee::Context(token).get(), req, &resp);
  EXPECT_TRUE(s.ok()) << s.error_message();
  return resp;
}

v1::Move Notation(const std::string& text) {
  v1::Move m;
  m.set_notation(text);
  return m;
}

// A move the seat to move may not make: trailing a card it does not hold
// (well-formed, illegal).
std::string IllegalMove(const v1::GetTurnResponse& turn) {
  const std::set<std::string> hand(turn.observation().hand().begin(),
                                   turn.observation().hand().end());
  for (const char* rank :
       {"A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"}) {
    for (const char* suit : {"C", "D", "H", "S"}) {
      const std::string card = std::string(rank) + suit;
      if (!hand.contains(card)) return "trail " + card;
    }
  }
  return "";
}

TEST(ErrorDetailsTest, RejectedMovesCarryReasonAndSubmissionsLeft) {
  const auto dir = TempDir();
  TestReferee referee(dir / "e.db");
  v1::Clock clock;
  clock.set_per_move_ms(60000);
  clock.set_max_illegal(2);
  const v1::CreateGameResponse g = referee.Create("standard", 2, kSeed, clock);
  const std::string id = g.game_id();
  const std::string& mover = g.tokens(0).token();
  const v1::GetTurnResponse turn = Turn(referee, mover, id);
  ASSERT_TRUE(turn.your_turn());

  // Illegal: ILLEGAL_MOVE, one submission left.
  Details d =
      ExpectReason(Submit(referee, mover, id, 0, Notation(IllegalMove(turn))),
                   StatusCode::INVALID_ARGUMENT, "ILLEGAL_MOVE");
  EXPECT_EQ(d.info.metadata().at("illegal_submissions_left"), "1");
  EXPECT_FALSE(d.info.metadata().contains("forfeited"));

  // Out of turn: NOT_YOUR_TURN, naming the seat to move; not counted.
  d = ExpectReason(
      Submit(referee, g.tokens(1).token(), id, 0, turn.turn().legal_moves(0)),
      StatusCode::FAILED_PRECONDITION, "NOT_YOUR_TURN");
  EXPECT_EQ(d.info.metadata().at("to_move"), "0");
  // A turn that has not begun: WRONG_TURN with the current turn.
  d = ExpectReason(Submit(referee, mover, id, 5, turn.turn().legal_moves(0)),
                   StatusCode::FAILED_PRECONDITION, "WRONG_TURN");
  EXPECT_EQ(d.info.metadata().at("current_turn"), "0");

  // A legal move, then another move for the same turn: stale.
  ASSERT_TRUE(Submit(referee, mover, id, 0, turn.turn().legal_moves(0)).ok());
  d = ExpectReason(Submit(referee, mover, id, 0, Notation(IllegalMove(turn))),
                   StatusCode::ABORTED, "TURN_ALREADY_PLAYED");
  EXPECT_EQ(d.info.metadata().at("current_turn"), "1");

  // Malformed (a card that does not parse): MALFORMED_MOVE with the field;
  // seat 1's second reject is its last and forfeits.
  const std::string& second = g.tokens(1).token();
  v1::Move bad;
  bad.set_kind(v1::MOVE_KIND_TRAIL);
  bad.set_card("ZZ");
  d = ExpectReason(Submit(referee, second, id, 1, bad),
                   StatusCode::INVALID_ARGUMENT, "MALFORMED_MOVE");
  EXPECT_EQ(d.info.metadata().at("illegal_submissions_left"), "1");
  EXPECT_EQ(Fields(d), std::vector<std::string>{"move.card"});
  d = ExpectReason(Submit(referee, second, id, 1, bad),
                   StatusCode::INVALID_ARGUMENT, "MALFORMED_MOVE");
  EXPECT_EQ(d.info.metadata().at("illegal_submissions_left"), "0");
  EXPECT_EQ(d.info.metadata().at("forfeited"), "true");

  // After the end: GAME_OVER.
  ExpectReason(Submit(referee, second, id, 1, bad),
               StatusCode::FAILED_PRECONDITION, "GAME_OVER");
}

// On the Play stream a rejection is a verdict, not an error: it carries
// the same reason as MoveVerdict.error_reason.
TEST(ErrorDetailsTest, StreamVerdictsCarryTheReason) {
  const auto dir = TempDir();
  TestReferee referee(dir / "e.db");
  v1::Clock clock;
  clock.set_per_move_ms(60000);
  const v1::CreateGameResponse g = referee.Create("standard", 2, kSeed, clock);
  std::unique_ptr<grpc::ClientContext> ctx =
      TestReferee::Context(g.tokens(0).token());
  auto stream = referee.stub().Play(ctx.get());
  v1::PlayResponse msg;
  v1::GetTurnResponse turn;
  while (stream->Read(&msg) && !msg.has_your_turn()) {
  }
  ASSERT_TRUE(msg.has_your_turn());
  *turn.mutable_turn() = msg.your_turn();
  *turn.mutable_observation() = msg.your_turn().observation();
  v1::PlayRequest req;
  req.set_turn(0);
  req.mutable_move()->set_notation(IllegalMove(turn));
  ASSERT_TRUE(stream->Write(req));
  req.mutable_move()->set_notation("trail ZZ");
  ASSERT_TRUE(stream->Write(req));
  std::vector<v1::MoveVerdict> verdicts;
  while (verdicts.size() < 2 && stream->Read(&msg)) {
    if (msg.has_verdict()) verdicts.push_back(msg.verdict());
  }
  ASSERT_EQ(verdicts.size(), 2u);
  EXPECT_EQ(verdicts[0].error_reason(), "ILLEGAL_MOVE");
  EXPECT_EQ(verdicts[1].error_reason(), "MALFORMED_MOVE");
  EXPECT_EQ(verdicts[1].code(), "INVALID_ARGUMENT");
  stream->WritesDone();
  ctx->TryCancel();
}

TEST(ErrorDetailsTest, CredentialsAndLookups) {
  const auto dir = TempDir();
  TestReferee referee(dir / "e.db");
  const v1::CreateGameResponse g = referee.Create("standard", 2, kSeed);
  const v1::CreateGameResponse other =
      referee.Create("standard", 2, SeedHex(1));

  v1::GetGameRequest get;
  get.set_game_id("no-such-game");
  v1::GetGameResponse game;
  ExpectReason(referee.stub().GetGame(TestReferee::Context(kAdminToken).get(),
                                      get, &game),
               StatusCode::NOT_FOUND, "GAME_NOT_FOUND");
  ExpectReason(
      referee.stub().GetGame(TestReferee::Context("").get(), get, &game),
      StatusCode::UNAUTHENTICATED, "MISSING_CREDENTIALS");
  ExpectReason(referee.stub().GetGame(TestReferee::Context("nonsense").get(),
                                      get, &game),
               StatusCode::UNAUTHENTICATED, "UNKNOWN_TOKEN");
  ExpectReason(referee.stub().GetGame(
                   TestReferee::Context(g.tokens(0).token()).get(), get, &game),
               StatusCode::PERMISSION_DENIED, "WRONG_CREDENTIAL");

  v1::GetTurnRequest turn;
  turn.set_game_id(g.game_id());
  v1::GetTurnResponse resp;
  ExpectReason(referee.stub().GetTurn(TestReferee::Context("nonsense").get(),
                                      turn, &resp),
               StatusCode::UNAUTHENTICATED, "UNKNOWN_TOKEN");

  // A seat's unknown account: the reason of the lookup, the message (in
  // the details too) prefixed with the field.
  v1::CreateGameRequest create;
  create.add_seats()->set_account("ghost");
  create.add_seats()->set_bot_name("b");
  v1::CreateGameResponse created;
  const grpc::Status s = referee.stub().CreateGame(
      TestReferee::Context(kAdminToken).get(), create, &created);
  ExpectReason(s, StatusCode::NOT_FOUND, "BOT_NOT_FOUND");
  EXPECT_EQ(s.error_message().rfind("seats[0].account: ", 0), 0u)
      << s.error_message();

  // Streams end with details too.
  v1::WatchGameRequest watch;
  watch.set_game_id("no-such-game");
  std::unique_ptr<grpc::ClientContext> ctx = TestReferee::Context("");
  auto reader = referee.stub().WatchGame(ctx.get(), watch);
  v1::WatchGameResponse event;
  while (reader->Read(&event)) {
  }
  ExpectReason(reader->Finish(), StatusCode::NOT_FOUND, "GAME_NOT_FOUND");
}

// GetTurn and SubmitMove check game_id: a seat token of game X asking for
// game Y (existing or not) is refused, naming the token's game.
TEST(ErrorDetailsTest, SeatTokenOfAnotherGame) {
  const auto dir = TempDir();
  TestReferee referee(dir / "e.db");
  const v1::CreateGameResponse g = referee.Create("standard", 2, kSeed);
  const v1::CreateGameResponse other =
      referee.Create("standard", 2, SeedHex(1));
  for (const std::string& asked : {other.game_id(), std::string("nope")}) {
    v1::GetTurnRequest req;
    req.set_game_id(asked);
    v1::GetTurnResponse resp;
    const grpc::Status s = referee.stub().GetTurn(
        TestReferee::Context(g.tokens(0).token()).get(), req, &resp);
    Details d =
        ExpectReason(s, StatusCode::PERMISSION_DENIED, "TOKEN_FOR_OTHER_GAME");
    EXPECT_EQ(d.info.metadata().at("token_game_id"), g.game_id());
    EXPECT_NE(s.error_message().find(g.game_id()), std::string::npos);
    ExpectReason(Submit(referee, g.tokens(0).token(), asked, 0, v1::Move()),
                 StatusCode::PERMISSION_DENIED, "TOKEN_FOR_OTHER_GAME");
  }
  // Its own game, and the empty id (the token's game), are fine.
  Turn(referee, g.tokens(0).token(), g.game_id());
  Turn(referee, g.tokens(0).token(), "");
}

TEST(ErrorDetailsTest, InvalidArgumentNamesTheField) {
  const auto dir = TempDir();
  TestReferee referee(dir / "e.db");
  struct Case {
    std::function<void(v1::CreateGameRequest&)> change;
    std::string field;
  };
  const std::vector<Case> cases = {
      {[](auto& r) { r.mutable_clock()->set_per_move_ms(0); },
       "clock.per_move_ms"},
      {[](auto& r) { r.mutable_clock()->set_max_illegal(0); },
       "clock.max_illegal"},
      {[](auto& r) { r.mutable_clock()->set_bank_ms(86400001); },
       "clock.bank_ms"},
      {[](auto& r) { r.set_seed("abc"); }, "seed"},
      {[](auto& r) { r.set_label("a\x1b[2Jb"); }, "label"},
      {[](auto& r) { r.mutable_seats(1)->set_bot_name("x\ny"); },
       "seats[1].bot_name"},
      {[](auto& r) { r.set_rules("no_such_preset"); }, "rules"},
  };
  for (const Case& c : cases) {
    v1::CreateGameRequest req;
    req.add_seats()->set_bot_name("a");
    req.add_seats()->set_bot_name("b");
    c.change(req);
    v1::CreateGameResponse resp;
    const grpc::Status s = referee.stub().CreateGame(
        TestReferee::Context(kAdminToken).get(), req, &resp);
    Details d =
        ExpectReason(s, StatusCode::INVALID_ARGUMENT, "INVALID_REQUEST");
    EXPECT_EQ(Fields(d), std::vector<std::string>{c.field})
        << s.error_message();
  }
}

// A clock value left unset takes the default; a set 0 means exactly 0
// where it makes sense (the bank), and is refused where it does not.
TEST(ClockValuesTest, UnsetIsTheDefaultZeroIsZero) {
  const auto dir = TempDir();
  TestReferee referee(dir / "c.db");
  const v1::CreateGameResponse defaults = referee.Create("standard", 2, kSeed);
  EXPECT_EQ(defaults.clock().per_move_ms(), 5000);
  EXPECT_EQ(defaults.clock().bank_ms(), 30000);
  EXPECT_EQ(defaults.clock().max_illegal(), 3);

  v1::Clock no_bank;
  no_bank.set_per_move_ms(60000);
  no_bank.set_bank_ms(0);
  const v1::CreateGameResponse g =
      referee.Create("standard", 2, SeedHex(2), no_bank);
  EXPECT_TRUE(g.clock().has_bank_ms());
  EXPECT_EQ(g.clock().bank_ms(), 0);
  EXPECT_EQ(referee.Info(g.game_id()).clock().bank_ms(), 0);
  const v1::GetTurnResponse turn =
      Turn(referee, g.tokens(0).token(), g.game_id());
  ASSERT_TRUE(turn.your_turn());
  EXPECT_EQ(turn.turn().bank_left_ms(), 0);
  EXPECT_LE(turn.turn().time_left_ms(), 60000);
  EXPECT_GT(turn.turn().time_left_ms(), 0);
  EXPECT_GT(turn.turn().deadline_unix_ms(), 0);

  // The deprecated negative bank still means no bank.
  v1::Clock negative;
  negative.set_bank_ms(-1);
  EXPECT_EQ(
      referee.Create("standard", 2, SeedHex(3), negative).clock().bank_ms(), 0);
}

// TournamentSpec's grace_ms keeps its fields' convention (0: the default);
// out of range is refused with the field.
TEST(ClockValuesTest, TournamentGraceOutOfRangeIsRefused) {
  const auto dir = TempDir();
  TestReferee referee(dir / "c.db");
  for (const char* name : {"alpha", "beta"}) {
    v1::RegisterBotRequest reg;
    reg.set_name(name);
    v1::RegisterBotResponse resp;
    ASSERT_TRUE(
        referee.stub()
            .RegisterBot(TestReferee::Context(kAdminToken).get(), reg, &resp)
            .ok());
  }
  v1::CreateTournamentRequest req;
  req.mutable_spec()->set_name("t");
  req.mutable_spec()->add_participants("alpha");
  req.mutable_spec()->add_participants("beta");
  req.mutable_spec()->set_grace_ms(-1);
  v1::CreateTournamentResponse resp;
  const grpc::Status s = referee.stub().CreateTournament(
      TestReferee::Context(kAdminToken).get(), req, &resp);
  Details d = ExpectReason(s, StatusCode::INVALID_ARGUMENT, "INVALID_REQUEST");
  EXPECT_EQ(Fields(d), std::vector<std::string>{"spec.grace_ms"});
}

// Walks every page of ListGames; returns the ids in order.
std::vector<std::string> AllGames(TestReferee& referee, int page_size,
                                  const std::string& label, int* pages) {
  std::vector<std::string> ids;
  std::string token;
  *pages = 0;
  do {
    v1::ListGamesRequest req;
    req.set_page_size(page_size);
    req.set_label(label);
    req.set_page_token(token);
    v1::ListGamesResponse resp;
    const grpc::Status s = referee.stub().ListGames(
        TestReferee::Context(kAdminToken).get(), req, &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    if (!s.ok()) break;
    for (const v1::GameInfo& g : resp.games()) ids.push_back(g.game_id());
    token = resp.next_page_token();
    ++*pages;
    EXPECT_LT(*pages, 100);
  } while (!token.empty() && *pages < 100);
  return ids;
}

TEST(PaginationTest, ListGamesWalksEveryGameOnce) {
  const auto dir = TempDir();
  TestReferee referee(dir / "p.db");
  for (int i = 0; i < 7; ++i) {
    v1::CreateGameRequest req;
    req.add_seats()->set_bot_name("a");
    req.add_seats()->set_bot_name("b");
    req.set_label(i % 2 == 0 ? "even" : "odd");
    req.set_seed(SeedHex(i));
    v1::CreateGameResponse resp;
    ASSERT_TRUE(
        referee.stub()
            .CreateGame(TestReferee::Context(kAdminToken).get(), req, &resp)
            .ok());
  }
  int pages = 0;
  const std::vector<std::string> one_page = AllGames(referee, 0, "", &pages);
  EXPECT_EQ(pages, 1);
  ASSERT_EQ(one_page.size(), 7u);
  for (int size : {1, 2, 3, 6, 7}) {
    const std::vector<std::string> walked = AllGames(referee, size, "", &pages);
    EXPECT_EQ(walked, one_page) << "page_size " << size;
    EXPECT_EQ(pages, (7 + size - 1) / size) << "page_size " << size;
  }
  const std::vector<std::string> even = AllGames(referee, 2, "even", &pages);
  EXPECT_EQ(even.size(), 4u);
  EXPECT_EQ(pages, 2);

  // A token of another query, of another list, or garbage: refused.
  v1::ListGamesRequest first;
  first.set_page_size(2);
  first.set_label("even");
  v1::ListGamesResponse page;
  ASSERT_TRUE(
      referee.stub()
          .ListGames(TestReferee::Context(kAdminToken).get(), first, &page)
          .ok());
  ASSERT_FALSE(page.next_page_token().empty());
  v1::ListBotsRequest bots_first;
  v1::ListBotsResponse bots;
  for (const std::string& token :
       {std::string("garbage!"), std::string("cDE6eA"),
        std::string(page.next_page_token())}) {
    v1::ListGamesRequest req;
    req.set_label("odd");  // the valid token came from label "even"
    req.set_page_token(token);
    v1::ListGamesResponse resp;
    Details d =
        ExpectReason(referee.stub().ListGames(
                         TestReferee::Context(kAdminToken).get(), req, &resp),
                     StatusCode::INVALID_ARGUMENT, "INVALID_REQUEST");
    EXPECT_EQ(Fields(d), std::vector<std::string>{"page_token"});
    v1::ListBotsRequest bots_req;
    bots_req.set_page_token(token);
    ExpectReason(referee.stub().ListBots(
                     TestReferee::Context(kAdminToken).get(), bots_req, &bots),
                 StatusCode::INVALID_ARGUMENT, "INVALID_REQUEST");
  }
  // A token with any one character changed is refused (issue #22, A9: an
  // altered token used to be accepted and list from the altered key); the
  // token unchanged, with its own query, still works.
  {
    const std::string token = page.next_page_token();
    auto list = [&](const std::string& t) {
      v1::ListGamesRequest req;
      req.set_page_size(2);
      req.set_label("even");
      req.set_page_token(t);
      v1::ListGamesResponse resp;
      return referee.stub().ListGames(TestReferee::Context(kAdminToken).get(),
                                      req, &resp);
    };
    ASSERT_TRUE(list(token).ok());
    std::string original;
    ASSERT_TRUE(absl::WebSafeBase64Unescape(token, &original));
    int altered = 0;
    for (size_t i = 0; i < token.size(); ++i) {
      for (char c : {'A', 'w', '0', '_'}) {
        std::string t = token;
        t[i] = c;
        std::string decoded;
        // (Only changes that change the bytes: the last character's low
        // bits may be padding.)
        if (t == token || !absl::WebSafeBase64Unescape(t, &decoded) ||
            decoded == original) {
          continue;
        }
        ++altered;
        grpc::Status s = list(t);
        EXPECT_EQ(s.error_code(), StatusCode::INVALID_ARGUMENT)
            << "position " << i << ": " << t << " accepted";
        EXPECT_EQ(Fields(Decode(s)), std::vector<std::string>{"page_token"});
        break;
      }
    }
    EXPECT_GE(altered, static_cast<int>(token.size()) - 1);
  }
  // Out-of-range page sizes: refused, naming the field.
  for (int size : {-1, 1001}) {
    v1::ListGamesRequest req;
    req.set_page_size(size);
    v1::ListGamesResponse resp;
    Details d =
        ExpectReason(referee.stub().ListGames(
                         TestReferee::Context(kAdminToken).get(), req, &resp),
                     StatusCode::INVALID_ARGUMENT, "INVALID_REQUEST");
    EXPECT_EQ(Fields(d), std::vector<std::string>{"page_size"});
    v1::ListBotsRequest bots_req;
    bots_req.set_page_size(size);
    ExpectReason(referee.stub().ListBots(
                     TestReferee::Context(kAdminToken).get(), bots_req, &bots),
                 StatusCode::INVALID_ARGUMENT, "INVALID_REQUEST");
  }
}

TEST(PaginationTest, ListBotsWalksEveryAccountOnceByName) {
  const auto dir = TempDir();
  TestReferee referee(dir / "p.db");
  const std::vector<std::string> names = {"e", "a", "d", "b", "c"};
  for (const std::string& name : names) {
    v1::RegisterBotRequest reg;
    reg.set_name(name);
    v1::RegisterBotResponse resp;
    ASSERT_TRUE(
        referee.stub()
            .RegisterBot(TestReferee::Context(kAdminToken).get(), reg, &resp)
            .ok());
  }
  std::vector<std::string> walked;
  std::string token;
  int pages = 0;
  do {
    v1::ListBotsRequest req;
    req.set_page_size(2);
    req.set_page_token(token);
    v1::ListBotsResponse resp;
    ASSERT_TRUE(
        referee.stub()
            .ListBots(TestReferee::Context(kAdminToken).get(), req, &resp)
            .ok());
    for (const v1::BotAccount& b : resp.bots()) walked.push_back(b.name());
    token = resp.next_page_token();
    ++pages;
  } while (!token.empty() && pages < 10);
  EXPECT_EQ(walked, (std::vector<std::string>{"a", "b", "c", "d", "e"}));
  EXPECT_EQ(pages, 3);
}

// Calls `method` with raw request bytes; returns the status.
grpc::Status RawCall(TestReferee& referee, const std::string& method,
                     const std::string& bytes, const std::string& token) {
  grpc::GenericStub generic(referee.channel());
  std::unique_ptr<grpc::ClientContext> ctx = TestReferee::Context(token);
  grpc::Slice slice(bytes);
  grpc::ByteBuffer request(&slice, 1), response;
  std::mutex mu;
  std::condition_variable cv;
  bool done = false;
  grpc::Status status;
  generic.UnaryCall(ctx.get(), method, grpc::StubOptions(), &request, &response,
                    [&](grpc::Status s) {
                      std::lock_guard<std::mutex> lock(mu);
                      status = std::move(s);
                      done = true;
                      cv.notify_all();
                    });
  std::unique_lock<std::mutex> lock(mu);
  cv.wait(lock, [&] { return done; });
  return status;
}

// Bytes that do not parse as any message: field 1 as a length-delimited
// value longer than the rest.
const std::string kGarbage("\x0a\x7f\x01", 3);

TEST(UndecodableRequestTest, UnaryCallsGetInvalidArgument) {
  const auto dir = TempDir();
  TestReferee referee(dir / "u.db");
  const v1::CreateGameResponse g = referee.Create("standard", 2, kSeed);
  for (const auto& [method, token] :
       {std::pair<std::string, std::string>{
            "/cassino.v1.RefereeService/ListGames", kAdminToken},
        {"/cassino.v1.RefereeService/GetTurn", g.tokens(0).token()},
        {"/cassino.v1.RefereeService/SubmitMove", g.tokens(0).token()},
        {"/cassino.v1.RefereeService/GetGame", ""}}) {
    const grpc::Status s = RawCall(referee, method, kGarbage, token);
    Details d =
        ExpectReason(s, StatusCode::INVALID_ARGUMENT, "UNDECODABLE_REQUEST");
    EXPECT_NE(s.error_message().find("does not decode"), std::string::npos)
        << s.error_message();
  }
  // A method the referee does not have stays UNIMPLEMENTED.
  EXPECT_EQ(RawCall(referee, "/cassino.v1.RefereeService/NoSuchMethod",
                    kGarbage, kAdminToken)
                .error_code(),
            StatusCode::UNIMPLEMENTED);
  // And a well-formed request still works (the game is unharmed).
  Turn(referee, g.tokens(0).token(), g.game_id());
}

// On the Play stream a message that does not decode ends the stream with
// INVALID_ARGUMENT (it ended OK, as if the bot had closed its side), and
// costs the seat nothing.
TEST(UndecodableRequestTest, PlayStreamEndsWithInvalidArgument) {
  const auto dir = TempDir();
  TestReferee referee(dir / "u.db");
  const v1::CreateGameResponse g = referee.Create("standard", 2, kSeed);
  grpc::GenericStub generic(referee.channel());
  grpc::CompletionQueue cq;
  std::unique_ptr<grpc::ClientContext> ctx =
      TestReferee::Context(g.tokens(0).token());
  std::unique_ptr<grpc::GenericClientAsyncReaderWriter> call =
      generic.PrepareCall(ctx.get(), "/cassino.v1.RefereeService/Play", &cq);
  auto step = [&](intptr_t tag) {
    void* got = nullptr;
    bool ok = false;
    EXPECT_TRUE(cq.Next(&got, &ok));
    EXPECT_EQ(reinterpret_cast<intptr_t>(got), tag);
    return ok;
  };
  call->StartCall(reinterpret_cast<void*>(1));
  step(1);
  grpc::Slice slice(kGarbage);
  grpc::ByteBuffer garbage(&slice, 1);
  call->Write(garbage, reinterpret_cast<void*>(2));
  step(2);
  call->WritesDone(reinterpret_cast<void*>(3));
  step(3);
  // What the referee sent before it ended the stream (GameStarted,
  // YourTurn): read to the end, as the status follows the messages.
  grpc::ByteBuffer received;
  int messages = 0;
  for (;;) {
    call->Read(&received, reinterpret_cast<void*>(5));
    if (!step(5)) break;
    ++messages;
  }
  EXPECT_GE(messages, 1);
  grpc::Status status;
  call->Finish(&status, reinterpret_cast<void*>(4));
  step(4);
  cq.Shutdown();
  const Details d =
      ExpectReason(status, StatusCode::INVALID_ARGUMENT, "UNDECODABLE_REQUEST");
  EXPECT_NE(d.message.find("cassino.v1.PlayRequest"), std::string::npos);
  const v1::GetTurnResponse turn =
      Turn(referee, g.tokens(0).token(), g.game_id());
  EXPECT_EQ(turn.turn().illegal_left(), 3);
}

}  // namespace
}  // namespace cassino::testing
