// The Recorder's ladder rows (schemas/006_ladders.sql): their writes, on
// the writer thread like every other, and their reads.

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "recorder/ladder_sql.h"
#include "recorder/recorder.h"
#include "recorder/recorder_impl.h"
#include "recorder/sqlite.h"

namespace cassino::recorder {

using internal::PrepareKept;

// ---------------------------------------------------------------------------
// The public calls.

void Recorder::InsertLadder(const LadderRow& ladder, DoneCallback done) {
  impl_->Enqueue({Impl::LadderWrite{ladder, true}, std::move(done)});
}

void Recorder::SetLadderStatus(const LadderRow& ladder, DoneCallback done) {
  impl_->Enqueue({Impl::LadderWrite{ladder, false}, std::move(done)});
}

void Recorder::InsertLadderVersion(const LadderVersionRow& version,
                                   DoneCallback done) {
  impl_->Enqueue({Impl::LadderVersionWrite{version}, std::move(done)});
}

void Recorder::SetLadderBot(const LadderBotRow& bot, DoneCallback done) {
  impl_->Enqueue({Impl::LadderBotWrite{bot}, std::move(done)});
}

void Recorder::InsertLadderGames(const std::vector<LadderGameRow>& games,
                                 DoneCallback done) {
  impl_->Enqueue({Impl::LadderGamesWrite{games, false}, std::move(done)});
}

void Recorder::DropLadderGame(const std::string& ladder,
                              const std::string& game_id, DoneCallback done) {
  LadderGameRow row;
  row.ladder = ladder;
  row.game_id = game_id;
  impl_->Enqueue({Impl::LadderGamesWrite{{row}, true}, std::move(done)});
}

absl::StatusOr<std::vector<LadderRow>> Recorder::Ladders() const {
  return impl_->Ladders();
}

absl::StatusOr<std::vector<LadderVersionRow>> Recorder::LadderVersions(
    const std::string& ladder) const {
  return impl_->LadderVersions(ladder);
}

absl::StatusOr<std::vector<LadderBotRow>> Recorder::LadderBots(
    const std::string& ladder) const {
  return impl_->LadderBots(ladder);
}

absl::StatusOr<std::vector<LadderGameRow>> Recorder::LadderGames(
    const std::string& ladder) const {
  return impl_->LadderGames(ladder);
}

// ---------------------------------------------------------------------------
// Writes.

absl::StatusOr<sqlite3_stmt*> Recorder::Impl::WriterStmt(
    const std::string& sql) {
  if (auto it = writer_stmts_.find(sql); it != writer_stmts_.end()) {
    return it->second;
  }
  absl::StatusOr<sqlite3_stmt*> stmt = PrepareKept(writer_, sql);
  if (!stmt.ok()) return stmt.status();
  writer_stmts_.emplace(sql, *stmt);
  return *stmt;
}

namespace {

// Whether one row matches: SQLITE_ROW -> true, SQLITE_DONE -> false.
absl::StatusOr<bool> Exists(sqlite3* db, sqlite3_stmt* stmt,
                            absl::string_view what) {
  Query q(stmt);
  const int rc = q.Step();
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  return SqlError(db, rc, what);
}

}  // namespace

absl::Status Recorder::Impl::CheckLadderGame(const std::string& label,
                                             const std::string& game_id,
                                             bool* is_ladder) {
  *is_ladder = false;
  if (label.empty()) return absl::OkStatus();
  absl::StatusOr<sqlite3_stmt*> ladder =
      WriterStmt("SELECT 1 FROM ladders WHERE name = ?1");
  if (!ladder.ok()) return ladder.status();
  sqlite3_bind_text(*ladder, 1, label.data(), static_cast<int>(label.size()),
                    SQLITE_TRANSIENT);
  absl::StatusOr<bool> found = Exists(writer_, *ladder, "reading ladders");
  if (!found.ok()) return found.status();
  if (!*found) return absl::OkStatus();
  *is_ladder = true;
  absl::StatusOr<sqlite3_stmt*> row = WriterStmt(
      "SELECT 1 FROM ladder_games WHERE ladder = ?1 AND game_id = ?2");
  if (!row.ok()) return row.status();
  sqlite3_bind_text(*row, 1, label.data(), static_cast<int>(label.size()),
                    SQLITE_TRANSIENT);
  sqlite3_bind_text(*row, 2, game_id.data(), static_cast<int>(game_id.size()),
                    SQLITE_TRANSIENT);
  found = Exists(writer_, *row, "reading a ladder's games");
  if (!found.ok()) return found.status();
  if (!*found) {
    return absl::FailedPreconditionError(
        absl::StrCat("label '", label,
                     "' is the name of a ladder: only the referee's ladder "
                     "creates games with it"));
  }
  return absl::OkStatus();
}

absl::Status Recorder::Impl::DoWrite(const LadderWrite& w) {
  const LadderRow& l = w.ladder;
  if (l.name.empty()) return absl::InvalidArgumentError("empty ladder name");
  if (!w.insert) {
    absl::StatusOr<sqlite3_stmt*> stmt = WriterStmt(
        "UPDATE ladders SET status = ?2, reason = ?3, changed_us = ?4 WHERE "
        "name = ?1");
    if (!stmt.ok()) return stmt.status();
    Query q(*stmt);
    q.Bind(1, l.name).Bind(2, l.status).Bind(3, l.reason).Bind(4, l.changed_us);
    if (absl::Status s = q.Run("changing a ladder"); !s.ok()) return s;
    if (sqlite3_changes(writer_) == 0) {
      return absl::NotFoundError(absl::StrCat("no ladder '", l.name, "'"));
    }
    return absl::OkStatus();
  }
  // The name must be a new label, and no tournament's.
  for (const char* sql : {"SELECT 1 FROM games WHERE label = ?1 LIMIT 1",
                          "SELECT 1 FROM tournaments WHERE name = ?1"}) {
    absl::StatusOr<sqlite3_stmt*> stmt = WriterStmt(sql);
    if (!stmt.ok()) return stmt.status();
    Query q(*stmt);
    q.Bind(1, l.name);
    const int rc = q.Step();
    if (rc == SQLITE_ROW) {
      return absl::AlreadyExistsError(absl::StrCat(
          "the name '", l.name,
          "' is taken (by a tournament, or as the label of games); a "
          "ladder's name must be a new label"));
    }
    if (rc != SQLITE_DONE) return SqlError(writer_, rc, "reading labels");
  }
  absl::StatusOr<sqlite3_stmt*> stmt = WriterStmt(
      "INSERT INTO ladders (name, rules, per_move_ms, bank_ms, max_illegal, "
      "duplicate, settings, status, reason, created_us, changed_us) VALUES "
      "(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)");
  if (!stmt.ok()) return stmt.status();
  Query q(*stmt);
  q.Bind(1, l.name)
      .Bind(2, l.rules)
      .Bind(3, l.clock.per_move_ms)
      .Bind(4, l.clock.bank_ms)
      .Bind(5, static_cast<int64_t>(l.clock.max_illegal))
      .Bind(6, static_cast<int64_t>(l.duplicate ? 1 : 0))
      .Bind(7, l.settings)
      .Bind(8, l.status)
      .Bind(9, l.reason)
      .Bind(10, l.created_us)
      .Bind(11, l.changed_us);
  const int rc = q.Step();
  if (rc == SQLITE_DONE) return absl::OkStatus();
  if ((rc & 0xff) == SQLITE_CONSTRAINT) {
    return absl::AlreadyExistsError(
        absl::StrCat("ladder '", l.name, "' already exists"));
  }
  return SqlError(writer_, rc, "inserting a ladder");
}

absl::Status Recorder::Impl::DoWrite(const LadderVersionWrite& w) {
  absl::StatusOr<sqlite3_stmt*> stmt = WriterStmt(
      "INSERT OR IGNORE INTO ladder_versions (ladder, account, version, "
      "first_us) VALUES (?1, ?2, ?3, ?4)");
  if (!stmt.ok()) return stmt.status();
  Query q(*stmt);
  q.Bind(1, w.version.ladder)
      .Bind(2, w.version.account)
      .Bind(3, w.version.version)
      .Bind(4, w.version.first_us);
  return q.Run("recording a ladder version");
}

absl::Status Recorder::Impl::DoWrite(const LadderBotWrite& w) {
  absl::StatusOr<sqlite3_stmt*> stmt = WriterStmt(
      "INSERT OR REPLACE INTO ladder_bots (ladder, account, faults, "
      "probations, probation_us, until_us, reason) VALUES (?1, ?2, ?3, ?4, "
      "?5, ?6, ?7)");
  if (!stmt.ok()) return stmt.status();
  const LadderBotRow& b = w.bot;
  Query q(*stmt);
  q.Bind(1, b.ladder)
      .Bind(2, b.account)
      .Bind(3, static_cast<int64_t>(b.faults))
      .Bind(4, static_cast<int64_t>(b.probations));
  if (b.probation_us != 0) q.Bind(5, b.probation_us);
  if (b.until_us != 0) q.Bind(6, b.until_us);
  q.Bind(7, b.reason);
  return q.Run("recording a ladder bot");
}

absl::Status Recorder::Impl::DoWrite(const LadderGamesWrite& w) {
  if (w.drop) {
    absl::StatusOr<sqlite3_stmt*> stmt = WriterStmt(
        "DELETE FROM ladder_games WHERE ladder = ?1 AND game_id = ?2");
    if (!stmt.ok()) return stmt.status();
    for (const LadderGameRow& g : w.games) {
      Query q(*stmt);
      q.Bind(1, g.ladder).Bind(2, g.game_id);
      if (absl::Status s = q.Run("dropping a ladder game"); !s.ok()) return s;
    }
    return absl::OkStatus();
  }
  absl::StatusOr<sqlite3_stmt*> stmt = WriterStmt(
      "INSERT INTO ladder_games (ladder, game_id, created_us, twin_of) "
      "VALUES (?1, ?2, ?3, ?4)");
  if (!stmt.ok()) return stmt.status();
  for (const LadderGameRow& g : w.games) {
    Query q(*stmt);
    q.Bind(1, g.ladder).Bind(2, g.game_id).Bind(3, g.created_us);
    if (!g.twin_of.empty()) q.Bind(4, g.twin_of);
    const int rc = q.Step();
    if (rc == SQLITE_DONE) continue;
    if ((rc & 0xff) == SQLITE_CONSTRAINT) {
      return absl::AlreadyExistsError(absl::StrCat(
          "game '", g.game_id, "' of ladder '", g.ladder, "' already exists"));
    }
    return SqlError(writer_, rc, "recording a ladder game");
  }
  return absl::OkStatus();
}

// ---------------------------------------------------------------------------
// Reads.

namespace internal {

LadderRow LadderRowOf(const Query& q) {
  LadderRow l;
  l.name = q.Text(0);
  l.rules = q.Text(1);
  l.clock.per_move_ms = q.Int(2);
  l.clock.bank_ms = q.Int(3);
  l.clock.max_illegal = static_cast<int>(q.Int(4));
  l.duplicate = q.Int(5) != 0;
  l.settings = q.Text(6);
  l.status = q.Text(7);
  l.reason = q.Text(8);
  l.created_us = q.Int(9);
  l.changed_us = q.Int(10);
  return l;
}

LadderBotRow LadderBotOf(const Query& q, const std::string& ladder) {
  LadderBotRow b;
  b.ladder = ladder;
  b.account = q.Text(0);
  b.faults = static_cast<int>(q.Int(1));
  b.probations = static_cast<int>(q.Int(2));
  b.probation_us = q.IsNull(3) ? 0 : q.Int(3);
  b.until_us = q.IsNull(4) ? 0 : q.Int(4);
  b.reason = q.Text(5);
  return b;
}

LadderVersionRow LadderVersionOf(const Query& q, const std::string& ladder) {
  return {ladder, q.Text(0), q.Text(1), q.Int(2)};
}

}  // namespace internal

absl::StatusOr<std::vector<LadderRow>> Recorder::Impl::Ladders() {
  absl::MutexLock lock(&read_mu_);
  absl::StatusOr<sqlite3_stmt*> stmt =
      ReadStmt(absl::StrCat("SELECT ", internal::kLadderColumns,
                            " FROM ladders ORDER BY created_us, name"));
  if (!stmt.ok()) return stmt.status();
  Query q(*stmt);
  std::vector<LadderRow> out;
  int rc;
  while ((rc = q.Step()) == SQLITE_ROW) out.push_back(internal::LadderRowOf(q));
  if (rc != SQLITE_DONE) return SqlError(reader_, rc, "reading ladders");
  return out;
}

absl::StatusOr<std::vector<LadderVersionRow>> Recorder::Impl::LadderVersions(
    const std::string& ladder) {
  absl::MutexLock lock(&read_mu_);
  absl::StatusOr<sqlite3_stmt*> stmt = ReadStmt(internal::kLadderVersionsSql);
  if (!stmt.ok()) return stmt.status();
  Query q(*stmt);
  q.Bind(1, ladder);
  std::vector<LadderVersionRow> out;
  int rc;
  while ((rc = q.Step()) == SQLITE_ROW) {
    out.push_back(internal::LadderVersionOf(q, ladder));
  }
  if (rc != SQLITE_DONE) {
    return SqlError(reader_, rc, "reading a ladder's versions");
  }
  return out;
}

absl::StatusOr<std::vector<LadderBotRow>> Recorder::Impl::LadderBots(
    const std::string& ladder) {
  absl::MutexLock lock(&read_mu_);
  absl::StatusOr<sqlite3_stmt*> stmt = ReadStmt(internal::kLadderBotsSql);
  if (!stmt.ok()) return stmt.status();
  Query q(*stmt);
  q.Bind(1, ladder);
  std::vector<LadderBotRow> out;
  int rc;
  while ((rc = q.Step()) == SQLITE_ROW) {
    out.push_back(internal::LadderBotOf(q, ladder));
  }
  if (rc != SQLITE_DONE) return SqlError(reader_, rc, "reading ladder bots");
  return out;
}

absl::StatusOr<std::vector<LadderGameRow>> Recorder::Impl::LadderGames(
    const std::string& ladder) {
  absl::MutexLock lock(&read_mu_);
  absl::StatusOr<sqlite3_stmt*> stmt = ReadStmt(
      "SELECT game_id, created_us, twin_of FROM ladder_games WHERE ladder = "
      "?1 ORDER BY created_us, game_id");
  if (!stmt.ok()) return stmt.status();
  Query q(*stmt);
  q.Bind(1, ladder);
  std::vector<LadderGameRow> out;
  int rc;
  while ((rc = q.Step()) == SQLITE_ROW) {
    out.push_back(
        {ladder, q.Text(0), q.Int(1), q.IsNull(2) ? std::string() : q.Text(2)});
  }
  if (rc != SQLITE_DONE) {
    return SqlError(reader_, rc, "reading a ladder's games");
  }
  return out;
}

}  // namespace cassino::recorder
