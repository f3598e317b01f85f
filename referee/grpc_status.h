// The gRPC edge's statuses: the core's errors (errors.h) as grpc::Status.
//
// Every error the service returns carries a serialized google.rpc.Status in
// grpc::Status::binary_error_details (the standard `grpc-status-details-bin`
// trailer) with a google.rpc.ErrorInfo (domain "cassino.v1", the error's
// reason, its metadata) and, when the error names request fields, a
// google.rpc.BadRequest with one violation per field. ToGrpc is the one
// place that builds that trailer.

#ifndef CASSINO_REFEREE_GRPC_STATUS_H_
#define CASSINO_REFEREE_GRPC_STATUS_H_

#include <initializer_list>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "grpcpp/support/status.h"
#include "referee/errors.h"

namespace cassino::service {

// The gRPC status of `status`: the same code and message, and its details
// as binary_error_details. An error without a reason gets INVALID_REQUEST
// for INVALID_ARGUMENT, else the code's name (e.g. "INTERNAL",
// "DATA_LOSS"): every error carries a reason.
grpc::Status ToGrpc(const absl::Status& status);

// `status` with details: unchanged if it has some or is OK, else with an
// ErrorInfo whose reason is the code's name. The service's replies pass
// through here, so that no error leaves without a reason.
grpc::Status WithDetails(const grpc::Status& status);

// Shorthands: the gRPC status of Error(...) and InvalidField(...).
inline grpc::Status GrpcError(
    grpc::StatusCode code, Reason reason, absl::string_view message,
    std::initializer_list<std::pair<absl::string_view, std::string>> metadata =
        {}) {
  return ToGrpc(
      Error(static_cast<absl::StatusCode>(code), reason, message, metadata));
}
inline grpc::Status Invalid(absl::string_view field,
                            absl::string_view message) {
  return ToGrpc(InvalidField(field, message));
}

}  // namespace cassino::service

#endif  // CASSINO_REFEREE_GRPC_STATUS_H_
