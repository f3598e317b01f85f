// The durable echo: the floor of what recording costs, for referee_ratios.
// Every message of an EchoService.Echo stream is written as a row of an
// SQLite table (WAL; synchronous=NORMAL or FULL, as the referee's `normal`
// and `full` durability modes) and
// echoed only once its transaction has committed, as the referee answers a
// move only once it is recorded. Messages are committed in groups: those
// that arrive while a transaction runs make the next one. Nothing else is
// done, so the referee cannot record a move for less than this costs.
//
// Rows are appended in rowid order (the cheapest layout SQLite offers), hold
// the first kRowBytes bytes of the message (about a recorded move), and are
// deleted every kCommitsPerPurge commits so that the file stays small, as
// the referee packs ended games' rows. The database is kept as the
// recorder keeps it: opened through recorder::OpenDatabase (a commit's WAL
// frames written with one system call), statement journals in memory, and
// WAL checkpoints on a thread of their own (recorder::Checkpointer, with
// the referee's default interval), never on the committing thread.
//
// Who commits:
//   - CommitOn::kWriter: a writer thread commits what is queued, then starts
//     the echoes (the referee's pattern: recorder/recorder_writer.cc);
//   - CommitOn::kReader: the gRPC thread that read a message commits what
//     is queued, unless another one is already committing (a leader, as in
//     LevelDB's write queue).

#ifndef CASSINO_BENCH_DURABLE_ECHO_H_
#define CASSINO_BENCH_DURABLE_ECHO_H_

#include <sqlite3.h>

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "bench/echo.grpc.pb.h"
#include "bench/echo_service.h"
#include "grpcpp/grpcpp.h"
#include "recorder/checkpointer.h"
#include "recorder/recorder.h"

namespace cassino::bench {

class DurableEchoService final : public EchoService::CallbackService {
 public:
  enum class CommitOn { kWriter, kReader };
  // SQLite's synchronous setting: kFull syncs the WAL at every commit.
  enum class Sync { kNormal, kFull };
  static constexpr size_t kRowBytes = 256;
  static constexpr int kCommitsPerPurge = 2000;

  // `checkpoint_pages`: WAL pages from which the checkpoint thread copies
  // the WAL back (the recorder's RecorderOptions::checkpoint_pages, whose
  // default is the referee's).
  DurableEchoService(
      CommitOn commit_on, Sync sync,
      int checkpoint_pages = recorder::RecorderOptions{}.checkpoint_pages);
  ~DurableEchoService() override;
  DurableEchoService(const DurableEchoService&) = delete;
  DurableEchoService& operator=(const DurableEchoService&) = delete;

  // Opens (creating) the database at `path` and starts the writer thread
  // (CommitOn::kWriter). Call once, before serving.
  absl::Status Open(const std::string& path);

  // Checkpoints the checkpoint thread has run (after Open).
  int64_t checkpoints() const { return checkpointer_->checkpoints(); }

  grpc::ServerBidiReactor<EchoMessage, EchoMessage>* Echo(
      grpc::CallbackServerContext* context) override;

 private:
  class Echoer;

  // Queues `e`'s message; with CommitOn::kReader, commits what is queued
  // unless another thread is doing so.
  void Submit(Echoer* e) ABSL_LOCKS_EXCLUDED(mu_);
  void WriterLoop() ABSL_LOCKS_EXCLUDED(mu_);
  // Commits the batch's rows in one transaction, then echoes each message.
  // On an SQLite error the process exits: a benchmark has no fallback.
  void Commit(const std::vector<Echoer*>& batch);
  void Step(sqlite3_stmt* statement);
  // sqlite3_wal_hook: after each commit, tells the checkpointer how many
  // frames the WAL holds, as the recorder does.
  static int OnWalCommit(void* service, sqlite3* db, const char* name,
                         int frames);

  const CommitOn commit_on_;
  const Sync sync_;
  const int checkpoint_pages_;
  sqlite3* db_ = nullptr;
  sqlite3_stmt* begin_ = nullptr;
  sqlite3_stmt* insert_ = nullptr;
  sqlite3_stmt* commit_ = nullptr;
  sqlite3_stmt* purge_ = nullptr;
  int commits_ = 0;     // only the committing thread touches db_ and this
  int singles_ = 0;     // one-message commits in a row
  bool quiet_ = false;  // as the recorder's: singles_ >= commit_here_after
  std::unique_ptr<recorder::Checkpointer> checkpointer_;

  absl::Mutex mu_;
  absl::CondVar queued_;
  std::vector<Echoer*> queue_ ABSL_GUARDED_BY(mu_);
  bool committing_ ABSL_GUARDED_BY(mu_) = false;
  bool stop_ ABSL_GUARDED_BY(mu_) = false;
  std::thread writer_;
};

}  // namespace cassino::bench

#endif  // CASSINO_BENCH_DURABLE_ECHO_H_
