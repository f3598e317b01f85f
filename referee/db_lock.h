// The exclusive hold a referee keeps on its database for its lifetime, so
// that a second referee on the same database refuses to start instead of
// resuming (and playing) the same games.
//
// Contract: Acquire takes an exclusive flock(2) on "<db>.lock" (created if
// missing, never deleted), non-blocking: FailedPrecondition, naming the
// lock file and the pid written in it, if another process (or another
// DbLock in this one) holds it. The lock is released when the DbLock is
// destroyed or the process ends, however it ends (kill -9 included): the
// kernel drops flock locks with the file descriptor. SQLite's in-memory
// databases (":memory:", "file:" URIs) take no lock.

#ifndef CASSINO_REFEREE_DB_LOCK_H_
#define CASSINO_REFEREE_DB_LOCK_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"

namespace cassino::service {

class DbLock {
 public:
  static absl::StatusOr<std::unique_ptr<DbLock>> Acquire(
      const std::string& db_path);
  ~DbLock();
  DbLock(const DbLock&) = delete;
  DbLock& operator=(const DbLock&) = delete;

 private:
  explicit DbLock(int fd) : fd_(fd) {}
  int fd_ = -1;  // -1: nothing held (an in-memory database)
};

}  // namespace cassino::service

#endif  // CASSINO_REFEREE_DB_LOCK_H_
