// Small helpers shared by the service's files: the referee's errors with
// their machine-readable details, and the wall clock as the records keep it.
//
// Every error the service returns carries a serialized google.rpc.Status in
// grpc::Status::binary_error_details (the standard `grpc-status-details-bin`
// trailer) with a google.rpc.ErrorInfo (domain "cassino.v1", one of the
// stable reasons below, metadata such as `illegal_submissions_left`) and,
// for INVALID_ARGUMENT on a request field, a google.rpc.BadRequest naming
// the field. Errors are built as absl::Status whose payloads are those
// detail messages (Error, BadField); ToGrpc is the one place that turns
// them into the trailer. docs/referee.md, *Error details*, lists the
// reasons.

#ifndef CASSINO_REFEREE_STATUS_UTIL_H_
#define CASSINO_REFEREE_STATUS_UTIL_H_

#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "grpcpp/support/status.h"

namespace cassino::service {

// Now, as Unix time in microseconds (the records' `*_us`).
inline int64_t UnixMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// ErrorInfo.domain of every error of the referee.
inline constexpr char kErrorDomain[] = "cassino.v1";

// The kinds of error, each sent as a stable UPPER_SNAKE ErrorInfo.reason
// (ReasonName). A public list: new kinds may be added, names never change
// (docs/referee.md, *Error details*; referee_service.proto's header).
enum class Reason {
  kInvalidRequest,      // a request field is malformed or out of range
  kMalformedMove,       // a move that does not decode (fields disagree...)
  kIllegalMove,         // a well-formed move the rules refuse
  kNotYourTurn,         // another seat is to move
  kWrongTurn,           // the turn number is not the current turn
  kTurnAlreadyPlayed,   // a stale submission for a turn already played
  kGameOver,            // the game has ended
  kTimeExpired,         // the seat's time ran out
  kGameNotFound,        // no such game
  kGameNotLoaded,       // a running game the referee has not loaded
  kBotNotFound,         // no such bot account
  kBotExists,           // the bot account name is taken
  kBotRevoked,          // the bot account is revoked
  kTournamentNotFound,  // no such tournament
  kTournamentExists,    // the tournament name (or label) is taken
  kTournamentOver,      // the tournament has already ended
  kLabelReserved,       // a game label that names a tournament
  kMissingCredentials,  // no `authorization: Bearer` metadata
  kUnknownToken,        // a token the referee does not know
  kTokenExpired,        // a seat token past its retention
  kWrongCredential,     // a valid credential of the wrong kind
  kTokenForOtherGame,   // a seat token used on another game
  kKeyRevoked,          // the bot key was rotated or revoked
  kStreamReplaced,      // a newer stream of the same seat or bot
  kRateLimited,         // too many requests
  kRecordUnavailable,   // the record could not be written or read
  kShuttingDown,        // the referee is stopping
  kUndecodableRequest,  // the request bytes are not the request message
  kConcurrentChange,    // another change to the same thing is in progress
  kLimitReached,        // a per-client bound: waits, spectators, a queue
};

// The reason's ErrorInfo.reason, e.g. "ILLEGAL_MOVE".
absl::string_view ReasonName(Reason reason);

// An error with its ErrorInfo (the reason and `metadata`) as a payload.
absl::Status Error(
    absl::StatusCode code, Reason reason, absl::string_view message,
    std::initializer_list<std::pair<absl::string_view, std::string>> metadata =
        {});

// The ErrorInfo reason `status` carries (Error); empty if none.
std::string ReasonOf(const absl::Status& status);

// `status` with one more BadRequest field violation: `field` is the path in
// the request (e.g. "clock.bank_ms", "seats[2].bot_name"), `description`
// what is wrong with it.
absl::Status BadField(absl::Status status, absl::string_view field,
                      absl::string_view description);

// INVALID_ARGUMENT (reason INVALID_REQUEST) for `field`: the message is
// `message`, the field violation's description too.
absl::Status InvalidField(absl::string_view field, absl::string_view message);

// The gRPC status of `status`: the same code and message, and the
// google.rpc.Status of its payloads as binary_error_details. An error
// without an ErrorInfo gets one whose reason is INVALID_REQUEST for
// INVALID_ARGUMENT, else the code's name (e.g. "INTERNAL", "DATA_LOSS"):
// every error carries a reason.
grpc::Status ToGrpc(const absl::Status& status);

// `status` with details: unchanged if it has some or is OK, else with an
// ErrorInfo whose reason is the code's name. The service's replies pass
// through here, so that no error leaves without a reason.
grpc::Status WithDetails(const grpc::Status& status);

// Shorthands: the gRPC status of Error(...) and InvalidField(...).
inline grpc::Status GrpcError(
    grpc::StatusCode code, Reason reason, absl::string_view message,
    std::initializer_list<std::pair<absl::string_view, std::string>> metadata =
        {}) {
  return ToGrpc(
      Error(static_cast<absl::StatusCode>(code), reason, message, metadata));
}
inline grpc::Status Invalid(absl::string_view field,
                            absl::string_view message) {
  return ToGrpc(InvalidField(field, message));
}

// `status` with `prefix` put before its message (in the details too).
grpc::Status Prefixed(const grpc::Status& status, absl::string_view prefix);

// A client's text as an error message may quote it: in single quotes, at
// most `max` bytes of it (cut at a UTF-8 character boundary, then "..." and
// its length), control characters and quotes escaped as \xNN. Messages
// never echo more of what a client sent (issue #14: a 7,000-character id
// made a 7,008-character message).
inline std::string Quote(absl::string_view text, size_t max = 40) {
  size_t cut = text.size();
  if (cut > max) {
    cut = max;
    // Back to the start of a character.
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) {
      --cut;
    }
  }
  std::string out = "'";
  for (char c : text.substr(0, cut)) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7F || c == '\'' || c == '\\') {
      absl::StrAppend(&out, absl::StrFormat("\\x%02X", u));
    } else {
      out.push_back(c);
    }
  }
  out.push_back('\'');
  if (cut < text.size()) {
    absl::StrAppend(&out, "... (", text.size(), " bytes)");
  }
  return out;
}

// NOT_FOUND (GAME_NOT_FOUND) for the game `game_id`.
inline grpc::Status NoGame(absl::string_view game_id) {
  return GrpcError(grpc::StatusCode::NOT_FOUND, Reason::kGameNotFound,
                   absl::StrCat("no game ", Quote(game_id)));
}

}  // namespace cassino::service

#endif  // CASSINO_REFEREE_STATUS_UTIL_H_
