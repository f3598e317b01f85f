// The referee's errors, as its core builds them: an absl::Status with a
// stable machine-readable reason, metadata (e.g. `illegal_submissions_left`)
// and, for a malformed request field, the field's path. Nothing here knows
// the wire: the gRPC edge (grpc_status.h) turns these details into the
// google.rpc.Status trailer (an ErrorInfo in domain "cassino.v1", a
// BadRequest naming the fields). docs/referee.md, *Error details*, lists
// the reasons; ReasonName (errors.cc) is the one list of their names.

#ifndef CASSINO_REFEREE_ERRORS_H_
#define CASSINO_REFEREE_ERRORS_H_

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace cassino::service {

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
  kLadderNotFound,      // no such ladder
  kLadderExists,        // the ladder name (or label) is taken
  kLadderClosed,        // the ladder is closed (or not open for this change)
};

// The reason's ErrorInfo.reason, e.g. "ILLEGAL_MOVE".
absl::string_view ReasonName(Reason reason);

// An error with its reason and `metadata`.
absl::Status Error(
    absl::StatusCode code, Reason reason, absl::string_view message,
    std::initializer_list<std::pair<absl::string_view, std::string>> metadata =
        {});

// `status` with one more bad request field: `field` is the path in the
// request (e.g. "clock.bank_ms", "seats[2].bot_name"), `description` what
// is wrong with it.
absl::Status BadField(absl::Status status, absl::string_view field,
                      absl::string_view description);

// INVALID_ARGUMENT (reason INVALID_REQUEST) for `field`: the message is
// `message`, the field's description too.
absl::Status InvalidField(absl::string_view field, absl::string_view message);

// `status` with `prefix` put before its message, its details kept.
absl::Status Prefixed(const absl::Status& status, absl::string_view prefix);

// What an error carries besides its code and message.
struct ErrorDetails {
  // The reason's name (ReasonName); empty when the error was built without
  // Error().
  std::string reason;
  std::vector<std::pair<std::string, std::string>> metadata;
  // (field path, description), in the order they were added.
  std::vector<std::pair<std::string, std::string>> fields;
};
ErrorDetails DetailsOf(const absl::Status& status);

// The reason `status` carries (Error); empty if none.
std::string ReasonOf(const absl::Status& status);

// A client's text as an error message may quote it: in single quotes, at
// most `max` bytes of it (cut at a UTF-8 character boundary, then "..." and
// its length), control characters and quotes escaped as \xNN. Messages
// never echo more of what a client sent (issue #14: a 7,000-character id
// made a 7,008-character message).
std::string Quote(absl::string_view text, size_t max = 40);

// NOT_FOUND (GAME_NOT_FOUND) for the game `game_id`.
absl::Status NoGame(absl::string_view game_id);

}  // namespace cassino::service

#endif  // CASSINO_REFEREE_ERRORS_H_
