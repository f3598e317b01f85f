// cassino health ADDRESS [--service NAME]: asks a referee's standard health
// service (grpc.health.v1.Health/Check) whether it is serving, as a
// Kubernetes probe or a load balancer does, and says so in its exit code.

#include <chrono>
#include <iostream>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "grpcpp/grpcpp.h"
#include "tools/cli/channel.h"
#include "tools/cli/commands.h"
#include "tools/health/health_check.h"

namespace cassino::cli {
namespace {

// Exit codes, as documented in docs/cli.md.
constexpr int kServing = 0;
constexpr int kNotServing = 1;
constexpr int kUsage = 2;
constexpr int kNoAnswer = 3;

struct HealthOptions {
  std::string address;
  std::string service;
  TlsFlags tls;
  int timeout_ms = 1000;
  bool signing_key = false;
};

int Check(const HealthOptions& options) {
  absl::StatusOr<std::shared_ptr<grpc::Channel>> channel =
      MakeChannel(options.address, options.tls);
  if (!channel.ok()) {
    std::cerr << "cassino health: " << channel.status().message() << "\n";
    return kUsage;
  }
  absl::StatusOr<health::ServingStatus> status =
      health::Check(*channel, options.service,
                    std::chrono::system_clock::now() +
                        std::chrono::milliseconds(options.timeout_ms));
  const std::string what =
      options.service.empty()
          ? options.address
          : absl::StrCat(options.address, " service ", options.service);
  if (!status.ok()) {
    std::cerr << "cassino health: " << what << ": " << status.status().message()
              << "\n";
    return kNoAnswer;
  }
  std::cout << what << ": " << health::ServingStatusName(*status) << "\n";
  if (options.signing_key) {
    absl::StatusOr<std::string> key = health::SigningKey(
        *channel, std::chrono::system_clock::now() +
                      std::chrono::milliseconds(options.timeout_ms));
    if (!key.ok()) {
      std::cerr << "cassino health: " << options.address
                << ": no signing key: " << key.status().message() << "\n";
      return kNoAnswer;
    }
    std::cout << options.address << ": signing key " << *key << "\n";
  }
  return *status == health::ServingStatus::kServing ? kServing : kNotServing;
}

}  // namespace

void AddHealthCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand(
      "health",
      "Ask a referee's standard health service (grpc.health.v1.Health/Check) "
      "whether it is serving. Exit 0: SERVING; 1: it answered NOT_SERVING, "
      "UNKNOWN or that it does not know the service; 2: usage error; 3: no "
      "answer (unreachable, timed out, TLS failed).");
  auto options = std::make_shared<HealthOptions>();
  cmd->add_option("address", options->address, "the referee, host:port")
      ->required();
  cmd->add_option("--service", options->service,
                  "the service to ask about ('' is the server as a whole; "
                  "the referee also answers for cassino.v1.RefereeService)");
  AddTlsFlags(cmd, &options->tls);
  cmd->add_option("--timeout-ms", options->timeout_ms,
                  "deadline of the whole check, connecting included")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_flag("--signing-key", options->signing_key,
                "also print the referee's public signing key "
                "(GetRefereeInfo; not on a --health-listen address)");
  cmd->callback([options, exit_code] { *exit_code = Check(*options); });
}

}  // namespace cassino::cli
