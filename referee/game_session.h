// One game in the referee: the engine state, the seats' clocks, the open
// streams, and the order in which things reach the record and the bots.
//
// Ownership and threads: a GameSession is shared (shared_ptr) by the
// registry, the streams playing it and pending record callbacks. All its
// state is guarded by one mutex, held only for in-memory work: it never
// waits for I/O while holding it. Record writes are queued to the Recorder;
// everything a write makes visible (the verdict, the move to the other
// seats, the next YourTurn) is sent from the write's commit callback, so a
// bot is never told of anything that is not on disk.
//
// Turn life cycle: a turn starts when the previous move is committed (or the
// game is created or resumed); the seat to move then has per_move_ms plus
// its bank. A submission is validated by the engine: an illegal one is
// recorded as a rejection (the seat forfeits on its max_illegal-th); a
// legal one is played, recorded with the time it took, and published. When
// the deadline passes first, the seat forfeits on time.
//
// Absent seats: a seat "shows up" when its bot first uses the seat (a Play
// stream, GetTurn or a submission; after a restart, a seat whose
// submissions are in the record has shown up). When a seat's time runs
// out and no seat of the game has shown up, the game is aborted rather
// than forfeited: nobody who was never there is credited or debited (a
// game created for bots that never connected, e.g. before a kill -9 and a
// restart that they did not come back to). Once any seat has shown up, a
// seat whose time runs out forfeits as always.
//
// Clocks use the steady clock; a referee restart gives the seat to move a
// fresh per-move allowance (its bank is kept): time while the referee was
// down is not charged to anyone.
//
// A record write that fails (a full disk, an I/O error) is never
// acknowledged: the game stops answering (UNAVAILABLE, RECORD_UNAVAILABLE)
// and waits for Recover(), which the registry calls once the storage takes
// writes again; the game then goes on from its record, as after a restart.
//
// Bounds: each seat may park at most SessionDeps::max_waiters_per_seat
// GetTurn(wait) calls and the game at most max_watchers spectators; beyond
// them a call is refused (RESOURCE_EXHAUSTED, LIMIT_REACHED).

#ifndef CASSINO_REFEREE_GAME_SESSION_H_
#define CASSINO_REFEREE_GAME_SESSION_H_

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "recorder/payload.h"
#include "recorder/record.h"
#include "recorder/recorder.h"
#include "recorder/replay.h"
#include "referee/channel.h"
#include "referee/deadline_timer.h"
#include "referee/executor.h"
#include "referee/game_info.h"
#include "referee/rate_limiter.h"
#include "referee/seed_holds.h"
#include "referee/session_events.h"
#include "rules/game.h"

namespace cassino::service {

// What every session of one referee shares. Both outlive every session.
struct SessionDeps {
  recorder::Recorder* recorder = nullptr;
  DeadlineTimer* timer = nullptr;
  // Requests each seat may make (calls and Play-stream messages).
  RateLimit seat_rate;
  // Called (under the session's lock) once a game's end is on disk and
  // published; it must not call back into the session.
  std::function<void(const std::string& game_id)> on_finished;
  // The seeds that must stay secret (seed_holds.h); may be null (no other
  // game can share a seed). A session holds its seed from construction
  // until its end is published.
  SeedHolds* seeds = nullptr;
  // Called (under the session's lock) when a record write of the game
  // failed; it must not call back into the session.
  std::function<void(const std::string& game_id)> on_broken;
  // GetTurn(wait) calls one seat may have parked at once.
  int max_waiters_per_seat = 4;
  // Spectators (WatchGame streams) of one game at once.
  int max_watchers = 64;
  // Where a finished game's record is read for its spectators (off the
  // game's lock); null: read in place.
  Executor* reads = nullptr;
};

class GameSession : public std::enable_shared_from_this<GameSession> {
 public:
  using PlayChannel = Channel<SeatEvent>;
  using WatchChannel = Channel<PublicEvent>;
  // The answer to a submission: OK with an accepted verdict, or an error
  // status whose verdict says why.
  using SubmitReply = std::function<void(const absl::Status&, const Verdict&)>;
  // A seat's situation; meaningful only with OK.
  using TurnReply = std::function<void(const absl::Status&, const TurnView&)>;
  using SteadyClock = std::chrono::steady_clock;

  // A new game. The header and the first deal are queued to the recorder;
  // `done` runs with the session once they are committed (or failed), under
  // the session's lock, possibly before Create returns; the first turn's
  // clock starts right after it.
  using CreatedCallback =
      std::function<void(absl::Status, std::shared_ptr<GameSession>)>;
  static std::shared_ptr<GameSession> Create(SessionDeps deps,
                                             recorder::GameHeader header,
                                             Game game, CreatedCallback done);
  // An unfinished game read back from the database; its clock starts now.
  static absl::StatusOr<std::shared_ptr<GameSession>> Resume(
      SessionDeps deps, const recorder::GameRecord& record);

  // Fixed at creation; safe to read without the lock.
  const recorder::GameHeader& header() const { return header_; }
  int players() const { return static_cast<int>(header_.seats.size()); }

  // A seat's Play stream connects (replacing an earlier one, which is
  // closed): it is sent GameStarted, then YourTurn if the seat is to move,
  // or GameEnded if the game is over; afterwards what `mode` says.
  void Connect(int seat, std::shared_ptr<PlayChannel> channel,
               PlayMode mode = PlayMode::kFull);
  // The stream is gone; ignored if another stream replaced it.
  void Disconnect(int seat, const PlayChannel* channel);
  // Ends the seat's Play stream, if one is open, with `status` (its
  // credential was revoked). The seat itself and its clock go on.
  void CloseSeat(int seat, const absl::Status& status);
  // A move from `seat` for `turn`. `reply` is called exactly once. When the
  // move came over a Play stream, `origin` is that stream: what `reply`
  // queues on it is flushed with the other messages the move causes.
  // The submission is taken as the client sent it (converted from the wire
  // once, field by field) and interpreted here, so that a refusal names the
  // field and the record keeps what was sent.
  void Submit(int seat, int turn, const Submission& move, SubmitReply reply,
              std::shared_ptr<PlayChannel> origin = nullptr);
  // The seat's situation; with `wait`, only once it is the seat's turn or
  // the game is over. `reply` is called at most once (never if the session
  // is destroyed first, or the wait is cancelled). Returns the id of the
  // parked wait, for CancelWait; 0 when `reply` was called at once (with the
  // answer, or RESOURCE_EXHAUSTED when the seat has max_waiters_per_seat
  // waits parked already).
  uint64_t GetTurn(int seat, bool wait, TurnReply reply);
  // Drops a parked wait without calling its reply (the call was cancelled
  // or its deadline passed). Unknown ids are ignored.
  void CancelWait(int seat, uint64_t id);
  // The GetTurn(wait) calls `seat` has parked now.
  int ParkedWaits(int seat) const;
  // A spectator: sent every public event so far, then each as it happens.
  // False (the channel untouched) when the game has max_watchers already.
  bool Watch(std::shared_ptr<WatchChannel> channel);
  void Unwatch(const WatchChannel* channel);
  // The referee is stopping: answers every parked wait and ends every
  // stream with `status`; later waits and streams get it at once. Clocks
  // are the caller's to stop first (no game is decided by a stop).
  void Stop(const absl::Status& status);
  // Whether a record write failed and the game waits for Recover().
  bool broken() const;
  // Puts a broken game back as its record (read after the failure) has it:
  // the engine state, clocks and counts, then the turn in force starts
  // again (the seat to move is sent YourTurn). Unavailable while a write of
  // the game is still pending (try again later); OK and nothing done when
  // the game is not broken.
  absl::Status Recover(const recorder::GameRecord& record);
  // Ends a running game with no winner. FailedPrecondition if it is over.
  // `recorded`, if given, runs once the abort is on disk and published (or
  // its write failed), under the session's lock, with the game as it then
  // stands; it must not call the session.
  absl::Status Abort(const std::string& reason,
                     std::function<void(const absl::Status&, const GameInfo&)>
                         recorded = nullptr);
  // Ends a running game: `seat` forfeits for `reason` (e.g. "absent", a
  // tournament's absent bot; "organiser", ForfeitSeat), recorded as a
  // `forfeit` event with `detail`. FailedPrecondition if it is over,
  // InvalidArgument for a seat the game does not have. `recorded`, as for
  // Abort.
  absl::Status Forfeit(int seat, const std::string& reason,
                       const std::string& detail,
                       std::function<void(const absl::Status&, const GameInfo&)>
                           recorded = nullptr);

  // Counts one request of `seat` against its rate limit; false when the
  // seat is over it (the caller answers RESOURCE_EXHAUSTED).
  bool Admit(int seat);

  GameInfo Info() const;
  bool over() const;
  // The game's static facts as `seat` is told them (from the header only;
  // takes no lock).
  GameStartedEvent GameStarted(int seat) const;

 private:
  GameSession(SessionDeps deps, recorder::GameHeader header, Game game);

  // A record write followed by what becomes visible once it commits.
  using PendingEvent = recorder::EventDraft;
  // Queues the events as one atomic write; `publish` runs under the lock
  // after it commits (or fails).
  void RecordThenPublish(std::vector<PendingEvent> events,
                         std::function<void(const absl::Status&)> publish)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // The events a played move (or forfeit, abort) caused in the engine since
  // `rounds_before` / `deal_before`: deals, round results, the end.
  void AppendConsequences(size_t rounds_before, int round_before,
                          std::vector<PendingEvent>* events,
                          std::vector<PublicEvent>* public_events)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Adds an event to the spectators' log without sending it.
  void LogPublic(PublicEvent event) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Resume's work once the session exists: the clocks, the public log
  // (`history`, PublicHistoryBuilder's), then ContinueFromRecordLocked.
  void RestoreLocked(const recorder::GameRecord& record,
                     const recorder::ReplayedGame& replayed,
                     std::vector<PublicEvent> history)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // The engine state, clocks and counts of a replayed record; writes the
  // events a crash (or a failed write) left out, and starts the turn in
  // force.
  void ContinueFromRecordLocked(const recorder::GameRecord& record,
                                const recorder::ReplayedGame& replayed)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // A record write failed: the game stops until Recover(); waits for
  // acknowledgements that will not come are answered UNAVAILABLE.
  void BreakLocked(const absl::Status& status)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Sends public events to every seat and spectator and logs them. With
  // `mover_view` (draw=on: the move as its mover may see it, with the card
  // it drew), the mover's seat is sent that instead of the public
  // move_played of the same turn; nobody else ever is.
  void Broadcast(std::vector<PublicEvent> events,
                 const PlayedMove* mover_view = nullptr)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // After a commit, if nothing else is pending: starts the turn's clock and
  // tells the seat to move, or closes every stream when the game is over.
  void StartTurnOrFinish() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void OnDeadline(int turn, SteadyClock::time_point deadline);
  // Stops the turn's clock: no deadline in force, and its timer callback
  // cancelled (so the timer holds one callback per game: deadline_timer.h).
  void ClearDeadlineLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Flushes every open stream of the game, and `extra` if given.
  void FlushAll(PlayChannel* extra = nullptr)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Ends the streams of spectators of the ended game: with its record
  // (read once, off the lock, and shared) when its seed may be revealed;
  // else (aborted, or a twin dealt from the same seed still running: the
  // record's deals would give its cards away) with the public events they
  // already have.
  void SendFinalRecord(std::vector<std::shared_ptr<WatchChannel>> channels)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Submit's steps. Checking the submission: answers it (true) when it is
  // not for the turn in play by its seat in time: the record broken, a
  // resubmission, the game over, another turn, another seat, the time up
  // (which forfeits).
  bool AnswerOutOfPlay(int seat, int turn, const Submission& submitted,
                       SteadyClock::time_point now, SubmitReply& reply)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // A submission for a turn already played: the same verdict again for
  // the move that was played (once it is on disk), else TURN_ALREADY_PLAYED.
  void AnswerResubmission(int seat, int turn, const Submission& submitted,
                          SubmitReply reply) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // A submission the referee refuses: records the reject (and the forfeit
  // on the seat's max_illegal-th), then answers MALFORMED_MOVE or
  // ILLEGAL_MOVE and publishes what the forfeit caused.
  void RejectSubmission(int seat, int turn, const Submission& submitted,
                        const absl::Status& why, bool malformed,
                        int64_t elapsed_ms, SubmitReply reply)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // A legal move: charges the clock, plays it, records it and what it
  // caused, then answers and publishes.
  void AcceptMove(int seat, int turn, const Move& move,
                  SteadyClock::time_point now, int64_t elapsed_ms,
                  SubmitReply reply) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Answers a submission at once with `error` (no record is written).
  void Refuse(int seat, int turn, const Submission& submitted,
              const absl::Status& error, const SubmitReply& reply) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Rejected submissions `seat` may still make before forfeiting.
  int IllegalLeft(int seat) const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Ends the game with no winner (Abort's work; the game is not over).
  void AbortLocked(
      const std::string& reason,
      std::function<void(const absl::Status&, const GameInfo&)> recorded)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Ends the game: `seat` forfeits for `reason` ("time", "illegal").
  void ForfeitLocked(int seat, const std::string& reason,
                     const std::string& detail,
                     std::function<void(const absl::Status&)> then)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  YourTurnEvent YourTurn(HistoryScope history = HistoryScope::kRound) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // The YourTurn the seat to move's stream is sent now: with the moves it
  // has not been told of yet, on a kCompact stream (which it then has).
  SeatEvent StreamTurn() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  GameEndedEvent GameEnded() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  GameInfo InfoLocked() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // A verdict on turn `turn`'s submission of `seat`: `move` as played, or
  // as submitted when refused (`code` not OK, with `reason`).
  Verdict VerdictOf(int turn, std::variant<Move, Submission> move,
                    absl::StatusCode code, std::string reason, int illegal_left,
                    int next_to_move) const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // The seed as it may be shown now: the header's once the game finished
  // (not aborted: an aborted game's seed stays secret) and no other game
  // dealt from it is unfinished (SeedHolds); else empty.
  std::string RevealableSeed() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  TurnView TurnResponse(int seat) const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  int64_t TimeLeftMs(SteadyClock::time_point now) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  bool MyTurnIsLive(int seat) const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const SessionDeps deps_;
  const recorder::GameHeader header_;

  mutable absl::Mutex mu_;
  Game game_ ABSL_GUARDED_BY(mu_);
  std::vector<int64_t> bank_left_ms_ ABSL_GUARDED_BY(mu_);
  std::vector<int> illegal_ ABSL_GUARDED_BY(mu_);
  SteadyClock::time_point turn_started_ ABSL_GUARDED_BY(mu_);
  // The deadline in force for the current turn, if its clock has started.
  std::optional<SteadyClock::time_point> deadline_ ABSL_GUARDED_BY(mu_);
  // The timer's callback for deadline_, while it is in force.
  std::optional<DeadlineTimer::Id> deadline_timer_ ABSL_GUARDED_BY(mu_);
  int64_t deadline_unix_ms_ ABSL_GUARDED_BY(mu_) = 0;
  // Record writes queued whose publication has not run yet.
  int pending_ ABSL_GUARDED_BY(mu_) = 0;
  // Moves whose record has committed (turns below it are acknowledged).
  int durable_turns_ ABSL_GUARDED_BY(mu_) = 0;
  // Acknowledgements of resubmitted moves waiting for their commit.
  // Each is called with OK once its turn is on disk, or with the error of
  // the write that failed.
  std::vector<std::pair<int, std::function<void(const absl::Status&)>>>
      durable_waiters_ ABSL_GUARDED_BY(mu_);
  // Set when a record write failed: the game can no longer go on.
  std::optional<std::string> broken_ ABSL_GUARDED_BY(mu_);
  bool end_published_ ABSL_GUARDED_BY(mu_) = false;

  std::vector<TokenBucket> seat_limits_ ABSL_GUARDED_BY(mu_);
  std::vector<std::shared_ptr<PlayChannel>> seat_channels_ ABSL_GUARDED_BY(mu_);
  // Per seat: its stream's mode, and (kCompact) the first move it has not
  // been told of yet (an index into the game's history) and whether the
  // stream has been sent a YourTurn (with the round's history: later ones
  // leave it out).
  std::vector<PlayMode> seat_modes_ ABSL_GUARDED_BY(mu_);
  std::vector<size_t> told_moves_ ABSL_GUARDED_BY(mu_);
  std::vector<bool> told_round_history_ ABSL_GUARDED_BY(mu_);
  // game_.rules().ToString(), made by the first YourTurn and shared by the
  // game's turns (a game never sent a turn does not hold it).
  mutable std::shared_ptr<const std::string> rules_text_ ABSL_GUARDED_BY(mu_);
  struct TurnWaiter {
    uint64_t id = 0;
    TurnReply reply;
  };
  std::vector<std::vector<TurnWaiter>> turn_waiters_ ABSL_GUARDED_BY(mu_);
  // The reason word of the forfeit that ended the game here, if any.
  std::string forfeit_reason_ ABSL_GUARDED_BY(mu_);
  // Per seat: whether its bot has shown up (see the file comment).
  std::vector<bool> shown_up_ ABSL_GUARDED_BY(mu_);
  uint64_t next_waiter_id_ ABSL_GUARDED_BY(mu_) = 1;
  // Set by Stop(): the status every later call and stream gets.
  std::optional<absl::Status> stopped_ ABSL_GUARDED_BY(mu_);
  // The seat and turn of a time forfeit: a late move for that turn is told
  // TIME_EXPIRED, not GAME_OVER.
  std::optional<std::pair<int, int>> timed_out_ ABSL_GUARDED_BY(mu_);
  std::vector<std::shared_ptr<WatchChannel>> watchers_ ABSL_GUARDED_BY(mu_);
  // The ended game's record as spectators are sent it, once read.
  std::shared_ptr<const std::vector<std::shared_ptr<const PublicEvent>>>
      final_record_ ABSL_GUARDED_BY(mu_);
  // Every public event published so far, for late spectators.
  std::vector<std::shared_ptr<const PublicEvent>> public_log_
      ABSL_GUARDED_BY(mu_);
};

}  // namespace cassino::service

#endif  // CASSINO_REFEREE_GAME_SESSION_H_
