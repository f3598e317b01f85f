// Tournaments that a running referee schedules itself: the client side of
// `cassino tournament --account ...` and `cassino tournament --follow NAME`.
//
// The referee holds the schedule (RefereeService.CreateTournament; see
// docs/tournaments.md): it seats the participating bot accounts through
// their Lobby streams as they are connected and free, and keeps the
// standings. This client only creates the tournament and follows it by
// polling GetTournament, reporting each game as it ends. Following survives
// a restart of the referee: while the referee is unreachable, the follower
// keeps retrying for `reconnect_ms` before it gives up; the referee continues
// the persisted schedule when it is back.
//
// Lifetimes: a RemoteTournament owns its channel; it is not thread-safe.

#ifndef CASSINO_TOOLS_TOURNAMENT_REMOTE_H_
#define CASSINO_TOOLS_TOURNAMENT_REMOTE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "cassino/v1/referee_service.grpc.pb.h"
#include "tools/tournament/tournament.h"

namespace cassino::tournament {

class RemoteTournament {
 public:
  // Talks to the referee at `address` (host:port) with the organiser
  // token `admin_token`.
  RemoteTournament(const std::string& address, std::string admin_token);

  // Creates the tournament; returns it as the referee made it (schedule
  // made, defaults filled in). The referee's status is returned as is: its
  // message names the field at fault.
  absl::StatusOr<v1::TournamentInfo> Create(const v1::TournamentSpec& spec);

  // The tournament now.
  absl::StatusOr<v1::TournamentInfo> Get(const std::string& name);

  // CancelTournament: no further game starts; running games play on.
  absl::Status Cancel(const std::string& name, const std::string& reason);

  // Polls the tournament every `poll_ms` until it is over (finished or
  // cancelled) and returns it. `on_game_end` is called once per game that
  // ends while following, in schedule order among those seen ending in the
  // same poll, with the count of ended games and the total. Games that had
  // ended before the first poll are reported too, so a follower started
  // late prints the whole tournament. UNAVAILABLE, CANCELLED (a referee
  // shutting down), DEADLINE_EXCEEDED and RESOURCE_EXHAUSTED (a referee
  // over a bound, e.g. on waiting reads) answers are retried for up to
  // `reconnect_ms` in a row; any other error ends the follow. With
  // `until_settled`, a tournament that is over is followed on until none
  // of its games is running (a cancelled tournament's running games play
  // on to their end).
  absl::StatusOr<v1::TournamentInfo> Follow(
      const std::string& name,
      const std::function<void(const v1::TournamentGame&, int ended,
                               int total)>& on_game_end,
      int64_t poll_ms = 500, int64_t reconnect_ms = 60000,
      bool until_settled = false);

 private:
  std::string admin_token_;
  std::unique_ptr<v1::RefereeService::Stub> stub_;
};

// The referee's standings in the runner's own form, for FormatStandings.
std::vector<Standing> StandingsFromProto(const v1::TournamentInfo& info);

// DescribeGame (tournament.h) for a game of a referee's tournament.
std::string DescribeGame(const v1::TournamentGame& game);

}  // namespace cassino::tournament

#endif  // CASSINO_TOOLS_TOURNAMENT_REMOTE_H_
