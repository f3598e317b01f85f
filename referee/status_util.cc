#include "referee/status_util.h"

#include "absl/strings/cord.h"
#include "absl/types/optional.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"

namespace cassino::service {
namespace {

constexpr char kTypePrefix[] = "type.googleapis.com/";

std::string TypeUrl(const google::protobuf::Message& m) {
  return absl::StrCat(kTypePrefix, m.GetDescriptor()->full_name());
}

// The code's name as gRPC spells it ("INVALID_ARGUMENT").
std::string CodeName(absl::StatusCode code) {
  std::string name = absl::StatusCodeToString(code);
  for (char& c : name) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    if (c == ' ') c = '_';
  }
  return name;
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
  google::rpc::ErrorInfo info;
  info.set_reason(std::string(ReasonName(reason)));
  info.set_domain(kErrorDomain);
  for (const auto& [key, value] : metadata) {
    (*info.mutable_metadata())[std::string(key)] = value;
  }
  status.SetPayload(TypeUrl(info), absl::Cord(info.SerializeAsString()));
  return status;
}

std::string ReasonOf(const absl::Status& status) {
  google::rpc::ErrorInfo info;
  absl::optional<absl::Cord> payload = status.GetPayload(TypeUrl(info));
  if (!payload || !info.ParseFromString(std::string(*payload))) return "";
  return info.reason();
}

absl::Status BadField(absl::Status status, absl::string_view field,
                      absl::string_view description) {
  google::rpc::BadRequest bad;
  const std::string url = TypeUrl(bad);
  if (absl::optional<absl::Cord> prior = status.GetPayload(url)) {
    bad.ParseFromString(std::string(*prior));
  }
  google::rpc::BadRequest::FieldViolation* v = bad.add_field_violations();
  v->set_field(std::string(field));
  v->set_description(std::string(description));
  status.SetPayload(url, absl::Cord(bad.SerializeAsString()));
  return status;
}

absl::Status InvalidField(absl::string_view field, absl::string_view message) {
  return BadField(Error(absl::StatusCode::kInvalidArgument,
                        Reason::kInvalidRequest, message),
                  field, message);
}

grpc::Status ToGrpc(const absl::Status& status) {
  if (status.ok()) return grpc::Status::OK;
  google::rpc::Status out;
  out.set_code(static_cast<int>(status.code()));
  out.set_message(std::string(status.message()));
  bool has_info = false;
  const std::string info_url = TypeUrl(google::rpc::ErrorInfo());
  status.ForEachPayload([&](absl::string_view url, const absl::Cord& value) {
    google::protobuf::Any* any = out.add_details();
    any->set_type_url(std::string(url));
    any->set_value(std::string(value));
    has_info = has_info || url == info_url;
  });
  if (!has_info) {
    google::rpc::ErrorInfo info;
    info.set_reason(status.code() == absl::StatusCode::kInvalidArgument
                        ? std::string(ReasonName(Reason::kInvalidRequest))
                        : CodeName(status.code()));
    info.set_domain(kErrorDomain);
    out.add_details()->PackFrom(info);
  }
  return grpc::Status(static_cast<grpc::StatusCode>(status.code()),
                      std::string(status.message()), out.SerializeAsString());
}

grpc::Status Prefixed(const grpc::Status& status, absl::string_view prefix) {
  const grpc::Status detailed = WithDetails(status);
  if (detailed.ok()) return detailed;
  google::rpc::Status details;
  details.ParseFromString(detailed.error_details());
  const std::string message = absl::StrCat(prefix, detailed.error_message());
  details.set_message(message);
  return grpc::Status(detailed.error_code(), message,
                      details.SerializeAsString());
}

grpc::Status WithDetails(const grpc::Status& status) {
  if (status.ok() || !status.error_details().empty()) return status;
  return ToGrpc(absl::Status(static_cast<absl::StatusCode>(status.error_code()),
                             status.error_message()));
}

}  // namespace cassino::service
