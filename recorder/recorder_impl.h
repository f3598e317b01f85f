// Recorder::Impl, the recorder's internals, shared by the files that
// implement it (internal to recorder/; include only from there):
//   recorder_open.cc    opening, migrations, prepared writer statements,
//                       the tally backfill, shutdown
//   recorder_writer.cc  the writer thread (group commit) and each write
//   recorder_reads.cc   reads, on their own connection
//   recorder.cc         the public Recorder, forwarding here
//
// Threads: one committer at a time owns `writer_` and everything marked
// committer state: the writer thread, or a thread closing a CommitHere
// scope while the recorder is quiet (committing_ says that one of them
// does); reads hold read_mu_; callbacks run on the committer after their
// transaction, in submission order.

#ifndef CASSINO_RECORDER_RECORDER_IMPL_H_
#define CASSINO_RECORDER_RECORDER_IMPL_H_

#include <sqlite3.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <variant>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "recorder/checkpointer.h"
#include "recorder/recorder.h"
#include "recorder/sqlite.h"
#include "recorder/tally.h"

namespace cassino::recorder {
namespace internal {

// A game's event rows, and its event pack, by game id (?1).
inline constexpr char kGameRowsSql[] =
    "SELECT seq, kind, at_us, payload, hash FROM events WHERE game_id = ?1 "
    "ORDER BY seq";
inline constexpr char kGamePackSql[] =
    "SELECT pack FROM event_packs WHERE game_id = ?1";

// A statement the Impl keeps for its lifetime (finalized by ~Impl).
absl::StatusOr<sqlite3_stmt*> PrepareKept(sqlite3* db, absl::string_view sql);

// Reads a game's events, from its `events` rows or from its event pack
// (the statements kGameRowsSql and kGamePackSql, bound to `game_id` here).
// DataLoss if the game has both, or a row's kind or the pack is unreadable.
absl::Status ReadStoredEvents(sqlite3_stmt* rows, sqlite3_stmt* pack,
                              const std::string& game_id,
                              std::vector<Event>* events);

// The summary columns an `end` or `abort` event sets.
struct Summary {
  GameStatus status = GameStatus::kFinished;
  int winner = -1;
  std::string end_reason;
  std::optional<std::string> totals;  // JSON array text
  int64_t finished_us = 0;
};

}  // namespace internal

class Recorder::Impl {
 public:
  explicit Impl(const RecorderOptions& options)
      : durability_(options.durability),
        probe_interval_(options.probe_interval),
        signing_key_(options.signing_key),
        checkpoint_pages_(options.checkpoint_pages),
        running_tallies_(
            static_cast<size_t>(std::max(0, options.running_tallies))),
        commit_here_after_(options.durability == Durability::kNormal
                               ? options.commit_here_after
                               : 0) {}
  ~Impl();

  absl::Status Init(const std::string& path);

  // The writer queue.
  struct CreateWrite {
    GameHeader header;
  };
  struct AppendWrite {
    std::string game_id;
    std::vector<Recorder::NewEvent> events;  // written together or not at all
  };
  struct ImportWrite {
    const GameRecord* record;  // owned by the waiting Import() caller
  };
  struct AccountWrite {
    BotAccountRow account;
    bool insert = false;  // else update
  };
  struct SeatTokenWrite {
    std::string game_id;
    int seat = 0;
    std::string token_hash;
  };
  struct TournamentWrite {
    TournamentRow tournament;
    std::vector<TournamentGameRow> games;
    // Only more of the schedule of an existing tournament (only its name
    // is read from `tournament`).
    bool more_games = false;
  };
  struct TournamentGameWrite {
    std::string tournament;
    int index = 0;
    std::string game_id;
  };
  struct TournamentEndWrite {
    std::string tournament;
    std::string status;
    std::string reason;
    int64_t ended_us = 0;
  };
  // Ladders (recorder_ladders.cc).
  struct LadderWrite {
    LadderRow ladder;
    bool insert = false;  // else its status
  };
  struct LadderVersionWrite {
    LadderVersionRow version;
  };
  struct LadderBotWrite {
    LadderBotRow bot;
  };
  struct LadderGamesWrite {
    std::vector<LadderGameRow> games;
    bool drop = false;  // delete these rows (by ladder and game id)
  };
  using Op = std::variant<CreateWrite, AppendWrite, ImportWrite, AccountWrite,
                          SeatTokenWrite, TournamentWrite, TournamentGameWrite,
                          TournamentEndWrite, LadderWrite, LadderVersionWrite,
                          LadderBotWrite, LadderGamesWrite>;
  struct Write {
    Op op;
    DoneCallback done;
  };
  // Queues a write for the writer thread. With `may_defer` (the calling
  // thread is in a CommitHere scope for this recorder) while the recorder
  // is quiet, leaves it for that scope to commit when it closes instead,
  // and says so (true).
  bool Enqueue(Write write, bool may_defer = false);
  absl::Status EnqueueAndWait(Op op);
  void WaitIdle() ABSL_LOCKS_EXCLUDED(queue_mu_);
  // Called as a CommitHere scope that queued a write closes: commits the
  // queue on this thread, unless a committer is at work (it takes the
  // queue next) or the storage is unhealthy (the writer's, then); and, up
  // to kCommitsHereInARow transactions, each single write queued
  // meanwhile while still quiet.
  void CommitQueuedHere();
  static constexpr int kCommitsHereInARow = 8;

  absl::StatusOr<GameRecord> Load(const std::string& game_id);
  absl::StatusOr<std::vector<GameSummary>> List(const ListFilter& filter);
  absl::StatusOr<std::vector<std::string>> Unfinished();
  absl::StatusOr<std::vector<Recorder::SeatTokenRow>> EndedSeatTokens(
      int64_t since_us);
  absl::StatusOr<std::map<std::string, std::vector<int>>> ForfeitsByLabel(
      const std::string& label);
  absl::StatusOr<std::vector<BotAccountRow>> Accounts();
  absl::StatusOr<std::vector<TournamentRow>> Tournaments();
  absl::StatusOr<std::vector<TournamentGameRow>> TournamentGames(
      const std::string& tournament);
  absl::StatusOr<std::vector<LadderRow>> Ladders();
  absl::StatusOr<std::vector<LadderVersionRow>> LadderVersions(
      const std::string& ladder);
  absl::StatusOr<std::vector<LadderBotRow>> LadderBots(
      const std::string& ladder);
  absl::StatusOr<std::vector<LadderGameRow>> LadderGames(
      const std::string& ladder);
  std::string signing_public_key() const {
    return signing_key_.has_value() ? signing_key_->public_key() : "";
  }
  StorageHealth health() const ABSL_LOCKS_EXCLUDED(health_mu_);
  void OnHealthChange(std::function<void(const StorageHealth&)> listener)
      ABSL_LOCKS_EXCLUDED(health_mu_);
  Stats stats() const {
    return {transactions_.load(std::memory_order_relaxed),
            writes_.load(std::memory_order_relaxed),
            caller_transactions_.load(std::memory_order_relaxed),
            packed_games_.load(std::memory_order_relaxed),
            tallies_read_back_.load(std::memory_order_relaxed),
            checkpointer_ ? checkpointer_->checkpoints() : 0,
            writer_checkpoints_.load(std::memory_order_relaxed)};
  }

 private:
  // Where a game's hash chain stands: the next seq and the last hash.
  struct ChainState {
    int64_t next_seq = 0;
    Digest last_hash{};
    bool closed = false;  // ended or aborted: dropped from the cache
  };

  absl::Status Configure(sqlite3* db, bool writer);
  // PRAGMA synchronous for durability_: "FULL" or "NORMAL".
  const char* Synchronous() const {
    return durability_ == Durability::kFull ? "FULL" : "NORMAL";
  }
  absl::Status Migrate();
  absl::Status PrepareWriter();

  void WriterLoop();
  // Makes the calling thread the committer of a batch of `writes` writes
  // (none: a probe), and notes whether the recorder is quiet.
  void TakeCommitterRole(size_t writes)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(queue_mu_);
  // Moves the whole queue into `batch` (deferred writes too: deferred_
  // goes back to 0) and takes the committer role for it.
  void TakeQueue(std::deque<Write>& batch)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(queue_mu_);
  // Whether the writer thread has something to do: stopping, a write that
  // no open CommitHere scope will commit, or (with no scope owing a
  // commit) a pack while the storage is writable.
  bool WriterHasWork() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(queue_mu_);
  void GiveUpCommitterRole() ABSL_EXCLUSIVE_LOCKS_REQUIRED(queue_mu_);
  // Whether a CommitHere scope commits what it queues: commit_here_after_
  // single-write transactions in a row, and the storage writable.
  bool Quiet() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(queue_mu_);
  // Commits `batch` as the committer and gives the role up, waking the
  // writer thread if writes wait. `here`: on a CommitHere caller's thread,
  // which also takes on single writes queued meanwhile while quiet (up to
  // kCommitsHereInARow transactions).
  void CommitAsCommitter(std::deque<Write>& batch, bool here)
      ABSL_LOCKS_EXCLUDED(queue_mu_);
  // A one-page write transaction (the schema version, rewritten unchanged)
  // and the file check: OK when the storage takes writes again.
  absl::Status Probe();
  // FailedPrecondition (permanent) when the database file or its WAL is no
  // longer the file opened: deleted, or replaced by another.
  absl::Status CheckFiles();
  // Records the outcome of a transaction for health(): `storage_fault` is
  // the failure of the storage, if any.
  void NoteStorage(const absl::Status& storage_fault)
      ABSL_LOCKS_EXCLUDED(health_mu_);
  // Commits a batch of writes in one transaction; each write fails alone.
  // First without savepoints (two statements fewer a write); if a write
  // fails, that transaction is rolled back and the batch is written again
  // with a savepoint around each write.
  void WriteBatch(std::deque<Write>& batch);
  // What one attempt at a batch's transaction did.
  struct BatchOutcome {
    std::vector<absl::Status> results;  // per write
    absl::Status txn;                   // the transaction's own status
    absl::Status storage_fault;  // a write's failure of the storage, if any
    int64_t written = 0;         // writes that succeeded
    // Without savepoints: a write failed while the transaction was still
    // open, and it was rolled back; the batch is to be written again with
    // savepoints, so that the write fails alone.
    bool redo_with_savepoints = false;
  };
  // One attempt. Without savepoints it stops at the first failing write
  // and rolls the transaction back (`txn` then is that write's error).
  BatchOutcome TryBatch(std::deque<Write>& batch, bool savepoints);
  // Commits the open transaction (rolled back if the commit fails), then
  // checks that the files written are still the database's (CheckFiles).
  absl::Status CommitTransaction();
  absl::Status DoWrite(const CreateWrite& w);
  absl::Status DoWrite(const AppendWrite& w);
  absl::Status AppendOne(const std::string& game_id,
                         const Recorder::NewEvent& event);
  absl::Status DoWrite(const ImportWrite& w);
  absl::Status DoWrite(const AccountWrite& w);
  absl::Status DoWrite(const SeatTokenWrite& w);
  absl::Status DoWrite(const TournamentWrite& w);
  absl::Status DoWrite(const TournamentGameWrite& w);
  absl::Status DoWrite(const TournamentEndWrite& w);
  absl::Status DoWrite(const LadderWrite& w);
  absl::Status DoWrite(const LadderVersionWrite& w);
  absl::Status DoWrite(const LadderBotWrite& w);
  absl::Status DoWrite(const LadderGamesWrite& w);
  // A writer statement prepared on first use and kept (committer state).
  absl::StatusOr<sqlite3_stmt*> WriterStmt(const std::string& sql);
  // OK unless `label` is a ladder's name and (ladder, game_id) has no row
  // in ladder_games (FailedPrecondition); `*is_ladder` says whether it is.
  absl::Status CheckLadderGame(const std::string& label,
                               const std::string& game_id, bool* is_ladder);
  // The rules a new game must meet against what is already written, checked
  // here, in the writer's transaction, where concurrent calls are ordered
  // (the service checks them earlier too, for a quick answer):
  // FailedPrecondition for a game labelled with a tournament's name that is
  // not in its schedule (the scheduler writes a game's id into the schedule
  // before creating it; docs/tournaments.md), or, unless scheduled, for a
  // seat whose bot account is revoked (docs/lobby.md).
  // AlreadyExists unless `game_id` is new to the database (this
  // transaction's writes included).
  absl::Status CheckGameIsNew(const std::string& game_id);
  absl::Status CheckNewGame(const GameHeader& header);
  absl::StatusOr<ChainState> Chain(const std::string& game_id);
  absl::Status GameExists(const std::string& game_id, bool* exists);
  absl::Status InsertGame(const GameHeader& header, GameStatus status,
                          const std::optional<internal::Summary>& summary);
  absl::Status InsertEvent(const std::string& game_id, int64_t seq,
                           EventKind kind, int64_t at_us,
                           absl::string_view payload, absl::string_view hash);
  absl::Status SetSummary(const std::string& game_id,
                          const internal::Summary& summary);
  // Computes the game's tally from its events (all of them, this
  // transaction's included) and writes it, replacing any.
  absl::Status WriteTally(const std::string& game_id,
                          std::span<const Event> events);
  // A game ended by a committed transaction, with its events as that
  // transaction read them (all of its rows: an ended game takes no more),
  // or none when it did not read them (its tally was kept as it went).
  struct EndedGame {
    std::string game_id;
    std::vector<Event> events;
  };
  // The game has just ended (its end or abort event, whose chain hash is
  // `head`, is in this transaction): writes its tally and packs its
  // events, or, while the recorder is quiet (quiet_), leaves the pack
  // to the writer thread, which writes it in a transaction of its own once
  // this one has committed (PackEnded): the ending move's acknowledgement
  // does not wait for it. The tally is the game's running tally when that
  // counted every event up to `head`; otherwise the events are read back
  // and counted.
  absl::Status CloseGame(const std::string& game_id, const Digest& head);
  // Moves the rows of an ended game into an event pack (event_pack.h), in
  // the open transaction, reading them first if `game` has none. A game
  // already packed fails (FailedPrecondition) and keeps its rows.
  absl::Status PackEnded(const EndedGame& game);
  // Running tallies (tallies_). StartTally begins one for a game just
  // created, from its header and create event; AdvanceTally counts the
  // event `hash` written after the event `previous`, or drops the game's
  // tally if it did not end at `previous`.
  void StartTally(const GameHeader& h, absl::string_view payload,
                  const Digest& hash);
  void AdvanceTally(const std::string& game_id, const Digest& previous,
                    EventKind kind, absl::string_view payload,
                    const Digest& hash);
  // The writer thread's turn at the packs: packs `games` in one
  // transaction, and says whether it committed. A game whose own pack
  // fails keeps its rows, a complete record too (docs/record_format.md);
  // a failure of the storage fails the transaction and is noted for
  // health(), and the games are to be packed again once it recovers.
  bool WritePacks(const std::vector<EndedGame>& games);
  // Writes the game's pack of `events` and deletes its event rows.
  absl::Status PackRows(const std::string& game_id,
                        std::span<const Event> events);
  absl::Status InsertTally(const std::string& game_id, const GameTally& tally);
  // Writes the missing tallies of ended games (databases from before
  // migration 002, or a crash between the migration and the backfill).
  // Games that ended before migration 005 keep their event rows: a
  // database's existing records are never rewritten.
  absl::Status Backfill();

  // Reader helpers; read_mu_ must be held.
  absl::StatusOr<sqlite3_stmt*> ReadStmt(const std::string& sql)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(read_mu_);
  // Fills in the game's bots and accounts.
  absl::Status SeatsOf(GameSummary& game)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(read_mu_);
  // The game's events, from its rows or its pack (ReadStoredEvents).
  absl::Status LoadEvents(const std::string& game_id,
                          std::vector<Event>* events)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(read_mu_);

  const Durability durability_;
  const std::chrono::milliseconds probe_interval_;
  // Signs the last event of each game the writer ends; nullopt: none.
  const std::optional<SigningKey> signing_key_;
  const int checkpoint_pages_;
  const size_t running_tallies_;  // the most tallies_ holds
  // RecorderOptions::commit_here_after, 0 unless kNormal durability.
  const int commit_here_after_;
  // Started by Init, stopped by ~Impl after the writer thread.
  std::unique_ptr<Checkpointer> checkpointer_;
  // The writer's WAL hook (sqlite3_wal_hook): after each commit.
  static int OnWalCommit(void* impl, sqlite3* db, const char* name, int frames);
  // The database file and its WAL as opened (device, inode); the WAL's is
  // taken once it exists. Committer state.
  struct FileId {
    uint64_t dev = 0;
    uint64_t ino = 0;
    bool operator==(const FileId&) const = default;
  };
  std::string db_file_;
  std::string wal_file_;
  std::optional<FileId> db_id_;
  std::optional<FileId> wal_id_;

  mutable absl::Mutex health_mu_;
  StorageHealth health_ ABSL_GUARDED_BY(health_mu_);
  std::function<void(const StorageHealth&)> health_listener_
      ABSL_GUARDED_BY(health_mu_);
  bool has_tallies_ = false;  // the game_tallies table exists
  sqlite3* writer_ = nullptr;
  sqlite3* reader_ = nullptr;

  // Committer state (and Init's, before the writer thread starts).
  struct WriterStmts {
    sqlite3_stmt* begin = nullptr;
    sqlite3_stmt* commit = nullptr;
    sqlite3_stmt* rollback = nullptr;
    sqlite3_stmt* savepoint = nullptr;
    sqlite3_stmt* release = nullptr;
    sqlite3_stmt* rollback_to = nullptr;
    sqlite3_stmt* game_exists = nullptr;
    sqlite3_stmt* last_event = nullptr;
    sqlite3_stmt* insert_game = nullptr;
    sqlite3_stmt* insert_seat = nullptr;
    sqlite3_stmt* insert_event = nullptr;
    sqlite3_stmt* set_summary = nullptr;
    sqlite3_stmt* game_shape = nullptr;
    sqlite3_stmt* game_rows = nullptr;
    sqlite3_stmt* game_pack = nullptr;
    sqlite3_stmt* pack_exists = nullptr;
    sqlite3_stmt* insert_pack = nullptr;
    sqlite3_stmt* delete_rows = nullptr;
    sqlite3_stmt* insert_tally = nullptr;
    sqlite3_stmt* set_seat_account = nullptr;
    sqlite3_stmt* insert_account = nullptr;
    sqlite3_stmt* update_account = nullptr;
    sqlite3_stmt* set_seat_token = nullptr;
    sqlite3_stmt* insert_tournament = nullptr;
    sqlite3_stmt* insert_tournament_game = nullptr;
    sqlite3_stmt* set_tournament_game = nullptr;
    sqlite3_stmt* end_tournament = nullptr;
    sqlite3_stmt* import_account = nullptr;
    sqlite3_stmt* tournament_exists = nullptr;
    sqlite3_stmt* scheduled_game = nullptr;
    sqlite3_stmt* label_used = nullptr;
    sqlite3_stmt* account_revoked = nullptr;
  } w_;
  // WriterStmt's statements (committer state).
  std::map<std::string, sqlite3_stmt*> writer_stmts_;
  // Committed chain states of games written to or read by this writer.
  std::unordered_map<std::string, ChainState> cache_;
  // Chain states changed by the open transaction; merged into cache_ on
  // commit, dropped on rollback.
  std::unordered_map<std::string, ChainState> overlay_;
  // The recorder was quiet as the batch was taken (Quiet(): the writer
  // thread is idle). Then the games this batch ends are packed later, in a
  // transaction of their own, rather than in the transaction of their end
  // (busy: one transaction then writes each page once), and checkpoints
  // wait for more pages (Checkpointer::Note). Set by TakeCommitterRole.
  bool quiet_ = false;
  // Games the open transaction ends; queued for their packs on commit.
  std::vector<EndedGame> ended_;
  // Of them, those whose tally was computed from their events read back.
  int64_t ended_read_back_ = 0;
  // A game's tally kept up to date as its events are written, so that its
  // end need not read them back (committer state). `head` is the chain hash
  // of the last event counted. A tally is used only while `head` is the
  // chain's last hash: a rolled-back transaction leaves it ahead of the
  // chain, and the game's end then reads its events as it would without
  // one. Kept for at most running_tallies_ of the games this recorder
  // created and has not seen end; dropped at their end and when their
  // transaction fails.
  struct RunningTally {
    Digest head{};
    GameTally tally;
  };
  std::unordered_map<std::string, RunningTally> tallies_;
  TallyBuilder tally_builder_{0, 0};  // its readers, for tallies_ in turn

  absl::Mutex queue_mu_;
  absl::CondVar queue_cv_;
  std::deque<Write> queue_ ABSL_GUARDED_BY(queue_mu_);
  bool stop_ ABSL_GUARDED_BY(queue_mu_) = false;
  // A committer (the writer thread or a CommitHere caller) is writing a
  // batch or running its callbacks.
  bool committing_ ABSL_GUARDED_BY(queue_mu_) = false;
  // Writes in queue_ that a CommitHere scope, still open, said it would
  // commit as it closes (Enqueue's may_defer). The writer thread leaves a
  // queue of only these to their scopes, which may otherwise lose them to
  // it while it loops back from its last commit. Back to 0 when the queue
  // is taken, and when a scope closes without committing (the writer's,
  // then: it is signalled).
  size_t deferred_ ABSL_GUARDED_BY(queue_mu_) = 0;
  // Ended games whose rows are still to be packed, oldest first. The
  // writer thread packs one a turn between batches (all of them when it
  // has no writes), and all of them before it stops.
  std::deque<EndedGame> to_pack_ ABSL_GUARDED_BY(queue_mu_);
  static constexpr size_t kPacksWhenIdle = 16;  // games a pack transaction
  // Transactions in a row that each held a single write (capped); at
  // commit_here_after_ the recorder is quiet and CommitHere scopes commit.
  int single_batches_ ABSL_GUARDED_BY(queue_mu_) = 0;
  // The storage took the last transaction (health().writable, without its
  // lock): CommitHere scopes commit only then.
  std::atomic<bool> writable_{true};
  // The thread committing, for the debug check that a callback does not
  // wait for its own commit.
  std::atomic<std::thread::id> committer_{};
  std::thread writer_thread_;

  absl::Mutex read_mu_;
  std::map<std::string, sqlite3_stmt*> read_stmts_ ABSL_GUARDED_BY(read_mu_);

  std::atomic<int64_t> transactions_{0};
  std::atomic<int64_t> writes_{0};
  std::atomic<int64_t> caller_transactions_{0};
  std::atomic<int64_t> packed_games_{0};
  std::atomic<int64_t> tallies_read_back_{0};
  std::atomic<int64_t> writer_checkpoints_{0};
};

}  // namespace cassino::recorder

#endif  // CASSINO_RECORDER_RECORDER_IMPL_H_
