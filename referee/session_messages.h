// The gRPC edge's rendering of what a game session says (session_events.h)
// and of the core's game facts (game_info.h) as cassino.v1 messages. The
// only place the session's domain types meet the wire.

#ifndef CASSINO_REFEREE_SESSION_MESSAGES_H_
#define CASSINO_REFEREE_SESSION_MESSAGES_H_

#include <memory>
#include <string>

#include "cassino/v1/referee_service.pb.h"
#include "recorder/record.h"
#include "recorder/recorder.h"
#include "referee/game_info.h"
#include "referee/session_events.h"

namespace cassino::service {

namespace v1 = ::cassino::v1;

// A game status as the API names it.
v1::GameStatus ProtoStatus(recorder::GameStatus status);

// The game's facts as the API gives them.
void InfoToProto(const GameInfo& info, v1::GameInfo* out);

// The time control in force, every field set.
void ClockToProto(const recorder::TimeControl& clock, v1::Clock* out);

// The game's static facts as a seat is told them.
void GameStartedToProto(const GameStartedEvent& event, v1::GameStarted* out);

// A seat's event as a cassino.v1.PlayResponse.
std::shared_ptr<const v1::PlayResponse> PlayMessage(const SeatEvent& event);

// A seat's event as its Play stream writes it: the bytes of PlayMessage's
// message, serialised. A YourTurn, the largest and most frequent, is
// written straight from the event (proto/wire_encode.h) to the same bytes;
// the others are PlayMessage's, serialised. Rendered once per event (its
// RenderSlot) and shared by every stream it is sent on.
struct PlayFrame {
  std::string bytes;
};
std::shared_ptr<const PlayFrame> PlayFrameOf(const SeatEvent& event);

// A spectator's event as WatchGame sends it. Rendered once per event (its
// RenderSlot) and shared by every stream it is sent on.
std::shared_ptr<const v1::WatchGameResponse> WatchMessage(
    const PublicEvent& event);

// A verdict as SubmitMove answers it (and the Play stream's MoveVerdict).
v1::SubmitMoveResponse VerdictResponse(const Verdict& verdict);

// A seat's situation as GetTurn answers it.
v1::GetTurnResponse TurnResponseProto(const TurnView& view);

}  // namespace cassino::service

#endif  // CASSINO_REFEREE_SESSION_MESSAGES_H_
