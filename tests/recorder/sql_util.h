// Direct SQL on a database file, for tests that check or corrupt what the
// recorder stored behind its back. The caller links SQLite.

#ifndef CASSINO_TESTS_RECORDER_SQL_UTIL_H_
#define CASSINO_TESTS_RECORDER_SQL_UTIL_H_

#include <sqlite3.h>

#include <cstdint>
#include <string>

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

}  // namespace cassino::recorder::testing

#endif  // CASSINO_TESTS_RECORDER_SQL_UTIL_H_
