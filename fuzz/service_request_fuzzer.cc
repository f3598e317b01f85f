// Fuzzes the referee service's request handling without a network. One
// referee lives for the whole run: a Recorder on a temporary database, a
// DeadlineTimer and a Registry, with one game created up front (2 seats,
// fixed seed, a one-hour move clock and max_illegal 1000 so that it lasts;
// it is created again whenever it is over). Each input is one request: the
// first byte picks the message type (low 3 bits) and, for seat calls, the
// seat (bit 7 set: seat (byte >> 4) & 1, else the seat to move); the rest is
// the message, decoded with ParseFromArray and handed to what the gRPC
// handler (referee_service.cc) would call after its authorization check:
//
//   0 CreateGameRequest  Registry::CreateGame
//   1 SubmitMoveRequest  GameSession::Submit (the game's seat)
//   2 PlayRequest        GameSession::Submit (a move) or GetTurn (none)
//   3 GetTurnRequest     GameSession::GetTurn(wait = false)
//   4 Move               convert::FromProto, and ToProto of the result
//   5 GetGameRequest     Registry::GetGame (empty id: the fuzzed game)
//   6 ListGamesRequest   Registry::ListGames
//   7 AbortGameRequest   GameSession::Abort (empty id: the fuzzed game)
//
// Asynchronous replies (given on the recorder's writer thread once a write
// commits) are awaited with a timeout; a reply that never comes is reported
// as a failure, as is any crash or sanitizer report. Properties: every reply
// comes exactly once; an accepted move round-trips through FromProto.
//
// The game carries over from one input to the next, so a crash may need the
// inputs before it (libFuzzer's -runs with the corpus reproduces it).
//
// Set CASSINO_FUZZ_WRITE_SEEDS=<dir> to write seed inputs (requests with
// the fuzzed game's legal first moves, a GetTurn, a CreateGame, ...) into
// <dir> at start-up.

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <memory>
#include <string>

#include "cassino/v1/referee_service.pb.h"
#include "fuzz/fuzz_util.h"
#include "google/protobuf/stubs/logging.h"
#include "proto/convert.h"
#include "recorder/recorder.h"
#include "referee/deadline_timer.h"
#include "referee/game_session.h"
#include "referee/grpc_status.h"
#include "referee/registry.h"
#include "referee/session_messages.h"
#include "referee/wire_convert.h"

namespace {

namespace v1 = ::cassino::v1;
using cassino::fuzz::Fail;
using cassino::service::GameSession;
using cassino::service::TurnResponseProto;
using cassino::service::TurnView;
using cassino::service::Verdict;
using cassino::service::VerdictResponse;

constexpr char kAdminToken[] = "fuzz-admin-token";
constexpr char kSeed[] =
    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
constexpr auto kReplyTimeout = std::chrono::seconds(5);
constexpr size_t kMaxInput = 4096;

struct Referee {
  std::filesystem::path dir;
  std::unique_ptr<cassino::recorder::Recorder> recorder;
  std::unique_ptr<cassino::service::DeadlineTimer> timer;
  std::unique_ptr<cassino::service::Registry> registry;
  std::shared_ptr<GameSession> game;  // the fuzzed game
};

Referee* referee = nullptr;

// Waits for a reply given through a callback; fails if it never comes.
// (The core's replies carry an absl::Status, the edge's a grpc::Status.)
template <typename Response, typename Status = grpc::Status>
struct Reply {
  struct State {
    std::atomic<int> calls{0};
    std::promise<std::pair<Status, Response>> promise;
  };
  std::shared_ptr<State> state = std::make_shared<State>();

  std::function<void(const Status&, const Response&)> Callback() {
    return [state = state](const Status& s, const Response& r) {
      if (state->calls.fetch_add(1) != 0) {
        Fail("a reply was given twice", "");
      }
      state->promise.set_value({s, r});
    };
  }
  std::pair<Status, Response> Wait(const char* what, const std::string& input) {
    auto future = state->promise.get_future();
    if (future.wait_for(kReplyTimeout) != std::future_status::ready) {
      Fail(std::string("no reply to ") + what + " within 5 s", input);
    }
    return future.get();
  }
};

v1::CreateGameRequest FuzzedGameRequest() {
  v1::CreateGameRequest request;
  request.set_rules("standard");
  request.add_seats()->set_bot_name("north");
  request.add_seats()->set_bot_name("south");
  request.mutable_clock()->set_per_move_ms(3600 * 1000);
  request.mutable_clock()->set_max_illegal(1000);
  request.set_seed(kSeed);
  request.set_label("fuzz");
  return request;
}

// Creates a game from `request` as the CreateGame handler does (through
// the edge's conversions) and waits for the answer.
std::pair<grpc::Status, v1::CreateGameResponse> CreateGame(
    const v1::CreateGameRequest& request, const char* what,
    const std::string& input) {
  Reply<v1::CreateGameResponse> reply;
  referee->registry->CreateGame(
      cassino::service::GameSpecOf(request),
      [done = reply.Callback()](
          absl::StatusOr<cassino::service::CreatedGame> created) {
        v1::CreateGameResponse response;
        if (created.ok()) {
          cassino::service::CreatedGameToProto(*created, &response);
        }
        done(cassino::service::ToGrpc(created.status()), response);
      });
  return reply.Wait(what, input);
}

// (Re)creates the fuzzed game.
void NewGame() {
  auto [status, response] =
      CreateGame(FuzzedGameRequest(), "creating the fuzzed game", "");
  if (!status.ok())
    Fail("cannot create the game: " + status.error_message(), "");
  referee->game = referee->registry->Find(response.game_id());
  if (!referee->game) Fail("the created game is not registered", "");
}

void WriteSeed(const std::filesystem::path& dir, const std::string& name,
               uint8_t type, const google::protobuf::MessageLite& message) {
  std::ofstream out(dir / name, std::ios::binary);
  out.put(static_cast<char>(type));
  out << message.SerializeAsString();
}

void WriteSeeds(const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir);
  Reply<TurnView, absl::Status> reply;
  referee->game->GetTurn(0, false, reply.Callback());
  auto [status, view] = reply.Wait("GetTurn", "");
  const v1::GetTurnResponse turn = TurnResponseProto(view);
  WriteSeed(dir, "create_game", 0, FuzzedGameRequest());
  v1::GetTurnRequest get_turn;
  WriteSeed(dir, "get_turn", 3, get_turn);
  v1::ListGamesRequest list;
  list.set_page_size(5);
  WriteSeed(dir, "list_games", 6, list);
  WriteSeed(dir, "get_game", 5, v1::GetGameRequest());
  int n = 0;
  for (const v1::Move& move : turn.turn().legal_moves()) {
    if (n >= 3) break;
    v1::SubmitMoveRequest submit;
    submit.set_turn(0);
    *submit.mutable_move() = move;
    WriteSeed(dir, "submit_" + std::to_string(n), 1, submit);
    v1::Move notation_only;
    notation_only.set_notation(move.notation());
    WriteSeed(dir, "move_" + std::to_string(n), 4, notation_only);
    v1::PlayRequest play;
    play.set_turn(0);
    *play.mutable_move() = notation_only;
    WriteSeed(dir, "play_" + std::to_string(n), 2, play);
    ++n;
  }
}

void Submit(int seat, int turn, const v1::Move& move,
            const std::string& input) {
  Reply<Verdict, absl::Status> reply;
  // As the edge does: the wire's fields once into a Submission.
  referee->game->Submit(seat, turn, cassino::convert::SubmissionOf(move),
                        reply.Callback());
  auto [status, verdict] = reply.Wait("Submit", input);
  if (verdict.accepted != status.ok()) {
    Fail("a verdict's `accepted` disagrees with its status", input);
  }
  const v1::SubmitMoveResponse response = VerdictResponse(verdict);
  if (status.ok()) {
    if (!response.verdict().accepted()) {
      Fail("an OK submission is not accepted", input);
    }
    absl::StatusOr<cassino::Move> accepted =
        cassino::convert::FromProto(response.verdict().move());
    if (!accepted.ok()) {
      Fail("the accepted move does not convert back: " +
               accepted.status().ToString(),
           input);
    }
  }
}

void GetTurn(int seat, const std::string& input) {
  Reply<TurnView, absl::Status> reply;
  referee->game->GetTurn(seat, /*wait=*/false, reply.Callback());
  auto [status, view] = reply.Wait("GetTurn(wait=false)", input);
  if (status.ok()) TurnResponseProto(view);  // (rendered as the edge does)
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  // Fuzzed strings are often not UTF-8: libprotobuf refuses them (as it
  // does for a gRPC request) and would log each refusal.
  google::protobuf::SetLogHandler(nullptr);
  referee = new Referee;
  char tmpl[] = "/tmp/cassino_service_fuzz_XXXXXX";
  if (mkdtemp(tmpl) == nullptr) Fail("mkdtemp failed", "");
  referee->dir = tmpl;
  auto recorder =
      cassino::recorder::Recorder::Open((referee->dir / "fuzz.db").string(),
                                        cassino::recorder::Durability::kNormal);
  if (!recorder.ok())
    Fail("cannot open the database: " + recorder.status().ToString(), "");
  referee->recorder = std::move(*recorder);
  referee->timer = std::make_unique<cassino::service::DeadlineTimer>();
  referee->registry = std::make_unique<cassino::service::Registry>(
      referee->recorder.get(), referee->timer.get(), kAdminToken);
  NewGame();
  if (const char* seeds = std::getenv("CASSINO_FUZZ_WRITE_SEEDS")) {
    WriteSeeds(seeds);
  }
  // At exit: no deadline callback may run while statics are destroyed; the
  // objects themselves are left alive (their threads may still be parked)
  // and the temporary database is removed.
  std::atexit([] {
    referee->timer->Stop();
    std::error_code ec;
    std::filesystem::remove_all(referee->dir, ec);
  });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1 || size > kMaxInput) return 0;
  const std::string input(reinterpret_cast<const char*>(data), size);
  const uint8_t selector = data[0];
  const uint8_t* body = data + 1;
  const int body_size = static_cast<int>(size - 1);

  if (referee->game->over()) NewGame();
  GameSession& game = *referee->game;
  const cassino::service::GameInfo info = game.Info();
  int seat = info.to_move >= 0 ? info.to_move : 0;
  if (selector & 0x80) seat = ((selector >> 4) & 1) % game.players();

  switch (selector & 7) {
    case 0: {
      v1::CreateGameRequest request;
      if (!request.ParseFromArray(body, body_size)) return 0;
      auto [status, response] = CreateGame(request, "CreateGame", input);
      if (status.ok() && !referee->registry->Find(response.game_id())) {
        Fail("a created game is not registered", input);
      }
      break;
    }
    case 1: {
      v1::SubmitMoveRequest request;
      if (!request.ParseFromArray(body, body_size)) return 0;
      Submit(seat, request.turn(), request.move(), input);
      break;
    }
    case 2: {
      v1::PlayRequest request;
      if (!request.ParseFromArray(body, body_size)) return 0;
      if (request.has_move()) {
        Submit(seat, request.turn(), request.move(), input);
      } else {
        GetTurn(seat, input);
      }
      break;
    }
    case 3: {
      v1::GetTurnRequest request;
      if (!request.ParseFromArray(body, body_size)) return 0;
      GetTurn(seat, input);
      break;
    }
    case 4: {
      v1::Move request;
      if (!request.ParseFromArray(body, body_size)) return 0;
      absl::StatusOr<cassino::Move> move = cassino::convert::FromProto(request);
      if (move.ok()) {
        v1::Move printed;
        cassino::convert::ToProto(*move, &printed);
        absl::StatusOr<cassino::Move> again =
            cassino::convert::FromProto(printed);
        if (!again.ok() || !(*again == *move)) {
          Fail("a move does not round-trip through ToProto: " +
                   printed.ShortDebugString(),
               input);
        }
      }
      break;
    }
    case 5: {
      v1::GetGameRequest request;
      if (!request.ParseFromArray(body, body_size)) return 0;
      const std::string id =
          request.game_id().empty() ? info.game_id : request.game_id();
      absl::StatusOr<cassino::service::GameInfo> got =
          referee->registry->GetGame(id);
      if (got.ok()) {
        v1::GameInfo rendered;
        cassino::service::InfoToProto(*got, &rendered);
      }
      break;
    }
    case 6: {
      v1::ListGamesRequest request;
      if (!request.ParseFromArray(body, body_size)) return 0;
      absl::StatusOr<cassino::service::GameQuery> query =
          cassino::service::GameQueryOf(request);
      if (query.ok()) referee->registry->ListGames(*query).IgnoreError();
      break;
    }
    case 7: {
      v1::AbortGameRequest request;
      if (!request.ParseFromArray(body, body_size)) return 0;
      std::shared_ptr<GameSession> target = referee->registry->Find(
          request.game_id().empty() ? info.game_id : request.game_id());
      if (target) {
        // As the handler does: a default reason, at most 256 bytes.
        (void)target->Abort(request.reason().empty()
                                ? "aborted by the organiser"
                                : request.reason().substr(0, 256));
      }
      break;
    }
  }
  return 0;
}
