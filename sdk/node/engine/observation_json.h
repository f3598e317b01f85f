// An Observation (rules/observation.h) from the JSON of a cassino.v1
// Observation message as the Node SDK holds it (@grpc/proto-loader with
// keepCase and defaults: snake_case fields; unset messages null). The
// earlier rounds' results are not carried over (their totals are, in
// `sides`). InvalidArgument names what is malformed or inconsistent.

#ifndef CASSINO_SDK_NODE_ENGINE_OBSERVATION_JSON_H_
#define CASSINO_SDK_NODE_ENGINE_OBSERVATION_JSON_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "rules/observation.h"

namespace cassino::node_engine {

absl::StatusOr<Observation> ObservationFromJson(absl::string_view text);

}  // namespace cassino::node_engine

#endif  // CASSINO_SDK_NODE_ENGINE_OBSERVATION_JSON_H_
