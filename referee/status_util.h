// Small helpers shared by the service's files: gRPC statuses built from
// messages or from absl statuses, and the wall clock as the records keep it.

#ifndef CASSINO_REFEREE_STATUS_UTIL_H_
#define CASSINO_REFEREE_STATUS_UTIL_H_

#include <chrono>
#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "grpcpp/support/status.h"

namespace cassino::service {

// Now, as Unix time in microseconds (the records' `*_us`).
inline int64_t UnixMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// INVALID_ARGUMENT with `message`: a request the referee refuses as made.
inline grpc::Status Invalid(const std::string& message) {
  return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, message);
}

// The same code and message as a gRPC status (absl's codes are gRPC's).
inline grpc::Status FromAbsl(const absl::Status& s) {
  return grpc::Status(static_cast<grpc::StatusCode>(s.code()),
                      std::string(s.message()));
}

}  // namespace cassino::service

#endif  // CASSINO_REFEREE_STATUS_UTIL_H_
