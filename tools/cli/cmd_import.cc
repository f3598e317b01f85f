// cassino import DB FILE: verify and insert games from a JSON export.

#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>

#include "tools/cli/commands.h"
#include "tools/verify/interchange.h"

namespace cassino::cli {
namespace {

constexpr char kDescription[] =
    R"doc(Import games from a JSON export (`cassino export --format json`) into a
record database, which is created if missing.

Every game is first verified exactly as `cassino verify` does (hash chain,
seed commitment, decks, legality of every move, scores and result); a game
that does not verify is refused and named with its first discrepancy. Games
whose id is already in the database are skipped with a message. The others
are inserted as they are, hashes included (Recorder::Import).

ARGUMENTS
  DB    the record database (SQLite file)
  FILE  the JSON export; '-' reads stdin

OUTPUT
  One line per skipped or refused game, then
    imported N games, S skipped, R refused

EXIT STATUS
  0  every game was imported or skipped
  1  at least one game was refused
  2  usage error, an unreadable or malformed file, or a database error)doc";

int Run(const std::string& db, const std::string& path) {
  std::stringstream text;
  if (path == "-") {
    text << std::cin.rdbuf();
  } else {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      std::cerr << "cassino import: cannot read " << path << "\n";
      return 2;
    }
    text << in.rdbuf();
  }
  absl::StatusOr<verify::ImportResult> r = verify::ImportExport(db, text.str());
  if (!r.ok()) {
    std::cerr << "cassino import: " << r.status().message() << "\n";
    return 2;
  }
  for (const std::string& m : r->messages) std::cout << m << "\n";
  std::cout << "imported " << r->imported << " games, " << r->skipped
            << " skipped, " << r->refused << " refused\n";
  return r->refused > 0 ? 1 : 0;
}

}  // namespace

void AddImportCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand("import", kDescription);
  auto db = std::make_shared<std::string>();
  auto file = std::make_shared<std::string>();
  cmd->add_option("DB", *db, "the record database (SQLite file)")->required();
  cmd->add_option("FILE", *file, "the JSON export ('-': stdin)")->required();
  cmd->callback([=] { *exit_code = Run(*db, *file); });
}

}  // namespace cassino::cli
