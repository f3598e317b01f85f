#include "tools/viewer/connections.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <deque>
#include <optional>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"

namespace cassino::viewer {

namespace {

constexpr size_t kReadChunk = 16384;
constexpr int kBacklog = 512;

void SetNonBlocking(int fd) {
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL, 0) | O_NONBLOCK);
}

// "1.2.3.4" / "::1" and the port of a socket address.
void AddressOf(const sockaddr_storage& addr, std::string* ip, int* port) {
  char text[INET6_ADDRSTRLEN] = {0};
  if (addr.ss_family == AF_INET) {
    const auto* a = reinterpret_cast<const sockaddr_in*>(&addr);
    inet_ntop(AF_INET, &a->sin_addr, text, sizeof(text));
    *port = ntohs(a->sin_port);
  } else if (addr.ss_family == AF_INET6) {
    const auto* a = reinterpret_cast<const sockaddr_in6*>(&addr);
    inet_ntop(AF_INET6, &a->sin6_addr, text, sizeof(text));
    *port = ntohs(a->sin6_port);
  }
  *ip = text;
}

// A small answer the loop writes itself (the request never reaches a
// worker), closing the connection.
std::string CannedResponse(int status, absl::string_view reason,
                           absl::string_view error) {
  const std::string body = absl::StrCat("{\"error\":\"", error, "\"}");
  return absl::StrCat("HTTP/1.1 ", status, " ", reason,
                      "\r\nContent-Type: application/json; charset=utf-8"
                      "\r\nContent-Length: ",
                      body.size(),
                      "\r\nConnection: close\r\nX-Content-Type-Options: "
                      "nosniff\r\nCache-Control: no-store\r\n\r\n",
                      body);
}

// What a request head says of its body.
struct BodyFraming {
  bool chunked = false;
  bool bad_length = false;
  size_t length = 0;
};

BodyFraming FramingOf(absl::string_view head) {
  BodyFraming out;
  bool first = true;
  for (absl::string_view line : absl::StrSplit(head, "\r\n")) {
    if (first) {  // the request line
      first = false;
      continue;
    }
    const size_t colon = line.find(':');
    if (colon == absl::string_view::npos) continue;
    const absl::string_view name = line.substr(0, colon);
    const absl::string_view value =
        absl::StripAsciiWhitespace(line.substr(colon + 1));
    if (absl::EqualsIgnoreCase(name, "Transfer-Encoding")) {
      out.chunked = true;
    } else if (absl::EqualsIgnoreCase(name, "Content-Length")) {
      uint64_t n = 0;
      if (!absl::SimpleAtoi(value, &n) ||
          (out.length != 0 && out.length != n)) {
        out.bad_length = true;
      } else {
        out.length = static_cast<size_t>(n);
      }
    }
  }
  return out;
}

}  // namespace

class ConnectionServer::Impl {
 public:
  Impl(const HttpLimits& limits, Handler handler)
      : limits_(limits), handler_(std::move(handler)) {}

  ~Impl() {
    for (auto& [id, c] : conns_) close(c.fd);
    if (listen_fd_ >= 0) close(listen_fd_);
    if (wake_[0] >= 0) close(wake_[0]);
    if (wake_[1] >= 0) close(wake_[1]);
  }

  absl::Status Bind(const std::string& host, int port) {
    if (pipe(wake_) != 0) return absl::InternalError("pipe");
    SetNonBlocking(wake_[0]);
    SetNonBlocking(wake_[1]);
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE;
    addrinfo* found = nullptr;
    const std::string service = absl::StrCat(port);
    if (getaddrinfo(host.empty() ? nullptr : host.c_str(), service.c_str(),
                    &hints, &found) != 0) {
      return absl::UnavailableError(absl::StrCat(
          "cannot listen on ", host, ":", port, ": the host does not resolve"));
    }
    for (addrinfo* a = found; a != nullptr; a = a->ai_next) {
      const int fd =
          socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
      if (fd < 0) continue;
      const int yes = 1;
      setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
      if (bind(fd, a->ai_addr, a->ai_addrlen) == 0 &&
          listen(fd, kBacklog) == 0) {
        listen_fd_ = fd;
        break;
      }
      close(fd);
    }
    freeaddrinfo(found);
    if (listen_fd_ < 0) {
      return absl::UnavailableError(
          absl::StrCat("cannot listen on ", host, ":", port));
    }
    SetNonBlocking(listen_fd_);
    sockaddr_storage addr{};
    socklen_t len = sizeof(addr);
    getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    std::string ip;
    AddressOf(addr, &ip, &port_);
    return absl::OkStatus();
  }

  void StartThreads() {
    for (int i = 0; i < std::max(1, limits_.threads); ++i) {
      workers_.emplace_back([this] { Work(); });
    }
    loop_ = std::thread([this] { Loop(); });
  }

  int port() const { return port_; }

  void Stop() {
    {
      absl::MutexLock lock(&mu_);
      stopping_ = true;
    }
    Wake();
  }

  void Wait() {
    if (loop_.joinable()) loop_.join();
    for (std::thread& t : workers_) {
      if (t.joinable()) t.join();
    }
  }

 private:
  enum class State { kIdle, kReading, kProcessing, kWriting };

  struct Conn {
    int fd = -1;
    State state = State::kIdle;
    absl::Time since;     // when it entered its state
    absl::Time deadline;  // when it is closed unless it moves on
    std::string in;       // bytes read and not yet handed on
    std::string out;      // the answer being written
    size_t out_pos = 0;
    bool close_after = false;
    int served = 0;
    std::string remote_ip, local_ip;
    int remote_port = 0, local_port = 0;
  };

  struct Job {
    uint64_t id;
    RawRequest request;
  };
  struct Done {
    uint64_t id;
    RawResponse response;
  };

  void Wake() {
    const char b = 1;
    (void)!write(wake_[1], &b, 1);
  }

  bool Stopping() {
    absl::MutexLock lock(&mu_);
    return stopping_;
  }

  void Work() {
    for (;;) {
      Job job;
      {
        absl::MutexLock lock(&mu_);
        mu_.Await(absl::Condition(
            +[](Impl* self) ABSL_EXCLUSIVE_LOCKS_REQUIRED(self->mu_) {
              return self->stopping_ || !self->jobs_.empty();
            },
            this));
        if (stopping_) return;
        job = std::move(jobs_.front());
        jobs_.pop_front();
      }
      RawResponse response = handler_(job.request);
      {
        absl::MutexLock lock(&mu_);
        done_.push_back({job.id, std::move(response)});
      }
      Wake();
    }
  }

  void Enter(Conn& c, State state, absl::Time now) {
    c.state = state;
    c.since = now;
    switch (state) {
      case State::kIdle:
        c.deadline = now + limits_.idle_timeout;
        break;
      case State::kReading:
        c.deadline = now + limits_.header_timeout;
        break;
      case State::kWriting:
        c.deadline = now + limits_.write_timeout;
        break;
      case State::kProcessing:
        c.deadline = absl::InfiniteFuture();
        break;
    }
  }

  void Answer(Conn& c, std::string bytes, bool close_after, absl::Time now) {
    c.out = std::move(bytes);
    c.out_pos = 0;
    c.close_after = close_after;
    Enter(c, State::kWriting, now);
  }

  // Moves a reading connection on once its buffer holds a whole request
  // (or shows that it never will).
  void Parse(uint64_t id, Conn& c, absl::Time now) {
    if (c.in.empty()) return;
    if (c.state == State::kIdle) Enter(c, State::kReading, now);
    const size_t end = c.in.find("\r\n\r\n");
    if (end == std::string::npos || end + 4 > limits_.max_header_bytes) {
      if (c.in.size() > limits_.max_header_bytes) {
        Answer(c,
               CannedResponse(431, "Request Header Fields Too Large",
                              "the request head is too large"),
               true, now);
      }
      return;
    }
    const size_t head = end + 4;
    const BodyFraming body = FramingOf(absl::string_view(c.in).substr(0, end));
    if (body.chunked) {
      Answer(
          c,
          CannedResponse(411, "Length Required", "a body needs Content-Length"),
          true, now);
      return;
    }
    if (body.bad_length) {
      Answer(c, CannedResponse(400, "Bad Request", "bad Content-Length"), true,
             now);
      return;
    }
    if (body.length > limits_.max_body_bytes) {
      Answer(c,
             CannedResponse(413, "Payload Too Large",
                            "the request body is too large"),
             true, now);
      return;
    }
    if (c.in.size() < head + body.length) return;
    Job job;
    job.id = id;
    job.request.bytes = c.in.substr(0, head + body.length);
    c.in.erase(0, head + body.length);
    job.request.remote_ip = c.remote_ip;
    job.request.remote_port = c.remote_port;
    job.request.local_ip = c.local_ip;
    job.request.local_port = c.local_port;
    job.request.last = c.served + 1 >= limits_.max_requests_per_connection;
    Enter(c, State::kProcessing, now);
    {
      absl::MutexLock lock(&mu_);
      jobs_.push_back(std::move(job));
    }
  }

  void Close(uint64_t id) {
    const auto it = conns_.find(id);
    if (it == conns_.end()) return;
    close(it->second.fd);
    conns_.erase(it);
  }

  // Makes room for one more connection: closes the oldest connection that
  // is idle or still sending its request (the first accepted among equals).
  // False if every one is busy.
  bool Evict() {
    std::optional<uint64_t> oldest;
    absl::Time at = absl::InfiniteFuture();
    for (const auto& [id, c] : conns_) {
      if ((c.state == State::kIdle || c.state == State::kReading) &&
          (c.since < at || (c.since == at && id < *oldest))) {
        at = c.since;
        oldest = id;
      }
    }
    if (!oldest.has_value()) return false;
    Close(*oldest);
    return true;
  }

  void Accept(absl::Time now) {
    for (int i = 0; i < 64; ++i) {
      sockaddr_storage addr{};
      socklen_t len = sizeof(addr);
      const int fd = accept4(listen_fd_, reinterpret_cast<sockaddr*>(&addr),
                             &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
      if (fd < 0) {
        if (errno == EMFILE || errno == ENFILE) {
          // Out of descriptors: stop accepting for a moment.
          accept_paused_until_ = now + absl::Milliseconds(100);
        }
        return;
      }
      if (static_cast<int>(conns_.size()) >= limits_.max_connections &&
          !Evict()) {
        const std::string busy = CannedResponse(503, "Service Unavailable",
                                                "every connection is busy");
        (void)!send(fd, busy.data(), busy.size(), MSG_NOSIGNAL);
        close(fd);
        continue;
      }
      const int yes = 1;
      setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof(yes));
      Conn c;
      c.fd = fd;
      AddressOf(addr, &c.remote_ip, &c.remote_port);
      sockaddr_storage local{};
      socklen_t local_len = sizeof(local);
      getsockname(fd, reinterpret_cast<sockaddr*>(&local), &local_len);
      AddressOf(local, &c.local_ip, &c.local_port);
      Enter(c, State::kIdle, now);
      conns_.emplace(next_id_++, std::move(c));
    }
  }

  // Reads what is there; false if the connection is to be closed.
  bool Read(Conn& c) {
    const size_t cap = limits_.max_header_bytes + limits_.max_body_bytes + 4;
    char buf[kReadChunk];
    while (c.in.size() <= cap) {
      const ssize_t n = recv(c.fd, buf, sizeof(buf), 0);
      if (n > 0) {
        c.in.append(buf, static_cast<size_t>(n));
        continue;
      }
      if (n == 0) return false;
      return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
    }
    return true;
  }

  // Writes what it can; false if the connection is to be closed.
  bool Write(uint64_t id, Conn& c, absl::Time now) {
    while (c.out_pos < c.out.size()) {
      const ssize_t n = send(c.fd, c.out.data() + c.out_pos,
                             c.out.size() - c.out_pos, MSG_NOSIGNAL);
      if (n > 0) {
        c.out_pos += static_cast<size_t>(n);
        continue;
      }
      return n < 0 &&
             (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR);
    }
    ++c.served;
    if (c.close_after) return false;
    c.out.clear();
    c.out.shrink_to_fit();
    Enter(c, State::kIdle, now);
    Parse(id, c, now);  // a pipelined request already read
    return true;
  }

  void Loop() {
    std::vector<pollfd> fds;
    std::vector<uint64_t> ids;
    while (!Stopping()) {
      absl::Time now = absl::Now();
      // Answers the workers finished.
      std::deque<Done> done;
      {
        absl::MutexLock lock(&mu_);
        done.swap(done_);
      }
      for (Done& d : done) {
        const auto it = conns_.find(d.id);
        if (it == conns_.end()) continue;
        Answer(it->second, std::move(d.response.bytes), d.response.close, now);
      }
      // Deadlines.
      absl::Time next = now + absl::Seconds(1);
      for (auto it = conns_.begin(); it != conns_.end();) {
        if (it->second.deadline <= now) {
          close(it->second.fd);
          it = conns_.erase(it);
          continue;
        }
        next = std::min(next, it->second.deadline);
        ++it;
      }
      fds.clear();
      ids.clear();
      fds.push_back({wake_[0], POLLIN, 0});
      const bool accepting = accept_paused_until_ <= now;
      if (accepting) fds.push_back({listen_fd_, POLLIN, 0});
      for (const auto& [id, c] : conns_) {
        short events = 0;
        if (c.state == State::kIdle || c.state == State::kReading) {
          events = POLLIN;
        } else if (c.state == State::kWriting) {
          events = POLLOUT;
        } else {
          continue;  // a worker has it
        }
        fds.push_back({c.fd, events, 0});
        ids.push_back(id);
      }
      if (!accepting) next = std::min(next, accept_paused_until_);
      const int timeout_ms = static_cast<int>(std::clamp<int64_t>(
          absl::ToInt64Milliseconds(next - now) + 1, 0, 1000));
      if (poll(fds.data(), fds.size(), timeout_ms) < 0 && errno != EINTR) {
        break;
      }
      now = absl::Now();
      if (fds[0].revents != 0) {
        char buf[256];
        while (read(wake_[0], buf, sizeof(buf)) > 0) {
        }
      }
      const size_t first = accepting ? 2 : 1;
      for (size_t i = first; i < fds.size(); ++i) {
        if (fds[i].revents == 0) continue;
        const uint64_t id = ids[i - first];
        const auto it = conns_.find(id);
        if (it == conns_.end()) continue;
        Conn& c = it->second;
        bool keep = true;
        if (c.state == State::kWriting) {
          keep =
              (fds[i].revents & (POLLERR | POLLNVAL)) == 0 && Write(id, c, now);
        } else {
          keep = Read(c);
          if (keep) Parse(id, c, now);
          if (keep && c.state == State::kWriting) keep = Write(id, c, now);
        }
        if (!keep) Close(id);
      }
      if (accepting && fds[1].revents != 0) Accept(now);
    }
    // Stopped: nothing more is answered.
    for (auto& [id, c] : conns_) close(c.fd);
    conns_.clear();
  }

  const HttpLimits limits_;
  const Handler handler_;
  int listen_fd_ = -1;
  int wake_[2] = {-1, -1};
  int port_ = 0;
  // The loop thread's own.
  std::unordered_map<uint64_t, Conn> conns_;
  uint64_t next_id_ = 1;
  absl::Time accept_paused_until_ = absl::InfinitePast();

  absl::Mutex mu_;
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::deque<Job> jobs_ ABSL_GUARDED_BY(mu_);
  std::deque<Done> done_ ABSL_GUARDED_BY(mu_);

  std::vector<std::thread> workers_;
  std::thread loop_;
};

ConnectionServer::ConnectionServer(std::unique_ptr<Impl> impl)
    : impl_(std::move(impl)) {}

ConnectionServer::~ConnectionServer() {
  Stop();
  Wait();
}

absl::StatusOr<std::unique_ptr<ConnectionServer>> ConnectionServer::Start(
    const std::string& host, int port, const HttpLimits& limits,
    Handler handler) {
  auto impl = std::make_unique<Impl>(limits, std::move(handler));
  if (absl::Status s = impl->Bind(host, port); !s.ok()) return s;
  impl->StartThreads();
  return std::unique_ptr<ConnectionServer>(
      new ConnectionServer(std::move(impl)));
}

int ConnectionServer::port() const { return impl_->port(); }
void ConnectionServer::Stop() { impl_->Stop(); }
void ConnectionServer::Wait() { impl_->Wait(); }

}  // namespace cassino::viewer
