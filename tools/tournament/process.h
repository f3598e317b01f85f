// Child processes for bot programs.

#ifndef CASSINO_TOOLS_TOURNAMENT_PROCESS_H_
#define CASSINO_TOOLS_TOURNAMENT_PROCESS_H_

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace cassino::tournament {

// The bound on what a Process keeps of its standard error: its last
// kStderrTailLines lines, each cut to kStderrTailLineBytes bytes (a cut
// line ends with "..."). Everything else is only in the log file, if any.
inline constexpr int kStderrTailLines = 20;
inline constexpr size_t kStderrTailLineBytes = 512;

// A command run with /bin/sh -c in its own process group, with extra
// environment variables, stdout going to `log_path` (appended; /dev/null
// when empty). Its stderr goes to the same file through a pipe that a
// thread of this process reads, keeping the bounded tail above
// (StderrTail). Destroying a still-running Process kills its group.
class Process {
 public:
  static absl::StatusOr<Process> Start(
      const std::string& command, const std::map<std::string, std::string>& env,
      const std::string& log_path);
  Process(Process&& other) noexcept;
  Process& operator=(Process&& other) noexcept;
  ~Process();

  // Waits up to `timeout` for the process to exit; true if it did. `status`
  // gets the wait status.
  bool Wait(std::chrono::milliseconds timeout, int* status = nullptr);
  // SIGKILLs the process group and reaps the process.
  void Kill();
  pid_t pid() const { return pid_; }

  // The last lines written to stderr so far, oldest first (a last line
  // without its newline included). Once the process has exited, call it
  // after Wait: what the process wrote before it exited is then read
  // (waiting at most 200 ms for a descendant that keeps the pipe open).
  std::vector<std::string> StderrTail();

  struct Tail;  // process.cc

 private:
  Process(pid_t pid, std::shared_ptr<Tail> tail)
      : pid_(pid), tail_(std::move(tail)) {}
  // Stops the stderr reader (after it has read what is buffered) and joins
  // it.
  void StopReader();
  pid_t pid_ = -1;
  std::shared_ptr<Tail> tail_;
};

// How a process ended, from its wait status: "exited with status 3",
// "was killed by signal 9".
std::string DescribeWaitStatus(int status);

}  // namespace cassino::tournament

#endif  // CASSINO_TOOLS_TOURNAMENT_PROCESS_H_
