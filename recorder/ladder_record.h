// A recorded game as a ladder rates it: the one conversion from the
// record's summary (the games row, which `cassino verify` checks against
// the signed events) to competition::LadderGame, used by the referee's
// ladders when they load and by `cassino stats --ladder` and the viewer,
// so that all of them feed the ladder table the same games
// (docs/ladder.md, *Auditing*).

#ifndef CASSINO_RECORDER_LADDER_RECORD_H_
#define CASSINO_RECORDER_LADDER_RECORD_H_

#include <optional>

#include "competition/ladder_table.h"
#include "recorder/recorder.h"

namespace cassino::recorder {

// The game's sides (each seat's bot name on its rule set's side: partners
// together), winner, totals and times; nullopt unless it finished (an
// aborted or running game is not rated) and its rules parse.
std::optional<competition::LadderGame> LadderGameOf(const GameSummary& game);

}  // namespace cassino::recorder

#endif  // CASSINO_RECORDER_LADDER_RECORD_H_
