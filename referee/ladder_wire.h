// The gRPC edge's conversions of the ladders' messages (referee_service.proto,
// *Ladders*) to and from the core's types (ladder_spec.h).

#ifndef CASSINO_REFEREE_LADDER_WIRE_H_
#define CASSINO_REFEREE_LADDER_WIRE_H_

#include "cassino/v1/referee_service.pb.h"
#include "referee/ladder_spec.h"

namespace cassino::service {

namespace v1 = ::cassino::v1;

LadderSpec LadderSpecOf(const v1::LadderSpec& spec);
void LadderInfoToProto(const LadderInfo& info, v1::LadderInfo* out);
LeaderboardQuery LeaderboardQueryOf(const v1::GetLeaderboardRequest& request);
void LeaderboardPageToProto(const LeaderboardPage& page,
                            v1::GetLeaderboardResponse* out);

}  // namespace cassino::service

#endif  // CASSINO_REFEREE_LADDER_WIRE_H_
