// Checkpointer: SQLite's WAL checkpoints on a thread of their own.
//
// In WAL mode every commit appends pages to the WAL, and a checkpoint copies
// them back into the database file (syncing both files unless synchronous
// is OFF). SQLite's automatic checkpoint runs on the connection that
// committed, after its commit: on the recorder's writer, which then copies
// pages and waits for `fdatasync` while every game's next move waits.
//
// Here the writer's connection has automatic checkpoints off and its WAL
// hook reports, after each commit, how many frames the WAL holds (Note).
// From `pages` frames on, this thread runs a PASSIVE checkpoint on its own
// connection: it never blocks the writer or a reader, and it copies each
// page once however many commits wrote it. While the writer is quiet (one
// write a transaction: a game or two in play) it waits for `quiet_pages`
// frames instead: there the checkpoint takes a core from the few moves in
// flight, and fewer, larger checkpoints copy fewer pages in all
// (docs/performance.md). A PASSIVE checkpoint cannot
// restart the WAL while the writer appends, so it may fall behind a writer
// that never pauses: from `limit` frames on, Note asks its caller to
// checkpoint on the writer itself (NoteResult::kCheckpointHere, then
// CheckpointHere), which waits for this thread's checkpoint, copies the
// rest, and waits for readers of the WAL (within the busy timeout) so that
// the next commit starts the WAL over. The WAL thus holds at most `limit`
// frames and one commit's, unless a reader holds it longer than the busy
// timeout.
//
// A failed checkpoint loses nothing (the pages stay in the WAL, which every
// reader and a restart read); it is counted, and the next Note tries again.
#ifndef CASSINO_RECORDER_CHECKPOINTER_H_
#define CASSINO_RECORDER_CHECKPOINTER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <thread>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "recorder/sqlite.h"

namespace cassino::recorder {

class Checkpointer {
 public:
  // Opens its own connection to the database at `path` with `synchronous`
  // (the writer's: "NORMAL" or "FULL", which decides the checkpoint's
  // syncs) and starts the thread. 0 < pages <= quiet_pages <= limit.
  static absl::StatusOr<std::unique_ptr<Checkpointer>> Start(
      const std::string& path, const std::string& synchronous, int pages,
      int quiet_pages, int limit);
  // Stops the thread (a checkpoint under way finishes first).
  ~Checkpointer();
  Checkpointer(const Checkpointer&) = delete;
  Checkpointer& operator=(const Checkpointer&) = delete;

  // Nothing to do yet; the thread was woken to checkpoint; the caller is
  // to checkpoint itself.
  enum class NoteResult { kNothing, kWoken, kCheckpointHere };
  // After a commit (from the writer's WAL hook): the WAL holds `frames`
  // frames. Wakes the thread from `pages` on (`quiet_pages` if `quiet`);
  // never blocks.
  NoteResult Note(int frames, bool quiet);
  // On the writer's connection `db` (schema `name`), after Note said
  // kCheckpointHere: waits for the thread's checkpoint under way, if any,
  // then checkpoints in RESTART mode. Returns SQLite's result code.
  int CheckpointHere(sqlite3* db, const char* name);
  // The whole of a WAL hook (sqlite3_wal_hook) on the writer's connection:
  // Note, then CheckpointHere when Note asks for it. Returns whether it
  // checkpointed on the caller's thread.
  bool AfterCommit(sqlite3* db, const char* name, int frames, bool quiet);

  // Checkpoints run by the thread (that copied every frame, or not), and
  // those that failed.
  int64_t checkpoints() const;
  int64_t failures() const;

 private:
  Checkpointer(Connection db, int pages, int quiet_pages, int limit);
  void Loop();
  bool Ready() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    return wanted_ || stop_;
  }

  Connection db_;  // used by the thread only
  const int pages_;
  const int quiet_pages_;
  const int limit_;
  // Held by whoever checkpoints (the thread or CheckpointHere): SQLite
  // refuses a second checkpoint at once rather than waiting for it.
  absl::Mutex run_mu_;
  mutable absl::Mutex mu_;
  bool wanted_ ABSL_GUARDED_BY(mu_) = false;
  bool stop_ ABSL_GUARDED_BY(mu_) = false;
  int64_t checkpoints_ ABSL_GUARDED_BY(mu_) = 0;
  int64_t failures_ ABSL_GUARDED_BY(mu_) = 0;
  std::thread thread_;
};

}  // namespace cassino::recorder

#endif  // CASSINO_RECORDER_CHECKPOINTER_H_
