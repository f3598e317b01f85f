#include "tools/cli/organiser.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "google/protobuf/util/json_util.h"
#include "proto/client_status.h"
#include "recorder/display_text.h"

namespace cassino::cli {

void AddOrganiserFlags(CLI::App* cmd, OrganiserFlags* flags) {
  cmd->add_option("--address", flags->address,
                  absl::StrCat("the referee, host:port (default: "
                               "$CASSINO_ADDRESS, else ",
                               kDefaultAddress, ")"));
  cmd->add_option("--admin-token-file", flags->token_file,
                  "a file holding the referee's admin token, as the "
                  "referee's own --admin-token-file "
                  "(default: $CASSINO_ADMIN_TOKEN; never on the command line)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--format", flags->format,
                  "text (tables) or json (the API's answer in protobuf's "
                  "JSON mapping)")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  AddTlsFlags(cmd, &flags->tls);
}

absl::StatusOr<std::string> ReadAdminToken(const OrganiserFlags& flags) {
  if (!flags.token_file.empty()) {
    // Read as the referee reads its --admin-token-file: the whole file,
    // trailing whitespace dropped.
    std::ifstream in(flags.token_file, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    std::string token = text.str();
    while (!token.empty() &&
           absl::ascii_isspace(static_cast<unsigned char>(token.back()))) {
      token.pop_back();
    }
    if (!in || token.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("cannot read a token from ",
                       recorder::EscapeDisplay(flags.token_file)));
    }
    return token;
  }
  if (const char* env = std::getenv("CASSINO_ADMIN_TOKEN");
      env != nullptr && *env != '\0') {
    return std::string(env);
  }
  return absl::InvalidArgumentError(
      "the admin token is needed: --admin-token-file FILE or "
      "$CASSINO_ADMIN_TOKEN (never on the command line)");
}

Organiser::Organiser(std::string command, std::string address,
                     std::string token, bool json,
                     std::shared_ptr<grpc::Channel> channel)
    : command_(std::move(command)),
      address_(std::move(address)),
      token_(std::move(token)),
      json_(json),
      stub_(v1::RefereeService::NewStub(std::move(channel))) {}

std::unique_ptr<Organiser> Organiser::Connect(const OrganiserFlags& flags,
                                              const std::string& command) {
  absl::StatusOr<std::string> token = ReadAdminToken(flags);
  if (!token.ok()) {
    std::cerr << command << ": " << token.status().message() << "\n";
    return nullptr;
  }
  std::string address = flags.address;
  if (address.empty()) {
    const char* env = std::getenv("CASSINO_ADDRESS");
    address = env != nullptr && *env != '\0' ? env : kDefaultAddress;
  }
  absl::StatusOr<std::shared_ptr<grpc::Channel>> channel =
      MakeChannel(address, flags.tls);
  if (!channel.ok()) {
    std::cerr << command << ": " << channel.status().message() << "\n";
    return nullptr;
  }
  return std::unique_ptr<Organiser>(
      new Organiser(command, std::move(address), *std::move(token),
                    flags.format == "json", *std::move(channel)));
}

std::unique_ptr<grpc::ClientContext> Organiser::Context() const {
  auto ctx = std::make_unique<grpc::ClientContext>();
  ctx->AddMetadata("authorization", "Bearer " + token_);
  ctx->set_deadline(std::chrono::system_clock::now() +
                    std::chrono::seconds(30));
  return ctx;
}

namespace {

// Characters of UTF-8 text (continuation bytes not counted).
size_t Width(const std::string& text) {
  return std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  });
}

}  // namespace

int Organiser::Fail(const grpc::Status& status) const {
  const std::string reason = ErrorReason(status);
  std::cerr << command_ << ": " << StatusCodeName(status.error_code())
            << (reason.empty() ? "" : absl::StrCat(" (", reason, ")")) << ": "
            << recorder::EscapeDisplay(status.error_message())
            << (status.error_code() == grpc::StatusCode::UNAVAILABLE
                    ? absl::StrCat(" (is a referee listening on ",
                                   recorder::EscapeDisplay(address_), "?)")
                    : "")
            << "\n";
  return kRefused;
}

int Organiser::PrintJson(const google::protobuf::Message& message) const {
  google::protobuf::util::JsonPrintOptions options;
  options.add_whitespace = true;
  options.always_print_primitive_fields = true;
  options.preserve_proto_field_names = true;
  std::string out;
  if (!google::protobuf::util::MessageToJsonString(message, &out, options)
           .ok()) {
    std::cerr << command_ << ": the answer could not be written as JSON\n";
    return kRefused;
  }
  std::cout << out;
  if (out.empty() || out.back() != '\n') std::cout << "\n";
  return kOk;
}

std::string FormatTable(const std::vector<std::string>& header,
                        const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::vector<std::string>> all;
  all.push_back(header);
  for (const auto& row : rows) {
    std::vector<std::string> escaped;
    for (const std::string& cell : row) {
      escaped.push_back(recorder::EscapeDisplay(cell));
    }
    all.push_back(std::move(escaped));
  }
  std::vector<size_t> widths(header.size(), 0);
  for (const auto& row : all) {
    for (size_t c = 0; c < row.size() && c < widths.size(); ++c) {
      widths[c] = std::max(widths[c], Width(row[c]));
    }
  }
  std::string out;
  for (const auto& row : all) {
    std::string line;
    for (size_t c = 0; c < row.size() && c < widths.size(); ++c) {
      if (c > 0) line += "  ";
      line += row[c];
      if (c + 1 < row.size()) line.append(widths[c] - Width(row[c]), ' ');
    }
    out += line + "\n";
  }
  return out;
}

std::string FormatFields(
    const std::vector<std::pair<std::string, std::string>>& fields) {
  size_t width = 0;
  for (const auto& [key, value] : fields) width = std::max(width, key.size());
  std::string out;
  for (const auto& [key, value] : fields) {
    absl::StrAppend(&out, key, ":", std::string(width - key.size() + 1, ' '),
                    recorder::EscapeDisplay(value), "\n");
  }
  return out;
}

std::string FormatUnixMs(int64_t ms) {
  if (ms == 0) return "-";
  return absl::FormatTime("%Y-%m-%d %H:%M:%S UTC", absl::FromUnixMillis(ms),
                          absl::UTCTimeZone());
}

std::string GameStatusText(v1::GameStatus status) {
  switch (status) {
    case v1::GAME_STATUS_RUNNING:
      return "running";
    case v1::GAME_STATUS_FINISHED:
      return "finished";
    case v1::GAME_STATUS_ABORTED:
      return "aborted";
    default:
      return "-";
  }
}

std::string ResultText(const v1::GameResult& result, bool over) {
  if (!over) return "-";
  std::string totals;
  for (int i = 0; i < result.totals_size(); ++i) {
    absl::StrAppend(&totals, i > 0 ? "-" : "", result.totals(i));
  }
  std::string out =
      result.winner() >= 0
          ? absl::StrCat("side ", result.winner(), " wins ", totals)
          : absl::StrCat("no winner", totals.empty() ? "" : " ", totals);
  absl::StrAppend(&out, " (", result.reason(), ")");
  return out;
}

}  // namespace cassino::cli
