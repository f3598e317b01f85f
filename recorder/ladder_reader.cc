#include "recorder/ladder_reader.h"

#include <algorithm>
#include <map>
#include <utility>

#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"
#include "recorder/sqlite.h"

namespace cassino::recorder {
namespace {

GameStatus StatusOf(absl::string_view s) {
  return s == "finished"  ? GameStatus::kFinished
         : s == "aborted" ? GameStatus::kAborted
                          : GameStatus::kRunning;
}

// One database's part.
absl::Status ReadOne(const std::string& path, const std::string& ladder,
                     LadderRecords* out,
                     std::map<std::string, std::string>* seen) {
  absl::StatusOr<Connection> db = OpenDatabase(path, OpenMode::kReadOnly);
  if (!db.ok()) return db.status();
  sqlite3* c = db->get();
  if (absl::Status s = CheckSchemaNotNewer(c, path); !s.ok()) return s;
  if (absl::Status s = Exec(c, "BEGIN"); !s.ok()) return s;
  absl::StatusOr<bool> accounts = HasColumn(c, "seats", "account");
  if (!accounts.ok()) return accounts.status();
  absl::StatusOr<Statement> q = Prepare(
      c, absl::StrCat("SELECT g.game_id, g.rules, g.status, g.winner, "
                      "g.end_reason, g.totals, g.created_us, g.finished_us, "
                      "s.seat, s.bot_name, ",
                      *accounts ? "s.account" : "''",
                      " FROM games g JOIN seats s ON s.game_id = g.game_id "
                      "WHERE g.label = ?1 ORDER BY g.game_id, s.seat"));
  if (!q.ok()) return q.status();
  {
    Query query(q->get());
    query.Bind(1, ladder);
    int rc;
    GameSummary* g = nullptr;
    while ((rc = query.Step()) == SQLITE_ROW) {
      const std::string id = query.Text(0);
      if (g == nullptr || g->game_id != id) {
        auto [it, fresh] = seen->emplace(id, path);
        if (!fresh) {
          return absl::InvalidArgumentError(absl::StrCat(
              "game ", id, " is in both ", it->second, " and ", path,
              ": a database copied or listed twice (its games would count "
              "twice)"));
        }
        g = &out->games.emplace_back();
        g->game_id = id;
        g->label = ladder;
        g->rules = query.Text(1);
        g->status = StatusOf(query.View(2));
        g->winner = query.IsNull(3) ? -1 : static_cast<int>(query.Int(3));
        g->end_reason = query.IsNull(4) ? "" : query.Text(4);
        if (!query.IsNull(5)) {
          const nlohmann::json totals = nlohmann::json::parse(
              query.View(5), nullptr, /*allow_exceptions=*/false);
          if (totals.is_array()) {
            for (const auto& t : totals) {
              if (t.is_number_integer()) g->totals.push_back(t.get<int>());
            }
          }
        }
        g->created_us = query.Int(6);
        g->finished_us = query.IsNull(7) ? 0 : query.Int(7);
      }
      g->bots.push_back(query.Text(9));
      g->accounts.push_back(query.Text(10));
    }
    if (rc != SQLITE_DONE) return SqlError(c, rc, "reading a ladder's games");
  }
  absl::StatusOr<bool> ladders = HasTable(c, "ladders");
  if (!ladders.ok()) return ladders.status();
  if (*ladders) {
    absl::StatusOr<Statement> l = Prepare(
        c,
        "SELECT rules, per_move_ms, bank_ms, max_illegal, duplicate, "
        "settings, status, reason, created_us, changed_us FROM ladders WHERE "
        "name = ?1");
    if (!l.ok()) return l.status();
    Query query(l->get());
    query.Bind(1, ladder);
    if (query.Step() == SQLITE_ROW && !out->ladder.has_value()) {
      LadderRow row;
      row.name = ladder;
      row.rules = query.Text(0);
      row.clock.per_move_ms = query.Int(1);
      row.clock.bank_ms = query.Int(2);
      row.clock.max_illegal = static_cast<int>(query.Int(3));
      row.duplicate = query.Int(4) != 0;
      row.settings = query.Text(5);
      row.status = query.Text(6);
      row.reason = query.Text(7);
      row.created_us = query.Int(8);
      row.changed_us = query.Int(9);
      out->ladder = std::move(row);
    }
    absl::StatusOr<Statement> b = Prepare(
        c,
        "SELECT account, faults, probations, probation_us, until_us, reason "
        "FROM ladder_bots WHERE ladder = ?1 ORDER BY account");
    if (!b.ok()) return b.status();
    Query bots(b->get());
    bots.Bind(1, ladder);
    while (bots.Step() == SQLITE_ROW) {
      LadderBotRow row;
      row.ladder = ladder;
      row.account = bots.Text(0);
      row.faults = static_cast<int>(bots.Int(1));
      row.probations = static_cast<int>(bots.Int(2));
      row.probation_us = bots.IsNull(3) ? 0 : bots.Int(3);
      row.until_us = bots.IsNull(4) ? 0 : bots.Int(4);
      row.reason = bots.Text(5);
      out->bots.push_back(std::move(row));
    }
    absl::StatusOr<Statement> v = Prepare(
        c,
        "SELECT account, version, first_us FROM ladder_versions WHERE ladder "
        "= ?1 ORDER BY account, first_us, version");
    if (!v.ok()) return v.status();
    Query versions(v->get());
    versions.Bind(1, ladder);
    while (versions.Step() == SQLITE_ROW) {
      out->versions.push_back(
          {ladder, versions.Text(0), versions.Text(1), versions.Int(2)});
    }
  }
  return Exec(c, "COMMIT");
}

}  // namespace

absl::StatusOr<LadderRecords> ReadLadderRecords(
    const std::vector<std::string>& databases, const std::string& ladder) {
  LadderRecords out;
  std::map<std::string, std::string> seen;
  for (const std::string& path : databases) {
    if (absl::Status s = ReadOne(path, ladder, &out, &seen); !s.ok()) {
      return s;
    }
  }
  std::sort(out.games.begin(), out.games.end(),
            [](const GameSummary& a, const GameSummary& b) {
              return a.game_id < b.game_id;
            });
  return out;
}

absl::StatusOr<std::vector<std::string>> LadderNames(const std::string& path) {
  absl::StatusOr<Connection> db = OpenDatabase(path, OpenMode::kReadOnly);
  if (!db.ok()) return db.status();
  std::vector<std::string> names;
  absl::StatusOr<bool> ladders = HasTable(db->get(), "ladders");
  if (!ladders.ok()) return ladders.status();
  if (!*ladders) return names;
  absl::StatusOr<Statement> q =
      Prepare(db->get(), "SELECT name FROM ladders ORDER BY created_us, name");
  if (!q.ok()) return q.status();
  int rc;
  while ((rc = sqlite3_step(q->get())) == SQLITE_ROW) {
    names.emplace_back(ColumnText(q->get(), 0));
  }
  if (rc != SQLITE_DONE) return SqlError(db->get(), rc, "reading ladders");
  return names;
}

}  // namespace cassino::recorder
