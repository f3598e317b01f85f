#include "referee/db_lock.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cstring>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace cassino::service {

absl::StatusOr<std::unique_ptr<DbLock>> DbLock::Acquire(
    const std::string& db_path) {
  if (db_path.empty() || db_path == ":memory:" ||
      absl::StartsWith(db_path, "file:")) {
    return std::unique_ptr<DbLock>(new DbLock(-1));
  }
  const std::string path = db_path + ".lock";
  const int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    return absl::UnavailableError(absl::StrCat(
        "cannot open the lock file ", path, ": ", std::strerror(errno)));
  }
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    char pid[32] = {};
    const ssize_t n = pread(fd, pid, sizeof(pid) - 1, 0);
    close(fd);
    if (error != EWOULDBLOCK) {
      return absl::UnavailableError(
          absl::StrCat("cannot lock ", path, ": ", std::strerror(error)));
    }
    const std::string holder(
        absl::StripAsciiWhitespace(std::string(pid, n > 0 ? n : 0)));
    return absl::FailedPreconditionError(absl::StrCat(
        "the database ", db_path, " is in use by another referee",
        holder.empty() ? "" : absl::StrCat(" (pid ", holder, ")"),
        ": it holds ", path, "; stop it first, or use another --db"));
  }
  // Ours: say who holds it, for the message above.
  const std::string pid = absl::StrCat(getpid(), "\n");
  if (ftruncate(fd, 0) != 0 || pwrite(fd, pid.data(), pid.size(), 0) !=
                                   static_cast<ssize_t>(pid.size())) {
    // Only the message loses the pid; the lock holds.
  }
  return std::unique_ptr<DbLock>(new DbLock(fd));
}

DbLock::~DbLock() {
  if (fd_ >= 0) close(fd_);  // releases the lock
}

}  // namespace cassino::service
