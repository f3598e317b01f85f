// A game exactly as the database stores it: the `games` row, its `seats`
// rows, its events (from its rows or its event pack) and its
// `game_tallies` row, with nothing parsed or checked beyond reading the
// columns. This is what `cassino verify` checks (it trusts nothing the
// referee stored) and what `cassino export` writes; recorder/reader.h reads
// it. A GameRecord is the parsed form the referee and replay use.
//
// Lifetimes: values. A reader may reuse one StoredGame from game to game
// (its buffers are kept).

#ifndef CASSINO_RECORDER_STORED_GAME_H_
#define CASSINO_RECORDER_STORED_GAME_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "recorder/record.h"

namespace cassino::recorder {

// One event exactly as stored; `kind` is unparsed so that a wrong kind can
// be reported rather than lost.
struct StoredEvent {
  int64_t seq = 0;
  std::string kind;
  int64_t at_us = 0;
  std::string payload;
  std::string hash;  // hex, as stored (a pack's raw hash in lower case)
};

// A `game_tallies` row exactly as stored (schema version 2; tally.h).
struct StoredTally {
  int64_t events = 0;
  int64_t rounds = 0;
  int64_t moves = 0;
  int64_t bad_moves = 0;
  int64_t bad_events = 0;
  std::string points;
  std::string conduct;
  std::string move_ms;
};

struct StoredGame {
  std::string game_id;
  std::string label;
  std::string rules;
  std::string commitment;
  std::string seed;
  std::vector<std::string> explicit_decks;
  int64_t per_move_ms = 0;
  int64_t bank_ms = 0;
  int64_t max_illegal = 0;
  int64_t created_us = 0;
  std::vector<std::string> bots;      // seat order
  std::vector<int64_t> seat_numbers;  // as stored; should be 0, 1, ...
  // Parallel to `bots`: the bot account that played each seat
  // (seats.account), "" for a seat played by a plain seat token and for
  // every seat of a database older than schema 3. Not hashed.
  std::vector<std::string> accounts;
  std::string status;
  // The summary columns. When `has_summary` is false (a record that never
  // was in a database, e.g. an export being imported) they are not checked.
  bool has_summary = true;
  std::optional<int64_t> winner;
  std::optional<std::string> end_reason;
  std::optional<std::string> totals;
  std::optional<int64_t> finished_us;
  // The game_tallies row, if the database has one for this game.
  std::optional<StoredTally> tally;
  std::vector<StoredEvent> events;
  // Where `events` came from: the game's `events` rows, or its one
  // `event_packs` row (schema version 5; event_pack.h), decoded into the
  // same fields (kind names, hex hashes).
  bool packed = false;
  // Set when the stored events cannot all be read as one chain: the pack is
  // corrupt (the message names the event and byte; `events` holds those
  // before the defect), its `events` column disagrees with its contents, or
  // the game has both event rows and a pack. At event `storage_error_seq`
  // (-1: the game as a whole).
  std::string storage_error;
  int64_t storage_error_seq = -1;
  // Set when the database has events, seats or a tally but no games row
  // for this id (then the header fields are empty), or a named game does
  // not exist at all.
  bool missing_game_row = false;
};

// The stored form of a record (has_summary = false; no token hashes).
StoredGame FromRecord(const GameRecord& record);

// The record of a stored game (token hashes empty): InvalidArgument for an
// unknown status or event kind.
absl::StatusOr<GameRecord> ToRecord(const StoredGame& game);

}  // namespace cassino::recorder

#endif  // CASSINO_RECORDER_STORED_GAME_H_
