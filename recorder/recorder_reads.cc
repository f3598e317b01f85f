#include <algorithm>
#include <map>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "nlohmann/json.hpp"
#include "recorder/event_pack.h"
#include "recorder/payload.h"
#include "recorder/recorder_impl.h"
#include "recorder/tally.h"

namespace cassino::recorder {
namespace internal {

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

}  // namespace internal

namespace {

using Json = nlohmann::json;
using internal::kGamePackSql;
using internal::kGameRowsSql;
using internal::PrepareKept;
using internal::ReadStoredEvents;

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

// Reads: one connection, one read transaction per call, under read_mu_.

absl::StatusOr<sqlite3_stmt*> Recorder::Impl::ReadStmt(const std::string& sql) {
  if (auto it = read_stmts_.find(sql); it != read_stmts_.end()) {
    return it->second;
  }
  absl::StatusOr<sqlite3_stmt*> stmt = PrepareKept(reader_, sql);
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
  const bool keyset = filter.newest_first && !filter.before_game_id.empty();
  if (keyset) {
    absl::StrAppend(&sql,
                    " AND (created_us < ?8 OR (created_us = ?8 AND "
                    "game_id < ?9))");
  }
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
    if (keyset) {
      q.Bind(8, filter.before_created_us);
      q.Bind(9, filter.before_game_id);
    }
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

absl::StatusOr<std::vector<Recorder::SeatTokenRow>>
Recorder::Impl::EndedSeatTokens(int64_t since_us) {
  absl::MutexLock lock(&read_mu_);
  absl::StatusOr<sqlite3_stmt*> stmt = ReadStmt(
      "SELECT s.game_id, s.seat, s.token_hash, g.finished_us FROM games g "
      "JOIN seats s ON s.game_id = g.game_id WHERE g.status <> 'running' "
      "AND g.finished_us >= ?1 AND s.token_hash <> '' "
      "ORDER BY s.game_id, s.seat");
  if (!stmt.ok()) return stmt.status();
  Query q(*stmt);
  q.Bind(1, since_us);
  std::vector<Recorder::SeatTokenRow> rows;
  int rc;
  while ((rc = q.Step()) == SQLITE_ROW) {
    rows.push_back(
        {q.Text(0), static_cast<int>(q.Int(1)), q.Text(2), q.Int(3)});
  }
  if (rc != SQLITE_DONE) {
    return SqlError(reader_, rc, "listing the seat tokens of ended games");
  }
  return rows;
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

}  // namespace cassino::recorder
