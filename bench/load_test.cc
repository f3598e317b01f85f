// referee_load: a sustained load test of a separate `cassino-referee`
// process, measuring its throughput, move latency and memory over time.
//
// The program starts the real referee binary (or uses a running one given by
// --address) and keeps --games two-player games running at once for
// --seconds: every game that ends is replaced by a new one, so 2 x --games
// Play streams stay open the whole time. The bots answer each YourTurn at
// once with its first legal move.
//
// The streams are driven by the gRPC callback client API
// (ClientBidiReactor): no thread per stream; gRPC's own small pool runs the
// reactions, so the load generator stays light next to the referee on a
// small machine. The referee runs in its own process (this program does not
// link the service) so that its resident memory can be read alone from
// /proc/<pid>/status once a second.
//
// Reported:
//   - games completed, moves accepted, moves per second;
//   - p50/p95/p99 move round trip: from writing a move to reading its
//     verdict (which the referee sends once the move is recorded);
//   - errors: any non-OK stream or call status, any rejected verdict, any
//     forfeit (a bot timed out) while the load runs. Must be 0;
//   - the referee's VmRSS after warm-up (--warmup, default 25% of the run),
//     at the end of the run and its maximum, with FLAT when the end RSS is
//     within --flat-tolerance (default 15%) of the post-warm-up RSS and
//     GROWING otherwise, and the growth per 1,000 games completed.
//
// At the end the games still running are aborted (AbortGame), so a running
// referee given by --address is left without orphan games.
//
// Exit status: 0 when there were no errors, 1 on errors (or, with
// --fail-on-growth, when memory is GROWING), 2 on a usage or setup failure.
//
// Usage: referee_load [--games N] [--seconds S] [--durability normal|full]
//                     [--referee PATH] [--address HOST:PORT
//                     --admin-token TOKEN [--pid PID]] [--per-move-ms MS]
//                     [--bank-ms MS] [--channels N] [--warmup FRACTION]
//                     [--flat-tolerance FRACTION] [--fail-on-growth]
//                     [--keep-dir]
// See docs/load_test.md.

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "bench/load_client.h"

namespace {

using cassino::bench::Clock;

// ---- Options ---------------------------------------------------------------

struct Options {
  int games = 500;
  double seconds = 60;
  std::string durability = "normal";
  std::string referee;  // empty: next to this binary in the build tree
  std::string address;  // empty: start a referee
  std::string admin_token;
  int pid = 0;  // the referee's pid with --address (0: memory not measured)
  int64_t per_move_ms = 60000;
  int64_t bank_ms = 0;  // 0: the referee's default; < 0: no bank
  int channels = 4;
  double warmup = 0.25;
  double flat_tolerance = 0.15;
  bool fail_on_growth = false;
  bool keep_dir = false;
};

void Usage() {
  std::fprintf(
      stderr,
      "usage: referee_load [--games N] [--seconds S] "
      "[--durability normal|full]\n"
      "                    [--referee PATH] [--address HOST:PORT "
      "--admin-token TOKEN [--pid PID]]\n"
      "                    [--per-move-ms MS] [--bank-ms MS] [--channels N] "
      "[--warmup FRACTION]\n"
      "                    [--flat-tolerance FRACTION] [--fail-on-growth] "
      "[--keep-dir]\n");
}

// Parses `--flag value` and `--flag=value`. False on a bad command line.
bool ParseOptions(int argc, char** argv, Options* o) {
  for (int i = 1; i < argc; ++i) {
    std::string flag = argv[i];
    std::optional<std::string> value;
    if (const size_t eq = flag.find('='); eq != std::string::npos) {
      value = flag.substr(eq + 1);
      flag = flag.substr(0, eq);
    }
    if (flag == "--fail-on-growth" || flag == "--keep-dir") {
      (flag == "--keep-dir" ? o->keep_dir : o->fail_on_growth) = true;
      continue;
    }
    if (flag == "--help" || flag == "-h") return false;
    static const std::set<std::string> kValued = {
        "--games",   "--seconds",     "--durability", "--referee",
        "--address", "--admin-token", "--pid",        "--per-move-ms",
        "--bank-ms", "--channels",    "--warmup",     "--flat-tolerance"};
    if (!kValued.contains(flag)) {
      std::fprintf(stderr, "referee_load: unknown flag %s\n", flag.c_str());
      return false;
    }
    if (!value) {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "referee_load: %s needs a value\n", flag.c_str());
        return false;
      }
      value = argv[++i];
    }
    try {
      if (flag == "--games") {
        o->games = std::stoi(*value);
      } else if (flag == "--seconds") {
        o->seconds = std::stod(*value);
      } else if (flag == "--durability") {
        o->durability = *value;
      } else if (flag == "--referee") {
        o->referee = *value;
      } else if (flag == "--address") {
        o->address = *value;
      } else if (flag == "--admin-token") {
        o->admin_token = *value;
      } else if (flag == "--pid") {
        o->pid = std::stoi(*value);
      } else if (flag == "--per-move-ms") {
        o->per_move_ms = std::stoll(*value);
      } else if (flag == "--bank-ms") {
        o->bank_ms = std::stoll(*value);
      } else if (flag == "--channels") {
        o->channels = std::stoi(*value);
      } else if (flag == "--warmup") {
        o->warmup = std::stod(*value);
      } else if (flag == "--flat-tolerance") {
        o->flat_tolerance = std::stod(*value);
      } else {
        std::fprintf(stderr, "referee_load: unknown flag %s\n", flag.c_str());
        return false;
      }
    } catch (const std::exception&) {
      std::fprintf(stderr, "referee_load: bad value for %s: %s\n", flag.c_str(),
                   value->c_str());
      return false;
    }
  }
  if (o->games < 1 || o->games > 100000 || o->seconds <= 0 ||
      o->seconds > 24 * 3600 || o->per_move_ms < 1 || o->channels < 1 ||
      o->channels > 64 || o->warmup <= 0 || o->warmup >= 1 ||
      o->flat_tolerance <= 0 ||
      (o->durability != "normal" && o->durability != "full")) {
    std::fprintf(stderr, "referee_load: a flag's value is out of range\n");
    return false;
  }
  if (!o->address.empty() && o->admin_token.empty()) {
    if (const char* env = std::getenv("CASSINO_ADMIN_TOKEN")) {
      o->admin_token = env;
    } else {
      std::fprintf(stderr,
                   "referee_load: --address needs --admin-token (or "
                   "$CASSINO_ADMIN_TOKEN)\n");
      return false;
    }
  }
  return true;
}

double Megabytes(int64_t kb) { return kb / 1024.0; }

struct Sample {
  double t = 0;       // seconds since the load started
  int64_t rss = -1;   // kB
  int64_t games = 0;  // completed
  int64_t moves = 0;
};

int64_t DirectoryBytes(const std::filesystem::path& dir) {
  int64_t total = 0;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    if (e.is_regular_file(ec)) total += e.file_size(ec);
  }
  return total;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (!ParseOptions(argc, argv, &options)) {
    Usage();
    return 2;
  }
  signal(SIGPIPE, SIG_IGN);

  // The referee: ours, or a running one.
  std::string address = options.address;
  pid_t pid = options.pid;
  bool own_referee = false;
  std::filesystem::path dir;
  if (address.empty()) {
    std::string referee = options.referee;
    if (referee.empty()) {
      referee = cassino::bench::BesideThisBinary("../referee/cassino-referee");
    }
    dir = cassino::bench::MakeTempDir("referee_load");
    if (dir.empty()) return 2;
    options.admin_token = cassino::bench::NewToken();
    const std::string token_file =
        cassino::bench::WriteAdminTokenFile(dir, options.admin_token);
    cassino::bench::ServerProcess server;
    if (!cassino::bench::StartServer(
            referee,
            {"--listen", "127.0.0.1:0", "--db", (dir / "load.db").string(),
             "--durability", options.durability, "--admin-token-file",
             token_file},
            dir, (dir / "referee.log").string(), &server)) {
      return 2;
    }
    own_referee = true;
    pid = server.pid;
    address = server.address;
  }
  const std::string pid_text = std::to_string(pid);
  std::printf(
      "referee_load: %d games (%d Play streams) for %.0f s against %s "
      "(referee pid %s%s), durability %s, per-move %lld ms, bank %lld ms, "
      "%d channel(s)\n",
      options.games, 2 * options.games, options.seconds, address.c_str(),
      pid > 0 ? pid_text.c_str() : "unknown",
      own_referee ? ", started here" : "",
      own_referee ? options.durability.c_str() : "(the referee's)",
      static_cast<long long>(options.per_move_ms),
      static_cast<long long>(options.bank_ms), options.channels);
  std::printf("%7s %10s %10s %10s %10s\n", "t (s)", "RSS (MB)", "games done",
              "moves", "moves/s");
  std::fflush(stdout);

  const double referee_cpu0 =
      pid > 0 ? cassino::bench::ProcCpuSeconds(pid) : -1;
  cassino::bench::RefereeLoadOptions load_options;
  load_options.games = options.games;
  load_options.per_move_ms = options.per_move_ms;
  load_options.bank_ms = options.bank_ms;
  load_options.channels = options.channels;
  load_options.admin_token = options.admin_token;
  auto load =
      std::make_unique<cassino::bench::RefereeLoad>(load_options, address);
  const Clock::time_point start = Clock::now();
  load->StartAll();

  // Sample once a second until the end; bounded by --seconds.
  std::vector<Sample> samples;
  const int ticks = static_cast<int>(std::ceil(options.seconds));
  const int print_every = std::max(1, ticks / 20);
  int64_t last_moves = 0;
  for (int i = 1; i <= ticks; ++i) {
    const double at = std::min<double>(i, options.seconds);
    std::this_thread::sleep_until(start +
                                  std::chrono::duration_cast<Clock::duration>(
                                      std::chrono::duration<double>(at)));
    Sample s;
    s.t = std::chrono::duration<double>(Clock::now() - start).count();
    s.rss = pid > 0 ? cassino::bench::ProcStatusField(pid_text, "VmRSS") : -1;
    s.games = load->completed();
    s.moves = load->moves();
    samples.push_back(s);
    if (i % print_every == 0 || i == ticks) {
      std::printf("%7.0f %10.1f %10lld %10lld %10.0f\n", s.t,
                  s.rss >= 0 ? Megabytes(s.rss) : -1.0,
                  static_cast<long long>(s.games),
                  static_cast<long long>(s.moves),
                  (s.moves - last_moves) /
                      (print_every * std::min(1.0, options.seconds)));
      std::fflush(stdout);
      last_moves = s.moves;
    }
  }
  const double elapsed =
      std::chrono::duration<double>(Clock::now() - start).count();
  const int64_t moves = load->moves();
  const int64_t completed = load->completed();
  const int64_t started = load->started();
  const double referee_cpu =
      pid > 0 ? cassino::bench::ProcCpuSeconds(pid) - referee_cpu0 : -1;
  const int64_t own_threads =
      cassino::bench::ProcStatusField("self", "Threads");
  const double own_cpu = cassino::bench::OwnCpuSeconds();

  const bool drained = load->Stop(30);
  const int64_t errors = load->errors();
  const int64_t rss_after =
      pid > 0 ? cassino::bench::ProcStatusField(pid_text, "VmRSS") : -1;

  // The report.
  const cassino::bench::Histogram& latency = load->latency();
  std::printf("\nresult\n");
  std::printf(
      "  games completed   %lld (started %lld; the %d running at the "
      "end were aborted)\n",
      static_cast<long long>(completed), static_cast<long long>(started),
      options.games);
  std::printf("  moves             %lld in %.1f s = %.0f moves/s\n",
              static_cast<long long>(moves), elapsed, moves / elapsed);
  std::printf(
      "  move round trip   p50 %.2f ms, p95 %.2f ms, p99 %.2f ms "
      "(%lld samples)\n",
      latency.PercentileUs(0.50) / 1000, latency.PercentileUs(0.95) / 1000,
      latency.PercentileUs(0.99) / 1000,
      static_cast<long long>(latency.count()));
  std::printf("  errors            %lld\n", static_cast<long long>(errors));
  if (referee_cpu >= 0) {
    std::printf(
        "  cpu               referee %.1f s (%.0f%% of one core), "
        "load program %.1f s (%.0f%%, %lld threads)\n",
        referee_cpu, 100 * referee_cpu / elapsed, own_cpu,
        100 * own_cpu / elapsed, static_cast<long long>(own_threads));
  } else {
    std::printf(
        "  cpu               load program %.1f s (%.0f%%, %lld "
        "threads)\n",
        own_cpu, 100 * own_cpu / elapsed, static_cast<long long>(own_threads));
  }

  bool growing = false;
  const Sample* warm = nullptr;
  for (const Sample& s : samples) {
    if (s.rss >= 0 && s.t >= options.warmup * options.seconds - 0.5) {
      warm = &s;
      break;
    }
  }
  if (warm != nullptr && samples.back().rss >= 0) {
    const Sample& end = samples.back();
    int64_t max_rss = 0;
    for (const Sample& s : samples) max_rss = std::max(max_rss, s.rss);
    const double change = static_cast<double>(end.rss - warm->rss) / warm->rss;
    growing = change > options.flat_tolerance;
    std::printf(
        "  referee RSS       after warm-up (t=%.0f s, %lld games "
        "done) %.1f MB; end (t=%.0f s, %lld games) %.1f MB; max "
        "%.1f MB; after the abort %.1f MB\n",
        warm->t, static_cast<long long>(warm->games), Megabytes(warm->rss),
        end.t, static_cast<long long>(end.games), Megabytes(end.rss),
        Megabytes(max_rss), Megabytes(rss_after));
    const int64_t games = end.games - warm->games;
    std::printf(
        "  memory            %s: end is %+.1f%% of the post-warm-up "
        "RSS (tolerance %.0f%%)",
        growing ? "GROWING" : "FLAT", 100 * change,
        100 * options.flat_tolerance);
    std::printf("; %+.0f bytes per move",
                1024.0 * (end.rss - warm->rss) /
                    std::max<int64_t>(1, end.moves - warm->moves));
    if (games > 0) {
      std::printf(", %+.1f kB per game completed (%+.1f MB per 1,000)",
                  static_cast<double>(end.rss - warm->rss) / games,
                  Megabytes(end.rss - warm->rss) * 1000 / games);
    }
    std::printf("\n");
  } else {
    std::printf(
        "  referee RSS       not measured (give --pid with "
        "--address)\n");
  }
  if (!drained) {
    std::printf("  warning           some calls did not end after the abort\n");
  }

  if (own_referee) {
    const int status = cassino::bench::Terminate(pid, 15);
    std::printf("  database          %.1f MB in %s (referee exit status %d)\n",
                DirectoryBytes(dir) / 1048576.0, dir.c_str(), status);
    if (!options.keep_dir) {
      std::error_code ec;
      std::filesystem::remove_all(dir, ec);
    }
  }
  std::fflush(stdout);
  load.reset();
  if (errors > 0) return 1;
  if (growing && options.fail_on_growth) return 1;
  return 0;
}
