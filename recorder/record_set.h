// A record set: the databases of one competition, possibly written by
// several referees (one database each), read by the tools as one.
//
// Game ids are unique across referees by construction: each is 80 random
// bits from the referee's CSPRNG (docs/deployment.md), so two referees
// collide with probability ~n²/2⁸¹ for n games. The tools still check: a
// game id found in two databases is reported, never silently merged.

#ifndef CASSINO_RECORDER_RECORD_SET_H_
#define CASSINO_RECORDER_RECORD_SET_H_

#include <map>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace cassino::recorder {

// The database files named by `args`: a file names itself; a directory
// names every regular file directly in it whose name ends in .db, .sqlite
// or .sqlite3, in name order. Each file once, in the order given.
// NotFound for a path that does not exist; InvalidArgument if the result
// is empty.
absl::StatusOr<std::vector<std::string>> ExpandDatabases(
    std::span<const std::string> args);

// Where each game of a record set is stored.
struct GameIndex {
  std::map<std::string, std::string> path_of;  // game id -> database
  // Each game id found in more than one database, with every database
  // after the first that holds it.
  std::map<std::string, std::vector<std::string>> duplicates;
};

// Reads the game ids of every database (read-only). Errors as
// RecordReader::Open and GameIds report them, naming the database.
absl::StatusOr<GameIndex> IndexGames(const std::vector<std::string>& paths);

}  // namespace cassino::recorder

#endif  // CASSINO_RECORDER_RECORD_SET_H_
