// cassino export DB... [GAME...] --format json|text [--out FILE].

#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "tools/cli/commands.h"
#include "tools/cli/record_args.h"
#include "tools/verify/interchange.h"

namespace cassino::cli {
namespace {

constexpr char kDescription[] =
    R"doc(Export recorded games in an interchange format (docs/export_format.md).

FORMATS
  json  (default) {"format":"cassino-record","version":1,"games":[...]}, one
        game object per line with sorted keys: the header (game_id, label,
        rules, seats, commitment, explicit_decks, clock, created_us; never
        token hashes; the seed only for finished games), the status, and
        the events [{seq, kind, at_us, payload, hash}] with each payload the
        exact stored string, so the hash chain can be checked from the file
        (schema: schemas/record.schema.json). Games are in id order and the
        output is deterministic: export, import into a fresh database and
        export again gives the same bytes. `cassino import` reads it.
  text  a human-readable, PGN-like listing: [Tag "value"] pairs for the
        header, then each round's deck, moves (with rejected submissions),
        score breakdown and totals, and the result. Export only.

ARGUMENTS
  DB      record databases: SQLite files, or directories of them (their
          *.db, *.sqlite and *.sqlite3 files), exported as one record set
          (games in id order across them; a game id in two databases is an
          error)
  GAME    game ids to export (default: every game)

EXIT STATUS
  0  exported
  1  a named game does not exist
  2  usage error, or the database or output file cannot be used)doc";

struct Options {
  std::vector<std::string> args;  // DB... [GAME...]
  std::string format = "json";
  std::string out;
};

int Run(const Options& opt) {
  RecordArgs args;
  if (absl::Status s = SplitRecordArgs(opt.args, &args); !s.ok()) {
    std::cerr << "cassino export: " << s.message() << "\n";
    return 2;
  }
  const verify::ExportFormat format = opt.format == "text"
                                          ? verify::ExportFormat::kText
                                          : verify::ExportFormat::kJson;
  std::ofstream file;
  if (!opt.out.empty()) {
    file.open(opt.out, std::ios::binary | std::ios::trunc);
    if (!file) {
      std::cerr << "cassino export: cannot write " << opt.out << "\n";
      return 2;
    }
  }
  std::ostream& out = opt.out.empty() ? std::cout : file;
  absl::Status s =
      verify::ExportRecordSet(args.databases, args.games, format, out);
  out.flush();
  if (!s.ok()) {
    std::cerr << "cassino export: " << s.message() << "\n";
    return absl::IsNotFound(s) ? 1 : 2;
  }
  return 0;
}

}  // namespace

void AddExportCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand("export", kDescription);
  auto opt = std::make_shared<Options>();
  cmd->add_option("DB... [GAME...]", opt->args,
                  "record databases (SQLite files, or directories of them), "
                  "then game ids (default: every game)")
      ->required();
  cmd->add_option("--format", opt->format, "json (default) or text")
      ->check(CLI::IsMember({"json", "text"}));
  cmd->add_option("--out", opt->out, "write to FILE instead of stdout");
  cmd->callback([opt, exit_code] { *exit_code = Run(*opt); });
}

}  // namespace cassino::cli
