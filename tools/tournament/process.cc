#include "tools/tournament/process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <deque>
#include <thread>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"

extern char** environ;

namespace cassino::tournament {

// The read end of a process's stderr pipe, the thread that reads it, and
// the bounded tail it keeps (process.h).
struct Process::Tail {
  Tail(int fd, int log_fd) : fd(fd), log_fd(log_fd) {}
  ~Tail() {
    close(fd);
    if (log_fd >= 0) close(log_fd);
  }

  // Reads until end of file, or until a stop has been asked for and the
  // pipe has stayed silent for 200 ms (a descendant that escaped the
  // process group may hold its write end open).
  void Read() {
    char buffer[4096];
    for (;;) {
      pollfd p{fd, POLLIN, 0};
      const int ready = poll(&p, 1, 50);
      if (ready < 0 && errno == EINTR) continue;
      if (ready <= 0) {
        const int64_t at = stop_at.load();
        if (ready < 0 ||
            (at != 0 &&
             std::chrono::steady_clock::now().time_since_epoch().count() >=
                 at)) {
          return;
        }
        continue;
      }
      const ssize_t n = read(fd, buffer, sizeof(buffer));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return;
      if (log_fd >= 0) {
        // The log file is a convenience: a failed write loses log lines
        // only.
        for (ssize_t off = 0; off < n;) {
          const ssize_t w = write(log_fd, buffer + off, n - off);
          if (w <= 0) break;
          off += w;
        }
      }
      Keep(absl::string_view(buffer, n));
    }
  }

  void Keep(absl::string_view chunk) {
    absl::MutexLock lock(&mu);
    for (char c : chunk) {
      if (c == '\n') {
        lines.push_back(std::move(partial));
        partial.clear();
        cut = false;
        if (static_cast<int>(lines.size()) > kStderrTailLines) {
          lines.pop_front();
        }
      } else if (c == '\r') {
        continue;
      } else if (partial.size() < kStderrTailLineBytes) {
        partial += c;
      } else if (!cut) {
        partial += "...";
        cut = true;
      }
    }
  }

  std::vector<std::string> Lines() {
    absl::MutexLock lock(&mu);
    std::vector<std::string> out(lines.begin(), lines.end());
    if (!partial.empty()) out.push_back(partial);
    if (static_cast<int>(out.size()) > kStderrTailLines) {
      out.erase(out.begin());
    }
    return out;
  }

  const int fd;
  const int log_fd;  // -1: none
  // When to give up waiting for the end of file, steady clock ticks; 0
  // while no stop is asked for.
  std::atomic<int64_t> stop_at{0};
  std::thread reader;
  absl::Mutex mu;
  std::deque<std::string> lines ABSL_GUARDED_BY(mu);
  std::string partial ABSL_GUARDED_BY(mu);
  bool cut ABSL_GUARDED_BY(mu) = false;
};

std::string DescribeWaitStatus(int status) {
  if (WIFEXITED(status)) {
    return absl::StrCat("exited with status ", WEXITSTATUS(status));
  }
  if (WIFSIGNALED(status)) {
    return absl::StrCat("was killed by signal ", WTERMSIG(status), " (",
                        strsignal(WTERMSIG(status)), ")");
  }
  return "ended";
}

absl::StatusOr<Process> Process::Start(
    const std::string& command, const std::map<std::string, std::string>& env,
    const std::string& log_path) {
  // Everything the child needs is prepared before fork().
  std::vector<std::string> env_strings;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry = *e;
    const std::string key = entry.substr(0, entry.find('='));
    if (!env.count(key)) env_strings.push_back(entry);
  }
  for (const auto& [k, v] : env) env_strings.push_back(k + "=" + v);
  std::vector<char*> envp;
  for (std::string& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  const std::string log = log_path.empty() ? "/dev/null" : log_path;
  const int fd =
      open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) {
    return absl::InternalError(
        absl::StrCat("cannot open ", log, ": ", std::strerror(errno)));
  }
  int err_pipe[2];
  if (pipe2(err_pipe, O_CLOEXEC) != 0) {
    close(fd);
    return absl::InternalError(absl::StrCat("pipe: ", std::strerror(errno)));
  }
  const char* argv[] = {"/bin/sh", "-c", command.c_str(), nullptr};
  const pid_t pid = fork();
  if (pid < 0) {
    close(fd);
    close(err_pipe[0]);
    close(err_pipe[1]);
    return absl::InternalError(absl::StrCat("fork: ", std::strerror(errno)));
  }
  if (pid == 0) {
    setpgid(0, 0);
    dup2(fd, STDOUT_FILENO);
    dup2(err_pipe[1], STDERR_FILENO);
    const int null_in = open("/dev/null", O_RDONLY);
    if (null_in >= 0) dup2(null_in, STDIN_FILENO);
    execve("/bin/sh", const_cast<char* const*>(argv), envp.data());
    _exit(127);
  }
  close(err_pipe[1]);
  setpgid(pid, pid);  // also from the parent, so Kill() works at once
  // The log file keeps stderr too (the reader appends it); /dev/null is
  // not worth a write.
  int log_fd = -1;
  if (log_path.empty()) {
    close(fd);
  } else {
    log_fd = fd;
  }
  auto tail = std::make_shared<Tail>(err_pipe[0], log_fd);
  tail->reader = std::thread([t = tail.get()] { t->Read(); });
  return Process(pid, std::move(tail));
}

Process::Process(Process&& other) noexcept
    : pid_(other.pid_), tail_(std::move(other.tail_)) {
  other.pid_ = -1;
}

Process& Process::operator=(Process&& other) noexcept {
  if (this != &other) {
    Kill();
    StopReader();
    pid_ = other.pid_;
    tail_ = std::move(other.tail_);
    other.pid_ = -1;
  }
  return *this;
}

Process::~Process() {
  Kill();
  StopReader();
}

void Process::StopReader() {
  if (tail_ == nullptr || !tail_->reader.joinable()) return;
  tail_->stop_at.store(
      (std::chrono::steady_clock::now() + std::chrono::milliseconds(200))
          .time_since_epoch()
          .count());
  tail_->reader.join();
}

std::vector<std::string> Process::StderrTail() {
  if (tail_ == nullptr) return {};
  if (pid_ < 0) StopReader();  // exited: read what it wrote, then stop
  return tail_->Lines();
}

bool Process::Wait(std::chrono::milliseconds timeout, int* status) {
  if (pid_ < 0) return true;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    int st = 0;
    const pid_t r = waitpid(pid_, &st, WNOHANG);
    if (r == pid_ || (r < 0 && errno == ECHILD)) {
      if (status) *status = st;
      pid_ = -1;
      return true;
    }
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

void Process::Kill() {
  if (pid_ < 0) return;
  kill(-pid_, SIGKILL);
  kill(pid_, SIGKILL);
  waitpid(pid_, nullptr, 0);
  pid_ = -1;
  StopReader();
}

}  // namespace cassino::tournament
