// `cassino verify`: re-adjudication of every game of a database, or of the
// games named, on several threads. What is checked for each game is
// GameVerifier's contract (game_verifier.h).
//
// Thread-safety: VerifyDatabase runs its own threads; DatabaseReader is
// not thread-safe (use one per thread).

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
#include "recorder/stored_game.h"
#include "tools/verify/game_verifier.h"

namespace cassino::verify {

// Reads games from a database without the recorder: one read-only
// connection, one read transaction, streaming queries ordered by game id.
class DatabaseReader {
 public:
  // Opens `path` read-only (a `file:` URI is accepted too). Fails
  // (Unavailable/DataLoss/FailedPrecondition) if it is missing, not an SQLite
  // database, or has no record schema.
  static absl::StatusOr<std::unique_ptr<DatabaseReader>> Open(
      const std::string& path);
  ~DatabaseReader();

  // Calls `fn` for every game (each id that has a games row, seats or
  // events), in game id order; with `ids` non-empty only for those ids, in
  // the order given (an unknown id yields NotFound). `fn` may keep nothing:
  // the StoredGame is reused. Stops at the first SQLite error and returns it.
  absl::Status ForEach(const std::vector<std::string>& ids,
                       const std::function<void(recorder::StoredGame&)>& fn);
  // Like ForEach over every game, for the ids in [from, to) only (an empty
  // bound is unbounded): for reading one database with several connections.
  absl::Status ForEachInRange(
      const std::string& from, const std::string& to,
      const std::function<void(recorder::StoredGame&)>& fn);
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
