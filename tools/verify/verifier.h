// `cassino verify`: re-adjudication of every game of a database, or of the
// games named, on several threads. What is checked for each game is
// GameVerifier's contract (game_verifier.h).
//
// Thread-safety: VerifyDatabase runs its own threads.

#ifndef CASSINO_TOOLS_VERIFY_VERIFIER_H_
#define CASSINO_TOOLS_VERIFY_VERIFIER_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "recorder/record_reader.h"
#include "recorder/stored_game.h"
#include "tools/verify/game_verifier.h"

namespace cassino::verify {

struct VerifyOptions {
  std::vector<std::string> games;  // empty: every game
  // Verifying threads. With every game, the game ids are cut into ranges
  // (up to 16 per thread) that the threads take in turn, each reading
  // through its own connection (each range in one read transaction); with
  // named games one reader feeds the threads.
  int threads = 2;
  // Called from the reading thread every few hundred games, and at the end.
  std::function<void(int64_t done, int64_t total)> progress{};
  // Trusted keys and whether a signature is required (game_verifier.h).
  SignaturePolicy signatures{};
};

// How the games of one database were signed (games whose signature was
// checked: a game that failed before is in none of these).
struct SignatureCounts {
  std::map<std::string, int64_t> signed_by;  // public key (hex) -> games
  int64_t unsigned_games = 0;                // ended without a signature
  int64_t running = 0;                       // not ended: no signature yet
  void Add(const SignatureState& state);
  void Merge(const SignatureCounts& other);
};

struct VerifyReport {
  int64_t games = 0;
  int64_t ok = 0;
  std::vector<Failure> failures;  // in game id order (or the order named)
  // Per database path.
  std::map<std::string, SignatureCounts> signatures;
};

// Verifies the games of the database at `path`. A game named in `games`
// that does not exist is a failure ("no such game"). Errors: the database
// cannot be opened or read.
absl::StatusOr<VerifyReport> VerifyDatabase(const std::string& path,
                                            const VerifyOptions& options);

// Verifies the games of a record set (recorder/record_set.h) as one: each
// database as VerifyDatabase does, the reports merged. A game id stored in
// two databases is a failure of that game; a named game found in none is a
// failure ("no such game"). One database behaves exactly as
// VerifyDatabase.
absl::StatusOr<VerifyReport> VerifyRecordSet(
    const std::vector<std::string>& paths, const VerifyOptions& options);

// Reads a trusted-keys file: one public key per line (64 hex digits, the
// Ed25519 public key as GetRefereeInfo and the referee's start-up line give
// it), optionally followed by spaces or tabs and a note (such as the
// referee's name); blank lines and lines starting with '#' are ignored.
// The keys come back in lower case. InvalidArgument naming the line of
// anything else, NotFound if the file cannot be read, InvalidArgument if it
// holds no key.
absl::StatusOr<std::vector<std::string>> ReadTrustedKeys(
    const std::string& path);

}  // namespace cassino::verify

#endif  // CASSINO_TOOLS_VERIFY_VERIFIER_H_
