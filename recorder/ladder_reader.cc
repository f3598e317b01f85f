#include "recorder/ladder_reader.h"

#include <algorithm>
#include <map>
#include <utility>

#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"
#include "recorder/ladder_sql.h"
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
    absl::StatusOr<Statement> l =
        Prepare(c, absl::StrCat("SELECT ", internal::kLadderColumns,
                                " FROM ladders WHERE name = ?1"));
    if (!l.ok()) return l.status();
    Query query(l->get());
    query.Bind(1, ladder);
    if (query.Step() == SQLITE_ROW && !out->ladder.has_value()) {
      out->ladder = internal::LadderRowOf(query);
    }
    absl::StatusOr<Statement> b = Prepare(c, internal::kLadderBotsSql);
    if (!b.ok()) return b.status();
    Query bots(b->get());
    bots.Bind(1, ladder);
    while (bots.Step() == SQLITE_ROW) {
      out->bots.push_back(internal::LadderBotOf(bots, ladder));
    }
    absl::StatusOr<Statement> v = Prepare(c, internal::kLadderVersionsSql);
    if (!v.ok()) return v.status();
    Query versions(v->get());
    versions.Bind(1, ladder);
    while (versions.Step() == SQLITE_ROW) {
      out->versions.push_back(internal::LadderVersionOf(versions, ladder));
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
