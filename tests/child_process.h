// Child processes for the tests that need a real referee binary (crash
// safety, a second referee on one port or database, restarts): spawning
// with output to a log, waiting with a timeout, loopback ports, and reading
// files back.

#ifndef CASSINO_TESTS_CHILD_PROCESS_H_
#define CASSINO_TESTS_CHILD_PROCESS_H_

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace cassino::testing {

using std::chrono::milliseconds;

inline std::string ReadText(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The last `n` characters of a file, for failure messages.
inline std::string Tail(const std::filesystem::path& path, size_t n = 3000) {
  std::string text = ReadText(path);
  return text.size() <= n ? text : text.substr(text.size() - n);
}

// True if `port` (0: any) can be bound on loopback now; `*bound` gets the
// port bound. The socket is released at once.
inline bool TryBind(int port, int* bound) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return false;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(port));
  socklen_t len = sizeof(addr);
  const bool ok =
      bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0;
  if (ok) *bound = ntohs(addr.sin_port);
  close(fd);
  return ok;
}

// A loopback port that was free a moment ago; 0 if none was found. It is
// taken below the kernel's ephemeral range when possible, so that while the
// referee is down no outgoing connection (a bot's reconnect, another test)
// is given the port and keeps the restart from binding it.
inline int PickFreePort(uint64_t seed) {
  int ephemeral_low = 32768;
  std::ifstream("/proc/sys/net/ipv4/ip_local_port_range") >> ephemeral_low;
  std::mt19937_64 rng(seed);
  int port = 0;
  if (ephemeral_low > 20000) {
    for (int i = 0; i < 50; ++i) {
      const int candidate =
          20000 + static_cast<int>(rng() % (ephemeral_low - 20000));
      if (TryBind(candidate, &port)) return port;
    }
  }
  for (int i = 0; i < 20; ++i) {
    if (TryBind(0, &port)) return port;
  }
  return 0;
}

// Starts `argv` with stdout and stderr appended to `log`; -1 on failure.
inline pid_t Spawn(const std::vector<std::string>& argv,
                   const std::filesystem::path& log) {
  std::vector<char*> args;
  for (const std::string& a : argv)
    args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(),
                                   O_WRONLY | O_CREAT | O_APPEND, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid = -1;
  const int rc =
      posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  return rc == 0 ? pid : -1;
}

// Waits up to `timeout` for `pid` to exit; true (and its wait status) if it
// did.
inline bool WaitFor(pid_t pid, milliseconds timeout, int* status) {
  const auto until = std::chrono::steady_clock::now() + timeout;
  while (true) {
    const pid_t r = waitpid(pid, status, WNOHANG);
    if (r == pid) return true;
    if (r < 0) return false;
    if (std::chrono::steady_clock::now() >= until) return false;
    std::this_thread::sleep_for(milliseconds(5));
  }
}

// SIGKILLs the child `*pid` and reaps it, then sets `*pid` to -1. No-op if
// `*pid` is not a child's pid (<= 0).
inline void KillAndReap(pid_t* pid) {
  if (*pid <= 0) return;
  kill(*pid, SIGKILL);
  int status = 0;
  waitpid(*pid, &status, 0);
  *pid = -1;
}

// SIGTERMs the child `*pid` and waits up to `timeout` for it to exit (then
// SIGKILLs it); sets `*pid` to -1. Its wait status, or -1 if it had to be
// killed or was not running.
inline int TerminateAndReap(pid_t* pid,
                            milliseconds timeout = milliseconds(10000)) {
  if (*pid <= 0) return -1;
  kill(*pid, SIGTERM);
  int status = 0;
  if (!WaitFor(*pid, timeout, &status)) {
    KillAndReap(pid);
    return -1;
  }
  *pid = -1;
  return status;
}

// Runs `argv` to completion with stdout and stderr going to `log`; returns
// the wait status, or -1 if it could not be started or did not end within
// `timeout`.
inline int RunToCompletion(const std::vector<std::string>& argv,
                           const std::filesystem::path& log,
                           milliseconds timeout) {
  const pid_t pid = Spawn(argv, log);
  if (pid < 0) return -1;
  int status = 0;
  if (!WaitFor(pid, timeout, &status)) {
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    return -1;
  }
  return status;
}

}  // namespace cassino::testing

#endif  // CASSINO_TESTS_CHILD_PROCESS_H_
