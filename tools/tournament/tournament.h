// Running a competition between bot programs on one or more referees.
//
// A tournament is a list of bots (a name and a shell command each), a
// schedule (below), a number of games per table, and the games' rules and
// clock. Each game is created on a referee through the organiser API; then
// each seat's bot command is started with
//   CASSINO_ADDRESS  the referee, host:port
//   CASSINO_GAME     the game id
//   CASSINO_TOKEN    the seat's secret token
//   CASSINO_SEAT     the seat number
// in its environment, and with the same values substituted for `{address}`,
// `{game}`, `{token}` and `{seat}` in the command. The runner waits for the
// referee to end the game. A bot that crashes or hangs loses only its own
// game: a bot process that ends before its game is forfeited at once
// (ForfeitSeat; its last stderr lines are kept in the outcome), one that
// hangs forfeits when its clock runs out, and the runner then kills what is
// left of its process.
//
// Schedule (docs/tournaments.md, *Tournaments of bots launched here*): the
// rules seat P players (2 to 6). A table is a set of P distinct bots: round
// robin, every P-subset of the bots; gauntlet, bot 0 with every
// (P-1)-subset of the others (subsets in lexicographic order). A table's
// arrangements: one (its bots in order), or with partnerships (P = 4) the
// three partner splits (bot t0 partnered with t1, t2, then t3). Each
// arrangement plays `games_per_pairing` games (rounded up to a multiple of
// P when P >= 3, to even with duplicate when P = 2), rotating the seats so
// that each bot holds each seat equally often; with partnerships partners
// stay opposite (seats 0+2 and 1+3). Seeds: game i of the tournament uses
// BatchGameSeed(tournament seed, i); with `duplicate`, each block of P
// consecutive games of an arrangement (one full rotation) shares the seed
// of its first game, so every bot plays that deal from every seat. The
// schedule is TableSchedule (rules/schedule.h); for P = 2 it is
// TournamentSchedule, the referee's own schedule.
//
// Several referees: games are spread over them, `concurrency` at once on
// each; a referee that cannot be reached when a game is created is retried
// later (the game goes back to the queue for any referee), and a game whose
// referee goes down while it runs is followed again once it is back.
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
  int games_per_pairing = 2;  // games per table arrangement
  bool duplicate = false;
  int concurrency = 2;  // games at once on each referee
  std::string rules = "standard";
  // The seats of a game and whether they play as two teams: what `rules`
  // says (RunTournament fills them in; MakeSchedule reads them).
  int players = 2;
  bool partnerships = false;
  int64_t per_move_ms = 5000;
  int64_t bank_ms = 30000;
  std::string label;    // recorded with every game
  std::string log_dir;  // bots' output, one file per game and seat; "" none
  Seed seed{};
  // The referees (host:port each; at least one) and their organiser token
  // (one token for all).
  std::vector<std::string> addresses;
  std::string admin_token;
  // A referee that cannot be reached is retried after 1 s, doubling to
  // 30 s, and given up once it has been unreachable this long in a row.
  int64_t referee_retry_ms = 600000;
  // Told when a referee cannot be reached, when it is given up, and when it
  // answers again (one line each, without a newline); may be empty. Called
  // from worker threads, one at a time.
  std::function<void(const std::string&)> notice;
};

// One scheduled game.
struct GameSpec {
  int index = 0;
  std::vector<int> bot;  // indices into bots, per seat
  Seed seed{};
};

// The schedule of the file comment for options.players and
// options.partnerships. An empty schedule when there are fewer bots than
// seats.
std::vector<GameSpec> MakeSchedule(const TournamentOptions& options);

// A bot process that ended (or could not be started) before its game did.
// The runner forfeits its seat at once (RefereeService.ForfeitSeat); a
// process that ends once the game is over is not reported.
struct BotExit {
  int seat = -1;
  std::string how;  // "exited with status 3", "could not be started: ..."
  // The referee recorded the forfeit (else it could not be reached, and
  // the seat loses when its clock runs out).
  bool forfeited = false;
  // Its last lines on stderr (at most kStderrTailLines, process.h).
  std::vector<std::string> stderr_tail;
};

struct GameOutcome {
  GameSpec spec;
  std::string game_id;
  std::string address;      // the referee that played it
  int winner = -1;          // side (the seat in two-player games); -1: none
  std::string reason;       // GameResult.reason
  std::vector<int> totals;  // per side
  int forfeiting_seat = -1;
  std::string error;  // non-empty if the game could not be run
  std::vector<BotExit> exits;
};

// One row of the standings: the referee's own (recorder/standings.h), so
// that both kinds of tournament count and rank alike.
using Standing = recorder::Standing;

// A bot's rating: pairwise Bradley-Terry (competition::FitBradleyTerry, Elo
// scale, mean 1500, one virtual draw against a 1500 opponent per bot) over
// the pairwise results of every finished game's finishing order
// (competition/finishing_order.h): each pair of sides gives each member of
// the one a result against each member of the other.
struct Rating {
  std::string bot;
  double elo = 1500;
  double se = 0;  // NaN if not identifiable
};

struct TournamentResult {
  std::vector<GameOutcome> games;
  std::vector<Standing> standings;  // best first
  std::vector<Rating> ratings;      // in the order of `bots`
};

// Standings from outcomes (games that could not be played, or aborted, do
// not count), as recorder::ComputeStandings counts and orders them: by
// score, then points difference, then name; wins, losses and draws by
// side. A forfeit is counted for the forfeiting seat.
std::vector<Standing> ComputeStandings(const std::vector<BotSpec>& bots,
                                       const std::vector<GameOutcome>& games);

// The ratings of `bots` over the counted games of `games` (see Rating).
std::vector<Rating> ComputeRatings(const std::vector<BotSpec>& bots,
                                   const std::vector<GameOutcome>& games);

// Runs the whole tournament: fills players and partnerships in from the
// rules, refuses fewer bots than seats, spreads the games over the
// referees. `progress` is called after each game (from worker threads, one
// at a time).
absl::StatusOr<TournamentResult> RunTournament(
    const TournamentOptions& options,
    std::function<void(const GameOutcome&, int done, int total)> progress);

// The standings as an aligned text table; with `ratings` (any order), a
// rating column (Elo, ±1.96 SE) after the points.
std::string FormatStandings(const std::vector<Standing>& standings,
                            const std::vector<Rating>& ratings = {});

// The progress line of an ended game, without the "[done/total]" prefix:
// "GAME A vs B: A wins 21-9", "... by forfeit", "... no winner (REASON)".
// `winner_seat` -1 means no winner; `error` non-empty means the game could
// not be played (the line then says why).
std::string DescribeGame(const std::string& game_id, const std::string& bot0,
                         const std::string& bot1, int winner_seat,
                         const std::string& reason, const int totals[2],
                         const std::string& error = "");

// The same for any number of seats: a two-player game as above; otherwise
// "GAME A vs B vs C: B wins, totals 9-21-15" (sides in order, a team's
// bots joined by "+").
std::string DescribeGame(const GameOutcome& game,
                         const std::vector<BotSpec>& bots);

// The lines that report a game's bot exits (none without any): for each,
// "  seat S (NAME) exited with status 3 before the end: it forfeits; its
// last lines on stderr:" and its stderr tail, each line "    | TEXT". Names
// and stderr text are escaped (recorder/display_text.h).
std::vector<std::string> DescribeExits(const GameOutcome& game,
                                       const std::vector<BotSpec>& bots);

}  // namespace cassino::tournament

#endif  // CASSINO_TOOLS_TOURNAMENT_TOURNAMENT_H_
