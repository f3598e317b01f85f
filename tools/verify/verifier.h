// Independent re-adjudication of game records: `cassino verify`, `cassino
// import` and the tests.
//
// The verifier trusts nothing the referee stored. For each game it checks,
// in this order, and reports the first discrepancy it meets:
//
//   0. storage: the events can be read (an ended game's event pack decodes
//      and holds as many events as its row says; no game has both event
//      rows and a pack; a running game's events are rows);
//   1. structure and hash chain: events numbered 0, 1, 2, ... with no gaps,
//      known kinds, event 0 `create` and only event 0; every stored hash
//      equals the chain hash recomputed from the stored payload bytes
//      (record.h: event 0 chained from the commitment, 32 zero bytes with
//      explicit decks);
//   2. the header: the `games` and `seats` rows equal the `create` payload
//      (which the chain covers);
//   3. the seed: a finished game's `end` event reveals a seed whose SHA-256
//      is the commitment (and equals the stored seed column, if any);
//   4. the play, replayed through the rules engine: every `deal` deck is the
//      deck of its round (RULES.md §2 from the seed, or the explicit decks);
//      every `move` was legal, by the seat to move, at its turn and round;
//      every `reject` was for the seat to move at that turn and, when the
//      submitted text parses as a move, the engine refuses it; a seat
//      forfeits for `illegal` only after max_illegal rejects; every `round`
//      payload equals RoundPayload() of the engine's round result and every
//      `end` payload EndPayload() of the engine's game result (byte
//      equality, or equality as parsed JSON); events come in the order the
//      referee writes them (record_format.md) and nothing follows `end` or
//      `abort`;
//   5. the summary columns (status, winner, end_reason, totals, finished_us)
//      agree with the `end` or `abort` event;
//   6. the game's tally (the `game_tallies` row, schema version 2; see
//      recorder/tally.h), when there is one, equals the tally of the events
//      as replayed here: every column, compared exactly (the tally is
//      rebuilt from the replay, not by the recorder's code). A running game
//      must have none; an ended game may lack one (a database the recorder
//      has not opened since migration 002: readers fall back to the
//      events), which is not a discrepancy.
//
// A running game verifies if everything recorded so far does (its seed is
// still secret: its deals are checked against the seed column when the
// database holds it). Nothing here throws or crashes on corrupt input:
// every defect becomes a Failure.
//
// Thread-safety: a GameVerifier is not thread-safe (it reuses buffers); use
// one per thread. VerifyDatabase runs its own threads.

#ifndef CASSINO_TOOLS_VERIFY_VERIFIER_H_
#define CASSINO_TOOLS_VERIFY_VERIFIER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "recorder/record.h"

namespace cassino::verify {

// One event exactly as stored; `kind` is unparsed so that a wrong kind can
// be reported rather than lost.
struct StoredEvent {
  int64_t seq = 0;
  std::string kind;
  int64_t at_us = 0;
  std::string payload;
  std::string hash;
};

// A `game_tallies` row exactly as stored. (Declared outside StoredGame: a
// nested struct with member initializers is not yet default-constructible
// inside its enclosing class, which clang holds against std::optional.)
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

// A game exactly as stored: the `games` row, its seats and its events.
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
  // every seat of a database older than schema 3. Not hashed, not verified.
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
  using Tally = StoredTally;
  std::optional<Tally> tally;
  std::vector<StoredEvent> events;
  // Where `events` came from: the game's `events` rows, or its one
  // `event_packs` row (schema version 5; recorder/event_pack.h), decoded
  // into the same fields (kind names, hex hashes).
  bool packed = false;
  // Set when the stored events cannot all be read as one chain: the pack is
  // corrupt (the message names the event and byte; `events` holds those
  // before the defect), its `events` column disagrees with its contents, or
  // the game has both event rows and a pack. Reported as the game's
  // failure, at event `storage_error_seq` (-1: the game as a whole).
  std::string storage_error;
  int64_t storage_error_seq = -1;
  // Set when the database has events or seats but no games row for this
  // id (then the header fields are empty).
  bool missing_game_row = false;
};

// The stored form of a record (has_summary = false).
StoredGame FromRecord(const recorder::GameRecord& record);

// The first discrepancy found in a game.
struct Failure {
  std::string game_id;
  int round = 0;     // the engine's round when found (0: before play)
  int turn = 0;      // the engine's turn (moves accepted so far)
  int64_t seq = -1;  // the event; -1 for the games row itself
  std::string what;
  std::string expected;  // both empty when there is nothing to compare
  std::string recorded;

  // `FAIL <game> round R turn T (event seq S): <what>: expected <x>,
  // recorded <y>` (the comparison only when there is one).
  std::string ToString() const;
};

// Verifies single games, reusing its buffers between calls.
class GameVerifier {
 public:
  GameVerifier();
  ~GameVerifier();
  GameVerifier(const GameVerifier&) = delete;
  GameVerifier& operator=(const GameVerifier&) = delete;

  // nullopt if the game verifies, else its first discrepancy.
  std::optional<Failure> Verify(const StoredGame& game);

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

// Convenience: verifies a record in memory.
std::optional<Failure> VerifyRecord(const recorder::GameRecord& record);

// Reads games from a database without the recorder: one read-only
// connection, one read transaction, streaming queries ordered by game id.
class DatabaseReader {
 public:
  // Opens `path` read-only. Fails (Unavailable/DataLoss/FailedPrecondition)
  // if it is missing, not an SQLite database, or has no record schema.
  static absl::StatusOr<std::unique_ptr<DatabaseReader>> Open(
      const std::string& path);
  ~DatabaseReader();

  // Calls `fn` for every game (each id that has a games row, seats or
  // events), in game id order; with `ids` non-empty only for those ids, in
  // the order given (an unknown id yields NotFound). `fn` may keep nothing:
  // the StoredGame is reused. Stops at the first SQLite error and returns it.
  absl::Status ForEach(const std::vector<std::string>& ids,
                       const std::function<void(StoredGame&)>& fn);
  // Like ForEach over every game, for the ids in [from, to) only (an empty
  // bound is unbounded): for reading one database with several connections.
  absl::Status ForEachInRange(const std::string& from, const std::string& to,
                              const std::function<void(StoredGame&)>& fn);
  // Number of games rows (for progress reporting).
  absl::StatusOr<int64_t> CountGames();
  // The ids of the games rows at positions step, 2 * step, ... in id order
  // (one pass over the ids; for cutting the games into ranges).
  absl::StatusOr<std::vector<std::string>> GameIdsEvery(int64_t step);

 private:
  class Impl;
  explicit DatabaseReader(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

struct VerifyOptions {
  std::vector<std::string> games;  // empty: every game
  // Verifying threads. With every game, the game ids are cut into ranges
  // (up to 16 per thread) that the threads take in turn, each reading
  // through its own connection (each range in one read transaction); with
  // named games one reader feeds the threads.
  int threads = 2;
  // Called from the reading thread every few hundred games, and at the end.
  std::function<void(int64_t done, int64_t total)> progress{};
};

struct VerifyReport {
  int64_t games = 0;
  int64_t ok = 0;
  std::vector<Failure> failures;  // in game id order (or the order named)
};

// Verifies the games of the database at `path`. A game named in `games`
// that does not exist is a failure ("no such game"). Errors: the database
// cannot be opened or read.
absl::StatusOr<VerifyReport> VerifyDatabase(const std::string& path,
                                            const VerifyOptions& options);

}  // namespace cassino::verify

#endif  // CASSINO_TOOLS_VERIFY_VERIFIER_H_
