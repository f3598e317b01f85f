// Reading a recorder database into Stats, and the rating fit. The
// formatters are in stats_format.cc.

#include "tools/stats/stats.h"

#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <string_view>
#include <thread>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "recorder/canonical_json.h"
#include "recorder/event_pack.h"
#include "recorder/sqlite.h"
#include "recorder/tally.h"
#include "rules/position.h"
#include "rules/rule_set.h"
#include "rules/scoring.h"

namespace cassino::stats {
namespace {

constexpr int kMaxSeats = 6;  // California with 6 players

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

// Hashes std::string and string_view alike (heterogeneous lookup).
struct StringHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const {
    return std::hash<std::string_view>{}(s);
  }
};

// ---------------------------------------------------------------------------
// SQLite helpers.

using Db = recorder::Connection;
using Stmt = recorder::Statement;

absl::StatusOr<Db> OpenReadOnly(const std::string& path) {
  absl::StatusOr<Db> db =
      recorder::OpenDatabase(path, recorder::OpenMode::kReadOnly);
  if (!db.ok()) return db.status();
  if (absl::Status s = recorder::CheckSchemaNotNewer(db->get(), path);
      !s.ok()) {
    return s;
  }
  return db;
}

absl::StatusOr<Stmt> Prepare(sqlite3* db, const std::string& sql) {
  return recorder::Prepare(db, sql);
}

std::string_view Text(sqlite3_stmt* stmt, int col) {
  const absl::string_view v = recorder::ColumnText(stmt, col);
  return std::string_view(v.data(), v.size());
}

std::string_view Blob(sqlite3_stmt* stmt, int col) {
  const absl::string_view v = recorder::ColumnBlob(stmt, col);
  return std::string_view(v.data(), v.size());
}

// Whether the database has the table `name` (false if it cannot tell).
bool HasTable(sqlite3* db, const char* name) {
  absl::StatusOr<bool> has = recorder::HasTable(db, name);
  return has.ok() && *has;
}

absl::Status StepError(sqlite3* db) {
  return recorder::SqlError(db, sqlite3_errcode(db), "reading the database");
}

// ---------------------------------------------------------------------------
// The games as read.

enum GameState : int8_t { kRunning, kFinished, kAborted };

struct GameInfo {
  std::string id;
  int64_t created_us = 0;
  int32_t rules = 0;  // index into the interned rules texts
  int8_t players = 0;
  int8_t sides = 0;
  int8_t state = kRunning;
  int8_t winner = -1;
  std::array<int32_t, kMaxSeats> seat_bot{-1, -1, -1, -1, -1, -1};
  std::array<int32_t, kMaxSeats> totals{};
  bool have_totals = false;
  // The distinct bots that play on exactly one side, with that side.
  int8_t members = 0;
  std::array<int32_t, kMaxSeats> member_bot{};
  std::array<int8_t, kMaxSeats> member_side{};
  // Bots on two or more sides (at most half the seats).
  int8_t self_players = 0;
  std::array<int32_t, kMaxSeats / 2> self_bot{};
  std::string deck_key;  // commitment, or explicit decks; for duplicates
};

struct RulesInfo {
  bool partnerships = false;
  bool parsed = false;
  bool selected = true;     // matches Filter::rules
  std::string canonical{};  // RulesDiff, "standard" when empty
  int64_t games = 0;        // finished games analysed
};

int SideOf(const RulesInfo& r, int seat) {
  return r.partnerships ? seat % 2 : seat;
}

// An exact histogram of move times (milliseconds, clamped to 0..INT32_MAX):
// dense counts for the usual small values, a map beyond.
class MoveHist {
 public:
  void Add(int64_t ms, int64_t count) {
    const int64_t v = std::clamp<int64_t>(ms, 0, INT32_MAX);
    total_ += count;
    if (v < kDense) {
      if (static_cast<size_t>(v) >= dense_.size()) {
        dense_.resize(std::max<size_t>(v + 1, dense_.size() * 2), 0);
      }
      dense_[v] += count;
    } else {
      sparse_[static_cast<int32_t>(v)] += count;
    }
  }
  void Merge(const MoveHist& other) {
    if (dense_.size() < other.dense_.size()) dense_.resize(other.dense_.size());
    for (size_t v = 0; v < other.dense_.size(); ++v) {
      dense_[v] += other.dense_[v];
    }
    for (const auto& [v, n] : other.sparse_) sparse_[v] += n;
    total_ += other.total_;
  }
  int64_t total() const { return total_; }
  // Nearest rank: the smallest value with at least ceil(p * total) values
  // at or below it.
  double Percentile(double p) const {
    if (total_ == 0) return 0;
    const int64_t rank = std::clamp<int64_t>(
        static_cast<int64_t>(std::ceil(p * static_cast<double>(total_))), 1,
        total_);
    int64_t seen = 0;
    for (size_t v = 0; v < dense_.size(); ++v) {
      seen += dense_[v];
      if (seen >= rank) return static_cast<double>(v);
    }
    for (const auto& [v, n] : sparse_) {
      seen += n;
      if (seen >= rank) return v;
    }
    return 0;  // unreachable: the counts add up to total_
  }

 private:
  static constexpr int64_t kDense = 1 << 16;
  std::vector<int64_t> dense_;
  std::map<int32_t, int64_t> sparse_;
  int64_t total_ = 0;
};

// What the event scan accumulates; one per thread, merged afterwards.
struct Partial {
  explicit Partial(size_t bots)
      : move_ms(bots),
        rejects(bots),
        forfeits(bots),
        timeouts(bots),
        rounds(bots),
        points(bots) {}
  std::vector<MoveHist> move_ms;
  std::vector<int64_t> rejects, forfeits, timeouts, rounds;
  std::vector<std::array<int64_t, kItemKinds + 1>> points;  // + total
  int64_t bad_events = 0;
  int64_t round_events = 0;
  int64_t move_events = 0;
  int64_t tallied_games = 0;  // read from game_tallies
  absl::Status status;
};

class EventReader {
 public:
  // `packs`: the database has event_packs (schema version 5).
  EventReader(const std::vector<GameInfo>& games, bool with_moves, bool packs,
              Partial* out)
      : games_(games), with_moves_(with_moves), packs_(packs), out_(*out) {}

  // A game read from its events: BeginGame, its events (rows, a pack, or
  // both if the database is corrupt), EndGame. The events are tallied as
  // the recorder tallies them (recorder/tally.h) and the tally is added as
  // a stored one is: the two paths give the same statistics by
  // construction.
  void BeginGame(const GameInfo& g) {
    game_ = &g;
    builder_.emplace(g.players, g.sides);
  }
  void AddEvent(std::string_view kind, std::string_view payload) {
    builder_->Add(absl::string_view(kind.data(), kind.size()),
                  absl::string_view(payload.data(), payload.size()));
  }
  // The events of an ended game's event pack (schema 5; event_pack.h). A
  // pack that does not decode counts as one bad event (verify names it).
  void AddPack(std::string_view pack) {
    recorder::EventPackReader reader(
        absl::string_view(pack.data(), pack.size()));
    recorder::PackedEvent e;
    while (reader.Next(&e)) builder_->Add(e.kind, e.payload);
    if (!reader.status().ok()) ++out_.bad_events;
  }
  void EndGame() {
    if (game_ == nullptr) return;
    const recorder::GameTally& t = builder_->tally();
    AddTally(*game_, {t.rounds, t.moves, t.bad_moves, t.bad_events,
                      t.PointsText(), t.ConductText(), t.MoveMsText(),
                      /*stored=*/false});
    game_ = nullptr;
    builder_.reset();
  }

  // Range scan over [first, last) of `games_` (sorted by id): the events
  // of every game id in between, in primary-key order, from the `events`
  // rows and then from the event packs, merged with the game list (events
  // of games not in the list are skipped). A game's events are either rows
  // or one pack.
  void ScanRange(sqlite3* db, size_t first, size_t last, bool open_start) {
    for (const bool packs : {false, true}) {
      if (packs && !packs_) break;
      // With move events, no filter on kind: nearly every row is wanted and
      // testing the kind in SQL costs more than skipping the few others
      // here (measured). Without, the filter saves extracting the moves.
      std::string sql =
          packs
              ? "SELECT game_id, pack FROM event_packs WHERE 1"
              : absl::StrCat("SELECT game_id, kind, payload FROM events WHERE ",
                             with_moves_ ? "1" : kNoMovesFilter);
      if (!open_start) sql += " AND game_id >= ?1";
      if (last < games_.size()) sql += " AND game_id < ?2";
      sql += packs ? " ORDER BY game_id" : " ORDER BY game_id, seq";
      absl::StatusOr<Stmt> stmt = Prepare(db, sql);
      if (!stmt.ok()) {
        out_.status = stmt.status();
        return;
      }
      sqlite3_stmt* st = stmt->get();
      BindIdRange(st, first, last, open_start);
      size_t k = first;
      std::string current;  // the game id of the previous row
      const GameInfo* game = nullptr;
      int rc;
      while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        std::string_view id = Text(st, 0);
        if (id != current) {
          EndGame();
          current.assign(id);
          while (k < last && std::string_view(games_[k].id) < id) ++k;
          game = (k < last && games_[k].id == id) ? &games_[k] : nullptr;
          if (game != nullptr) BeginGame(*game);
        }
        if (game == nullptr) continue;
        if (packs) {
          AddPack(Blob(st, 1));
        } else {
          AddEvent(Text(st, 1), Text(st, 2));
        }
      }
      EndGame();
      if (rc != SQLITE_DONE) {
        out_.status = StepError(db);
        return;
      }
    }
  }

  // Binds ?1 and ?2 of a range query over game ids to the ids of games
  // `first` (unless the range is open at the start) and `last` (unless it
  // runs to the end).
  void BindIdRange(sqlite3_stmt* st, size_t first, size_t last,
                   bool open_start) const {
    if (!open_start) {
      sqlite3_bind_text(st, 1, games_[first].id.data(),
                        static_cast<int>(games_[first].id.size()),
                        SQLITE_STATIC);
    }
    if (last < games_.size()) {
      sqlite3_bind_text(st, 2, games_[last].id.data(),
                        static_cast<int>(games_[last].id.size()),
                        SQLITE_STATIC);
    }
  }

  // The games of [first, last) from their game_tallies rows (a range scan
  // when `dense`, else a lookup per game); games without a usable row are
  // then read from their events, one lookup each.
  void ScanTallies(sqlite3* db, size_t first, size_t last, bool open_start,
                   bool dense) {
    std::string sql =
        absl::StrCat("SELECT ", kTallyColumns, " FROM game_tallies WHERE ");
    if (dense) {
      sql += "1";
      if (!open_start) sql += " AND game_id >= ?1";
      if (last < games_.size()) sql += " AND game_id < ?2";
      sql += " ORDER BY game_id";
    } else {
      sql += "game_id = ?1";
    }
    absl::StatusOr<Stmt> stmt = Prepare(db, sql);
    if (!stmt.ok()) {
      out_.status = stmt.status();
      return;
    }
    sqlite3_stmt* st = stmt->get();
    std::vector<size_t> missing;
    int rc = SQLITE_DONE;
    if (dense) {
      BindIdRange(st, first, last, open_start);
      size_t k = first;
      while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const std::string_view id = Text(st, 0);
        while (k < last && std::string_view(games_[k].id) < id) {
          missing.push_back(k++);
        }
        if (k < last && games_[k].id == id) {
          if (!AddTally(games_[k], ColumnsOf(st))) missing.push_back(k);
          ++k;
        }
      }
      while (k < last) missing.push_back(k++);
    } else {
      for (size_t k = first; k < last; ++k) {
        const GameInfo& g = games_[k];
        sqlite3_bind_text(st, 1, g.id.data(), static_cast<int>(g.id.size()),
                          SQLITE_STATIC);
        rc = sqlite3_step(st);
        if (rc == SQLITE_ROW) {
          if (!AddTally(g, ColumnsOf(st))) missing.push_back(k);
          rc = sqlite3_step(st);
        } else {
          missing.push_back(k);
        }
        if (rc != SQLITE_DONE) break;
        sqlite3_reset(st);
      }
    }
    if (rc != SQLITE_DONE) {
      out_.status = StepError(db);
      return;
    }
    ScanGames(db, missing);
  }

  // Point queries, one per game: for a filter that selects few games.
  void ScanGames(sqlite3* db, size_t first, size_t last) {
    std::vector<size_t> indices(last - first);
    std::iota(indices.begin(), indices.end(), first);
    ScanGames(db, indices);
  }
  void ScanGames(sqlite3* db, const std::vector<size_t>& indices) {
    if (indices.empty()) return;
    absl::StatusOr<Stmt> stmt = Prepare(
        db, absl::StrCat("SELECT kind, payload FROM events WHERE "
                         "game_id = ?1 AND ",
                         with_moves_ ? "1" : kNoMovesFilter, " ORDER BY seq"));
    if (!stmt.ok()) {
      out_.status = stmt.status();
      return;
    }
    sqlite3_stmt* st = stmt->get();
    absl::StatusOr<Stmt> pack_stmt =
        packs_ ? Prepare(db, "SELECT pack FROM event_packs WHERE game_id = ?1")
               : absl::StatusOr<Stmt>(Stmt(nullptr));
    if (!pack_stmt.ok()) {
      out_.status = pack_stmt.status();
      return;
    }
    sqlite3_stmt* pk = pack_stmt->get();
    for (size_t k : indices) {
      const GameInfo& g = games_[k];
      BeginGame(g);
      for (sqlite3_stmt* q : {st, pk}) {
        if (q == nullptr) continue;
        sqlite3_bind_text(q, 1, g.id.data(), static_cast<int>(g.id.size()),
                          SQLITE_STATIC);
        int rc;
        while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
          if (q == pk) {
            AddPack(Blob(q, 0));
          } else {
            AddEvent(Text(q, 0), Text(q, 1));
          }
        }
        if (rc != SQLITE_DONE) {
          out_.status = StepError(db);
          return;
        }
        sqlite3_reset(q);
      }
      EndGame();
    }
  }

 private:
  // A game's tally: a game_tallies row's columns, or the text a built
  // tally writes.
  struct TallyColumns {
    int64_t rounds = 0;
    int64_t moves = 0;
    int64_t bad_moves = 0;
    int64_t bad_events = 0;
    absl::string_view points;
    absl::string_view conduct;
    absl::string_view move_ms;
    bool stored = true;  // a game_tallies row (Summary::tallied_games)
  };
  // Columns 1.. of a game_tallies row (kTallyColumns).
  static TallyColumns ColumnsOf(sqlite3_stmt* st) {
    auto text = [st](int col) {
      const std::string_view v = Text(st, col);
      return absl::string_view(v.data(), v.size());
    };
    return {sqlite3_column_int64(st, 1),
            sqlite3_column_int64(st, 2),
            sqlite3_column_int64(st, 3),
            sqlite3_column_int64(st, 4),
            text(5),
            text(6),
            text(7)};
  }

  // A tally into the partial results. False, adding nothing, if it does
  // not fit the game (seat or side counts) or does not parse: the caller
  // then reads the events.
  bool AddTally(const GameInfo& g, const TallyColumns& c) {
    const int64_t rounds = c.rounds;
    const int64_t moves = c.moves;
    const int64_t bad_moves = c.bad_moves;
    const int64_t bad_events = c.bad_events;
    // points: per side [cards, spades, big, little, aces, sweeps, total].
    std::array<std::array<int64_t, kItemKinds + 1>, kMaxSeats> points{};
    std::array<int, kMaxSeats> widths{};
    const int sides = recorder::ReadTallyRows(
        c.points, [&](int r) { return r < g.sides; },
        [&](int r, int i, int64_t v) {
          if (i > kItemKinds) return false;
          points[r][i] = v;
          widths[r] = i + 1;
          return true;
        });
    if (sides != g.sides) return false;
    for (int r = 0; r < sides; ++r) {
      if (widths[r] != kItemKinds + 1) return false;
    }
    // conduct: per seat [moves, rejects, forfeits, timeouts].
    std::array<std::array<int64_t, 4>, kMaxSeats> conduct{};
    widths.fill(0);
    const int seats = recorder::ReadTallyRows(
        c.conduct, [&](int r) { return r < g.players; },
        [&](int r, int i, int64_t v) {
          if (i >= 4) return false;
          conduct[r][i] = v;
          widths[r] = i + 1;
          return true;
        });
    if (seats != g.players) return false;
    for (int r = 0; r < seats; ++r) {
      if (widths[r] != 4) return false;
    }
    // move_ms: per seat [ms, count, ...]; read into pairs_ first.
    if (with_moves_) {
      pairs_.clear();
      const int rows = recorder::ReadTallyRows(
          c.move_ms, [&](int r) { return r < g.players; },
          [&](int r, int i, int64_t v) {
            if (i % 2 == 0) {
              pairs_.push_back({r, v, -1});
              return true;
            }
            pairs_.back().count = v;
            return v >= 0;
          });
      if (rows != g.players) return false;
      for (const MovePair& p : pairs_) {
        if (p.count < 0) return false;  // an odd-length row
      }
    }
    // Everything read: add it.
    if (c.stored) ++out_.tallied_games;
    out_.bad_events += bad_events + (with_moves_ ? bad_moves : 0);
    out_.round_events += rounds;
    for (int m = 0; m < g.members; ++m) {
      const int bot = g.member_bot[m];
      out_.rounds[bot] += rounds;
      for (int k = 0; k <= kItemKinds; ++k) {
        out_.points[bot][k] += points[g.member_side[m]][k];
      }
    }
    for (int seat = 0; seat < g.players; ++seat) {
      const int bot = g.seat_bot[seat];
      out_.rejects[bot] += conduct[seat][1];
      out_.forfeits[bot] += conduct[seat][2];
      out_.timeouts[bot] += conduct[seat][3];
    }
    if (with_moves_) {
      out_.move_events += moves;
      for (const MovePair& p : pairs_) {
        out_.move_ms[g.seat_bot[p.seat]].Add(p.ms, p.count);
      }
    }
    return true;
  }

  static constexpr const char* kTallyColumns =
      "game_id, rounds, moves, bad_moves, bad_events, points, conduct, "
      "move_ms";
  struct MovePair {
    int seat;
    int64_t ms;
    int64_t count;
  };
  std::vector<MovePair> pairs_;
  static constexpr const char* kNoMovesFilter =
      "(kind = 'round' OR kind = 'reject' OR kind = 'forfeit')";
  const std::vector<GameInfo>& games_;
  const bool with_moves_;
  const bool packs_;
  Partial& out_;
  const GameInfo* game_ = nullptr;  // the game being read from its events
  std::optional<recorder::TallyBuilder> builder_;
};

double NormalCdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

// Inverts a symmetric positive-definite-ish matrix by Gauss–Jordan with
// partial pivoting. False if singular.
bool Invert(std::vector<std::vector<double>> a,
            std::vector<std::vector<double>>* inv) {
  const size_t n = a.size();
  inv->assign(n, std::vector<double>(n, 0));
  for (size_t i = 0; i < n; ++i) (*inv)[i][i] = 1;
  double scale = 0;
  for (size_t i = 0; i < n; ++i) scale = std::max(scale, std::abs(a[i][i]));
  if (scale == 0) return n == 0;
  for (size_t c = 0; c < n; ++c) {
    size_t pivot = c;
    for (size_t r = c + 1; r < n; ++r) {
      if (std::abs(a[r][c]) > std::abs(a[pivot][c])) pivot = r;
    }
    if (std::abs(a[pivot][c]) < 1e-12 * scale) return false;
    std::swap(a[c], a[pivot]);
    std::swap((*inv)[c], (*inv)[pivot]);
    const double d = a[c][c];
    for (size_t k = 0; k < n; ++k) {
      a[c][k] /= d;
      (*inv)[c][k] /= d;
    }
    for (size_t r = 0; r < n; ++r) {
      if (r == c || a[r][c] == 0) continue;
      const double f = a[r][c];
      for (size_t k = 0; k < n; ++k) {
        a[r][k] -= f * a[c][k];
        (*inv)[r][k] -= f * (*inv)[c][k];
      }
    }
  }
  return true;
}

double Sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

}  // namespace

// ---------------------------------------------------------------------------

absl::StatusOr<int64_t> ParseDate(absl::string_view date) {
  int y = 0, m = 0, d = 0;
  if (date.size() != 10 || date[4] != '-' || date[7] != '-' ||
      !absl::SimpleAtoi(date.substr(0, 4), &y) ||
      !absl::SimpleAtoi(date.substr(5, 2), &m) ||
      !absl::SimpleAtoi(date.substr(8, 2), &d)) {
    return absl::InvalidArgumentError(
        absl::StrCat("bad date '", date, "': expected YYYY-MM-DD"));
  }
  const std::chrono::year_month_day ymd{
      std::chrono::year(y), std::chrono::month(m), std::chrono::day(d)};
  if (!ymd.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("bad date '", date, "': no such day"));
  }
  const std::chrono::sys_days days(ymd);
  return static_cast<int64_t>(days.time_since_epoch().count()) * kDayUs;
}

Proportion Wilson(int64_t successes, int64_t trials, double z) {
  Proportion p;
  p.successes = successes;
  p.trials = trials;
  if (trials <= 0) return p;
  const double n = static_cast<double>(trials);
  const double phat = successes / n;
  const double z2 = z * z;
  const double denom = 1 + z2 / n;
  const double center = (phat + z2 / (2 * n)) / denom;
  const double half =
      z / denom * std::sqrt(phat * (1 - phat) / n + z2 / (4 * n * n));
  p.rate = phat;
  p.low = std::max(0.0, center - half);
  p.high = std::min(1.0, center + half);
  return p;
}

absl::string_view ItemName(int kind) {
  static constexpr absl::string_view kNames[] = {
      "cards", "spades", "big_cassino", "little_cassino", "aces", "sweeps"};
  return kind >= 0 && kind < kItemKinds ? kNames[kind] : "?";
}

Ratings FitBradleyTerry(const std::vector<std::vector<double>>& wins,
                        double prior_draws) {
  const size_t n = wins.size();
  Ratings out;
  out.elo.assign(n, 1500);
  out.se.assign(n, 0);
  out.los.assign(n, std::vector<double>(n, 0.5));
  out.converged = true;
  if (n == 0) return out;
  const double d = std::max(0.0, prior_draws);
  std::vector<double> theta(n, 0);
  // Pair totals.
  std::vector<std::vector<double>> games(n, std::vector<double>(n, 0));
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = 0; j < n; ++j) {
      if (i != j) games[i][j] = wins[i][j] + wins[j][i];
    }
  }
  auto log_likelihood = [&](const std::vector<double>& t) {
    double ll = 0;
    for (size_t i = 0; i < n; ++i) {
      for (size_t j = 0; j < n; ++j) {
        if (i != j && wins[i][j] > 0) {
          // log sigmoid(x) = -log1p(exp(-x)), computed stably.
          const double x = t[i] - t[j];
          ll += wins[i][j] * (x > 0 ? -std::log1p(std::exp(-x))
                                    : x - std::log1p(std::exp(x)));
        }
      }
      if (d > 0) {
        const double x = t[i];
        const double ls =
            x > 0 ? -std::log1p(std::exp(-x)) : x - std::log1p(std::exp(x));
        ll += d / 2 * ls + d / 2 * (ls - x);  // log sigmoid(-x) = ls - x
      }
    }
    return ll;
  };
  // Fisher information (negated Hessian) at t; with d == 0 its null space
  // holds the all-ones vector, so J/n is added (this leaves the Newton step
  // orthogonal to it and makes the matrix invertible when the comparison
  // graph is connected).
  auto information = [&](const std::vector<double>& t, bool plus_j) {
    std::vector<std::vector<double>> f(n, std::vector<double>(n, 0));
    for (size_t i = 0; i < n; ++i) {
      for (size_t j = 0; j < n; ++j) {
        if (i == j || games[i][j] == 0) continue;
        const double p = Sigmoid(t[i] - t[j]);
        const double w = games[i][j] * p * (1 - p);
        f[i][i] += w;
        f[i][j] -= w;
      }
      if (d > 0) {
        const double p = Sigmoid(t[i]);
        f[i][i] += d * p * (1 - p);
      }
      if (plus_j) {
        for (size_t j = 0; j < n; ++j) f[i][j] += 1.0 / n;
      }
    }
    return f;
  };
  const bool plus_j = d == 0;
  double ll = log_likelihood(theta);
  out.converged = false;
  constexpr int kMaxIterations = 100;
  constexpr double kMaxTheta = 30;  // ~5200 Elo: "unbounded" for our purposes
  for (int iter = 1; iter <= kMaxIterations; ++iter) {
    out.iterations = iter;
    std::vector<double> grad(n, 0);
    for (size_t i = 0; i < n; ++i) {
      for (size_t j = 0; j < n; ++j) {
        if (i == j || games[i][j] == 0) continue;
        grad[i] += wins[i][j] - games[i][j] * Sigmoid(theta[i] - theta[j]);
      }
      if (d > 0) grad[i] += d / 2 - d * Sigmoid(theta[i]);
    }
    std::vector<std::vector<double>> inv;
    if (!Invert(information(theta, plus_j), &inv)) break;
    std::vector<double> step(n, 0);
    double max_step = 0;
    for (size_t i = 0; i < n; ++i) {
      for (size_t j = 0; j < n; ++j) step[i] += inv[i][j] * grad[j];
      max_step = std::max(max_step, std::abs(step[i]));
    }
    // Damped step: at most 2 in log-strength, then halve until the
    // likelihood does not fall.
    double scale = max_step > 2 ? 2 / max_step : 1;
    std::vector<double> next(n);
    double next_ll = ll;
    for (int halvings = 0; halvings < 40; ++halvings, scale /= 2) {
      for (size_t i = 0; i < n; ++i) {
        next[i] = std::clamp(theta[i] + scale * step[i], -kMaxTheta, kMaxTheta);
      }
      next_ll = log_likelihood(next);
      if (next_ll >= ll - 1e-12 * std::abs(ll)) break;
    }
    theta = next;
    ll = next_ll;
    if (max_step * scale < 1e-9) {
      out.converged = true;
      break;
    }
  }
  for (double t : theta) {
    if (std::abs(t) >= kMaxTheta - 1e-9) out.converged = false;
  }
  // Centre and convert.
  const double mean = std::accumulate(theta.begin(), theta.end(), 0.0) / n;
  const double k = 400 / std::log(10.0);
  for (size_t i = 0; i < n; ++i) out.elo[i] = 1500 + k * (theta[i] - mean);
  // Covariance of theta: F^-1 with a prior, else the pseudo-inverse
  // (F + J/n)^-1 - J/n. Then centred: C cov C with C = I - J/n.
  std::vector<std::vector<double>> cov;
  if (n == 1) {
    out.se[0] = 0;
    return out;
  }
  if (!Invert(information(theta, plus_j), &cov)) {
    for (size_t i = 0; i < n; ++i) {
      out.se[i] = std::numeric_limits<double>::quiet_NaN();
      for (size_t j = 0; j < n; ++j) {
        if (i != j) out.los[i][j] = std::numeric_limits<double>::quiet_NaN();
      }
    }
    return out;
  }
  if (plus_j) {
    for (auto& row : cov) {
      for (double& v : row) v -= 1.0 / n;
    }
  }
  std::vector<double> row_mean(n, 0), col_mean(n, 0);
  double all_mean = 0;
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = 0; j < n; ++j) {
      row_mean[i] += cov[i][j] / n;
      col_mean[j] += cov[i][j] / n;
      all_mean += cov[i][j] / (n * n);
    }
  }
  for (size_t i = 0; i < n; ++i) {
    const double centred = cov[i][i] - row_mean[i] - col_mean[i] + all_mean;
    out.se[i] = k * std::sqrt(std::max(0.0, centred));
    for (size_t j = 0; j < n; ++j) {
      if (i == j) continue;
      const double var = cov[i][i] + cov[j][j] - cov[i][j] - cov[j][i];
      const double diff = theta[i] - theta[j];
      out.los[i][j] = var > 0 ? NormalCdf(diff / std::sqrt(var))
                              : (diff > 0   ? 1
                                 : diff < 0 ? 0
                                            : 0.5);
    }
  }
  return out;
}

absl::StatusOr<Stats> ReadStats(const std::string& path, const Filter& filter,
                                const Options& options) {
  const auto start = std::chrono::steady_clock::now();
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    return absl::NotFoundError(absl::StrCat(path, ": no such file"));
  }
  absl::StatusOr<Db> db = OpenReadOnly(path);
  if (!db.ok()) return db.status();
  {
    absl::StatusOr<Stmt> check = Prepare(
        db->get(),
        "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN "
        "('games', 'seats', 'events')");
    if (!check.ok() || sqlite3_step(check->get()) != SQLITE_ROW ||
        sqlite3_column_int(check->get(), 0) != 3) {
      return absl::FailedPreconditionError(
          absl::StrCat(path,
                       ": not a game record database (no games, seats "
                       "and events tables)"));
    }
  }

  Stats stats;
  stats.filter = filter;
  stats.move_times = options.move_times;
  std::optional<RuleSet> wanted_rules;
  if (!filter.rules.empty()) {
    absl::StatusOr<RuleSet> rules = RuleSet::Parse(filter.rules);
    if (!rules.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--rules: ", rules.status().message()));
    }
    wanted_rules = *rules;
  }

  // 1. The games and their seats, in game id order: with a filter, a join
  // (index lookups for the few games selected); without, two scans merged.
  const bool filtered = !filter.tournament.empty() || filter.from_us != 0 ||
                        filter.to_us != 0 || !filter.bot.empty();
  constexpr const char* kGameColumns =
      "g.game_id, g.rules, g.commitment, g.explicit_decks, g.created_us, "
      "g.status, g.winner, g.totals";
  std::string sql;
  std::optional<Stmt> seats_stmt;
  if (filtered) {
    sql = absl::StrCat("SELECT ", kGameColumns,
                       ", s.seat, s.bot_name FROM games g JOIN seats s ON "
                       "s.game_id = g.game_id WHERE 1");
    if (!filter.tournament.empty()) sql += " AND g.label = ?1";
    if (filter.from_us != 0) sql += " AND g.created_us >= ?2";
    if (filter.to_us != 0) sql += " AND g.created_us < ?3";
    if (!filter.bot.empty()) {
      sql +=
          " AND g.game_id IN (SELECT game_id FROM seats WHERE bot_name = ?4)";
    }
    sql += " ORDER BY g.game_id, s.seat";
  } else {
    sql = absl::StrCat("SELECT ", kGameColumns,
                       " FROM games g ORDER BY g.game_id");
    absl::StatusOr<Stmt> seats = Prepare(
        db->get(),
        "SELECT game_id, seat, bot_name FROM seats ORDER BY game_id, seat");
    if (!seats.ok()) return seats.status();
    seats_stmt = *std::move(seats);
  }
  absl::StatusOr<Stmt> games_stmt = Prepare(db->get(), sql);
  if (!games_stmt.ok()) return games_stmt.status();
  sqlite3_stmt* st = games_stmt->get();
  if (filtered) {
    sqlite3_bind_text(st, 1, filter.tournament.data(),
                      static_cast<int>(filter.tournament.size()),
                      SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, filter.from_us);
    sqlite3_bind_int64(st, 3, filter.to_us);
    sqlite3_bind_text(st, 4, filter.bot.data(),
                      static_cast<int>(filter.bot.size()), SQLITE_STATIC);
  }

  std::vector<GameInfo> games;  // finished ones only
  // Looked up by string_view: no string is built per row.
  std::unordered_map<std::string, int32_t, StringHash, std::equal_to<>>
      bot_index;
  std::vector<std::string> bot_names;
  std::unordered_map<std::string, int32_t, StringHash, std::equal_to<>>
      rules_index;
  std::vector<RulesInfo> rules_info;
  std::vector<std::string> rules_text;
  int32_t last_rules = -1;  // nearly every game has the previous one's rules
  auto intern_bot = [&](std::string_view name) {
    if (auto it = bot_index.find(name); it != bot_index.end()) {
      return it->second;
    }
    const int32_t index = static_cast<int32_t>(bot_names.size());
    bot_index.emplace(std::string(name), index);
    bot_names.emplace_back(name);
    return index;
  };
  auto intern_rules = [&](std::string_view text) {
    if (last_rules >= 0 && rules_text[last_rules] == text) return last_rules;
    if (auto it = rules_index.find(text); it != rules_index.end()) {
      return last_rules = it->second;
    }
    auto [it, inserted] = rules_index.try_emplace(
        std::string(text), static_cast<int32_t>(rules_info.size()));
    if (inserted) {
      RulesInfo info;
      absl::StatusOr<RuleSet> rules =
          RuleSet::Parse(absl::string_view(text.data(), text.size()));
      if (rules.ok()) {
        info.partnerships = rules->partnerships;
        info.parsed = true;
        info.canonical = RulesDiff(*rules);
        if (info.canonical.empty()) info.canonical = "standard";
      } else {
        info.canonical = std::string(text);
      }
      info.selected =
          !wanted_rules.has_value() || (rules.ok() && *rules == *wanted_rules);
      rules_info.push_back(info);
      rules_text.emplace_back(text);
    }
    return last_rules = it->second;
  };

  GameInfo pending;
  bool have_pending = false;
  int pending_seats = 0;
  bool pending_bad = false;
  std::string totals_text;
  auto finish_pending = [&] {
    if (!have_pending) return;
    have_pending = false;
    if (!rules_info[pending.rules].selected) return;
    ++stats.summary.games;
    if (pending.state == kRunning) {
      ++stats.summary.running;
      return;
    }
    if (pending.state == kAborted) {
      ++stats.summary.aborted;
      return;
    }
    if (pending_bad || pending_seats < 2 || pending_seats > kMaxSeats) {
      ++stats.summary.skipped_games;
      return;
    }
    GameInfo& g = pending;
    g.players = static_cast<int8_t>(pending_seats);
    const RulesInfo& r = rules_info[g.rules];
    const bool partnerships = r.partnerships && g.players == 4;
    RulesInfo eff{partnerships, true};
    g.sides = static_cast<int8_t>(partnerships ? 2 : g.players);
    if (g.winner >= g.sides) g.winner = -1;
    g.have_totals = ParseTotals(totals_text, &g.totals, g.sides);
    // Members: distinct bots, each with its sides.
    g.members = 0;
    g.self_players = 0;
    for (int s = 0; s < g.players; ++s) {
      const int32_t bot = g.seat_bot[s];
      bool seen = false;
      for (int t = 0; t < s; ++t) seen |= g.seat_bot[t] == bot;
      if (seen) continue;
      int side = SideOf(eff, s);
      bool multi = false;
      for (int t = s + 1; t < g.players; ++t) {
        if (g.seat_bot[t] == bot && SideOf(eff, t) != side) multi = true;
      }
      if (multi) {
        g.self_bot[g.self_players++] = bot;
      } else {
        g.member_bot[g.members] = bot;
        g.member_side[g.members] = static_cast<int8_t>(side);
        ++g.members;
      }
    }
    ++stats.summary.finished;
    ++rules_info[g.rules].games;
    games.push_back(std::move(pending));
  };
  // Columns 0-7 of `st`: a new game.
  auto start_game = [&](sqlite3_stmt* st) {
    finish_pending();
    pending = GameInfo();
    have_pending = true;
    pending_seats = 0;
    pending_bad = false;
    pending.id.assign(Text(st, 0));
    pending.rules = intern_rules(Text(st, 1));
    std::string_view commitment = Text(st, 2);
    pending.deck_key.assign(commitment.empty() ? Text(st, 3) : commitment);
    if (commitment.empty()) pending.deck_key.insert(0, "decks:");
    pending.created_us = sqlite3_column_int64(st, 4);
    std::string_view status = Text(st, 5);
    pending.state = status == "finished"  ? kFinished
                    : status == "aborted" ? kAborted
                                          : kRunning;
    pending.winner =
        static_cast<int8_t>(sqlite3_column_type(st, 6) == SQLITE_NULL
                                ? -1
                                : std::clamp(sqlite3_column_int(st, 6), -1, 8));
    totals_text.assign(Text(st, 7));
  };
  auto add_seat = [&](int seat, std::string_view bot) {
    if (seat != pending_seats || seat >= kMaxSeats) {
      pending_bad = true;  // a gap or too many seats
      return;
    }
    pending.seat_bot[seat] = intern_bot(bot);
    ++pending_seats;
  };
  int rc;
  if (!seats_stmt.has_value()) {
    // The join: one row per seat.
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
      if (!have_pending || Text(st, 0) != pending.id) start_game(st);
      add_seat(sqlite3_column_int(st, 8), Text(st, 9));
    }
  } else {
    // Two scans in game id order, merged here (the whole database: cheaper
    // than a join's lookup per game).
    sqlite3_stmt* seats = seats_stmt->get();
    int seat_rc = sqlite3_step(seats);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
      start_game(st);
      const std::string_view id = pending.id;
      while (seat_rc == SQLITE_ROW && Text(seats, 0) < id) {
        seat_rc = sqlite3_step(seats);  // seats of no game
      }
      while (seat_rc == SQLITE_ROW && Text(seats, 0) == id) {
        add_seat(sqlite3_column_int(seats, 1), Text(seats, 2));
        seat_rc = sqlite3_step(seats);
      }
    }
    if (seat_rc != SQLITE_ROW && seat_rc != SQLITE_DONE) {
      return StepError(db->get());
    }
  }
  if (rc != SQLITE_DONE) return StepError(db->get());
  finish_pending();
  {
    std::map<std::string, int64_t> by_rules;  // old and new texts merge
    for (const RulesInfo& r : rules_info) {
      if (r.games > 0) by_rules[r.canonical] += r.games;
    }
    for (const auto& [rules, count] : by_rules) {
      stats.rule_sets.push_back({rules, count});
    }
    std::stable_sort(stats.rule_sets.begin(), stats.rule_sets.end(),
                     [](const RuleSetCount& a, const RuleSetCount& b) {
                       return a.games > b.games;
                     });
  }

  const size_t nbots = bot_names.size();
  const bool trace = std::getenv("CASSINO_STATS_TRACE") != nullptr;
  auto phase = [&](const char* name) {
    if (!trace) return;
    std::fprintf(
        stderr, "stats: %-8s %.3f s\n", name,
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count());
  };
  phase("games");

  // 2. The events: dense filters scan ranges of the events table, sparse
  // ones look up each game.
  int64_t all_games = 0;
  {
    absl::StatusOr<Stmt> count =
        Prepare(db->get(), "SELECT count(*) FROM games");
    if (count.ok() && sqlite3_step(count->get()) == SQLITE_ROW) {
      all_games = sqlite3_column_int64(count->get(), 0);
    }
  }
  const bool dense = games.size() * 4 >= static_cast<size_t>(all_games);
  // Databases of schema version 2 or later keep a tally per ended game
  // (schemas/002_game_tallies.sql): one row instead of its ~180 events.
  // Older ones, and games without a usable tally, are read from the events.
  const bool tallies =
      options.use_tallies && HasTable(db->get(), "game_tallies");
  // Schema version 5 moves an ended game's events into one event pack.
  const bool packs = HasTable(db->get(), "event_packs");
  const int threads = static_cast<int>(std::clamp<size_t>(
      std::min<size_t>(std::max(options.threads, 1), games.size() / 1000 + 1),
      1, 16));
  std::vector<std::unique_ptr<Partial>> partials;
  for (int t = 0; t < threads; ++t) {
    partials.push_back(std::make_unique<Partial>(nbots));
  }
  auto work = [&](int t, sqlite3* conn) {
    const size_t first = games.size() * t / threads;
    const size_t last = games.size() * (t + 1) / threads;
    if (first >= last) return;
    EventReader reader(games, options.move_times, packs, partials[t].get());
    if (tallies) {
      reader.ScanTallies(conn, first, last, t == 0, dense);
    } else if (dense) {
      reader.ScanRange(conn, first, last, t == 0);
    } else {
      reader.ScanGames(conn, first, last);
    }
  };
  std::vector<Db> conns;
  for (int t = 1; t < threads; ++t) {
    absl::StatusOr<Db> c = OpenReadOnly(path);
    if (!c.ok()) return c.status();
    conns.push_back(*std::move(c));
  }
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) {
    pool.emplace_back(work, t, conns[t - 1].get());
  }
  work(0, db->get());
  for (std::thread& th : pool) th.join();
  Partial& total = *partials[0];
  for (int t = 1; t < threads; ++t) {
    Partial& p = *partials[t];
    if (!p.status.ok() && total.status.ok()) total.status = p.status;
    total.bad_events += p.bad_events;
    total.round_events += p.round_events;
    total.move_events += p.move_events;
    total.tallied_games += p.tallied_games;
    for (size_t b = 0; b < nbots; ++b) {
      total.move_ms[b].Merge(p.move_ms[b]);
      total.rejects[b] += p.rejects[b];
      total.forfeits[b] += p.forfeits[b];
      total.timeouts[b] += p.timeouts[b];
      total.rounds[b] += p.rounds[b];
      for (int k = 0; k <= kItemKinds; ++k)
        total.points[b][k] += p.points[b][k];
    }
  }
  if (!total.status.ok()) return total.status;
  phase("events");
  stats.summary.bad_events = total.bad_events;
  stats.summary.rounds = total.round_events;
  stats.summary.moves = total.move_events;
  stats.summary.tallied_games = total.tallied_games;

  // 3. Results per game: per bot, pairwise, per seat.
  std::vector<BotStats> bots(nbots);
  std::vector<bool> seen(nbots, false);
  for (size_t b = 0; b < nbots; ++b) bots[b].name = bot_names[b];
  std::vector<std::vector<HeadToHead>> h2h(nbots,
                                           std::vector<HeadToHead>(nbots));
  std::vector<std::vector<double>> pair_wins(nbots,
                                             std::vector<double>(nbots, 0));
  std::map<std::tuple<int, int, int>, std::pair<int64_t, int64_t>> seat_tally;
  for (const GameInfo& g : games) {
    for (int s = 0; s < g.players; ++s) seen[g.seat_bot[s]] = true;
    for (int i = 0; i < g.self_players; ++i) ++bots[g.self_bot[i]].self_play;
    for (int m = 0; m < g.members; ++m) {
      BotStats& b = bots[g.member_bot[m]];
      ++b.games;
      if (g.winner < 0) {
        ++b.draws;
      } else if (g.winner == g.member_side[m]) {
        ++b.wins;
      } else {
        ++b.losses;
      }
    }
    for (int m = 0; m < g.members; ++m) {
      for (int o = 0; o < g.members; ++o) {
        const int a = g.member_bot[m], b = g.member_bot[o];
        if (g.member_side[m] == g.member_side[o] || a == b) continue;
        if (g.winner < 0) {
          // Each unordered pair is visited twice: half a draw each time.
          if (m < o) {
            ++h2h[a][b].draws;
            ++h2h[b][a].draws;
            pair_wins[a][b] += 0.5;
            pair_wins[b][a] += 0.5;
          }
        } else if (g.member_side[m] == g.winner) {
          ++h2h[a][b].wins;
          ++h2h[b][a].losses;
          pair_wins[a][b] += 1;
        }
      }
    }
    for (int s = 0; s < g.players; ++s) {
      auto& tally = seat_tally[{g.players, g.sides, s}];
      ++tally.first;
      const int side = g.sides == g.players ? s : s % 2;
      if (g.winner >= 0 && g.winner == side) ++tally.second;
    }
  }
  for (const auto& [key, tally] : seat_tally) {
    SeatStats s;
    std::tie(s.players, s.sides, s.seat) = key;
    s.win_rate = Wilson(tally.second, tally.first);
    s.expected = 1.0 / s.sides;
    stats.seats.push_back(s);
  }

  // 4. Duplicate pairs.
  std::vector<std::vector<int64_t>> dup_index(nbots,
                                              std::vector<int64_t>(nbots, -1));
  {
    struct Candidate {
      int64_t created_us;
      size_t game;
    };
    std::unordered_map<std::string, std::vector<Candidate>> groups;
    for (size_t k = 0; k < games.size(); ++k) {
      const GameInfo& g = games[k];
      if (g.sides != 2 || g.members != 2 || g.self_players != 0 ||
          !g.have_totals || g.deck_key.empty() || g.deck_key == "decks:") {
        continue;
      }
      // Exactly one distinct bot per side: members are distinct bots on
      // single sides; two members on two sides means one each.
      if (g.member_side[0] == g.member_side[1]) continue;
      const int lo = std::min(g.member_bot[0], g.member_bot[1]);
      const int hi = std::max(g.member_bot[0], g.member_bot[1]);
      std::string key =
          absl::StrCat(g.deck_key, "\x1f", g.rules, "\x1f", lo, ",", hi);
      groups[key].push_back({g.created_us, k});
    }
    auto side_of_bot = [](const GameInfo& g, int bot) {
      return g.member_bot[0] == bot ? g.member_side[0] : g.member_side[1];
    };
    for (auto& [key, list] : groups) {
      if (list.size() < 2) continue;
      std::sort(list.begin(), list.end(),
                [&](const Candidate& a, const Candidate& b) {
                  return std::tie(a.created_us, games[a.game].id) <
                         std::tie(b.created_us, games[b.game].id);
                });
      const GameInfo& first = games[list[0].game];
      const int lo = std::min(first.member_bot[0], first.member_bot[1]);
      const int hi = std::max(first.member_bot[0], first.member_bot[1]);
      // Unpaired games by which side `lo` held.
      std::vector<size_t> waiting[2];
      std::vector<size_t> head(2, 0);
      for (const Candidate& c : list) {
        const GameInfo& g = games[c.game];
        const int orient = side_of_bot(g, lo);
        const int other = 1 - orient;
        if (head[other] < waiting[other].size()) {
          const GameInfo& h = games[waiting[other][head[other]++]];
          int lo_wins = 0, hi_wins = 0;
          int lo_half_points = 0;  // 2 a win, 1 no winner
          int64_t lo_points = 0, hi_points = 0;
          for (const GameInfo* x : {&h, &g}) {
            const int ls = side_of_bot(*x, lo), hs = side_of_bot(*x, hi);
            lo_wins += x->winner == ls;
            hi_wins += x->winner == hs;
            lo_half_points += x->winner == ls ? 2 : x->winner < 0 ? 1 : 0;
            lo_points += x->totals[ls];
            hi_points += x->totals[hs];
          }
          int result;  // +1 lo, -1 hi, 0 draw
          if (lo_wins == 2) {
            result = 1;
          } else if (hi_wins == 2) {
            result = -1;
          } else {
            result = lo_points > hi_points ? 1 : lo_points < hi_points ? -1 : 0;
          }
          if (dup_index[lo][hi] < 0) {
            dup_index[lo][hi] = static_cast<int64_t>(stats.duplicates.size());
            stats.duplicates.push_back({lo, hi});
          }
          DuplicateResult& d = stats.duplicates[dup_index[lo][hi]];
          ++d.pairs;
          ++d.penta[lo_half_points];
          ++stats.summary.duplicate_pairs;
          ++bots[lo].dup_pairs;
          ++bots[hi].dup_pairs;
          if (result > 0) {
            ++d.a_wins;
            ++bots[lo].dup_wins;
            ++bots[hi].dup_losses;
          } else if (result < 0) {
            ++d.b_wins;
            ++bots[hi].dup_wins;
            ++bots[lo].dup_losses;
          } else {
            ++d.draws;
            ++bots[lo].dup_draws;
            ++bots[hi].dup_draws;
          }
        } else {
          waiting[orient].push_back(c.game);
        }
      }
    }
  }

  // 5. Per-bot figures from the events, and the ratings.
  for (size_t b = 0; b < nbots; ++b) {
    BotStats& s = bots[b];
    s.win_rate = Wilson(s.wins, s.games);
    s.rounds = total.rounds[b];
    if (s.rounds > 0) {
      for (int k = 0; k < kItemKinds; ++k) {
        s.points_per_round[k] =
            static_cast<double>(total.points[b][k]) / s.rounds;
      }
      s.total_per_round =
          static_cast<double>(total.points[b][kItemKinds]) / s.rounds;
    }
    s.forfeits = total.forfeits[b];
    s.timeouts = total.timeouts[b];
    s.rejects = total.rejects[b];
    s.moves = total.move_ms[b].total();
    s.move_p50_ms = total.move_ms[b].Percentile(0.50);
    s.move_p95_ms = total.move_ms[b].Percentile(0.95);
  }
  // Bots in the ratings: those with a pairwise result or a game.
  std::vector<int> keep;
  for (size_t b = 0; b < nbots; ++b) {
    if (seen[b]) keep.push_back(static_cast<int>(b));
  }
  std::vector<std::vector<double>> w(keep.size(),
                                     std::vector<double>(keep.size(), 0));
  for (size_t i = 0; i < keep.size(); ++i) {
    for (size_t j = 0; j < keep.size(); ++j) {
      w[i][j] = pair_wins[keep[i]][keep[j]];
    }
  }
  Ratings ratings = FitBradleyTerry(w, options.prior_draws);
  stats.rating_iterations = ratings.iterations;
  stats.rating_converged = ratings.converged;
  for (size_t i = 0; i < keep.size(); ++i) {
    bots[keep[i]].rating = ratings.elo[i];
    bots[keep[i]].rating_se = ratings.se[i];
  }
  // Order by rating, then name; remap every index.
  std::vector<size_t> order(keep.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const BotStats& x = bots[keep[a]];
    const BotStats& y = bots[keep[b]];
    if (x.rating != y.rating) return x.rating > y.rating;
    return x.name < y.name;
  });
  std::vector<int> new_index(nbots, -1);
  for (size_t r = 0; r < order.size(); ++r) {
    new_index[keep[order[r]]] = static_cast<int>(r);
    stats.bots.push_back(std::move(bots[keep[order[r]]]));
  }
  const size_t m = order.size();
  stats.head_to_head.assign(m, std::vector<HeadToHead>(m));
  stats.los.assign(m, std::vector<double>(m, 0.5));
  for (size_t a = 0; a < m; ++a) {
    for (size_t b = 0; b < m; ++b) {
      stats.head_to_head[a][b] = h2h[keep[order[a]]][keep[order[b]]];
      stats.los[a][b] = ratings.los[order[a]][order[b]];
    }
  }
  for (DuplicateResult& d : stats.duplicates) {
    int a = new_index[d.a], b = new_index[d.b];
    if (a > b) {
      std::swap(a, b);
      std::swap(d.a_wins, d.b_wins);
      std::reverse(d.penta.begin(), d.penta.end());
    }
    d.a = a;
    d.b = b;
  }
  std::sort(stats.duplicates.begin(), stats.duplicates.end(),
            [](const DuplicateResult& x, const DuplicateResult& y) {
              return std::tie(x.a, x.b) < std::tie(y.a, y.b);
            });
  phase("done");
  stats.summary.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  return stats;
}

absl::StatusOr<Format> ParseFormat(absl::string_view name) {
  if (name == "text") return Format::kText;
  if (name == "csv") return Format::kCsv;
  if (name == "json") return Format::kJson;
  if (name == "html") return Format::kHtml;
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown format '", name, "': expected text, csv, json or html"));
}

std::string FormatAs(const Stats& stats, Format format) {
  switch (format) {
    case Format::kText:
      return FormatText(stats);
    case Format::kCsv:
      return FormatCsv(stats);
    case Format::kJson:
      return FormatJson(stats);
    case Format::kHtml:
      return FormatHtml(stats);
  }
  return {};
}

}  // namespace cassino::stats
