#include "referee/errors.h"

#include "absl/strings/cord.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/types/optional.h"

namespace cassino::service {
namespace {

// The payloads an error's details travel in, inside the process only (the
// edge turns them into google.rpc messages). Lists of strings are encoded
// as LENGTH ':' BYTES, one after the other.
constexpr char kReasonUrl[] = "cassino.v1/reason";
constexpr char kMetadataUrl[] = "cassino.v1/metadata";
constexpr char kFieldsUrl[] = "cassino.v1/fields";

void AppendString(std::string* out, absl::string_view s) {
  absl::StrAppend(out, s.size(), ":", s);
}

std::vector<std::pair<std::string, std::string>> DecodePairs(
    const absl::optional<absl::Cord>& payload) {
  std::vector<std::pair<std::string, std::string>> out;
  if (!payload) return out;
  const std::string text(*payload);
  absl::string_view rest = text;
  std::vector<std::string> strings;
  while (!rest.empty()) {
    const size_t colon = rest.find(':');
    size_t n = 0;
    if (colon == absl::string_view::npos ||
        !absl::SimpleAtoi(rest.substr(0, colon), &n) ||
        n > rest.size() - colon - 1) {
      break;  // (Only this file writes them.)
    }
    strings.emplace_back(rest.substr(colon + 1, n));
    rest.remove_prefix(colon + 1 + n);
  }
  for (size_t i = 0; i + 1 < strings.size(); i += 2) {
    out.emplace_back(std::move(strings[i]), std::move(strings[i + 1]));
  }
  return out;
}

}  // namespace

absl::string_view ReasonName(Reason reason) {
  switch (reason) {
    case Reason::kInvalidRequest:
      return "INVALID_REQUEST";
    case Reason::kMalformedMove:
      return "MALFORMED_MOVE";
    case Reason::kIllegalMove:
      return "ILLEGAL_MOVE";
    case Reason::kNotYourTurn:
      return "NOT_YOUR_TURN";
    case Reason::kWrongTurn:
      return "WRONG_TURN";
    case Reason::kTurnAlreadyPlayed:
      return "TURN_ALREADY_PLAYED";
    case Reason::kGameOver:
      return "GAME_OVER";
    case Reason::kTimeExpired:
      return "TIME_EXPIRED";
    case Reason::kGameNotFound:
      return "GAME_NOT_FOUND";
    case Reason::kGameNotLoaded:
      return "GAME_NOT_LOADED";
    case Reason::kBotNotFound:
      return "BOT_NOT_FOUND";
    case Reason::kBotExists:
      return "BOT_EXISTS";
    case Reason::kBotRevoked:
      return "BOT_REVOKED";
    case Reason::kTournamentNotFound:
      return "TOURNAMENT_NOT_FOUND";
    case Reason::kTournamentExists:
      return "TOURNAMENT_EXISTS";
    case Reason::kTournamentOver:
      return "TOURNAMENT_OVER";
    case Reason::kLabelReserved:
      return "LABEL_RESERVED";
    case Reason::kLadderNotFound:
      return "LADDER_NOT_FOUND";
    case Reason::kLadderExists:
      return "LADDER_EXISTS";
    case Reason::kLadderClosed:
      return "LADDER_CLOSED";
    case Reason::kMissingCredentials:
      return "MISSING_CREDENTIALS";
    case Reason::kUnknownToken:
      return "UNKNOWN_TOKEN";
    case Reason::kTokenExpired:
      return "TOKEN_EXPIRED";
    case Reason::kWrongCredential:
      return "WRONG_CREDENTIAL";
    case Reason::kTokenForOtherGame:
      return "TOKEN_FOR_OTHER_GAME";
    case Reason::kKeyRevoked:
      return "KEY_REVOKED";
    case Reason::kStreamReplaced:
      return "STREAM_REPLACED";
    case Reason::kRateLimited:
      return "RATE_LIMITED";
    case Reason::kRecordUnavailable:
      return "RECORD_UNAVAILABLE";
    case Reason::kShuttingDown:
      return "SHUTTING_DOWN";
    case Reason::kUndecodableRequest:
      return "UNDECODABLE_REQUEST";
    case Reason::kConcurrentChange:
      return "CONCURRENT_CHANGE";
    case Reason::kLimitReached:
      return "LIMIT_REACHED";
  }
  return "UNKNOWN";
}

absl::Status Error(
    absl::StatusCode code, Reason reason, absl::string_view message,
    std::initializer_list<std::pair<absl::string_view, std::string>> metadata) {
  absl::Status status(code, message);
  status.SetPayload(kReasonUrl, absl::Cord(ReasonName(reason)));
  if (metadata.size() > 0) {
    std::string encoded;
    for (const auto& [key, value] : metadata) {
      AppendString(&encoded, key);
      AppendString(&encoded, value);
    }
    status.SetPayload(kMetadataUrl, absl::Cord(std::move(encoded)));
  }
  return status;
}

absl::Status BadField(absl::Status status, absl::string_view field,
                      absl::string_view description) {
  std::string encoded;
  if (absl::optional<absl::Cord> prior = status.GetPayload(kFieldsUrl)) {
    encoded = std::string(*prior);
  }
  AppendString(&encoded, field);
  AppendString(&encoded, description);
  status.SetPayload(kFieldsUrl, absl::Cord(std::move(encoded)));
  return status;
}

absl::Status InvalidField(absl::string_view field, absl::string_view message) {
  return BadField(Error(absl::StatusCode::kInvalidArgument,
                        Reason::kInvalidRequest, message),
                  field, message);
}

absl::Status Prefixed(const absl::Status& status, absl::string_view prefix) {
  if (status.ok()) return status;
  absl::Status out(status.code(), absl::StrCat(prefix, status.message()));
  status.ForEachPayload([&](absl::string_view url, const absl::Cord& value) {
    out.SetPayload(url, value);
  });
  return out;
}

ErrorDetails DetailsOf(const absl::Status& status) {
  ErrorDetails details;
  if (absl::optional<absl::Cord> reason = status.GetPayload(kReasonUrl)) {
    details.reason = std::string(*reason);
  }
  details.metadata = DecodePairs(status.GetPayload(kMetadataUrl));
  details.fields = DecodePairs(status.GetPayload(kFieldsUrl));
  return details;
}

std::string ReasonOf(const absl::Status& status) {
  absl::optional<absl::Cord> reason = status.GetPayload(kReasonUrl);
  return reason ? std::string(*reason) : "";
}

std::string Quote(absl::string_view text, size_t max) {
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

absl::Status NoGame(absl::string_view game_id) {
  return Error(absl::StatusCode::kNotFound, Reason::kGameNotFound,
               absl::StrCat("no game ", Quote(game_id)));
}

}  // namespace cassino::service
