// One game of a tournament whose bots are launched here: the step the
// fixed-schedule runner (tournament.h) and the SPRT match (sprt_match.h)
// share. Internal to tools/tournament.
//
// RunGame creates the game on the referee at `address` (the organiser token
// of `options`), starts each seat's bot command, waits for the end (or the
// time limit; a watch broken by a referee restart is opened again) and
// stops what is left of the bots. It never fails as a call: a game that
// could not be played has GameOutcome::error set, and `unreachable` (if
// given) is set when the referee could not be reached to create it (no game
// was created: the caller may try again later). Thread-safe for concurrent
// calls on one stub.

#ifndef CASSINO_TOOLS_TOURNAMENT_RUN_GAME_H_
#define CASSINO_TOOLS_TOURNAMENT_RUN_GAME_H_

#include <string>

#include "cassino/v1/referee_service.grpc.pb.h"
#include "tools/tournament/tournament.h"

namespace cassino::tournament {

GameOutcome RunGame(const TournamentOptions& options,
                    const std::string& address, v1::RefereeService::Stub& stub,
                    const GameSpec& spec, bool* unreachable = nullptr);

}  // namespace cassino::tournament

#endif  // CASSINO_TOOLS_TOURNAMENT_RUN_GAME_H_
