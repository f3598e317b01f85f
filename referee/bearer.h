// How a gRPC call presents a credential: `authorization: Bearer <token>`
// metadata. The edge extracts the token; the core (Registry) only ever sees
// the token itself.

#ifndef CASSINO_REFEREE_BEARER_H_
#define CASSINO_REFEREE_BEARER_H_

#include <map>
#include <optional>
#include <string>

#include "grpcpp/support/string_ref.h"

namespace cassino::service {

// The token of `authorization: Bearer <token>` metadata, if present and
// well formed (the scheme in any case, at most 512 bytes, whitespace around
// the token dropped); nullopt otherwise.
std::optional<std::string> BearerToken(
    const std::multimap<grpc::string_ref, grpc::string_ref>& metadata);

}  // namespace cassino::service

#endif  // CASSINO_REFEREE_BEARER_H_
