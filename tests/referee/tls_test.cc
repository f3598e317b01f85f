// The referee over TLS, with and without client certificates. Certificates
// are made for each run with the openssl command (a CA, a server
// certificate for 127.0.0.1, a client certificate).

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "gtest/gtest.h"
#include "tests/referee/test_referee.h"

namespace cassino::testing {
namespace {

std::string Read(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class TlsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = TempDir();
    const std::string d = dir_.string();
    const std::string script = "cd '" + d + R"(' && set -e
      openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=test-ca \
        -keyout ca.key -out ca.pem 2>/dev/null
      printf 'subjectAltName=IP:127.0.0.1\n' > san.ext
      openssl req -newkey rsa:2048 -nodes -subj /CN=127.0.0.1 \
        -keyout server.key -out server.csr 2>/dev/null
      openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key \
        -CAcreateserial -days 1 -extfile san.ext -out server.pem 2>/dev/null
      openssl req -newkey rsa:2048 -nodes -subj /CN=bot \
        -keyout client.key -out client.csr 2>/dev/null
      openssl x509 -req -in client.csr -CA ca.pem -CAkey ca.key \
        -CAcreateserial -days 1 -out client.pem 2>/dev/null)";
    ASSERT_EQ(std::system(script.c_str()), 0) << "openssl failed";
  }

  std::unique_ptr<service::RefereeServer> Start(bool client_certs) {
    service::ServerOptions options;
    options.listen = "127.0.0.1:0";
    options.db_path = (dir_ / "cassino.db").string();
    options.admin_token = kAdminToken;
    options.tls_cert_pem = Read(dir_ / "server.pem");
    options.tls_key_pem = Read(dir_ / "server.key");
    if (client_certs) options.tls_client_ca_pem = Read(dir_ / "ca.pem");
    auto server = service::RefereeServer::Start(options);
    EXPECT_TRUE(server.ok()) << server.status();
    return server.ok() ? std::move(*server) : nullptr;
  }

  // A ListGames call over TLS; the status code.
  grpc::StatusCode List(int port, bool with_client_cert) {
    grpc::SslCredentialsOptions ssl;
    ssl.pem_root_certs = Read(dir_ / "ca.pem");
    if (with_client_cert) {
      ssl.pem_private_key = Read(dir_ / "client.key");
      ssl.pem_cert_chain = Read(dir_ / "client.pem");
    }
    auto channel = grpc::CreateChannel("127.0.0.1:" + std::to_string(port),
                                       grpc::SslCredentials(ssl));
    auto stub = v1::RefereeService::NewStub(channel);
    v1::ListGamesRequest req;
    v1::ListGamesResponse resp;
    return stub
        ->ListGames(TestReferee::Context(kAdminToken, 5000).get(), req, &resp)
        .error_code();
  }

  std::filesystem::path dir_;
};

TEST_F(TlsTest, ServerCertificateOnly) {
  auto server = Start(/*client_certs=*/false);
  ASSERT_NE(server, nullptr);
  EXPECT_EQ(List(server->port(), false), grpc::StatusCode::OK);
  // A plaintext client cannot talk to a TLS server.
  auto plain = v1::RefereeService::NewStub(
      grpc::CreateChannel("127.0.0.1:" + std::to_string(server->port()),
                          grpc::InsecureChannelCredentials()));
  v1::ListGamesRequest req;
  v1::ListGamesResponse resp;
  EXPECT_EQ(
      plain
          ->ListGames(TestReferee::Context(kAdminToken, 2000).get(), req, &resp)
          .error_code(),
      grpc::StatusCode::UNAVAILABLE);
}

TEST_F(TlsTest, ClientCertificatesRequired) {
  auto server = Start(/*client_certs=*/true);
  ASSERT_NE(server, nullptr);
  EXPECT_EQ(List(server->port(), true), grpc::StatusCode::OK);
  EXPECT_EQ(List(server->port(), false), grpc::StatusCode::UNAVAILABLE);
}

}  // namespace
}  // namespace cassino::testing
