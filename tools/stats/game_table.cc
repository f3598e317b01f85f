// Reading the games and seats of a database into the GameTable.

#include "tools/stats/game_table.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "recorder/canonical_json.h"
#include "recorder/sqlite.h"

namespace cassino::stats::internal {
namespace {

std::string_view Text(sqlite3_stmt* stmt, int col) {
  const absl::string_view v = recorder::ColumnText(stmt, col);
  return std::string_view(v.data(), v.size());
}

// games.totals as the recorder writes it: "[5,21]", `sides` integers.
bool ParseTotals(std::string_view text, std::array<int32_t, kMaxSeats>* out,
                 int sides) {
  recorder::CanonicalReader r(absl::string_view(text.data(), text.size()));
  int n = 0;
  if (!r.Literal("[")) return false;
  if (!r.Peek(']')) {
    do {
      int v = 0;
      if (n >= kMaxSeats || !r.Int(&v)) return false;
      (*out)[n++] = v;
    } while (r.Next(','));
  }
  return r.Literal("]") && r.End() && n == sides;
}

}  // namespace

int32_t GameTable::InternBot(std::string_view name) {
  if (auto it = bot_index_.find(name); it != bot_index_.end()) {
    return it->second;
  }
  const int32_t index = static_cast<int32_t>(bot_names_.size());
  bot_index_.emplace(std::string(name), index);
  bot_names_.emplace_back(name);
  return index;
}

int32_t GameTable::InternRules(std::string_view text) {
  if (last_rules_ >= 0 && rules_text_[last_rules_] == text) return last_rules_;
  if (auto it = rules_index_.find(text); it != rules_index_.end()) {
    return last_rules_ = it->second;
  }
  const int32_t index = static_cast<int32_t>(rules_.size());
  rules_index_.emplace(std::string(text), index);
  RulesInfo info;
  absl::StatusOr<RuleSet> rules =
      RuleSet::Parse(absl::string_view(text.data(), text.size()));
  if (rules.ok()) {
    info.partnerships = rules->partnerships;
    info.canonical = RulesDiff(*rules);
    if (info.canonical.empty()) info.canonical = "standard";
  } else {
    info.canonical = std::string(text);
  }
  info.selected = !wanted_.has_value() || (rules.ok() && *rules == *wanted_);
  rules_.push_back(std::move(info));
  rules_text_.emplace_back(text);
  return last_rules_ = index;
}

void GameTable::StartGame(sqlite3_stmt* st) {
  pending_ = GameInfo();
  have_pending_ = true;
  pending_seats_ = 0;
  pending_bad_ = false;
  pending_.id.assign(Text(st, 0));
  pending_.rules = InternRules(Text(st, 1));
  const std::string_view commitment = Text(st, 2);
  pending_.deck_key.assign(commitment.empty() ? Text(st, 3) : commitment);
  if (commitment.empty()) pending_.deck_key.insert(0, "decks:");
  pending_.created_us = sqlite3_column_int64(st, 4);
  const std::string_view status = Text(st, 5);
  pending_state_ = status == "finished"  ? kFinished
                   : status == "aborted" ? kAborted
                                         : kRunning;
  pending_.winner =
      static_cast<int8_t>(sqlite3_column_type(st, 6) == SQLITE_NULL
                              ? -1
                              : std::clamp(sqlite3_column_int(st, 6), -1, 8));
  totals_text_.assign(Text(st, 7));
}

void GameTable::AddSeat(int seat, std::string_view bot) {
  if (seat != pending_seats_ || seat >= kMaxSeats) {
    pending_bad_ = true;  // a gap or too many seats
    return;
  }
  pending_.seat_bot[seat] = InternBot(bot);
  ++pending_seats_;
}

void GameTable::FinishGame(Summary* summary) {
  if (!have_pending_) return;
  have_pending_ = false;
  RulesInfo& rules = rules_[pending_.rules];
  if (!rules.selected) return;
  ++summary->games;
  if (pending_state_ == kRunning) {
    ++summary->running;
    return;
  }
  if (pending_state_ == kAborted) {
    ++summary->aborted;
    return;
  }
  if (pending_bad_ || pending_seats_ < 2 || pending_seats_ > kMaxSeats) {
    ++summary->skipped_games;
    return;
  }
  GameInfo& g = pending_;
  g.players = static_cast<int8_t>(pending_seats_);
  const bool partnerships = rules.partnerships && g.players == 4;
  auto side_of = [&](int seat) { return partnerships ? seat % 2 : seat; };
  g.sides = static_cast<int8_t>(partnerships ? 2 : g.players);
  if (g.winner >= g.sides) g.winner = -1;
  g.have_totals = ParseTotals(totals_text_, &g.totals, g.sides);
  // Members: distinct bots, each with its sides.
  g.members = 0;
  g.self_players = 0;
  for (int s = 0; s < g.players; ++s) {
    const int32_t bot = g.seat_bot[s];
    bool seen = false;
    for (int t = 0; t < s; ++t) seen |= g.seat_bot[t] == bot;
    if (seen) continue;
    const int side = side_of(s);
    bool multi = false;
    for (int t = s + 1; t < g.players; ++t) {
      if (g.seat_bot[t] == bot && side_of(t) != side) multi = true;
    }
    if (multi) {
      g.self_bot[g.self_players++] = bot;
    } else {
      g.member_bot[g.members] = bot;
      g.member_side[g.members] = static_cast<int8_t>(side);
      ++g.members;
    }
  }
  ++summary->finished;
  ++rules.games;
  games_.push_back(std::move(pending_));
}

absl::Status GameTable::Read(sqlite3* db, const std::string& path,
                             Summary* summary) {
  auto error = [&](const absl::Status& s) {
    return absl::Status(s.code(), absl::StrCat(path, ": ", s.message()));
  };
  // With a filter, a join (index lookups for the few games selected);
  // without, two scans in game-id order merged here (the whole database:
  // cheaper than a join's lookup per game).
  const bool filtered = !filter_.tournament.empty() || filter_.from_us != 0 ||
                        filter_.to_us != 0 || !filter_.bot.empty();
  constexpr const char* kGameColumns =
      "g.game_id, g.rules, g.commitment, g.explicit_decks, g.created_us, "
      "g.status, g.winner, g.totals";
  std::string sql;
  std::optional<recorder::Statement> seats_stmt;
  if (filtered) {
    sql = absl::StrCat("SELECT ", kGameColumns,
                       ", s.seat, s.bot_name FROM games g JOIN seats s ON "
                       "s.game_id = g.game_id WHERE 1");
    if (!filter_.tournament.empty()) sql += " AND g.label = ?1";
    if (filter_.from_us != 0) sql += " AND g.created_us >= ?2";
    if (filter_.to_us != 0) sql += " AND g.created_us < ?3";
    if (!filter_.bot.empty()) {
      sql +=
          " AND g.game_id IN (SELECT game_id FROM seats WHERE bot_name = ?4)";
    }
    sql += " ORDER BY g.game_id, s.seat";
  } else {
    sql = absl::StrCat("SELECT ", kGameColumns,
                       " FROM games g ORDER BY g.game_id");
    absl::StatusOr<recorder::Statement> seats = recorder::Prepare(
        db, "SELECT game_id, seat, bot_name FROM seats ORDER BY game_id, seat");
    if (!seats.ok()) return error(seats.status());
    seats_stmt = *std::move(seats);
  }
  absl::StatusOr<recorder::Statement> games_stmt = recorder::Prepare(db, sql);
  if (!games_stmt.ok()) return error(games_stmt.status());
  sqlite3_stmt* st = games_stmt->get();
  if (filtered) {
    sqlite3_bind_text(st, 1, filter_.tournament.data(),
                      static_cast<int>(filter_.tournament.size()),
                      SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, filter_.from_us);
    sqlite3_bind_int64(st, 3, filter_.to_us);
    sqlite3_bind_text(st, 4, filter_.bot.data(),
                      static_cast<int>(filter_.bot.size()), SQLITE_STATIC);
  }
  Segment segment{path, games_.size(), games_.size()};
  int rc;
  if (!seats_stmt.has_value()) {
    // The join: one row per seat.
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
      if (!have_pending_ || Text(st, 0) != pending_.id) {
        FinishGame(summary);
        StartGame(st);
      }
      AddSeat(sqlite3_column_int(st, 8), Text(st, 9));
    }
  } else {
    sqlite3_stmt* seats = seats_stmt->get();
    int seat_rc = sqlite3_step(seats);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
      FinishGame(summary);
      StartGame(st);
      const std::string_view id = pending_.id;
      while (seat_rc == SQLITE_ROW && Text(seats, 0) < id) {
        seat_rc = sqlite3_step(seats);  // seats of no game
      }
      while (seat_rc == SQLITE_ROW && Text(seats, 0) == id) {
        AddSeat(sqlite3_column_int(seats, 1), Text(seats, 2));
        seat_rc = sqlite3_step(seats);
      }
    }
    if (seat_rc != SQLITE_ROW && seat_rc != SQLITE_DONE) rc = seat_rc;
  }
  if (rc != SQLITE_DONE) {
    have_pending_ = false;
    return error(
        recorder::SqlError(db, sqlite3_errcode(db), "reading the games"));
  }
  FinishGame(summary);
  segment.last = games_.size();
  segments_.push_back(std::move(segment));
  return absl::OkStatus();
}

}  // namespace cassino::stats::internal
