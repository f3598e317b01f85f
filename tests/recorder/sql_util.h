// Direct SQL on a database file, for tests that check or corrupt what the
// recorder stored behind its back. The caller links SQLite and the
// recorder.

#ifndef CASSINO_TESTS_RECORDER_SQL_UTIL_H_
#define CASSINO_TESTS_RECORDER_SQL_UTIL_H_

#include <sqlite3.h>

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "recorder/event_pack.h"
#include "recorder/record.h"

namespace cassino::recorder::testing {

// The integer in the first column of the first row `sql` gives on the
// database at `path`; -1 if it gives no row (or fails).
inline int64_t QueryInt(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  sqlite3_open(path.c_str(), &db);
  sqlite3_stmt* q = nullptr;
  sqlite3_prepare_v2(db, sql.c_str(), -1, &q, nullptr);
  const int64_t n =
      sqlite3_step(q) == SQLITE_ROW ? sqlite3_column_int64(q, 0) : -1;
  sqlite3_finalize(q);
  sqlite3_close(db);
  return n;
}

// Moves an ended game's events from its event pack back into `events` rows
// and deletes the pack: the layout of a game that ended before schema
// version 5, which readers must still read, and that of a game whose end
// committed but whose pack did not. Returns the first error, "" on success.
inline std::string UnpackToRows(const std::string& path,
                                const std::string& game_id) {
  sqlite3* db = nullptr;
  sqlite3_open(path.c_str(), &db);
  sqlite3_stmt* q = nullptr;
  sqlite3_prepare_v2(db, "SELECT pack FROM event_packs WHERE game_id = ?1", -1,
                     &q, nullptr);
  sqlite3_bind_text(q, 1, game_id.c_str(), -1, SQLITE_TRANSIENT);
  std::string error = "no event pack";
  absl::StatusOr<std::vector<Event>> events;
  if (sqlite3_step(q) == SQLITE_ROW) {
    events = UnpackEvents(
        absl::string_view(static_cast<const char*>(sqlite3_column_blob(q, 0)),
                          static_cast<size_t>(sqlite3_column_bytes(q, 0))));
    error = events.ok() ? "" : std::string(events.status().message());
  }
  sqlite3_finalize(q);
  if (error.empty()) {
    sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr);
    sqlite3_prepare_v2(db,
                       "INSERT INTO events (game_id, seq, kind, at_us, "
                       "payload, hash) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                       -1, &q, nullptr);
    for (const Event& e : *events) {
      const absl::string_view kind = EventKindName(e.kind);
      sqlite3_reset(q);
      sqlite3_bind_text(q, 1, game_id.c_str(), -1, SQLITE_TRANSIENT);
      sqlite3_bind_int64(q, 2, e.seq);
      sqlite3_bind_text(q, 3, kind.data(), static_cast<int>(kind.size()),
                        SQLITE_TRANSIENT);
      sqlite3_bind_int64(q, 4, e.at_us);
      sqlite3_bind_text(q, 5, e.payload.data(),
                        static_cast<int>(e.payload.size()), SQLITE_TRANSIENT);
      sqlite3_bind_text(q, 6, e.hash.c_str(), -1, SQLITE_TRANSIENT);
      if (sqlite3_step(q) != SQLITE_DONE && error.empty()) {
        error = sqlite3_errmsg(db);
      }
    }
    sqlite3_finalize(q);
    const std::string del =
        absl::StrCat("DELETE FROM event_packs WHERE game_id = '", game_id, "'");
    sqlite3_exec(db, del.c_str(), nullptr, nullptr, nullptr);
    sqlite3_exec(db, error.empty() ? "COMMIT" : "ROLLBACK", nullptr, nullptr,
                 nullptr);
  }
  sqlite3_close(db);
  return error;
}

}  // namespace cassino::recorder::testing

#endif  // CASSINO_TESTS_RECORDER_SQL_UTIL_H_
