// Tournaments the referee schedules itself (docs/tournaments.md).
//
// Contract:
//  * CreateTournament checks the spec, makes the whole schedule (round robin
//    or gauntlet, games_per_pairing per pairing, seats alternating within a
//    pairing; with duplicate, games 2k and 2k+1 of a pairing share the seed
//    of game 2k with the seats swapped) and records the tournament and the
//    first kScheduleRowsPerWrite games of its schedule in one transaction
//    before it answers; the rest of the schedule follows in writes of that
//    many rows, each queued once the previous one commits, so that no
//    transaction holds the games' moves up for long. A game starts only
//    once its row is on disk; a restart writes whatever part is missing
//    (the schedule is a pure function of the spec). Game i's seed is
//    BatchGameSeed(tournament seed, i), or that of game i-1 for the second
//    game of a duplicate pair. The tournament seed stays secret (only its
//    SHA-256 is shown) until the tournament is over and none of its games
//    is running.
//  * The second game of a duplicate pair (any game sharing a seed with one
//    being created or running) waits until that game has ended. Each
//    pending game of a running tournament holds its seed in the registry's
//    SeedHolds until its own game holds it, so that no game dealt from a
//    seed reveals it while its twin is unplayed.
//  * A pending game is started, in schedule order but skipping games that
//    cannot start yet, when both of its bots are connected to the Lobby with
//    a free slot (capacity minus seats in unfinished games) and fewer than
//    max_concurrent_games of the tournament are running. It is created
//    through Registry::CreateGame with seats naming the accounts and the
//    tournament's name as label, so the lobby's offer queue delivers it.
//  * Grace: a bot that has not been connected for grace_ms (counted from the
//    latest of the tournament's creation, the referee's start and the bot's
//    last disconnection) forfeits its pending games: each is created and the
//    absent seat forfeits at once (reason "absent"); when both bots are
//    absent past the grace, the game is created and aborted ("both bots
//    absent"). These games occupy no bot and ignore the concurrency limit.
//    At most `absent_batch` such games are in flight at once.
//  * A game's id is recorded in the schedule before the game is created, so
//    a restart never creates a game twice: a schedule row whose game does
//    not exist is pending again. A resumed game of a running tournament in
//    which no move was played is aborted at Load and pending again
//    (AbortUnstarted). Load() (after Registry::ResumeAll) picks up
//    every unfinished tournament.
//  * The tournament is FINISHED (recorded) once every game has ended;
//    CancelTournament records CANCELLED and starts no further game.
//  * Standings are read from the record (recorder/standings.h) and count as
//    `cassino stats` does.
//
// Threads and locks: the scheduler's mutex guards its maps. It is taken
// before a game's and the lobby's (Run asks the lobby for presence and the
// games whether they are over), never under them: the lobby's listener and
// game-creation callbacks only schedule work on the DeadlineTimer thread,
// where the decisions run. Games are created, forfeited and aborted with
// the mutex released. The registry (and its timer and recorder) must
// outlive the scheduler, and the timer must be stopped before it is
// destroyed.

#ifndef CASSINO_REFEREE_SCHEDULER_H_
#define CASSINO_REFEREE_SCHEDULER_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "recorder/recorder.h"
#include "recorder/standings.h"
#include "referee/game_info.h"
#include "referee/game_spec.h"
#include "referee/registry.h"
#include "rules/deal.h"

namespace cassino::service {

enum class TournamentFormat {
  kRoundRobin,  // every pair of participants
  kGauntlet,    // the first participant against each other one
};

// A tournament to create (Scheduler::Create); an answer's spec is the one
// in force (defaults filled in, every clock field set, `seed` only once it
// is revealed).
struct TournamentSpec {
  std::string name;                       // also the label of its games
  std::vector<std::string> participants;  // bot account names
  TournamentFormat format = TournamentFormat::kRoundRobin;
  int games_per_pairing = 0;  // 0: 2 (made even with `duplicate`)
  bool duplicate = false;     // game pairs share a seed, seats swapped
  std::string rules;          // empty: "standard"
  ClockSpec clock;
  int max_concurrent_games = 0;  // 0: 4
  std::string seed;              // hex; empty: a fresh random one
  int64_t grace_ms = 0;          // 0: 60 s
};

enum class TournamentStatus { kRunning, kFinished, kCancelled };

// One scheduled game. `game_id` and `status` are set once the game exists;
// `result` once it has ended (winner, reason and totals only).
struct TournamentGame {
  int index = 0;
  std::vector<std::string> bots;  // per seat
  std::string game_id;
  std::optional<recorder::GameStatus> status;
  std::optional<GameOutcome> result;
};

// A tournament as the organiser sees it. Times are Unix microseconds
// (`ended_us` 0 while running).
struct TournamentInfo {
  TournamentSpec spec;
  TournamentStatus status = TournamentStatus::kRunning;
  std::string seed_commitment;  // hex SHA-256 of the tournament's seed
  int games_total = 0;
  int games_pending = 0;
  int games_running = 0;  // including those being created
  int games_finished = 0;
  int games_aborted = 0;
  std::vector<recorder::Standing> standings;
  std::vector<TournamentGame> games;  // empty in a listing
  int64_t created_us = 0;
  int64_t ended_us = 0;
};

// The schedule of a tournament (TournamentSchedule, rules/
// schedule.h) as schedule rows: accounts and seed (hex) per game, game_id
// empty. `seed` is the tournament's.
std::vector<recorder::TournamentGameRow> MakeTournamentSchedule(
    const std::vector<std::string>& participants, bool gauntlet,
    int games_per_pairing, bool duplicate, const Seed& seed);

class Scheduler {
 public:
  using Reply = std::function<void(absl::StatusOr<TournamentInfo>)>;

  // Games created only to be forfeited or aborted for absence, in flight
  // at once (created, their forfeit or abort not yet queued): a tournament
  // of thousands of absent pairings is worked off in batches, so that the
  // record's writer queue, and with it every other game's moves, never
  // waits behind thousands of writes (issue #22, A8).
  static constexpr int kDefaultAbsentBatch = 16;

  explicit Scheduler(Registry* registry,
                     int absent_batch = kDefaultAbsentBatch);

  // Loads the tournaments from the database, hooks into the lobby and the
  // registry, and starts what can start. Call once, after
  // Registry::ResumeAll and before serving.
  absl::Status Load();

  // Organiser calls. `reply` runs once the change is on disk (or failed).
  // A refused spec is INVALID_ARGUMENT naming the field ("spec.name",
  // "spec.participants[2]", "spec.clock.bank_ms", ...), or the error of
  // CheckSeatable for a participant (prefixed with its path); a taken name
  // ALREADY_EXISTS (TOURNAMENT_EXISTS).
  void Create(const TournamentSpec& spec, Reply reply);
  // NOT_FOUND (TOURNAMENT_NOT_FOUND), or FAILED_PRECONDITION
  // (TOURNAMENT_OVER) when it has already ended.
  void Cancel(const std::string& name, const std::string& reason, Reply reply);
  // Read the record (block on the database).
  absl::StatusOr<TournamentInfo> Get(const std::string& name) const;
  // Every tournament, newest first, without their games.
  absl::StatusOr<std::vector<TournamentInfo>> List() const;

  // How many tournaments are running (for the start-up message).
  int Running() const;

  // OK unless `label` is a tournament's name (FAILED_PRECONDITION): only
  // the scheduler creates games with it.
  absl::Status CheckLabel(const std::string& label) const;

 private:
  enum class State {
    kPending,   // not created
    kStarting,  // being created
    kCreated,   // created, not known to have ended
    kEnded,     // finished or aborted
  };
  struct Scheduled {
    recorder::TournamentGameRow row;
    State state = State::kPending;
  };
  struct Tournament {
    recorder::TournamentRow row;
    std::vector<Scheduled> games;
    bool ending = false;  // a finish or cancel is being recorded
    // Schedule rows on disk: games [0, written); the others are being
    // written (WriteSchedule) and wait for it.
    int written = 0;
    bool writing = false;  // a part of the schedule is being written
  };
  // Schedule rows per write: a tournament of 100,000 games is written in
  // parts, each a short transaction, with the games' own writes between
  // them (issue #27, part 7).
  static constexpr size_t kScheduleRowsPerWrite = 1000;
  // Queues the next part of the schedule, if any is unwritten and none is
  // being written; each part's commit queues the next.
  void WriteSchedule(Tournament& t) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // A game to create: seat `absent` forfeits at once (kBothAbsent: abort).
  struct Start {
    std::string tournament;
    int index = 0;
    recorder::TournamentGameRow row;
    std::string rules;
    recorder::TimeControl clock;
    int absent = kNoneAbsent;
  };
  static constexpr int kNoneAbsent = -1;
  static constexpr int kBothAbsent = 2;

  // At Load: a running tournament's resumed game in which no move was
  // played (created just before a crash, e.g. to be forfeited or aborted
  // for absence, or before its bots' first move) is aborted and its slot
  // is pending again, so that the grace period decides it afresh rather
  // than the clock of a bot that never connected.
  void AbortUnstarted();
  // Runs Run() soon on the timer thread (once for any number of calls
  // before it runs). Takes no lock but the timer's.
  void Kick();
  // Decides what to start, records what ended, and starts it.
  void Run();
  void Launch(Start start);
  // The game of `start` was created (or failed): it now runs, or is pending
  // again; the absent seat forfeits.
  void Created(const Start& start, const absl::Status& status);
  // Marks the games of `t` that have ended since.
  void Refresh(Tournament& t) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Records that `t` ended ("finished" or "cancelled", with `reason`): marks
  // it ending now, and once the write is done applies it to `t` (if it
  // succeeded) and calls `then` (if any) with the write's status, outside
  // the lock and off the recorder's writer thread (on the read
  // executor: `then` may read the record).
  void RecordEnd(Tournament& t, const std::string& status,
                 const std::string& reason,
                 std::function<void(const absl::Status&)> then)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Replies to an organiser's change: the tournament once `recorded`, or
  // why the change (`what`) could not be recorded.
  void Answer(const Tournament& t, const absl::Status& recorded,
              const std::string& what, const Reply& reply) const;
  // The organiser's view; `games` adds the schedule. Reads the record.
  absl::StatusOr<TournamentInfo> Info(const Tournament& t, bool games) const;

  Registry* const registry_;
  recorder::Recorder* const recorder_;
  const int absent_batch_;
  std::atomic<bool> kick_pending_{false};

  mutable absl::Mutex mu_;
  std::map<std::string, Tournament> tournaments_ ABSL_GUARDED_BY(mu_);
  std::set<std::string> reserved_ ABSL_GUARDED_BY(mu_);  // being created
  // Games being created, per account (not yet in the lobby's queue).
  std::map<std::string, int> inflight_ ABSL_GUARDED_BY(mu_);
  // Games created for absence whose forfeit or abort is not yet queued
  // (at most absent_batch_).
  int absent_inflight_ ABSL_GUARDED_BY(mu_) = 0;
  // The earliest grace expiry a Run is already scheduled for (Unix us).
  int64_t wake_us_ ABSL_GUARDED_BY(mu_) = 0;
};

}  // namespace cassino::service

#endif  // CASSINO_REFEREE_SCHEDULER_H_
