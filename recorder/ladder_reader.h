// A ladder's records read from one or more databases, read-only, for the
// tools (`cassino stats --ladder`, the viewer's ladder page): its games'
// summaries (the games labelled with its name, each with its seats' bot
// names and accounts), and, from the databases that hold them, its row,
// its bots' health and their versions (schemas/006_ladders.sql). Safe beside
// a running referee (one read transaction per database); databases of an
// older schema simply have no ladder rows.

#ifndef CASSINO_RECORDER_LADDER_READER_H_
#define CASSINO_RECORDER_LADDER_READER_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "recorder/ladder_rows.h"
#include "recorder/recorder.h"

namespace cassino::recorder {

struct LadderRecords {
  std::optional<LadderRow> ladder;  // from the first database that has it
  std::vector<GameSummary> games;   // every database's, by game id
  std::vector<LadderBotRow> bots;
  std::vector<LadderVersionRow> versions;
};

// InvalidArgument naming both files for a game id found in two databases
// (a database copied or listed twice: its games would count twice).
absl::StatusOr<LadderRecords> ReadLadderRecords(
    const std::vector<std::string>& databases, const std::string& ladder);

// The names of the ladders a database records (none before schema 6).
absl::StatusOr<std::vector<std::string>> LadderNames(const std::string& path);

}  // namespace cassino::recorder

#endif  // CASSINO_RECORDER_LADDER_READER_H_
