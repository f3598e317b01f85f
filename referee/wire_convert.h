// The gRPC edge's conversions between the cassino.v1 messages and the
// core's domain types (game_spec.h, lobby.h, scheduler.h). Requests become
// specs and queries; answers become responses. The core never sees a wire
// type; the few refusals that only the wire can express (an enum value
// this referee does not know) are made here, with the error the core
// would make (errors.h).

#ifndef CASSINO_REFEREE_WIRE_CONVERT_H_
#define CASSINO_REFEREE_WIRE_CONVERT_H_

#include "absl/status/statusor.h"
#include "cassino/v1/referee_service.pb.h"
#include "referee/game_spec.h"
#include "referee/lobby.h"
#include "referee/scheduler.h"

namespace cassino::service {

namespace v1 = ::cassino::v1;

// A Clock as given: a field is set when the message has it (the fields
// have presence, game.proto).
ClockSpec ClockSpecOf(const v1::Clock& clock);

// Games.
GameSpec GameSpecOf(const v1::CreateGameRequest& request);
void CreatedGameToProto(const CreatedGame& created,
                        v1::CreateGameResponse* out);
// INVALID_ARGUMENT ("status") for a status this referee does not know.
absl::StatusOr<GameQuery> GameQueryOf(const v1::ListGamesRequest& request);
void GamePageToProto(const GamePage& page, v1::ListGamesResponse* out);

// Bot accounts and the lobby.
BotRegistration BotRegistrationOf(const v1::RegisterBotRequest& request);
BotQuery BotQueryOf(const v1::ListBotsRequest& request);
void BotAccountToProto(const BotAccount& account, v1::BotAccount* out);
void BotPageToProto(const BotPage& page, v1::ListBotsResponse* out);
// A welcome, or an offer.
v1::LobbyResponse LobbyResponseOf(const LobbyEvent& event);

// Tournaments. INVALID_ARGUMENT ("spec.format") for a format this referee
// does not know.
absl::StatusOr<TournamentSpec> TournamentSpecOf(const v1::TournamentSpec& spec);
void TournamentInfoToProto(const TournamentInfo& info, v1::TournamentInfo* out);

}  // namespace cassino::service

#endif  // CASSINO_REFEREE_WIRE_CONVERT_H_
