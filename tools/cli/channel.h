// The channel a command opens to a referee: plaintext, or TLS verified
// against given root certificates (`cassino health`, the organiser's
// commands).

#ifndef CASSINO_TOOLS_CLI_CHANNEL_H_
#define CASSINO_TOOLS_CLI_CHANNEL_H_

#include <memory>
#include <string>

#include "CLI/CLI.hpp"
#include "absl/status/statusor.h"
#include "grpcpp/grpcpp.h"

namespace cassino::cli {

struct TlsFlags {
  std::string ca;           // --tls-ca: PEM root certificates; "": plaintext
  std::string server_name;  // --tls-server-name
};

// Adds --tls-ca and --tls-server-name to `cmd`.
void AddTlsFlags(CLI::App* cmd, TlsFlags* flags);

// A channel to `address` (host:port): plaintext without flags.ca, else TLS
// verified against the roots in that file, the certificate holding
// flags.server_name when it is given. InvalidArgument for an unreadable
// file, or a server name without a CA.
absl::StatusOr<std::shared_ptr<grpc::Channel>> MakeChannel(
    const std::string& address, const TlsFlags& flags);

}  // namespace cassino::cli

#endif  // CASSINO_TOOLS_CLI_CHANNEL_H_
