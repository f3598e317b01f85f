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

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cassino/v1/referee_service.grpc.pb.h"
#include "grpcpp/grpcpp.h"

namespace {

namespace v1 = ::cassino::v1;
using Clock = std::chrono::steady_clock;

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

// ---- /proc -----------------------------------------------------------------

// A "Name:   value kB" field of /proc/<pid>/status; -1 if unreadable.
int64_t ProcStatusField(const std::string& pid, const std::string& name) {
  std::ifstream in("/proc/" + pid + "/status");
  std::string line;
  for (int i = 0; i < 200 && std::getline(in, line); ++i) {
    if (line.rfind(name + ":", 0) == 0) {
      return std::strtoll(line.c_str() + name.size() + 1, nullptr, 10);
    }
  }
  return -1;
}

// User + system CPU seconds of a process, from /proc/<pid>/stat.
double ProcCpuSeconds(int pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(in)),
                   std::istreambuf_iterator<char>());
  const size_t close = text.rfind(')');
  if (close == std::string::npos) return -1;
  std::istringstream fields(text.substr(close + 2));
  std::string field;
  double ticks = 0;
  // Fields after the name start at 3 (state); utime and stime are 14, 15.
  for (int i = 3; i <= 15 && (fields >> field); ++i) {
    if (i == 14 || i == 15) ticks += std::strtod(field.c_str(), nullptr);
  }
  return ticks / static_cast<double>(sysconf(_SC_CLK_TCK));
}

// ---- Latency histogram -----------------------------------------------------

// Lock-free: 10 us buckets up to 100 ms, then 1 ms buckets up to 60 s.
class Histogram {
 public:
  void Add(Clock::duration d) {
    const int64_t us =
        std::chrono::duration_cast<std::chrono::microseconds>(d).count();
    size_t i;
    if (us < kFineLimitUs) {
      i = static_cast<size_t>(std::max<int64_t>(us, 0) / kFineUs);
    } else {
      i = kFine + static_cast<size_t>((us - kFineLimitUs) / kCoarseUs);
    }
    buckets_[std::min(i, buckets_.size() - 1)].fetch_add(
        1, std::memory_order_relaxed);
    count_.fetch_add(1, std::memory_order_relaxed);
  }
  int64_t count() const { return count_.load(); }
  // The upper edge of the bucket holding the p-quantile, in microseconds.
  double PercentileUs(double p) const {
    const int64_t total = count();
    if (total == 0) return 0;
    const int64_t rank =
        std::max<int64_t>(1, static_cast<int64_t>(p * total + 0.5));
    int64_t seen = 0;
    for (size_t i = 0; i < buckets_.size(); ++i) {
      seen += buckets_[i].load(std::memory_order_relaxed);
      if (seen >= rank) {
        return i < kFine ? (i + 1) * kFineUs
                         : kFineLimitUs + (i - kFine + 1) * kCoarseUs;
      }
    }
    return 0;
  }

 private:
  static constexpr int64_t kFineUs = 10;
  static constexpr int64_t kFineLimitUs = 100000;
  static constexpr size_t kFine = kFineLimitUs / kFineUs;
  static constexpr int64_t kCoarseUs = 1000;
  static constexpr size_t kCoarse = 60000;
  std::array<std::atomic<int64_t>, kFine + kCoarse> buckets_{};
  std::atomic<int64_t> count_{0};
};

// ---- The load ---------------------------------------------------------------

class Load;
class Game;

// One seat's Play stream. Deletes itself in OnDone.
class Seat final
    : public grpc::ClientBidiReactor<v1::PlayRequest, v1::PlayResponse> {
 public:
  Seat(Load* load, Game* game, int seat, const std::string& token)
      : load_(load), game_(game), seat_(seat) {
    ctx_.AddMetadata("authorization", "Bearer " + token);
  }
  void Start(v1::RefereeService::Stub* stub);
  void Cancel() { ctx_.TryCancel(); }

  void OnReadDone(bool ok) override;
  void OnWriteDone(bool ok) override;
  void OnDone(const grpc::Status& status) override;

 private:
  void Write(v1::PlayRequest request);

  Load* const load_;
  Game* const game_;
  const int seat_;
  grpc::ClientContext ctx_;
  v1::PlayResponse in_;  // only touched by the read chain

  std::mutex mu_;  // guards the write state below
  v1::PlayRequest out_;
  bool writing_ = false;
  std::optional<v1::PlayRequest> pending_;  // a move waiting for writing_
  bool ended_ = false;                      // GameEnded was read
  bool writes_done_ = false;
  Clock::time_point sent_{};  // when the last move was written
  bool awaiting_verdict_ = false;
};

// One game: CreateGame, then two seats (or, when the load stopped in
// between, an AbortGame). Deleted by Load::GameDone once every call it
// started has finished.
class Game {
 public:
  Game(Load* load, int64_t number);
  void Create(v1::RefereeService::Stub* stub);
  // A seat's stream has ended.
  void SeatDone(bool ok) {
    if (!ok) all_ok_ = false;
    Release();
  }
  // Sends AbortGame if the game still runs. Called under Load's lock.
  void Abort();
  void CancelCreate() { create_ctx_.TryCancel(); }

 private:
  friend class Load;
  void Created(const grpc::Status& status);
  void Release();

  Load* const load_;
  const int64_t number_;
  v1::RefereeService::Stub* stub_ = nullptr;
  grpc::ClientContext create_ctx_;
  v1::CreateGameRequest create_request_;
  v1::CreateGameResponse created_;
  // Calls in flight that the game must outlive (seat streams, AbortGame).
  std::atomic<int> parts_{0};
  std::atomic<bool> all_ok_{true};
  bool seated_ = false;  // under Load's lock
  grpc::ClientContext abort_ctx_;
  v1::AbortGameRequest abort_request_;
  v1::AbortGameResponse aborted_;
};

class Load {
 public:
  Load(const Options& options, const std::string& address) : options_(options) {
    for (int i = 0; i < options.channels; ++i) {
      grpc::ChannelArguments args;
      // Distinct arguments and a local pool: one TCP connection per channel.
      args.SetInt("cassino.load.channel", i);
      args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
      stubs_.push_back(v1::RefereeService::NewStub(grpc::CreateCustomChannel(
          address, grpc::InsecureChannelCredentials(), args)));
    }
  }

  const Options& options() const { return options_; }
  bool stopping() const { return stopping_.load(std::memory_order_acquire); }

  // Starts --games games.
  void StartAll() {
    for (int i = 0; i < options_.games; ++i) StartGame();
  }

  // A new game, unless stopping.
  void StartGame() {
    const int64_t number = started_.fetch_add(1);
    Game* game = new Game(this, number);
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (stopping()) {
        delete game;
        return;
      }
      games_.insert(game);
    }
    game->Create(stubs_[static_cast<size_t>(number) % stubs_.size()].get());
  }

  // The game created: true if its seats may start; false if the load has
  // stopped meanwhile (the caller then aborts it instead).
  bool MaySeat(Game* game) {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping()) return false;
    game->seated_ = true;
    return true;
  }

  // Every call of `game` has finished. `replace`: start the next game.
  void GameDone(Game* game, bool completed, bool replace) {
    if (completed && !stopping()) {
      completed_.fetch_add(1, std::memory_order_relaxed);
    }
    {
      std::lock_guard<std::mutex> lock(mu_);
      games_.erase(game);
      if (games_.empty()) cv_.notify_all();
    }
    delete game;
    if (replace && !stopping()) StartGame();
  }

  void AddSeat(Seat* seat) {
    std::lock_guard<std::mutex> lock(mu_);
    seats_.insert(seat);
  }
  void RemoveSeat(Seat* seat) {
    std::lock_guard<std::mutex> lock(mu_);
    seats_.erase(seat);
  }

  // Stops starting games, aborts the running ones, waits (bounded) for
  // every stream to end, then cancels what is left. True if all ended.
  bool Stop(double grace_seconds) {
    std::unique_lock<std::mutex> lock(mu_);
    stopping_.store(true, std::memory_order_release);
    for (Game* g : games_) {
      if (g->seated_) g->Abort();
    }
    if (cv_.wait_for(lock, std::chrono::duration<double>(grace_seconds),
                     [&] { return games_.empty(); })) {
      return true;
    }
    std::fprintf(stderr,
                 "referee_load: %zu game(s) did not end after AbortGame; "
                 "cancelling their calls\n",
                 games_.size());
    for (Seat* s : seats_) s->Cancel();
    for (Game* g : games_) g->CancelCreate();
    return cv_.wait_for(lock, std::chrono::seconds(10),
                        [&] { return games_.empty(); });
  }

  // Counts an error while the load runs (failures after Stop() are the
  // expected consequences of aborting and are not counted).
  void Error(const std::string& what) {
    if (stopping()) return;
    const int64_t n = errors_.fetch_add(1) + 1;
    if (n <= 10) {
      std::fprintf(stderr, "referee_load: error: %s\n", what.c_str());
    }
  }
  void Moved(Clock::duration round_trip) {
    if (stopping()) return;
    moves_.fetch_add(1, std::memory_order_relaxed);
    latency_.Add(round_trip);
  }

  int64_t completed() const { return completed_.load(); }
  int64_t moves() const { return moves_.load(); }
  int64_t errors() const { return errors_.load(); }
  int64_t started() const { return started_.load(); }
  const Histogram& latency() const { return latency_; }

 private:
  const Options options_;
  std::vector<std::unique_ptr<v1::RefereeService::Stub>> stubs_;
  std::atomic<bool> stopping_{false};
  std::atomic<int64_t> started_{0};
  std::atomic<int64_t> completed_{0};
  std::atomic<int64_t> moves_{0};
  std::atomic<int64_t> errors_{0};
  Histogram latency_;

  std::mutex mu_;
  std::condition_variable cv_;
  std::set<Game*> games_;  // live games
  std::set<Seat*> seats_;  // live streams
};

// -- Seat --

void Seat::Start(v1::RefereeService::Stub* stub) {
  load_->AddSeat(this);
  stub->async()->Play(&ctx_, this);
  StartRead(&in_);
  StartCall();
}

void Seat::OnReadDone(bool ok) {
  if (!ok) return;  // the stream is over; OnDone follows
  switch (in_.event_case()) {
    case v1::PlayResponse::kYourTurn: {
      const v1::YourTurn& turn = in_.your_turn();
      if (turn.legal_moves_size() == 0) {
        load_->Error("YourTurn without legal moves");
        break;
      }
      v1::PlayRequest request;
      request.set_turn(turn.turn());
      request.mutable_move()->set_notation(turn.legal_moves(0).notation());
      Write(std::move(request));
      break;
    }
    case v1::PlayResponse::kVerdict: {
      const v1::MoveVerdict& verdict = in_.verdict();
      bool awaited;
      Clock::time_point sent;
      {
        std::lock_guard<std::mutex> lock(mu_);
        awaited = awaiting_verdict_;
        awaiting_verdict_ = false;
        sent = sent_;
      }
      if (!verdict.accepted()) {
        load_->Error("move rejected at turn " + std::to_string(verdict.turn()) +
                     ": " + verdict.code() + " " + verdict.reason());
      } else if (awaited) {
        load_->Moved(Clock::now() - sent);
      }
      break;
    }
    case v1::PlayResponse::kGameEnded: {
      const v1::GameResult& result = in_.game_ended().result();
      if (result.reason() == "forfeit") {
        load_->Error("game " + std::to_string(seat_) +
                     " forfeited: " + result.detail());
      }
      bool close = false;
      {
        std::lock_guard<std::mutex> lock(mu_);
        ended_ = true;
        close = !writing_ && !writes_done_;
        if (close) writes_done_ = true;
      }
      if (close) StartWritesDone();
      break;
    }
    default:
      break;
  }
  StartRead(&in_);
}

void Seat::Write(v1::PlayRequest request) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    sent_ = Clock::now();
    awaiting_verdict_ = true;
    if (writing_) {
      pending_ = std::move(request);
      return;
    }
    writing_ = true;
    out_ = std::move(request);
  }
  StartWrite(&out_);  // out_ is not touched again until OnWriteDone
}

void Seat::OnWriteDone(bool ok) {
  bool write = false, close = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    writing_ = false;
    if (!ok) return;  // the stream broke; OnDone reports it
    if (pending_) {
      out_ = std::move(*pending_);
      pending_.reset();
      writing_ = write = true;
    } else if (ended_ && !writes_done_) {
      writes_done_ = close = true;
    }
  }
  if (write) StartWrite(&out_);
  if (close) StartWritesDone();
}

void Seat::OnDone(const grpc::Status& status) {
  bool ended;
  {
    std::lock_guard<std::mutex> lock(mu_);
    ended = ended_;
  }
  if (!status.ok()) {
    load_->Error("Play (seat " + std::to_string(seat_) +
                 "): " + status.error_message() + " (code " +
                 std::to_string(status.error_code()) + ")");
  } else if (!ended) {
    load_->Error("Play stream ended OK without GameEnded");
  }
  load_->RemoveSeat(this);
  Game* game = game_;
  const bool ok = status.ok() && ended;
  delete this;
  game->SeatDone(ok);
}

// -- Game --

Game::Game(Load* load, int64_t number) : load_(load), number_(number) {
  const Options& o = load->options();
  create_ctx_.AddMetadata("authorization", "Bearer " + o.admin_token);
  create_ctx_.set_deadline(std::chrono::system_clock::now() +
                           std::chrono::seconds(30));
  create_request_.add_seats()->set_bot_name("load-a");
  create_request_.add_seats()->set_bot_name("load-b");
  create_request_.set_label("load-test");
  create_request_.mutable_clock()->set_per_move_ms(o.per_move_ms);
  // (Unset: the referee's default; a set 0 would mean no bank.)
  if (o.bank_ms != 0) create_request_.mutable_clock()->set_bank_ms(o.bank_ms);
  char seed[65];
  std::snprintf(seed, sizeof(seed), "%064llx",
                static_cast<unsigned long long>(number + 1));
  create_request_.set_seed(seed);
}

void Game::Create(v1::RefereeService::Stub* stub) {
  stub_ = stub;
  stub->async()->CreateGame(&create_ctx_, &create_request_, &created_,
                            [this](grpc::Status status) { Created(status); });
}

void Game::Created(const grpc::Status& status) {
  if (!status.ok() || created_.tokens_size() != 2) {
    load_->Error("CreateGame: " + status.error_message() + " (code " +
                 std::to_string(status.error_code()) + ")");
    // Not replaced: a failing referee must not be hammered in a loop.
    load_->GameDone(this, false, false);
    return;
  }
  // Both seats count before either starts, so the game outlives them.
  parts_ = 2;
  if (!load_->MaySeat(this)) {
    // The load stopped meanwhile: abort the game instead of playing it.
    parts_ = 1;
    Abort();
    Release();
    return;
  }
  auto* a = new Seat(load_, this, 0, created_.tokens(0).token());
  auto* b = new Seat(load_, this, 1, created_.tokens(1).token());
  a->Start(stub_);
  b->Start(stub_);
}

void Game::Abort() {
  // Count the call as a part, unless the game has already finished.
  int parts = parts_.load();
  do {
    if (parts == 0) return;
  } while (!parts_.compare_exchange_weak(parts, parts + 1));
  abort_ctx_.AddMetadata("authorization",
                         "Bearer " + load_->options().admin_token);
  abort_ctx_.set_deadline(std::chrono::system_clock::now() +
                          std::chrono::seconds(10));
  abort_request_.set_game_id(created_.game_id());
  abort_request_.set_reason("load test ended");
  stub_->async()->AbortGame(&abort_ctx_, &abort_request_, &aborted_,
                            [this](grpc::Status) { Release(); });
}

void Game::Release() {
  if (parts_.fetch_sub(1) == 1) {
    load_->GameDone(this, all_ok_.load() && seated_, true);
  }
}

// ---- The referee process ----------------------------------------------------

// Starts `path` with `args`, its output going to `log`. -1 on failure.
pid_t Spawn(const std::string& path, const std::vector<std::string>& args,
            const std::string& log) {
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(path.c_str()));
  for (const std::string& a : args)
    argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);  // never outlive the load program
    const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      dup2(fd, STDOUT_FILENO);
      dup2(fd, STDERR_FILENO);
      close(fd);
    }
    execv(path.c_str(), argv.data());
    _exit(127);
  }
  return pid;
}

// SIGTERM, then SIGKILL after `seconds`. The exit status, or -1.
int Terminate(pid_t pid, double seconds) {
  kill(pid, SIGTERM);
  const Clock::time_point until =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(
                         std::chrono::duration<double>(seconds));
  int status = 0;
  while (Clock::now() < until) {
    if (waitpid(pid, &status, WNOHANG) == pid) {
      return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  std::fprintf(stderr, "referee_load: the referee ignored SIGTERM; killing\n");
  kill(pid, SIGKILL);
  waitpid(pid, &status, 0);
  return -1;
}

std::string NewToken() {
  std::random_device random;
  std::string token;
  static constexpr char kHex[] = "0123456789abcdef";
  for (int i = 0; i < 40; ++i) token += kHex[random() % 16];
  return token;
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
      std::error_code ec;
      const std::filesystem::path self =
          std::filesystem::read_symlink("/proc/self/exe", ec);
      referee = (self.parent_path() / ".." / "referee" / "cassino-referee")
                    .lexically_normal()
                    .string();
    }
    if (access(referee.c_str(), X_OK) != 0) {
      std::fprintf(stderr,
                   "referee_load: no referee binary at %s (give --referee)\n",
                   referee.c_str());
      return 2;
    }
    std::string pattern =
        (std::filesystem::temp_directory_path() / "referee_load.XXXXXX")
            .string();
    if (mkdtemp(pattern.data()) == nullptr) {
      std::perror("referee_load: mkdtemp");
      return 2;
    }
    dir = pattern;
    options.admin_token = NewToken();
    const std::string token_file = (dir / "admin_token").string();
    {
      std::ofstream out(token_file);
      out << options.admin_token << "\n";
    }
    chmod(token_file.c_str(), 0600);
    const std::string port_file = (dir / "port").string();
    pid = Spawn(referee,
                {"--listen", "127.0.0.1:0", "--db", (dir / "load.db").string(),
                 "--durability", options.durability, "--admin-token-file",
                 token_file, "--port-file", port_file},
                (dir / "referee.log").string());
    if (pid < 0) {
      std::perror("referee_load: fork");
      return 2;
    }
    own_referee = true;
    int port = 0;
    for (int i = 0; i < 600 && port <= 0; ++i) {  // at most 30 s
      int status = 0;
      if (waitpid(pid, &status, WNOHANG) == pid) {
        std::fprintf(stderr, "referee_load: the referee exited; see %s\n",
                     (dir / "referee.log").c_str());
        return 2;
      }
      std::ifstream in(port_file);
      if (!(in >> port)) port = 0;
      if (port <= 0) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    if (port <= 0) {
      std::fprintf(stderr, "referee_load: the referee did not start\n");
      Terminate(pid, 5);
      return 2;
    }
    address = "127.0.0.1:" + std::to_string(port);
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

  const double referee_cpu0 = pid > 0 ? ProcCpuSeconds(pid) : -1;
  auto load = std::make_unique<Load>(options, address);
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
    s.rss = pid > 0 ? ProcStatusField(pid_text, "VmRSS") : -1;
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
  const double referee_cpu = pid > 0 ? ProcCpuSeconds(pid) - referee_cpu0 : -1;
  const int64_t own_threads = ProcStatusField("self", "Threads");
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const double own_cpu = usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 +
                         usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;

  const bool drained = load->Stop(30);
  const int64_t errors = load->errors();
  const int64_t rss_after = pid > 0 ? ProcStatusField(pid_text, "VmRSS") : -1;

  // The report.
  const Histogram& latency = load->latency();
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
    const int status = Terminate(pid, 15);
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
