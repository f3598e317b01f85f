#include "tools/viewer/seat_relay.h"

#include <algorithm>
#include <chrono>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "google/protobuf/util/json_util.h"
#include "nlohmann/json.hpp"
#include "proto/client_status.h"
#include "tools/viewer/game_view.h"

namespace cassino::viewer {

namespace {

using nlohmann::json;

// The token of "Bearer <token>"; "" if the header is not one.
std::string BearerToken(const std::string& authorization) {
  constexpr absl::string_view kBearer = "Bearer ";
  if (!absl::StartsWith(authorization, kBearer)) return "";
  std::string token = authorization.substr(kBearer.size());
  // A token is printable ASCII without spaces; anything else is refused
  // before it reaches gRPC metadata.
  for (const char c : token) {
    if (c <= ' ' || c > '~') return "";
  }
  return token;
}

RelayAnswer Error(int status, const std::string& message,
                  const std::string& reason = "",
                  const std::string& code = "") {
  return {status, DumpJson({{"accepted", false},
                            {"error", message},
                            {"reason", reason},
                            {"code", code}})};
}

// A failed call in words for the page.
RelayAnswer CallError(const grpc::Status& status) {
  const grpc::StatusCode code = status.error_code();
  const int http = code == grpc::StatusCode::UNAUTHENTICATED      ? 401
                   : code == grpc::StatusCode::PERMISSION_DENIED  ? 403
                   : code == grpc::StatusCode::NOT_FOUND          ? 404
                   : code == grpc::StatusCode::UNAVAILABLE        ? 502
                   : code == grpc::StatusCode::DEADLINE_EXCEEDED  ? 504
                   : code == grpc::StatusCode::RESOURCE_EXHAUSTED ? 429
                   : code == grpc::StatusCode::INVALID_ARGUMENT ||
                           code == grpc::StatusCode::FAILED_PRECONDITION
                       ? 409
                       : 502;
  std::string message = status.error_message();
  if (code == grpc::StatusCode::UNAVAILABLE) {
    message = "the referee cannot be reached: " + message;
  }
  return Error(http, message, ErrorReason(status), StatusCodeName(code));
}

std::string ToJson(const google::protobuf::Message& m) {
  google::protobuf::util::JsonPrintOptions options;
  options.preserve_proto_field_names = true;
  options.always_print_primitive_fields = true;
  std::string out;
  (void)google::protobuf::util::MessageToJsonString(m, &out, options);
  return out;
}

}  // namespace

SeatRelay::SeatRelay(std::shared_ptr<grpc::Channel> channel,
                     absl::Duration timeout, Challenges challenges)
    : stub_(v1::RefereeService::NewStub(std::move(channel))),
      timeout_(timeout),
      challenges_(std::move(challenges)) {}

RelayAnswer SeatRelay::ChallengeOptions() const {
  if (challenges_.bots.empty()) {
    return Error(404, "this viewer offers no challenges");
  }
  return {200, DumpJson({{"bots", challenges_.bots},
                         {"rules", challenges_.rules},
                         {"per_move_ms", challenges_.per_move_ms},
                         {"bank_ms", challenges_.bank_ms}})};
}

RelayAnswer SeatRelay::Challenge(const std::string& body) const {
  if (challenges_.bots.empty()) {
    return Error(404, "this viewer offers no challenges");
  }
  const json in = json::parse(body, nullptr, false);
  if (!in.is_object() || !in.contains("name") || !in["name"].is_string() ||
      !in.contains("bot") || !in["bot"].is_string()) {
    return Error(400, "expected {\"name\": \"...\", \"bot\": \"...\"}");
  }
  const std::string bot = in["bot"].get<std::string>();
  if (std::find(challenges_.bots.begin(), challenges_.bots.end(), bot) ==
      challenges_.bots.end()) {
    return Error(400, absl::StrCat("no bot ", bot, " to challenge here"));
  }
  const auto context = [this] {
    auto ctx = std::make_unique<grpc::ClientContext>();
    ctx->AddMetadata("authorization", "Bearer " + challenges_.admin_token);
    ctx->set_deadline(absl::ToChronoTime(absl::Now() + timeout_));
    return ctx;
  };
  absl::MutexLock lock(&mu_);
  // Forget the challenges that have ended; refuse beyond the bound.
  std::vector<std::string> still;
  for (const std::string& id : running_) {
    v1::GetGameRequest req;
    req.set_game_id(id);
    v1::GetGameResponse res;
    const grpc::Status s = stub_->GetGame(context().get(), req, &res);
    if (!s.ok() || res.game().status() == v1::GAME_STATUS_RUNNING) {
      still.push_back(id);
    }
  }
  running_ = std::move(still);
  if (static_cast<int>(running_.size()) >= challenges_.max_running) {
    return Error(429, absl::StrCat(running_.size(),
                                   " challenges are running, as many as this "
                                   "viewer allows: try again when one ends"));
  }
  v1::CreateGameRequest req;
  req.set_rules(challenges_.rules);
  v1::SeatSpec* person = req.add_seats();
  person->set_bot_name(in["name"].get<std::string>());
  person->set_human(true);
  req.add_seats()->set_account(bot);
  req.mutable_clock()->set_per_move_ms(challenges_.per_move_ms);
  req.mutable_clock()->set_bank_ms(challenges_.bank_ms);
  req.set_label("challenges");
  v1::CreateGameResponse res;
  const grpc::Status status = stub_->CreateGame(context().get(), req, &res);
  if (!status.ok()) return CallError(status);
  running_.push_back(res.game_id());
  for (const v1::SeatToken& t : res.tokens()) {
    if (t.seat() == 0) {
      return {200, DumpJson({{"game_id", res.game_id()},
                             {"seat", 0},
                             {"token", t.token()}})};
    }
  }
  return Error(502, "the referee gave no token for the person's seat");
}

RelayAnswer SeatRelay::Turn(const std::string& authorization) const {
  const std::string token = BearerToken(authorization);
  if (token.empty()) return Error(401, "no seat token");
  grpc::ClientContext ctx;
  ctx.AddMetadata("authorization", "Bearer " + token);
  ctx.set_deadline(absl::ToChronoTime(absl::Now() + timeout_));
  v1::GetTurnRequest req;
  v1::GetTurnResponse res;
  const grpc::Status status = stub_->GetTurn(&ctx, req, &res);
  if (!status.ok()) return CallError(status);
  json out = json::parse(ToJson(res), nullptr, false);
  if (!out.is_object()) return Error(502, "the referee's answer did not read");
  out["now_ms"] = absl::ToUnixMillis(absl::Now());
  return {200, DumpJson(out)};
}

RelayAnswer SeatRelay::Move(const std::string& authorization,
                            const std::string& body) const {
  const std::string token = BearerToken(authorization);
  if (token.empty()) return Error(401, "no seat token");
  const json in = json::parse(body, nullptr, false);
  if (!in.is_object() || !in.contains("turn") ||
      !in["turn"].is_number_integer() || !in.contains("notation") ||
      !in["notation"].is_string()) {
    return Error(400, "expected {\"turn\": N, \"notation\": \"...\"}");
  }
  grpc::ClientContext ctx;
  ctx.AddMetadata("authorization", "Bearer " + token);
  ctx.set_deadline(absl::ToChronoTime(absl::Now() + timeout_));
  v1::SubmitMoveRequest req;
  req.set_turn(in["turn"].get<int>());
  req.mutable_move()->set_notation(in["notation"].get<std::string>());
  v1::SubmitMoveResponse res;
  const grpc::Status status = stub_->SubmitMove(&ctx, req, &res);
  if (!status.ok()) return CallError(status);
  json out = json::parse(ToJson(res), nullptr, false);
  if (!out.is_object()) return Error(502, "the referee's answer did not read");
  out["accepted"] = true;
  return {200, DumpJson(out)};
}

}  // namespace cassino::viewer
