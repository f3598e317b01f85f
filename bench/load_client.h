// The client side of the load programs (referee_load, referee_ratios): bots
// and echo streams on gRPC's callback API, and the helpers that start a
// server as a separate process and read its CPU and memory from /proc.
//
// The streams are driven by ClientBidiReactor: no thread per stream; gRPC's
// own small pool runs the reactions, so the load generator stays light next
// to the server it measures on a small machine. Servers run in their own
// processes (the load programs link neither the service nor the echo
// server) so that their CPU and memory are read alone.

#ifndef CASSINO_BENCH_LOAD_CLIENT_H_
#define CASSINO_BENCH_LOAD_CLIENT_H_

#include <sys/types.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "bench/echo.grpc.pb.h"
#include "cassino/v1/referee_service.grpc.pb.h"

namespace cassino::bench {

using Clock = std::chrono::steady_clock;

// ---- Latency ----------------------------------------------------------------

// Lock-free: 10 us buckets up to 100 ms, then 1 ms buckets up to 60 s.
class Histogram {
 public:
  void Add(Clock::duration d);
  int64_t count() const { return count_.load(); }
  // The upper edge of the bucket holding the p-quantile, in microseconds.
  double PercentileUs(double p) const;

 private:
  static constexpr int64_t kFineUs = 10;
  static constexpr int64_t kFineLimitUs = 100000;
  static constexpr size_t kFine = kFineLimitUs / kFineUs;
  static constexpr int64_t kCoarseUs = 1000;
  static constexpr size_t kCoarse = 60000;
  std::array<std::atomic<int64_t>, kFine + kCoarse> buckets_{};
  std::atomic<int64_t> count_{0};
};

// ---- Processes --------------------------------------------------------------

// A "Name:   value kB" field of /proc/<pid>/status ("self" for this
// process); -1 if unreadable.
int64_t ProcStatusField(const std::string& pid, const std::string& name);
// User + system CPU seconds of a process, from /proc/<pid>/stat; -1 if
// unreadable.
double ProcCpuSeconds(pid_t pid);
// User + system CPU seconds of this process so far.
double OwnCpuSeconds();
// Context switches (voluntary and not) of a process so far, summed over its
// threads (/proc/<pid>/task/*/status: the process's own status counts its
// main thread only). Threads that have exited are not counted; -1 if the
// process's threads cannot be listed.
int64_t ProcContextSwitches(pid_t pid);
// A random 40-hex-digit token.
std::string NewToken();
// A new directory under the system's temporary directory, named
// `prefix`.XXXXXX; empty (with a message on stderr) on failure.
std::filesystem::path MakeTempDir(const std::string& prefix);
// Writes `token` to DIR/admin_token, readable by its owner only, for a
// referee's --admin-token-file. The file's path.
std::string WriteAdminTokenFile(const std::filesystem::path& dir,
                                const std::string& token);
// `relative` resolved against the directory of this executable (the build
// tree: "../referee/cassino-referee").
std::string BesideThisBinary(const std::string& relative);

// A server started here as a child process. It cannot outlive this program
// (PR_SET_PDEATHSIG).
struct ServerProcess {
  pid_t pid = -1;
  std::string address;  // 127.0.0.1:PORT
};
// Starts `path` with `args` plus `--port-file FILE`, its output going to
// `log`, and waits (at most 30 s) for it to write its port. False, with a
// message on stderr, if it does not start.
bool StartServer(const std::string& path, std::vector<std::string> args,
                 const std::filesystem::path& dir, const std::string& log,
                 ServerProcess* out);
// SIGTERM, then SIGKILL after `seconds`. The exit status, or -1.
int Terminate(pid_t pid, double seconds);

// ---- Load on the referee ----------------------------------------------------

struct RefereeLoadOptions {
  int games = 500;  // kept running at once
  int64_t per_move_ms = 60000;
  int64_t bank_ms = 0;  // 0: the referee's default; < 0: no bank
  int channels = 4;     // gRPC channels (TCP connections)
  std::string admin_token;
  // The Play streams' mode (cassino-play-mode): compact (three messages a
  // move) or full (five).
  bool compact = true;
};

class RefereeGame;
class RefereeSeat;

// Keeps `games` two-player games running on a referee: each is created
// with CreateGame (deterministic seeds 1, 2, 3, ..., label `load-test`) and
// its two seats open Play streams; every bot answers each YourTurn at once
// with its first legal move; every game that ends is replaced.
class RefereeLoad {
 public:
  RefereeLoad(const RefereeLoadOptions& options, const std::string& address);
  ~RefereeLoad();

  const RefereeLoadOptions& options() const { return options_; }
  bool stopping() const { return stopping_.load(std::memory_order_acquire); }

  void StartAll();
  // Counts moves and their round trips from now on (before: warm-up).
  void Measure() { measuring_.store(true, std::memory_order_release); }
  // Stops starting games, aborts the running ones, waits (bounded) for
  // every stream to end, then cancels what is left. True if all ended.
  bool Stop(double grace_seconds);

  int64_t completed() const { return completed_.load(); }
  int64_t moves() const { return moves_.load(); }
  int64_t errors() const { return errors_.load(); }
  int64_t started() const { return started_.load(); }
  // Round trip of a move: from writing it to reading its verdict.
  const Histogram& latency() const { return latency_; }

 private:
  friend class RefereeGame;
  friend class RefereeSeat;
  void StartGame();
  bool MaySeat(RefereeGame* game);
  void GameDone(RefereeGame* game, bool completed, bool replace);
  void AddSeat(RefereeSeat* seat);
  void RemoveSeat(RefereeSeat* seat);
  void Error(const std::string& what);
  void Moved(Clock::duration round_trip);
  bool NoGames() const ABSL_SHARED_LOCKS_REQUIRED(mu_) {
    return games_.empty();
  }

  const RefereeLoadOptions options_;
  std::vector<std::unique_ptr<cassino::v1::RefereeService::Stub>> stubs_;
  std::atomic<bool> stopping_{false};
  std::atomic<bool> measuring_{true};
  std::atomic<int64_t> started_{0};
  std::atomic<int64_t> completed_{0};
  std::atomic<int64_t> moves_{0};
  std::atomic<int64_t> errors_{0};
  Histogram latency_;

  absl::Mutex mu_;
  std::set<RefereeGame*> games_ ABSL_GUARDED_BY(mu_);  // live games
  std::set<RefereeSeat*> seats_ ABSL_GUARDED_BY(mu_);  // live streams
};

// ---- Load on the echo server ------------------------------------------------

class EchoStream;

// `streams` echo streams, each with one message in flight at a time: write
// a `payload_bytes` message, read it back, write the next. The physical
// baseline of referee_ratios.
class EchoLoad {
 public:
  EchoLoad(int streams, int payload_bytes, int channels,
           const std::string& address);
  ~EchoLoad();

  void StartAll();
  void Measure() { measuring_.store(true, std::memory_order_release); }
  // Ends every stream (bounded wait). True if all ended.
  bool Stop(double grace_seconds);

  int64_t round_trips() const { return round_trips_.load(); }
  int64_t errors() const { return errors_.load(); }
  const Histogram& latency() const { return latency_; }

 private:
  friend class EchoStream;
  void Echoed(Clock::duration round_trip);
  void StreamDone(bool ok);
  bool NoStreams() const ABSL_SHARED_LOCKS_REQUIRED(mu_) { return live_ == 0; }

  const int streams_;
  const std::string payload_;
  std::vector<std::unique_ptr<cassino::bench::EchoService::Stub>> stubs_;
  std::atomic<bool> stopping_{false};
  std::atomic<bool> measuring_{true};
  std::atomic<int64_t> round_trips_{0};
  std::atomic<int64_t> errors_{0};
  Histogram latency_;

  absl::Mutex mu_;
  int live_ ABSL_GUARDED_BY(mu_) = 0;  // streams not yet done
};

}  // namespace cassino::bench

#endif  // CASSINO_BENCH_LOAD_CLIENT_H_
