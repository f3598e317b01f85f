#include "bench/durable_echo.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "absl/strings/str_cat.h"
#include "recorder/sqlite.h"

namespace cassino::bench {

// One stream: each message read is queued for the commit, and echoed by
// Commit() once committed.
class DurableEchoService::Echoer final : public EchoReactor {
 public:
  explicit Echoer(DurableEchoService* service) : service_(service) { Start(); }

 private:
  void Received() override { service_->Submit(this); }

  DurableEchoService* const service_;
};

DurableEchoService::DurableEchoService(CommitOn commit_on, Sync sync,
                                       int checkpoint_pages)
    : commit_on_(commit_on), sync_(sync), checkpoint_pages_(checkpoint_pages) {}

DurableEchoService::~DurableEchoService() {
  {
    absl::MutexLock lock(&mu_);
    stop_ = true;
  }
  queued_.Signal();
  if (writer_.joinable()) writer_.join();
  for (sqlite3_stmt* s : {begin_, insert_, commit_, purge_}) {
    sqlite3_finalize(s);
  }
  if (db_ != nullptr) sqlite3_wal_hook(db_, nullptr, nullptr);
  checkpointer_.reset();
  sqlite3_close(db_);
}

absl::Status DurableEchoService::Open(const std::string& path) {
  absl::StatusOr<recorder::Connection> db =
      recorder::OpenDatabase(path, recorder::OpenMode::kReadWrite);
  if (!db.ok()) return db.status();
  db_ = db->release();
  const char* synchronous = sync_ == Sync::kFull ? "FULL" : "NORMAL";
  const std::string set_synchronous =
      absl::StrCat("PRAGMA synchronous=", synchronous);
  for (const char* sql :
       {"PRAGMA journal_mode=WAL", "PRAGMA temp_store=MEMORY",
        set_synchronous.c_str(),
        "CREATE TABLE IF NOT EXISTS messages (stream INTEGER NOT NULL, "
        "payload BLOB NOT NULL)"}) {
    if (sqlite3_exec(db_, sql, nullptr, nullptr, nullptr) != SQLITE_OK) {
      return absl::UnavailableError(
          absl::StrCat(sql, ": ", sqlite3_errmsg(db_)));
    }
  }
  const std::pair<sqlite3_stmt**, const char*> statements[] = {
      {&begin_, "BEGIN"},
      {&insert_, "INSERT INTO messages (stream, payload) VALUES (?1, ?2)"},
      {&commit_, "COMMIT"},
      {&purge_, "DELETE FROM messages"}};
  for (const auto& [statement, sql] : statements) {
    if (sqlite3_prepare_v2(db_, sql, -1, statement, nullptr) != SQLITE_OK) {
      return absl::UnavailableError(
          absl::StrCat(sql, ": ", sqlite3_errmsg(db_)));
    }
  }
  absl::StatusOr<std::unique_ptr<recorder::Checkpointer>> checkpointer =
      recorder::Checkpointer::Start(
          path, synchronous, checkpoint_pages_,
          checkpoint_pages_ * recorder::kQuietCheckpointFactor,
          checkpoint_pages_ * recorder::kCheckpointLimitFactor);
  if (!checkpointer.ok()) return checkpointer.status();
  checkpointer_ = *std::move(checkpointer);
  sqlite3_wal_hook(db_, &DurableEchoService::OnWalCommit, this);
  if (commit_on_ == CommitOn::kWriter) {
    writer_ = std::thread([this] { WriterLoop(); });
  }
  return absl::OkStatus();
}

grpc::ServerBidiReactor<EchoMessage, EchoMessage>* DurableEchoService::Echo(
    grpc::CallbackServerContext* /*context*/) {
  return new Echoer(this);
}

void DurableEchoService::Submit(Echoer* e) {
  mu_.Lock();
  queue_.push_back(e);
  if (commit_on_ == CommitOn::kWriter) {
    mu_.Unlock();
    queued_.Signal();
    return;
  }
  if (committing_) {  // the committing thread takes it in its next batch
    mu_.Unlock();
    return;
  }
  committing_ = true;
  while (!queue_.empty()) {
    std::vector<Echoer*> batch;
    batch.swap(queue_);
    mu_.Unlock();
    Commit(batch);
    mu_.Lock();
  }
  committing_ = false;
  mu_.Unlock();
}

void DurableEchoService::WriterLoop() {
  while (true) {
    std::vector<Echoer*> batch;
    {
      absl::MutexLock lock(&mu_);
      while (queue_.empty() && !stop_) queued_.Wait(&mu_);
      if (queue_.empty()) return;  // stopping
      batch.swap(queue_);
    }
    Commit(batch);
  }
}

void DurableEchoService::Step(sqlite3_stmt* statement) {
  if (sqlite3_step(statement) != SQLITE_DONE) {
    std::fprintf(stderr, "durable echo: %s\n", sqlite3_errmsg(db_));
    std::exit(1);
  }
  sqlite3_reset(statement);
}

int DurableEchoService::OnWalCommit(void* service, sqlite3* db,
                                    const char* name, int frames) {
  auto* self = static_cast<DurableEchoService*>(service);
  self->checkpointer_->AfterCommit(db, name, frames, self->quiet_);
  return SQLITE_OK;
}

void DurableEchoService::Commit(const std::vector<Echoer*>& batch) {
  // Quiet as the recorder's writer counts it: this many one-write
  // transactions in a row (RecorderOptions::commit_here_after).
  singles_ = batch.size() == 1 ? singles_ + 1 : 0;
  quiet_ = singles_ >= recorder::RecorderOptions{}.commit_here_after;
  Step(begin_);
  for (Echoer* e : batch) {
    sqlite3_bind_int64(insert_, 1, reinterpret_cast<intptr_t>(e));
    const std::string& payload = e->message().payload();
    const size_t bytes = std::min(payload.size(), kRowBytes);
    sqlite3_bind_blob(insert_, 2, payload.data(), static_cast<int>(bytes),
                      SQLITE_STATIC);
    Step(insert_);
  }
  Step(commit_);
  if (++commits_ % kCommitsPerPurge == 0) Step(purge_);
  for (Echoer* e : batch) e->Echo();
}

}  // namespace cassino::bench
