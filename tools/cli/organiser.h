// What the organiser's commands (`cassino bot`, `cassino game`, `cassino
// tournament create|show|list|cancel`) share: the referee's address, the
// admin token (from a file or the environment, never the command line), a
// call's context and error text, and the two output formats (aligned text
// tables, or the API's messages as JSON).

#ifndef CASSINO_TOOLS_CLI_ORGANISER_H_
#define CASSINO_TOOLS_CLI_ORGANISER_H_

#include <functional>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "absl/status/statusor.h"
#include "cassino/v1/referee_service.grpc.pb.h"
#include "google/protobuf/message.h"
#include "grpcpp/grpcpp.h"
#include "tools/cli/channel.h"

namespace cassino::cli {

// The referee address when neither --address nor $CASSINO_ADDRESS gives
// one: the referee's own default --listen.
inline constexpr char kDefaultAddress[] = "127.0.0.1:50051";

// What every organiser command's --help says of the token, the address,
// the formats and the exit status.
inline constexpr char kOrganiserHelp[] =
    "The admin token comes from --admin-token-file or $CASSINO_ADMIN_TOKEN, "
    "never from the command line; the referee from --address, "
    "$CASSINO_ADDRESS or 127.0.0.1:50051. Text by default, --format json "
    "for the API's answer. Exit status: 0 done, 1 the referee refused (its "
    "reason is printed) or could not be reached, 2 usage errors.";

struct OrganiserFlags {
  std::string address;     // --address; "" for $CASSINO_ADDRESS or default
  std::string token_file;  // --admin-token-file
  std::string format = "text";
  TlsFlags tls;  // --tls-ca, --tls-server-name
};

// Adds --address, --admin-token-file, --format, --tls-ca and
// --tls-server-name to `cmd`.
void AddOrganiserFlags(CLI::App* cmd, OrganiserFlags* flags);

// The admin token: the contents of --admin-token-file, read as the referee
// reads its own --admin-token-file (trailing whitespace dropped), else
// $CASSINO_ADMIN_TOKEN. InvalidArgument saying
// how to give it when neither does, or when the file cannot be read or
// holds no token.
absl::StatusOr<std::string> ReadAdminToken(const OrganiserFlags& flags);

// A connection to the referee as its organiser.
class Organiser {
 public:
  // Exit statuses of the organiser's commands.
  static constexpr int kOk = 0;
  static constexpr int kRefused = 1;  // the referee refused or is unreachable
  static constexpr int kUsage = 2;

  // The address (flag, environment, default), the channel (plaintext, or
  // TLS with --tls-ca) and the token; on error, prints it on stderr as
  // `command`'s and returns nullptr.
  static std::unique_ptr<Organiser> Connect(const OrganiserFlags& flags,
                                            const std::string& command);

  v1::RefereeService::Stub& stub() { return *stub_; }
  const std::string& address() const { return address_; }
  bool json() const { return json_; }
  // A call's context: the token as bearer metadata, a 30 s deadline.
  std::unique_ptr<grpc::ClientContext> Context() const;

  // Prints a failed call on stderr ("cassino bot: NOT_FOUND (BOT_NOT_FOUND):
  // no bot account 'x'") and returns kRefused.
  int Fail(const grpc::Status& status) const;
  // Prints `message` as JSON (protobuf's JSON mapping, proto field names,
  // every field) and returns kOk.
  int PrintJson(const google::protobuf::Message& message) const;

 private:
  Organiser(std::string command, std::string address, std::string token,
            bool json, std::shared_ptr<grpc::Channel> channel);
  std::string command_;
  std::string address_;
  std::string token_;
  bool json_;
  std::unique_ptr<v1::RefereeService::Stub> stub_;
};

// One organiser call, as every command makes it: connects (a usage error
// when no token is given), calls `method` with `request`, and prints the
// refusal, or the answer as JSON, or `text(answer)`. Returns the exit
// status.
template <typename Request, typename Response>
int Call(
    const OrganiserFlags& flags, const std::string& command,
    grpc::Status (v1::RefereeService::Stub::*method)(grpc::ClientContext*,
                                                     const Request&, Response*),
    const Request& request,
    const std::function<std::string(const Organiser&, const Response&)>& text) {
  std::unique_ptr<Organiser> org = Organiser::Connect(flags, command);
  if (!org) return Organiser::kUsage;
  Response response;
  const grpc::Status s =
      (org->stub().*method)(org->Context().get(), request, &response);
  if (!s.ok()) return org->Fail(s);
  if (org->json()) return org->PrintJson(response);
  std::cout << text(*org, response);
  return Organiser::kOk;
}

// Text output: rows of cells under a header, each column as wide as its
// widest cell (by characters), two spaces apart, the last column unpadded.
// Every cell is escaped (recorder/display_text.h): names and reasons come
// from the referee.
std::string FormatTable(const std::vector<std::string>& header,
                        const std::vector<std::vector<std::string>>& rows);
// "key: value" lines, keys padded to the longest; values escaped.
std::string FormatFields(
    const std::vector<std::pair<std::string, std::string>>& fields);

// Unix milliseconds as "2026-11-26 21:05:03 UTC"; "-" for 0.
std::string FormatUnixMs(int64_t ms);

// "running", "finished", "aborted" ("-" unspecified).
std::string GameStatusText(v1::GameStatus status);

// A game's result in words: "seat 1 wins 21-9 (target)", "no winner
// (aborted)"; "-" while it runs.
std::string ResultText(const v1::GameResult& result, bool over);

}  // namespace cassino::cli

#endif  // CASSINO_TOOLS_CLI_ORGANISER_H_
