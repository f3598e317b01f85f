#include "recorder/checkpointer.h"

#include <pthread.h>
#include <sqlite3.h>

#include <utility>

#include "absl/strings/str_cat.h"

namespace cassino::recorder {

absl::StatusOr<std::unique_ptr<Checkpointer>> Checkpointer::Start(
    const std::string& path, const std::string& synchronous, int pages,
    int quiet_pages, int limit) {
  if (pages <= 0 || quiet_pages < pages || limit < quiet_pages) {
    return absl::InvalidArgumentError(absl::StrCat(
        "checkpoint pages ", pages, ", quiet pages ", quiet_pages,
        " and limit ", limit, ": need 0 < pages <= quiet pages <= limit"));
  }
  absl::StatusOr<Connection> db = OpenDatabase(path, OpenMode::kReadWrite);
  if (!db.ok()) return db.status();
  if (absl::Status s =
          Exec(db->get(), absl::StrCat("PRAGMA synchronous=", synchronous));
      !s.ok()) {
    return s;
  }
  // This connection commits nothing: no checkpoint of its own on close
  // beyond SQLite's usual one when it is the last connection.
  return std::unique_ptr<Checkpointer>(
      new Checkpointer(*std::move(db), pages, quiet_pages, limit));
}

Checkpointer::Checkpointer(Connection db, int pages, int quiet_pages, int limit)
    : db_(std::move(db)),
      pages_(pages),
      quiet_pages_(quiet_pages),
      limit_(limit) {
  thread_ = std::thread([this] {
    pthread_setname_np(pthread_self(), "rec-checkpoint");
    Loop();
  });
}

Checkpointer::~Checkpointer() {
  {
    absl::MutexLock lock(&mu_);
    stop_ = true;
  }
  thread_.join();
}

Checkpointer::NoteResult Checkpointer::Note(int frames, bool quiet) {
  if (frames >= limit_) return NoteResult::kCheckpointHere;
  if (frames < (quiet ? quiet_pages_ : pages_)) return NoteResult::kNothing;
  absl::MutexLock lock(&mu_);
  wanted_ = true;
  return NoteResult::kWoken;
}

void Checkpointer::Loop() {
  while (true) {
    {
      absl::MutexLock lock(&mu_);
      mu_.Await(absl::Condition(this, &Checkpointer::Ready));
      if (stop_) return;
      wanted_ = false;
    }
    int rc;
    {
      absl::MutexLock running(&run_mu_);
      rc = sqlite3_wal_checkpoint_v2(
          db_.get(), nullptr, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
    }
    absl::MutexLock lock(&mu_);
    ++checkpoints_;
    // (SQLITE_BUSY: another checkpoint was running; the next Note retries.)
    if (rc != SQLITE_OK && rc != SQLITE_BUSY) ++failures_;
  }
}

int Checkpointer::CheckpointHere(sqlite3* db, const char* name) {
  absl::MutexLock running(&run_mu_);
  return sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_RESTART, nullptr,
                                   nullptr);
}

bool Checkpointer::AfterCommit(sqlite3* db, const char* name, int frames,
                               bool quiet) {
  if (Note(frames, quiet) != NoteResult::kCheckpointHere) return false;
  // The thread fell behind a writer that never pauses (a failure leaves
  // the pages in the WAL).
  CheckpointHere(db, name);
  return true;
}

int64_t Checkpointer::checkpoints() const {
  absl::MutexLock lock(&mu_);
  return checkpoints_;
}

int64_t Checkpointer::failures() const {
  absl::MutexLock lock(&mu_);
  return failures_;
}

}  // namespace cassino::recorder
