// What a gRPC call says in its metadata: its credential (`authorization:
// Bearer <token>`) and, for a Play stream, its mode (`cassino-play-mode`).
// The edge reads them; the core (Registry, GameSession) only ever sees the
// token itself and a PlayMode.

#ifndef CASSINO_REFEREE_BEARER_H_
#define CASSINO_REFEREE_BEARER_H_

#include <map>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "grpcpp/support/string_ref.h"
#include "referee/session_events.h"

namespace cassino::service {

// The token of `authorization: Bearer <token>` metadata, if present and
// well formed (the scheme in any case, at most 512 bytes, whitespace around
// the token dropped); nullopt otherwise.
std::optional<std::string> BearerToken(
    const std::multimap<grpc::string_ref, grpc::string_ref>& metadata);

// The mode `cassino-play-mode` metadata names: "full" (also when absent) or
// "compact"; INVALID_ARGUMENT (INVALID_REQUEST) for anything else.
absl::StatusOr<PlayMode> PlayModeOf(
    const std::multimap<grpc::string_ref, grpc::string_ref>& metadata);

}  // namespace cassino::service

#endif  // CASSINO_REFEREE_BEARER_H_
