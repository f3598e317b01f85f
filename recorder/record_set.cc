#include "recorder/record_set.h"

#include <algorithm>
#include <filesystem>
#include <memory>
#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "recorder/record_reader.h"

namespace cassino::recorder {

namespace fs = std::filesystem;

absl::StatusOr<std::vector<std::string>> ExpandDatabases(
    std::span<const std::string> args) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  auto add = [&](const std::string& path) {
    if (seen.insert(path).second) out.push_back(path);
  };
  for (const std::string& arg : args) {
    std::error_code ec;
    const fs::file_status st = fs::status(arg, ec);
    if (ec || !fs::exists(st)) {
      return absl::NotFoundError(absl::StrCat(arg, ": no such file"));
    }
    if (!fs::is_directory(st)) {
      add(arg);
      continue;
    }
    std::vector<std::string> found;
    for (const fs::directory_entry& e : fs::directory_iterator(arg, ec)) {
      const std::string name = e.path().filename().string();
      if (e.is_regular_file() &&
          (absl::EndsWith(name, ".db") || absl::EndsWith(name, ".sqlite") ||
           absl::EndsWith(name, ".sqlite3"))) {
        found.push_back(e.path().string());
      }
    }
    if (ec) {
      return absl::UnavailableError(
          absl::StrCat(arg, ": cannot list: ", ec.message()));
    }
    std::sort(found.begin(), found.end());
    for (const std::string& f : found) add(f);
  }
  if (out.empty()) {
    return absl::InvalidArgumentError(
        "no record database (a directory is searched for *.db, *.sqlite and "
        "*.sqlite3 files)");
  }
  return out;
}

absl::StatusOr<GameIndex> IndexGames(const std::vector<std::string>& paths) {
  GameIndex index;
  for (const std::string& path : paths) {
    absl::StatusOr<std::unique_ptr<RecordReader>> reader =
        RecordReader::Open(path);
    if (!reader.ok()) return reader.status();
    absl::StatusOr<std::vector<std::string>> ids = (*reader)->GameIds();
    if (!ids.ok()) {
      return absl::Status(ids.status().code(),
                          absl::StrCat(path, ": ", ids.status().message()));
    }
    for (std::string& id : *ids) {
      auto [it, inserted] = index.path_of.emplace(id, path);
      if (!inserted) index.duplicates[id].push_back(path);
    }
  }
  return index;
}

}  // namespace cassino::recorder
