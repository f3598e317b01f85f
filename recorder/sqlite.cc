#include "recorder/sqlite.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "recorder/batched_wal_vfs.h"
#include "recorder/migrations.h"

namespace cassino::recorder {
namespace {

constexpr int kBusyTimeoutMs = 10000;

}  // namespace

absl::Status SqlStatus(int rc, absl::string_view message) {
  switch (rc & 0xff) {
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      return absl::DataLossError(message);
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
    case SQLITE_CANTOPEN:
    case SQLITE_IOERR:
    case SQLITE_FULL:
      return absl::UnavailableError(message);
    case SQLITE_CONSTRAINT:
      return absl::FailedPreconditionError(message);
    default:
      return absl::InternalError(message);
  }
}

absl::Status SqlError(sqlite3* db, int rc, absl::string_view what) {
  return SqlStatus(rc, absl::StrCat(what, ": ",
                                    db != nullptr ? sqlite3_errmsg(db)
                                                  : sqlite3_errstr(rc)));
}

absl::StatusOr<Connection> OpenDatabase(const std::string& path,
                                        OpenMode mode) {
  if (path.empty() || path == ":memory:" ||
      absl::StrContains(path, "mode=memory") ||
      absl::StartsWith(path, "file::memory:")) {
    return absl::InvalidArgumentError(
        "records need a database file; in-memory databases are not "
        "supported");
  }
  const int flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI |
                    (mode == OpenMode::kReadOnly
                         ? SQLITE_OPEN_READONLY
                         : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  // A transaction's WAL frames written with one system call (a URI's vfs=
  // parameter, as the tests' faulty VFS, takes precedence).
  if (absl::Status s = RegisterBatchedWalVfs(); !s.ok()) return s;
  sqlite3* raw = nullptr;
  const int rc = sqlite3_open_v2(path.c_str(), &raw, flags, kBatchedWalVfs);
  Connection db(raw);
  if (rc != SQLITE_OK) {
    return SqlError(raw, rc, absl::StrCat("opening ", path));
  }
  sqlite3_extended_result_codes(raw, 1);
  sqlite3_busy_timeout(raw, kBusyTimeoutMs);
  if (mode == OpenMode::kReadOnly) {
    // Reading through a memory map saves a copy of every page; scans of a
    // whole record set are the tools' common case.
    Exec(raw, "PRAGMA mmap_size=1099511627776").IgnoreError();
    Exec(raw, "PRAGMA cache_size=-65536").IgnoreError();
  }
  return db;
}

absl::Status Exec(sqlite3* db, absl::string_view sql) {
  const std::string text(sql);
  char* error = nullptr;
  const int rc = sqlite3_exec(db, text.c_str(), nullptr, nullptr, &error);
  if (rc == SQLITE_OK) return absl::OkStatus();
  std::string message = error != nullptr ? error : sqlite3_errstr(rc);
  sqlite3_free(error);
  return SqlStatus(rc, message);
}

absl::StatusOr<Statement> Prepare(sqlite3* db, absl::string_view sql,
                                  bool persistent) {
  sqlite3_stmt* stmt = nullptr;
  const int rc = sqlite3_prepare_v3(
      db, sql.data(), static_cast<int>(sql.size()),
      persistent ? SQLITE_PREPARE_PERSISTENT : 0, &stmt, nullptr);
  if (rc != SQLITE_OK) {
    return SqlError(db, rc, absl::StrCat("preparing '", sql, "'"));
  }
  return Statement(stmt);
}

namespace {

// The one integer a one-row query gives.
absl::StatusOr<int64_t> OneInt(sqlite3* db, absl::string_view sql,
                               absl::string_view bind = {}) {
  absl::StatusOr<Statement> stmt = Prepare(db, sql);
  if (!stmt.ok()) return stmt.status();
  Query q(stmt->get());
  if (!bind.empty()) q.Bind(1, bind);
  const int rc = q.Step();
  if (rc != SQLITE_ROW) return SqlError(db, rc, sql);
  return q.Int(0);
}

}  // namespace

absl::StatusOr<bool> HasTable(sqlite3* db, absl::string_view table) {
  absl::StatusOr<int64_t> n = OneInt(
      db,
      "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?1",
      table);
  if (!n.ok()) return n.status();
  return *n == 1;
}

absl::StatusOr<bool> HasColumn(sqlite3* db, absl::string_view table,
                               absl::string_view column) {
  absl::StatusOr<int64_t> n =
      OneInt(db,
             absl::StrCat("SELECT count(*) FROM pragma_table_info('", table,
                          "') WHERE name = ?1"),
             column);
  if (!n.ok()) return n.status();
  return *n == 1;
}

absl::StatusOr<int> SchemaVersion(sqlite3* db) {
  absl::StatusOr<int64_t> v = OneInt(db, "PRAGMA user_version");
  if (!v.ok()) return v.status();
  return static_cast<int>(*v);
}

int SupportedSchemaVersion() {
  const std::vector<Migration>& migrations = Migrations();
  return migrations.empty() ? 0 : migrations.back().version;
}

absl::Status CheckSchemaNotNewer(sqlite3* db, absl::string_view path) {
  absl::StatusOr<int> version = SchemaVersion(db);
  if (!version.ok()) {
    return absl::Status(version.status().code(),
                        absl::StrCat(path, ": ", version.status().message()));
  }
  if (*version > SupportedSchemaVersion()) {
    return absl::FailedPreconditionError(
        absl::StrCat(path, ": database schema version ", *version,
                     " is newer than this build supports (",
                     SupportedSchemaVersion(), "); upgrade"));
  }
  return absl::OkStatus();
}

absl::string_view ColumnText(sqlite3_stmt* stmt, int col) {
  const unsigned char* text = sqlite3_column_text(stmt, col);
  if (text == nullptr) return {};
  return absl::string_view(reinterpret_cast<const char*>(text),
                           sqlite3_column_bytes(stmt, col));
}

absl::string_view ColumnBlob(sqlite3_stmt* stmt, int col) {
  const void* data = sqlite3_column_blob(stmt, col);
  if (data == nullptr) return {};
  return absl::string_view(static_cast<const char*>(data),
                           sqlite3_column_bytes(stmt, col));
}

Query& Query::Bind(int index, absl::string_view text) {
  // A null data pointer would bind SQL NULL; an empty string is wanted.
  sqlite3_bind_text(stmt_, index, text.data() != nullptr ? text.data() : "",
                    static_cast<int>(text.size()), SQLITE_TRANSIENT);
  return *this;
}

Query& Query::Bind(int index, int64_t value) {
  sqlite3_bind_int64(stmt_, index, value);
  return *this;
}

Query& Query::BindNull(int index) {
  sqlite3_bind_null(stmt_, index);
  return *this;
}

Query& Query::BindBlob(int index, absl::string_view bytes) {
  sqlite3_bind_blob64(stmt_, index, bytes.data() != nullptr ? bytes.data() : "",
                      bytes.size(), SQLITE_TRANSIENT);
  return *this;
}

absl::Status Query::Run(absl::string_view what) {
  const int rc = Step();
  if (rc == SQLITE_DONE) return absl::OkStatus();
  return SqlError(sqlite3_db_handle(stmt_), rc, what);
}

}  // namespace cassino::recorder
