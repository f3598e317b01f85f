#include <pthread.h>
#include <sqlite3.h>

#include <thread>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "recorder/event_pack.h"
#include "recorder/migrations.h"
#include "recorder/payload.h"
#include "recorder/recorder_impl.h"
#include "recorder/tally.h"

namespace cassino::recorder {

using internal::kGamePackSql;
using internal::kGameRowsSql;
using internal::ReadStoredEvents;

namespace internal {

absl::StatusOr<sqlite3_stmt*> PrepareKept(sqlite3* db, absl::string_view sql) {
  absl::StatusOr<Statement> stmt = Prepare(db, sql, /*persistent=*/true);
  if (!stmt.ok()) return stmt.status();
  return stmt->release();
}

}  // namespace internal

using internal::PrepareKept;

absl::Status Recorder::Impl::Configure(sqlite3* db, bool writer) {
  if (absl::Status s = Exec(db, "PRAGMA foreign_keys=ON"); !s.ok()) return s;
  if (writer) {
    // Statement journals (a game's rows deleted when it closes needs one
    // of about a hundred pages) kept in memory instead of spilling to a
    // temporary file a page per system call.
    if (absl::Status s = Exec(db, "PRAGMA temp_store=MEMORY"); !s.ok()) {
      return s;
    }
    return Exec(db, absl::StrCat("PRAGMA synchronous=", Synchronous()));
  }
  return Exec(db, "PRAGMA query_only=ON");
}

absl::Status Recorder::Impl::Init(const std::string& path) {
  absl::StatusOr<Connection> writer = OpenDatabase(path, OpenMode::kReadWrite);
  if (!writer.ok()) return writer.status();
  writer_ = writer->release();
  if (absl::Status s = Configure(writer_, /*writer=*/true); !s.ok()) return s;
  if (absl::Status s = Migrate(); !s.ok()) return s;
  {
    // A database that went to version 3 while 002 was a placeholder (main
    // between the lobby merge and the tallies merge) has no game_tallies:
    // it then works without tallies (readers use the events).
    absl::StatusOr<bool> tallies = HasTable(writer_, "game_tallies");
    if (!tallies.ok()) return tallies.status();
    has_tallies_ = *tallies;
  }
  if (absl::Status s = PrepareWriter(); !s.ok()) return s;
  // A file SQLite could open only read-only (an immutable file, a read-only
  // file system) or a disk that takes no write is refused now, not at the
  // first move.
  if (sqlite3_db_readonly(writer_, "main") == 1) {
    return absl::FailedPreconditionError(absl::StrCat(
        "the database ", path,
        " cannot be written (a read-only or immutable file, or a read-only "
        "file system)"));
  }
  const char* file = sqlite3_db_filename(writer_, "main");
  db_file_ = file != nullptr ? file : "";
  wal_file_ = file != nullptr ? sqlite3_filename_wal(file) : "";
  if (absl::Status s = Probe(); !s.ok()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "the database ", path, " cannot be written: ", s.message()));
  }
  if (absl::Status s = Backfill(); !s.ok()) return s;

  absl::StatusOr<Connection> reader = OpenDatabase(path, OpenMode::kReadWrite);
  if (!reader.ok()) return reader.status();
  reader_ = reader->release();
  if (absl::Status s = Configure(reader_, /*writer=*/false); !s.ok()) return s;

  // Checkpoints off the writer (recorder/checkpointer.h); the hook replaces
  // SQLite's automatic checkpoint.
  absl::StatusOr<std::unique_ptr<Checkpointer>> checkpointer =
      Checkpointer::Start(path, Synchronous(), checkpoint_pages_,
                          checkpoint_pages_ * kQuietCheckpointFactor,
                          checkpoint_pages_ * kCheckpointLimitFactor);
  if (!checkpointer.ok()) return checkpointer.status();
  checkpointer_ = *std::move(checkpointer);
  sqlite3_wal_hook(writer_, &Impl::OnWalCommit, this);

  writer_thread_ = std::thread([this] {
    pthread_setname_np(pthread_self(), "rec-writer");
    WriterLoop();
  });
  return absl::OkStatus();
}

absl::Status Recorder::Impl::Migrate() {
  const std::vector<Migration>& migrations = Migrations();
  const int supported = SupportedSchemaVersion();
  auto user_version = [&] { return SchemaVersion(writer_); };
  auto too_new = [&](int version) {
    return absl::FailedPreconditionError(
        absl::StrCat("database schema version ", version,
                     " is newer than this referee supports (", supported,
                     "); upgrade the referee"));
  };

  // Refuse a newer database before changing anything in it.
  absl::StatusOr<int> version = user_version();
  if (!version.ok()) return version.status();
  if (*version > supported) return too_new(*version);

  {
    absl::StatusOr<Statement> stmt =
        Prepare(writer_, "PRAGMA journal_mode=WAL");
    if (!stmt.ok()) return stmt.status();
    Query q(stmt->get());
    const int rc = q.Step();
    if (rc != SQLITE_ROW) return SqlError(writer_, rc, "setting WAL mode");
    const std::string mode = q.Text(0);
    if (absl::AsciiStrToLower(mode) != "wal") {
      return absl::FailedPreconditionError(absl::StrCat(
          "the database cannot use WAL mode (journal mode is '", mode, "')"));
    }
  }

  for (const Migration& m : migrations) {
    if (m.version <= *version) continue;
    // Each migration in its own transaction, re-checking the version under
    // the write lock in case another process migrated meanwhile.
    if (absl::Status s = Exec(writer_, "BEGIN IMMEDIATE"); !s.ok()) return s;
    absl::StatusOr<int> now = user_version();
    absl::Status s = now.status();
    if (s.ok() && *now > supported) s = too_new(*now);
    if (s.ok() && *now < m.version) {
      s = Exec(writer_, m.sql);
      if (!s.ok()) {
        s = absl::InternalError(
            absl::StrCat("migration ", m.name, ": ", s.message()));
      }
      if (s.ok()) {
        s = Exec(writer_, absl::StrCat("PRAGMA user_version=", m.version));
      }
    }
    if (!s.ok()) {
      Exec(writer_, "ROLLBACK").IgnoreError();
      return s;
    }
    if (s = Exec(writer_, "COMMIT"); !s.ok()) {
      Exec(writer_, "ROLLBACK").IgnoreError();
      return s;
    }
    version = *now > m.version ? *now : m.version;
  }
  return absl::OkStatus();
}

absl::Status Recorder::Impl::PrepareWriter() {
  const std::pair<sqlite3_stmt**, const char*> statements[] = {
      {&w_.begin, "BEGIN IMMEDIATE"},
      {&w_.commit, "COMMIT"},
      {&w_.rollback, "ROLLBACK"},
      {&w_.savepoint, "SAVEPOINT one_write"},
      {&w_.release, "RELEASE one_write"},
      {&w_.rollback_to, "ROLLBACK TO one_write"},
      {&w_.game_exists, "SELECT 1 FROM games WHERE game_id = ?1"},
      {&w_.last_event,
       "SELECT seq, hash, kind FROM events WHERE game_id = ?1 "
       "ORDER BY seq DESC LIMIT 1"},
      {&w_.insert_game,
       "INSERT INTO games (game_id, label, rules, commitment, seed, "
       "explicit_decks, per_move_ms, bank_ms, max_illegal, created_us, "
       "status, winner, end_reason, totals, finished_us) "
       "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, "
       "?15)"},
      {&w_.insert_seat,
       "INSERT INTO seats (game_id, seat, bot_name, token_hash) "
       "VALUES (?1, ?2, ?3, ?4)"},
      {&w_.insert_event,
       "INSERT INTO events (game_id, seq, kind, at_us, payload, hash) "
       "VALUES (?1, ?2, ?3, ?4, ?5, ?6)"},
      {&w_.set_summary,
       "UPDATE games SET status = ?2, winner = ?3, end_reason = ?4, "
       "totals = ?5, finished_us = ?6 WHERE game_id = ?1"},
      {&w_.game_shape,
       "SELECT rules, (SELECT count(*) FROM seats WHERE game_id = ?1) "
       "FROM games WHERE game_id = ?1"},
      {&w_.game_rows, kGameRowsSql},
      {&w_.game_pack, kGamePackSql},
      {&w_.pack_exists, "SELECT 1 FROM event_packs WHERE game_id = ?1"},
      {&w_.insert_pack,
       "INSERT INTO event_packs (game_id, events, pack) VALUES (?1, ?2, ?3)"},
      {&w_.delete_rows, "DELETE FROM events WHERE game_id = ?1"},
      {&w_.insert_tally,
       "INSERT OR REPLACE INTO game_tallies (game_id, events, rounds, moves, "
       "bad_moves, bad_events, points, conduct, move_ms) "
       "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"},
      {&w_.set_seat_account,
       "UPDATE seats SET account = ?3 WHERE game_id = ?1 AND seat = ?2"},
      {&w_.insert_account,
       "INSERT INTO bot_accounts (name, owner, contact, key_hash, "
       "created_us, key_us, revoked_us) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"},
      {&w_.update_account,
       "UPDATE bot_accounts SET owner = ?2, contact = ?3, key_hash = ?4, "
       "key_us = ?6, revoked_us = ?7 WHERE name = ?1"},
      {&w_.set_seat_token,
       "UPDATE seats SET token_hash = ?3 WHERE game_id = ?1 AND seat = ?2"},
      {&w_.insert_tournament,
       "INSERT INTO tournaments (name, participants, format, "
       "games_per_pairing, duplicate, rules, per_move_ms, bank_ms, "
       "max_illegal, max_concurrent, grace_ms, seed, commitment, status, "
       "reason, created_us, ended_us) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, "
       "?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)"},
      {&w_.insert_tournament_game,
       "INSERT INTO tournament_games (tournament, idx, seat0, seat1, seed, "
       "game_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6)"},
      {&w_.set_tournament_game,
       "UPDATE tournament_games SET game_id = ?3 WHERE tournament = ?1 AND "
       "idx = ?2"},
      {&w_.end_tournament,
       "UPDATE tournaments SET status = ?2, reason = ?3, ended_us = ?4 "
       "WHERE name = ?1"},
      // An account named by an imported record: no key, revoked.
      {&w_.import_account,
       "INSERT OR IGNORE INTO bot_accounts (name, created_us, key_us, "
       "revoked_us) VALUES (?1, ?2, ?2, ?2)"},
      {&w_.tournament_exists, "SELECT 1 FROM tournaments WHERE name = ?1"},
      {&w_.scheduled_game,
       "SELECT 1 FROM tournament_games WHERE tournament = ?1 AND game_id = ?2"},
      {&w_.label_used, "SELECT 1 FROM games WHERE label = ?1 LIMIT 1"},
      {&w_.account_revoked,
       "SELECT revoked_us FROM bot_accounts WHERE name = ?1"},
  };
  for (const auto& [slot, sql] : statements) {
    if (slot == &w_.insert_tally && !has_tallies_) continue;
    absl::StatusOr<sqlite3_stmt*> stmt = PrepareKept(writer_, sql);
    if (!stmt.ok()) return stmt.status();
    *slot = *stmt;
  }
  return absl::OkStatus();
}

Recorder::Impl::~Impl() {
  if (writer_thread_.joinable()) {
    {
      absl::MutexLock lock(&queue_mu_);
      stop_ = true;
    }
    queue_cv_.SignalAll();
    writer_thread_.join();
  }
  if (writer_ != nullptr) sqlite3_wal_hook(writer_, nullptr, nullptr);
  checkpointer_.reset();
  for (sqlite3_stmt* stmt : {w_.begin,
                             w_.commit,
                             w_.rollback,
                             w_.savepoint,
                             w_.release,
                             w_.rollback_to,
                             w_.game_exists,
                             w_.last_event,
                             w_.insert_game,
                             w_.insert_seat,
                             w_.insert_event,
                             w_.set_summary,
                             w_.game_shape,
                             w_.game_rows,
                             w_.game_pack,
                             w_.pack_exists,
                             w_.insert_pack,
                             w_.delete_rows,
                             w_.insert_tally,
                             w_.set_seat_account,
                             w_.insert_account,
                             w_.update_account,
                             w_.set_seat_token,
                             w_.insert_tournament,
                             w_.insert_tournament_game,
                             w_.set_tournament_game,
                             w_.end_tournament,
                             w_.import_account,
                             w_.tournament_exists,
                             w_.scheduled_game,
                             w_.label_used,
                             w_.account_revoked}) {
    sqlite3_finalize(stmt);  // a no-op on nullptr
  }
  for (auto& [sql, stmt] : read_stmts_) sqlite3_finalize(stmt);
  for (auto& [sql, stmt] : writer_stmts_) sqlite3_finalize(stmt);
  sqlite3_close_v2(reader_);
  sqlite3_close_v2(writer_);
}

int Recorder::Impl::OnWalCommit(void* impl, sqlite3* db, const char* name,
                                int frames) {
  auto* self = static_cast<Impl*>(impl);
  if (self->checkpointer_->AfterCommit(db, name, frames, self->quiet_)) {
    self->writer_checkpoints_.fetch_add(1, std::memory_order_relaxed);
  }
  return SQLITE_OK;
}

absl::Status Recorder::Impl::Backfill() {
  if (!has_tallies_) return absl::OkStatus();
  std::vector<std::string> ids;
  {
    absl::StatusOr<Statement> stmt = Prepare(
        writer_,
        "SELECT game_id FROM games g WHERE status != 'running' AND NOT EXISTS "
        "(SELECT 1 FROM game_tallies t WHERE t.game_id = g.game_id) "
        "ORDER BY game_id");
    if (!stmt.ok()) return stmt.status();
    int rc;
    {
      Query q(stmt->get());
      while ((rc = q.Step()) == SQLITE_ROW) ids.push_back(q.Text(0));
    }
    if (rc != SQLITE_DONE)
      return SqlError(writer_, rc, "finding untallied games");
  }
  // A few hundred games per transaction: a crash keeps what was committed
  // and the next open goes on from there.
  constexpr size_t kPerTransaction = 500;
  std::vector<Event> events;
  for (size_t first = 0; first < ids.size(); first += kPerTransaction) {
    if (absl::Status s = Query(w_.begin).Run("BEGIN"); !s.ok()) return s;
    absl::Status s;
    for (size_t i = first;
         i < std::min(ids.size(), first + kPerTransaction) && s.ok(); ++i) {
      // A game whose events cannot be read (both rows and a pack, a corrupt
      // pack) gets no tally: readers use the events, and verify names the
      // defect.
      if (ReadStoredEvents(w_.game_rows, w_.game_pack, ids[i], &events).ok()) {
        s = WriteTally(ids[i], events);
      }
    }
    if (s.ok()) s = Query(w_.commit).Run("COMMIT");
    if (!s.ok()) {
      Query(w_.rollback).Run("ROLLBACK").IgnoreError();
      return absl::Status(
          s.code(), absl::StrCat("filling in game tallies: ", s.message()));
    }
  }
  return absl::OkStatus();
}

}  // namespace cassino::recorder
