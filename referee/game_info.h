// A game as an organiser sees it: public facts only (no hand, no seed
// before it may be revealed). The core's answer to "how is game X"; the
// gRPC edge turns it into cassino.v1.GameInfo.

#ifndef CASSINO_REFEREE_GAME_INFO_H_
#define CASSINO_REFEREE_GAME_INFO_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "recorder/record.h"
#include "recorder/recorder.h"

namespace cassino::service {

// How a game ended, as far as it is known (a game read back from the
// database's summary has no detail and no forfeiting seat).
struct GameOutcome {
  int winner = -1;     // side; -1: nobody won (aborted, a draw)
  std::string reason;  // GameEndReasonName, e.g. "target", "forfeit"
  std::vector<int> totals;
  int forfeiting_seat = -1;
  std::string detail;
  // The forfeit's reason word ("time", "illegal", "absent", "organiser"),
  // when the game ended by a forfeit in this process; else empty.
  std::string forfeit_reason{};
};

struct GameInfo {
  std::string game_id;
  std::string label;
  std::string rules;
  std::vector<std::string> bots;      // per seat
  std::vector<std::string> accounts;  // per seat; "" for a seat by token
  recorder::GameStatus status = recorder::GameStatus::kRunning;
  int turn = 0;             // moves played (0 when only the database was read)
  int round = 0;            // the current (or last) round (0: likewise)
  int to_move = -1;         // the seat to move; -1 when over (or unknown)
  std::vector<int> totals;  // per side
  std::optional<GameOutcome> outcome;  // once over
  std::string seed_commitment;         // hex
  std::string seed;  // hex, only once it may be revealed; else empty
  int64_t created_us = 0;
  // The time control (unknown when only the database's summary was read).
  std::optional<recorder::TimeControl> clock;
  // Per seat, from memory only (empty when only the database was read):
  // whether its bot has shown up (game_session.h).
  std::vector<bool> shown_up;
};

}  // namespace cassino::service

#endif  // CASSINO_REFEREE_GAME_INFO_H_
