// The load programs' client side: see load_client.h.

#include "bench/load_client.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <random>
#include <sstream>
#include <thread>
#include <utility>

#include "grpcpp/grpcpp.h"

namespace cassino::bench {

namespace v1 = ::cassino::v1;

// ---- Histogram
// ----------------------------------------------------------------

void Histogram::Add(Clock::duration d) {
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

double Histogram::PercentileUs(double p) const {
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

// ---- Processes
// ------------------------------------------------------------------

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

double ProcCpuSeconds(pid_t pid) {
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

int64_t ProcContextSwitches(pid_t pid) {
  const std::string process = std::to_string(pid);
  std::error_code ec;
  std::filesystem::directory_iterator tasks("/proc/" + process + "/task", ec);
  if (ec) return -1;
  int64_t total = 0;
  for (const std::filesystem::directory_entry& task : tasks) {
    const std::string thread =
        process + "/task/" + task.path().filename().string();
    for (const char* field :
         {"voluntary_ctxt_switches", "nonvoluntary_ctxt_switches"}) {
      total += std::max<int64_t>(0, ProcStatusField(thread, field));
    }
  }
  return total;
}

double OwnCpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 +
         usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
}

std::string NewToken() {
  std::random_device random;
  std::string token;
  static constexpr char kHex[] = "0123456789abcdef";
  for (int i = 0; i < 40; ++i) token += kHex[random() % 16];
  return token;
}

std::filesystem::path MakeTempDir(const std::string& prefix) {
  std::string pattern =
      (std::filesystem::temp_directory_path() / (prefix + ".XXXXXX")).string();
  if (mkdtemp(pattern.data()) == nullptr) {
    std::perror((prefix + ": mkdtemp").c_str());
    return {};
  }
  return pattern;
}

std::string WriteAdminTokenFile(const std::filesystem::path& dir,
                                const std::string& token) {
  const std::string path = (dir / "admin_token").string();
  {
    std::ofstream out(path);
    out << token << "\n";
  }
  std::filesystem::permissions(path, std::filesystem::perms::owner_read |
                                         std::filesystem::perms::owner_write);
  return path;
}

std::string BesideThisBinary(const std::string& relative) {
  std::error_code ec;
  const std::filesystem::path self =
      std::filesystem::read_symlink("/proc/self/exe", ec);
  return (self.parent_path() / relative).lexically_normal().string();
}

namespace {

// Starts `path` with `args`, its output going to `log`. -1 on failure.
pid_t Spawn(const std::string& path, const std::vector<std::string>& args,
            const std::string& log) {
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(path.c_str()));
  for (const std::string& a : args) {
    argv.push_back(const_cast<char*>(a.c_str()));
  }
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

}  // namespace

bool StartServer(const std::string& path, std::vector<std::string> args,
                 const std::filesystem::path& dir, const std::string& log,
                 ServerProcess* out) {
  if (access(path.c_str(), X_OK) != 0) {
    std::fprintf(stderr, "no server binary at %s\n", path.c_str());
    return false;
  }
  const std::string port_file =
      (dir / ("port." + std::to_string(std::random_device()()))).string();
  args.push_back("--port-file");
  args.push_back(port_file);
  const pid_t pid = Spawn(path, args, log);
  if (pid < 0) {
    std::perror("fork");
    return false;
  }
  int port = 0;
  for (int i = 0; i < 600 && port <= 0; ++i) {  // at most 30 s
    int status = 0;
    if (waitpid(pid, &status, WNOHANG) == pid) {
      std::fprintf(stderr, "%s exited at start; see %s\n", path.c_str(),
                   log.c_str());
      return false;
    }
    std::ifstream in(port_file);
    if (!(in >> port)) port = 0;
    if (port <= 0) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  std::error_code ec;
  std::filesystem::remove(port_file, ec);
  if (port <= 0) {
    std::fprintf(stderr, "%s did not start; see %s\n", path.c_str(),
                 log.c_str());
    Terminate(pid, 5);
    return false;
  }
  out->pid = pid;
  out->address = "127.0.0.1:" + std::to_string(port);
  return true;
}

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
  std::fprintf(stderr, "process %d ignored SIGTERM; killing\n",
               static_cast<int>(pid));
  kill(pid, SIGKILL);
  waitpid(pid, &status, 0);
  return -1;
}

// ---- The referee load
// -------------------------------------------------------------

// One seat's Play stream. Deletes itself in OnDone.
class RefereeSeat final
    : public grpc::ClientBidiReactor<v1::PlayRequest, v1::PlayResponse> {
 public:
  RefereeSeat(RefereeLoad* load, RefereeGame* game, int seat,
              const std::string& token)
      : load_(load), game_(game), seat_(seat) {
    ctx_.AddMetadata("authorization", "Bearer " + token);
    ctx_.AddMetadata("cassino-play-mode",
                     load->options().compact ? "compact" : "full");
  }
  void Start(v1::RefereeService::Stub* stub);
  void Cancel() { ctx_.TryCancel(); }

  void OnReadDone(bool ok) override;
  void OnWriteDone(bool ok) override;
  void OnDone(const grpc::Status& status) override;

 private:
  void Write(v1::PlayRequest request);

  RefereeLoad* const load_;
  RefereeGame* const game_;
  const int seat_;
  grpc::ClientContext ctx_;
  v1::PlayResponse in_;  // only touched by the read chain

  absl::Mutex mu_;
  v1::PlayRequest out_;  // owned by gRPC between StartWrite and OnWriteDone
  bool writing_ ABSL_GUARDED_BY(mu_) = false;
  // A move waiting for the write in flight.
  std::optional<v1::PlayRequest> pending_ ABSL_GUARDED_BY(mu_);
  bool ended_ ABSL_GUARDED_BY(mu_) = false;  // GameEnded was read
  bool writes_done_ ABSL_GUARDED_BY(mu_) = false;
  Clock::time_point sent_ ABSL_GUARDED_BY(mu_){};  // the last move written
  bool awaiting_verdict_ ABSL_GUARDED_BY(mu_) = false;
};

// One game: CreateGame, then two seats (or, when the load stopped in
// between, an AbortGame). Deleted by RefereeLoad::GameDone once every call
// it started has finished.
class RefereeGame {
 public:
  RefereeGame(RefereeLoad* load, int64_t number);
  void Create(v1::RefereeService::Stub* stub);
  // A seat's stream has ended.
  void SeatDone(bool ok) {
    if (!ok) all_ok_ = false;
    Release();
  }
  // Sends AbortGame if the game still runs.
  void Abort();
  void CancelCreate() { create_ctx_.TryCancel(); }
  bool seated() const { return seated_.load(); }
  void set_seated() { seated_ = true; }

 private:
  void Created(const grpc::Status& status);
  void Release();

  RefereeLoad* const load_;
  v1::RefereeService::Stub* stub_ = nullptr;
  grpc::ClientContext create_ctx_;
  v1::CreateGameRequest create_request_;
  v1::CreateGameResponse created_;
  // Calls in flight that the game must outlive (seat streams, AbortGame).
  std::atomic<int> parts_{0};
  std::atomic<bool> all_ok_{true};
  std::atomic<bool> seated_{false};
  grpc::ClientContext abort_ctx_;
  v1::AbortGameRequest abort_request_;
  v1::AbortGameResponse aborted_;
};

RefereeLoad::RefereeLoad(const RefereeLoadOptions& options,
                         const std::string& address)
    : options_(options) {
  for (int i = 0; i < options.channels; ++i) {
    grpc::ChannelArguments args;
    // Distinct arguments and a local pool: one TCP connection per channel.
    args.SetInt("cassino.load.channel", i);
    args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
    stubs_.push_back(v1::RefereeService::NewStub(grpc::CreateCustomChannel(
        address, grpc::InsecureChannelCredentials(), args)));
  }
}

RefereeLoad::~RefereeLoad() = default;

void RefereeLoad::StartAll() {
  for (int i = 0; i < options_.games; ++i) StartGame();
}

void RefereeLoad::StartGame() {
  const int64_t number = started_.fetch_add(1);
  auto* game = new RefereeGame(this, number);
  {
    absl::MutexLock lock(&mu_);
    if (stopping()) {
      delete game;
      return;
    }
    games_.insert(game);
  }
  game->Create(stubs_[static_cast<size_t>(number) % stubs_.size()].get());
}

bool RefereeLoad::MaySeat(RefereeGame* game) {
  absl::MutexLock lock(&mu_);
  if (stopping()) return false;
  game->set_seated();
  return true;
}

void RefereeLoad::GameDone(RefereeGame* game, bool completed, bool replace) {
  if (completed && !stopping()) {
    completed_.fetch_add(1, std::memory_order_relaxed);
  }
  RefereeGame* next = nullptr;
  size_t number = 0;
  {
    absl::MutexLock lock(&mu_);
    // The replacement joins before this game leaves: while games_ is not
    // empty Stop() waits, so this object outlives the rest of the call
    // (touching it after the last game left would race its destruction).
    if (replace && !stopping()) {
      number = static_cast<size_t>(started_.fetch_add(1));
      next = new RefereeGame(this, static_cast<int64_t>(number));
      games_.insert(next);
    }
    games_.erase(game);
    delete game;
  }
  if (next != nullptr) next->Create(stubs_[number % stubs_.size()].get());
}

void RefereeLoad::AddSeat(RefereeSeat* seat) {
  absl::MutexLock lock(&mu_);
  seats_.insert(seat);
}

void RefereeLoad::RemoveSeat(RefereeSeat* seat) {
  absl::MutexLock lock(&mu_);
  seats_.erase(seat);
}

bool RefereeLoad::Stop(double grace_seconds) {
  absl::MutexLock lock(&mu_);
  stopping_.store(true, std::memory_order_release);
  for (RefereeGame* g : games_) {
    if (g->seated()) g->Abort();
  }
  const absl::Condition all_ended(this, &RefereeLoad::NoGames);
  if (mu_.AwaitWithTimeout(all_ended, absl::Seconds(grace_seconds))) {
    return true;
  }
  std::fprintf(stderr,
               "%zu game(s) did not end after AbortGame; cancelling their "
               "calls\n",
               games_.size());
  for (RefereeSeat* s : seats_) s->Cancel();
  for (RefereeGame* g : games_) g->CancelCreate();
  return mu_.AwaitWithTimeout(all_ended, absl::Seconds(10));
}

void RefereeLoad::Error(const std::string& what) {
  if (stopping()) return;  // the expected consequences of aborting
  const int64_t n = errors_.fetch_add(1) + 1;
  if (n <= 10) std::fprintf(stderr, "error: %s\n", what.c_str());
}

void RefereeLoad::Moved(Clock::duration round_trip) {
  if (stopping() || !measuring_.load(std::memory_order_acquire)) return;
  moves_.fetch_add(1, std::memory_order_relaxed);
  latency_.Add(round_trip);
}

void RefereeSeat::Start(v1::RefereeService::Stub* stub) {
  load_->AddSeat(this);
  stub->async()->Play(&ctx_, this);
  StartRead(&in_);
  StartCall();
}

void RefereeSeat::OnReadDone(bool ok) {
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
        absl::MutexLock lock(&mu_);
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
        load_->Error("seat " + std::to_string(seat_) +
                     " forfeited: " + result.detail());
      }
      bool close = false;
      {
        absl::MutexLock lock(&mu_);
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

void RefereeSeat::Write(v1::PlayRequest request) {
  {
    absl::MutexLock lock(&mu_);
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

void RefereeSeat::OnWriteDone(bool ok) {
  bool write = false, close = false;
  {
    absl::MutexLock lock(&mu_);
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

void RefereeSeat::OnDone(const grpc::Status& status) {
  bool ended;
  {
    absl::MutexLock lock(&mu_);
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
  RefereeGame* game = game_;
  const bool ok = status.ok() && ended;
  delete this;
  game->SeatDone(ok);
}

RefereeGame::RefereeGame(RefereeLoad* load, int64_t number) : load_(load) {
  const RefereeLoadOptions& o = load->options();
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

void RefereeGame::Create(v1::RefereeService::Stub* stub) {
  stub_ = stub;
  stub->async()->CreateGame(&create_ctx_, &create_request_, &created_,
                            [this](grpc::Status status) { Created(status); });
}

void RefereeGame::Created(const grpc::Status& status) {
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
  auto* a = new RefereeSeat(load_, this, 0, created_.tokens(0).token());
  auto* b = new RefereeSeat(load_, this, 1, created_.tokens(1).token());
  a->Start(stub_);
  b->Start(stub_);
}

void RefereeGame::Abort() {
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

void RefereeGame::Release() {
  if (parts_.fetch_sub(1) == 1) {
    load_->GameDone(this, all_ok_.load() && seated(), true);
  }
}

// ---- The echo load
// ----------------------------------------------------------------

// One echo stream: write, read the echo, write again, until the load
// stops; then it cancels itself. Deletes itself in OnDone.
class EchoStream final
    : public grpc::ClientBidiReactor<EchoMessage, EchoMessage> {
 public:
  EchoStream(EchoLoad* load, const std::string& payload) : load_(load) {
    out_.set_payload(payload);
  }
  void Start(EchoService::Stub* stub) {
    stub->async()->Echo(&ctx_, this);
    StartRead(&in_);
    {
      absl::MutexLock lock(&mu_);
      writing_ = true;
      sent_ = Clock::now();
    }
    StartWrite(&out_);
    StartCall();
  }
  // The read of an echo may complete before the write that caused it is
  // reported done: the next write then waits for OnWriteDone (gRPC allows
  // one write in flight).
  void OnWriteDone(bool ok) override {
    bool again;
    {
      absl::MutexLock lock(&mu_);
      again = ok && want_write_;
      want_write_ = false;
      writing_ = again;
      if (again) sent_ = Clock::now();
    }
    if (again) StartWrite(&out_);
  }
  void OnReadDone(bool ok) override {
    if (!ok) return;  // OnDone follows
    bool write_now;
    Clock::duration round_trip;
    {
      absl::MutexLock lock(&mu_);
      round_trip = Clock::now() - sent_;
      write_now = !writing_;
      if (write_now) {
        writing_ = true;
        sent_ = Clock::now();
      } else {
        want_write_ = true;
      }
    }
    load_->Echoed(round_trip);
    if (load_->stopping_.load(std::memory_order_acquire)) {
      ctx_.TryCancel();
      return;
    }
    StartRead(&in_);
    if (write_now) StartWrite(&out_);
  }
  void OnDone(const grpc::Status& status) override {
    EchoLoad* load = load_;
    const bool stopping = load->stopping_.load();
    const bool ok = status.ok() || stopping;
    if (!ok) {
      std::fprintf(stderr, "error: Echo: %s (code %d)\n",
                   status.error_message().c_str(),
                   static_cast<int>(status.error_code()));
    }
    delete this;
    load->StreamDone(ok);
  }

 private:
  EchoLoad* const load_;
  grpc::ClientContext ctx_;
  EchoMessage out_;  // the same message every time
  EchoMessage in_;
  absl::Mutex mu_;
  bool writing_ ABSL_GUARDED_BY(mu_) = false;
  bool want_write_ ABSL_GUARDED_BY(mu_) = false;
  Clock::time_point sent_ ABSL_GUARDED_BY(mu_);
};

EchoLoad::EchoLoad(int streams, int payload_bytes, int channels,
                   const std::string& address)
    : streams_(streams), payload_(static_cast<size_t>(payload_bytes), 'x') {
  for (int i = 0; i < channels; ++i) {
    grpc::ChannelArguments args;
    args.SetInt("cassino.load.channel", i);
    args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
    stubs_.push_back(EchoService::NewStub(grpc::CreateCustomChannel(
        address, grpc::InsecureChannelCredentials(), args)));
  }
}

EchoLoad::~EchoLoad() = default;

void EchoLoad::StartAll() {
  for (int i = 0; i < streams_; ++i) {
    auto* stream = new EchoStream(this, payload_);
    {
      absl::MutexLock lock(&mu_);
      ++live_;
    }
    stream->Start(stubs_[static_cast<size_t>(i) % stubs_.size()].get());
  }
}

void EchoLoad::Echoed(Clock::duration round_trip) {
  if (stopping_.load(std::memory_order_acquire) ||
      !measuring_.load(std::memory_order_acquire)) {
    return;
  }
  round_trips_.fetch_add(1, std::memory_order_relaxed);
  latency_.Add(round_trip);
}

void EchoLoad::StreamDone(bool ok) {
  if (!ok) errors_.fetch_add(1);
  absl::MutexLock lock(&mu_);
  --live_;
}

bool EchoLoad::Stop(double grace_seconds) {
  stopping_.store(true, std::memory_order_release);
  absl::MutexLock lock(&mu_);
  return mu_.AwaitWithTimeout(absl::Condition(this, &EchoLoad::NoStreams),
                              absl::Seconds(grace_seconds));
}

}  // namespace cassino::bench
