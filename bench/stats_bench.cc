// stats_bench: how fast `cassino stats` reads a database.
//
//   stats_bench [--games N] [--db PATH] [--threads T] [--runs R]
//               [--no-move-times] [--events] [--no-payload-bench]
//
// Builds a database of N two-player games (default 100,000) — or reuses
// PATH if it exists — opens it once with the Recorder (which migrates it
// and fills in the game tallies the bulk insert leaves out, timed), then
// runs ReadStats R times (default 3) and prints games/s and CPU per game
// for each run and the best. --events reads every game from its events
// instead of its tally (Options::use_tallies = false), as before schema 2.
// Generation plays 2,000 distinct seeded random games with the engine and
// writes game i with the events of game i % 2,000 under its own id, bots (a
// pool of 8), label and creation time. The schema comes from the Recorder and
// the payloads from its builders with the chain hashes computed as the Recorder
// does, but the rows are inserted in bulk, 5,000 games per transaction: through
// the Recorder's per-write savepoints 100,000 games would take minutes. (About
// 40 KB a game: 100,000 games make a ~4 GB file.) Without --db the database
// goes to a temporary file that is deleted at the end.
//
// It also times the payload reading on its own: the readers of
// recorder/payload.h against a full nlohmann::json parse of the same
// payloads.
//
// Run it from a Release or RelWithDebInfo build:
// `build/bench/stats_bench --games 100000`.

#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "nlohmann/json.hpp"
#include "recorder/payload.h"
#include "recorder/record.h"
#include "recorder/recorder.h"
#include "recorder/replay.h"
#include "rules/game.h"
#include "tools/playout/random_playout.h"
#include "tools/stats/stats.h"

namespace cassino {
namespace {

using recorder::EventKind;

using Pending = recorder::EventDraft;

// CPU time of the whole process (every thread), seconds.
double CpuNow() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

double Now() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Events (after `create`) of one random game, as the referee writes them.
std::vector<Pending> PlayGame(const Seed& seed, Seed* used_seed,
                              GameResult* result = nullptr) {
  RuleSet rules = RuleSet::Standard();
  *used_seed = seed;
  Game game = *Game::Create(rules, DeckSource::FromSeed(seed));
  RandomPlayer player(seed);
  std::vector<Pending> events;
  events.push_back({EventKind::kDeal, recorder::DealPayload(1, game.deck())});
  int k = 0;
  while (!game.over()) {
    const size_t rounds = game.rounds().size();
    const int round = game.round();
    if (k % 40 == 0) {
      events.push_back({EventKind::kReject,
                        recorder::RejectPayload(game.turn(), game.to_move(),
                                                "take ZZ", "bad card", 900)});
    }
    game.PlayUnchecked(player.Choose(game));
    events.push_back(
        {EventKind::kMove,
         recorder::MovePayload(game.history().back(), 50 + (k * 7919) % 1500)});
    ++k;
    for (Pending& e :
         recorder::ConsequenceEvents(game, rounds, round, ToHex(seed))) {
      events.push_back(std::move(e));
    }
  }
  if (result != nullptr) *result = *game.result();
  return events;
}

// Runs one statement that returns no rows; false (with a message) on error.
bool Exec(sqlite3* db, const char* sql) {
  char* error = nullptr;
  if (sqlite3_exec(db, sql, nullptr, nullptr, &error) == SQLITE_OK) return true;
  std::fprintf(stderr, "stats_bench: %s: %s\n", sql, error ? error : "?");
  sqlite3_free(error);
  return false;
}

int Generate(const std::string& path, int n) {
  {
    // The Recorder creates the schema (its migrations).
    auto rec = recorder::Recorder::Open(path, recorder::Durability::kNormal);
    if (!rec.ok()) {
      std::fprintf(stderr, "stats_bench: %s\n",
                   rec.status().ToString().c_str());
      return 1;
    }
  }
  const int distinct = std::min(n, 2000);
  const double t0 = Now();
  std::vector<std::vector<Pending>> games(distinct);
  std::vector<Seed> seeds(distinct);
  std::vector<GameResult> results(distinct);
  Seed batch{};
  batch[0] = 0x57;
  for (int i = 0; i < distinct; ++i) {
    games[i] = PlayGame(BatchGameSeed(batch, i), &seeds[i], &results[i]);
  }
  const double t1 = Now();

  sqlite3* db = nullptr;
  if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) {
    std::fprintf(stderr, "stats_bench: cannot open %s\n", path.c_str());
    return 1;
  }
  if (!Exec(db, "PRAGMA synchronous=OFF") || !Exec(db, "BEGIN")) return 1;
  sqlite3_stmt *insert_game, *insert_seat, *insert_event;
  sqlite3_prepare_v2(
      db,
      "INSERT INTO games (game_id, label, rules, commitment, seed, "
      "explicit_decks, per_move_ms, bank_ms, max_illegal, created_us, status, "
      "winner, end_reason, totals, finished_us) VALUES (?1, ?2, ?3, ?4, ?5, "
      "'', 5000, 30000, 3, ?6, 'finished', ?7, ?8, ?9, ?10)",
      -1, &insert_game, nullptr);
  sqlite3_prepare_v2(db,
                     "INSERT INTO seats (game_id, seat, bot_name, token_hash) "
                     "VALUES (?1, ?2, ?3, '')",
                     -1, &insert_seat, nullptr);
  sqlite3_prepare_v2(db,
                     "INSERT INTO events (game_id, seq, kind, at_us, payload, "
                     "hash) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                     -1, &insert_event, nullptr);
  auto text = [](sqlite3_stmt* st, int col, const std::string& v) {
    sqlite3_bind_text(st, col, v.data(), static_cast<int>(v.size()),
                      SQLITE_TRANSIENT);
  };
  auto step = [&](sqlite3_stmt* st) {
    const bool ok = sqlite3_step(st) == SQLITE_DONE;
    if (!ok) std::fprintf(stderr, "stats_bench: %s\n", sqlite3_errmsg(db));
    sqlite3_reset(st);
    return ok;
  };
  const std::string rules = RuleSet::Standard().ToString();
  const int64_t start_us = 1'767'225'600'000'000;  // 2026-01-01
  int64_t events = 0;
  for (int i = 0; i < n; ++i) {
    const int g = i % distinct;
    recorder::GameHeader h;
    h.game_id = absl::StrFormat("g%08d", i);
    h.rules = rules;
    const int a = i % 8, b = (a + 1 + (i / 8) % 7) % 8;  // b != a
    h.seats = {{absl::StrCat("bot", a), ""}, {absl::StrCat("bot", b), ""}};
    h.seed = ToHex(seeds[g]);
    const Digest commitment = SeedCommitment(seeds[g]);
    h.commitment = ToHex(commitment);
    h.label = i % 2 ? "odd" : "even";
    h.created_us = start_us + int64_t{i} * 60'000'000;
    const auto& evs = games[g];
    const GameResult& result = results[g];
    text(insert_game, 1, h.game_id);
    text(insert_game, 2, h.label);
    text(insert_game, 3, h.rules);
    text(insert_game, 4, h.commitment);
    text(insert_game, 5, h.seed);
    sqlite3_bind_int64(insert_game, 6, h.created_us);
    sqlite3_bind_int(insert_game, 7, result.winner);
    text(insert_game, 8, std::string(GameEndReasonName(result.reason)));
    text(insert_game, 9,
         absl::StrCat("[", result.totals[0], ",", result.totals[1], "]"));
    sqlite3_bind_int64(insert_game, 10,
                       h.created_us + 1000 * static_cast<int64_t>(evs.size()));
    if (!step(insert_game)) return 1;
    for (int s = 0; s < 2; ++s) {
      text(insert_seat, 1, h.game_id);
      sqlite3_bind_int(insert_seat, 2, s);
      text(insert_seat, 3, h.seats[s].bot_name);
      if (!step(insert_seat)) return 1;
    }
    Digest prev = commitment;
    auto add = [&](int64_t seq, EventKind kind, int64_t at,
                   const std::string& payload) {
      prev = recorder::ChainHash(prev, kind, payload);
      text(insert_event, 1, h.game_id);
      sqlite3_bind_int64(insert_event, 2, seq);
      text(insert_event, 3, std::string(recorder::EventKindName(kind)));
      sqlite3_bind_int64(insert_event, 4, at);
      sqlite3_bind_text(insert_event, 5, payload.data(),
                        static_cast<int>(payload.size()), SQLITE_STATIC);
      text(insert_event, 6, ToHex(prev));
      ++events;
      return step(insert_event);
    };
    if (!add(0, EventKind::kCreate, h.created_us, recorder::CreatePayload(h))) {
      return 1;
    }
    for (size_t e = 0; e < evs.size(); ++e) {
      if (!add(static_cast<int64_t>(e) + 1, evs[e].kind,
               h.created_us + 1000 * static_cast<int64_t>(e + 1),
               evs[e].payload)) {
        return 1;
      }
    }
    if (i % 5000 == 4999 && (!Exec(db, "COMMIT") || !Exec(db, "BEGIN"))) {
      return 1;
    }
  }
  if (!Exec(db, "COMMIT")) return 1;
  sqlite3_finalize(insert_game);
  sqlite3_finalize(insert_seat);
  sqlite3_finalize(insert_event);
  Exec(db, "PRAGMA wal_checkpoint(TRUNCATE)");
  sqlite3_close(db);
  const double t2 = Now();
  std::printf(
      "generated %d games (%lld events; %d distinct played in %.2f s), "
      "written in %.1f s (%.0f games/s), %.0f MB\n",
      n, static_cast<long long>(events), distinct, t1 - t0, t2 - t1,
      n / (t2 - t1), std::filesystem::file_size(path) / 1e6);
  return 0;
}

// Payload reading alone: the fields a tally needs, by a full nlohmann::json
// parse and by the readers of recorder/payload.h (which ReadStats' tallies
// and event scan use).
void PayloadMicrobench() {
  Seed batch{};
  batch[0] = 0x58;
  std::vector<std::string> moves, rounds;
  for (int i = 0; i < 200; ++i) {
    Seed s;
    for (const Pending& p : PlayGame(BatchGameSeed(batch, i), &s)) {
      if (p.kind == EventKind::kMove) moves.push_back(p.payload);
      if (p.kind == EventKind::kRound) rounds.push_back(p.payload);
    }
  }
  const int reps = 20;
  double t0 = Now();
  int64_t sink = 0;
  for (int r = 0; r < reps; ++r) {
    for (const std::string& m : moves) {
      auto j = nlohmann::json::parse(m);
      sink += j["seat"].get<int>() + j["elapsed_ms"].get<int64_t>();
    }
    for (const std::string& m : rounds) {
      auto j = nlohmann::json::parse(m);
      for (const auto& item : j["items"]) sink += item["points"].get<int>();
    }
  }
  const double full = Now() - t0;
  t0 = Now();
  recorder::MoveFields move;
  recorder::RoundFields round;
  for (int r = 0; r < reps; ++r) {
    for (const std::string& m : moves) {
      if (recorder::ParseMovePayload(m, &move).ok()) {
        sink += move.seat + move.elapsed_ms;
      }
    }
    for (const std::string& m : rounds) {
      if (recorder::ParseRoundPayload(m, &round).ok()) {
        for (const recorder::RoundFields::Item& item : round.items) {
          sink += item.points;
        }
      }
    }
  }
  const double targeted = Now() - t0;
  const double n = reps * static_cast<double>(moves.size() + rounds.size());
  std::printf(
      "payload reading (%zu move + %zu round payloads x %d): nlohmann::json "
      "parse %.0f ns/payload, payload.h readers %.0f ns/payload (sink %lld)\n",
      moves.size(), rounds.size(), reps, full * 1e9 / n, targeted * 1e9 / n,
      static_cast<long long>(sink));
}

int Main(int argc, char** argv) {
  int games = 100000;
  int threads = 2;
  int runs = 3;
  bool payload_bench = true;
  bool move_times = true;
  bool use_tallies = true;
  std::string db;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "stats_bench: %s needs a value\n", arg.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (arg == "--games") {
      if (!absl::SimpleAtoi(next(), &games) || games < 1) return 2;
    } else if (arg == "--db") {
      db = next();
    } else if (arg == "--threads") {
      if (!absl::SimpleAtoi(next(), &threads) || threads < 1) return 2;
    } else if (arg == "--no-move-times") {
      move_times = false;
    } else if (arg == "--events") {
      use_tallies = false;
    } else if (arg == "--no-payload-bench") {
      payload_bench = false;
    } else if (arg == "--runs") {
      if (!absl::SimpleAtoi(next(), &runs) || runs < 1) return 2;
    } else {
      std::fprintf(
          stderr,
          "usage: stats_bench [--games N] [--db PATH] [--threads T] "
          "[--runs R] [--no-move-times] [--events] [--no-payload-bench]\n");
      return 2;
    }
  }
  const bool temporary = db.empty();
  if (temporary) {
    db = (std::filesystem::temp_directory_path() /
          absl::StrCat("stats_bench_", getpid(), ".db"))
             .string();
  }
  if (!std::filesystem::exists(db)) {
    if (int rc = Generate(db, games); rc != 0) return rc;
  } else {
    std::printf("reusing %s\n", db.c_str());
  }
  {
    // The recorder brings the schema up to date and fills in the tallies of
    // games that have none (rows inserted in bulk above, or a database from
    // before schema version 2): the one-time cost of that upgrade.
    const double t0 = Now(), c0 = CpuNow();
    auto rec = recorder::Recorder::Open(db, recorder::Durability::kNormal);
    if (!rec.ok()) {
      std::fprintf(stderr, "stats_bench: %s\n",
                   rec.status().ToString().c_str());
      return 1;
    }
    std::printf(
        "recorder open (migrations, tally backfill): %.2f s, CPU %.2f s\n",
        Now() - t0, CpuNow() - c0);
  }
  stats::Options options;
  options.threads = threads;
  options.move_times = move_times;
  options.use_tallies = use_tallies;
  double best = 0;
  for (int r = 0; r < runs; ++r) {
    const double t0 = Now(), c0 = CpuNow();
    absl::StatusOr<stats::Stats> s = stats::ReadStats(db, {}, options);
    const double seconds = Now() - t0, cpu = CpuNow() - c0;
    if (!s.ok()) {
      std::fprintf(stderr, "stats_bench: %s\n", s.status().ToString().c_str());
      return 1;
    }
    const double rate = s->summary.finished / seconds;
    best = std::max(best, rate);
    std::printf(
        "run %d: %lld games (%lld from tallies), %lld rounds, %lld moves "
        "read in %.3f s: %.0f games/s (%d threads%s%s)\n",
        r + 1, static_cast<long long>(s->summary.finished),
        static_cast<long long>(s->summary.tallied_games),
        static_cast<long long>(s->summary.rounds),
        static_cast<long long>(s->summary.moves), seconds, rate, threads,
        move_times ? "" : ", --no-move-times", use_tallies ? "" : ", --events");
    // On a shared machine the wall clock includes waiting for a core; the
    // CPU time says what the work costs.
    std::printf(
        "       CPU %.3f s = %.1f us/game: %.0f games/s per busy core\n", cpu,
        cpu * 1e6 / s->summary.finished, s->summary.finished / cpu);
    if (r == 0) {
      const std::string text = stats::FormatText(*s);
      const double f0 = Now();
      const std::string html = stats::FormatHtml(*s);
      std::printf("formatting: text %zu bytes, html %zu bytes in %.1f ms\n",
                  text.size(), html.size(), (Now() - f0) * 1e3);
    }
  }
  std::printf("best: %.0f games/s\n", best);
  if (payload_bench) PayloadMicrobench();
  if (temporary) {
    for (const char* suffix : {"", "-wal", "-shm"}) {
      std::filesystem::remove(db + suffix);
    }
  }
  return 0;
}

}  // namespace
}  // namespace cassino

int main(int argc, char** argv) { return cassino::Main(argc, argv); }
