// The project's one SQLite layer: how SQLite results become absl::Status,
// owning handles for connections and statements, opening a record database
// (read-write for the recorder, read-only for every tool), the schema
// version checks, and Query, one use of a prepared statement.
//
// Error mapping (the same for the referee and every tool):
//   SQLITE_CORRUPT, SQLITE_NOTADB            -> DataLoss (a damaged file)
//   SQLITE_BUSY, SQLITE_LOCKED, SQLITE_IOERR,
//   SQLITE_FULL, SQLITE_CANTOPEN             -> Unavailable (try again)
//   SQLITE_CONSTRAINT                        -> FailedPrecondition
//   anything else                            -> Internal
// A database written by a newer schema than this build knows is
// FailedPrecondition, checked before anything reads or changes it.
//
// Thread-safety: a connection is opened SQLITE_OPEN_NOMUTEX; each
// connection and its statements are used by one thread at a time.

#ifndef CASSINO_RECORDER_SQLITE_H_
#define CASSINO_RECORDER_SQLITE_H_

#include <sqlite3.h>

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace cassino::recorder {

// The Status for SQLite result code `rc` (extended codes allowed), with
// `message` as its text.
absl::Status SqlStatus(int rc, absl::string_view message);
// SqlStatus with "what: <SQLite's message for db, or for rc>".
absl::Status SqlError(sqlite3* db, int rc, absl::string_view what);

struct ConnectionCloser {
  void operator()(sqlite3* db) const { sqlite3_close_v2(db); }
};
// An open connection; closing it finalizes nothing (finalize statements
// first: Statement below does).
using Connection = std::unique_ptr<sqlite3, ConnectionCloser>;

struct StatementFinalizer {
  void operator()(sqlite3_stmt* stmt) const { sqlite3_finalize(stmt); }
};
using Statement = std::unique_ptr<sqlite3_stmt, StatementFinalizer>;

enum class OpenMode {
  // Creates the file if missing. The recorder's writer and reader.
  kReadWrite,
  // Never writes, never creates, never migrates: every tool that only
  // reads. Safe beside a referee writing the same file (WAL).
  kReadOnly,
};

// Opens `path` (a file name or a file: URI) with extended result codes and
// the busy timeout set. kReadOnly connections also read through a memory
// map. In-memory databases are refused (InvalidArgument): records live in
// files.
absl::StatusOr<Connection> OpenDatabase(const std::string& path, OpenMode mode);

// Runs SQL text (possibly several statements) that returns no rows.
absl::Status Exec(sqlite3* db, absl::string_view sql);

// Prepares one statement; `persistent` hints SQLite that it is kept.
absl::StatusOr<Statement> Prepare(sqlite3* db, absl::string_view sql,
                                  bool persistent = false);

// Whether the database has table `table` / column `column` of `table`.
absl::StatusOr<bool> HasTable(sqlite3* db, absl::string_view table);
absl::StatusOr<bool> HasColumn(sqlite3* db, absl::string_view table,
                               absl::string_view column);

// PRAGMA user_version: the number of the last schema migration applied.
absl::StatusOr<int> SchemaVersion(sqlite3* db);
// The newest schema version this build knows (its last migration).
int SupportedSchemaVersion();
// FailedPrecondition naming `path` if its schema is newer than this build
// knows; reading it could misread it.
absl::Status CheckSchemaNotNewer(sqlite3* db, absl::string_view path);

// A column's text or bytes; valid until the statement's next step, reset or
// finalize.
absl::string_view ColumnText(sqlite3_stmt* stmt, int col);
absl::string_view ColumnBlob(sqlite3_stmt* stmt, int col);

// One use of a prepared statement: binds, steps, reads columns, and resets
// the statement (releasing its read or write intent) when it goes out of
// scope. Text is bound SQLITE_TRANSIENT, so arguments may be temporaries.
class Query {
 public:
  explicit Query(sqlite3_stmt* stmt) : stmt_(stmt) {}
  ~Query() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
  }
  Query(const Query&) = delete;
  Query& operator=(const Query&) = delete;

  Query& Bind(int index, absl::string_view text);
  Query& Bind(int index, int64_t value);
  Query& BindNull(int index);
  Query& BindBlob(int index, absl::string_view bytes);

  // SQLITE_ROW, SQLITE_DONE or an error code.
  int Step() { return sqlite3_step(stmt_); }
  // Steps a statement that returns no rows.
  absl::Status Run(absl::string_view what);

  bool IsNull(int col) const {
    return sqlite3_column_type(stmt_, col) == SQLITE_NULL;
  }
  int64_t Int(int col) const { return sqlite3_column_int64(stmt_, col); }
  // Valid until the next Step or the end of the Query.
  absl::string_view View(int col) const { return ColumnText(stmt_, col); }
  std::string Text(int col) const { return std::string(View(col)); }
  absl::string_view Blob(int col) const { return ColumnBlob(stmt_, col); }

 private:
  sqlite3_stmt* stmt_;
};

}  // namespace cassino::recorder

#endif  // CASSINO_RECORDER_SQLITE_H_
