// What an organiser asks of the registry's games, and what it answers, as
// the core sees it: no wire type. The gRPC edge (wire_convert.h) fills
// these from cassino.v1 requests and turns the answers into responses.

#ifndef CASSINO_REFEREE_GAME_SPEC_H_
#define CASSINO_REFEREE_GAME_SPEC_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "recorder/record.h"
#include "referee/game_info.h"

namespace cassino::service {

// A time control as a request gives it: an unset field takes the default
// (recorder::TimeControl's); a set one is exactly that value (a bank of 0
// is no bank, distinct from "not given").
struct ClockSpec {
  std::optional<int64_t> per_move_ms;
  std::optional<int64_t> bank_ms;
  std::optional<int> max_illegal;
};

// One seat of a new game: played by a seat token (`account` empty: the
// answer carries the token) or by a bot account through the lobby.
// `bot_name` empty: the account's name.
struct SeatSpec {
  std::string bot_name;
  std::string account;
  bool human = false;  // a person plays it; the record says so
};

// A game to create (Registry::CreateGame).
struct GameSpec {
  // The rule set's text; empty: "standard" (players from the seats).
  std::string rules;
  std::vector<SeatSpec> seats;
  ClockSpec clock;
  // Hex seed; empty with no decks: a fresh random one.
  std::string seed;
  // Explicit decks, one per round (then no seed).
  std::vector<std::string> decks;
  std::string label;
};

// A seat of a created game; `token` only for a seat played by token (shown
// once: the referee keeps only its hash).
struct SeatGrant {
  int seat = 0;
  std::string bot_name;
  std::string account;
  std::string token;
};

// The answer to a created game.
struct CreatedGame {
  std::string game_id;
  std::string seed_commitment;  // hex SHA-256 of the seed
  std::string rules;            // the rule set in force, in full
  recorder::TimeControl clock;  // in force, defaults filled in
  std::vector<SeatGrant> seats;
};

// A listing of games (Registry::ListGames), newest first.
struct GameQuery {
  std::optional<recorder::GameStatus> status;  // unset: any
  std::string label;                           // empty: any
  int page_size = 0;                           // 0: the default
  std::string page_token;  // from the previous page of the same query
};

struct GamePage {
  std::vector<GameInfo> games;
  std::string next_page_token;  // empty on the last page
};

}  // namespace cassino::service

#endif  // CASSINO_REFEREE_GAME_SPEC_H_
