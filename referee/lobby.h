// Bot accounts and their lobby.
//
// A bot account is a name, an owner, a contact and a key. The key is 32
// CSPRNG bytes as 64 hex digits (like a seat token), shown once when the
// account is registered or its key rotated; the referee keeps only its
// SHA-256 (table bot_accounts). Revoking clears the hash.
//
// A game may seat an account instead of handing out a seat token. The
// account's bot then opens one Lobby stream with its key and a capacity.
// The lobby keeps, per account, the seats it holds in unfinished games in
// creation order (its offer queue). On each connection it offers the first
// `capacity` of them, one GameOffer each with a fresh seat token (minted by
// the registry, which makes it the seat's only valid lobby token and records
// its hash before the offer is sent); when an offered game ends, the next
// queued seat is offered. A seat added to a connected account's queue (a new
// game) is offered at once if there is room. A scheduler of tournaments
// would seat bots by creating games whose seats name accounts: the queue is
// where its games wait for a free bot.
//
// Changes to an account (register, rotate, revoke) are recorded before they
// take effect in memory and before the organiser is answered; one change per
// account at a time (a concurrent one gets ABORTED).
//
// Threads and locks: the lobby's mutex guards only its own maps. It is taken
// after a game's lock (a game's end is reported under it) and before the
// registry's (seat tokens are minted under it); the lobby never calls a
// GameSession method that locks. Messages reach a stream via its Channel,
// which never blocks.

#ifndef CASSINO_REFEREE_LOBBY_H_
#define CASSINO_REFEREE_LOBBY_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "recorder/recorder.h"
#include "referee/channel.h"
#include "referee/game_session.h"

namespace cassino::service {

// Account names (and tournament names): 1 to kMaxAccountName letters,
// digits, '-', '_' and '.'.
inline constexpr size_t kMaxAccountName = 64;
bool ValidAccountName(const std::string& name);
// OK if `name` is a valid account (or tournament, or ladder) name; else
// INVALID_ARGUMENT naming `field` (e.g. "spec.name").
absl::Status CheckName(const std::string& name, absl::string_view field);

// A Lobby stream in ladder mode: the ladder it joins and the version of
// the bot (referee/ladder.h). Empty `ladder`: not in a ladder.
struct LadderJoin {
  std::string ladder;
  std::string version;
};

// A bot account as the organiser sees it (never its key). Times are Unix
// microseconds; 0 when it never happened.
struct BotAccount {
  std::string name;
  std::string owner;
  std::string contact;
  int64_t created_us = 0;
  int64_t key_issued_us = 0;
  bool revoked = false;
  int64_t revoked_us = 0;
  bool connected = false;  // has an open Lobby stream
  int capacity = 0;        // of that stream; 0 when not connected
  int unfinished_seats = 0;
  LadderJoin ladder;  // the stream's ladder mode, if any
};

// An account to register.
struct BotRegistration {
  std::string name;
  std::string owner;
  std::string contact;
};

// The answer to an account change: the account, and its new key when one
// was issued (register, rotate; shown once), empty otherwise.
struct AccountChange {
  BotAccount account;
  std::string key;
};

// A listing of the accounts, by name.
struct BotQuery {
  int page_size = 0;       // 0: the default
  std::string page_token;  // from the previous page
};
struct BotPage {
  std::vector<BotAccount> bots;
  std::string next_page_token;  // empty on the last page
};

// What a Lobby stream tells its bot: first a welcome, then offers.
struct LobbyWelcome {
  std::string account;
  int capacity = 0;
  int unfinished_seats = 0;  // the account's seats in unfinished games
};
// A seat offered to the bot: `token` plays the seat `game` describes (as
// that seat is told it). `reoffer`: offered before (an earlier connection,
// or before a restart).
struct SeatOffer {
  GameStartedEvent game;
  std::string token;
  bool reoffer = false;
};
// What a ladder tells a bot in it of its standing: sent after the welcome,
// and again whenever it changes (probation, the ladder paused or closed).
struct LadderNotice {
  enum class State { kActive, kProbation, kPaused, kClosed };
  std::string ladder;
  std::string version;
  State state = State::kActive;
  std::string reason;    // why (probation, pause, close); empty when active
  int64_t until_us = 0;  // a probation's earliest end (Unix us)
};
using LobbyEvent = std::variant<LobbyWelcome, SeatOffer, LadderNotice>;

class Lobby {
 public:
  using LobbyChannel = Channel<LobbyEvent>;
  // Called once with the new seat token, or why none could be made.
  using TokenCallback = std::function<void(absl::StatusOr<std::string>)>;
  // What the lobby needs from the registry (which owns the seat tokens).
  struct Hooks {
    // Mints a seat token for `seat` of `game`, makes it the seat's only valid
    // lobby token, records its hash, then calls `done` (on any thread).
    std::function<void(const std::shared_ptr<GameSession>& game, int seat,
                       TokenCallback done)>
        mint;
    // Makes the seat's lobby token invalid and ends its Play stream
    // (revocation). Called with no lock held.
    std::function<void(const std::shared_ptr<GameSession>& game, int seat)>
        revoke_seat;
  };
  // The reply to an account change.
  using AccountReply = std::function<void(absl::StatusOr<AccountChange>)>;
  // Whether `account` may join `join.ladder` with `join.version`, and what
  // to tell it then (the ladders' check: referee/ladder.h). Called with no
  // lock held.
  using JoinCheck = std::function<absl::StatusOr<LadderNotice>(
      const std::string& account, const LadderJoin& join)>;

  // `recorder` must outlive the lobby.
  Lobby(recorder::Recorder* recorder, Hooks hooks);

  // Loads the accounts from the database; call once before anything else.
  absl::Status Load();

  // Organiser calls. `reply` runs once the change is on disk (or failed):
  // INVALID_ARGUMENT naming the field ("name", "owner", "contact") for a
  // malformed registration, ALREADY_EXISTS (BOT_EXISTS) for a taken name,
  // NOT_FOUND (BOT_NOT_FOUND) for an unknown account, ABORTED
  // (CONCURRENT_CHANGE) while another change to it is being recorded,
  // UNAVAILABLE (RECORD_UNAVAILABLE) when the write failed.
  void Register(const BotRegistration& registration, AccountReply reply);
  void Rotate(const std::string& name, AccountReply reply);
  void Revoke(const std::string& name, AccountReply reply);
  absl::StatusOr<BotAccount> Get(const std::string& name) const;
  // A page of the accounts, by name; INVALID_ARGUMENT for a page size out
  // of range ("page_size") or a token not of this list ("page_token").
  absl::StatusOr<BotPage> List(const BotQuery& query) const;

  // OK if `account` may be seated in a new game: NOT_FOUND if unknown,
  // FAILED_PRECONDITION if revoked.
  absl::Status CheckSeatable(const std::string& account) const;
  // `seat` of `game` is played by the header's account: queued, and offered
  // if the account is connected with room to spare.
  void AddSeat(const std::shared_ptr<GameSession>& game, int seat);
  // The game is over: its seats leave the queues, freeing room for others.
  void GameEnded(const std::string& game_id);

  // What a scheduler needs to know of an account to seat it.
  struct Presence {
    bool seatable = false;   // exists and is not revoked
    bool connected = false;  // has an open Lobby stream
    // capacity minus its seats in unfinished games (may be negative: a
    // reconnection with a smaller capacity); 0 when not connected.
    int free_slots = 0;
    // When it was last disconnected (Unix microseconds), or when the lobby
    // was made (the referee's start) if it has not been connected since;
    // meaningless while connected.
    int64_t absent_since_us = 0;
    // While connected: when this connection opened, and its ladder mode.
    int64_t connected_us = 0;
    LadderJoin ladder;
  };
  Presence PresenceOf(const std::string& name) const;
  // The accounts connected in ladder mode to `ladder`, by name, with
  // their presence.
  std::vector<std::pair<std::string, Presence>> LadderMembers(
      const std::string& ladder) const;
  // Sends `notice` to the account's stream if it is connected to
  // notice.ladder.
  void Notify(const std::string& account, const LadderNotice& notice);
  // Checks ladder joins (set once, before serving; without one, a Lobby
  // call in ladder mode is refused).
  void SetJoinCheck(JoinCheck check) { join_check_ = std::move(check); }
  // Each listener is called whenever an account connects or disconnects and
  // whenever a game ends (its seats free their accounts' room). It runs
  // under the lobby's lock: it must not call the lobby nor block (it
  // typically schedules work on another thread). Added before any stream
  // opens (the scheduler, the ladders).
  void AddListener(std::function<void()> listener) {
    listeners_.push_back(std::move(listener));
  }

  // True if `key_hash` is an account's current key hash.
  bool IsKey(const std::string& key_hash) const;

  // A Lobby stream opened with the key of hash `key_hash`. On success sets
  // `account`, sends LobbyWelcome (and in ladder mode the join check's
  // LadderNotice) and the offers; an earlier stream of the account is ended
  // (ABORTED). UNAUTHENTICATED for an unknown key; INVALID_ARGUMENT for a
  // bad capacity or version ("version"); the join check's error for a
  // ladder it refuses.
  absl::Status Connect(const std::string& key_hash, int capacity,
                       std::shared_ptr<LobbyChannel> channel,
                       std::string* account,
                       const LadderJoin& join = LadderJoin());
  // The stream is gone; ignored if a newer one replaced it.
  void Disconnect(const std::string& account, const LobbyChannel* channel);
  // Ends every Lobby stream with `status` (the referee is shutting down:
  // these streams never end by themselves).
  void CloseAll(const absl::Status& status);

 private:
  // One seat in an account's queue.
  struct QueuedSeat {
    std::shared_ptr<GameSession> game;
    int seat = 0;
    bool offered_before = false;  // on an earlier connection or before
  };
  struct Account {
    recorder::BotAccountRow row;
    bool changing = false;                  // a change is being recorded
    std::shared_ptr<LobbyChannel> channel;  // null when not connected
    uint64_t connection = 0;                // increases per connection
    int capacity = 0;
    std::vector<QueuedSeat> queue;  // unfinished seats, creation order
    int64_t absent_since_us = 0;    // last disconnection; 0: never
    // (game id, seat) offered on the current connection, unfinished.
    std::vector<std::pair<std::string, int>> offered;
    int64_t connected_us = 0;  // when the current connection opened
    LadderJoin ladder;         // its ladder mode
  };

  // Forgets the account's connection; what it was offered is offered
  // again (as a re-offer) on the next one.
  void DropConnection(Account& account) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Offers queued seats while the connected account has room.
  void OfferMore(Account& account) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Sends the offer once its token is minted, if the same connection is
  // still open.
  void Deliver(const std::string& name, uint64_t connection,
               const std::shared_ptr<GameSession>& game, int seat, bool reoffer,
               absl::StatusOr<std::string> token);
  BotAccount View(const Account& account) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Starts a change of an existing account: checks it exists and no other
  // change is running, marks it changing and returns its row.
  absl::Status BeginChange(const std::string& name,
                           recorder::BotAccountRow* row)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Records `row`, then applies it and replies.
  void Commit(recorder::BotAccountRow row, bool revoke, std::string key,
              AccountReply reply);

  // Calls the listener, if any.
  void Changed() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  recorder::Recorder* const recorder_;
  const Hooks hooks_;
  const int64_t started_us_;
  std::vector<std::function<void()>> listeners_;  // set before serving
  JoinCheck join_check_;                          // likewise

  mutable absl::Mutex mu_;
  std::map<std::string, Account> accounts_ ABSL_GUARDED_BY(mu_);  // by name
  absl::flat_hash_map<std::string, std::string> by_key_
      ABSL_GUARDED_BY(mu_);  // key hash -> name
};

}  // namespace cassino::service

#endif  // CASSINO_REFEREE_LOBBY_H_
