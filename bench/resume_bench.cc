// resume_bench: how long a restarted referee takes to resume its open
// games, and the memory they hold. It uses the referee's core alone (no
// server): creates --games two-player games (standard rules, fresh seeds,
// a one-minute clock, --moves moves played in each) through a Registry on
// a fresh database, reports the process's resident memory, drops the
// Registry as a stop would, builds a new one on the same database and
// times ResumeAll (each game's record read, its hash chain checked, and
// replayed into a session).
//
// With --dir the database is kept; --resume-only then resumes it in a
// fresh process, whose resident memory is then the resumed games' alone
// (the creating process keeps what its allocator did not give back).
// --interleave plays one move of every game at a time, as a referee
// records games that run at once, instead of each game's moves together.
//
// Usage: resume_bench [--games N] [--moves K] [--interleave] [--dir DIR]
//                     [--resume-only]

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <unordered_set>

#include "CLI/CLI.hpp"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "recorder/recorder.h"
#include "referee/deadline_timer.h"
#include "referee/game_spec.h"
#include "referee/registry.h"

namespace {

using cassino::service::DeadlineTimer;
using cassino::service::Registry;

// Resident memory of this process, MB.
double ResidentMb() {
  std::ifstream in("/proc/self/statm");
  long pages = 0, resident = 0;
  in >> pages >> resident;
  return resident * static_cast<double>(sysconf(_SC_PAGESIZE)) / (1 << 20);
}

// Plays `moves` first-legal moves in `game` (fewer if it ends).
bool Play(cassino::service::GameSession& game, int moves) {
  for (int i = 0; i < moves && !game.over(); ++i) {
    const int seat = game.Info().to_move;
    absl::Notification got;
    cassino::service::TurnView view;
    game.GetTurn(seat, false,
                 [&](const absl::Status&, const cassino::service::TurnView& v) {
                   view = v;
                   got.Notify();
                 });
    got.WaitForNotification();
    if (!view.your_turn) return false;
    cassino::Submission s;
    s.notation = view.your_turn->legal_moves.front().ToString();
    absl::Notification done;
    bool ok = false;
    game.Submit(seat, view.your_turn->turn, s,
                [&](const absl::Status& st, const cassino::service::Verdict&) {
                  ok = st.ok();
                  done.Notify();
                });
    done.WaitForNotification();
    if (!ok) return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  int games = 20000;
  int moves = 0;
  std::string dir_arg;
  bool resume_only = false;
  bool interleave = false;
  CLI::App app(
      "resume_bench: open games created, then resumed by a new Registry on "
      "the same database; prints the time ResumeAll takes and the memory "
      "the games hold.");
  app.add_option("--games", games, "open games")->check(CLI::Range(1, 1000000));
  app.add_option("--moves", moves, "moves played in each game")
      ->check(CLI::Range(0, 40));
  app.add_flag("--interleave", interleave,
               "play one move of every game, then the next move of every "
               "game, and so on, as a referee records games that run at "
               "once (each game's rows then lie among the others'); "
               "without it, each game's moves are played together");
  app.add_option("--dir", dir_arg,
                 "where the database goes (default: a "
                 "temporary directory, removed after)");
  app.add_flag("--resume-only", resume_only,
               "only resume the database --dir holds (made by an earlier "
               "run with the same --dir)");
  CLI11_PARSE(app, argc, argv);
  if (resume_only && dir_arg.empty()) {
    std::fprintf(stderr, "resume_bench: --resume-only needs --dir\n");
    return 2;
  }
  std::filesystem::path dir =
      dir_arg.empty() ? std::filesystem::temp_directory_path() /
                            ("resume_bench_" + std::to_string(getpid()))
                      : std::filesystem::path(dir_arg);
  std::filesystem::create_directories(dir);
  const std::string db = (dir / "resume.db").string();
  const double rss_start = ResidentMb();

  if (!resume_only) {
    auto recorder = cassino::recorder::Recorder::Open(
        db, cassino::recorder::Durability::kNormal);
    if (!recorder.ok()) {
      std::fprintf(stderr, "resume_bench: %s\n",
                   recorder.status().ToString().c_str());
      return 2;
    }
    DeadlineTimer timer(DeadlineTimer::kManualTime);
    auto registry =
        std::make_unique<Registry>(recorder->get(), &timer, "bench-admin");
    if (!registry->ResumeAll().ok()) return 2;
    const auto start = std::chrono::steady_clock::now();
    std::atomic<int> left{games};
    std::atomic<int> failed{0};
    absl::Notification all;
    cassino::service::GameSpec spec;
    spec.seats = {{"north", ""}, {"south", ""}};
    spec.clock.per_move_ms = 60000;
    for (int i = 0; i < games; ++i) {
      registry->CreateGame(
          spec, [&](absl::StatusOr<cassino::service::CreatedGame> created) {
            if (!created.ok()) ++failed;
            if (--left == 0) all.Notify();
          });
    }
    all.WaitForNotification();
    if (moves > 0) {
      // (Every game of the database, through the registry's list.)
      cassino::service::GameQuery all_games;
      all_games.page_size = 1000;
      std::vector<std::string> ids;
      std::string token;
      do {
        all_games.page_token = token;
        auto page = registry->ListGames(all_games);
        if (!page.ok()) return 2;
        for (const auto& info : page->games) ids.push_back(info.game_id);
        token = page->next_page_token;
      } while (!token.empty());
      // Each game's moves at once, or one move of every game at a time. A
      // game whose move fails is counted once and left (its later passes
      // skipped).
      const int passes = interleave ? moves : 1;
      const int each = interleave ? 1 : moves;
      std::unordered_set<std::string> broken;
      for (int pass = 0; pass < passes; ++pass) {
        for (const std::string& id : ids) {
          if (broken.contains(id)) continue;
          auto game = registry->Find(id);
          if (!game || !Play(*game, each)) {
            broken.insert(id);
            ++failed;
          }
        }
      }
    }
    const double created_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    std::printf(
        "created %d games (%d moves each) in %.1f s; %d failed; resident "
        "memory %.0f MB (%.0f MB at start)\n",
        games, moves, created_s, failed.load(), ResidentMb(), rss_start);
    timer.Stop();
    registry.reset();
  }

  const double rss_before = ResidentMb();
  auto recorder = cassino::recorder::Recorder::Open(
      db, cassino::recorder::Durability::kNormal);
  if (!recorder.ok()) return 2;
  DeadlineTimer timer(DeadlineTimer::kManualTime);
  Registry registry(recorder->get(), &timer, "bench-admin");
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<Registry::Resumed> resumed = registry.ResumeAll();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  if (!resumed.ok()) {
    std::fprintf(stderr, "resume_bench: %s\n",
                 resumed.status().ToString().c_str());
    return 1;
  }
  std::printf(
      "resumed %d games in %.3f s (%.1f us a game), %zu damaged; resident "
      "memory %.0f MB (%.0f MB before)\n",
      resumed->games, seconds, 1e6 * seconds / std::max(1, resumed->games),
      resumed->damaged.size(), ResidentMb(), rss_before);
  timer.Stop();
  if (dir_arg.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  return (resume_only || resumed->games == games) && resumed->damaged.empty()
             ? 0
             : 1;
}
