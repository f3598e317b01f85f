// A client that plays one seat of one game against the Cassino referee.
//
// BotClient connects to a referee (plaintext, or TLS with a given root
// certificate), sends the seat token as `authorization: Bearer <token>`
// metadata on every call, and asks a Strategy for each move until the game
// ends. Two modes exercise both halves of the bot API:
//
//   stream (default)  one Play bidi stream: GameStarted, then YourTurn ->
//                     PlayRequest -> MoveVerdict, ... until GameEnded.
//   unary             GetTurn(wait=true) -> SubmitMove, repeated; needs the
//                     game id.
//
// Robustness contract:
//   - If the connection drops (or the server is not up yet) before the game
//     has ended, the client reconnects with exponential backoff (with
//     jitter); `max_retries` consecutive failed attempts end the run. Any
//     message received resets the count. On reconnect the referee resends
//     GameStarted and, if the seat is to move, YourTurn.
//   - Errors that cannot heal by retrying (UNAUTHENTICATED,
//     PERMISSION_DENIED, NOT_FOUND, INVALID_ARGUMENT, UNIMPLEMENTED) end the
//     run at once with that status.
//   - A rejected move (INVALID_ARGUMENT verdict) is logged and another legal
//     move, not yet rejected for that turn, is submitted. A stale or
//     out-of-turn rejection makes the client ask for the current situation
//     again. A strategy answer outside the legal list is replaced by the
//     first legal move (and logged) before it is sent.
//   - Run() returns only once GameEnded was received (or on error).
//
// The sync gRPC API is used; one BotClient plays one game on the calling
// thread. Not thread-safe.

#ifndef CASSINO_TOOLS_BOTS_CLIENT_BOT_CLIENT_H_
#define CASSINO_TOOLS_BOTS_CLIENT_BOT_CLIENT_H_

#include <chrono>
#include <memory>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "cassino/v1/referee_service.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "tools/bots/client/turn_view.h"

namespace cassino::bots {

struct BotOptions {
  // The referee, "host:port".
  std::string address;
  // The seat's secret token.
  std::string token;
  // The game id. Required in unary mode; in stream mode, when set, a
  // GameStarted for another game is logged as a warning.
  std::string game_id;
  // Use GetTurn/SubmitMove instead of the Play stream.
  bool unary = false;
  // The Play stream's mode (`cassino-play-mode`, referee_service.proto):
  // compact (three messages a move: the moves others played arrive in
  // YourTurn.since_last) unless false (full: every move as move_played).
  bool compact = true;
  // PEM file of root certificates: connect with TLS. Empty: plaintext.
  std::string tls_ca_file;
  // Consecutive failed attempts (connects, dropped streams, failed calls)
  // before giving up.
  int max_retries = 12;
  std::chrono::milliseconds initial_backoff{100};
  std::chrono::milliseconds max_backoff{5000};
  // Deadline of each GetTurn(wait=true) call; the call is simply repeated
  // when it passes.
  std::chrono::milliseconds wait_deadline{30000};
  // Deadline of each SubmitMove call.
  std::chrono::milliseconds submit_deadline{10000};
  // Diagnostics (one line per event worth knowing); nullptr: silent.
  std::ostream* log = nullptr;
  // Also log every move played and round result.
  bool verbose = false;
  // Seeds the backoff jitter.
  uint64_t seed = 1;
};

struct BotResult {
  std::string game_id;
  int seat = -1;
  int side = -1;
  // The rules of the game, as the referee stated them.
  std::string rules;
  v1::GameEnded ended;
  int moves = 0;       // this seat's accepted moves
  int rejected = 0;    // rejected submissions
  int reconnects = 0;  // connections or calls retried

  // One line, e.g. "game g1 seat 0: won (target) totals 21-17: ...".
  std::string Describe() const;
};

class BotClient {
 public:
  // Connects as `options` say. `strategy` must outlive the client.
  BotClient(BotOptions options, Strategy* strategy);
  // Uses an existing channel (tests); TLS and address options are ignored.
  BotClient(std::shared_ptr<grpc::Channel> channel, BotOptions options,
            Strategy* strategy);

  // Plays until the game ends and returns how it ended.
  absl::StatusOr<BotResult> Run();

 private:
  enum class Attempt { kEnded, kRetry, kFatal };

  // One Play stream, until it ends. Sets *status on kFatal (and on kRetry,
  // for the log).
  Attempt PlayStreamOnce(absl::Status* status);
  // One GetTurn(+SubmitMove) round trip.
  Attempt UnaryStepOnce(absl::Status* status);
  // After a FAILED_PRECONDITION stream error: asks GetTurn whether the game
  // is over (needs the game id). True if it is and the result was stored.
  bool FetchEnded();

  // The strategy's move for `your_turn`, excluding moves already rejected
  // for that turn; always one of the legal moves (as an API message).
  v1::Move ChooseMove(const v1::YourTurn& your_turn);
  void NoteRejected(int turn, const v1::Move& move);
  void NoteGame(const v1::GameStarted& started);
  void Backoff(int attempt);
  void SetAuth(grpc::ClientContext* ctx) const;
  // A move played, in the log (verbose).
  void LogPlayed(const v1::PlayedMove& m);
  void Log(const std::string& line) const;

  BotOptions options_;
  Strategy* strategy_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::RefereeService::Stub> stub_;
  std::mt19937_64 rng_;
  BotResult result_;
  bool ended_ = false;
  // Set by an attempt that heard from the referee (resets the retry count).
  bool retries_reset_ = false;
  // Moves rejected for turn `rejected_turn_`.
  int rejected_turn_ = -1;
  std::vector<std::string> rejected_;
};

// The channel BotClient would open for `options` (plaintext or TLS).
// InvalidArgument if the CA file cannot be read.
absl::StatusOr<std::shared_ptr<grpc::Channel>> MakeChannel(
    const BotOptions& options);

// Whether a status is worth retrying (see the contract above).
bool IsRetryable(grpc::StatusCode code);

}  // namespace cassino::bots

#endif  // CASSINO_TOOLS_BOTS_CLIENT_BOT_CLIENT_H_
