// The referee as a server strangers connect to (issue #22, A1 and A2): a
// child cassino-referee on loopback, and clients that misbehave at the
// transport level: silent TCP connections, a descriptor flood, HTTP/2
// rapid reset, and the recommended front proxy (HAProxy) in front of it.
// Every count and wait is bounded.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "cassino/v1/referee_service.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "tests/child_process.h"
#include "tests/referee/test_referee.h"
#include "tests/sanitizers.h"

namespace cassino::testing {
namespace {

namespace v1 = ::cassino::v1;
using Clock = std::chrono::steady_clock;

// Under AddressSanitizer everything is several times slower and larger:
// the timing bounds and flood sizes below scale for it (kSanitized).

std::filesystem::path FreshDir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::filesystem::path dir = std::filesystem::temp_directory_path() /
                              (std::string("cassino_edge_") + info->name() +
                               "_" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "admin_token") << kAdminToken << "\n";
  return ::cassino::testing::RemoveAtTestEnd(dir);
}

// A cassino-referee child with extra flags; with `nofile` > 0 its
// descriptor limits are set first (soft `nofile`, hard `nofile_hard`).
class ChildReferee {
 public:
  ChildReferee(const std::filesystem::path& dir,
               const std::vector<std::string>& flags, int nofile = 0,
               int nofile_hard = 0)
      : log_(dir / "referee.log"), port_file_(dir / "referee.port") {
    std::filesystem::remove(port_file_);
    std::string cmd;
    if (nofile > 0) {
      cmd = "ulimit -Sn " + std::to_string(nofile) + " && ulimit -Hn " +
            std::to_string(nofile_hard) + " && ";
    }
    cmd += std::string("exec ") + CASSINO_REFEREE_BINARY +
           " --listen 127.0.0.1:0 --db " + (dir / "cassino.db").string() +
           " --admin-token-file " + (dir / "admin_token").string() +
           " --port-file " + port_file_.string();
    for (const std::string& f : flags) cmd += " " + f;
    pid_ = Spawn({"/bin/sh", "-c", cmd}, log_);
    const auto until = Clock::now() + milliseconds(20000);
    while (Clock::now() < until && pid_ > 0) {
      const std::string text = ReadText(port_file_);
      if (!text.empty() && text.back() == '\n') {
        port_ = std::atoi(text.c_str());
        break;
      }
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        break;
      }
      std::this_thread::sleep_for(milliseconds(10));
    }
    if (port_ != 0) {
      channel_ =
          grpc::CreateChannel(Address(), grpc::InsecureChannelCredentials());
      stub_ = v1::RefereeService::NewStub(channel_);
    }
  }
  ~ChildReferee() { TerminateAndReap(&pid_); }

  // Waits up to `timeout` for the referee to exit by itself: its exit
  // status, or -1 if it did not.
  int WaitExit(milliseconds timeout) {
    int status = 0;
    if (pid_ <= 0 || !WaitFor(pid_, timeout, &status)) return -1;
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

  int port() const { return port_; }
  pid_t pid() const { return pid_; }
  std::string Address() const { return "127.0.0.1:" + std::to_string(port_); }
  std::string Log() const { return Tail(log_); }
  v1::RefereeService::Stub& stub() { return *stub_; }

  // The referee's resident memory, kB (from /proc).
  long RssKb() const {
    std::ifstream in("/proc/" + std::to_string(pid_) + "/status");
    std::string line;
    while (std::getline(in, line)) {
      if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
    }
    return -1;
  }

 private:
  std::filesystem::path log_, port_file_;
  pid_t pid_ = -1;
  int port_ = 0;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::RefereeService::Stub> stub_;
};

// An organiser call on a fresh connection (its own channel), with a
// deadline: OK if the referee serves new clients.
grpc::Status FreshClientCall(const std::string& address, int timeout_ms) {
  grpc::ChannelArguments args;
  args.SetInt("grpc.use_local_subchannel_pool", 1);  // a new connection
  auto channel = grpc::CreateCustomChannel(
      address, grpc::InsecureChannelCredentials(), args);
  auto stub = v1::RefereeService::NewStub(channel);
  v1::ListGamesRequest req;
  v1::ListGamesResponse resp;
  return stub->ListGames(TestReferee::Context(kAdminToken, timeout_ms).get(),
                         req, &resp);
}

// A TCP connection to loopback `port` that sends nothing; -1 on failure.
int SilentConnection(int port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return -1;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(port));
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

// True once the peer has closed `fd` (read gives 0 or an error) within
// `timeout`; bytes the server sends first (its SETTINGS) are skipped.
bool ClosedByPeer(int fd, milliseconds timeout) {
  const auto until = Clock::now() + timeout;
  char buf[4096];
  while (Clock::now() < until) {
    pollfd p{fd, POLLIN, 0};
    const int left = static_cast<int>(
        std::chrono::duration_cast<milliseconds>(until - Clock::now()).count());
    if (poll(&p, 1, std::max(left, 1)) <= 0) continue;
    const ssize_t n = read(fd, buf, sizeof(buf));
    if (n <= 0) return true;  // EOF or ECONNRESET
  }
  return false;
}

// Raises this test process's own descriptor limit (it opens many sockets).
void RaiseOwnLimit() {
  rlimit r{};
  getrlimit(RLIMIT_NOFILE, &r);
  r.rlim_cur = r.rlim_max;
  setrlimit(RLIMIT_NOFILE, &r);
}

// A2: silent TCP connections (no TLS, no HTTP/2 preface) are closed by the
// referee after --handshake-timeout-ms, so their descriptors come back;
// before, gRPC's default of 120 s kept them (the outside test saw 3,000
// still open after 130 s). A normal call is served meanwhile and after.
TEST(EdgeTest, SilentConnectionsAreClosedByTheHandshakeTimeout) {
  const auto dir = FreshDir();
  ChildReferee referee(dir, {"--handshake-timeout-ms", "1000"});
  ASSERT_NE(referee.port(), 0) << referee.Log();
  constexpr int kSilent = 200;
  std::vector<int> fds;
  for (int i = 0; i < kSilent; ++i) {
    const int fd = SilentConnection(referee.port());
    ASSERT_GE(fd, 0) << "connection " << i;
    fds.push_back(fd);
  }
  const auto start = Clock::now();
  EXPECT_TRUE(FreshClientCall(referee.Address(), 5000).ok());
  int closed = 0;
  for (int fd : fds) {
    // 1 s timeout; 5 s is the bound, for a loaded machine.
    const auto left = std::chrono::duration_cast<milliseconds>(
        milliseconds(5000) - (Clock::now() - start));
    if (ClosedByPeer(fd, std::max(left, milliseconds(1)))) {
      ++closed;
    }
    close(fd);
  }
  const double took_s =
      std::chrono::duration<double>(Clock::now() - start).count();
  std::printf(
      "[ figures  ] %d of %d silent connections closed by the "
      "referee in %.1f s (handshake timeout 1 s)\n",
      closed, kSilent, took_s);
  EXPECT_EQ(closed, kSilent) << referee.Log();
  const grpc::Status after = FreshClientCall(referee.Address(), 5000);
  EXPECT_TRUE(after.ok()) << after.error_message();
}

// A2: a referee started with a low soft descriptor limit (256, as a shell's
// `ulimit -n` may leave it) raises it to the hard limit (4096) at start, so
// a flood of 400 silent connections does not exhaust it; the flood is
// closed by the handshake timeout and a new client is served at once.
// Before, accept4 failed with EMFILE at ~250 connections and gRPC 1.51's
// listener stopped accepting for good (a new client timed out until the
// referee was restarted; see docs/deployment.md for the hard limit itself).
TEST(EdgeTest, ADescriptorFloodLeavesTheRefereeServing) {
  RaiseOwnLimit();
  const auto dir = FreshDir();
  ChildReferee referee(dir, {"--handshake-timeout-ms", "1000"}, 256, 4096);
  ASSERT_NE(referee.port(), 0) << referee.Log();
  constexpr int kFlood = 400;
  std::vector<int> fds;
  for (int i = 0; i < kFlood; ++i) {
    const int fd = SilentConnection(referee.port());
    if (fd >= 0) fds.push_back(fd);
  }
  EXPECT_EQ(static_cast<int>(fds.size()), kFlood);
  // While the flood is open, and once it has been closed.
  const auto start = Clock::now();
  const grpc::Status during = FreshClientCall(referee.Address(), 5000);
  EXPECT_TRUE(during.ok()) << during.error_message() << "\n" << referee.Log();
  for (int fd : fds) close(fd);
  const grpc::Status after = FreshClientCall(referee.Address(), 5000);
  const double took_s =
      std::chrono::duration<double>(Clock::now() - start).count();
  EXPECT_TRUE(after.ok()) << after.error_message() << "\n" << referee.Log();
  std::printf(
      "[ figures  ] %d silent connections against a soft limit of "
      "256: new clients served within %.1f s\n",
      kFlood, took_s);
  EXPECT_NE(referee.Log().find("descriptor limit raised from 256 to the hard "
                               "limit 4096"),
            std::string::npos)
      << referee.Log();
  EXPECT_EQ(referee.Log().find("Too many open files"), std::string::npos)
      << referee.Log();
}

// A2 at the hard limit itself (soft = hard = 256: nothing to raise): a
// flood of 400 silent connections makes accept4 fail with EMFILE, after
// which gRPC 1.51's listener never accepts again, even once every
// connection is closed (the outside test: new clients timed out until a
// restart). The referee notices (--listener-check-ms), stops gracefully
// and exits with status 75 for its supervisor to restart it; restarted,
// it serves new clients at once. Before, it ran on, serving nobody.
TEST(EdgeTest, ADeadListenerStopsTheRefereeForARestart) {
  if (kSanitized) {
    // Out of descriptors, the sanitized referee cannot run its own
    // runtime (the symbolizer needs a socket pair), and UBSan's vptr check
    // misfires inside the uninstrumented gRPC on the accept4 failure path.
    // The plain build (the gcc pass of CI) runs this test.
    GTEST_SKIP() << "descriptor exhaustion is tested in the plain build";
  }
  RaiseOwnLimit();
  const auto dir = FreshDir();
  {
    ChildReferee referee(
        dir, {"--handshake-timeout-ms", "1000", "--listener-check-ms", "300"},
        256, 256);
    ASSERT_NE(referee.port(), 0) << referee.Log();
    std::vector<int> fds;
    for (int i = 0; i < 400; ++i) {
      const int fd = SilentConnection(referee.port());
      if (fd >= 0) fds.push_back(fd);
    }
    std::this_thread::sleep_for(milliseconds(500));
    for (int fd : fds) close(fd);
    const auto start = Clock::now();
    const int status = referee.WaitExit(milliseconds(20000));
    const double took_s =
        std::chrono::duration<double>(Clock::now() - start).count();
    EXPECT_EQ(status, 75) << referee.Log();
    EXPECT_NE(referee.Log().find("no longer accepts connections"),
              std::string::npos)
        << referee.Log();
    std::printf(
        "[ figures  ] a listener dead after EMFILE: the referee "
        "stopped for a restart %.1f s after the flood ended\n",
        took_s);
  }
  ChildReferee restarted(dir, {});
  ASSERT_NE(restarted.port(), 0) << restarted.Log();
  EXPECT_TRUE(FreshClientCall(restarted.Address(), 5000).ok());
}

// A2: an HTTP/2 connection that completed its handshake but opens no call
// is closed after --max-connection-idle-ms (GOAWAY, then the connection
// ends); before, idle connections were never closed (the outside test:
// 3,000 still open after 130 s). A connection with an open call is not
// idle: a spectator's WatchGame stream, quiet for three idle periods,
// still receives the next move.
TEST(EdgeTest, IdleConnectionsAreClosedButOpenStreamsAreNot) {
  const auto dir = FreshDir();
  ChildReferee referee(dir, {"--max-connection-idle-ms", "1000"});
  ASSERT_NE(referee.port(), 0) << referee.Log();
  // Idle: preface, SETTINGS and its ACK, then nothing.
  std::vector<int> idle;
  for (int i = 0; i < 20; ++i) {
    const int fd = SilentConnection(referee.port());
    ASSERT_GE(fd, 0);
    static constexpr char kHello[] =
        "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
        "\0\0\0\x04\0\0\0\0\0"
        "\0\0\0\x04\x01\0\0\0\0";
    ASSERT_EQ(send(fd, kHello, sizeof(kHello) - 1, MSG_NOSIGNAL),
              static_cast<ssize_t>(sizeof(kHello) - 1));
    idle.push_back(fd);
  }
  // A spectator on its own connection.
  v1::CreateGameRequest create;
  create.add_seats()->set_bot_name("a");
  create.add_seats()->set_bot_name("b");
  create.mutable_clock()->set_per_move_ms(60000);
  v1::CreateGameResponse game;
  ASSERT_TRUE(
      referee.stub()
          .CreateGame(TestReferee::Context(kAdminToken).get(), create, &game)
          .ok());
  grpc::ChannelArguments args;
  args.SetInt("grpc.use_local_subchannel_pool", 1);
  auto watch_channel = grpc::CreateCustomChannel(
      referee.Address(), grpc::InsecureChannelCredentials(), args);
  auto watch_stub = v1::RefereeService::NewStub(watch_channel);
  auto watch_ctx = TestReferee::Context("", 30000);
  v1::WatchGameRequest watch_req;
  watch_req.set_game_id(game.game_id());
  auto watcher = watch_stub->WatchGame(watch_ctx.get(), watch_req);
  v1::WatchGameResponse event;
  ASSERT_TRUE(watcher->Read(&event));  // game_started (and the deal)
  const auto start = Clock::now();
  int closed = 0;
  for (int fd : idle) {
    const auto left = std::chrono::duration_cast<milliseconds>(
        milliseconds(6000) - (Clock::now() - start));
    if (ClosedByPeer(fd, std::max(left, milliseconds(1)))) ++closed;
    close(fd);
  }
  const double took_s =
      std::chrono::duration<double>(Clock::now() - start).count();
  std::printf(
      "[ figures  ] %d of 20 idle HTTP/2 connections closed in %.1f "
      "s (idle limit 1 s)\n",
      closed, took_s);
  EXPECT_EQ(closed, 20);
  std::this_thread::sleep_for(milliseconds(3000) - (Clock::now() - start));
  // The spectator's connection is still there: the next move reaches it.
  const int seat = 0;
  v1::GetTurnRequest turn_req;
  turn_req.set_game_id(game.game_id());
  v1::GetTurnResponse turn;
  ASSERT_TRUE(
      referee.stub()
          .GetTurn(TestReferee::Context(game.tokens(seat).token()).get(),
                   turn_req, &turn)
          .ok());
  const int to_move = turn.your_turn() ? seat : 1 - seat;
  turn_req.set_wait(true);
  ASSERT_TRUE(
      referee.stub()
          .GetTurn(TestReferee::Context(game.tokens(to_move).token()).get(),
                   turn_req, &turn)
          .ok());
  ASSERT_TRUE(turn.your_turn());
  v1::SubmitMoveRequest sub;
  sub.set_game_id(game.game_id());
  sub.set_turn(turn.turn().turn());
  *sub.mutable_move() = turn.turn().legal_moves(0);
  v1::SubmitMoveResponse resp;
  ASSERT_TRUE(
      referee.stub()
          .SubmitMove(TestReferee::Context(game.tokens(to_move).token()).get(),
                      sub, &resp)
          .ok());
  bool saw_move = false;
  while (!saw_move && watcher->Read(&event)) {
    saw_move = event.has_move_played();
  }
  EXPECT_TRUE(saw_move) << "the spectator's stream was cut";
  watch_ctx->TryCancel();
  watcher->Finish();
}

// HTTP/2 by hand, for what no gRPC client does on purpose: a connection
// that opens streams and resets each at once (CVE-2023-44487, "rapid
// reset"). Frames are written as they are; what the server sends back is
// read and dropped on another thread.
class RawH2 {
 public:
  explicit RawH2(int port) : fd_(SilentConnection(port)) {
    if (fd_ < 0) return;
    const int one = 1;
    setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    std::string out = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
    Frame(&out, 4, 0, 0, "");  // SETTINGS
    Frame(&out, 4, 1, 0, "");  // ACK of the server's
    // A large connection window, so the server is never held up by us.
    Frame(&out, 8, 0, 0, std::string("\x7f\x00\x00\x00", 4));
    Write(out);
    reader_ = std::thread([this] {
      char buf[65536];
      while (read(fd_, buf, sizeof(buf)) > 0) {
      }
    });
  }
  ~RawH2() {
    if (fd_ >= 0) shutdown(fd_, SHUT_RDWR);
    if (reader_.joinable()) reader_.join();
    if (fd_ >= 0) close(fd_);
  }
  bool ok() const { return fd_ >= 0 && !failed_; }

  // HEADERS for a POST to `path` on a new stream, then RST_STREAM(CANCEL),
  // `n` times, written in batches.
  void OpenAndReset(const std::string& path, const std::string& authority,
                    int n) {
    std::string block;
    block += '\x83';  // :method POST
    block += '\x86';  // :scheme http
    block += '\x04';  // :path, literal without indexing
    block += static_cast<char>(path.size());
    block += path;
    block += '\x01';  // :authority
    block += static_cast<char>(authority.size());
    block += authority;
    block += "\x0f\x10";  // content-type (static index 31)
    block += static_cast<char>(16);
    block += "application/grpc";
    block += '\x00';  // te: trailers (literal name)
    block += "\x02te\x08trailers";
    std::string out;
    for (int i = 0; i < n; ++i) {
      Frame(&out, 1, 0x4, next_stream_, block);  // HEADERS, END_HEADERS
      Frame(&out, 3, 0, next_stream_, std::string("\x00\x00\x00\x08", 4));
      next_stream_ += 2;
      if (out.size() > 64 * 1024) {
        Write(out);
        out.clear();
      }
    }
    Write(out);
  }

 private:
  static void Frame(std::string* out, int type, int flags, uint32_t stream,
                    const std::string& payload) {
    const uint32_t len = static_cast<uint32_t>(payload.size());
    out->push_back(static_cast<char>(len >> 16));
    out->push_back(static_cast<char>(len >> 8));
    out->push_back(static_cast<char>(len));
    out->push_back(static_cast<char>(type));
    out->push_back(static_cast<char>(flags));
    out->push_back(static_cast<char>((stream >> 24) & 0x7f));
    out->push_back(static_cast<char>(stream >> 16));
    out->push_back(static_cast<char>(stream >> 8));
    out->push_back(static_cast<char>(stream));
    *out += payload;
  }
  void Write(const std::string& data) {
    size_t done = 0;
    while (done < data.size() && !failed_) {
      const ssize_t n =
          send(fd_, data.data() + done, data.size() - done, MSG_NOSIGNAL);
      if (n <= 0) {
        failed_ = true;  // the server closed the connection
        return;
      }
      done += static_cast<size_t>(n);
    }
  }

  int fd_ = -1;
  uint32_t next_stream_ = 1;
  bool failed_ = false;
  std::thread reader_;
};

// A flood of rapid resets: `connections` connections each open and reset
// `streams` streams on `flood_port`, while a seat of an unrelated game on
// `referee` (directly) keeps asking for its turn. What the referee's
// memory and that seat's calls did.
struct FloodFigures {
  long rss_before_kb = 0, rss_peak_kb = 0, rss_after_kb = 0;
  double seconds = 0, median_ms = 0, worst_ms = 0;
  size_t calls = 0;
  int failed_calls = 0;
  std::string Text(int streams) const {
    char buf[400];
    std::snprintf(buf, sizeof(buf),
                  "%d streams in %.1f s: referee RSS %ld -> peak %ld -> %ld "
                  "kB; unrelated GetTurn: %zu calls, median %.1f ms, worst "
                  "%.1f ms, %d failed",
                  streams, seconds, rss_before_kb, rss_peak_kb, rss_after_kb,
                  calls, median_ms, worst_ms, failed_calls);
    return buf;
  }
};

FloodFigures RapidResetFlood(ChildReferee& referee, int flood_port,
                             int connections, int streams) {
  FloodFigures f;
  v1::CreateGameRequest create;
  create.add_seats()->set_bot_name("a");
  create.add_seats()->set_bot_name("b");
  create.mutable_clock()->set_per_move_ms(600000);
  v1::CreateGameResponse game;
  EXPECT_TRUE(
      referee.stub()
          .CreateGame(TestReferee::Context(kAdminToken).get(), create, &game)
          .ok());
  if (game.tokens_size() != 2) return f;
  f.rss_before_kb = referee.RssKb();
  std::atomic<bool> done{false};
  std::atomic<long> peak{f.rss_before_kb};
  std::vector<double> latencies_ms;
  std::thread probe([&] {
    while (!done.load()) {
      v1::GetTurnRequest req;
      req.set_game_id(game.game_id());
      v1::GetTurnResponse resp;
      const auto start = Clock::now();
      const grpc::Status s = referee.stub().GetTurn(
          TestReferee::Context(game.tokens(0).token(), 20000).get(), req,
          &resp);
      latencies_ms.push_back(
          std::chrono::duration<double, std::milli>(Clock::now() - start)
              .count());
      if (!s.ok()) ++f.failed_calls;
      const long rss = referee.RssKb();
      if (rss > peak.load()) peak = rss;
      std::this_thread::sleep_for(milliseconds(20));
    }
  });
  const auto start = Clock::now();
  {
    std::vector<std::thread> attackers;
    for (int c = 0; c < connections; ++c) {
      attackers.emplace_back([&] {
        RawH2 h2(flood_port);
        h2.OpenAndReset("/cassino.v1.RefereeService/ListGames",
                        "127.0.0.1:" + std::to_string(flood_port), streams);
        // The connection stays open while the server works through them.
        std::this_thread::sleep_for(milliseconds(1500));
      });
    }
    for (auto& t : attackers) t.join();
  }
  f.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  std::this_thread::sleep_for(milliseconds(500));
  done = true;
  probe.join();
  f.rss_peak_kb = peak.load();
  f.rss_after_kb = referee.RssKb();
  std::sort(latencies_ms.begin(), latencies_ms.end());
  f.calls = latencies_ms.size();
  if (!latencies_ms.empty()) {
    f.median_ms = latencies_ms[latencies_ms.size() / 2];
    f.worst_ms = latencies_ms.back();
  }
  return f;
}

// A1, the referee alone: 20,000 streams opened and reset at once on two
// connections without credentials. gRPC 1.51 has no mitigation (see
// docs/referee.md, "Limits"), and the memory quota does not bound the
// calls it queues: this measures and prints what happens (the outside
// test: 27 -> 392 MB, an unrelated move waiting 4.2 s) and checks only
// that the referee survives it and serves new clients afterwards. The
// bound comes from the front proxy: RapidResetThroughHaproxyIsBounded.
TEST(EdgeTest, RapidResetDirectIsSurvived) {
  const auto dir = FreshDir();
  ChildReferee referee(dir, {});
  ASSERT_NE(referee.port(), 0) << referee.Log();
  const int streams = kSanitized ? 2500 : 10000;
  const FloodFigures f = RapidResetFlood(referee, referee.port(), 2, streams);
  std::printf("[ figures  ] rapid reset on the referee itself, %s\n",
              f.Text(2 * streams).c_str());
  EXPECT_EQ(f.failed_calls, 0);
  EXPECT_TRUE(FreshClientCall(referee.Address(), 10000).ok()) << referee.Log();
}

// The recommended front proxy (deploy/haproxy/haproxy.cfg, run as it is):
// HAProxy on loopback in front of a referee. Skipped, saying so, when
// haproxy is not installed (scripts/lib.sh installs it).
class Haproxy {
 public:
  Haproxy(const std::filesystem::path& dir, int referee_port)
      : log_(dir / "haproxy.log") {
    port_ = PickFreePort(static_cast<uint64_t>(getpid()) * 7919 +
                         static_cast<uint64_t>(referee_port));
    const std::string front = "127.0.0.1:" + std::to_string(port_);
    const std::string back = "127.0.0.1:" + std::to_string(referee_port);
    setenv("CASSINO_FRONT", front.c_str(), 1);
    setenv("CASSINO_REFEREE", back.c_str(), 1);
    // (HAProxy needs about two descriptors per connection; the default of
    // 10000 needs a hard limit above 20000.)
    setenv("CASSINO_MAXCONN", "2000", 1);
    pid_ =
        Spawn({"/usr/sbin/haproxy", "-db", "-f",
               std::string(CASSINO_SOURCE_DIR) + "/deploy/haproxy/haproxy.cfg"},
              log_);
    // Listening once a TCP connection succeeds.
    const auto until = Clock::now() + milliseconds(10000);
    while (Clock::now() < until) {
      const int fd = SilentConnection(port_);
      if (fd >= 0) {
        close(fd);
        listening_ = true;
        break;
      }
      std::this_thread::sleep_for(milliseconds(20));
    }
  }
  ~Haproxy() { TerminateAndReap(&pid_); }
  bool listening() const { return listening_; }
  int port() const { return port_; }
  std::string Log() const { return Tail(log_); }

 private:
  std::filesystem::path log_;
  pid_t pid_ = -1;
  int port_ = 0;
  bool listening_ = false;
};

bool HaveHaproxy() { return access("/usr/sbin/haproxy", X_OK) == 0; }

// A game played to its end through HAProxy over Play streams (gRPC
// bidirectional streaming over HTTP/2 on both sides), then the record's
// verdicts as the seats saw them.
TEST(EdgeTest, HaproxyInFrontPlaysAGame) {
  if (!HaveHaproxy()) {
    GTEST_SKIP() << "haproxy is not installed (apt-get install haproxy; "
                    "scripts/lib.sh lists it): the front proxy is not tested";
  }
  const auto dir = FreshDir();
  ChildReferee referee(dir, {});
  ASSERT_NE(referee.port(), 0) << referee.Log();
  Haproxy proxy(dir, referee.port());
  ASSERT_TRUE(proxy.listening()) << proxy.Log();
  auto channel =
      grpc::CreateChannel("127.0.0.1:" + std::to_string(proxy.port()),
                          grpc::InsecureChannelCredentials());
  auto stub = v1::RefereeService::NewStub(channel);
  v1::CreateGameRequest create;
  create.add_seats()->set_bot_name("north");
  create.add_seats()->set_bot_name("south");
  create.mutable_clock()->set_per_move_ms(10000);
  v1::CreateGameResponse game;
  const grpc::Status created =
      stub->CreateGame(TestReferee::Context(kAdminToken).get(), create, &game);
  ASSERT_TRUE(created.ok()) << created.error_message() << "\n" << proxy.Log();
  ASSERT_EQ(game.tokens_size(), 2);
  SeatLog seats[2];
  std::thread north(
      [&] { seats[0] = PlayStreamSeat(*stub, game.tokens(0).token(), 1); });
  std::thread south(
      [&] { seats[1] = PlayStreamSeat(*stub, game.tokens(1).token(), 2); });
  north.join();
  south.join();
  EXPECT_GT(seats[0].moves + seats[1].moves, 20);
  EXPECT_FALSE(seats[0].ended.result().reason().empty()) << proxy.Log();
  EXPECT_EQ(seats[0].ended.result().reason(), seats[1].ended.result().reason());
  v1::GetGameRequest get;
  get.set_game_id(game.game_id());
  v1::GetGameResponse info;
  ASSERT_TRUE(
      stub->GetGame(TestReferee::Context(kAdminToken).get(), get, &info).ok());
  EXPECT_EQ(info.game().status(), v1::GAME_STATUS_FINISHED);
}

// A1 with the recommended deployment: the same 20,000 rapid resets sent
// to HAProxy instead of the referee. HAProxy answers most of them itself
// (a reset stream counts against its 100 concurrent streams until it is
// done; past 2,000 requests per 10 s a source is refused), so the
// referee's memory and an unrelated seat's calls (made directly) stay
// within the bounds: under 64 MB of growth, no call over 250 ms (2 s under
// AddressSanitizer, as the other latency bounds of the suite: a sanitized
// run beside another test once saw 422 ms).
TEST(EdgeTest, RapidResetThroughHaproxyIsBounded) {
  if (!HaveHaproxy()) {
    GTEST_SKIP() << "haproxy is not installed (apt-get install haproxy; "
                    "scripts/lib.sh lists it): the front proxy is not tested";
  }
  const auto dir = FreshDir();
  ChildReferee referee(dir, {});
  ASSERT_NE(referee.port(), 0) << referee.Log();
  Haproxy proxy(dir, referee.port());
  ASSERT_TRUE(proxy.listening()) << proxy.Log();
  const FloodFigures f = RapidResetFlood(referee, proxy.port(), 2, 10000);
  std::printf("[ figures  ] rapid reset through HAProxy, %s\n",
              f.Text(20000).c_str());
  // (AddressSanitizer keeps freed memory in its quarantine, 256 MB by
  // default, so resident memory says nothing there: a sanitized run once
  // grew 84 MB. The plain build, the gcc pass of CI, checks the bound.)
  if (!kSanitized) {
    EXPECT_LT(f.rss_peak_kb - f.rss_before_kb, 64 * 1024);
  }
  EXPECT_LT(f.worst_ms, WorstLatencyMs(250.0));
  EXPECT_EQ(f.failed_calls, 0);
  EXPECT_TRUE(FreshClientCall(referee.Address(), 5000).ok());
}

}  // namespace
}  // namespace cassino::testing
