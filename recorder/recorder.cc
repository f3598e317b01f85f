#include "recorder/recorder.h"

#include <pthread.h>
#include <sqlite3.h>

#include <algorithm>
#include <atomic>
#include <deque>
#include <future>
#include <map>
#include <span>
#include <thread>
#include <unordered_map>
#include <utility>
#include <variant>

#include "absl/base/thread_annotations.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/synchronization/mutex.h"
#include "nlohmann/json.hpp"
#include "recorder/canonical_json.h"
#include "recorder/event_pack.h"
#include "recorder/migrations.h"
#include "recorder/payload.h"
#include "recorder/tally.h"

namespace cassino::recorder {
namespace {

using Json = nlohmann::json;

constexpr int kBusyTimeoutMs = 10000;

// A Status for an SQLite result code: transient conditions (busy, I/O, a
// full disk) are Unavailable, constraint violations FailedPrecondition, the
// rest Internal.
absl::Status SqlStatus(int rc, absl::string_view message) {
  switch (rc & 0xff) {
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

// Runs SQL text (possibly several statements) that returns no rows.
absl::Status Exec(sqlite3* db, const char* sql) {
  char* error = nullptr;
  int rc = sqlite3_exec(db, sql, nullptr, nullptr, &error);
  if (rc == SQLITE_OK) return absl::OkStatus();
  std::string message = error != nullptr ? error : sqlite3_errstr(rc);
  sqlite3_free(error);
  return SqlStatus(rc, message);
}

absl::StatusOr<sqlite3_stmt*> Prepare(sqlite3* db, absl::string_view sql) {
  sqlite3_stmt* stmt = nullptr;
  int rc = sqlite3_prepare_v3(db, sql.data(), static_cast<int>(sql.size()),
                              SQLITE_PREPARE_PERSISTENT, &stmt, nullptr);
  if (rc != SQLITE_OK) {
    return SqlError(db, rc, absl::StrCat("preparing '", sql, "'"));
  }
  return stmt;
}

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

  Query& Bind(int index, absl::string_view text) {
    // A null data pointer would bind SQL NULL; an empty string is wanted.
    sqlite3_bind_text(stmt_, index, text.data() != nullptr ? text.data() : "",
                      static_cast<int>(text.size()), SQLITE_TRANSIENT);
    return *this;
  }
  Query& Bind(int index, int64_t value) {
    sqlite3_bind_int64(stmt_, index, value);
    return *this;
  }
  Query& BindNull(int index) {
    sqlite3_bind_null(stmt_, index);
    return *this;
  }

  // SQLITE_ROW, SQLITE_DONE or an error code.
  int Step() { return sqlite3_step(stmt_); }
  // Steps a statement that returns no rows.
  absl::Status Run(absl::string_view what) {
    int rc = Step();
    if (rc == SQLITE_DONE) return absl::OkStatus();
    return SqlError(sqlite3_db_handle(stmt_), rc, what);
  }

  bool IsNull(int col) const {
    return sqlite3_column_type(stmt_, col) == SQLITE_NULL;
  }
  int64_t Int(int col) const { return sqlite3_column_int64(stmt_, col); }
  // Valid until the next Step or the end of the Query.
  absl::string_view View(int col) const {
    const unsigned char* text = sqlite3_column_text(stmt_, col);
    if (text == nullptr) return {};
    return absl::string_view(reinterpret_cast<const char*>(text),
                             sqlite3_column_bytes(stmt_, col));
  }
  std::string Text(int col) const {
    const unsigned char* text = sqlite3_column_text(stmt_, col);
    if (text == nullptr) return "";
    return std::string(reinterpret_cast<const char*>(text),
                       sqlite3_column_bytes(stmt_, col));
  }
  // A BLOB column's bytes; valid until the next Step or the end of the
  // Query.
  absl::string_view Blob(int col) const {
    const void* data = sqlite3_column_blob(stmt_, col);
    if (data == nullptr) return {};
    return absl::string_view(static_cast<const char*>(data),
                             sqlite3_column_bytes(stmt_, col));
  }
  Query& BindBlob(int index, absl::string_view bytes) {
    sqlite3_bind_blob64(stmt_, index,
                        bytes.data() != nullptr ? bytes.data() : "",
                        bytes.size(), SQLITE_TRANSIENT);
    return *this;
  }

 private:
  sqlite3_stmt* stmt_;
};

// A game's event rows, and its event pack, by game id (?1).
constexpr char kGameRowsSql[] =
    "SELECT seq, kind, at_us, payload, hash FROM events WHERE game_id = ?1 "
    "ORDER BY seq";
constexpr char kGamePackSql[] =
    "SELECT pack FROM event_packs WHERE game_id = ?1";

// Reads a game's events, from its `events` rows or from its event pack
// (event_pack.h): `rows` selects seq, kind, at_us, payload, hash of the
// game's rows in seq order and `pack` its pack, both with the game id as ?1.
// DataLoss if the game has both, or a row's kind or the pack is unreadable.
absl::Status ReadStoredEvents(sqlite3_stmt* rows, sqlite3_stmt* pack,
                              const std::string& game_id,
                              std::vector<Event>* events) {
  events->clear();
  Query r(rows);
  r.Bind(1, game_id);
  int rc;
  while ((rc = r.Step()) == SQLITE_ROW) {
    absl::StatusOr<EventKind> kind = ParseEventKind(r.View(1));
    if (!kind.ok()) {
      return absl::DataLossError(absl::StrCat("game ", game_id, " event ",
                                              r.Int(0), ": ",
                                              kind.status().message()));
    }
    events->push_back({r.Int(0), *kind, r.Int(2), r.Text(3), r.Text(4)});
  }
  if (rc != SQLITE_DONE) {
    return SqlError(sqlite3_db_handle(rows), rc, "reading events");
  }
  Query p(pack);
  p.Bind(1, game_id);
  rc = p.Step();
  if (rc == SQLITE_DONE) return absl::OkStatus();
  if (rc != SQLITE_ROW) {
    return SqlError(sqlite3_db_handle(pack), rc, "reading an event pack");
  }
  if (!events->empty()) {
    return absl::DataLossError(absl::StrCat(
        "game ", game_id, " has both event rows and an event pack"));
  }
  absl::StatusOr<std::vector<Event>> unpacked = UnpackEvents(p.Blob(0));
  if (!unpacked.ok()) {
    return absl::DataLossError(
        absl::StrCat("game ", game_id, ": ", unpacked.status().message()));
  }
  *events = *std::move(unpacked);
  return absl::OkStatus();
}

// The summary columns an `end` or `abort` event sets.
struct Summary {
  GameStatus status = GameStatus::kFinished;
  int winner = -1;
  std::string end_reason;
  std::optional<std::string> totals;  // JSON array text
  int64_t finished_us = 0;
};

// Checks that an event payload is a JSON object and, for `end` and `abort`,
// extracts the summary (an end payload must read: recorder/payload.h).
// Never throws.
absl::StatusOr<std::optional<Summary>> CheckPayload(EventKind kind,
                                                    int64_t at_us,
                                                    absl::string_view payload) {
  if (kind == EventKind::kEnd) {
    EndFields end;
    if (absl::Status s = ParseEndPayload(payload, &end); !s.ok()) return s;
    Summary summary;
    summary.finished_us = at_us;
    summary.winner = end.winner;
    summary.end_reason = end.reason;
    std::string totals;
    JsonWriter(&totals).IntArray(end.totals);
    summary.totals = std::move(totals);
    if (end.reason == GameEndReasonName(GameEndReason::kAborted)) {
      summary.status = GameStatus::kAborted;
    }
    return summary;
  }
  if (payload.empty() || payload.front() != '{' || !Json::accept(payload)) {
    return absl::InvalidArgumentError(absl::StrCat(
        EventKindName(kind), " payload is not a JSON object: ", payload));
  }
  if (kind == EventKind::kAbort) {
    return Summary{GameStatus::kAborted, -1, "aborted", std::nullopt, at_us};
  }
  return std::nullopt;
}

absl::StatusOr<Digest> ParseDigest(absl::string_view hex,
                                   absl::string_view what) {
  absl::StatusOr<Seed> digest = ParseSeed(hex);
  if (!digest.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, ": not 64 hex digits: '", hex, "'"));
  }
  return *digest;
}

std::vector<int> ParseTotals(absl::string_view text) {
  Json json = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  std::vector<int> totals;
  if (!json.is_array()) return totals;
  for (const Json& v : json) {
    totals.push_back(v.is_number_integer() ? v.get<int>() : 0);
  }
  return totals;
}

}  // namespace

absl::StatusOr<Durability> ParseDurability(absl::string_view name) {
  const std::string lower = absl::AsciiStrToLower(name);
  if (lower == "normal") return Durability::kNormal;
  if (lower == "full") return Durability::kFull;
  return absl::InvalidArgumentError(
      absl::StrCat("unknown durability '", name, "' (normal or full)"));
}

class Recorder::Impl {
 public:
  explicit Impl(Durability durability) : durability_(durability) {}
  ~Impl();

  absl::Status Init(const std::string& path);

  // The writer queue.
  struct CreateWrite {
    GameHeader header;
  };
  struct AppendWrite {
    std::string game_id;
    std::vector<Recorder::NewEvent> events;  // written together or not at all
  };
  struct ImportWrite {
    const GameRecord* record;  // owned by the waiting Import() caller
  };
  struct AccountWrite {
    BotAccountRow account;
    bool insert = false;  // else update
  };
  struct SeatTokenWrite {
    std::string game_id;
    int seat = 0;
    std::string token_hash;
  };
  struct TournamentWrite {
    TournamentRow tournament;
    std::vector<TournamentGameRow> games;
  };
  struct TournamentGameWrite {
    std::string tournament;
    int index = 0;
    std::string game_id;
  };
  struct TournamentEndWrite {
    std::string tournament;
    std::string status;
    std::string reason;
    int64_t ended_us = 0;
  };
  using Op = std::variant<CreateWrite, AppendWrite, ImportWrite, AccountWrite,
                          SeatTokenWrite, TournamentWrite, TournamentGameWrite,
                          TournamentEndWrite>;
  struct Write {
    Op op;
    DoneCallback done;
  };
  void Enqueue(Write write);
  absl::Status EnqueueAndWait(Op op);

  absl::StatusOr<GameRecord> Load(const std::string& game_id);
  absl::StatusOr<std::vector<GameSummary>> List(const ListFilter& filter);
  absl::StatusOr<std::vector<std::string>> Unfinished();
  absl::StatusOr<std::map<std::string, std::vector<int>>> ForfeitsByLabel(
      const std::string& label);
  absl::StatusOr<std::vector<BotAccountRow>> Accounts();
  absl::StatusOr<std::vector<TournamentRow>> Tournaments();
  absl::StatusOr<std::vector<TournamentGameRow>> TournamentGames(
      const std::string& tournament);
  Stats stats() const {
    return {transactions_.load(std::memory_order_relaxed),
            writes_.load(std::memory_order_relaxed)};
  }

 private:
  // Where a game's hash chain stands: the next seq and the last hash.
  struct ChainState {
    int64_t next_seq = 0;
    Digest last_hash{};
    bool closed = false;  // ended or aborted: dropped from the cache
  };

  absl::Status Configure(sqlite3* db, bool writer);
  absl::Status Migrate();
  absl::Status PrepareWriter();

  void WriterLoop();
  // Runs done callbacks in order on the completion thread, so that the
  // writer goes on with the next transaction while they run.
  void CompletionLoop();
  void WriteBatch(std::deque<Write>& batch);
  absl::Status DoWrite(const CreateWrite& w);
  absl::Status DoWrite(const AppendWrite& w);
  absl::Status AppendOne(const std::string& game_id,
                         const Recorder::NewEvent& event);
  absl::Status DoWrite(const ImportWrite& w);
  absl::Status DoWrite(const AccountWrite& w);
  absl::Status DoWrite(const SeatTokenWrite& w);
  absl::Status DoWrite(const TournamentWrite& w);
  absl::Status DoWrite(const TournamentGameWrite& w);
  absl::Status DoWrite(const TournamentEndWrite& w);
  // The rules a new game must meet against what is already written, checked
  // here, in the writer's transaction, where concurrent calls are ordered
  // (the service checks them earlier too, for a quick answer):
  // FailedPrecondition for a game labelled with a tournament's name that is
  // not in its schedule (the scheduler writes a game's id into the schedule
  // before creating it; docs/tournaments.md), or, unless scheduled, for a
  // seat whose bot account is revoked (docs/lobby.md).
  absl::Status CheckNewGame(const GameHeader& header);
  absl::StatusOr<ChainState> Chain(const std::string& game_id);
  absl::Status GameExists(const std::string& game_id, bool* exists);
  absl::Status InsertGame(const GameHeader& header, GameStatus status,
                          const std::optional<Summary>& summary);
  absl::Status InsertEvent(const std::string& game_id, int64_t seq,
                           EventKind kind, int64_t at_us,
                           absl::string_view payload, absl::string_view hash);
  absl::Status SetSummary(const std::string& game_id, const Summary& summary);
  // Computes the game's tally from its events (all of them, this
  // transaction's included) and writes it, replacing any.
  absl::Status WriteTally(const std::string& game_id,
                          std::span<const Event> events);
  // The game has just ended (its end or abort event is in this
  // transaction): writes its tally and moves its event rows into an event
  // pack (event_pack.h).
  absl::Status CloseGame(const std::string& game_id);
  // Writes the game's pack of `events` and deletes its event rows.
  absl::Status PackRows(const std::string& game_id,
                        std::span<const Event> events);
  absl::Status InsertTally(const std::string& game_id, const GameTally& tally);
  // Writes the missing tallies of ended games (databases from before
  // migration 002, or a crash between the migration and the backfill).
  // Games that ended before migration 005 keep their event rows: a
  // database's existing records are never rewritten.
  absl::Status Backfill();

  // Reader helpers; read_mu_ must be held.
  absl::StatusOr<sqlite3_stmt*> ReadStmt(const std::string& sql)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(read_mu_);
  // Fills in the game's bots and accounts.
  absl::Status SeatsOf(GameSummary& game)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(read_mu_);
  // The game's events, from its rows or its pack (ReadStoredEvents).
  absl::Status LoadEvents(const std::string& game_id,
                          std::vector<Event>* events)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(read_mu_);

  const Durability durability_;
  bool has_tallies_ = false;  // the game_tallies table exists
  sqlite3* writer_ = nullptr;
  sqlite3* reader_ = nullptr;

  // Writer-thread state (and Init's, before the thread starts).
  struct WriterStmts {
    sqlite3_stmt* begin = nullptr;
    sqlite3_stmt* commit = nullptr;
    sqlite3_stmt* rollback = nullptr;
    sqlite3_stmt* savepoint = nullptr;
    sqlite3_stmt* release = nullptr;
    sqlite3_stmt* rollback_to = nullptr;
    sqlite3_stmt* game_exists = nullptr;
    sqlite3_stmt* last_event = nullptr;
    sqlite3_stmt* insert_game = nullptr;
    sqlite3_stmt* insert_seat = nullptr;
    sqlite3_stmt* insert_event = nullptr;
    sqlite3_stmt* set_summary = nullptr;
    sqlite3_stmt* game_shape = nullptr;
    sqlite3_stmt* game_rows = nullptr;
    sqlite3_stmt* game_pack = nullptr;
    sqlite3_stmt* pack_exists = nullptr;
    sqlite3_stmt* insert_pack = nullptr;
    sqlite3_stmt* delete_rows = nullptr;
    sqlite3_stmt* insert_tally = nullptr;
    sqlite3_stmt* set_seat_account = nullptr;
    sqlite3_stmt* insert_account = nullptr;
    sqlite3_stmt* update_account = nullptr;
    sqlite3_stmt* set_seat_token = nullptr;
    sqlite3_stmt* insert_tournament = nullptr;
    sqlite3_stmt* insert_tournament_game = nullptr;
    sqlite3_stmt* set_tournament_game = nullptr;
    sqlite3_stmt* end_tournament = nullptr;
    sqlite3_stmt* import_account = nullptr;
    sqlite3_stmt* tournament_exists = nullptr;
    sqlite3_stmt* scheduled_game = nullptr;
    sqlite3_stmt* label_used = nullptr;
    sqlite3_stmt* account_revoked = nullptr;
  } w_;
  // Committed chain states of games written to or read by this writer.
  std::unordered_map<std::string, ChainState> cache_;
  // Chain states changed by the open transaction; merged into cache_ on
  // commit, dropped on rollback.
  std::unordered_map<std::string, ChainState> overlay_;

  absl::Mutex queue_mu_;
  absl::CondVar queue_cv_;
  std::deque<Write> queue_ ABSL_GUARDED_BY(queue_mu_);
  bool stop_ ABSL_GUARDED_BY(queue_mu_) = false;
  std::thread writer_thread_;

  // Committed writes whose callbacks have not run yet, in order.
  absl::Mutex done_mu_;
  absl::CondVar done_cv_;
  std::deque<std::pair<DoneCallback, absl::Status>> done_queue_
      ABSL_GUARDED_BY(done_mu_);
  bool done_stop_ ABSL_GUARDED_BY(done_mu_) = false;
  std::thread completion_thread_;

  absl::Mutex read_mu_;
  std::map<std::string, sqlite3_stmt*> read_stmts_ ABSL_GUARDED_BY(read_mu_);

  std::atomic<int64_t> transactions_{0};
  std::atomic<int64_t> writes_{0};
};

// ---------------------------------------------------------------------------
// Opening and migrations.

absl::Status Recorder::Impl::Configure(sqlite3* db, bool writer) {
  sqlite3_extended_result_codes(db, 1);
  sqlite3_busy_timeout(db, kBusyTimeoutMs);
  if (absl::Status s = Exec(db, "PRAGMA foreign_keys=ON"); !s.ok()) return s;
  if (writer) {
    return Exec(db, durability_ == Durability::kFull
                        ? "PRAGMA synchronous=FULL"
                        : "PRAGMA synchronous=NORMAL");
  }
  return Exec(db, "PRAGMA query_only=ON");
}

absl::Status Recorder::Impl::Init(const std::string& path) {
  if (path.empty() || path == ":memory:" ||
      absl::StrContains(path, "mode=memory") ||
      absl::StartsWith(path, "file::memory:")) {
    return absl::InvalidArgumentError(
        "the recorder needs a database file; in-memory databases are not "
        "supported");
  }
  const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
                    SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI;
  int rc = sqlite3_open_v2(path.c_str(), &writer_, flags, nullptr);
  if (rc != SQLITE_OK) {
    return SqlError(writer_, rc, absl::StrCat("opening ", path));
  }
  if (absl::Status s = Configure(writer_, /*writer=*/true); !s.ok()) return s;
  if (absl::Status s = Migrate(); !s.ok()) return s;
  {
    // A database that went to version 3 while 002 was a placeholder (main
    // between the lobby merge and the tallies merge) has no game_tallies:
    // it then works without tallies (readers use the events).
    absl::StatusOr<sqlite3_stmt*> check = Prepare(
        writer_,
        "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = "
        "'game_tallies'");
    if (!check.ok()) return check.status();
    has_tallies_ = sqlite3_step(*check) == SQLITE_ROW &&
                   sqlite3_column_int(*check, 0) == 1;
    sqlite3_finalize(*check);
  }
  if (absl::Status s = PrepareWriter(); !s.ok()) return s;
  if (absl::Status s = Backfill(); !s.ok()) return s;

  rc = sqlite3_open_v2(
      path.c_str(), &reader_,
      SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI, nullptr);
  if (rc != SQLITE_OK) {
    return SqlError(reader_, rc, absl::StrCat("opening ", path, " to read"));
  }
  if (absl::Status s = Configure(reader_, /*writer=*/false); !s.ok()) return s;

  completion_thread_ = std::thread([this] {
    pthread_setname_np(pthread_self(), "rec-completion");
    CompletionLoop();
  });
  writer_thread_ = std::thread([this] {
    pthread_setname_np(pthread_self(), "rec-writer");
    WriterLoop();
  });
  return absl::OkStatus();
}

absl::Status Recorder::Impl::Migrate() {
  const std::vector<Migration>& migrations = Migrations();
  const int supported = migrations.empty() ? 0 : migrations.back().version;
  auto user_version = [&]() -> absl::StatusOr<int> {
    absl::StatusOr<sqlite3_stmt*> stmt =
        Prepare(writer_, "PRAGMA user_version");
    if (!stmt.ok()) return stmt.status();
    int version = 0;
    int rc = sqlite3_step(*stmt);
    if (rc == SQLITE_ROW) version = sqlite3_column_int(*stmt, 0);
    sqlite3_finalize(*stmt);
    if (rc != SQLITE_ROW) return SqlError(writer_, rc, "reading user_version");
    return version;
  };
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
    absl::StatusOr<sqlite3_stmt*> stmt =
        Prepare(writer_, "PRAGMA journal_mode=WAL");
    if (!stmt.ok()) return stmt.status();
    std::string mode;
    int rc = sqlite3_step(*stmt);
    if (rc == SQLITE_ROW) {
      mode = reinterpret_cast<const char*>(sqlite3_column_text(*stmt, 0));
    }
    sqlite3_finalize(*stmt);
    if (rc != SQLITE_ROW) return SqlError(writer_, rc, "setting WAL mode");
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
        s = Exec(writer_,
                 absl::StrCat("PRAGMA user_version=", m.version).c_str());
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
       "SELECT seq, hash FROM events WHERE game_id = ?1 "
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
    absl::StatusOr<sqlite3_stmt*> stmt = Prepare(writer_, sql);
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
  // The writer has drained; now its last callbacks.
  if (completion_thread_.joinable()) {
    {
      absl::MutexLock lock(&done_mu_);
      done_stop_ = true;
    }
    done_cv_.SignalAll();
    completion_thread_.join();
  }
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
  sqlite3_close_v2(reader_);
  sqlite3_close_v2(writer_);
}

// ---------------------------------------------------------------------------
// The writer.

void Recorder::Impl::Enqueue(Write write) {
  {
    absl::MutexLock lock(&queue_mu_);
    queue_.push_back(std::move(write));
  }
  queue_cv_.Signal();
}

absl::Status Recorder::Impl::EnqueueAndWait(Op op) {
  std::promise<absl::Status> promise;
  std::future<absl::Status> result = promise.get_future();
  Enqueue({std::move(op),
           [&promise](absl::Status s) { promise.set_value(std::move(s)); }});
  return result.get();
}

void Recorder::Impl::WriterLoop() {
  while (true) {
    std::deque<Write> batch;
    {
      absl::MutexLock lock(&queue_mu_);
      while (!stop_ && queue_.empty()) queue_cv_.Wait(&queue_mu_);
      if (queue_.empty()) return;  // stopping and drained
      batch.swap(queue_);
    }
    WriteBatch(batch);
  }
}

void Recorder::Impl::WriteBatch(std::deque<Write>& batch) {
  std::vector<absl::Status> results(batch.size());
  overlay_.clear();
  absl::Status txn = Query(w_.begin).Run("BEGIN");
  int64_t written = 0;
  if (txn.ok()) {
    for (size_t i = 0; i < batch.size(); ++i) {
      // A savepoint per write, so that one failing write (an unknown or
      // duplicate game, a bad payload) fails alone. DoWrite changes overlay_
      // only after all of its SQL succeeded, so a failed write leaves the
      // overlay as it was.
      absl::Status s = Query(w_.savepoint).Run("SAVEPOINT");
      if (s.ok()) {
        s = std::visit([this](const auto& op) { return DoWrite(op); },
                       batch[i].op);
        if (s.ok()) {
          s = Query(w_.release).Run("RELEASE");
        } else {
          Query(w_.rollback_to).Run("ROLLBACK TO").IgnoreError();
          Query(w_.release).Run("RELEASE").IgnoreError();
        }
      }
      if (s.ok()) ++written;
      results[i] = std::move(s);
    }
    txn = Query(w_.commit).Run("COMMIT");
    if (!txn.ok()) Query(w_.rollback).Run("ROLLBACK").IgnoreError();
  }
  if (txn.ok()) {
    for (auto& [id, state] : overlay_) {
      if (state.closed) {
        cache_.erase(id);
      } else {
        cache_[id] = state;
      }
    }
    transactions_.fetch_add(1, std::memory_order_relaxed);
    writes_.fetch_add(written, std::memory_order_relaxed);
  } else {
    for (absl::Status& s : results) {
      if (s.ok()) s = txn;
    }
  }
  overlay_.clear();
  {
    absl::MutexLock lock(&done_mu_);
    for (size_t i = 0; i < batch.size(); ++i) {
      if (batch[i].done) {
        done_queue_.emplace_back(std::move(batch[i].done),
                                 std::move(results[i]));
      }
    }
  }
  done_cv_.Signal();
}

void Recorder::Impl::CompletionLoop() {
  while (true) {
    std::deque<std::pair<DoneCallback, absl::Status>> ready;
    {
      absl::MutexLock lock(&done_mu_);
      while (!done_stop_ && done_queue_.empty()) done_cv_.Wait(&done_mu_);
      if (done_queue_.empty()) return;  // stopping and drained
      ready.swap(done_queue_);
    }
    for (auto& [done, status] : ready) done(std::move(status));
  }
}

absl::Status Recorder::Impl::GameExists(const std::string& game_id,
                                        bool* exists) {
  Query q(w_.game_exists);
  q.Bind(1, game_id);
  int rc = q.Step();
  if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
    return SqlError(writer_, rc, "looking up a game");
  }
  *exists = rc == SQLITE_ROW;
  return absl::OkStatus();
}

absl::StatusOr<Recorder::Impl::ChainState> Recorder::Impl::Chain(
    const std::string& game_id) {
  if (auto it = overlay_.find(game_id); it != overlay_.end()) {
    return it->second;
  }
  if (auto it = cache_.find(game_id); it != cache_.end()) return it->second;
  Query q(w_.last_event);
  q.Bind(1, game_id);
  int rc = q.Step();
  if (rc == SQLITE_DONE) {
    // No rows: an unknown game, or an ended one whose events are packed.
    Query p(w_.pack_exists);
    p.Bind(1, game_id);
    rc = p.Step();
    if (rc == SQLITE_ROW) {
      return absl::FailedPreconditionError(
          absl::StrCat("game '", game_id, "' has ended"));
    }
    if (rc != SQLITE_DONE) {
      return SqlError(writer_, rc, "looking for an event pack");
    }
    return absl::NotFoundError(absl::StrCat("unknown game '", game_id, "'"));
  }
  if (rc != SQLITE_ROW) return SqlError(writer_, rc, "reading the last event");
  absl::StatusOr<Digest> hash =
      ParseDigest(q.Text(1), absl::StrCat("game ", game_id, " last hash"));
  if (!hash.ok()) return absl::DataLossError(hash.status().message());
  ChainState state{q.Int(0) + 1, *hash, false};
  // Reads here see only committed rows for this game (this transaction's
  // writes to it would be in overlay_), so the cache may take them.
  cache_[game_id] = state;
  return state;
}

absl::Status Recorder::Impl::InsertGame(const GameHeader& h, GameStatus status,
                                        const std::optional<Summary>& summary) {
  for (const std::string& deck : h.explicit_decks) {
    if (deck.find('\n') != std::string::npos) {
      return absl::InvalidArgumentError("an explicit deck contains a newline");
    }
  }
  {
    Query q(w_.insert_game);
    q.Bind(1, h.game_id)
        .Bind(2, h.label)
        .Bind(3, h.rules)
        .Bind(4, h.commitment)
        .Bind(5, h.seed)
        .Bind(6, absl::StrJoin(h.explicit_decks, "\n"))
        .Bind(7, h.clock.per_move_ms)
        .Bind(8, h.clock.bank_ms)
        .Bind(9, static_cast<int64_t>(h.clock.max_illegal))
        .Bind(10, h.created_us)
        .Bind(11, GameStatusName(status));
    if (summary.has_value()) {
      q.Bind(12, static_cast<int64_t>(summary->winner))
          .Bind(13, summary->end_reason)
          .Bind(15, summary->finished_us);
      if (summary->totals.has_value()) q.Bind(14, *summary->totals);
    }
    if (absl::Status s = q.Run("inserting a game"); !s.ok()) return s;
  }
  for (size_t seat = 0; seat < h.seats.size(); ++seat) {
    Query q(w_.insert_seat);
    q.Bind(1, h.game_id)
        .Bind(2, static_cast<int64_t>(seat))
        .Bind(3, h.seats[seat].bot_name)
        .Bind(4, h.seats[seat].token_hash);
    if (absl::Status s = q.Run("inserting a seat"); !s.ok()) return s;
  }
  for (size_t seat = 0; seat < h.seats.size(); ++seat) {
    if (h.seats[seat].account.empty()) continue;
    Query q(w_.set_seat_account);
    q.Bind(1, h.game_id)
        .Bind(2, static_cast<int64_t>(seat))
        .Bind(3, h.seats[seat].account);
    if (absl::Status s = q.Run("naming a seat's account"); !s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::Status Recorder::Impl::InsertEvent(const std::string& game_id,
                                         int64_t seq, EventKind kind,
                                         int64_t at_us,
                                         absl::string_view payload,
                                         absl::string_view hash) {
  Query q(w_.insert_event);
  q.Bind(1, game_id)
      .Bind(2, seq)
      .Bind(3, EventKindName(kind))
      .Bind(4, at_us)
      .Bind(5, payload)
      .Bind(6, hash);
  return q.Run("inserting an event");
}

absl::Status Recorder::Impl::SetSummary(const std::string& game_id,
                                        const Summary& summary) {
  Query q(w_.set_summary);
  q.Bind(1, game_id)
      .Bind(2, GameStatusName(summary.status))
      .Bind(3, static_cast<int64_t>(summary.winner))
      .Bind(4, summary.end_reason)
      .Bind(6, summary.finished_us);
  if (summary.totals.has_value()) q.Bind(5, *summary.totals);
  return q.Run("updating the game summary");
}

absl::Status Recorder::Impl::InsertTally(const std::string& game_id,
                                         const GameTally& tally) {
  if (!has_tallies_) return absl::OkStatus();
  Query q(w_.insert_tally);
  q.Bind(1, game_id)
      .Bind(2, tally.events)
      .Bind(3, tally.rounds)
      .Bind(4, tally.moves)
      .Bind(5, tally.bad_moves)
      .Bind(6, tally.bad_events)
      .Bind(7, tally.PointsText())
      .Bind(8, tally.ConductText())
      .Bind(9, tally.MoveMsText());
  return q.Run("writing the game tally");
}

absl::Status Recorder::Impl::WriteTally(const std::string& game_id,
                                        std::span<const Event> events) {
  if (!has_tallies_) return absl::OkStatus();
  std::string rules;
  int64_t players = 0;
  {
    Query q(w_.game_shape);
    q.Bind(1, game_id);
    int rc = q.Step();
    if (rc != SQLITE_ROW)
      return SqlError(writer_, rc, "reading a game's rules");
    rules = q.Text(0);
    players = q.Int(1);
  }
  const int seats = static_cast<int>(std::clamp<int64_t>(players, 0, 64));
  TallyBuilder builder(seats, TallySides(rules, seats));
  for (const Event& e : events) builder.Add(e.kind, e.payload);
  return InsertTally(game_id, builder.tally());
}

absl::Status Recorder::Impl::PackRows(const std::string& game_id,
                                      std::span<const Event> events) {
  absl::StatusOr<std::string> pack = PackEvents(events);
  if (!pack.ok()) {
    return absl::Status(
        pack.status().code(),
        absl::StrCat("game ", game_id, ": ", pack.status().message()));
  }
  {
    Query q(w_.insert_pack);
    q.Bind(1, game_id)
        .Bind(2, static_cast<int64_t>(events.size()))
        .BindBlob(3, *pack);
    if (absl::Status s = q.Run("writing an event pack"); !s.ok()) return s;
  }
  Query q(w_.delete_rows);
  q.Bind(1, game_id);
  return q.Run("deleting packed event rows");
}

absl::Status Recorder::Impl::CloseGame(const std::string& game_id) {
  std::vector<Event> events;
  if (absl::Status s =
          ReadStoredEvents(w_.game_rows, w_.game_pack, game_id, &events);
      !s.ok()) {
    return s;
  }
  if (absl::Status s = WriteTally(game_id, events); !s.ok()) return s;
  return PackRows(game_id, events);
}

absl::Status Recorder::Impl::Backfill() {
  if (!has_tallies_) return absl::OkStatus();
  std::vector<std::string> ids;
  {
    absl::StatusOr<sqlite3_stmt*> stmt = Prepare(
        writer_,
        "SELECT game_id FROM games g WHERE status != 'running' AND NOT EXISTS "
        "(SELECT 1 FROM game_tallies t WHERE t.game_id = g.game_id) "
        "ORDER BY game_id");
    if (!stmt.ok()) return stmt.status();
    int rc;
    {
      Query q(*stmt);
      while ((rc = q.Step()) == SQLITE_ROW) ids.push_back(q.Text(0));
    }
    sqlite3_finalize(*stmt);
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

absl::Status Recorder::Impl::CheckNewGame(const GameHeader& h) {
  bool scheduled = false;
  if (!h.label.empty()) {
    Query t(w_.tournament_exists);
    t.Bind(1, h.label);
    int rc = t.Step();
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
      return SqlError(writer_, rc, "reading tournaments");
    }
    if (rc == SQLITE_ROW) {
      Query g(w_.scheduled_game);
      g.Bind(1, h.label).Bind(2, h.game_id);
      rc = g.Step();
      if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
        return SqlError(writer_, rc, "reading a schedule");
      }
      if (rc == SQLITE_DONE) {
        return absl::FailedPreconditionError(absl::StrCat(
            "label '", h.label,
            "' is the name of a tournament: only the referee's scheduler "
            "creates games with it"));
      }
      scheduled = true;
    }
  }
  // (A scheduled game may seat a revoked account: its seat forfeits at
  // once, docs/tournaments.md.)
  if (scheduled) return absl::OkStatus();
  for (size_t seat = 0; seat < h.seats.size(); ++seat) {
    const std::string& account = h.seats[seat].account;
    if (account.empty()) continue;
    Query q(w_.account_revoked);
    q.Bind(1, account);
    const int rc = q.Step();
    if (rc == SQLITE_ROW && !q.IsNull(0)) {
      return absl::FailedPreconditionError(absl::StrCat(
          "seats[", seat, "].account: bot account '", account, "' is revoked"));
    }
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
      return SqlError(writer_, rc, "reading a bot account");
    }
  }
  return absl::OkStatus();
}

absl::Status Recorder::Impl::DoWrite(const CreateWrite& w) {
  const GameHeader& h = w.header;
  if (h.game_id.empty()) return absl::InvalidArgumentError("empty game id");
  Digest previous{};
  if (!h.commitment.empty()) {
    absl::StatusOr<Digest> commitment = ParseDigest(h.commitment, "commitment");
    if (!commitment.ok()) return commitment.status();
    previous = *commitment;
  }
  bool exists = overlay_.contains(h.game_id) || cache_.contains(h.game_id);
  if (!exists) {
    if (absl::Status s = GameExists(h.game_id, &exists); !s.ok()) return s;
  }
  if (exists) {
    return absl::AlreadyExistsError(
        absl::StrCat("game '", h.game_id, "' already exists"));
  }
  if (absl::Status s = CheckNewGame(h); !s.ok()) return s;
  if (absl::Status s = InsertGame(h, GameStatus::kRunning, std::nullopt);
      !s.ok()) {
    return s;
  }
  const std::string payload = CreatePayload(h);
  const Digest hash = ChainHash(previous, EventKind::kCreate, payload);
  if (absl::Status s = InsertEvent(h.game_id, 0, EventKind::kCreate,
                                   h.created_us, payload, ToHex(hash));
      !s.ok()) {
    return s;
  }
  overlay_[h.game_id] = ChainState{1, hash, false};
  return absl::OkStatus();
}

absl::Status Recorder::Impl::DoWrite(const AppendWrite& w) {
  // On failure the savepoint undoes the SQL; the chain state is put back
  // here, so that the overlay again matches what is written.
  const auto before = overlay_.find(w.game_id);
  const std::optional<ChainState> saved =
      before == overlay_.end() ? std::nullopt
                               : std::optional<ChainState>(before->second);
  for (const Recorder::NewEvent& e : w.events) {
    absl::Status s = AppendOne(w.game_id, e);
    if (!s.ok()) {
      if (saved) {
        overlay_[w.game_id] = *saved;
      } else {
        overlay_.erase(w.game_id);
      }
      return s;
    }
  }
  return absl::OkStatus();
}

absl::Status Recorder::Impl::AppendOne(const std::string& game_id,
                                       const Recorder::NewEvent& e) {
  if (e.kind == EventKind::kCreate) {
    return absl::InvalidArgumentError(
        "create events are written by CreateGame, not Append");
  }
  absl::StatusOr<std::optional<Summary>> summary =
      CheckPayload(e.kind, e.at_us, e.payload);
  if (!summary.ok()) return summary.status();
  absl::StatusOr<ChainState> chain = Chain(game_id);
  if (!chain.ok()) return chain.status();
  if (chain->closed) {
    return absl::FailedPreconditionError(
        absl::StrCat("game '", game_id, "' has ended"));
  }
  const Digest hash = ChainHash(chain->last_hash, e.kind, e.payload);
  if (absl::Status s = InsertEvent(game_id, chain->next_seq, e.kind, e.at_us,
                                   e.payload, ToHex(hash));
      !s.ok()) {
    return s;
  }
  if (summary->has_value()) {
    if (absl::Status s = SetSummary(game_id, **summary); !s.ok()) return s;
    if (absl::Status s = CloseGame(game_id); !s.ok()) return s;
  }
  overlay_[game_id] = ChainState{chain->next_seq + 1, hash,
                                 chain->closed || summary->has_value()};
  return absl::OkStatus();
}

absl::Status Recorder::Impl::DoWrite(const ImportWrite& w) {
  const GameRecord& r = *w.record;
  const GameHeader& h = r.header;
  if (h.game_id.empty()) return absl::InvalidArgumentError("empty game id");
  if (r.events.empty() || r.events[0].kind != EventKind::kCreate) {
    return absl::InvalidArgumentError(
        absl::StrCat("game ", h.game_id, ": a record starts with create"));
  }
  Digest last{};
  std::optional<Summary> summary;
  for (size_t i = 0; i < r.events.size(); ++i) {
    const Event& e = r.events[i];
    if (e.seq != static_cast<int64_t>(i)) {
      return absl::InvalidArgumentError(
          absl::StrCat("game ", h.game_id, ": event ", i, " has seq ", e.seq));
    }
    if (i > 0 && e.kind == EventKind::kCreate) {
      return absl::InvalidArgumentError(
          absl::StrCat("game ", h.game_id, ": create may only be event 0"));
    }
    absl::StatusOr<Digest> hash = ParseDigest(
        e.hash, absl::StrCat("game ", h.game_id, " event ", i, " hash"));
    if (!hash.ok()) return hash.status();
    last = *hash;
    absl::StatusOr<std::optional<Summary>> s =
        CheckPayload(e.kind, e.at_us, e.payload);
    if (!s.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "game ", h.game_id, " event ", i, ": ", s.status().message()));
    }
    if (s->has_value()) summary = *std::move(s).value();
  }
  bool exists = overlay_.contains(h.game_id) || cache_.contains(h.game_id);
  if (!exists) {
    if (absl::Status s = GameExists(h.game_id, &exists); !s.ok()) return s;
  }
  if (exists) {
    return absl::AlreadyExistsError(
        absl::StrCat("game '", h.game_id, "' already exists"));
  }
  if (r.status == GameStatus::kRunning) {
    summary.reset();
  } else if (summary.has_value()) {
    summary->status = r.status;
  } else {
    summary = Summary{r.status, -1, "", std::nullopt, r.events.back().at_us};
  }
  // The accounts the seats name must exist (seats.account references
  // bot_accounts): one this database does not know is added without a key
  // and revoked, so nothing can play as it until an organiser rotates its
  // key (docs/export_format.md).
  for (const SeatInfo& seat : h.seats) {
    if (seat.account.empty()) continue;
    Query q(w_.import_account);
    q.Bind(1, seat.account).Bind(2, h.created_us);
    if (absl::Status s = q.Run("adding an imported seat's account"); !s.ok()) {
      return s;
    }
  }
  if (absl::Status s = InsertGame(h, r.status, summary); !s.ok()) return s;
  if (r.status == GameStatus::kRunning) {
    for (const Event& e : r.events) {
      if (absl::Status s =
              InsertEvent(h.game_id, e.seq, e.kind, e.at_us, e.payload,
                          absl::AsciiStrToLower(e.hash));
          !s.ok()) {
        return s;
      }
    }
  } else {
    // An ended game is stored as the referee leaves one: its events
    // packed. Derived data is never imported: the tally is computed from
    // the events.
    if (absl::Status s = PackRows(h.game_id, r.events); !s.ok()) return s;
    if (absl::Status s = InsertTally(h.game_id, TallyOf(r)); !s.ok()) return s;
  }
  overlay_[h.game_id] = ChainState{static_cast<int64_t>(r.events.size()), last,
                                   r.status != GameStatus::kRunning};
  return absl::OkStatus();
}

absl::Status Recorder::Impl::DoWrite(const AccountWrite& w) {
  const BotAccountRow& a = w.account;
  if (a.name.empty()) return absl::InvalidArgumentError("empty account name");
  Query q(w.insert ? w_.insert_account : w_.update_account);
  q.Bind(1, a.name)
      .Bind(2, a.owner)
      .Bind(3, a.contact)
      .Bind(4, a.key_hash)
      .Bind(5, a.created_us)
      .Bind(6, a.key_us);
  if (a.revoked_us != 0) {
    q.Bind(7, a.revoked_us);
  } else {
    q.BindNull(7);
  }
  const int rc = q.Step();
  if (rc != SQLITE_DONE) {
    if (w.insert && (rc & 0xff) == SQLITE_CONSTRAINT) {
      return absl::AlreadyExistsError(
          absl::StrCat("bot account '", a.name, "' already exists"));
    }
    return SqlError(writer_, rc, "writing a bot account");
  }
  if (!w.insert && sqlite3_changes(writer_) == 0) {
    return absl::NotFoundError(absl::StrCat("no bot account '", a.name, "'"));
  }
  return absl::OkStatus();
}

absl::Status Recorder::Impl::DoWrite(const SeatTokenWrite& w) {
  Query q(w_.set_seat_token);
  q.Bind(1, w.game_id)
      .Bind(2, static_cast<int64_t>(w.seat))
      .Bind(3, w.token_hash);
  if (absl::Status s = q.Run("setting a seat token"); !s.ok()) return s;
  if (sqlite3_changes(writer_) == 0) {
    return absl::NotFoundError(
        absl::StrCat("no seat ", w.seat, " in game '", w.game_id, "'"));
  }
  return absl::OkStatus();
}

absl::Status Recorder::Impl::DoWrite(const TournamentWrite& w) {
  const TournamentRow& t = w.tournament;
  if (t.name.empty())
    return absl::InvalidArgumentError("empty tournament name");
  {
    Query q(w_.label_used);
    q.Bind(1, t.name);
    const int rc = q.Step();
    if (rc == SQLITE_ROW) {
      return absl::AlreadyExistsError(
          absl::StrCat("games labelled '", t.name,
                       "' already exist; a tournament's name must be a new "
                       "label"));
    }
    if (rc != SQLITE_DONE) return SqlError(writer_, rc, "reading labels");
  }
  {
    Query q(w_.insert_tournament);
    q.Bind(1, t.name)
        .Bind(2, Json(t.participants).dump())
        .Bind(3, t.format)
        .Bind(4, static_cast<int64_t>(t.games_per_pairing))
        .Bind(5, static_cast<int64_t>(t.duplicate ? 1 : 0))
        .Bind(6, t.rules)
        .Bind(7, t.clock.per_move_ms)
        .Bind(8, t.clock.bank_ms)
        .Bind(9, static_cast<int64_t>(t.clock.max_illegal))
        .Bind(10, static_cast<int64_t>(t.max_concurrent))
        .Bind(11, t.grace_ms)
        .Bind(12, t.seed)
        .Bind(13, t.commitment)
        .Bind(14, t.status)
        .Bind(15, t.reason)
        .Bind(16, t.created_us);
    if (t.ended_us != 0) q.Bind(17, t.ended_us);
    const int rc = q.Step();
    if (rc != SQLITE_DONE) {
      if (rc == SQLITE_CONSTRAINT_PRIMARYKEY) {
        return absl::AlreadyExistsError(
            absl::StrCat("tournament '", t.name, "' already exists"));
      }
      return SqlError(writer_, rc, "inserting a tournament");
    }
  }
  for (const TournamentGameRow& g : w.games) {
    if (g.seats.size() != 2) {
      return absl::InvalidArgumentError("a tournament game has two seats");
    }
    Query q(w_.insert_tournament_game);
    q.Bind(1, t.name)
        .Bind(2, static_cast<int64_t>(g.index))
        .Bind(3, g.seats[0])
        .Bind(4, g.seats[1])
        .Bind(5, g.seed);
    if (!g.game_id.empty()) q.Bind(6, g.game_id);
    if (absl::Status s = q.Run("inserting a tournament game"); !s.ok()) {
      return s;
    }
  }
  return absl::OkStatus();
}

absl::Status Recorder::Impl::DoWrite(const TournamentGameWrite& w) {
  Query q(w_.set_tournament_game);
  q.Bind(1, w.tournament).Bind(2, static_cast<int64_t>(w.index));
  if (!w.game_id.empty()) q.Bind(3, w.game_id);
  if (absl::Status s = q.Run("setting a tournament game"); !s.ok()) return s;
  if (sqlite3_changes(writer_) == 0) {
    return absl::NotFoundError(absl::StrCat(
        "no game ", w.index, " in tournament '", w.tournament, "'"));
  }
  return absl::OkStatus();
}

absl::Status Recorder::Impl::DoWrite(const TournamentEndWrite& w) {
  Query q(w_.end_tournament);
  q.Bind(1, w.tournament)
      .Bind(2, w.status)
      .Bind(3, w.reason)
      .Bind(4, w.ended_us);
  if (absl::Status s = q.Run("ending a tournament"); !s.ok()) return s;
  if (sqlite3_changes(writer_) == 0) {
    return absl::NotFoundError(
        absl::StrCat("no tournament '", w.tournament, "'"));
  }
  return absl::OkStatus();
}

// ---------------------------------------------------------------------------
// Reads. One connection, one read transaction per call, under read_mu_.

absl::StatusOr<sqlite3_stmt*> Recorder::Impl::ReadStmt(const std::string& sql) {
  if (auto it = read_stmts_.find(sql); it != read_stmts_.end()) {
    return it->second;
  }
  absl::StatusOr<sqlite3_stmt*> stmt = Prepare(reader_, sql);
  if (!stmt.ok()) return stmt.status();
  read_stmts_.emplace(sql, *stmt);
  return *stmt;
}

namespace {

// A read transaction: one consistent snapshot for the whole call.
class ReadTransaction {
 public:
  explicit ReadTransaction(sqlite3* db) : db_(db) {
    status_ = Exec(db_, "BEGIN");
  }
  ~ReadTransaction() {
    if (status_.ok()) Exec(db_, "COMMIT").IgnoreError();
  }
  const absl::Status& status() const { return status_; }

 private:
  sqlite3* db_;
  absl::Status status_;
};

}  // namespace

absl::Status Recorder::Impl::SeatsOf(GameSummary& game) {
  absl::StatusOr<sqlite3_stmt*> stmt = ReadStmt(
      "SELECT bot_name, coalesce(account, '') FROM seats WHERE game_id = ?1 "
      "ORDER BY seat");
  if (!stmt.ok()) return stmt.status();
  Query q(*stmt);
  q.Bind(1, game.game_id);
  game.bots.clear();
  game.accounts.clear();
  int rc;
  while ((rc = q.Step()) == SQLITE_ROW) {
    game.bots.push_back(q.Text(0));
    game.accounts.push_back(q.Text(1));
  }
  if (rc != SQLITE_DONE) return SqlError(reader_, rc, "reading seats");
  return absl::OkStatus();
}

absl::Status Recorder::Impl::LoadEvents(const std::string& game_id,
                                        std::vector<Event>* events) {
  absl::StatusOr<sqlite3_stmt*> rows = ReadStmt(kGameRowsSql);
  if (!rows.ok()) return rows.status();
  absl::StatusOr<sqlite3_stmt*> pack = ReadStmt(kGamePackSql);
  if (!pack.ok()) return pack.status();
  return ReadStoredEvents(*rows, *pack, game_id, events);
}

absl::StatusOr<GameRecord> Recorder::Impl::Load(const std::string& game_id) {
  absl::MutexLock lock(&read_mu_);
  ReadTransaction txn(reader_);
  if (!txn.status().ok()) return txn.status();
  GameRecord record;
  GameHeader& h = record.header;
  {
    absl::StatusOr<sqlite3_stmt*> stmt = ReadStmt(
        "SELECT game_id, label, rules, commitment, seed, explicit_decks, "
        "per_move_ms, bank_ms, max_illegal, created_us, status "
        "FROM games WHERE game_id = ?1");
    if (!stmt.ok()) return stmt.status();
    Query q(*stmt);
    q.Bind(1, game_id);
    int rc = q.Step();
    if (rc == SQLITE_DONE) {
      return absl::NotFoundError(absl::StrCat("unknown game '", game_id, "'"));
    }
    if (rc != SQLITE_ROW) return SqlError(reader_, rc, "reading a game");
    h.game_id = q.Text(0);
    h.label = q.Text(1);
    h.rules = q.Text(2);
    h.commitment = q.Text(3);
    h.seed = q.Text(4);
    for (absl::string_view deck :
         absl::StrSplit(q.Text(5), '\n', absl::SkipEmpty())) {
      h.explicit_decks.emplace_back(deck);
    }
    h.clock.per_move_ms = q.Int(6);
    h.clock.bank_ms = q.Int(7);
    h.clock.max_illegal = static_cast<int>(q.Int(8));
    h.created_us = q.Int(9);
    absl::StatusOr<GameStatus> status = ParseGameStatus(q.Text(10));
    if (!status.ok()) return status.status();
    record.status = *status;
  }
  {
    absl::StatusOr<sqlite3_stmt*> stmt = ReadStmt(
        "SELECT bot_name, token_hash FROM seats WHERE game_id = ?1 "
        "ORDER BY seat");
    if (!stmt.ok()) return stmt.status();
    Query q(*stmt);
    q.Bind(1, game_id);
    int rc;
    while ((rc = q.Step()) == SQLITE_ROW) {
      h.seats.push_back({q.Text(0), q.Text(1), ""});
    }
    if (rc != SQLITE_DONE) return SqlError(reader_, rc, "reading seats");
  }
  {
    absl::StatusOr<sqlite3_stmt*> stmt = ReadStmt(
        "SELECT seat, account FROM seats WHERE game_id = ?1 "
        "AND account IS NOT NULL");
    if (!stmt.ok()) return stmt.status();
    Query q(*stmt);
    q.Bind(1, game_id);
    int rc;
    while ((rc = q.Step()) == SQLITE_ROW) {
      const int64_t seat = q.Int(0);
      if (seat >= 0 && seat < static_cast<int64_t>(h.seats.size())) {
        h.seats[seat].account = q.Text(1);
      }
    }
    if (rc != SQLITE_DONE) return SqlError(reader_, rc, "reading accounts");
  }
  if (absl::Status s = LoadEvents(game_id, &record.events); !s.ok()) return s;
  return record;
}

absl::StatusOr<std::vector<GameSummary>> Recorder::Impl::List(
    const ListFilter& filter) {
  // The SQL depends only on which filters are set, so at most 128 shapes
  // end up in the statement cache.
  std::string sql =
      "SELECT game_id, label, rules, status, winner, end_reason, totals, "
      "created_us, finished_us FROM games g WHERE 1";
  if (!filter.game_id.empty()) absl::StrAppend(&sql, " AND game_id = ?7");
  if (filter.status.has_value()) absl::StrAppend(&sql, " AND status = ?1");
  if (!filter.label.empty()) absl::StrAppend(&sql, " AND label = ?2");
  if (!filter.bot.empty()) {
    absl::StrAppend(&sql,
                    " AND EXISTS (SELECT 1 FROM seats s WHERE s.game_id = "
                    "g.game_id AND s.bot_name = ?3)");
  }
  if (filter.from_us != 0) absl::StrAppend(&sql, " AND created_us >= ?4");
  if (filter.to_us != 0) absl::StrAppend(&sql, " AND created_us < ?5");
  absl::StrAppend(&sql, filter.newest_first
                            ? " ORDER BY created_us DESC, game_id DESC"
                            : " ORDER BY created_us, game_id");
  if (filter.limit > 0) absl::StrAppend(&sql, " LIMIT ?6");

  absl::MutexLock lock(&read_mu_);
  ReadTransaction txn(reader_);
  if (!txn.status().ok()) return txn.status();
  absl::StatusOr<sqlite3_stmt*> stmt = ReadStmt(sql);
  if (!stmt.ok()) return stmt.status();
  std::vector<GameSummary> out;
  {
    Query q(*stmt);
    if (!filter.game_id.empty()) q.Bind(7, filter.game_id);
    if (filter.status.has_value()) q.Bind(1, GameStatusName(*filter.status));
    if (!filter.label.empty()) q.Bind(2, filter.label);
    if (!filter.bot.empty()) q.Bind(3, filter.bot);
    if (filter.from_us != 0) q.Bind(4, filter.from_us);
    if (filter.to_us != 0) q.Bind(5, filter.to_us);
    if (filter.limit > 0) q.Bind(6, static_cast<int64_t>(filter.limit));
    int rc;
    while ((rc = q.Step()) == SQLITE_ROW) {
      GameSummary g;
      g.game_id = q.Text(0);
      g.label = q.Text(1);
      g.rules = q.Text(2);
      absl::StatusOr<GameStatus> status = ParseGameStatus(q.Text(3));
      if (!status.ok()) return status.status();
      g.status = *status;
      g.winner = q.IsNull(4) ? -1 : static_cast<int>(q.Int(4));
      g.end_reason = q.Text(5);
      if (!q.IsNull(6)) g.totals = ParseTotals(q.Text(6));
      g.created_us = q.Int(7);
      g.finished_us = q.IsNull(8) ? 0 : q.Int(8);
      out.push_back(std::move(g));
    }
    if (rc != SQLITE_DONE) return SqlError(reader_, rc, "listing games");
  }
  for (GameSummary& g : out) {
    if (absl::Status s = SeatsOf(g); !s.ok()) return s;
  }
  return out;
}

absl::StatusOr<std::vector<std::string>> Recorder::Impl::Unfinished() {
  absl::MutexLock lock(&read_mu_);
  absl::StatusOr<sqlite3_stmt*> stmt = ReadStmt(
      "SELECT game_id FROM games WHERE status = 'running' "
      "ORDER BY created_us, game_id");
  if (!stmt.ok()) return stmt.status();
  Query q(*stmt);
  std::vector<std::string> ids;
  int rc;
  while ((rc = q.Step()) == SQLITE_ROW) ids.push_back(q.Text(0));
  if (rc != SQLITE_DONE) return SqlError(reader_, rc, "listing running games");
  return ids;
}

absl::StatusOr<std::vector<BotAccountRow>> Recorder::Impl::Accounts() {
  absl::MutexLock lock(&read_mu_);
  absl::StatusOr<sqlite3_stmt*> stmt = ReadStmt(
      "SELECT name, owner, contact, key_hash, created_us, key_us, revoked_us "
      "FROM bot_accounts ORDER BY name");
  if (!stmt.ok()) return stmt.status();
  Query q(*stmt);
  std::vector<BotAccountRow> accounts;
  int rc;
  while ((rc = q.Step()) == SQLITE_ROW) {
    accounts.push_back({q.Text(0), q.Text(1), q.Text(2), q.Text(3), q.Int(4),
                        q.Int(5), q.IsNull(6) ? 0 : q.Int(6)});
  }
  if (rc != SQLITE_DONE) return SqlError(reader_, rc, "listing bot accounts");
  return accounts;
}

absl::StatusOr<std::map<std::string, std::vector<int>>>
Recorder::Impl::ForfeitsByLabel(const std::string& label) {
  absl::MutexLock lock(&read_mu_);
  ReadTransaction txn(reader_);
  if (!txn.status().ok()) return txn.status();
  std::map<std::string, std::vector<int>> out;
  {
    // Every finished game gets an entry (its seats), forfeits or not.
    absl::StatusOr<sqlite3_stmt*> stmt = ReadStmt(
        "SELECT g.game_id, count(s.seat) FROM games g JOIN seats s "
        "ON s.game_id = g.game_id WHERE g.label = ?1 AND "
        "g.status = 'finished' GROUP BY g.game_id");
    if (!stmt.ok()) return stmt.status();
    Query q(*stmt);
    q.Bind(1, label);
    int rc;
    while ((rc = q.Step()) == SQLITE_ROW) {
      out[q.Text(0)].assign(static_cast<size_t>(q.Int(1)), 0);
    }
    if (rc != SQLITE_DONE) return SqlError(reader_, rc, "reading seats");
  }
  if (has_tallies_) {
    // The forfeits column of each game's tally (tally.h: conduct is
    // [[moves, rejects, forfeits, timeouts], ...] per seat), counted as
    // `cassino stats` counts them. Every ended game has a tally once the
    // recorder has opened the database, except one whose events cannot be
    // read (verify names it), which counts no forfeits.
    absl::StatusOr<sqlite3_stmt*> stmt = ReadStmt(
        "SELECT t.game_id, t.conduct FROM games g JOIN game_tallies t "
        "ON t.game_id = g.game_id WHERE g.label = ?1 AND "
        "g.status = 'finished'");
    if (!stmt.ok()) return stmt.status();
    Query q(*stmt);
    q.Bind(1, label);
    int rc;
    while ((rc = q.Step()) == SQLITE_ROW) {
      std::vector<int>& seats = out[q.Text(0)];
      const Json conduct =
          Json::parse(q.View(1), nullptr, /*allow_exceptions=*/false);
      if (!conduct.is_array()) continue;
      for (size_t seat = 0; seat < seats.size() && seat < conduct.size();
           ++seat) {
        const Json& c = conduct[seat];
        if (c.is_array() && c.size() > 2 && c[2].is_number_integer()) {
          seats[seat] = c[2].get<int>();
        }
      }
    }
    if (rc != SQLITE_DONE) return SqlError(reader_, rc, "reading forfeits");
    return out;
  }
  // No tallies (a database whose migration 002 was a placeholder): the
  // forfeit events themselves.
  std::vector<Event> events;
  for (auto& [game_id, seats] : out) {
    if (!LoadEvents(game_id, &events).ok()) continue;
    for (const Event& e : events) {
      if (e.kind != EventKind::kForfeit) continue;
      const Json payload =
          Json::parse(e.payload, nullptr, /*allow_exceptions=*/false);
      if (!payload.is_object() || !payload.contains("seat") ||
          !payload["seat"].is_number_integer()) {
        continue;
      }
      const int64_t seat = payload["seat"].get<int64_t>();
      if (seat >= 0 && seat < static_cast<int64_t>(seats.size())) ++seats[seat];
    }
  }
  return out;
}

absl::StatusOr<std::vector<TournamentRow>> Recorder::Impl::Tournaments() {
  absl::MutexLock lock(&read_mu_);
  absl::StatusOr<sqlite3_stmt*> stmt = ReadStmt(
      "SELECT name, participants, format, games_per_pairing, duplicate, rules, "
      "per_move_ms, bank_ms, max_illegal, max_concurrent, grace_ms, seed, "
      "commitment, status, reason, created_us, ended_us FROM tournaments "
      "ORDER BY created_us, name");
  if (!stmt.ok()) return stmt.status();
  Query q(*stmt);
  std::vector<TournamentRow> out;
  int rc;
  while ((rc = q.Step()) == SQLITE_ROW) {
    TournamentRow t;
    t.name = q.Text(0);
    Json participants =
        Json::parse(q.Text(1), nullptr, /*allow_exceptions=*/false);
    if (!participants.is_array()) {
      return absl::DataLossError(absl::StrCat(
          "tournament '", t.name, "': participants is not a JSON array"));
    }
    for (const Json& p : participants) {
      if (!p.is_string()) {
        return absl::DataLossError(absl::StrCat(
            "tournament '", t.name, "': a participant is not a string"));
      }
      t.participants.push_back(p.get<std::string>());
    }
    t.format = q.Text(2);
    t.games_per_pairing = static_cast<int>(q.Int(3));
    t.duplicate = q.Int(4) != 0;
    t.rules = q.Text(5);
    t.clock.per_move_ms = q.Int(6);
    t.clock.bank_ms = q.Int(7);
    t.clock.max_illegal = static_cast<int>(q.Int(8));
    t.max_concurrent = static_cast<int>(q.Int(9));
    t.grace_ms = q.Int(10);
    t.seed = q.Text(11);
    t.commitment = q.Text(12);
    t.status = q.Text(13);
    t.reason = q.Text(14);
    t.created_us = q.Int(15);
    t.ended_us = q.IsNull(16) ? 0 : q.Int(16);
    out.push_back(std::move(t));
  }
  if (rc != SQLITE_DONE) return SqlError(reader_, rc, "listing tournaments");
  return out;
}

absl::StatusOr<std::vector<TournamentGameRow>> Recorder::Impl::TournamentGames(
    const std::string& tournament) {
  absl::MutexLock lock(&read_mu_);
  absl::StatusOr<sqlite3_stmt*> stmt = ReadStmt(
      "SELECT idx, seat0, seat1, seed, game_id FROM tournament_games "
      "WHERE tournament = ?1 ORDER BY idx");
  if (!stmt.ok()) return stmt.status();
  Query q(*stmt);
  q.Bind(1, tournament);
  std::vector<TournamentGameRow> out;
  int rc;
  while ((rc = q.Step()) == SQLITE_ROW) {
    out.push_back({static_cast<int>(q.Int(0)),
                   {q.Text(1), q.Text(2)},
                   q.Text(3),
                   q.IsNull(4) ? std::string() : q.Text(4)});
  }
  if (rc != SQLITE_DONE) {
    return SqlError(reader_, rc, "reading a tournament's schedule");
  }
  return out;
}

// ---------------------------------------------------------------------------
// Recorder.

absl::StatusOr<std::unique_ptr<Recorder>> Recorder::Open(
    const std::string& path, Durability durability) {
  auto impl = std::make_unique<Impl>(durability);
  if (absl::Status s = impl->Init(path); !s.ok()) return s;
  return std::unique_ptr<Recorder>(new Recorder(std::move(impl)));
}

Recorder::Recorder(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Recorder::~Recorder() = default;

void Recorder::CreateGame(const GameHeader& header, DoneCallback done) {
  impl_->Enqueue({Impl::CreateWrite{header}, std::move(done)});
}

void Recorder::Append(const std::string& game_id, EventKind kind, int64_t at_us,
                      std::string payload, DoneCallback done) {
  std::vector<NewEvent> events;
  events.push_back({kind, at_us, std::move(payload)});
  Append(game_id, std::move(events), std::move(done));
}

void Recorder::Append(const std::string& game_id, std::vector<NewEvent> events,
                      DoneCallback done) {
  impl_->Enqueue(
      {Impl::AppendWrite{game_id, std::move(events)}, std::move(done)});
}

absl::Status Recorder::CreateGameSync(const GameHeader& header) {
  return impl_->EnqueueAndWait(Impl::CreateWrite{header});
}

absl::Status Recorder::AppendSync(const std::string& game_id, EventKind kind,
                                  int64_t at_us, std::string payload) {
  std::vector<NewEvent> events;
  events.push_back({kind, at_us, std::move(payload)});
  return impl_->EnqueueAndWait(Impl::AppendWrite{game_id, std::move(events)});
}

absl::StatusOr<GameRecord> Recorder::Load(const std::string& game_id) const {
  return impl_->Load(game_id);
}

absl::StatusOr<std::vector<GameSummary>> Recorder::List(
    const ListFilter& filter) const {
  return impl_->List(filter);
}

absl::StatusOr<std::vector<std::string>> Recorder::Unfinished() const {
  return impl_->Unfinished();
}

absl::Status Recorder::Import(const GameRecord& record) {
  return impl_->EnqueueAndWait(Impl::ImportWrite{&record});
}

void Recorder::InsertAccount(const BotAccountRow& account, DoneCallback done) {
  impl_->Enqueue({Impl::AccountWrite{account, true}, std::move(done)});
}

void Recorder::UpdateAccount(const BotAccountRow& account, DoneCallback done) {
  impl_->Enqueue({Impl::AccountWrite{account, false}, std::move(done)});
}

void Recorder::SetSeatToken(const std::string& game_id, int seat,
                            const std::string& token_hash, DoneCallback done) {
  impl_->Enqueue(
      {Impl::SeatTokenWrite{game_id, seat, token_hash}, std::move(done)});
}

absl::StatusOr<std::vector<BotAccountRow>> Recorder::Accounts() const {
  return impl_->Accounts();
}

void Recorder::InsertTournament(const TournamentRow& tournament,
                                const std::vector<TournamentGameRow>& games,
                                DoneCallback done) {
  impl_->Enqueue({Impl::TournamentWrite{tournament, games}, std::move(done)});
}

void Recorder::SetTournamentGame(const std::string& tournament, int index,
                                 const std::string& game_id,
                                 DoneCallback done) {
  impl_->Enqueue(
      {Impl::TournamentGameWrite{tournament, index, game_id}, std::move(done)});
}

void Recorder::EndTournament(const std::string& tournament,
                             const std::string& status,
                             const std::string& reason, int64_t ended_us,
                             DoneCallback done) {
  impl_->Enqueue(
      {Impl::TournamentEndWrite{tournament, status, reason, ended_us},
       std::move(done)});
}

absl::StatusOr<std::map<std::string, std::vector<int>>>
Recorder::ForfeitsByLabel(const std::string& label) const {
  return impl_->ForfeitsByLabel(label);
}

absl::StatusOr<std::vector<TournamentRow>> Recorder::Tournaments() const {
  return impl_->Tournaments();
}

absl::StatusOr<std::vector<TournamentGameRow>> Recorder::TournamentGames(
    const std::string& tournament) const {
  return impl_->TournamentGames(tournament);
}

Recorder::Stats Recorder::stats() const { return impl_->stats(); }

}  // namespace cassino::recorder
