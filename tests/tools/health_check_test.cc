// tools/health: the health-check client's wire format and its calls against
// a gRPC server's default health service.

#include "tools/health/health_check.h"

#include <chrono>
#include <memory>
#include <string>

#include "grpcpp/generic/async_generic_service.h"
#include "gtest/gtest.h"

namespace cassino::health {
namespace {

using std::string_literals::operator""s;

TEST(HealthWireTest, RequestNamesTheService) {
  EXPECT_EQ(EncodeRequest(""), "");
  EXPECT_EQ(EncodeRequest("cassino.v1.RefereeService"),
            "\x0a\x19"
            "cassino.v1.RefereeService");
}

TEST(HealthWireTest, ResponseStatus) {
  EXPECT_EQ(*DecodeResponse(""), ServingStatus::kUnknown);
  EXPECT_EQ(*DecodeResponse("\x08\x01"), ServingStatus::kServing);
  EXPECT_EQ(*DecodeResponse("\x08\x02"), ServingStatus::kNotServing);
  EXPECT_EQ(*DecodeResponse("\x08\x03"), ServingStatus::kServiceUnknown);
  // Fields this client does not know are skipped, before or after.
  EXPECT_EQ(*DecodeResponse("\x12\x03xyz\x08\x01\x18\x05"),
            ServingStatus::kServing);
  // A status from a newer protocol is kept, and named as unrecognised.
  absl::StatusOr<ServingStatus> future = DecodeResponse("\x08\x07");
  ASSERT_TRUE(future.ok());
  EXPECT_EQ(static_cast<int>(*future), 7);
  EXPECT_EQ(ServingStatusName(*future), "unrecognised status");
}

TEST(HealthWireTest, MalformedResponsesAreErrors) {
  for (const std::string& bytes :
       {"\x08"s, "\x08\x80"s, "\x00"s, "\x00\x08\x01"s, "\x12\x05xy"s,
        "\x08\x01\x0f"s}) {
    absl::StatusOr<ServingStatus> s = DecodeResponse(bytes);
    EXPECT_FALSE(s.ok()) << testing::PrintToString(bytes);
    if (!s.ok()) {
      EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument);
    }
  }
}

// A server with nothing but gRPC's default health service (and a generic
// service answering UNIMPLEMENTED to the rest: gRPC wants one method).
class HealthServer {
 public:
  HealthServer() {
    grpc::EnableDefaultHealthCheckService(true);
    grpc::ServerBuilder builder;
    builder.RegisterCallbackGenericService(&fallback_);
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(),
                             &port_);
    server_ = builder.BuildAndStart();
  }
  grpc::Server& server() { return *server_; }
  std::shared_ptr<grpc::Channel> Channel() const {
    return grpc::CreateChannel("127.0.0.1:" + std::to_string(port_),
                               grpc::InsecureChannelCredentials());
  }

 private:
  int port_ = 0;
  grpc::CallbackGenericService fallback_;
  std::unique_ptr<grpc::Server> server_;
};

std::chrono::system_clock::time_point In(std::chrono::milliseconds ms) {
  return std::chrono::system_clock::now() + ms;
}

TEST(HealthCheckTest, AsksAboutTheNamedService) {
  HealthServer server;
  server.server().GetHealthCheckService()->SetServingStatus("up", true);
  server.server().GetHealthCheckService()->SetServingStatus("down", false);
  const auto deadline = std::chrono::seconds(10);
  EXPECT_EQ(*Check(server.Channel(), "", In(deadline)),
            ServingStatus::kServing);
  EXPECT_EQ(*Check(server.Channel(), "up", In(deadline)),
            ServingStatus::kServing);
  EXPECT_EQ(*Check(server.Channel(), "down", In(deadline)),
            ServingStatus::kNotServing);
  EXPECT_EQ(*Check(server.Channel(), "nobody", In(deadline)),
            ServingStatus::kServiceUnknown);
  // Shutting the health service down turns everything NOT_SERVING.
  server.server().GetHealthCheckService()->Shutdown();
  EXPECT_EQ(*Check(server.Channel(), "up", In(deadline)),
            ServingStatus::kNotServing);
}

TEST(HealthCheckTest, AServerThatIsGoneIsAnError) {
  HealthServer gone;
  std::shared_ptr<grpc::Channel> channel = gone.Channel();
  gone.server().Shutdown();
  absl::StatusOr<ServingStatus> s =
      Check(channel, "", In(std::chrono::seconds(10)));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), absl::StatusCode::kUnavailable);
}

}  // namespace
}  // namespace cassino::health
