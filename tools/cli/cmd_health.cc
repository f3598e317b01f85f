// cassino health ADDRESS [--service NAME]: asks a referee's standard health
// service (grpc.health.v1.Health/Check) whether it is serving, as a
// Kubernetes probe or a load balancer does, and says so in its exit code.
//
// The health messages are tiny and fixed by the gRPC health protocol
// (HealthCheckRequest{string service = 1}, HealthCheckResponse{ServingStatus
// status = 1}), and Debian ships no compiled health.proto for C++, so they
// are encoded and decoded here with protobuf's wire-format primitives over a
// generic call.

#include <chrono>
#include <condition_variable>
#include <fstream>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "google/protobuf/wire_format_lite.h"
#include "grpcpp/generic/generic_stub.h"
#include "grpcpp/grpcpp.h"
#include "tools/cli/commands.h"

namespace cassino::cli {
namespace {

using google::protobuf::internal::WireFormatLite;

// Exit codes, as documented in docs/cli.md.
constexpr int kServing = 0;
constexpr int kNotServing = 1;
constexpr int kUsage = 2;
constexpr int kNoAnswer = 3;

// grpc.health.v1.HealthCheckResponse.ServingStatus.
const char* StatusName(uint32_t status) {
  switch (status) {
    case 0:
      return "UNKNOWN";
    case 1:
      return "SERVING";
    case 2:
      return "NOT_SERVING";
    case 3:
      return "SERVICE_UNKNOWN";
    default:
      return "unrecognised status";
  }
}

struct HealthOptions {
  std::string address;
  std::string service;
  std::string tls_ca;
  std::string tls_server_name;
  int timeout_ms = 1000;
};

// HealthCheckRequest{service}.
std::string EncodeRequest(const std::string& service) {
  std::string bytes;
  if (service.empty()) return bytes;  // proto3: a default field is omitted
  google::protobuf::io::StringOutputStream out(&bytes);
  google::protobuf::io::CodedOutputStream coded(&out);
  WireFormatLite::WriteString(1, service, &coded);
  coded.Trim();
  return bytes;
}

// HealthCheckResponse.status; fields this client does not know are skipped.
std::optional<uint32_t> DecodeStatus(const std::string& bytes) {
  google::protobuf::io::CodedInputStream in(
      reinterpret_cast<const uint8_t*>(bytes.data()),
      static_cast<int>(bytes.size()));
  uint32_t status = 0;  // absent means UNKNOWN (0)
  while (uint32_t tag = in.ReadTag()) {
    if (tag == WireFormatLite::MakeTag(1, WireFormatLite::WIRETYPE_VARINT)) {
      if (!in.ReadVarint32(&status)) return std::nullopt;
    } else if (!WireFormatLite::SkipField(&in, tag)) {
      return std::nullopt;
    }
  }
  if (!in.ConsumedEntireMessage()) return std::nullopt;
  return status;
}

absl::StatusOr<std::shared_ptr<grpc::Channel>> Connect(
    const HealthOptions& options) {
  grpc::ChannelArguments args;
  if (options.tls_ca.empty() && !options.tls_server_name.empty()) {
    return absl::InvalidArgumentError("--tls-server-name needs --tls-ca");
  }
  if (options.tls_ca.empty()) {
    return grpc::CreateCustomChannel(options.address,
                                     grpc::InsecureChannelCredentials(), args);
  }
  std::ifstream in(options.tls_ca, std::ios::binary);
  if (!in) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot read ", options.tls_ca));
  }
  std::stringstream pem;
  pem << in.rdbuf();
  grpc::SslCredentialsOptions ssl;
  ssl.pem_root_certs = pem.str();
  if (!options.tls_server_name.empty()) {
    args.SetSslTargetNameOverride(options.tls_server_name);
  }
  return grpc::CreateCustomChannel(options.address, grpc::SslCredentials(ssl),
                                   args);
}

int Check(const HealthOptions& options) {
  absl::StatusOr<std::shared_ptr<grpc::Channel>> channel = Connect(options);
  if (!channel.ok()) {
    std::cerr << "cassino health: " << channel.status().message() << "\n";
    return kUsage;
  }
  grpc::GenericStub stub(*channel);
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() +
                       std::chrono::milliseconds(options.timeout_ms));
  const std::string request_bytes = EncodeRequest(options.service);
  grpc::Slice slice(request_bytes);
  grpc::ByteBuffer request(&slice, 1), response;

  std::mutex mu;
  std::condition_variable done_cv;
  bool done = false;
  grpc::Status status;
  stub.UnaryCall(&context, "/grpc.health.v1.Health/Check", grpc::StubOptions(),
                 &request, &response, [&](grpc::Status s) {
                   std::lock_guard<std::mutex> lock(mu);
                   status = std::move(s);
                   done = true;
                   done_cv.notify_all();
                 });
  {
    std::unique_lock<std::mutex> lock(mu);
    done_cv.wait(lock, [&] { return done; });
  }

  const std::string what =
      options.service.empty()
          ? options.address
          : absl::StrCat(options.address, " service ", options.service);
  if (status.error_code() == grpc::StatusCode::NOT_FOUND) {
    // The health protocol's answer for a service the server does not know.
    std::cout << what << ": SERVICE_UNKNOWN\n";
    return kNotServing;
  }
  if (!status.ok()) {
    std::cerr << "cassino health: " << what
              << ": no answer: " << status.error_message() << "\n";
    return kNoAnswer;
  }
  std::vector<grpc::Slice> slices;
  std::string bytes;
  if (response.Dump(&slices).ok()) {
    for (const grpc::Slice& s : slices) {
      bytes.append(reinterpret_cast<const char*>(s.begin()), s.size());
    }
  }
  std::optional<uint32_t> serving = DecodeStatus(bytes);
  if (!serving) {
    std::cerr << "cassino health: " << what
              << ": malformed HealthCheckResponse\n";
    return kNoAnswer;
  }
  std::cout << what << ": " << StatusName(*serving) << "\n";
  return *serving == 1 ? kServing : kNotServing;
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
  cmd->add_option("--tls-ca", options->tls_ca,
                  "PEM root certificates: connect with TLS and verify the "
                  "referee's certificate against them (default: plaintext)");
  cmd->add_option("--tls-server-name", options->tls_server_name,
                  "the name the certificate must hold, when it differs from "
                  "the address's host (e.g. through a port forward)");
  cmd->add_option("--timeout-ms", options->timeout_ms,
                  "deadline of the whole check, connecting included")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->callback([options, exit_code] { *exit_code = Check(*options); });
}

}  // namespace cassino::cli
