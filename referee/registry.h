// The referee's games: creating them, finding them by id or by seat token,
// resuming them after a restart, and deciding who may call what.
//
// The registry's own lock guards only its maps and is never held while a
// game does anything, so games run independently of each other; the lock
// order is always game, then lobby, then registry (a game's commit callback
// may register it; the lobby mints seat tokens), never the reverse: the
// registry calls neither a game nor the lobby while holding its lock.

#ifndef CASSINO_REFEREE_REGISTRY_H_
#define CASSINO_REFEREE_REGISTRY_H_

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "recorder/recorder.h"
#include "referee/deadline_timer.h"
#include "referee/executor.h"
#include "referee/game_info.h"
#include "referee/game_session.h"
#include "referee/game_spec.h"
#include "referee/limits.h"
#include "referee/lobby.h"
#include "referee/seed_holds.h"
#include "rules/rule_set.h"

namespace cassino::service {

// A seat a token gives access to.
struct SeatAccess {
  std::shared_ptr<GameSession> game;
  int seat = 0;
};

// The bearer token a call presented (the edge extracts it; bearer.h), or
// nullopt when it presented none.
using Credential = std::optional<std::string>;

// The time control of a request with defaults filled in for the fields
// left unset; InvalidArgument with a BadRequest violation of `field`.NAME
// (`field` is the clock's path in the request) for a value out of range.
absl::StatusOr<recorder::TimeControl> ClockOf(const ClockSpec& clock,
                                              absl::string_view field);
// The rule set of a game with `seats` seats from a CreateGameRequest-style
// text (empty: "standard"; `players` taken from `seats` when not given);
// InvalidArgument ("rules: ...") when it does not parse or does not fit.
absl::StatusOr<RuleSet> GameRules(const std::string& text, int seats);
// A retention period as messages give it ("24 h", "90 s", "250 ms").
std::string RetentionText(std::chrono::milliseconds retention);
// A fresh random game id (20 hex digits).
std::string NewGameId();

// How the referee itself creates a game (the tournament scheduler).
struct CreateOptions {
  // The game's id; empty: a fresh one.
  std::string game_id;
  // Created by the scheduler: the label guard is skipped, and a revoked
  // account may be seated (its seat is forfeited at once).
  bool scheduled = false;
};

class Registry {
 public:
  // `admin_token` may not be empty. Both pointers must outlive the registry,
  // and the timer must be stopped (DeadlineTimer::Stop) before the registry
  // is destroyed: it runs the registry's evictions.
  // `seat_rate` limits each seat's requests.
  // Ended games stay in memory for `keep_ended` (late reconnects, GetTurn,
  // spectators) before only the database serves them.
  // A game's seat tokens keep working for `token_retention` after its end,
  // across restarts: to read the result (GetTurn, Play, which bring the
  // game back from the record when it has left memory) and to resend the
  // last move (the same verdict again). After that they are refused as
  // expired.
  // `limits` bounds what each client may make the referee hold.
  Registry(recorder::Recorder* recorder, DeadlineTimer* timer,
           const std::string& admin_token, RateLimit seat_rate = RateLimit(),
           std::chrono::milliseconds keep_ended = std::chrono::seconds(60),
           std::chrono::milliseconds token_retention = std::chrono::hours(24),
           const ClientLimits& limits = ClientLimits());

  // Loads the bot accounts, then every unfinished game of the database, and
  // starts its clock; seats played by accounts join their lobby queues. The
  // seat tokens of games ended within the token retention are honoured.
  // Returns how many were resumed. A game that cannot be replayed (a
  // damaged record: its hash chain broken, a move the engine refuses) is
  // left in the database as it is, unserved (GAME_NOT_LOADED), and named
  // in `damaged`; the others are resumed all the same.
  struct Resumed {
    int games = 0;
    std::vector<std::string> damaged;  // "game ID: why"
  };
  absl::StatusOr<Resumed> ResumeAll();

  // The referee is stopping (its clocks already stopped): every game
  // answers its parked waits and ends its streams with SHUTTING_DOWN.
  void Stop();

  // A spectator stream may open (false: the referee has
  // ClientLimits::max_watchers already); each true is matched by one
  // ReleaseWatcher.
  bool AdmitWatcher();
  void ReleaseWatcher();
  const ClientLimits& limits() const { return limits_; }
  // Where blocking reads run (Executor): the service's handlers post their
  // database reads here; stopped by Stop().
  Executor& reads() { return *reads_; }

  // OK if `token` is the admin token; UNAUTHENTICATED for a missing or
  // unknown token, PERMISSION_DENIED for a seat token or a bot key.
  absl::Status AuthorizeAdmin(const Credential& token) const;
  // The seat of a token. `game_id`, when not empty, must be the token's game
  // (NOT_FOUND if no such game, PERMISSION_DENIED if another game). An
  // ended game that left memory is read back from the record; a token whose
  // game ended more than the retention ago is UNAUTHENTICATED, saying so.
  // On success `access` names a game in memory.
  absl::Status AuthorizeSeat(const Credential& token,
                             const std::string& game_id, SeatAccess* access);
  // Opens a Lobby stream for the bot key `key` (see Lobby::Connect);
  // UNAUTHENTICATED without one, PERMISSION_DENIED for the admin or a seat
  // token.
  absl::Status ConnectLobby(const Credential& key, int capacity,
                            std::shared_ptr<Lobby::LobbyChannel> channel,
                            std::string* account,
                            const LadderJoin& join = LadderJoin());

  // The bot accounts and their lobbies.
  Lobby& lobby() { return *lobby_; }

  // Creates a game; `done` runs once it is on disk (or failed), possibly
  // under the new game's lock: it must not call the game. A refused spec
  // is INVALID_ARGUMENT naming the field (e.g. "seats", "clock.bank_ms",
  // "seats[1].account"); an account seat of an unknown account NOT_FOUND,
  // of a revoked one FAILED_PRECONDITION; a label naming a tournament
  // FAILED_PRECONDITION (LABEL_RESERVED); a failed write UNAVAILABLE.
  using CreateCallback = std::function<void(absl::StatusOr<CreatedGame>)>;
  void CreateGame(const GameSpec& spec, CreateCallback done,
                  const CreateOptions& options = CreateOptions());
  // Checks an organiser's CreateGame label (a tournament's or a ladder's
  // name is reserved for its games); every guard added must pass. Added
  // before serving; called with no lock held.
  void AddLabelGuard(std::function<absl::Status(const std::string&)> guard) {
    label_guards_.push_back(std::move(guard));
  }
  // Drops every label guard (tests: the recorder's own check alone).
  void ClearLabelGuards() { label_guards_.clear(); }
  // OK if every label guard passes `label` (it names no tournament or
  // ladder).
  absl::Status CheckLabel(const std::string& label) const {
    for (const auto& guard : label_guards_) {
      if (absl::Status s = guard(label); !s.ok()) return s;
    }
    return absl::OkStatus();
  }
  // `listener` is called with the id of each game whose end is on disk and
  // published, under that game's lock: it must not call the game, the
  // lobby or the registry, nor block (it typically queues the id and
  // schedules work on the timer). Added before serving.
  void AddEndListener(std::function<void(const std::string&)> listener) {
    end_listeners_.push_back(std::move(listener));
  }
  DeadlineTimer* timer() const { return deps_.timer; }
  // A game in memory (running, or ended since the referee started).
  std::shared_ptr<GameSession> Find(const std::string& game_id) const;
  // A game's info from memory, or from the database for older games
  // (NOT_FOUND, GAME_NOT_FOUND, if neither has it). Blocks on the database.
  absl::StatusOr<GameInfo> GetGame(const std::string& game_id) const;
  // A page of the games matching `query`, newest first. INVALID_ARGUMENT
  // for a page size out of range ("page_size") or a page token not of this
  // query ("page_token"). Blocks on the database.
  absl::StatusOr<GamePage> ListGames(const GameQuery& query) const;

  recorder::Recorder* recorder() const { return deps_.recorder; }
  // The seeds that must stay secret; the scheduler holds its pending
  // games' seeds here.
  SeedHolds& seed_holds() { return seed_holds_; }

 private:
  void Register(const std::shared_ptr<GameSession>& game);
  // An ended game back in memory from its record (a token of it was used
  // after its eviction); evicted again keep_ended after.
  absl::StatusOr<std::shared_ptr<GameSession>> Revive(
      const std::string& game_id);
  // The game has ended: its seat tokens expire token_retention from now.
  void StartTokenRetention(const std::string& game_id);
  // Drops the tokens that have expired.
  void ForgetExpiredTokens();
  // Drops an ended game from memory; its seat tokens stay known, so its bots
  // are told the game is over rather than that their token is unknown.
  void Evict(const std::string& game_id);
  // Lobby hooks: a new lobby seat token replacing the seat's previous one;
  // and invalidating it.
  void MintSeatToken(const std::shared_ptr<GameSession>& game, int seat,
                     Lobby::TokenCallback done);
  void RevokeSeatToken(const std::shared_ptr<GameSession>& game, int seat);
  struct TokenSeat;
  // The access a known token gives to a call naming `game_id` ("" = any):
  // an error, or OK with its game in memory (access->game), or OK with
  // access->game null when its game has ended and left memory.
  absl::Status SeatAccessLocked(const TokenSeat& token_seat,
                                const std::string& game_id,
                                SeatAccess* access) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Queues the game's account seats in the lobby.
  void AddToLobby(const std::shared_ptr<GameSession>& game);
  // A game's record write failed: recovery is scheduled.
  void NoteBroken(const std::string& game_id);
  // Puts the broken games back from their records once the recorder takes
  // writes again. Runs on the timer thread, which hands the work (reading
  // the records) to the read executor (RecoverBrokenNow); it is scheduled
  // again later for the games it could not recover yet.
  void RecoverBroken();
  void RecoverBrokenNow();

  // Declared before deps_, which points to it: outlives the sessions the
  // registry destroys.
  SeedHolds seed_holds_;
  SessionDeps deps_;  // fixed after construction
  const std::chrono::milliseconds token_retention_;
  std::vector<std::function<absl::Status(const std::string&)>> label_guards_;
  std::vector<std::function<void(const std::string&)>> end_listeners_;
  const std::string admin_token_hash_;
  const ClientLimits limits_;
  std::atomic<int> watchers_{0};

  mutable absl::Mutex mu_;
  absl::flat_hash_map<std::string, std::shared_ptr<GameSession>> games_
      ABSL_GUARDED_BY(mu_);
  // Token hash -> its seat; expires_us is 0 while the game runs, else when
  // the token stops working (Unix us).
  struct TokenSeat {
    std::string game_id;
    int seat = 0;
    int64_t expires_us = 0;
    // A lobby seat token whose bot key was revoked: refused as KEY_REVOKED
    // until it expires (in memory only: after a restart it is unknown).
    bool revoked = false;
  };
  absl::flat_hash_map<std::string, TokenSeat> tokens_ ABSL_GUARDED_BY(mu_);
  // Games whose record write failed, waiting for RecoverBroken; whether a
  // RecoverBroken is scheduled.
  std::set<std::string> broken_ ABSL_GUARDED_BY(mu_);
  bool recovery_scheduled_ ABSL_GUARDED_BY(mu_) = false;
  // (game id, seat) -> hash of the valid lobby token, for account seats of
  // games in memory.
  std::map<std::pair<std::string, int>, std::string> lobby_tokens_
      ABSL_GUARDED_BY(mu_);

  // Stopped (its queue run) before the games and the recorder go.
  std::unique_ptr<Executor> reads_;
  // Declared last: destroyed first, while the maps above still exist.
  std::unique_ptr<Lobby> lobby_;
};

}  // namespace cassino::service

#endif  // CASSINO_REFEREE_REGISTRY_H_
