// verify_bench: speed of `cassino verify` (the verifier library).
//
//   verify_bench [--games N] [--db PATH] [--threads T] [--keep]
//
// Builds a database of N recorded standard 2-player games (default
// 100,000), written as the referee writes them (seeded decks, random legal
// moves, events from the recorder's payload builders, appended through the
// recorder's group commit), unless PATH already holds exactly N games; then
// opens it once with the Recorder (which migrates an older database and
// fills in missing game tallies, timed), then verifies every game with T
// threads (default 2) and prints games/s and CPU time per game. The database is
// removed afterwards unless --keep or --db was given.

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "recorder/payload.h"
#include "recorder/record.h"
#include "recorder/recorder.h"
#include "recorder/replay.h"
#include "rules/game.h"
#include "tools/playout/random_playout.h"
#include "tools/verify/verifier.h"

namespace cassino {
namespace {

using recorder::EventKind;
using Clock = std::chrono::steady_clock;

double Since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// CPU time of the whole process (every thread), seconds.
double CpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + ts.tv_nsec * 1e-9;
}

// Writes `games` games; each batch of games is queued at once so that the
// recorder's writer commits them in a few large transactions.
int64_t Generate(const std::string& path, int games) {
  auto rec = recorder::Recorder::Open(path, recorder::Durability::kNormal);
  if (!rec.ok()) {
    std::fprintf(stderr, "%s\n", std::string(rec.status().message()).c_str());
    std::exit(2);
  }
  const RuleSet rules = RuleSet::Standard();
  Seed batch{};
  std::memcpy(batch.data(), "verify_bench", 12);
  int64_t events = 0;
  constexpr int kBatch = 500;
  for (int first = 0; first < games; first += kBatch) {
    auto promise = std::make_shared<std::promise<void>>();
    auto future = promise->get_future();
    const int last = std::min(games, first + kBatch);
    for (int i = first; i < last; ++i) {
      const Seed seed = BatchGameSeed(batch, static_cast<uint32_t>(i));
      recorder::GameHeader h;
      char id[32];
      std::snprintf(id, sizeof(id), "bench-%08d", i);
      h.game_id = id;
      h.rules = rules.ToString();
      h.seats = {{"random-a", "t0", ""}, {"random-b", "t1", ""}};
      h.seed = ToHex(seed);
      h.commitment = ToHex(SeedCommitment(seed));
      h.label = "bench";
      h.created_us = 1'700'000'000'000'000 + i;
      (*rec)->CreateGame(h, nullptr);
      Game game = *Game::Create(rules, DeckSource::FromSeed(seed));
      RandomPlayer player(seed);
      int64_t now = h.created_us;
      auto add = [&](EventKind kind, std::string payload) {
        ++events;
        (*rec)->Append(h.game_id, kind, now += 1000, std::move(payload),
                       nullptr);
      };
      add(EventKind::kDeal, recorder::DealPayload(1, game.deck()));
      while (!game.over()) {
        const size_t rounds = game.rounds().size();
        const int round = game.round();
        game.PlayUnchecked(player.Choose(game));
        add(EventKind::kMove, recorder::MovePayload(game.history().back(),
                                                    100 + game.turn() % 50));
        for (recorder::EventDraft& e :
             recorder::ConsequenceEvents(game, rounds, round, h.seed)) {
          add(e.kind, std::move(e.payload));
        }
      }
    }
    // A marker write: its callback runs after everything queued before it.
    (*rec)->Append("bench-none", EventKind::kAbort, 0, "{}",
                   [promise](absl::Status) { promise->set_value(); });
    future.wait();
    if (last % 10000 == 0 || last == games) {
      std::fprintf(stderr, "\rgenerated %d/%d games", last, games);
    }
  }
  std::fprintf(stderr, "\n");
  return events;
}

}  // namespace
}  // namespace cassino

int main(int argc, char** argv) {
  int games = 100000;
  int threads = 2;
  std::string db;
  bool keep = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](const char* name) -> std::string {
      const std::string prefix = std::string(name) + "=";
      if (a.rfind(prefix, 0) == 0) return a.substr(prefix.size());
      if (a == name && i + 1 < argc) return argv[++i];
      return "";
    };
    if (std::string v = value("--games"); !v.empty()) {
      games = std::atoi(v.c_str());
    } else if (std::string v = value("--threads"); !v.empty()) {
      threads = std::atoi(v.c_str());
    } else if (std::string v = value("--db"); !v.empty()) {
      db = v;
      keep = true;
    } else if (a == "--keep") {
      keep = true;
    } else {
      std::fprintf(stderr,
                   "usage: verify_bench [--games N] [--db PATH] [--threads T] "
                   "[--keep]\n");
      return 2;
    }
  }
  if (db.empty()) {
    db = (std::filesystem::temp_directory_path() /
          absl::StrCat("verify_bench_", games, ".db"))
             .string();
  }
  using cassino::Since;
  int64_t existing = -1;
  if (std::filesystem::exists(db)) {
    if (auto r = cassino::recorder::RecordReader::Open(db); r.ok()) {
      if (auto n = (*r)->CountGames(); n.ok()) existing = *n;
    }
  }
  if (existing != games) {
    for (const char* suffix : {"", "-wal", "-shm"}) {
      std::filesystem::remove(db + suffix);
    }
    const auto start = cassino::Clock::now();
    const int64_t events = cassino::Generate(db, games);
    std::printf("generated %d games (%lld events) in %.1f s\n", games,
                static_cast<long long>(events), Since(start));
  } else {
    std::printf("reusing %s (%d games)\n", db.c_str(), games);
  }
  {
    const auto start = cassino::Clock::now();
    const double cpu = cassino::CpuSeconds();
    auto rec = cassino::recorder::Recorder::Open(
        db, cassino::recorder::Durability::kNormal);
    if (!rec.ok()) {
      std::fprintf(stderr, "%s\n", std::string(rec.status().message()).c_str());
      return 2;
    }
    std::printf(
        "recorder open (migrations, tally backfill): %.2f s, CPU %.2f s\n",
        Since(start), cassino::CpuSeconds() - cpu);
  }

  {
    // The reading alone (SQLite and copying), for comparison.
    auto reader = cassino::recorder::RecordReader::Open(db);
    int64_t n = 0, events = 0;
    const auto start = cassino::Clock::now();
    absl::Status s =
        (*reader)->ForEach({}, [&](cassino::recorder::StoredGame& g) {
          ++n;
          events += static_cast<int64_t>(g.events.size());
        });
    const double secs = Since(start);
    std::printf("read %lld games (%lld events) in %.2f s: %.0f games/s\n",
                static_cast<long long>(n), static_cast<long long>(events), secs,
                n / secs);
  }
  cassino::verify::VerifyOptions options;
  options.threads = threads;
  const auto start = cassino::Clock::now();
  const double cpu0 = cassino::CpuSeconds();
  auto report = cassino::verify::VerifyDatabase(db, options);
  const double secs = Since(start);
  const double cpu = cassino::CpuSeconds() - cpu0;
  if (!report.ok()) {
    std::fprintf(stderr, "%s\n",
                 std::string(report.status().message()).c_str());
    return 2;
  }
  std::printf(
      "verified %lld games (%lld ok, %zu failed) in %.2f s with %d "
      "threads: %.0f games/s\n",
      static_cast<long long>(report->games), static_cast<long long>(report->ok),
      report->failures.size(), secs, threads, report->games / secs);
  // On a shared machine the wall clock includes waiting for a core; the CPU
  // time says what the work costs.
  std::printf("CPU %.2f s = %.1f us/game: %.0f games/s per busy core\n", cpu,
              cpu * 1e6 / static_cast<double>(report->games),
              static_cast<double>(report->games) / cpu);
  for (size_t i = 0; i < report->failures.size() && i < 5; ++i) {
    std::printf("  %s\n", report->failures[i].ToString().c_str());
  }
  if (!keep) {
    for (const char* suffix : {"", "-wal", "-shm"}) {
      std::filesystem::remove(db + suffix);
    }
  }
  return report->failures.empty() ? 0 : 1;
}
