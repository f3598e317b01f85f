// referee_ratios: the referee measured against the bare gRPC baseline, as
// issue #18 states the performance targets. For each number of concurrent
// games G (default 1, 16, 64) it runs, one after the other on the same
// machine:
//   - echo:    G echo streams against `echo_server` (a separate process),
//              each with one 1 KB message in flight;
//   - referee: G two-player games of instant bots against a fresh
//              `cassino-referee` process (a new database each run), in each
//              durability mode (default normal, full) and each Play mode
//              (default compact, full).
// Both are driven by the same callback-API client (load_client.h) from this
// process. Each run warms up for --warmup seconds, then measures for
// --seconds: round trips (an echo; a move from writing it to reading its
// verdict, which the referee sends once the move is recorded), their p50 and
// p99, the server process's CPU (/proc/PID/stat) and this program's own,
// and the server's context switches per round trip (summed over its threads:
// a thread that sleeps and is woken for each message costs more CPU than
// the message, docs/performance.md).
//
// A move costs the referee m messages: five in the full Play mode (the
// move, its verdict, the played move to both seats, the next YourTurn),
// three in the compact one (the move, its verdict, the next YourTurn); an
// echo costs two. The three ratios (docs/performance.md), each against the
// mode's own m:
//   throughput  referee messages/s ÷ echo messages/s, at 16 and 64 games,
//               target ≥ 50%;
//   CPU         referee CPU per move ÷ (echo CPU per round trip × m/2, the
//               echo's CPU for a move's m messages), target ≤ 3;
//   latency     referee p99 − echo p99 at 1 game, normal durability,
//               compact mode (the reference bots'), target ≤ 0.5 ms.
// (An older referee, which knows no modes, plays every stream in full:
// measure it with --play-modes full.)
//
// With --durable-echo writer,reader it also runs the durable echo
// (durable_echo.h: every message committed to SQLite before it is echoed,
// by a writer thread or by the gRPC thread that read it) after each echo,
// in each of --modes (SQLite synced as the referee's mode syncs), and
// prints its throughput and CPU against the echo's: the floor of what a
// commit before each answer costs on this machine, with nothing else done.
//
// Exit status: 0 when every run completed without errors (whether or not
// the targets are met: this is a measurement), 1 on errors, 2 on a usage
// or setup failure.

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "CLI/CLI.hpp"
#include "bench/load_client.h"

namespace {

namespace bench = ::cassino::bench;
using bench::Clock;

struct Options {
  std::vector<int> games = {1, 16, 64};
  std::vector<std::string> modes = {"normal", "full"};
  std::vector<std::string> play_modes = {"compact", "full"};
  double seconds = 10;
  double warmup = 2;
  int channels = 4;
  int payload = 1024;
  std::vector<std::string> durable_echo;  // commit-on modes; none by default
  std::string referee;
  std::string echo_server;
  bool keep_dir = false;
};

// One measured run.
struct Run {
  std::string what;  // "echo", "referee normal", ...
  int games = 0;
  double seconds = 0;
  int64_t round_trips = 0;
  int messages_per_round_trip = 0;
  double p50_us = 0;
  double p99_us = 0;
  double server_cpu = 0;  // seconds over the measured window
  double client_cpu = 0;
  int64_t server_switches = 0;  // context switches over the measured window
  int64_t errors = 0;

  double rate() const { return round_trips / seconds; }
  double messages() const { return rate() * messages_per_round_trip; }
  double server_cpu_us_per_rt() const {
    return round_trips > 0 ? 1e6 * server_cpu / round_trips : 0;
  }
  double server_switches_per_rt() const {
    return round_trips > 0 ? static_cast<double>(server_switches) / round_trips
                           : 0;
  }
};

void SleepFor(double seconds) {
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
}

// Warm-up, then the measured window; `measure` starts counting, `count`
// reads the round trips so far.
template <typename Load>
void Window(const Options& o, pid_t server, Load& load, Run* run) {
  SleepFor(o.warmup);
  load.Measure();
  const double server0 = bench::ProcCpuSeconds(server);
  const int64_t switches0 = bench::ProcContextSwitches(server);
  const double client0 = bench::OwnCpuSeconds();
  const Clock::time_point start = Clock::now();
  SleepFor(o.seconds);
  run->seconds = std::chrono::duration<double>(Clock::now() - start).count();
  run->server_cpu = bench::ProcCpuSeconds(server) - server0;
  run->server_switches = bench::ProcContextSwitches(server) - switches0;
  run->client_cpu = bench::OwnCpuSeconds() - client0;
}

// A run's database and its companions, unless --keep-dir.
void RemoveDatabase(const Options& o, const std::filesystem::path& db) {
  if (o.keep_dir) return;
  for (const char* suffix : {"", "-wal", "-shm", ".lock"}) {
    std::error_code ec;
    std::filesystem::remove(db.string() + suffix, ec);
  }
}

// The echo, or with `commit_on` ("writer" or "reader") the durable echo on
// a new database, synced as the referee's durability `mode`.
bool RunEcho(const Options& o, int games, const std::string& commit_on,
             const std::string& mode, const std::filesystem::path& dir,
             Run* run) {
  std::vector<std::string> args = {"--listen", "127.0.0.1:0"};
  const std::filesystem::path db =
      dir / ("durable-echo-" + commit_on + "-" + mode + "-" +
             std::to_string(games) + ".db");
  if (!commit_on.empty()) {
    args.insert(args.end(), {"--durable", db.string(), "--commit-on", commit_on,
                             "--sync", mode});
  }
  bench::ServerProcess server;
  if (!bench::StartServer(o.echo_server, args, dir, (dir / "echo.log").string(),
                          &server)) {
    return false;
  }
  run->what =
      commit_on.empty() ? "echo" : "durable echo " + commit_on + " " + mode;
  run->games = games;
  run->messages_per_round_trip = 2;
  {
    bench::EchoLoad load(games, o.payload, o.channels, server.address);
    load.StartAll();
    Window(o, server.pid, load, run);
    run->round_trips = load.round_trips();
    run->p50_us = load.latency().PercentileUs(0.50);
    run->p99_us = load.latency().PercentileUs(0.99);
    if (!load.Stop(10)) ++run->errors;
    run->errors += load.errors();
  }
  bench::Terminate(server.pid, 10);
  if (!commit_on.empty()) RemoveDatabase(o, db);
  return true;
}

bool RunReferee(const Options& o, int games, const std::string& mode,
                const std::string& play_mode, const std::filesystem::path& dir,
                Run* run) {
  const std::filesystem::path db =
      dir / ("ratios-" + mode + "-" + std::to_string(games) + ".db");
  const std::string token = bench::NewToken();
  const std::string token_file = bench::WriteAdminTokenFile(dir, token);
  bench::ServerProcess server;
  if (!bench::StartServer(
          o.referee,
          {"--listen", "127.0.0.1:0", "--db", db.string(), "--durability", mode,
           "--admin-token-file", token_file},
          dir, (dir / ("referee-" + mode + ".log")).string(), &server)) {
    return false;
  }
  run->what = "referee " + mode + " " + play_mode;
  run->games = games;
  run->messages_per_round_trip = play_mode == "compact" ? 3 : 5;
  {
    bench::RefereeLoadOptions lo;
    lo.games = games;
    lo.channels = o.channels;
    lo.admin_token = token;
    lo.compact = play_mode == "compact";
    bench::RefereeLoad load(lo, server.address);
    load.StartAll();
    Window(o, server.pid, load, run);
    run->round_trips = load.moves();
    run->p50_us = load.latency().PercentileUs(0.50);
    run->p99_us = load.latency().PercentileUs(0.99);
    if (!load.Stop(30)) ++run->errors;
    run->errors += load.errors();
  }
  bench::Terminate(server.pid, 15);
  RemoveDatabase(o, db);
  return true;
}

void PrintRun(const Run& r) {
  std::printf(
      "%-23s %5d %11.0f %11.0f %8.0f %8.0f %10.1f %10.1f %9.0f%% %11.2f\n",
      r.what.c_str(), r.games, r.rate(), r.messages(), r.p50_us, r.p99_us,
      r.server_cpu_us_per_rt(), 100 * r.server_cpu / r.seconds,
      100 * r.client_cpu / r.seconds, r.server_switches_per_rt());
  std::fflush(stdout);
}

const char* Verdict(bool met) { return met ? "met" : "NOT met"; }

}  // namespace

int main(int argc, char** argv) {
  Options o;
  CLI::App app(
      "referee_ratios: the referee against a bare gRPC echo server, both "
      "separate processes driven by the same callback-API client; prints "
      "the throughput, CPU-per-move and added-latency ratios of "
      "docs/performance.md.");
  app.add_option("--games", o.games, "concurrent games (echo streams) per run")
      ->delimiter(',')
      ->check(CLI::Range(1, 10000));
  app.add_option("--modes", o.modes, "referee durability modes")
      ->delimiter(',')
      ->check(CLI::IsMember({"normal", "full"}));
  app.add_option("--play-modes", o.play_modes,
                 "the bots' Play stream modes (compact: 3 messages a move; "
                 "full: 5)")
      ->delimiter(',')
      ->check(CLI::IsMember({"compact", "full"}));
  app.add_option("--seconds", o.seconds, "measured seconds per run")
      ->check(CLI::Range(0.1, 3600.0));
  app.add_option("--warmup", o.warmup, "seconds before measuring, per run")
      ->check(CLI::Range(0.0, 600.0));
  app.add_option("--channels", o.channels, "gRPC channels (TCP connections)")
      ->check(CLI::Range(1, 64));
  app.add_option("--payload", o.payload, "echo message size in bytes")
      ->check(CLI::Range(0, 1 << 20));
  app.add_option("--durable-echo", o.durable_echo,
                 "also run the durable echo, committed by a writer thread "
                 "and/or by the reading thread (none by default)")
      ->delimiter(',')
      ->check(CLI::IsMember({"writer", "reader"}));
  app.add_option("--referee", o.referee,
                 "the referee binary (default: the build tree's)");
  app.add_option("--echo-server", o.echo_server,
                 "the echo server binary (default: beside this program)");
  app.add_flag("--keep-dir", o.keep_dir,
               "keep the temporary directory (databases, server logs)");
  CLI11_PARSE(app, argc, argv);
  if (o.referee.empty()) {
    o.referee = bench::BesideThisBinary("../referee/cassino-referee");
  }
  if (o.echo_server.empty())
    o.echo_server = bench::BesideThisBinary("echo_server");
  signal(SIGPIPE, SIG_IGN);

  const std::filesystem::path dir = bench::MakeTempDir("referee_ratios");
  if (dir.empty()) return 2;
  std::printf(
      "referee_ratios: %.0f s measured after %.0f s warm-up per run, %d "
      "channel(s), echo payload %d bytes, %u cores, load %s\n",
      o.seconds, o.warmup, o.channels, o.payload,
      std::thread::hardware_concurrency(), [] {
        std::ifstream in("/proc/loadavg");
        static std::string text;
        std::getline(in, text);
        return text.c_str();
      }());
  std::printf("%-23s %5s %11s %11s %8s %8s %10s %10s %10s %11s\n", "run",
              "games", "rt/s", "messages/s", "p50 us", "p99 us", "cpu us/rt",
              "server cpu", "client cpu", "switches/rt");

  int64_t errors = 0;
  std::vector<Run> runs;
  // Prints a completed run and keeps it for the ratios.
  auto done = [&](const Run& run) {
    PrintRun(run);
    errors += run.errors;
    runs.push_back(run);
  };
  for (int games : o.games) {
    Run echo;
    if (!RunEcho(o, games, "", "", dir, &echo)) return 2;
    done(echo);
    for (const std::string& mode : o.modes) {
      for (const std::string& commit_on : o.durable_echo) {
        Run durable;
        if (!RunEcho(o, games, commit_on, mode, dir, &durable)) return 2;
        done(durable);
      }
    }
    for (const std::string& mode : o.modes) {
      for (const std::string& play_mode : o.play_modes) {
        Run ref;
        if (!RunReferee(o, games, mode, play_mode, dir, &ref)) return 2;
        done(ref);
      }
    }
  }

  std::printf("\nratios against the echo baseline of the same game count\n");
  const Run* echo = nullptr;
  for (const Run& r : runs) {
    if (r.what == "echo") {
      echo = &r;
      continue;
    }
    if (echo == nullptr || echo->round_trips == 0 || r.round_trips == 0) {
      continue;
    }
    const double throughput = r.messages() / echo->messages();
    if (r.what.rfind("durable echo", 0) == 0) {
      std::printf(
          "  %-23s %3d games: throughput %5.1f%%, CPU per round trip %.1f "
          "us = %.2f x the echo's (the floor of a commit before each "
          "answer)\n",
          r.what.c_str(), r.games, 100 * throughput, r.server_cpu_us_per_rt(),
          r.server_cpu_us_per_rt() / echo->server_cpu_us_per_rt());
      continue;
    }
    const int m = r.messages_per_round_trip;
    const double cpu_budget = echo->server_cpu_us_per_rt() * m / 2.0;
    const double cpu_ratio = r.server_cpu_us_per_rt() / cpu_budget;
    std::printf(
        "  %-23s %3d games: throughput %5.1f%% (target >= 50%%%s), CPU per "
        "move %.1f us = %.2f x the echo's %.1f us for %d messages (target "
        "<= 3: %s)",
        r.what.c_str(), r.games, 100 * throughput,
        r.games >= 16 ? (throughput >= 0.5 ? ": met" : ": NOT met") : "",
        r.server_cpu_us_per_rt(), cpu_ratio, cpu_budget, m,
        Verdict(cpu_ratio <= 3));
    if (r.games == 1) {
      const double added_ms = (r.p99_us - echo->p99_us) / 1000;
      std::printf("; p99 added %.2f ms (target <= 0.5 ms%s)", added_ms,
                  r.what == "referee normal compact"
                      ? (added_ms <= 0.5 ? ": met" : ": NOT met")
                      : ", stated for normal compact");
    }
    std::printf("\n");
  }
  std::printf("errors: %lld\n", static_cast<long long>(errors));
  if (!o.keep_dir) {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  } else {
    std::printf("kept %s\n", dir.c_str());
  }
  return errors > 0 ? 1 : 0;
}
