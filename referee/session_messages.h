// The API messages a game session builds from the engine's state, and
// what it reads from requests: statuses, deal events, verdicts, clocks.
// Stateless helpers of referee/game_session.cc.

#ifndef CASSINO_REFEREE_SESSION_MESSAGES_H_
#define CASSINO_REFEREE_SESSION_MESSAGES_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "cassino/v1/referee_service.pb.h"
#include "recorder/record.h"
#include "referee/channel.h"
#include "referee/game_info.h"
#include "rules/game.h"

namespace cassino::service {

namespace v1 = ::cassino::v1;

// A game status as the API names it.
v1::GameStatus ProtoStatus(recorder::GameStatus status);

// The game's facts as the API gives them.
void InfoToProto(const GameInfo& info, v1::GameInfo* out);

// The game's status as the API names it.
v1::GameStatus StatusOf(const Game& game);

// The spectators' event of the deal just made: the table, the stock size,
// and on a round's first deal what was taken from the table
// (initial_pairs).
v1::WatchGameResponse DealInfoEvent(const Game& game);

// The public events of `game` from its first deal to its current state, as
// the live game published them: each deal's DealInfo, each move played (as
// spectators see it), each round's result, in order; not the GameStarted
// before them nor the GameEnded after. The game is replayed from its rules
// and decks, so a resumed game's spectators see what the live ones saw.
std::vector<v1::WatchGameResponse> PublicHistory(const Game& game);

// The seat to move; -1 when the game is over.
int NextToMove(const Game& game);

// The answer to a submission: accepted (code OK, `move` as played) or
// refused (`move` as submitted, with the reason).
v1::SubmitMoveResponse Answer(const Game& game, int turn, v1::Move move,
                              absl::StatusCode code, std::string reason,
                              int illegal_left, int next_to_move);

// The answer to a submission whose record write failed: not accepted (code
// UNAVAILABLE, RECORD_UNAVAILABLE), the game still running with `to_move`
// to move; it names nothing the move would have revealed (no card drawn).
v1::SubmitMoveResponse UnrecordedAnswer(int turn, v1::Move move,
                                        const absl::Status& why, int to_move);

// draw=on: the card drawn after an accepted move, in the verdict for
// `seat` (the submitter) if it may see it.
void SetDrawn(const PlayedMove& played, int seat, v1::MoveVerdict* verdict);

// The move as the API gives it.
v1::Move MoveProto(const Move& move);

// The request field a move's decoding error names ("move.card: ..." is
// about move.card); "move" when it names none.
std::string MoveField(absl::string_view message);

// The time control in force, every field set.
void ClockToProto(const recorder::TimeControl& clock, v1::Clock* out);

// Every event of a record as a spectator is sent it.
std::vector<std::shared_ptr<const v1::WatchGameResponse>> RecordEvents(
    const recorder::GameRecord& record);

}  // namespace cassino::service

#endif  // CASSINO_REFEREE_SESSION_MESSAGES_H_
