// The rows of a ladder (schemas/006_ladders.sql, docs/record_format.md):
// what the referee's ladders (referee/ladder.h) write through the Recorder
// and read back at start, and what `cassino stats --ladder` and the viewer
// read. Plain values.

#ifndef CASSINO_RECORDER_LADDER_ROWS_H_
#define CASSINO_RECORDER_LADDER_ROWS_H_

#include <cstdint>
#include <string>

#include "recorder/record.h"

namespace cassino::recorder {

// A ladder (table ladders).
struct LadderRow {
  std::string name;  // also the label of its games
  std::string rules;
  TimeControl clock;
  bool duplicate = false;
  std::string settings = "{}";  // JSON object (referee/ladder_spec.h)
  std::string status = "open";  // "open", "paused" or "closed"
  std::string reason;           // why it was paused or closed
  int64_t created_us = 0;
  int64_t changed_us = 0;
  friend bool operator==(const LadderRow&, const LadderRow&) = default;
};

// A version an account joined a ladder with (table ladder_versions).
struct LadderVersionRow {
  std::string ladder;
  std::string account;
  std::string version;
  int64_t first_us = 0;
  friend bool operator==(const LadderVersionRow&,
                         const LadderVersionRow&) = default;
};

// An account's health in a ladder (table ladder_bots).
struct LadderBotRow {
  std::string ladder;
  std::string account;
  int faults = 0;            // games in a row ended by its fault
  int probations = 0;        // times put on probation
  int64_t probation_us = 0;  // when the current one began; 0: none
  int64_t until_us = 0;      // its earliest end; 0: none
  std::string reason;
  friend bool operator==(const LadderBotRow&, const LadderBotRow&) = default;
};

// A ladder game, written before the game (table ladder_games).
struct LadderGameRow {
  std::string ladder;
  std::string game_id;
  int64_t created_us = 0;
  std::string twin_of;  // the first game of its duplicate pair, or ""
  friend bool operator==(const LadderGameRow&, const LadderGameRow&) = default;
};

}  // namespace cassino::recorder

#endif  // CASSINO_RECORDER_LADDER_ROWS_H_
