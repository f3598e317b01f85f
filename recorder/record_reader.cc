#include "recorder/record_reader.h"

#include <sqlite3.h>

#include <array>
#include <cstring>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "recorder/event_pack.h"
#include "recorder/hex_pairs.h"
#include "recorder/sqlite.h"

namespace cassino::recorder {

namespace {

void Assign(std::string* out, absl::string_view text) {
  out->assign(text.data(), text.size());
}

}  // namespace

constexpr char kGamesCols[] =
    "SELECT game_id, label, rules, commitment, seed, explicit_decks, "
    "per_move_ms, bank_ms, max_illegal, created_us, status, winner, "
    "end_reason, totals, finished_us FROM games ";
// Schema 3 added seats.account; older databases read NULL in its place.
constexpr char kSeatsCols[] =
    "SELECT game_id, seat, bot_name, account FROM seats ";
constexpr char kSeatsColsBefore3[] =
    "SELECT game_id, seat, bot_name, NULL FROM seats ";
constexpr char kEventsCols[] =
    "SELECT game_id, seq, kind, at_us, payload, hash FROM events ";
constexpr char kPacksCols[] = "SELECT game_id, events, pack FROM event_packs ";
constexpr char kTalliesCols[] =
    "SELECT game_id, events, rounds, moves, bad_moves, bad_events, points, "
    "conduct, move_ms FROM game_tallies ";

class RecordReader::Impl {
 public:
  ~Impl() {
    for (sqlite3_stmt* s : {games_all_, seats_all_, events_all_, tallies_all_,
                            packs_all_, games_one_, seats_one_, events_one_,
                            tallies_one_, packs_one_, count_}) {
      sqlite3_finalize(s);
    }
    sqlite3_close_v2(db_);
  }

  absl::Status Open(const std::string& path) {
    absl::StatusOr<Connection> db = OpenDatabase(path, OpenMode::kReadOnly);
    if (!db.ok()) return db.status();
    db_ = db->release();
    if (absl::Status s = CheckSchemaNotNewer(db_, path); !s.ok()) {
      return s;
    }
    // Schema version 2 added game_tallies, version 3 seats.account and
    // version 5 event_packs; older databases lack them.
    absl::StatusOr<bool> tallies = HasTable(db_, "game_tallies");
    if (!tallies.ok()) return tallies.status();
    has_tallies_ = *tallies;
    absl::StatusOr<bool> has_accounts = HasColumn(db_, "seats", "account");
    if (!has_accounts.ok()) return has_accounts.status();
    absl::StatusOr<bool> packs = HasTable(db_, "event_packs");
    if (!packs.ok()) return packs.status();
    has_packs_ = *packs;
    const std::string games_cols = kGamesCols;
    seats_cols_ = *has_accounts ? kSeatsCols : kSeatsColsBefore3;
    const std::string& seats_cols = seats_cols_;
    const std::string events_cols = kEventsCols;
    const std::pair<sqlite3_stmt**, std::string> statements[] = {
        {&games_all_, games_cols + "ORDER BY game_id"},
        {&seats_all_, seats_cols + "ORDER BY game_id, seat"},
        {&events_all_, events_cols + "ORDER BY game_id, seq"},
        {&games_one_, games_cols + "WHERE game_id = ?1"},
        {&seats_one_, seats_cols + "WHERE game_id = ?1 ORDER BY seat"},
        {&events_one_, events_cols + "WHERE game_id = ?1 ORDER BY seq"},
        {&count_, "SELECT count(*) FROM games"},
        {&tallies_all_, has_tallies_
                            ? std::string(kTalliesCols) + "ORDER BY game_id"
                            : std::string()},
        {&tallies_one_, has_tallies_
                            ? std::string(kTalliesCols) + "WHERE game_id = ?1"
                            : std::string()},
        {&packs_all_, has_packs_ ? std::string(kPacksCols) + "ORDER BY game_id"
                                 : std::string()},
        {&packs_one_, has_packs_
                          ? std::string(kPacksCols) + "WHERE game_id = ?1"
                          : std::string()},
    };
    for (const auto& [slot, sql] : statements) {
      if (sql.empty()) continue;
      const int rc = sqlite3_prepare_v2(db_, sql.c_str(), -1, slot, nullptr);
      if (rc != SQLITE_OK) {
        return SqlError(db_, rc,
                        absl::StrCat(path, " is not a game record database"));
      }
    }
    return absl::OkStatus();
  }

  absl::StatusOr<int64_t> Count() {
    sqlite3_reset(count_);
    int rc = sqlite3_step(count_);
    if (rc != SQLITE_ROW) return SqlError(db_, rc, "counting games");
    const int64_t n = sqlite3_column_int64(count_, 0);
    sqlite3_reset(count_);
    return n;
  }

  absl::StatusOr<std::set<std::string>> HeldSeeds() {
    absl::StatusOr<bool> tournaments = HasTable(db_, "tournament_games");
    if (!tournaments.ok()) return tournaments.status();
    std::string sql =
        "SELECT seed FROM games WHERE status = 'running' AND seed <> ''";
    if (*tournaments) {
      absl::StrAppend(
          &sql,
          " UNION SELECT tg.seed FROM tournament_games tg JOIN tournaments t "
          "ON t.name = tg.tournament WHERE t.status = 'running' AND NOT "
          "EXISTS (SELECT 1 FROM games g WHERE g.game_id = tg.game_id AND "
          "g.status <> 'running')");
    }
    // A ladder's duplicate pair whose second game is still to be played:
    // the first's seed deals it (docs/ladder.md).
    absl::StatusOr<bool> ladders = HasTable(db_, "ladder_games");
    if (!ladders.ok()) return ladders.status();
    if (*ladders) {
      absl::StrAppend(
          &sql,
          " UNION SELECT f.seed FROM ladder_games lg JOIN games f ON "
          "f.game_id = lg.twin_of JOIN ladders l ON l.name = lg.ladder WHERE "
          "l.status <> 'closed' AND f.seed <> '' AND NOT EXISTS (SELECT 1 "
          "FROM games g WHERE g.game_id = lg.game_id AND g.status <> "
          "'running')");
    }
    absl::StatusOr<Statement> q = Prepare(db_, sql);
    if (!q.ok()) return q.status();
    std::set<std::string> seeds;
    int rc;
    while ((rc = sqlite3_step(q->get())) == SQLITE_ROW) {
      seeds.emplace(absl::AsciiStrToLower(ColumnText(q->get(), 0)));
    }
    if (rc != SQLITE_DONE) return SqlError(db_, rc, "reading the seeds");
    return seeds;
  }

  absl::StatusOr<std::vector<std::string>> GameIds() {
    std::vector<std::string> ids;
    absl::StatusOr<Statement> q =
        Prepare(db_, "SELECT game_id FROM games ORDER BY game_id");
    if (!q.ok()) return q.status();
    int rc;
    while ((rc = sqlite3_step(q->get())) == SQLITE_ROW) {
      ids.emplace_back(ColumnText(q->get(), 0));
    }
    if (rc != SQLITE_DONE) return SqlError(db_, rc, "reading game ids");
    return ids;
  }

  absl::StatusOr<std::vector<std::string>> GameIdsEvery(int64_t step) {
    std::vector<std::string> ids;
    if (step < 1) return ids;
    sqlite3_stmt* q = nullptr;
    int rc = sqlite3_prepare_v2(
        db_, "SELECT game_id FROM games ORDER BY game_id", -1, &q, nullptr);
    if (rc != SQLITE_OK) return SqlError(db_, rc, "preparing");
    int64_t position = 0;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
      if (position > 0 && position % step == 0) {
        ids.emplace_back(ColumnText(q, 0));
      }
      ++position;
    }
    sqlite3_finalize(q);
    if (rc != SQLITE_DONE) return SqlError(db_, rc, "reading game ids");
    return ids;
  }

  absl::Status ForEachInRange(const std::string& from, const std::string& to,
                              const std::function<void(StoredGame&)>& fn) {
    // Only the lower bound is in SQL (one seek); the merge stops at `to`,
    // which costs a comparison per game rather than one per event row.
    const std::string where = from.empty() ? "" : "WHERE game_id >= ?1 ";
    const std::string sql[] = {
        absl::StrCat(kGamesCols, where, "ORDER BY game_id"),
        absl::StrCat(seats_cols_, where, "ORDER BY game_id, seat"),
        absl::StrCat(kEventsCols, where, "ORDER BY game_id, seq"),
        has_tallies_ ? absl::StrCat(kTalliesCols, where, "ORDER BY game_id")
                     : "",
        has_packs_ ? absl::StrCat(kPacksCols, where, "ORDER BY game_id") : ""};
    sqlite3_stmt* stmts[5] = {nullptr, nullptr, nullptr, nullptr, nullptr};
    absl::Status status;
    for (int i = 0; i < 5 && status.ok(); ++i) {
      if (sql[i].empty()) continue;
      int rc = sqlite3_prepare_v2(db_, sql[i].c_str(), -1, &stmts[i], nullptr);
      if (rc != SQLITE_OK) {
        status = SqlError(db_, rc, "preparing");
        break;
      }
      if (!from.empty()) {
        sqlite3_bind_text(stmts[i], 1, from.data(),
                          static_cast<int>(from.size()), SQLITE_TRANSIENT);
      }
    }
    if (status.ok()) {
      int rc = sqlite3_exec(db_, "BEGIN", nullptr, nullptr, nullptr);
      if (rc != SQLITE_OK) {
        status = SqlError(db_, rc, "beginning a read");
      } else {
        status =
            Merge(stmts[0], stmts[1], stmts[2], stmts[3], stmts[4], to, fn);
        for (sqlite3_stmt* st : stmts) sqlite3_reset(st);
        sqlite3_exec(db_, "COMMIT", nullptr, nullptr, nullptr);
      }
    }
    for (sqlite3_stmt* st : stmts) sqlite3_finalize(st);
    return status;
  }

  absl::Status ForEach(const std::vector<std::string>& ids,
                       const std::function<void(StoredGame&)>& fn) {
    int rc = sqlite3_exec(db_, "BEGIN", nullptr, nullptr, nullptr);
    if (rc != SQLITE_OK) return SqlError(db_, rc, "beginning a read");
    absl::Status status = ids.empty() ? ForEachAll(fn) : ForEachNamed(ids, fn);
    for (sqlite3_stmt* s :
         {games_all_, seats_all_, events_all_, tallies_all_, packs_all_,
          games_one_, seats_one_, events_one_, tallies_one_, packs_one_}) {
      sqlite3_reset(s);
    }
    sqlite3_exec(db_, "COMMIT", nullptr, nullptr, nullptr);
    return status;
  }

 private:
  // A statement being stepped: its current row's game id, or done.
  struct Cursor {
    sqlite3_stmt* stmt;
    bool done = false;
    absl::string_view id;
    absl::Status Step(sqlite3* db) {
      int rc = sqlite3_step(stmt);
      if (rc == SQLITE_ROW) {
        id = ColumnText(stmt, 0);
        return absl::OkStatus();
      }
      done = true;
      id = {};
      if (rc == SQLITE_DONE) return absl::OkStatus();
      return SqlError(db, rc, "reading the database");
    }
  };

  static void ResetGame(StoredGame& g) {
    g.label.clear();
    g.rules.clear();
    g.commitment.clear();
    g.seed.clear();
    g.explicit_decks.clear();
    g.per_move_ms = g.bank_ms = g.max_illegal = g.created_us = 0;
    g.bots.clear();
    g.seat_numbers.clear();
    g.accounts.clear();
    g.status.clear();
    g.has_summary = true;
    g.winner.reset();
    g.end_reason.reset();
    g.totals.reset();
    g.finished_us.reset();
    g.tally.reset();
    g.missing_game_row = false;
    g.packed = false;
    g.storage_error.clear();
    g.storage_error_seq = -1;
  }

  static void ReadTallyRow(sqlite3_stmt* s, StoredGame& g) {
    StoredTally& t = g.tally.emplace();
    t.events = sqlite3_column_int64(s, 1);
    t.rounds = sqlite3_column_int64(s, 2);
    t.moves = sqlite3_column_int64(s, 3);
    t.bad_moves = sqlite3_column_int64(s, 4);
    t.bad_events = sqlite3_column_int64(s, 5);
    Assign(&t.points, ColumnText(s, 6));
    Assign(&t.conduct, ColumnText(s, 7));
    Assign(&t.move_ms, ColumnText(s, 8));
  }

  static void ReadGameRow(sqlite3_stmt* s, StoredGame& g) {
    Assign(&g.label, ColumnText(s, 1));
    Assign(&g.rules, ColumnText(s, 2));
    Assign(&g.commitment, ColumnText(s, 3));
    Assign(&g.seed, ColumnText(s, 4));
    for (absl::string_view deck :
         absl::StrSplit(ColumnText(s, 5), '\n', absl::SkipEmpty())) {
      g.explicit_decks.emplace_back(deck);
    }
    g.per_move_ms = sqlite3_column_int64(s, 6);
    g.bank_ms = sqlite3_column_int64(s, 7);
    g.max_illegal = sqlite3_column_int64(s, 8);
    g.created_us = sqlite3_column_int64(s, 9);
    Assign(&g.status, ColumnText(s, 10));
    auto opt_int = [&](int col, std::optional<int64_t>* out) {
      if (sqlite3_column_type(s, col) != SQLITE_NULL) {
        *out = sqlite3_column_int64(s, col);
      }
    };
    auto opt_text = [&](int col, std::optional<std::string>* out) {
      if (sqlite3_column_type(s, col) != SQLITE_NULL) {
        *out = std::string(ColumnText(s, col));
      }
    };
    opt_int(11, &g.winner);
    opt_text(12, &g.end_reason);
    opt_text(13, &g.totals);
    opt_int(14, &g.finished_us);
  }

  static void ReadSeatRow(sqlite3_stmt* s, StoredGame& g) {
    g.seat_numbers.push_back(sqlite3_column_int64(s, 1));
    g.bots.emplace_back(ColumnText(s, 2));
    g.accounts.emplace_back(ColumnText(s, 3));  // "" for NULL
  }

  // Reads the event row into events[*count], reusing its buffers.
  static void ReadEventRow(sqlite3_stmt* s, StoredGame& g, size_t* count) {
    if (*count == g.events.size()) g.events.emplace_back();
    StoredEvent& e = g.events[(*count)++];
    e.seq = sqlite3_column_int64(s, 1);
    Assign(&e.kind, ColumnText(s, 2));
    e.at_us = sqlite3_column_int64(s, 3);
    Assign(&e.payload, ColumnText(s, 4));
    Assign(&e.hash, ColumnText(s, 5));
  }

  // Decodes the game's event pack into events[*count ...], reusing their
  // buffers; a defect, or a pack beside event rows, goes to storage_error.
  static void ReadPackRow(sqlite3_stmt* s, StoredGame& g, size_t* count) {
    if (*count > 0 || g.packed) {
      g.storage_error = "the game has both event rows and an event pack";
      return;
    }
    g.packed = true;
    const int64_t declared = sqlite3_column_int64(s, 1);
    const void* blob = sqlite3_column_blob(s, 2);
    EventPackReader reader(
        blob == nullptr ? absl::string_view()
                        : absl::string_view(
                              static_cast<const char*>(blob),
                              static_cast<size_t>(sqlite3_column_bytes(s, 2))));
    PackedEvent packed;
    while (reader.Next(&packed)) {
      if (*count == g.events.size()) g.events.emplace_back();
      StoredEvent& e = g.events[(*count)++];
      e.seq = packed.seq;
      Assign(&e.kind, EventKindName(packed.kind));
      e.at_us = packed.at_us;
      Assign(&e.payload, packed.payload);
      AssignHex(packed.hash, &e.hash);
    }
    if (!reader.status().ok()) {
      g.storage_error = std::string(reader.status().message());
      g.storage_error_seq = static_cast<int64_t>(*count);
    } else if (declared != static_cast<int64_t>(*count)) {
      g.storage_error =
          absl::StrCat("the event pack's events column says ", declared,
                       " events but the pack holds ", *count);
    }
  }

  absl::Status ForEachAll(const std::function<void(StoredGame&)>& fn) {
    return Merge(games_all_, seats_all_, events_all_, tallies_all_, packs_all_,
                 "", fn);
  }

  // Merges the id-ordered row streams into games, up to (not including)
  // the id `to` ("" for no bound; ids compare as SQLite's BINARY collation
  // does). `tallies_stmt` and `packs_stmt` may be null (a database older
  // than schema version 2 or 5).
  absl::Status Merge(sqlite3_stmt* games_stmt, sqlite3_stmt* seats_stmt,
                     sqlite3_stmt* events_stmt, sqlite3_stmt* tallies_stmt,
                     sqlite3_stmt* packs_stmt, absl::string_view to,
                     const std::function<void(StoredGame&)>& fn) {
    Cursor games{games_stmt, false, {}}, seats{seats_stmt, false, {}},
        events{events_stmt, false, {}},
        tallies{tallies_stmt, tallies_stmt == nullptr, {}},
        packs{packs_stmt, packs_stmt == nullptr, {}};
    for (Cursor* c : {&games, &seats, &events, &tallies, &packs}) {
      if (c->done) continue;
      if (absl::Status s = c->Step(db_); !s.ok()) return s;
    }
    StoredGame g;
    std::string id;
    while (!games.done || !seats.done || !events.done || !tallies.done ||
           !packs.done) {
      // The smallest id among the cursors.
      bool first = true;
      for (Cursor* c : {&games, &seats, &events, &tallies, &packs}) {
        if (c->done) continue;
        if (first || c->id < id) Assign(&id, c->id);
        first = false;
      }
      if (!to.empty() && absl::string_view(id) >= to) break;
      ResetGame(g);
      g.game_id = id;
      if (!games.done && games.id == id) {
        ReadGameRow(games.stmt, g);
        if (absl::Status s = games.Step(db_); !s.ok()) return s;
      } else {
        g.missing_game_row = true;
      }
      while (!seats.done && seats.id == id) {
        ReadSeatRow(seats.stmt, g);
        if (absl::Status s = seats.Step(db_); !s.ok()) return s;
      }
      size_t count = 0;
      while (!events.done && events.id == id) {
        ReadEventRow(events.stmt, g, &count);
        if (absl::Status s = events.Step(db_); !s.ok()) return s;
      }
      while (!packs.done && packs.id == id) {
        ReadPackRow(packs.stmt, g, &count);
        if (absl::Status s = packs.Step(db_); !s.ok()) return s;
      }
      g.events.resize(count);
      while (!tallies.done && tallies.id == id) {
        ReadTallyRow(tallies.stmt, g);
        if (absl::Status s = tallies.Step(db_); !s.ok()) return s;
      }
      fn(g);
    }
    return absl::OkStatus();
  }

  absl::Status ForEachNamed(const std::vector<std::string>& ids,
                            const std::function<void(StoredGame&)>& fn) {
    StoredGame g;
    for (const std::string& id : ids) {
      ResetGame(g);
      g.game_id = id;
      for (sqlite3_stmt* s : {games_one_, seats_one_, events_one_}) {
        sqlite3_reset(s);
        sqlite3_bind_text(s, 1, id.data(), static_cast<int>(id.size()),
                          SQLITE_TRANSIENT);
      }
      int rc = sqlite3_step(games_one_);
      if (rc == SQLITE_ROW) {
        ReadGameRow(games_one_, g);
      } else if (rc == SQLITE_DONE) {
        g.missing_game_row = true;
      } else {
        return SqlError(db_, rc, "reading a game");
      }
      while ((rc = sqlite3_step(seats_one_)) == SQLITE_ROW) {
        ReadSeatRow(seats_one_, g);
      }
      if (rc != SQLITE_DONE) return SqlError(db_, rc, "reading seats");
      size_t count = 0;
      while ((rc = sqlite3_step(events_one_)) == SQLITE_ROW) {
        ReadEventRow(events_one_, g, &count);
      }
      if (rc != SQLITE_DONE) return SqlError(db_, rc, "reading events");
      if (packs_one_ != nullptr) {
        sqlite3_reset(packs_one_);
        sqlite3_bind_text(packs_one_, 1, id.data(), static_cast<int>(id.size()),
                          SQLITE_TRANSIENT);
        rc = sqlite3_step(packs_one_);
        if (rc == SQLITE_ROW) {
          ReadPackRow(packs_one_, g, &count);
        } else if (rc != SQLITE_DONE) {
          return SqlError(db_, rc, "reading an event pack");
        }
      }
      g.events.resize(count);
      if (tallies_one_ != nullptr) {
        sqlite3_reset(tallies_one_);
        sqlite3_bind_text(tallies_one_, 1, id.data(),
                          static_cast<int>(id.size()), SQLITE_TRANSIENT);
        rc = sqlite3_step(tallies_one_);
        if (rc == SQLITE_ROW) {
          ReadTallyRow(tallies_one_, g);
        } else if (rc != SQLITE_DONE) {
          return SqlError(db_, rc, "reading a tally");
        }
      }
      fn(g);
    }
    return absl::OkStatus();
  }

  sqlite3* db_ = nullptr;
  sqlite3_stmt* games_all_ = nullptr;
  sqlite3_stmt* seats_all_ = nullptr;
  sqlite3_stmt* events_all_ = nullptr;
  sqlite3_stmt* games_one_ = nullptr;
  sqlite3_stmt* seats_one_ = nullptr;
  sqlite3_stmt* events_one_ = nullptr;
  sqlite3_stmt* tallies_all_ = nullptr;  // null without game_tallies
  sqlite3_stmt* tallies_one_ = nullptr;
  sqlite3_stmt* packs_all_ = nullptr;  // null without event_packs
  sqlite3_stmt* packs_one_ = nullptr;
  sqlite3_stmt* count_ = nullptr;
  bool has_tallies_ = false;
  bool has_packs_ = false;
  std::string seats_cols_;  // the seats query for this schema
};

RecordReader::RecordReader(std::unique_ptr<Impl> impl)
    : impl_(std::move(impl)) {}
RecordReader::~RecordReader() = default;

absl::StatusOr<std::unique_ptr<RecordReader>> RecordReader::Open(
    const std::string& path) {
  auto impl = std::make_unique<Impl>();
  if (absl::Status s = impl->Open(path); !s.ok()) return s;
  return std::unique_ptr<RecordReader>(new RecordReader(std::move(impl)));
}

absl::Status RecordReader::ForEach(const std::vector<std::string>& ids,
                                   const std::function<void(StoredGame&)>& fn) {
  return impl_->ForEach(ids, fn);
}

absl::StatusOr<GameRecord> RecordReader::Load(const std::string& game_id) {
  absl::StatusOr<GameRecord> record =
      absl::NotFoundError(absl::StrCat("no game ", game_id));
  absl::Status status = impl_->ForEach({game_id}, [&](StoredGame& game) {
    if (!game.missing_game_row) record = ToRecord(game);
  });
  if (!status.ok()) return status;
  return record;
}

absl::StatusOr<std::set<std::string>> RecordReader::HeldSeeds() {
  return impl_->HeldSeeds();
}

absl::StatusOr<std::vector<std::string>> RecordReader::GameIds() {
  return impl_->GameIds();
}

absl::StatusOr<int64_t> RecordReader::CountGames() { return impl_->Count(); }

absl::StatusOr<std::vector<std::string>> RecordReader::GameIdsEvery(
    int64_t step) {
  return impl_->GameIdsEvery(step);
}

absl::Status RecordReader::ForEachInRange(
    const std::string& from, const std::string& to,
    const std::function<void(StoredGame&)>& fn) {
  return impl_->ForEachInRange(from, to, fn);
}

}  // namespace cassino::recorder
