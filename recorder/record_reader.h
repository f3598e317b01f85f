// RecordReader: reads whole games (header, seats, events or event pack,
// tally) from a record database without the recorder, for every tool that
// only reads (verify, export, replay, the viewer). It opens the file
// read-only, never migrates it, refuses a schema newer than this build
// knows, and reads every older schema (tables and columns added later are
// read as absent). Safe beside a referee writing the same file: each call
// reads one consistent snapshot (one read transaction).
//
// Thread-safety: not thread-safe; use one reader per thread.

#ifndef CASSINO_RECORDER_RECORD_READER_H_
#define CASSINO_RECORDER_RECORD_READER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "recorder/stored_game.h"

namespace cassino::recorder {

// Reads games from a database without the recorder: one read-only
// connection, one read transaction, streaming queries ordered by game id.
class RecordReader {
 public:
  // Opens `path` read-only. Fails (Unavailable/DataLoss/FailedPrecondition)
  // if it is missing, not an SQLite database, or has no record schema.
  static absl::StatusOr<std::unique_ptr<RecordReader>> Open(
      const std::string& path);
  ~RecordReader();

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
  // One game as a record (ToRecord of what ForEach reads). NotFound for an
  // unknown id; DataLoss if its stored form is unreadable.
  absl::StatusOr<GameRecord> Load(const std::string& game_id);
  // Every game id of the games table, in id order.
  absl::StatusOr<std::vector<std::string>> GameIds();
  // The seeds that are still secret because a game dealt from them, or to
  // be dealt from them, is unfinished: those of running games and of the
  // pending games of running tournaments (a duplicate twin). A finished
  // game whose seed is among them must not show it (docs/tournaments.md).
  // Lower-case hex.
  absl::StatusOr<std::set<std::string>> HeldSeeds();
  // Number of games rows (for progress reporting).
  absl::StatusOr<int64_t> CountGames();
  // The ids of the games rows at positions step, 2 * step, ... in id order
  // (one pass over the ids; for cutting the games into ranges).
  absl::StatusOr<std::vector<std::string>> GameIdsEvery(int64_t step);

 private:
  class Impl;
  explicit RecordReader(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace cassino::recorder

#endif  // CASSINO_RECORDER_RECORD_READER_H_
