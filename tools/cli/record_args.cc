#include "tools/cli/record_args.h"

#include <filesystem>

#include "recorder/record_set.h"

namespace cassino::cli {

absl::Status SplitRecordArgs(const std::vector<std::string>& args,
                             RecordArgs* out) {
  std::vector<std::string> paths;
  for (const std::string& arg : args) {
    std::error_code ec;
    if (std::filesystem::exists(arg, ec)) {
      paths.push_back(arg);
    } else if (paths.empty()) {
      // The first argument must be a database.
      return absl::NotFoundError(arg + ": no such file");
    } else {
      out->games.push_back(arg);
    }
  }
  absl::StatusOr<std::vector<std::string>> dbs =
      recorder::ExpandDatabases(paths);
  if (!dbs.ok()) return dbs.status();
  out->databases = *std::move(dbs);
  return absl::OkStatus();
}

}  // namespace cassino::cli
