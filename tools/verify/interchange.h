// The record interchange formats of `cassino export` and `cassino import`
// (docs/export_format.md, schemas/record.schema.json).
//
// JSON (export and import): one file holds
//   {"format":"cassino-record","version":1,"games":[
//   <game>,
//   <game>
//   ]}
// with one game object per line, written compactly with sorted keys: the
// header without token hashes (the seed only for finished games: it is
// secret otherwise; a seat's bot account only for a seat that has one), the
// status, and every event with its payload as the exact stored string. Output
// is deterministic (games in id order), so export -> import -> export
// reproduces the file byte for byte.
//
// Text (export only): a PGN-like human-readable form.
//
// Import restores each seat's bot account (Recorder::Import adds an account
// the database does not know, revoked and without a key).

#ifndef CASSINO_TOOLS_VERIFY_INTERCHANGE_H_
#define CASSINO_TOOLS_VERIFY_INTERCHANGE_H_

#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "recorder/record.h"
#include "tools/verify/verifier.h"

namespace cassino::verify {

inline constexpr char kExportFormat[] = "cassino-record";
inline constexpr int kExportVersion = 1;

enum class ExportFormat { kJson, kText };

// Writes the games named in `ids` (every game when empty) of the database
// at `db_path`, ordered by game id, to `out`. NotFound for an unknown id;
// database errors as recorder::RecordReader reports them.
absl::Status ExportDatabase(const std::string& db_path,
                            std::vector<std::string> ids, ExportFormat format,
                            std::ostream& out);
// The same over a record set (recorder/record_set.h): one document, games
// in id order across the databases, so that exporting several referees'
// databases, importing into one and exporting again gives the same bytes.
// FailedPrecondition if a game id is in two databases.
absl::Status ExportRecordSet(const std::vector<std::string>& paths,
                             std::vector<std::string> ids, ExportFormat format,
                             std::ostream& out);

// One game as an export line (JSON object, no newline), and as text.
std::string GameToJson(const recorder::StoredGame& game);
std::string GameToText(const recorder::StoredGame& game);

// Parses a JSON export. Each game comes back as stored (has_summary =
// false). InvalidArgument, naming the game or field, for malformed input.
absl::StatusOr<std::vector<recorder::StoredGame>> ParseExport(
    const std::string& text);

struct ImportResult {
  int imported = 0;
  int skipped = 0;                    // already in the database
  int refused = 0;                    // did not verify or could not be inserted
  std::vector<std::string> messages;  // one line per skipped/refused game
};

// Imports a JSON export into the database at `db_path` (created if
// missing): every game is verified first and refused if it fails; games
// whose id exists are skipped. Errors: unreadable input or database.
absl::StatusOr<ImportResult> ImportExport(const std::string& db_path,
                                          const std::string& text);

}  // namespace cassino::verify

#endif  // CASSINO_TOOLS_VERIFY_INTERCHANGE_H_
