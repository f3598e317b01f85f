// Running a competition between bot programs on a referee.
//
// A tournament is a list of bots (a name and a shell command each), a
// schedule (round robin: every pair; gauntlet: the first bot against each
// other one), a number of games per pairing, and the games' rules and clock.
// Each game is created on the referee through the organiser API; then each
// seat's bot command is started with
//   CASSINO_ADDRESS  the referee, host:port
//   CASSINO_GAME     the game id
//   CASSINO_TOKEN    the seat's secret token
//   CASSINO_SEAT     the seat number
// in its environment, and with the same values substituted for `{address}`,
// `{game}`, `{token}` and `{seat}` in the command. The runner waits for the
// referee to end the game. A bot that crashes or hangs loses only its own
// game: the referee forfeits it when its clock runs out, and the runner
// then kills what is left of its process.
//
// Seeds: game i of the tournament uses BatchGameSeed(tournament seed, i)
// (tools/playout/random_playout.h), so a tournament's deals are reproducible.
// With `duplicate`, games come in pairs that share a seed with the seats
// swapped, so that luck of the deal cancels out between the two bots.
//
// Scope: two-player games (one bot per seat).

#ifndef CASSINO_TOOLS_TOURNAMENT_TOURNAMENT_H_
#define CASSINO_TOOLS_TOURNAMENT_TOURNAMENT_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "recorder/standings.h"
#include "rules/deal.h"

namespace grpc {
class ClientContext;
}  // namespace grpc

namespace cassino::tournament {

// The context of an organiser call: the admin token as bearer metadata and
// a deadline `timeout_ms` from now.
std::unique_ptr<grpc::ClientContext> AdminContext(const std::string& token,
                                                  int64_t timeout_ms);

struct BotSpec {
  std::string name;
  std::string command;  // run with /bin/sh -c
};

enum class Schedule { kRoundRobin, kGauntlet };

struct TournamentOptions {
  std::vector<BotSpec> bots;
  Schedule schedule = Schedule::kRoundRobin;
  int games_per_pairing = 2;
  bool duplicate = false;
  int concurrency = 2;  // games at once
  std::string rules = "standard";
  int64_t per_move_ms = 5000;
  int64_t bank_ms = 30000;
  std::string label;    // recorded with every game
  std::string log_dir;  // bots' output, one file per game and seat; "" none
  Seed seed{};
  // The referee and its organiser token.
  std::string address;
  std::string admin_token;
};

// One scheduled game.
struct GameSpec {
  int index = 0;
  int bot[2] = {0, 0};  // indices into bots, per seat
  Seed seed{};
};

// The schedule: pairings in order, games_per_pairing each (rounded up to
// even with duplicate), seats alternating.
std::vector<GameSpec> MakeSchedule(const TournamentOptions& options);

struct GameOutcome {
  GameSpec spec;
  std::string game_id;
  int winner_seat = -1;  // -1: no winner
  std::string reason;    // GameResult.reason
  int totals[2] = {0, 0};
  std::string error;  // non-empty if the game could not be run
};

// One row of the standings: the referee's own (recorder/standings.h), so
// that both kinds of tournament count and rank alike.
using Standing = recorder::Standing;

struct TournamentResult {
  std::vector<GameOutcome> games;
  std::vector<Standing> standings;  // best first
};

// Standings from outcomes (games that could not be played do not count),
// as recorder::ComputeStandings counts and orders them: by score, then
// points difference, then name. A game lost with reason "forfeit" is a
// forfeit of the loser.
std::vector<Standing> ComputeStandings(const std::vector<BotSpec>& bots,
                                       const std::vector<GameOutcome>& games);

// Runs the whole tournament. `progress` is called after each game (from
// worker threads, one at a time).
absl::StatusOr<TournamentResult> RunTournament(
    const TournamentOptions& options,
    std::function<void(const GameOutcome&, int done, int total)> progress);

// The standings as an aligned text table.
std::string FormatStandings(const std::vector<Standing>& standings);

// The progress line of an ended game, without the "[done/total]" prefix:
// "GAME A vs B: A wins 21-9", "... by forfeit", "... no winner (REASON)".
// `winner_seat` -1 means no winner; `error` non-empty means the game could
// not be played (the line then says why).
std::string DescribeGame(const std::string& game_id, const std::string& bot0,
                         const std::string& bot1, int winner_seat,
                         const std::string& reason, const int totals[2],
                         const std::string& error = "");

}  // namespace cassino::tournament

#endif  // CASSINO_TOOLS_TOURNAMENT_TOURNAMENT_H_
