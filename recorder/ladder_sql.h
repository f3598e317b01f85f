// How the ladder rows (ladder_rows.h) are selected and read, shared by the
// Recorder's reads (recorder_ladders.cc) and the read-only
// ReadLadderRecords (ladder_reader.cc). Internal to the recorder.

#ifndef CASSINO_RECORDER_LADDER_SQL_H_
#define CASSINO_RECORDER_LADDER_SQL_H_

#include <string>

#include "recorder/ladder_rows.h"
#include "recorder/sqlite.h"

namespace cassino::recorder::internal {

// `SELECT kLadderColumns FROM ladders ...` reads with LadderRowOf.
inline constexpr char kLadderColumns[] =
    "name, rules, per_move_ms, bank_ms, max_illegal, duplicate, settings, "
    "status, reason, created_us, changed_us";
LadderRow LadderRowOf(const Query& q);

// A ladder's bots' health (?1 the ladder), read with LadderBotOf.
inline constexpr char kLadderBotsSql[] =
    "SELECT account, faults, probations, probation_us, until_us, reason FROM "
    "ladder_bots WHERE ladder = ?1 ORDER BY account";
LadderBotRow LadderBotOf(const Query& q, const std::string& ladder);

// A ladder's versions (?1 the ladder), read with LadderVersionOf.
inline constexpr char kLadderVersionsSql[] =
    "SELECT account, version, first_us FROM ladder_versions WHERE ladder = "
    "?1 ORDER BY account, first_us, version";
LadderVersionRow LadderVersionOf(const Query& q, const std::string& ladder);

}  // namespace cassino::recorder::internal

#endif  // CASSINO_RECORDER_LADDER_SQL_H_
