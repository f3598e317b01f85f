// The positional arguments of the commands over record sets (`cassino
// verify`, `replay`, `export`, `stats`).

#ifndef CASSINO_TOOLS_CLI_RECORD_ARGS_H_
#define CASSINO_TOOLS_CLI_RECORD_ARGS_H_

#include <string>
#include <vector>

#include "absl/status/status.h"

namespace cassino::cli {

// The positional arguments of a command over a record set (`DB... [GAME...]`):
// each argument that names an existing file or directory is a database (a
// directory: its *.db, *.sqlite and *.sqlite3 files); the others are game
// ids. (Game ids are 20 hex digits, which never name a path here.)
struct RecordArgs {
  std::vector<std::string> databases;
  std::vector<std::string> games;
};
absl::Status SplitRecordArgs(const std::vector<std::string>& args,
                             RecordArgs* out);

}  // namespace cassino::cli

#endif  // CASSINO_TOOLS_CLI_RECORD_ARGS_H_
