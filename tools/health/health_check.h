// A client of the standard gRPC health service (grpc.health.v1.Health/Check),
// as Kubernetes probes and load balancers use it: `cassino health` and tests;
// and of the referee's GetRefereeInfo, for its signing key.
//
// The health messages are tiny and fixed by the gRPC health protocol
// (HealthCheckRequest{string service = 1}, HealthCheckResponse{ServingStatus
// status = 1}), and Debian ships no compiled health.proto for C++, so they
// are encoded and decoded here with protobuf's wire-format primitives and
// sent over a generic call.

#ifndef CASSINO_TOOLS_HEALTH_HEALTH_CHECK_H_
#define CASSINO_TOOLS_HEALTH_HEALTH_CHECK_H_

#include <chrono>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "grpcpp/grpcpp.h"

namespace cassino::health {

// grpc.health.v1.HealthCheckResponse.ServingStatus, numbered as on the wire.
enum class ServingStatus {
  kUnknown = 0,
  kServing = 1,
  kNotServing = 2,
  kServiceUnknown = 3,
};

// "SERVING", "NOT_SERVING", ... as the protocol names them.
std::string_view ServingStatusName(ServingStatus status);

// The serialised HealthCheckRequest asking about `service` ("" is the server
// as a whole).
std::string EncodeRequest(std::string_view service);

// The status in a serialised HealthCheckResponse. Fields other than `status`
// are skipped; an absent status is kUnknown, as proto3 defaults it; a value
// outside the enum is kept as it came. InvalidArgument for bytes that do not
// parse.
absl::StatusOr<ServingStatus> DecodeResponse(std::string_view bytes);

// Asks the server behind `channel` about `service`, waiting at most until
// `deadline` (connecting included). A server that does not know the service
// answers NOT_FOUND, which is returned as kServiceUnknown; any other failed
// call is its gRPC status (UNAVAILABLE, DEADLINE_EXCEEDED, ...), a malformed
// answer InvalidArgument.
absl::StatusOr<ServingStatus> Check(
    std::shared_ptr<grpc::Channel> channel, const std::string& service,
    std::chrono::system_clock::time_point deadline);

// The signing key in a serialised cassino.v1.GetRefereeInfoResponse (field
// 1, a string); other fields are skipped. InvalidArgument for bytes that
// do not parse.
absl::StatusOr<std::string> DecodeSigningKey(std::string_view bytes);

// Asks the referee behind `channel` for its public signing key
// (cassino.v1.RefereeService/GetRefereeInfo, no token): 64 hex digits. A
// failed call is its gRPC status (UNIMPLEMENTED on a --health-listen
// address, which serves nothing else).
absl::StatusOr<std::string> SigningKey(
    std::shared_ptr<grpc::Channel> channel,
    std::chrono::system_clock::time_point deadline);

}  // namespace cassino::health

#endif  // CASSINO_TOOLS_HEALTH_HEALTH_CHECK_H_
