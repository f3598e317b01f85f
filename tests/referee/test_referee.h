// An in-process referee on 127.0.0.1:0 with a temporary database, and real
// gRPC clients for its organiser and seats.

#ifndef CASSINO_TESTS_REFEREE_SERVICE_TEST_REFEREE_H_
#define CASSINO_TESTS_REFEREE_SERVICE_TEST_REFEREE_H_

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "cassino/v1/referee_service.grpc.pb.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "recorder/recorder.h"
#include "referee/server.h"
#include "tests/temp_dir.h"

namespace cassino::testing {

namespace v1 = ::cassino::v1;

inline constexpr char kAdminToken[] = "test-admin-token";

inline constexpr char kSeed[] =
    "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

// A distinct fixed seed (hex) for each i.
inline std::string SeedHex(int i) {
  std::string s(kSeed);
  const std::string n = std::to_string(1000000 + i);
  return s.substr(0, 64 - n.size()) + n;
}

// The record of a game, read from the database at `db`.
inline absl::StatusOr<recorder::GameRecord> LoadRecord(
    const std::filesystem::path& db, const std::string& game_id) {
  absl::StatusOr<std::unique_ptr<recorder::Recorder>> r =
      recorder::Recorder::Open(db.string(), recorder::Durability::kNormal);
  if (!r.ok()) return r.status();
  return (*r)->Load(game_id);
}

// The ErrorInfo reason an error's details carry ("" if none).
inline std::string ReasonOf(const grpc::Status& status) {
  google::rpc::Status rpc;
  if (!rpc.ParseFromString(status.error_details())) return "";
  for (const google::protobuf::Any& any : rpc.details()) {
    google::rpc::ErrorInfo info;
    if (any.UnpackTo(&info)) return info.reason();
  }
  return "";
}

// What a seat played through the unary calls was told: every GetTurn
// answer and every SubmitMove answer, in order.
struct UnarySeatLog {
  std::vector<v1::GetTurnResponse> turns;
  std::vector<v1::SubmitMoveResponse> answers;
};

// Plays one seat with GetTurn(wait) + SubmitMove until the game is over,
// choosing uniformly among the legal moves and submitting each in its
// structured form alone (no notation, so every move field's conversion is
// exercised). Returns the number of moves played; `ended`, if given, gets
// the game's end, and `log`, if given, every answer. Test failures name the
// move and the referee's reason.
inline int PlayUnarySeat(v1::RefereeService::Stub& stub,
                         const std::string& token, const std::string& game_id,
                         uint64_t seed, v1::GameEnded* ended = nullptr,
                         UnarySeatLog* log = nullptr);

// What one seat received over the Play stream in a game.
struct SeatLog {
  std::vector<v1::PlayResponse> messages;
  v1::GameEnded ended;
  int moves = 0;
  int illegal_verdicts = 0;
};

// Plays one seat over the Play stream to the end, choosing uniformly among
// the legal moves sent with YourTurn (submitted by notation); every
// message received is logged. Expects every verdict to accept.
inline SeatLog PlayStreamSeat(v1::RefereeService::Stub& stub,
                              const std::string& token, uint64_t seed);

// Watches a game as a spectator until the referee ends the stream (after
// the record of the ended game); returns every event, in order.
inline std::vector<v1::WatchGameResponse> WatchToEnd(
    v1::RefereeService::Stub& stub, const std::string& game_id);

class TestReferee {
 public:
  explicit TestReferee(
      std::filesystem::path db,
      recorder::Durability durability = recorder::Durability::kNormal,
      service::RateLimit seat_rate = service::RateLimit(),
      std::chrono::milliseconds keep_ended = std::chrono::seconds(60),
      std::chrono::milliseconds token_retention = std::chrono::hours(24),
      std::function<void(service::ServerOptions&)> configure = nullptr)
      : db_(std::move(db)),
        durability_(durability),
        seat_rate_(seat_rate),
        keep_ended_(keep_ended),
        token_retention_(token_retention),
        configure_(std::move(configure)) {
    Start();
  }
  // A referee whose options `configure` adjusts (limits, stop grace...).
  TestReferee(std::filesystem::path db,
              std::function<void(service::ServerOptions&)> configure)
      : db_(std::move(db)),
        durability_(recorder::Durability::kNormal),
        seat_rate_(service::RateLimit()),
        keep_ended_(std::chrono::seconds(60)),
        token_retention_(std::chrono::hours(24)),
        configure_(std::move(configure)) {
    Start();
  }

  void Start() {
    service::ServerOptions options;
    options.listen = "127.0.0.1:0";
    options.db_path = db_.string();
    options.durability = durability_;
    options.admin_token = kAdminToken;
    options.seat_rate = seat_rate_;
    options.keep_ended = keep_ended_;
    options.token_retention = token_retention_;
    options.signing_key_path = signing_key_path_;
    if (configure_) configure_(options);
    absl::StatusOr<std::unique_ptr<service::RefereeServer>> s =
        service::RefereeServer::Start(options);
    ASSERT_TRUE(s.ok()) << s.status();
    server_ = std::move(*s);
    channel_ =
        grpc::CreateChannel("127.0.0.1:" + std::to_string(server_->port()),
                            grpc::InsecureChannelCredentials());
    stub_ = v1::RefereeService::NewStub(channel_);
  }
  // The signing key file of the next Start (empty: beside the database).
  void set_signing_key_path(std::string path) {
    signing_key_path_ = std::move(path);
  }
  void Stop() { server_.reset(); }
  void Restart() {
    Stop();
    Start();
  }

  service::RefereeServer& server() { return *server_; }
  v1::RefereeService::Stub& stub() { return *stub_; }
  std::shared_ptr<grpc::Channel> channel() { return channel_; }

  // A context carrying `token` (none if empty), with a deadline.
  static std::unique_ptr<grpc::ClientContext> Context(const std::string& token,
                                                      int timeout_ms = 10000) {
    auto ctx = std::make_unique<grpc::ClientContext>();
    if (!token.empty()) ctx->AddMetadata("authorization", "Bearer " + token);
    ctx->set_deadline(std::chrono::system_clock::now() +
                      std::chrono::milliseconds(timeout_ms));
    return ctx;
  }

  // Creates a game as the organiser; fails the test on error.
  v1::CreateGameResponse Create(const std::string& rules, int seats,
                                const std::string& seed = "",
                                v1::Clock clock = v1::Clock()) {
    v1::CreateGameRequest req;
    req.set_rules(rules);
    for (int i = 0; i < seats; ++i) {
      req.add_seats()->set_bot_name("bot" + std::to_string(i));
    }
    req.set_seed(seed);
    *req.mutable_clock() = clock;
    v1::CreateGameResponse resp;
    grpc::Status s = stub_->CreateGame(Context(kAdminToken).get(), req, &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return resp;
  }

  v1::GameInfo Info(const std::string& game_id) {
    v1::GetGameRequest req;
    req.set_game_id(game_id);
    v1::GetGameResponse resp;
    grpc::Status s = stub_->GetGame(Context(kAdminToken).get(), req, &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return resp.game();
  }

 private:
  std::filesystem::path db_;
  recorder::Durability durability_;
  service::RateLimit seat_rate_;
  std::chrono::milliseconds keep_ended_;
  std::chrono::milliseconds token_retention_;
  std::string signing_key_path_;
  std::function<void(service::ServerOptions&)> configure_;
  std::unique_ptr<service::RefereeServer> server_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::RefereeService::Stub> stub_;
};

inline int PlayUnarySeat(v1::RefereeService::Stub& stub,
                         const std::string& token, const std::string& game_id,
                         uint64_t seed, v1::GameEnded* ended,
                         UnarySeatLog* log) {
  std::mt19937_64 rng(seed);
  int moves = 0;
  for (;;) {
    v1::GetTurnRequest req;
    req.set_game_id(game_id);
    req.set_wait(true);
    v1::GetTurnResponse turn;
    grpc::Status s =
        stub.GetTurn(TestReferee::Context(token, 30000).get(), req, &turn);
    EXPECT_TRUE(s.ok()) << s.error_message();
    if (!s.ok()) return moves;
    if (log != nullptr) log->turns.push_back(turn);
    if (turn.status() != v1::GAME_STATUS_RUNNING) {
      if (ended != nullptr) *ended = turn.ended();
      return moves;
    }
    EXPECT_TRUE(turn.your_turn());
    const v1::YourTurn& t = turn.turn();
    if (t.legal_moves_size() == 0) {
      ADD_FAILURE() << "no legal moves at turn " << t.turn();
      return moves;
    }
    v1::SubmitMoveRequest sub;
    sub.set_game_id(game_id);
    sub.set_turn(t.turn());
    *sub.mutable_move() = t.legal_moves(rng() % t.legal_moves_size());
    const std::string notation = sub.move().notation();
    sub.mutable_move()->clear_notation();
    v1::SubmitMoveResponse resp;
    s = stub.SubmitMove(TestReferee::Context(token).get(), sub, &resp);
    EXPECT_TRUE(s.ok()) << notation << ": " << s.error_message();
    if (!s.ok()) return moves;
    EXPECT_TRUE(resp.verdict().accepted())
        << notation << ": " << resp.verdict().reason();
    if (log != nullptr) log->answers.push_back(resp);
    ++moves;
  }
}

inline SeatLog PlayStreamSeat(v1::RefereeService::Stub& stub,
                              const std::string& token, uint64_t seed) {
  SeatLog log;
  std::mt19937_64 rng(seed);
  auto ctx = TestReferee::Context(token, 60000);
  auto stream = stub.Play(ctx.get());
  v1::PlayResponse msg;
  while (stream->Read(&msg)) {
    log.messages.push_back(msg);
    if (msg.has_your_turn()) {
      const v1::YourTurn& t = msg.your_turn();
      EXPECT_GT(t.legal_moves_size(), 0);
      v1::PlayRequest req;
      req.set_turn(t.turn());
      req.mutable_move()->set_notation(
          t.legal_moves(rng() % t.legal_moves_size()).notation());
      EXPECT_TRUE(stream->Write(req));
      ++log.moves;
    } else if (msg.has_verdict()) {
      EXPECT_TRUE(msg.verdict().accepted()) << msg.verdict().reason();
      log.illegal_verdicts += !msg.verdict().accepted();
    } else if (msg.has_game_ended()) {
      log.ended = msg.game_ended();
    }
  }
  stream->WritesDone();
  grpc::Status s = stream->Finish();
  EXPECT_TRUE(s.ok()) << s.error_message();
  return log;
}

inline std::vector<v1::WatchGameResponse> WatchToEnd(
    v1::RefereeService::Stub& stub, const std::string& game_id) {
  std::vector<v1::WatchGameResponse> seen;
  v1::WatchGameRequest req;
  req.set_game_id(game_id);
  auto ctx = TestReferee::Context("", 60000);
  auto reader = stub.WatchGame(ctx.get(), req);
  v1::WatchGameResponse e;
  while (reader->Read(&e)) seen.push_back(e);
  grpc::Status s = reader->Finish();
  EXPECT_TRUE(s.ok()) << s.error_message();
  return seen;
}

// Polls get() every 50 ms until done() holds of its answer, for at most
// 60 s; then records a failure naming `what` and returns the last answer.
template <typename Info>
Info PollUntil(const std::string& what, const std::function<Info()>& get,
               const std::function<bool(const Info&)>& done) {
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(60);
  Info info;
  while (std::chrono::steady_clock::now() < deadline) {
    info = get();
    if (done(info)) return info;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ADD_FAILURE() << what << " did not get there: " << info.ShortDebugString();
  return info;
}

// An organiser's game labelled `label` is refused with FAILED_PRECONDITION
// and a message saying it "is the name of a <taken_by>": by the registry's
// label guard, then with the guards cleared (a CreateGame racing the
// creation of what holds the name) by the recorder in its transaction.
// Leaves the guards cleared.
inline void ExpectLabelRefused(TestReferee& referee, const std::string& label,
                               const std::string& taken_by) {
  for (const bool guard : {true, false}) {
    if (!guard) referee.server().registry().ClearLabelGuards();
    v1::CreateGameRequest req;
    req.add_seats()->set_bot_name("p");
    req.add_seats()->set_bot_name("q");
    req.set_label(label);
    v1::CreateGameResponse resp;
    const grpc::Status s = referee.stub().CreateGame(
        TestReferee::Context(kAdminToken).get(), req, &resp);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION) << guard;
    EXPECT_NE(s.error_message().find("is the name of a " + taken_by),
              std::string::npos)
        << s.error_message();
  }
}

}  // namespace cassino::testing

#endif  // CASSINO_TESTS_REFEREE_SERVICE_TEST_REFEREE_H_
