#include "tools/viewer/database.h"

#include <sqlite3.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/synchronization/mutex.h"
#include "nlohmann/json.hpp"
#include "recorder/event_fields.h"
#include "recorder/record_reader.h"

namespace cassino::viewer {

namespace {

absl::Status SqlError(sqlite3* db, absl::string_view what) {
  return absl::UnavailableError(absl::StrCat(what, ": ", sqlite3_errmsg(db)));
}

std::string Text(sqlite3_stmt* s, int col) {
  const unsigned char* t = sqlite3_column_text(s, col);
  if (t == nullptr) return {};
  return std::string(reinterpret_cast<const char*>(t),
                     static_cast<size_t>(sqlite3_column_bytes(s, col)));
}

// A prepared statement, finalized when it goes out of scope.
class Statement {
 public:
  Statement(sqlite3* db, const std::string& sql) : db_(db) {
    rc_ = sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt_, nullptr);
  }
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  absl::Status status() const {
    return rc_ == SQLITE_OK ? absl::OkStatus() : SqlError(db_, "preparing");
  }
  sqlite3_stmt* get() const { return stmt_; }
  void Bind(int i, absl::string_view text) {
    sqlite3_bind_text(stmt_, i, text.data(), static_cast<int>(text.size()),
                      SQLITE_TRANSIENT);
  }
  void Bind(int i, int64_t value) { sqlite3_bind_int64(stmt_, i, value); }
  // SQLITE_ROW or SQLITE_DONE; anything else becomes an error.
  absl::StatusOr<bool> Step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    return SqlError(db_, "reading");
  }

 private:
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
  int rc_ = SQLITE_OK;
};

// The forfeits per seat of a tally's conduct column
// ([[moves, rejects, forfeits, timeouts], ...]); empty if it does not read.
std::vector<int> ForfeitsOf(const std::string& conduct) {
  std::vector<int> out;
  const nlohmann::json j = nlohmann::json::parse(conduct, nullptr, false);
  if (!j.is_array()) return {};
  for (const nlohmann::json& seat : j) {
    if (!seat.is_array() || seat.size() < 3 || !seat[2].is_number_integer()) {
      return {};
    }
    out.push_back(seat[2].get<int>());
  }
  return out;
}

// The integers of a JSON array (a totals column); empty if it is none.
std::vector<int> IntArray(const std::string& json) {
  std::vector<int> out;
  const nlohmann::json j = nlohmann::json::parse(json, nullptr, false);
  if (!j.is_array()) return out;
  for (const nlohmann::json& v : j) {
    out.push_back(v.is_number_integer() ? v.get<int>() : 0);
  }
  return out;
}

std::vector<std::string> StringArray(const std::string& json) {
  std::vector<std::string> out;
  const nlohmann::json j = nlohmann::json::parse(json, nullptr, false);
  if (!j.is_array()) return out;
  for (const nlohmann::json& v : j) {
    if (v.is_string()) out.push_back(v.get<std::string>());
  }
  return out;
}

constexpr char kTournamentCols[] =
    "SELECT t.name, t.participants, t.format, t.games_per_pairing, "
    "t.duplicate, t.rules, t.status, t.reason, t.created_us, t.ended_us, "
    "(SELECT count(*) FROM tournament_games g WHERE g.tournament = t.name) "
    "FROM tournaments t ";

TournamentListing ReadTournament(sqlite3_stmt* s) {
  TournamentListing t;
  t.name = Text(s, 0);
  t.participants = StringArray(Text(s, 1));
  t.format = Text(s, 2);
  t.games_per_pairing = sqlite3_column_int(s, 3);
  t.duplicate = sqlite3_column_int(s, 4) != 0;
  t.rules = Text(s, 5);
  t.status = Text(s, 6);
  t.reason = Text(s, 7);
  t.created_us = sqlite3_column_int64(s, 8);
  t.ended_us = sqlite3_column_int64(s, 9);
  t.scheduled = sqlite3_column_int64(s, 10);
  return t;
}

}  // namespace

std::string ReadOnlyUri(absl::string_view path) {
  std::string out = "file:";
  for (const char c : path) {
    if (c == '%' || c == '?' || c == '#') {
      absl::StrAppend(
          &out, "%", absl::Hex(static_cast<unsigned char>(c), absl::kZeroPad2));
    } else {
      out.push_back(c);
    }
  }
  // A path starting with "//" would read as an authority.
  if (absl::string_view(out).substr(5, 2) == "//") out.insert(5, "/");
  return out + "?mode=ro";
}

class ViewerDatabase::Impl {
 public:
  ~Impl() { sqlite3_close_v2(db_); }

  absl::Status Open(const std::string& path) {
    const std::string uri = ReadOnlyUri(path);
    if (sqlite3_open_v2(
            uri.c_str(), &db_,
            SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX,
            nullptr) != SQLITE_OK) {
      return SqlError(db_, absl::StrCat("opening ", path));
    }
    sqlite3_busy_timeout(db_, 5000);
    Statement q(db_,
                "SELECT name FROM sqlite_master WHERE type = 'table' AND "
                "name IN ('games', 'tournaments')");
    if (!q.status().ok()) {
      return absl::FailedPreconditionError(
          absl::StrCat(path, " is not a game record database"));
    }
    bool games = false;
    for (;;) {
      absl::StatusOr<bool> row = q.Step();
      if (!row.ok()) {
        return absl::FailedPreconditionError(absl::StrCat(
            path, " is not a game record database: ", row.status().message()));
      }
      if (!*row) break;
      const std::string name = Text(q.get(), 0);
      games |= name == "games";
      has_tournaments_ |= name == "tournaments";
    }
    if (!games) {
      return absl::FailedPreconditionError(
          absl::StrCat(path, " is not a game record database"));
    }
    absl::StatusOr<std::unique_ptr<recorder::RecordReader>> reader =
        recorder::RecordReader::Open(path);
    if (!reader.ok()) return reader.status();
    absl::MutexLock lock(&mu_);
    reader_ = *std::move(reader);
    return absl::OkStatus();
  }

  absl::StatusOr<std::vector<recorder::GameSummary>> ListGames(
      const GameQuery& q) const ABSL_LOCKS_EXCLUDED(mu_) {
    std::string sql =
        "SELECT game_id, label, rules, status, winner, end_reason, totals, "
        "created_us, finished_us FROM games WHERE 1";
    // Parameters are numbered in the order the conditions are added.
    std::vector<std::pair<int, std::string>> texts;
    std::vector<std::pair<int, int64_t>> ints;
    int n = 0;
    auto text = [&](absl::string_view cond, const std::string& value) {
      absl::StrAppend(&sql, " AND ", cond, "?", ++n);
      texts.emplace_back(n, value);
    };
    auto integer = [&](absl::string_view cond, int64_t value) {
      absl::StrAppend(&sql, " AND ", cond, "?", ++n);
      ints.emplace_back(n, value);
    };
    if (!q.status.empty()) text("status = ", q.status);
    if (!q.label.empty()) text("label = ", q.label);
    if (!q.rules.empty()) text("rules = ", q.rules);
    absl::MutexLock lock(&mu_);
    Transaction txn(db_);
    if (!q.bot.empty()) {
      // Two plans, chosen by how many games the bot played: a few, looked
      // up by id (seats_by_bot) and sorted; many, found by walking the
      // games newest first and probing their seats, which stops after a
      // page. Either costs at most about 2,000 probes before the page
      // fills, except a rare bot's page that walks far back.
      absl::StatusOr<int64_t> played = BotGames(q.bot);
      if (!played.ok()) return played.status();
      if (*played <= 2000) {
        text("game_id IN (SELECT game_id FROM seats WHERE bot_name = ", q.bot);
      } else {
        text(
            "EXISTS (SELECT 1 FROM seats s WHERE s.game_id = games.game_id "
            "AND s.bot_name = ",
            q.bot);
      }
      sql += ")";
    }
    if (q.from_us.has_value()) integer("created_us >= ", *q.from_us);
    if (q.to_us.has_value()) integer("created_us < ", *q.to_us);
    if (!q.after_id.empty()) {
      // Row values compare lexicographically: (created_us, game_id) after
      // the cursor in descending order. Spelled out so that SQLite uses the
      // created_us index for the range.
      const int c = ++n;
      const int id = ++n;
      absl::StrAppend(&sql, " AND created_us <= ?", c, " AND (created_us < ?",
                      c, " OR game_id < ?", id, ")");
      ints.emplace_back(c, q.after_created_us);
      texts.emplace_back(id, q.after_id);
    }
    absl::StrAppend(&sql, " ORDER BY created_us DESC, game_id DESC LIMIT ",
                    std::clamp(q.limit, 1, 500));
    Statement s(db_, sql);
    if (!s.status().ok()) return s.status();
    for (const auto& [i, v] : texts) s.Bind(i, v);
    for (const auto& [i, v] : ints) s.Bind(i, v);
    std::vector<recorder::GameSummary> out;
    for (;;) {
      absl::StatusOr<bool> row = s.Step();
      if (!row.ok()) return row.status();
      if (!*row) break;
      recorder::GameSummary& g = out.emplace_back();
      g.game_id = Text(s.get(), 0);
      g.label = Text(s.get(), 1);
      g.rules = Text(s.get(), 2);
      g.status = recorder::ParseGameStatus(Text(s.get(), 3))
                     .value_or(recorder::GameStatus::kRunning);
      g.winner = sqlite3_column_type(s.get(), 4) == SQLITE_NULL
                     ? -1
                     : sqlite3_column_int(s.get(), 4);
      g.end_reason = Text(s.get(), 5);
      g.totals = IntArray(Text(s.get(), 6));
      g.created_us = sqlite3_column_int64(s.get(), 7);
      g.finished_us = sqlite3_column_int64(s.get(), 8);
    }
    for (recorder::GameSummary& g : out) {
      if (g.status != recorder::GameStatus::kRunning) continue;
      absl::StatusOr<std::vector<int>> totals = RunningTotals(g.game_id);
      if (!totals.ok()) return totals.status();
      g.totals = *std::move(totals);
    }
    Statement seats(db_, "SELECT bot_name, " + AccountColumn() +
                             " FROM seats WHERE game_id = ?1 ORDER BY seat");
    if (!seats.status().ok()) return seats.status();
    for (recorder::GameSummary& g : out) {
      sqlite3_reset(seats.get());
      seats.Bind(1, g.game_id);
      for (;;) {
        absl::StatusOr<bool> row = seats.Step();
        if (!row.ok()) return row.status();
        if (!*row) break;
        g.bots.push_back(Text(seats.get(), 0));
        g.accounts.push_back(Text(seats.get(), 1));
      }
    }
    return out;
  }

  absl::StatusOr<recorder::StoredGame> LoadGame(const std::string& id) const
      ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    recorder::StoredGame out;
    absl::Status s = reader_->ForEach(
        {id}, [&](recorder::StoredGame& g) { out = std::move(g); });
    if (!s.ok()) return s;
    if (out.missing_game_row) {
      return absl::NotFoundError(absl::StrCat("no game ", id));
    }
    return out;
  }

  absl::StatusOr<Head> GameHead(const std::string& id) const
      ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    Transaction txn(db_);
    Statement s(db_,
                std::string("SELECT status, (SELECT count(*) FROM events e "
                            "WHERE e.game_id = g.game_id)") +
                    (HasTable("event_packs")
                         ? " + coalesce((SELECT events FROM event_packs p "
                           "WHERE p.game_id = g.game_id), 0)"
                         : "") +
                    " FROM games g WHERE game_id = ?1");
    if (!s.status().ok()) return s.status();
    s.Bind(1, id);
    absl::StatusOr<bool> row = s.Step();
    if (!row.ok()) return row.status();
    if (!*row) return absl::NotFoundError(absl::StrCat("no game ", id));
    return Head{sqlite3_column_int64(s.get(), 1), Text(s.get(), 0)};
  }

  absl::StatusOr<TwinState> Twins(const recorder::StoredGame& game) const
      ABSL_LOCKS_EXCLUDED(mu_) {
    TwinState out;
    absl::MutexLock lock(&mu_);
    Transaction txn(db_);
    // The same decks: the same commitment, or the same explicit decks.
    std::string decks;
    for (const std::string& d : game.explicit_decks) {
      absl::StrAppend(&decks, decks.empty() ? "" : "\n", d);
    }
    const bool seeded = !game.commitment.empty();
    if (seeded || !decks.empty()) {
      Statement s(db_, seeded ? "SELECT game_id FROM games WHERE commitment = "
                                "?1 AND game_id != ?2 AND status = 'running'"
                              : "SELECT game_id FROM games WHERE "
                                "explicit_decks = ?1 AND game_id != ?2 AND "
                                "status = 'running'");
      if (!s.status().ok()) return s.status();
      s.Bind(1, seeded ? game.commitment : decks);
      s.Bind(2, game.game_id);
      absl::StatusOr<bool> row = s.Step();
      if (!row.ok()) return row.status();
      if (*row) {
        out.unfinished_twin = true;
        out.twin_game_id = Text(s.get(), 0);
        return out;
      }
    }
    // A tournament game not created yet whose seed is this game's.
    if (has_tournaments_ && !game.seed.empty() && !game.label.empty()) {
      Statement s(db_,
                  "SELECT 1 FROM tournament_games t WHERE t.tournament = ?1 "
                  "AND t.seed = ?2 AND (t.game_id IS NULL OR NOT EXISTS "
                  "(SELECT 1 FROM games g WHERE g.game_id = t.game_id))");
      if (!s.status().ok()) return s.status();
      s.Bind(1, game.label);
      s.Bind(2, game.seed);
      absl::StatusOr<bool> row = s.Step();
      if (!row.ok()) return row.status();
      out.unfinished_twin = *row;
    }
    return out;
  }

  absl::StatusOr<std::vector<TournamentListing>> Tournaments() const
      ABSL_LOCKS_EXCLUDED(mu_) {
    std::vector<TournamentListing> out;
    absl::MutexLock lock(&mu_);
    Transaction txn(db_);
    if (has_tournaments_) {
      Statement s(db_, std::string(kTournamentCols) +
                           "ORDER BY t.created_us DESC, t.name");
      if (!s.status().ok()) return s.status();
      for (;;) {
        absl::StatusOr<bool> row = s.Step();
        if (!row.ok()) return row.status();
        if (!*row) break;
        out.push_back(ReadTournament(s.get()));
      }
    }
    // Labels from the covering index games_by_label (label, created_us);
    // which of them run, from games_by_status.
    std::set<std::string> running;
    {
      Statement r(db_,
                  "SELECT DISTINCT label FROM games WHERE status = 'running'");
      if (!r.status().ok()) return r.status();
      for (;;) {
        absl::StatusOr<bool> row = r.Step();
        if (!row.ok()) return row.status();
        if (!*row) break;
        running.insert(Text(r.get(), 0));
      }
    }
    Statement s(
        db_,
        absl::StrCat("SELECT label, count(*), min(created_us) FROM games "
                     "WHERE label != '' ",
                     has_tournaments_
                         ? "AND label NOT IN (SELECT name FROM tournaments) "
                         : "",
                     "GROUP BY label ORDER BY min(created_us) DESC LIMIT 200"));
    if (!s.status().ok()) return s.status();
    for (;;) {
      absl::StatusOr<bool> row = s.Step();
      if (!row.ok()) return row.status();
      if (!*row) break;
      TournamentListing& t = out.emplace_back();
      t.name = Text(s.get(), 0);
      t.format = "label";
      t.scheduled = sqlite3_column_int64(s.get(), 1);
      t.created_us = sqlite3_column_int64(s.get(), 2);
      t.status = running.contains(t.name) ? "running" : "finished";
    }
    return out;
  }

  absl::StatusOr<TournamentListing> Tournament(const std::string& name) const
      ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    Transaction txn(db_);
    if (has_tournaments_) {
      Statement s(db_, std::string(kTournamentCols) + "WHERE t.name = ?1");
      if (!s.status().ok()) return s.status();
      s.Bind(1, name);
      absl::StatusOr<bool> row = s.Step();
      if (!row.ok()) return row.status();
      if (*row) return ReadTournament(s.get());
    }
    // A label as a tournament.
    Statement s(db_,
                "SELECT count(*), min(created_us), max(status = 'running'), "
                "max(coalesce(finished_us, 0)), rules FROM games WHERE "
                "label = ?1");
    if (!s.status().ok()) return s.status();
    s.Bind(1, name);
    absl::StatusOr<bool> row = s.Step();
    if (!row.ok()) return row.status();
    if (name.empty() || !*row || sqlite3_column_int64(s.get(), 0) == 0) {
      return absl::NotFoundError(absl::StrCat("no tournament ", name));
    }
    TournamentListing t;
    t.name = name;
    t.format = "label";
    t.scheduled = sqlite3_column_int64(s.get(), 0);
    t.created_us = sqlite3_column_int64(s.get(), 1);
    t.status = sqlite3_column_int(s.get(), 2) != 0 ? "running" : "finished";
    if (t.status == "finished") t.ended_us = sqlite3_column_int64(s.get(), 3);
    t.rules = Text(s.get(), 4);
    Statement bots(db_,
                   "SELECT DISTINCT s.bot_name FROM games g JOIN seats s ON "
                   "s.game_id = g.game_id WHERE g.label = ?1 ORDER BY "
                   "s.bot_name");
    if (!bots.status().ok()) return bots.status();
    bots.Bind(1, name);
    for (;;) {
      absl::StatusOr<bool> more = bots.Step();
      if (!more.ok()) return more.status();
      if (!*more) break;
      t.participants.push_back(Text(bots.get(), 0));
    }
    return t;
  }

  absl::StatusOr<std::vector<ScheduledGame>> Schedule(
      const std::string& name) const ABSL_LOCKS_EXCLUDED(mu_) {
    std::vector<ScheduledGame> out;
    absl::MutexLock lock(&mu_);
    Transaction txn(db_);
    const std::string conduct =
        HasTable("game_tallies")
            ? "(SELECT conduct FROM game_tallies c WHERE c.game_id = "
              "g.game_id) "
            : "NULL ";
    bool scheduled = false;
    if (has_tournaments_) {
      Statement s(db_, "SELECT 1 FROM tournaments WHERE name = ?1");
      s.Bind(1, name);
      absl::StatusOr<bool> row = s.Step();
      if (!row.ok()) return row.status();
      scheduled = *row;
    }
    // Seats: a schedule names them (seat0, seat1); a label's games have
    // theirs in `seats`, joined into one text.
    Statement s(
        db_,
        scheduled
            ? absl::StrCat(
                  "SELECT t.idx, t.seat0 || char(10) || t.seat1, "
                  "coalesce(t.game_id, ''), g.status, g.winner, g.totals, ",
                  conduct,
                  "FROM tournament_games t LEFT JOIN games g ON g.game_id = "
                  "t.game_id WHERE t.tournament = ?1 ORDER BY t.idx")
            : absl::StrCat(
                  "SELECT row_number() OVER (ORDER BY g.created_us, "
                  "g.game_id) - 1, (SELECT group_concat(bot_name, char(10)) "
                  "FROM (SELECT bot_name FROM seats s WHERE s.game_id = "
                  "g.game_id ORDER BY seat)), g.game_id, g.status, g.winner, "
                  "g.totals, ",
                  conduct,
                  "FROM games g WHERE g.label = ?1 ORDER BY g.created_us, "
                  "g.game_id"));
    if (!s.status().ok()) return s.status();
    s.Bind(1, name);
    for (;;) {
      absl::StatusOr<bool> row = s.Step();
      if (!row.ok()) return row.status();
      if (!*row) break;
      ScheduledGame& g = out.emplace_back();
      g.index = sqlite3_column_int(s.get(), 0);
      g.seats = absl::StrSplit(Text(s.get(), 1), '\n');
      g.game_id = Text(s.get(), 2);
      g.status = Text(s.get(), 3);
      g.winner = sqlite3_column_type(s.get(), 4) == SQLITE_NULL
                     ? -1
                     : sqlite3_column_int(s.get(), 4);
      g.totals = Text(s.get(), 5);
      g.forfeits = ForfeitsOf(Text(s.get(), 6));
    }
    for (ScheduledGame& g : out) {
      if (g.status != "running") continue;
      absl::StatusOr<std::vector<int>> totals = RunningTotals(g.game_id);
      if (!totals.ok()) return totals.status();
      g.running_totals = *std::move(totals);
    }
    return out;
  }

 private:
  // One read snapshot for the statements of a call.
  class Transaction {
   public:
    explicit Transaction(sqlite3* db) : db_(db) {
      sqlite3_exec(db_, "BEGIN", nullptr, nullptr, nullptr);
    }
    ~Transaction() { sqlite3_exec(db_, "COMMIT", nullptr, nullptr, nullptr); }
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;

   private:
    sqlite3* db_;
  };

  // A running game's totals after the rounds scored so far (its last
  // `round` event's totals_after); empty before the first round ends.
  absl::StatusOr<std::vector<int>> RunningTotals(const std::string& id) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    Statement s(db_,
                "SELECT payload FROM events WHERE game_id = ?1 AND kind = "
                "'round' ORDER BY seq DESC LIMIT 1");
    if (!s.status().ok()) return s.status();
    s.Bind(1, id);
    absl::StatusOr<bool> row = s.Step();
    if (!row.ok()) return row.status();
    if (!*row) return std::vector<int>();
    recorder::EventFields f;
    if (!f.Read(recorder::EventKind::kRound, Text(s.get(), 0)).ok()) {
      return std::vector<int>();
    }
    return f.round.totals_after;
  }

  absl::StatusOr<int64_t> BotGames(const std::string& bot) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    Statement s(db_, "SELECT count(*) FROM seats WHERE bot_name = ?1");
    if (!s.status().ok()) return s.status();
    s.Bind(1, bot);
    absl::StatusOr<bool> row = s.Step();
    if (!row.ok()) return row.status();
    return sqlite3_column_int64(s.get(), 0);
  }

  bool HasTable(const char* name) const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    Statement s(db_,
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
                "name = ?1");
    s.Bind(1, name);
    absl::StatusOr<bool> row = s.Step();
    return row.ok() && *row;
  }

  std::string AccountColumn() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    Statement s(db_,
                "SELECT 1 FROM pragma_table_info('seats') WHERE name = "
                "'account'");
    absl::StatusOr<bool> row = s.Step();
    return row.ok() && *row ? "coalesce(account, '')" : "''";
  }

  mutable absl::Mutex mu_;
  sqlite3* db_ = nullptr;  // set once by Open, used under mu_
  bool has_tournaments_ = false;
  std::unique_ptr<recorder::RecordReader> reader_ ABSL_GUARDED_BY(mu_);
};

ViewerDatabase::ViewerDatabase(std::string path, std::unique_ptr<Impl> impl)
    : path_(std::move(path)), impl_(std::move(impl)) {}
ViewerDatabase::~ViewerDatabase() = default;

absl::StatusOr<std::unique_ptr<ViewerDatabase>> ViewerDatabase::Open(
    const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    return absl::NotFoundError(absl::StrCat("no database ", path));
  }
  auto impl = std::make_unique<Impl>();
  if (absl::Status s = impl->Open(path); !s.ok()) return s;
  return std::unique_ptr<ViewerDatabase>(
      new ViewerDatabase(path, std::move(impl)));
}

absl::StatusOr<std::vector<recorder::GameSummary>> ViewerDatabase::ListGames(
    const GameQuery& query) const {
  return impl_->ListGames(query);
}
absl::StatusOr<recorder::StoredGame> ViewerDatabase::LoadGame(
    const std::string& game_id) const {
  return impl_->LoadGame(game_id);
}
absl::StatusOr<ViewerDatabase::Head> ViewerDatabase::GameHead(
    const std::string& game_id) const {
  return impl_->GameHead(game_id);
}
absl::StatusOr<TwinState> ViewerDatabase::Twins(
    const recorder::StoredGame& game) const {
  return impl_->Twins(game);
}
absl::StatusOr<std::vector<TournamentListing>> ViewerDatabase::Tournaments()
    const {
  return impl_->Tournaments();
}
absl::StatusOr<TournamentListing> ViewerDatabase::Tournament(
    const std::string& name) const {
  return impl_->Tournament(name);
}
absl::StatusOr<std::vector<ScheduledGame>> ViewerDatabase::Schedule(
    const std::string& name) const {
  return impl_->Schedule(name);
}

}  // namespace cassino::viewer
