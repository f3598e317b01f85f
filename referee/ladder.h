// Ladders: competitions the referee runs around the clock among the bots
// connected to it (docs/ladder.md).
//
// Contract:
//  * An organiser creates a ladder (name, rules, clock, duplicate,
//    settings), recorded before the answer; it may pause it (no new game
//    starts; running games play on), resume it, and close it for good.
//    The name is reserved as a label: only the ladder creates games with
//    it, and no tournament may take it.
//  * A bot account joins by opening its Lobby stream in ladder mode with a
//    version name (Lobby::Connect, LadderJoin); the version is recorded
//    (ladder_versions) before the bot is first matched. Each version is
//    rated on its own under the bot name ACCOUNT@VERSION; at most
//    Options::max_versions_per_account versions per account and ladder.
//  * While a ladder is open, each pass of the matchmaker (on the timer
//    thread, after any change in the lobby, the end of a ladder game, or a
//    creation) matches the members with a free slot (their lobby capacity,
//    and at most settings.max_games_per_bot of the ladder's games at once)
//    with competition/matchmaking.h, at most settings.max_concurrent_games
//    of the ladder's games at once and Options::max_creating games being
//    created at once over all ladders. A game's row (ladder_games) is
//    written before the game, which is created like any game
//    (Registry::CreateGame) with seats naming the accounts and the
//    versions' bot names, a fresh random seed and the ladder's name as its
//    label; the lobby then offers it to the bots.
//  * Duplicate (two-player rules only): a match is a pair of games dealt
//    from one seed, the second with the seats swapped, written with the
//    first and created once the first has finished (not if it was
//    aborted), when both bots are in the ladder again with the same
//    versions and a free slot; given up after Options::twin_wait. The seed
//    stays secret (SeedHolds) while the second game is due.
//  * Ratings are competition::LadderTable's, fed each finished game as its
//    record's summary gives it (recorder/ladder_record.h): read back from
//    the database at Load and after each end, so that they equal exactly
//    what `cassino stats --ladder` computes from the same records.
//  * Faults: a game a bot's seat lost on time or for illegal moves, or one
//    it never connected to, is a fault of its account; a game it finished
//    otherwise clears its faults. A game resumed after a restart is nobody's
//    fault (it is rated all the same). settings.probation_faults faults in a
//    row put the account on probation (recorded, with the reason, and told to
//    the bot in a LadderNotice): no new ladder game for it until
//    settings.probation_ms (doubled for each earlier probation, at most 7
//    days) has passed and it has opened a new Lobby stream since the
//    probation began.
//  * Restart: ladders, versions, faults and probations are in the
//    database; ratings and the matchmaker's memory are rebuilt from the
//    ladder's game records; unfinished games resume like any game; a pair's
//    second game still due is created when its bots are back.
//
// Threads and locks: the ladders' mutex guards everything here. It is taken
// before the lobby's and a game's (a pass reads presence and game infos),
// never under them: the lobby's listener, the registry's end listener and
// game-creation callbacks only queue work for the timer thread, where the
// decisions run; the lobby calls CheckJoin with no lock of its own. Games
// are created with the mutex released. Registry (with its timer, lobby and
// recorder) must outlive the ladders, and the timer be stopped first.

#ifndef CASSINO_REFEREE_LADDER_H_
#define CASSINO_REFEREE_LADDER_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "competition/ladder_table.h"
#include "competition/matchmaking.h"
#include "recorder/recorder.h"
#include "referee/ladder_spec.h"
#include "referee/lobby.h"
#include "referee/registry.h"

namespace cassino::service {

class Ladders {
 public:
  using Reply = std::function<void(absl::StatusOr<LadderInfo>)>;

  // What the ladders may hold, each a flag of cassino-referee.
  struct Options {
    // Ladders on one referee (an organiser's choice, bounded anyway).
    int max_ladders = 64;
    // Versions one account may join one ladder with (each is a rated bot
    // and a row): a bot that publishes more is refused (RESOURCE_EXHAUSTED,
    // LIMIT_REACHED) until an organiser closes the ladder.
    int max_versions_per_account = 100;
    // Ladder games being created at once, over all ladders: bounds the
    // writes a pass queues ahead of running games' moves.
    int max_creating = 16;
    // How long the second game of a duplicate pair waits for its bots.
    std::chrono::milliseconds twin_wait = std::chrono::minutes(10);
    // Ratings keep the games that ended within this for reordering
    // (competition/ladder_table.h, Settle); older ones are folded in.
    std::chrono::milliseconds settle = std::chrono::seconds(60);
    // The clock (Unix microseconds); tests inject their own.
    std::function<int64_t()> now_us;
  };

  // Hooks into the registry (its end listener) at once, so that no ladder
  // game's end is missed while the referee resumes; call Load after
  // Registry::ResumeAll.
  Ladders(Registry* registry, Options options);
  ~Ladders();

  // Loads the ladders and rebuilds their state from the records, hooks
  // into the lobby, and starts matching. Call once, before serving.
  absl::Status Load();

  // Organiser calls; `reply` runs once the change is on disk (or failed),
  // off the recorder's thread. A refused spec is INVALID_ARGUMENT naming
  // the field ("spec.name", "spec.rules", "spec.settings.period_ms");
  // a taken name ALREADY_EXISTS (LADDER_EXISTS); an unknown ladder
  // NOT_FOUND (LADDER_NOT_FOUND); a change that does not apply (resuming
  // an open ladder, anything on a closed one) FAILED_PRECONDITION
  // (LADDER_CLOSED); another change being recorded ABORTED
  // (CONCURRENT_CHANGE).
  void Create(const LadderSpec& spec, Reply reply);
  void Pause(const std::string& name, const std::string& reason, Reply reply);
  void Resume(const std::string& name, Reply reply);
  void Close(const std::string& name, const std::string& reason, Reply reply);
  absl::StatusOr<LadderInfo> Get(const std::string& name) const;
  // Every ladder, oldest first.
  std::vector<LadderInfo> List() const;
  // A page of a ladder's leaderboard (from memory): NOT_FOUND for an
  // unknown ladder, INVALID_ARGUMENT for a page size or token not of this
  // query.
  absl::StatusOr<LeaderboardPage> Leaderboard(
      const LeaderboardQuery& query) const;
  int Open() const;

  // OK unless `label` is a ladder's name (FAILED_PRECONDITION,
  // LABEL_RESERVED).
  absl::Status CheckLabel(const std::string& label) const;
  // Whether `account` may join `join.ladder` with `join.version` (the
  // lobby's JoinCheck), and what to tell it: INVALID_ARGUMENT for a bad
  // version name ("version"), NOT_FOUND for an unknown ladder,
  // FAILED_PRECONDITION (LADDER_CLOSED) for a closed one,
  // RESOURCE_EXHAUSTED (LIMIT_REACHED) for one version too many.
  absl::StatusOr<LadderNotice> CheckJoin(const std::string& account,
                                         const LadderJoin& join);

  // Runs a matchmaking pass now, on the caller's thread (tests; the timer
  // runs them otherwise).
  void RunPass() { Run(); }

  // What the passes have cost so far (tests and benchmarks: the CPU a pass
  // takes with hundreds of members), and the most games ever being created
  // at once (at most Options::max_creating).
  struct PassStats {
    int64_t passes = 0;
    int64_t total_us = 0;
    int64_t max_us = 0;
    int max_creating = 0;
  };
  PassStats pass_stats() const;

 private:
  struct Bot {  // an account in one ladder
    recorder::LadderBotRow health;
    std::vector<std::string> fault_notes;  // the faults in a row, newest last
    std::set<std::string> versions;        // recorded
    std::set<std::string> versions_pending;
    int seat_balance = 0;  // seat-0 games minus seat-1 games
    int running = 0;       // the ladder's games with it, created or not yet
    int creating = 0;      // of those, being created
  };
  struct Running {
    std::vector<std::string> bots;      // per seat
    std::vector<std::string> accounts;  // per seat
    std::string twin;                   // a first game: its twin's id
    std::string held_seed;  // a twin being created: the seed it holds
    bool created = false;
    // Resumed after a restart: its end is nobody's fault (the bots had the
    // referee's downtime to reconnect in, not their own).
    bool resumed = false;
  };
  struct Twin {  // the second game of a duplicate pair, not yet created
    std::string first;
    std::string seed;  // hex: the first's
    std::vector<std::string> bots;
    std::vector<std::string> accounts;
    bool first_ended = false;
    int64_t due_us = 0;  // when the first ended (or the restart)
  };
  struct Ladder {
    explicit Ladder(competition::RatingModel model, int64_t period_ms)
        : table(model), history(period_ms) {}
    recorder::LadderRow row;
    LadderSettings settings;
    int players = 2;
    bool partnerships = false;
    bool changing = false;
    competition::LadderTable table;
    competition::MatchHistory history;
    std::map<std::string, Bot> bots;         // by account
    std::map<std::string, Running> running;  // by game id
    std::map<std::string, Twin> twins;       // by the twin's game id
    int versions = 0;
    // Ended games not yet rated, and whether a RateNow is posted.
    std::vector<std::string> unrated;
    bool rating = false;
    // Ended games handed to Rate() and not yet in the table (`unrated` and
    // those a posted RateNow holds): LadderInfo::games_unrated.
    int rating_pending = 0;
  };
  // A game to create.
  struct Launch {
    std::string ladder;
    std::string game_id;
    std::vector<recorder::LadderGameRow> rows;  // to write first ({} twin)
    GameSpec spec;
  };

  // Reads one ladder's state from the records (Load, and a rebuild).
  absl::Status Rebuild(Ladder& ladder) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // The organiser's view.
  LadderInfo InfoOf(const Ladder& ladder) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Pause, Resume, Close: checks, records and answers.
  void ChangeStatus(const std::string& name, LadderStatus to,
                    const std::string& reason, Reply reply);
  // What a bot in the ladder is told of its standing now.
  LadderNotice NoticeFor(const Ladder& ladder, const std::string& account,
                         const std::string& version) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Tells every member of `ladder` its standing (after a status change).
  void NotifyAll(const Ladder& ladder) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  // Scheduling (ladder_play.cc).
  void Kick();
  void Run();
  // One ladder's pass: probation releases, due twins, new matches.
  void Match(Ladder& ladder, int64_t now, std::vector<Launch>* launches)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void Start(Launch launch);
  void Created(const std::string& ladder, const std::string& game_id,
               const absl::Status& status);
  // A ladder game ended: its slots, its twin, its bots' faults, and its
  // rating (read from the record on the read executor).
  void Ended(const std::string& game_id) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Queues the game for rating: its summary is read from the record and
  // added to the ladder's table on the read executor (RateNow), never
  // inline (it would read the database under the lock).
  void Rate(const std::string& ladder, const std::string& game_id)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Posts a RateNow for the ladder's unrated games unless one is pending;
  // a refused post is retried by the next pass.
  void PostRatings(Ladder& ladder) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void RateNow(const std::string& ladder);
  // Records a bot's health and, when its probation begins or ends, tells
  // the bot.
  void SaveHealth(Ladder& ladder, Bot& bot, bool notify)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Gives up a pair's second game.
  void DropTwin(Ladder& ladder, const std::string& twin_id)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  Registry* const registry_;
  recorder::Recorder* const recorder_;
  const Options options_;
  std::atomic<bool> kick_pending_{false};
  // Games that ended, queued by the end listener (under their game's lock)
  // for the next pass. A leaf lock.
  absl::Mutex ended_mu_;
  std::vector<std::string> ended_ ABSL_GUARDED_BY(ended_mu_);

  mutable absl::Mutex mu_;
  bool loaded_ ABSL_GUARDED_BY(mu_) = false;
  std::map<std::string, std::unique_ptr<Ladder>> ladders_ ABSL_GUARDED_BY(mu_);
  std::set<std::string> reserved_ ABSL_GUARDED_BY(mu_);  // being created
  int creating_ ABSL_GUARDED_BY(mu_) = 0;                // games being created
  PassStats stats_ ABSL_GUARDED_BY(mu_);
  // A pass every kHeartbeat at least, while there is something to do.
  static constexpr std::chrono::milliseconds kHeartbeat{1000};
  bool heartbeat_ ABSL_GUARDED_BY(mu_) = false;  // one is scheduled
};

}  // namespace cassino::service

#endif  // CASSINO_REFEREE_LADDER_H_
