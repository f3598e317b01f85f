// Reading tallies and events: the EventReader and the threaded scan.

#include "tools/stats/event_scan.h"

#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "recorder/event_pack.h"
#include "recorder/sqlite.h"
#include "recorder/tally.h"

namespace cassino::stats::internal {
namespace {

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

class EventReader {
 public:
  // `packs`: the database has event_packs (schema version 5).
  EventReader(std::span<const GameInfo> games, bool with_moves, bool packs,
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
      absl::StatusOr<recorder::Statement> stmt = recorder::Prepare(db, sql);
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
    absl::StatusOr<recorder::Statement> stmt = recorder::Prepare(db, sql);
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
    absl::StatusOr<recorder::Statement> stmt = recorder::Prepare(
        db, absl::StrCat("SELECT kind, payload FROM events WHERE "
                         "game_id = ?1 AND ",
                         with_moves_ ? "1" : kNoMovesFilter, " ORDER BY seq"));
    if (!stmt.ok()) {
      out_.status = stmt.status();
      return;
    }
    sqlite3_stmt* st = stmt->get();
    absl::StatusOr<recorder::Statement> pack_stmt =
        packs_
            ? recorder::Prepare(
                  db, "SELECT pack FROM event_packs WHERE game_id = ?1")
            : absl::StatusOr<recorder::Statement>(recorder::Statement(nullptr));
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
  const std::span<const GameInfo> games_;
  const bool with_moves_;
  const bool packs_;
  Partial& out_;
  const GameInfo* game_ = nullptr;  // the game being read from its events
  std::optional<recorder::TallyBuilder> builder_;
};

}  // namespace

void Partial::Merge(const Partial& p) {
  if (!p.status.ok() && status.ok()) status = p.status;
  bad_events += p.bad_events;
  round_events += p.round_events;
  move_events += p.move_events;
  tallied_games += p.tallied_games;
  for (size_t b = 0; b < rounds.size(); ++b) {
    move_ms[b].Merge(p.move_ms[b]);
    rejects[b] += p.rejects[b];
    forfeits[b] += p.forfeits[b];
    timeouts[b] += p.timeouts[b];
    rounds[b] += p.rounds[b];
    for (int k = 0; k <= kItemKinds; ++k) points[b][k] += p.points[b][k];
  }
}

absl::Status ScanSegment(sqlite3* db, const GameTable& table,
                         const Segment& segment, const Options& options,
                         Partial* total) {
  const std::span<const GameInfo> games =
      std::span<const GameInfo>(table.games())
          .subspan(segment.first, segment.last - segment.first);
  if (games.empty()) return absl::OkStatus();
  auto error = [&](const absl::Status& s) {
    return absl::Status(s.code(),
                        absl::StrCat(segment.path, ": ", s.message()));
  };
  // Dense selections scan ranges of the events table, sparse ones look up
  // each game.
  int64_t all_games = 0;
  {
    absl::StatusOr<recorder::Statement> count =
        recorder::Prepare(db, "SELECT count(*) FROM games");
    if (count.ok() && sqlite3_step(count->get()) == SQLITE_ROW) {
      all_games = sqlite3_column_int64(count->get(), 0);
    }
  }
  const bool dense = games.size() * 4 >= static_cast<size_t>(all_games);
  // Databases of schema version 2 or later keep a tally per ended game
  // (schemas/002_game_tallies.sql): one row instead of its ~180 events.
  // Older ones, and games without a usable tally, are read from the events.
  const bool tallies = options.use_tallies && HasTable(db, "game_tallies");
  // Schema version 5 moves an ended game's events into one event pack.
  const bool packs = HasTable(db, "event_packs");
  const int threads = static_cast<int>(std::clamp<size_t>(
      std::min<size_t>(std::max(options.threads, 1), games.size() / 1000 + 1),
      1, 16));
  const size_t nbots = table.bot_names().size();
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
  std::vector<recorder::Connection> conns;
  for (int t = 1; t < threads; ++t) {
    absl::StatusOr<recorder::Connection> c =
        recorder::OpenDatabase(segment.path, recorder::OpenMode::kReadOnly);
    if (!c.ok()) return error(c.status());
    conns.push_back(*std::move(c));
  }
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) {
    pool.emplace_back(work, t, conns[t - 1].get());
  }
  work(0, db);
  for (std::thread& th : pool) th.join();
  for (const std::unique_ptr<Partial>& p : partials) total->Merge(*p);
  if (!total->status.ok()) return error(total->status);
  return absl::OkStatus();
}

}  // namespace cassino::stats::internal
