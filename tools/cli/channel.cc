#include "tools/cli/channel.h"

#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "recorder/display_text.h"

namespace cassino::cli {

void AddTlsFlags(CLI::App* cmd, TlsFlags* flags) {
  cmd->add_option("--tls-ca", flags->ca,
                  "PEM root certificates: connect with TLS and verify the "
                  "referee's certificate against them (default: plaintext)");
  cmd->add_option("--tls-server-name", flags->server_name,
                  "the name the certificate must hold, when it differs from "
                  "the address's host (e.g. through a port forward)");
}

absl::StatusOr<std::shared_ptr<grpc::Channel>> MakeChannel(
    const std::string& address, const TlsFlags& flags) {
  grpc::ChannelArguments args;
  if (flags.ca.empty() && !flags.server_name.empty()) {
    return absl::InvalidArgumentError("--tls-server-name needs --tls-ca");
  }
  if (flags.ca.empty()) {
    return grpc::CreateCustomChannel(address,
                                     grpc::InsecureChannelCredentials(), args);
  }
  std::ifstream in(flags.ca, std::ios::binary);
  if (!in) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot read ", recorder::EscapeDisplay(flags.ca)));
  }
  std::stringstream pem;
  pem << in.rdbuf();
  grpc::SslCredentialsOptions ssl;
  ssl.pem_root_certs = pem.str();
  if (!flags.server_name.empty()) {
    args.SetSslTargetNameOverride(flags.server_name);
  }
  return grpc::CreateCustomChannel(address, grpc::SslCredentials(ssl), args);
}

}  // namespace cassino::cli
