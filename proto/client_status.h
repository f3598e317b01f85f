// What a client of the referee reads from a failed call: the status code's
// name ("INVALID_ARGUMENT") and the stable reason of its ErrorInfo detail
// ("ILLEGAL_MOVE"; docs/referee.md, *Error details*). Shared by the
// organiser's commands and the viewer's seat relay.
//
// Lifetimes: values.

#ifndef CASSINO_PROTO_CLIENT_STATUS_H_
#define CASSINO_PROTO_CLIENT_STATUS_H_

#include <string>

#include "grpcpp/grpcpp.h"

namespace cassino {

// "OK", "CANCELLED", ... "UNAUTHENTICATED"; "UNKNOWN" for a code out of
// range.
const char* StatusCodeName(grpc::StatusCode code);

// The ErrorInfo reason of the status's details; "" if none.
std::string ErrorReason(const grpc::Status& status);

}  // namespace cassino

#endif  // CASSINO_PROTO_CLIENT_STATUS_H_
