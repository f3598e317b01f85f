// Requests that do not decode: INVALID_ARGUMENT with a message.
//
// gRPC 1.51's callback API answers a unary or server-streaming call whose
// request bytes do not parse as the method's request message with
// UNIMPLEMENTED and an empty message, before any handler of ours runs. A
// server interceptor sees that case exactly: the request message it is
// handed after receipt (POST_RECV_MESSAGE) is null. It then replaces the
// status sent (PRE_SEND_STATUS) with INVALID_ARGUMENT, reason
// UNDECODABLE_REQUEST, saying which message was expected.
//
// The Play stream is not covered by the interceptor: there a message that
// does not parse reaches the reactor as a failed read, as the bot's
// half-close does. The Play reactor reads raw bytes and parses them itself
// (referee_service.cc).

#ifndef CASSINO_REFEREE_UNDECODABLE_H_
#define CASSINO_REFEREE_UNDECODABLE_H_

#include <memory>

#include "grpcpp/support/server_interceptor.h"

namespace cassino::service {

// The interceptor factory to install on the referee's server
// (ServerBuilder::experimental().SetInterceptorCreators).
std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>
UndecodableRequestInterceptor();

}  // namespace cassino::service

#endif  // CASSINO_REFEREE_UNDECODABLE_H_
