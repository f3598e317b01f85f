// Issue #14, Low 6: server reflection v1 (besides v1alpha) describes every
// service the referee lists, the health service included; health answers
// for the API's service name.

#include <string>
#include <vector>

#include "grpc/health/v1/health.grpc.pb.h"
#include "grpc/reflection/v1/reflection.grpc.pb.h"
#include "gtest/gtest.h"
#include "tests/referee/test_referee.h"

namespace cassino::testing {
namespace {

namespace rv1 = ::grpc::reflection::v1;

TEST(ReflectionTest, V1ListsAndResolvesEveryService) {
  const auto dir = TempDir();
  TestReferee referee(dir / "r.db");
  auto stub = rv1::ServerReflection::NewStub(referee.channel());
  grpc::ClientContext ctx;
  auto stream = stub->ServerReflectionInfo(&ctx);
  rv1::ServerReflectionRequest list;
  list.set_list_services("");
  ASSERT_TRUE(stream->Write(list));
  rv1::ServerReflectionResponse response;
  ASSERT_TRUE(stream->Read(&response));
  std::vector<std::string> services;
  for (const rv1::ServiceResponse& s :
       response.list_services_response().service()) {
    services.push_back(s.name());
  }
  EXPECT_EQ(services, (std::vector<std::string>{
                          "cassino.v1.RefereeService",
                          "grpc.health.v1.Health",
                          "grpc.reflection.v1.ServerReflection",
                          "grpc.reflection.v1alpha.ServerReflection",
                      }));
  for (const std::string& name : services) {
    rv1::ServerReflectionRequest find;
    find.set_file_containing_symbol(name);
    ASSERT_TRUE(stream->Write(find));
    ASSERT_TRUE(stream->Read(&response));
    EXPECT_FALSE(response.has_error_response())
        << name << ": " << response.error_response().error_message();
    EXPECT_GT(response.file_descriptor_response().file_descriptor_proto_size(),
              0)
        << name;
  }
  rv1::ServerReflectionRequest unknown;
  unknown.set_file_containing_symbol("no.such.Service");
  ASSERT_TRUE(stream->Write(unknown));
  ASSERT_TRUE(stream->Read(&response));
  EXPECT_EQ(response.error_response().error_code(),
            static_cast<int>(grpc::StatusCode::NOT_FOUND));
  stream->WritesDone();
  EXPECT_TRUE(stream->Finish().ok());

  auto health = grpc::health::v1::Health::NewStub(referee.channel());
  for (const std::string service : {"", "cassino.v1.RefereeService"}) {
    grpc::health::v1::HealthCheckRequest req;
    req.set_service(service);
    grpc::health::v1::HealthCheckResponse resp;
    grpc::ClientContext hctx;
    ASSERT_TRUE(health->Check(&hctx, req, &resp).ok()) << service;
    EXPECT_EQ(resp.status(), grpc::health::v1::HealthCheckResponse::SERVING)
        << service;
  }
}

}  // namespace
}  // namespace cassino::testing
