#include <sys/stat.h>

#include <algorithm>
#include <cassert>
#include <deque>
#include <future>
#include <span>
#include <thread>
#include <utility>
#include <variant>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "nlohmann/json.hpp"
#include "recorder/canonical_json.h"
#include "recorder/event_pack.h"
#include "recorder/payload.h"
#include "recorder/recorder_impl.h"
#include "recorder/signature.h"
#include "recorder/tally.h"

namespace cassino::recorder {
namespace {

using Json = nlohmann::json;
using internal::ReadStoredEvents;
using internal::Summary;

// Checks that an event payload is a JSON object and, for `end` and `abort`,
// extracts the summary (an end payload must read: recorder/payload.h).
// Never throws.
absl::StatusOr<std::optional<Summary>> CheckPayload(EventKind kind,
                                                    int64_t at_us,
                                                    absl::string_view payload,
                                                    bool built) {
  if (kind == EventKind::kEnd) {
    EndFields end;
    if (absl::Status s = ParseEndPayload(payload, &end); !s.ok()) return s;
    Summary summary;
    summary.finished_us = at_us;
    summary.winner = end.winner;
    summary.end_reason = end.reason;
    std::string totals;
    JsonWriter(&totals).IntArray(end.totals);
    summary.totals = std::move(totals);
    if (end.reason == GameEndReasonName(GameEndReason::kAborted)) {
      summary.status = GameStatus::kAborted;
    }
    return summary;
  }
  // (A builder's payload is a JSON object by construction.)
  assert(!built || Json::accept(payload));
  if (payload.empty() || payload.front() != '{' ||
      (!built && !Json::accept(payload))) {
    return absl::InvalidArgumentError(absl::StrCat(
        EventKindName(kind), " payload is not a JSON object: ", payload));
  }
  if (kind == EventKind::kAbort) {
    return Summary{GameStatus::kAborted, -1, "aborted", std::nullopt, at_us};
  }
  return std::nullopt;
}

absl::StatusOr<Digest> ParseDigest(absl::string_view hex,
                                   absl::string_view what) {
  absl::StatusOr<Seed> digest = ParseSeed(hex);
  if (!digest.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, ": not 64 hex digits: '", hex, "'"));
  }
  return *digest;
}

}  // namespace

bool Recorder::Impl::Enqueue(Write write, bool may_defer) {
  bool deferred = false;
  {
    absl::MutexLock lock(&queue_mu_);
    queue_.push_back(std::move(write));
    // Quiet: the caller's scope commits it (or the committer at work takes
    // it next), and the writer thread sleeps on.
    deferred = may_defer && Quiet();
    if (deferred) ++deferred_;
  }
  if (!deferred) queue_cv_.Signal();
  return deferred;
}

absl::Status Recorder::Impl::EnqueueAndWait(Op op) {
  // From a done callback this would wait for the commit it runs in.
  assert(committer_.load() != std::this_thread::get_id());
  std::promise<absl::Status> promise;
  std::future<absl::Status> result = promise.get_future();
  Enqueue({std::move(op),
           [&promise](absl::Status s) { promise.set_value(std::move(s)); }});
  return result.get();
}

void Recorder::Impl::WaitIdle() {
  assert(committer_.load() != std::this_thread::get_id());
  absl::MutexLock lock(&queue_mu_);
  queue_mu_.Await(absl::Condition(
      +[](Impl* impl) ABSL_EXCLUSIVE_LOCKS_REQUIRED(impl->queue_mu_) {
        return !impl->committing_ && impl->queue_.empty() &&
               (impl->to_pack_.empty() || !impl->writable_.load());
      },
      this));
}

void Recorder::Impl::WriterLoop() {
  bool packed_last = false;  // the last turn was packs: writes come next
  while (true) {
    std::deque<Write> batch;
    std::vector<EndedGame> packs;
    bool probe = false;
    {
      absl::MutexLock lock(&queue_mu_);
      // A CommitHere caller's transaction (and its callbacks) first.
      while (committing_) queue_cv_.Wait(&queue_mu_);
      const StorageHealth now = health();
      if (!now.writable && !now.lost) {
        // Unhealthy: wake up every probe interval to try the storage.
        queue_cv_.WaitWithTimeout(&queue_mu_,
                                  absl::FromChrono(probe_interval_));
        probe = queue_.empty() && !stop_;
      } else {
        while (!WriterHasWork()) queue_cv_.Wait(&queue_mu_);
      }
      if (committing_) continue;  // a caller took the queue meanwhile
      // Packs: one game between two batches, so that an ended game's pack
      // delays the moves of others by one game's worth at most; with no
      // writes waiting, up to kPacksWhenIdle at once. Not while the
      // storage is unhealthy (the rows wait, complete as they are).
      const bool writable = writable_.load(std::memory_order_relaxed);
      if (!probe && writable && !to_pack_.empty() &&
          (queue_.empty() || !packed_last)) {
        const size_t n = queue_.empty() ? kPacksWhenIdle : 1;
        while (!to_pack_.empty() && packs.size() < n) {
          packs.push_back(std::move(to_pack_.front()));
          to_pack_.pop_front();
        }
        TakeCommitterRole(0);
      } else {
        if (queue_.empty() && stop_) return;  // stopping and drained
        if (queue_.empty() && !probe) continue;
        TakeQueue(batch);
      }
    }
    packed_last = !packs.empty();
    if (probe) {
      NoteStorage(Probe());
      absl::MutexLock lock(&queue_mu_);
      GiveUpCommitterRole();
    } else if (!packs.empty()) {
      const bool written = WritePacks(packs);
      absl::MutexLock lock(&queue_mu_);
      GiveUpCommitterRole();
      // The storage failed: the packs wait for it to recover.
      if (!written) {
        to_pack_.insert(to_pack_.begin(),
                        std::make_move_iterator(packs.begin()),
                        std::make_move_iterator(packs.end()));
      }
    } else {
      CommitAsCommitter(batch, /*here=*/false);
    }
  }
}

void Recorder::Impl::CommitQueuedHere() {
  std::deque<Write> batch;
  {
    absl::MutexLock lock(&queue_mu_);
    if (queue_.empty()) return;  // a committer took it
    if (committing_ || stop_ || !writable_.load(std::memory_order_relaxed)) {
      // The writer thread's, then: the committer at work wakes it when it
      // is done, and while unhealthy it probes.
      deferred_ = 0;
      queue_cv_.Signal();
      return;
    }
    TakeQueue(batch);
  }
  CommitAsCommitter(batch, /*here=*/true);
}

void Recorder::Impl::TakeQueue(std::deque<Write>& batch) {
  batch.swap(queue_);
  deferred_ = 0;
  TakeCommitterRole(batch.size());
}

bool Recorder::Impl::WriterHasWork() const {
  if (stop_ || queue_.size() > deferred_) return true;
  return deferred_ == 0 && !to_pack_.empty() && writable_.load();
}

bool Recorder::Impl::Quiet() const {
  return commit_here_after_ > 0 && single_batches_ >= commit_here_after_ &&
         writable_.load(std::memory_order_relaxed);
}

void Recorder::Impl::GiveUpCommitterRole() {
  committing_ = false;
  committer_.store({});
}

void Recorder::Impl::TakeCommitterRole(size_t writes) {
  committing_ = true;
  committer_.store(std::this_thread::get_id());
  // (Capped: a single busier moment ends the quiet. A probe takes no
  // writes and changes nothing.)
  if (writes == 1) {
    single_batches_ = std::min(single_batches_ + 1, commit_here_after_);
  } else if (writes > 1) {
    single_batches_ = 0;
  }
  quiet_ = Quiet();
}

void Recorder::Impl::CommitAsCommitter(std::deque<Write>& batch, bool here) {
  for (int commits = 1;; ++commits) {
    if (here) caller_transactions_.fetch_add(1, std::memory_order_relaxed);
    WriteBatch(batch);
    batch.clear();
    bool wake = false;
    {
      absl::MutexLock lock(&queue_mu_);
      // A caller's thread: one write came meanwhile, still quiet (the other
      // seat's answer to the turn this commit sent, read by another thread
      // whose scope found this one committing). This thread commits it
      // too, rather than waking the writer thread for it; bounded, so that
      // a gRPC thread returns to gRPC.
      if (here && commits < kCommitsHereInARow && queue_.size() == 1 &&
          !stop_ && Quiet()) {
        TakeQueue(batch);
        continue;
      }
      GiveUpCommitterRole();
      wake = !queue_.empty() || !to_pack_.empty() || stop_;
    }
    // Writes queued meanwhile go to the writer thread (when this is the
    // writer thread, it finds them as it loops; the signal finds no
    // waiter).
    if (wake) queue_cv_.Signal();
    return;
  }
}

namespace {

// Whether a failed write failed for a reason of the storage (a full disk, an
// I/O error, a file it cannot write or that is gone) rather than of the
// write itself (an unknown game, a duplicate, a bad payload).
bool IsStorageFault(const absl::Status& s) {
  switch (s.code()) {
    case absl::StatusCode::kUnavailable:
    case absl::StatusCode::kInternal:
    case absl::StatusCode::kDataLoss:
    case absl::StatusCode::kResourceExhausted:
      return true;
    default:
      return false;
  }
}

// A tally for a game of `players` seats (at most 64 counted) and these
// rules: the one sizing of WriteTally and StartTally.
TallyBuilder NewTally(absl::string_view rules, int64_t players) {
  const int seats = static_cast<int>(std::clamp<int64_t>(players, 0, 64));
  return TallyBuilder(seats, TallySides(rules, seats));
}

}  // namespace

absl::Status Recorder::Impl::Probe() {
  absl::Status s = Exec(writer_, "BEGIN IMMEDIATE");
  if (s.ok()) {
    absl::StatusOr<int> version = SchemaVersion(writer_);
    s = version.status();
    if (s.ok()) {
      s = Exec(writer_, absl::StrCat("PRAGMA user_version=", *version));
    }
    if (s.ok()) s = Exec(writer_, "COMMIT");
    if (!s.ok() && sqlite3_get_autocommit(writer_) == 0) {
      Exec(writer_, "ROLLBACK").IgnoreError();
    }
  }
  if (s.ok()) s = CheckFiles();
  return s;
}

absl::Status Recorder::Impl::CheckFiles() {
  auto id_of = [](const std::string& file) -> std::optional<FileId> {
    struct stat st;
    if (file.empty() || ::stat(file.c_str(), &st) != 0) return std::nullopt;
    return FileId{static_cast<uint64_t>(st.st_dev),
                  static_cast<uint64_t>(st.st_ino)};
  };
  auto gone = [](const std::string& what, const std::string& file) {
    return absl::FailedPreconditionError(absl::StrCat(
        "the ", what, " ", file,
        " was deleted or replaced while the referee ran: writes since are "
        "not acknowledged; restart the referee (docs/crash_safety.md)"));
  };
  const std::optional<FileId> db = id_of(db_file_);
  if (!db_id_) db_id_ = db;
  if (!db || !db_id_ || *db != *db_id_) return gone("database file", db_file_);
  const std::optional<FileId> wal = id_of(wal_file_);
  if (!wal_id_) wal_id_ = wal;  // (the WAL exists once a write committed)
  if (wal_id_ && (!wal || *wal != *wal_id_)) return gone("WAL", wal_file_);
  return absl::OkStatus();
}

void Recorder::Impl::NoteStorage(const absl::Status& storage_fault) {
  std::function<void(const StorageHealth&)> listener;
  StorageHealth now;
  {
    absl::MutexLock lock(&health_mu_);
    if (health_.lost) return;  // permanent
    StorageHealth next;
    if (!storage_fault.ok()) {
      next.writable = false;
      next.lost = storage_fault.code() == absl::StatusCode::kFailedPrecondition;
      next.fault = std::string(storage_fault.message());
    }
    if (next.writable == health_.writable && next.lost == health_.lost) {
      return;
    }
    health_ = next;
    writable_.store(next.writable, std::memory_order_relaxed);
    now = health_;
    listener = health_listener_;
  }
  if (listener) listener(now);
}

StorageHealth Recorder::Impl::health() const {
  absl::MutexLock lock(&health_mu_);
  return health_;
}

void Recorder::Impl::OnHealthChange(
    std::function<void(const StorageHealth&)> listener) {
  absl::MutexLock lock(&health_mu_);
  health_listener_ = std::move(listener);
}

Recorder::Impl::BatchOutcome Recorder::Impl::TryBatch(std::deque<Write>& batch,
                                                      bool savepoints) {
  BatchOutcome out;
  out.results.resize(batch.size());
  overlay_.clear();
  ended_.clear();
  ended_read_back_ = 0;
  out.txn = Query(w_.begin).Run("BEGIN");
  if (!out.txn.ok()) return out;
  for (size_t i = 0; i < batch.size(); ++i) {
    // With savepoints, one failing write (an unknown or duplicate game, a
    // bad payload) fails alone. DoWrite changes overlay_ only after all of
    // its SQL succeeded, so a failed write leaves the overlay as it was.
    absl::Status s =
        savepoints ? Query(w_.savepoint).Run("SAVEPOINT") : absl::OkStatus();
    if (s.ok()) {
      s = std::visit([this](const auto& op) { return DoWrite(op); },
                     batch[i].op);
      if (savepoints) {
        if (s.ok()) {
          s = Query(w_.release).Run("RELEASE");
        } else if (sqlite3_get_autocommit(writer_) == 0) {
          Query(w_.rollback_to).Run("ROLLBACK TO").IgnoreError();
          Query(w_.release).Run("RELEASE").IgnoreError();
        }
      }
    }
    if (s.ok()) ++out.written;
    if (!s.ok() && IsStorageFault(s)) out.storage_fault = s;
    out.results[i] = s;
    if (sqlite3_get_autocommit(writer_) != 0) {
      // SQLite rolled the whole transaction back (a full disk, an I/O
      // error): every write of the batch is lost, and writing on would
      // commit each of the rest on its own.
      out.txn = s.ok()
                    ? absl::UnavailableError("the transaction was rolled back")
                    : s;
      return out;
    }
    if (!s.ok() && !savepoints) {
      // The write's SQL may be half done: nothing of this attempt stays.
      Query(w_.rollback).Run("ROLLBACK").IgnoreError();
      out.txn = s;
      out.redo_with_savepoints = true;
      return out;
    }
  }
  out.txn = CommitTransaction();
  return out;
}

absl::Status Recorder::Impl::CommitTransaction() {
  absl::Status s = Query(w_.commit).Run("COMMIT");
  if (!s.ok() && sqlite3_get_autocommit(writer_) == 0) {
    Query(w_.rollback).Run("ROLLBACK").IgnoreError();
  }
  // Committed, but into the files opened? A deleted or replaced database
  // file or WAL means the commit reached no file anyone will read.
  if (s.ok()) s = CheckFiles();
  return s;
}

void Recorder::Impl::WriteBatch(std::deque<Write>& batch) {
  BatchOutcome out = TryBatch(batch, /*savepoints=*/false);
  // A write failed with the transaction still open (for a reason of its
  // own or of the storage): again, each write alone, as the savepoints
  // allow the others to commit.
  if (out.redo_with_savepoints) out = TryBatch(batch, /*savepoints=*/true);
  std::vector<absl::Status>& results = out.results;
  if (out.txn.ok()) {
    for (auto& [id, state] : overlay_) {
      if (state.closed) {
        cache_.erase(id);
      } else {
        cache_[id] = state;
      }
    }
    transactions_.fetch_add(1, std::memory_order_relaxed);
    writes_.fetch_add(out.written, std::memory_order_relaxed);
    tallies_read_back_.fetch_add(ended_read_back_, std::memory_order_relaxed);
    if (!ended_.empty()) {
      absl::MutexLock lock(&queue_mu_);
      to_pack_.insert(to_pack_.end(), std::make_move_iterator(ended_.begin()),
                      std::make_move_iterator(ended_.end()));
    }
  } else {
    for (absl::Status& s : results) {
      if (s.ok()) s = out.txn;
    }
    // (A tally left ahead of its game's chain would be dropped at the
    // game's next event; a game whose creation is lost has none.)
    for (const auto& [id, state] : overlay_) tallies_.erase(id);
  }
  NoteStorage(out.txn.ok() ? out.storage_fault : out.txn);
  overlay_.clear();
  ended_.clear();
  // The callbacks, in order, here: a separate completion thread cost every
  // batch a wake-up and a context switch on the way to the bots (10-25%
  // of the moves a second in the compact play mode: docs/performance.md).
  // Writes queued meanwhile make the next transaction.
  for (size_t i = 0; i < batch.size(); ++i) {
    if (batch[i].done) batch[i].done(std::move(results[i]));
  }
}

absl::Status Recorder::Impl::GameExists(const std::string& game_id,
                                        bool* exists) {
  Query q(w_.game_exists);
  q.Bind(1, game_id);
  int rc = q.Step();
  if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
    return SqlError(writer_, rc, "looking up a game");
  }
  *exists = rc == SQLITE_ROW;
  return absl::OkStatus();
}

absl::StatusOr<Recorder::Impl::ChainState> Recorder::Impl::Chain(
    const std::string& game_id) {
  if (auto it = overlay_.find(game_id); it != overlay_.end()) {
    return it->second;
  }
  if (auto it = cache_.find(game_id); it != cache_.end()) return it->second;
  Query q(w_.last_event);
  q.Bind(1, game_id);
  int rc = q.Step();
  if (rc == SQLITE_DONE) {
    // No rows: an unknown game, or an ended one whose events are packed.
    Query p(w_.pack_exists);
    p.Bind(1, game_id);
    rc = p.Step();
    if (rc == SQLITE_ROW) {
      return absl::FailedPreconditionError(
          absl::StrCat("game '", game_id, "' has ended"));
    }
    if (rc != SQLITE_DONE) {
      return SqlError(writer_, rc, "looking for an event pack");
    }
    return absl::NotFoundError(absl::StrCat("unknown game '", game_id, "'"));
  }
  if (rc != SQLITE_ROW) return SqlError(writer_, rc, "reading the last event");
  // An ended game whose rows are not packed (yet: the writer packs them
  // after the end's commit; or never: ended before schema version 5, or a
  // crash came first).
  if (q.View(2) == "end" || q.View(2) == "abort") {
    return absl::FailedPreconditionError(
        absl::StrCat("game '", game_id, "' has ended"));
  }
  absl::StatusOr<Digest> hash =
      ParseDigest(q.Text(1), absl::StrCat("game ", game_id, " last hash"));
  if (!hash.ok()) return absl::DataLossError(hash.status().message());
  ChainState state{q.Int(0) + 1, *hash, false};
  // Reads here see only committed rows for this game (this transaction's
  // writes to it would be in overlay_), so the cache may take them.
  cache_[game_id] = state;
  return state;
}

absl::Status Recorder::Impl::InsertGame(const GameHeader& h, GameStatus status,
                                        const std::optional<Summary>& summary) {
  for (const std::string& deck : h.explicit_decks) {
    if (deck.find('\n') != std::string::npos) {
      return absl::InvalidArgumentError("an explicit deck contains a newline");
    }
  }
  {
    Query q(w_.insert_game);
    q.Bind(1, h.game_id)
        .Bind(2, h.label)
        .Bind(3, h.rules)
        .Bind(4, h.commitment)
        .Bind(5, h.seed)
        .Bind(6, absl::StrJoin(h.explicit_decks, "\n"))
        .Bind(7, h.clock.per_move_ms)
        .Bind(8, h.clock.bank_ms)
        .Bind(9, static_cast<int64_t>(h.clock.max_illegal))
        .Bind(10, h.created_us)
        .Bind(11, GameStatusName(status));
    if (summary.has_value()) {
      q.Bind(12, static_cast<int64_t>(summary->winner))
          .Bind(13, summary->end_reason)
          .Bind(15, summary->finished_us);
      if (summary->totals.has_value()) q.Bind(14, *summary->totals);
    }
    if (absl::Status s = q.Run("inserting a game"); !s.ok()) return s;
  }
  for (size_t seat = 0; seat < h.seats.size(); ++seat) {
    Query q(w_.insert_seat);
    q.Bind(1, h.game_id)
        .Bind(2, static_cast<int64_t>(seat))
        .Bind(3, h.seats[seat].bot_name)
        .Bind(4, h.seats[seat].token_hash);
    if (absl::Status s = q.Run("inserting a seat"); !s.ok()) return s;
  }
  for (size_t seat = 0; seat < h.seats.size(); ++seat) {
    if (h.seats[seat].account.empty()) continue;
    Query q(w_.set_seat_account);
    q.Bind(1, h.game_id)
        .Bind(2, static_cast<int64_t>(seat))
        .Bind(3, h.seats[seat].account);
    if (absl::Status s = q.Run("naming a seat's account"); !s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::Status Recorder::Impl::InsertEvent(const std::string& game_id,
                                         int64_t seq, EventKind kind,
                                         int64_t at_us,
                                         absl::string_view payload,
                                         absl::string_view hash) {
  Query q(w_.insert_event);
  q.Bind(1, game_id)
      .Bind(2, seq)
      .Bind(3, EventKindName(kind))
      .Bind(4, at_us)
      .Bind(5, payload)
      .Bind(6, hash);
  return q.Run("inserting an event");
}

absl::Status Recorder::Impl::SetSummary(const std::string& game_id,
                                        const Summary& summary) {
  Query q(w_.set_summary);
  q.Bind(1, game_id)
      .Bind(2, GameStatusName(summary.status))
      .Bind(3, static_cast<int64_t>(summary.winner))
      .Bind(4, summary.end_reason)
      .Bind(6, summary.finished_us);
  if (summary.totals.has_value()) q.Bind(5, *summary.totals);
  return q.Run("updating the game summary");
}

absl::Status Recorder::Impl::InsertTally(const std::string& game_id,
                                         const GameTally& tally) {
  if (!has_tallies_) return absl::OkStatus();
  Query q(w_.insert_tally);
  q.Bind(1, game_id)
      .Bind(2, tally.events)
      .Bind(3, tally.rounds)
      .Bind(4, tally.moves)
      .Bind(5, tally.bad_moves)
      .Bind(6, tally.bad_events)
      .Bind(7, tally.PointsText())
      .Bind(8, tally.ConductText())
      .Bind(9, tally.MoveMsText());
  return q.Run("writing the game tally");
}

absl::Status Recorder::Impl::WriteTally(const std::string& game_id,
                                        std::span<const Event> events) {
  if (!has_tallies_) return absl::OkStatus();
  std::string rules;
  int64_t players = 0;
  {
    Query q(w_.game_shape);
    q.Bind(1, game_id);
    int rc = q.Step();
    if (rc != SQLITE_ROW)
      return SqlError(writer_, rc, "reading a game's rules");
    rules = q.Text(0);
    players = q.Int(1);
  }
  TallyBuilder builder = NewTally(rules, players);
  for (const Event& e : events) builder.Add(e.kind, e.payload);
  return InsertTally(game_id, builder.tally());
}

absl::Status Recorder::Impl::PackRows(const std::string& game_id,
                                      std::span<const Event> events) {
  absl::StatusOr<std::string> pack = PackEvents(events);
  if (!pack.ok()) {
    return absl::Status(
        pack.status().code(),
        absl::StrCat("game ", game_id, ": ", pack.status().message()));
  }
  {
    Query q(w_.insert_pack);
    q.Bind(1, game_id)
        .Bind(2, static_cast<int64_t>(events.size()))
        .BindBlob(3, *pack);
    if (absl::Status s = q.Run("writing an event pack"); !s.ok()) return s;
  }
  Query q(w_.delete_rows);
  q.Bind(1, game_id);
  return q.Run("deleting packed event rows");
}

void Recorder::Impl::StartTally(const GameHeader& h, absl::string_view payload,
                                const Digest& hash) {
  if (!has_tallies_ || tallies_.size() >= running_tallies_) return;
  TallyBuilder builder =
      NewTally(h.rules, static_cast<int64_t>(h.seats.size()));
  builder.Add(EventKind::kCreate, payload);
  tallies_[h.game_id] = RunningTally{hash, builder.Take()};
}

void Recorder::Impl::AdvanceTally(const std::string& game_id,
                                  const Digest& previous, EventKind kind,
                                  absl::string_view payload,
                                  const Digest& hash) {
  auto it = tallies_.find(game_id);
  if (it == tallies_.end()) return;
  if (it->second.head != previous) {
    tallies_.erase(it);
    return;
  }
  tally_builder_.Resume(std::move(it->second.tally));
  tally_builder_.Add(kind, payload);
  it->second = RunningTally{hash, tally_builder_.Take()};
}

absl::Status Recorder::Impl::CloseGame(const std::string& game_id,
                                       const Digest& head) {
  std::optional<GameTally> running;
  if (auto it = tallies_.find(game_id); it != tallies_.end()) {
    if (it->second.head == head) running = std::move(it->second.tally);
    tallies_.erase(it);
  }
  if (running.has_value() && quiet_) {
    // Nothing to read: the pack reads the rows in its own transaction.
    if (absl::Status s = InsertTally(game_id, *running); !s.ok()) return s;
    ended_.push_back({game_id, {}});
    return absl::OkStatus();
  }
  std::vector<Event> events;
  if (absl::Status s =
          ReadStoredEvents(w_.game_rows, w_.game_pack, game_id, &events);
      !s.ok()) {
    return s;
  }
  absl::Status tallied;
  if (running.has_value()) {
    tallied = InsertTally(game_id, *running);
  } else {
    tallied = WriteTally(game_id, events);
    if (has_tallies_) ++ended_read_back_;
  }
  if (!tallied.ok()) return tallied;
  if (!quiet_) return PackRows(game_id, events);
  ended_.push_back({game_id, std::move(events)});
  return absl::OkStatus();
}

absl::Status Recorder::Impl::PackEnded(const EndedGame& game) {
  std::vector<Event> read;
  std::span<const Event> events = game.events;
  if (events.empty()) {
    absl::Status s =
        ReadStoredEvents(w_.game_rows, w_.game_pack, game.game_id, &read);
    // Rows that cannot be read back as events (DataLoss) are the game's
    // own failure, not the storage's: they stay, and verify names them.
    if (s.code() == absl::StatusCode::kDataLoss) {
      return absl::FailedPreconditionError(s.message());
    }
    if (!s.ok()) return s;
    events = read;
  }
  // (A pack already there is refused by event_packs' key: the game's own
  // failure.)
  if (absl::Status s = PackRows(game.game_id, events); !s.ok()) return s;
  // The rows deleted are the events packed, or nothing of it stays.
  if (sqlite3_changes64(writer_) != static_cast<int64_t>(events.size())) {
    return absl::FailedPreconditionError(absl::StrCat(
        "game ", game.game_id, ": its rows changed after its end was read"));
  }
  return absl::OkStatus();
}

bool Recorder::Impl::WritePacks(const std::vector<EndedGame>& games) {
  absl::Status txn = Query(w_.begin).Run("BEGIN");
  int64_t packed = 0;
  for (size_t i = 0; i < games.size() && txn.ok(); ++i) {
    txn = Query(w_.savepoint).Run("SAVEPOINT");
    if (!txn.ok()) break;
    const absl::Status s = PackEnded(games[i]);
    if (s.ok()) {
      txn = Query(w_.release).Run("RELEASE");
      ++packed;
    } else if (IsStorageFault(s) || sqlite3_get_autocommit(writer_) != 0) {
      txn = s;
    } else {
      // The game's own failure (a pack beside its rows, say: verify names
      // such a game): its rows stay, the others' packs go on.
      Query(w_.rollback_to).Run("ROLLBACK TO").IgnoreError();
      txn = Query(w_.release).Run("RELEASE");
    }
  }
  if (txn.ok()) {
    txn = CommitTransaction();
  } else if (sqlite3_get_autocommit(writer_) == 0) {
    Query(w_.rollback).Run("ROLLBACK").IgnoreError();
  }
  if (txn.ok()) packed_games_.fetch_add(packed, std::memory_order_relaxed);
  NoteStorage(txn);
  return txn.ok();
}

absl::Status Recorder::Impl::CheckGameIsNew(const std::string& game_id) {
  bool exists = overlay_.contains(game_id) || cache_.contains(game_id);
  if (!exists) {
    if (absl::Status s = GameExists(game_id, &exists); !s.ok()) return s;
  }
  if (exists) {
    return absl::AlreadyExistsError(
        absl::StrCat("game '", game_id, "' already exists"));
  }
  return absl::OkStatus();
}

absl::Status Recorder::Impl::CheckNewGame(const GameHeader& h) {
  bool scheduled = false;
  if (absl::Status s = CheckLadderGame(h.label, h.game_id, &scheduled);
      !s.ok()) {
    return s;
  }
  if (!h.label.empty() && !scheduled) {
    Query t(w_.tournament_exists);
    t.Bind(1, h.label);
    int rc = t.Step();
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
      return SqlError(writer_, rc, "reading tournaments");
    }
    if (rc == SQLITE_ROW) {
      Query g(w_.scheduled_game);
      g.Bind(1, h.label).Bind(2, h.game_id);
      rc = g.Step();
      if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
        return SqlError(writer_, rc, "reading a schedule");
      }
      if (rc == SQLITE_DONE) {
        return absl::FailedPreconditionError(absl::StrCat(
            "label '", h.label,
            "' is the name of a tournament: only the referee's scheduler "
            "creates games with it"));
      }
      scheduled = true;
    }
  }
  // (A scheduled game may seat a revoked account: its seat forfeits at
  // once, docs/tournaments.md.)
  if (scheduled) return absl::OkStatus();
  for (size_t seat = 0; seat < h.seats.size(); ++seat) {
    const std::string& account = h.seats[seat].account;
    if (account.empty()) continue;
    Query q(w_.account_revoked);
    q.Bind(1, account);
    const int rc = q.Step();
    if (rc == SQLITE_ROW && !q.IsNull(0)) {
      return absl::FailedPreconditionError(absl::StrCat(
          "seats[", seat, "].account: bot account '", account, "' is revoked"));
    }
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
      return SqlError(writer_, rc, "reading a bot account");
    }
  }
  return absl::OkStatus();
}

absl::Status Recorder::Impl::DoWrite(const CreateWrite& w) {
  const GameHeader& h = w.header;
  if (h.game_id.empty()) return absl::InvalidArgumentError("empty game id");
  Digest previous{};
  if (!h.commitment.empty()) {
    absl::StatusOr<Digest> commitment = ParseDigest(h.commitment, "commitment");
    if (!commitment.ok()) return commitment.status();
    previous = *commitment;
  }
  if (absl::Status s = CheckGameIsNew(h.game_id); !s.ok()) return s;
  if (absl::Status s = CheckNewGame(h); !s.ok()) return s;
  if (absl::Status s = InsertGame(h, GameStatus::kRunning, std::nullopt);
      !s.ok()) {
    return s;
  }
  const std::string payload = CreatePayload(h);
  const Digest hash = ChainHash(previous, EventKind::kCreate, payload);
  if (absl::Status s = InsertEvent(h.game_id, 0, EventKind::kCreate,
                                   h.created_us, payload, ToHex(hash));
      !s.ok()) {
    return s;
  }
  StartTally(h, payload, hash);
  overlay_[h.game_id] = ChainState{1, hash, false};
  return absl::OkStatus();
}

absl::Status Recorder::Impl::DoWrite(const AppendWrite& w) {
  // On failure the savepoint undoes the SQL; the chain state is put back
  // here, so that the overlay again matches what is written.
  const auto before = overlay_.find(w.game_id);
  const std::optional<ChainState> saved =
      before == overlay_.end() ? std::nullopt
                               : std::optional<ChainState>(before->second);
  for (const Recorder::NewEvent& e : w.events) {
    absl::Status s = AppendOne(w.game_id, e);
    if (!s.ok()) {
      if (saved) {
        overlay_[w.game_id] = *saved;
      } else {
        overlay_.erase(w.game_id);
      }
      return s;
    }
  }
  return absl::OkStatus();
}

absl::Status Recorder::Impl::AppendOne(const std::string& game_id,
                                       const Recorder::NewEvent& e) {
  if (e.kind == EventKind::kCreate) {
    return absl::InvalidArgumentError(
        "create events are written by CreateGame, not Append");
  }
  absl::StatusOr<std::optional<Summary>> summary =
      CheckPayload(e.kind, e.at_us, e.payload, e.built);
  if (!summary.ok()) return summary.status();
  absl::StatusOr<ChainState> chain = Chain(game_id);
  if (!chain.ok()) return chain.status();
  if (chain->closed) {
    return absl::FailedPreconditionError(
        absl::StrCat("game '", game_id, "' has ended"));
  }
  // The last event of the game is signed here, where the chain head is
  // known (recorder/signature.h).
  std::string signed_payload;
  absl::string_view payload = e.payload;
  if (signing_key_.has_value() && summary->has_value()) {
    absl::StatusOr<std::string> s = SignLastPayload(
        *signing_key_, game_id, chain->last_hash, e.kind, e.payload);
    if (!s.ok()) return s.status();
    signed_payload = *std::move(s);
    payload = signed_payload;
  }
  const Digest hash = ChainHash(chain->last_hash, e.kind, payload);
  if (absl::Status s = InsertEvent(game_id, chain->next_seq, e.kind, e.at_us,
                                   payload, ToHex(hash));
      !s.ok()) {
    return s;
  }
  AdvanceTally(game_id, chain->last_hash, e.kind, payload, hash);
  if (summary->has_value()) {
    if (absl::Status s = SetSummary(game_id, **summary); !s.ok()) return s;
    if (absl::Status s = CloseGame(game_id, hash); !s.ok()) return s;
  }
  overlay_[game_id] = ChainState{chain->next_seq + 1, hash,
                                 chain->closed || summary->has_value()};
  return absl::OkStatus();
}

absl::Status Recorder::Impl::DoWrite(const ImportWrite& w) {
  const GameRecord& r = *w.record;
  const GameHeader& h = r.header;
  if (h.game_id.empty()) return absl::InvalidArgumentError("empty game id");
  if (r.events.empty() || r.events[0].kind != EventKind::kCreate) {
    return absl::InvalidArgumentError(
        absl::StrCat("game ", h.game_id, ": a record starts with create"));
  }
  Digest last{};
  std::optional<Summary> summary;
  for (size_t i = 0; i < r.events.size(); ++i) {
    const Event& e = r.events[i];
    if (e.seq != static_cast<int64_t>(i)) {
      return absl::InvalidArgumentError(
          absl::StrCat("game ", h.game_id, ": event ", i, " has seq ", e.seq));
    }
    if (i > 0 && e.kind == EventKind::kCreate) {
      return absl::InvalidArgumentError(
          absl::StrCat("game ", h.game_id, ": create may only be event 0"));
    }
    absl::StatusOr<Digest> hash = ParseDigest(
        e.hash, absl::StrCat("game ", h.game_id, " event ", i, " hash"));
    if (!hash.ok()) return hash.status();
    last = *hash;
    absl::StatusOr<std::optional<Summary>> s =
        CheckPayload(e.kind, e.at_us, e.payload, /*built=*/false);
    if (!s.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "game ", h.game_id, " event ", i, ": ", s.status().message()));
    }
    if (s->has_value()) summary = *std::move(s).value();
  }
  if (absl::Status s = CheckGameIsNew(h.game_id); !s.ok()) return s;
  if (r.status == GameStatus::kRunning) {
    summary.reset();
  } else if (summary.has_value()) {
    summary->status = r.status;
  } else {
    summary = Summary{r.status, -1, "", std::nullopt, r.events.back().at_us};
  }
  // The accounts the seats name must exist (seats.account references
  // bot_accounts): one this database does not know is added without a key
  // and revoked, so nothing can play as it until an organiser rotates its
  // key (docs/export_format.md).
  for (const SeatInfo& seat : h.seats) {
    if (seat.account.empty()) continue;
    Query q(w_.import_account);
    q.Bind(1, seat.account).Bind(2, h.created_us);
    if (absl::Status s = q.Run("adding an imported seat's account"); !s.ok()) {
      return s;
    }
  }
  if (absl::Status s = InsertGame(h, r.status, summary); !s.ok()) return s;
  if (r.status == GameStatus::kRunning) {
    for (const Event& e : r.events) {
      if (absl::Status s =
              InsertEvent(h.game_id, e.seq, e.kind, e.at_us, e.payload,
                          absl::AsciiStrToLower(e.hash));
          !s.ok()) {
        return s;
      }
    }
  } else {
    // An ended game is stored as the referee leaves one: its events
    // packed. Derived data is never imported: the tally is computed from
    // the events.
    if (absl::Status s = PackRows(h.game_id, r.events); !s.ok()) return s;
    if (absl::Status s = InsertTally(h.game_id, TallyOf(r)); !s.ok()) return s;
  }
  overlay_[h.game_id] = ChainState{static_cast<int64_t>(r.events.size()), last,
                                   r.status != GameStatus::kRunning};
  return absl::OkStatus();
}

absl::Status Recorder::Impl::DoWrite(const AccountWrite& w) {
  const BotAccountRow& a = w.account;
  if (a.name.empty()) return absl::InvalidArgumentError("empty account name");
  Query q(w.insert ? w_.insert_account : w_.update_account);
  q.Bind(1, a.name)
      .Bind(2, a.owner)
      .Bind(3, a.contact)
      .Bind(4, a.key_hash)
      .Bind(5, a.created_us)
      .Bind(6, a.key_us);
  if (a.revoked_us != 0) {
    q.Bind(7, a.revoked_us);
  } else {
    q.BindNull(7);
  }
  const int rc = q.Step();
  if (rc != SQLITE_DONE) {
    if (w.insert && (rc & 0xff) == SQLITE_CONSTRAINT) {
      return absl::AlreadyExistsError(
          absl::StrCat("bot account '", a.name, "' already exists"));
    }
    return SqlError(writer_, rc, "writing a bot account");
  }
  if (!w.insert && sqlite3_changes(writer_) == 0) {
    return absl::NotFoundError(absl::StrCat("no bot account '", a.name, "'"));
  }
  return absl::OkStatus();
}

absl::Status Recorder::Impl::DoWrite(const SeatTokenWrite& w) {
  Query q(w_.set_seat_token);
  q.Bind(1, w.game_id)
      .Bind(2, static_cast<int64_t>(w.seat))
      .Bind(3, w.token_hash);
  if (absl::Status s = q.Run("setting a seat token"); !s.ok()) return s;
  if (sqlite3_changes(writer_) == 0) {
    return absl::NotFoundError(
        absl::StrCat("no seat ", w.seat, " in game '", w.game_id, "'"));
  }
  return absl::OkStatus();
}

absl::Status Recorder::Impl::DoWrite(const TournamentWrite& w) {
  const TournamentRow& t = w.tournament;
  if (t.name.empty())
    return absl::InvalidArgumentError("empty tournament name");
  if (!w.more_games) {
    Query q(w_.label_used);
    q.Bind(1, t.name);
    const int rc = q.Step();
    if (rc == SQLITE_ROW) {
      return absl::AlreadyExistsError(
          absl::StrCat("games labelled '", t.name,
                       "' already exist; a tournament's name must be a new "
                       "label"));
    }
    if (rc != SQLITE_DONE) return SqlError(writer_, rc, "reading labels");
    bool ladder = false;
    if (absl::Status s = CheckLadderGame(t.name, "", &ladder); !ladder) {
      if (!s.ok()) return s;
    } else {
      return absl::AlreadyExistsError(
          absl::StrCat("'", t.name, "' is the name of a ladder"));
    }
  }
  if (!w.more_games) {
    Query q(w_.insert_tournament);
    q.Bind(1, t.name)
        .Bind(2, Json(t.participants).dump())
        .Bind(3, t.format)
        .Bind(4, static_cast<int64_t>(t.games_per_pairing))
        .Bind(5, static_cast<int64_t>(t.duplicate ? 1 : 0))
        .Bind(6, t.rules)
        .Bind(7, t.clock.per_move_ms)
        .Bind(8, t.clock.bank_ms)
        .Bind(9, static_cast<int64_t>(t.clock.max_illegal))
        .Bind(10, static_cast<int64_t>(t.max_concurrent))
        .Bind(11, t.grace_ms)
        .Bind(12, t.seed)
        .Bind(13, t.commitment)
        .Bind(14, t.status)
        .Bind(15, t.reason)
        .Bind(16, t.created_us);
    if (t.ended_us != 0) q.Bind(17, t.ended_us);
    const int rc = q.Step();
    if (rc != SQLITE_DONE) {
      if (rc == SQLITE_CONSTRAINT_PRIMARYKEY) {
        return absl::AlreadyExistsError(
            absl::StrCat("tournament '", t.name, "' already exists"));
      }
      return SqlError(writer_, rc, "inserting a tournament");
    }
  }
  for (const TournamentGameRow& g : w.games) {
    if (g.seats.size() != 2) {
      return absl::InvalidArgumentError("a tournament game has two seats");
    }
    Query q(w_.insert_tournament_game);
    q.Bind(1, t.name)
        .Bind(2, static_cast<int64_t>(g.index))
        .Bind(3, g.seats[0])
        .Bind(4, g.seats[1])
        .Bind(5, g.seed);
    if (!g.game_id.empty()) q.Bind(6, g.game_id);
    if (absl::Status s = q.Run("inserting a tournament game"); !s.ok()) {
      return s;
    }
  }
  return absl::OkStatus();
}

absl::Status Recorder::Impl::DoWrite(const TournamentGameWrite& w) {
  Query q(w_.set_tournament_game);
  q.Bind(1, w.tournament).Bind(2, static_cast<int64_t>(w.index));
  if (!w.game_id.empty()) q.Bind(3, w.game_id);
  if (absl::Status s = q.Run("setting a tournament game"); !s.ok()) return s;
  if (sqlite3_changes(writer_) == 0) {
    return absl::NotFoundError(absl::StrCat(
        "no game ", w.index, " in tournament '", w.tournament, "'"));
  }
  return absl::OkStatus();
}

absl::Status Recorder::Impl::DoWrite(const TournamentEndWrite& w) {
  Query q(w_.end_tournament);
  q.Bind(1, w.tournament)
      .Bind(2, w.status)
      .Bind(3, w.reason)
      .Bind(4, w.ended_us);
  if (absl::Status s = q.Run("ending a tournament"); !s.ok()) return s;
  if (sqlite3_changes(writer_) == 0) {
    return absl::NotFoundError(
        absl::StrCat("no tournament '", w.tournament, "'"));
  }
  return absl::OkStatus();
}

}  // namespace cassino::recorder
