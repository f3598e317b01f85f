// A bot in lobby mode: one connection to the referee's Lobby with a bot key,
// and a BotClient (stream mode) per offered seat, each on its own thread.
//
// Contract:
//   - Connects to Lobby with `authorization: Bearer <key>` and the capacity;
//     the referee offers at most that many unfinished games at once, so at
//     most that many games are played concurrently.
//   - Each offer is played by a BotClient with the offered seat token and a
//     strategy from the factory. An offer for a seat already being played
//     (a re-offer after a lobby reconnection) is kept aside: the player
//     goes on with its open stream, and switches to the new token only if
//     that stream fails (the old token no longer works).
//   - If the lobby stream drops, it is reopened with exponential backoff;
//     every unfinished seat is then offered again. UNAUTHENTICATED,
//     PERMISSION_DENIED and INVALID_ARGUMENT (a wrong, rotated or revoked
//     key; a bad capacity or version), NOT_FOUND and FAILED_PRECONDITION
//     (an unknown or closed ladder) end the run at once.
//   - In ladder mode, each LadderNotice is logged; on probation the stream
//     is reopened once the probation's earliest end has passed.
//   - Run() returns when `max_games` games have ended (0: never, until an
//     error), after every player has finished.

#ifndef CASSINO_TOOLS_BOTS_CLIENT_LOBBY_CLIENT_H_
#define CASSINO_TOOLS_BOTS_CLIENT_LOBBY_CLIENT_H_

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "tools/bots/client/bot_client.h"

namespace cassino::bots {

struct LobbyOptions {
  // Address, TLS, retries, backoff, log and verbosity as for one game; the
  // token and game id are ignored (each offer brings its own).
  BotOptions bot;
  // The bot key.
  std::string key;
  // Games played at once, 1 to 64.
  int capacity = 1;
  // Stop after this many games have ended; 0: play until stopped.
  int max_games = 0;
  // Ladder mode (docs/ladder.md): the ladder to join and this bot's
  // version; empty: not in a ladder. On probation the client reopens its
  // lobby stream once the probation's time has passed (it is "back").
  std::string ladder;
  std::string version;
};

class LobbyClient {
 public:
  // A strategy for the n-th game played (0, 1, ...).
  using StrategyFactory = std::function<std::unique_ptr<Strategy>(int n)>;

  LobbyClient(LobbyOptions options, StrategyFactory strategies);
  ~LobbyClient();

  // Plays every offered game; returns the results of the games that ended,
  // in the order they ended, or why the lobby could not be used.
  absl::StatusOr<std::vector<BotResult>> Run();

 private:
  struct Seat {
    bool active = false;        // a player thread is running
    std::string pending_token;  // a newer token offered meanwhile
    bool done = false;          // the game ended
  };
  using SeatKey = std::pair<std::string, int>;

  // Starts a player for the seat (mu_ held).
  void StartPlayer(const SeatKey& key, const std::string& token)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void PlayerDone(const SeatKey& key, absl::StatusOr<BotResult> result);
  bool Finished() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void Log(const std::string& line) const;

  const LobbyOptions options_;
  const StrategyFactory strategies_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::RefereeService::Stub> stub_;

  mutable absl::Mutex mu_;
  std::map<SeatKey, Seat> seats_ ABSL_GUARDED_BY(mu_);
  std::vector<std::thread> players_ ABSL_GUARDED_BY(mu_);
  std::vector<BotResult> results_ ABSL_GUARDED_BY(mu_);
  int started_ ABSL_GUARDED_BY(mu_) = 0;
  // Set by a player whose seat lost its token: the lobby is reopened so
  // that the seat is offered again.
  bool reconnect_ ABSL_GUARDED_BY(mu_) = false;
  // The open Lobby call.
  grpc::ClientContext* lobby_ctx_ ABSL_GUARDED_BY(mu_) = nullptr;
};

}  // namespace cassino::bots

#endif  // CASSINO_TOOLS_BOTS_CLIENT_LOBBY_CLIENT_H_
