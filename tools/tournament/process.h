// Child processes for bot programs.

#ifndef CASSINO_TOOLS_TOURNAMENT_PROCESS_H_
#define CASSINO_TOOLS_TOURNAMENT_PROCESS_H_

#include <sys/types.h>

#include <chrono>
#include <map>
#include <string>

#include "absl/status/statusor.h"

namespace cassino::tournament {

// A command run with /bin/sh -c in its own process group, with extra
// environment variables, stdout and stderr going to `log_path` (appended;
// /dev/null when empty). Destroying a still-running Process kills its group.
class Process {
 public:
  static absl::StatusOr<Process> Start(
      const std::string& command, const std::map<std::string, std::string>& env,
      const std::string& log_path);
  Process(Process&& other) noexcept : pid_(other.pid_) { other.pid_ = -1; }
  Process& operator=(Process&& other) noexcept;
  ~Process();

  // Waits up to `timeout` for the process to exit; true if it did. `status`
  // gets the wait status.
  bool Wait(std::chrono::milliseconds timeout, int* status = nullptr);
  // SIGKILLs the process group and reaps the process.
  void Kill();
  pid_t pid() const { return pid_; }

 private:
  explicit Process(pid_t pid) : pid_(pid) {}
  pid_t pid_ = -1;
};

}  // namespace cassino::tournament

#endif  // CASSINO_TOOLS_TOURNAMENT_PROCESS_H_
