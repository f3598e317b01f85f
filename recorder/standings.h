// A tournament's standings, computed from its games' recorded results.
//
// The games are those whose label is the tournament's name (the referee
// refuses any other game with that label). What counts is exactly what
// `cassino stats --tournament NAME` counts (tools/stats/stats.h):
//  * Only finished games count; running and aborted games are ignored.
//  * A bot is named by its seat's bot_name (for tournament games, the
//    account's name). A game in which one bot holds both sides counts for
//    nobody (stats' self-play).
//  * Win / loss / draw: the bot's side won / the other side won / the game
//    finished without a winner (winner -1).
//  * forfeits: the game's forfeits of the bot's seat, every reason (time,
//    illegal, absent), as its tally counts them.
//  * points_for / points_against: the game's final totals of the bot's
//    side / of the other sides.
// score = wins + draws / 2. Order: score, then points difference, both
// descending, then name; equal score and difference share a rank (1, 1, 3).
// Every participant is listed, with zeros until it has played.
//
// Cost: TournamentStandings reads the games' tallies (ForfeitsByLabel)
// besides the summaries it is given, never whole records.
//
// Lifetimes: values; TournamentStandings reads through the Recorder's read
// connection and holds nothing afterwards.

#ifndef CASSINO_RECORDER_STANDINGS_H_
#define CASSINO_RECORDER_STANDINGS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "recorder/recorder.h"

namespace cassino::recorder {

struct Standing {
  int rank = 0;
  std::string bot;
  int games = 0;
  int wins = 0;
  int losses = 0;
  int draws = 0;
  int forfeits = 0;
  double score = 0;
  int64_t points_for = 0;
  int64_t points_against = 0;
  friend bool operator==(const Standing&, const Standing&) = default;
};

// One finished game as the standings see it.
struct StandingGame {
  std::vector<std::string> bots;  // per seat
  std::vector<int> forfeits;      // per seat
  int winner = -1;                // side; -1 none
  std::vector<int> totals;        // per side (seat, in two-player games)
};

// The standings of `participants` over `games` (finished games only).
std::vector<Standing> ComputeStandings(
    const std::vector<std::string>& participants,
    const std::vector<StandingGame>& games);

// The standings of the tournament named `label`. `games` are the summaries
// of its games (Recorder::List with that label, any status: those not
// finished are skipped), which the caller has usually read already; the
// forfeits are read from the database.
absl::StatusOr<std::vector<Standing>> TournamentStandings(
    const Recorder& recorder, const std::string& label,
    const std::vector<std::string>& participants,
    const std::vector<GameSummary>& games);

}  // namespace cassino::recorder

#endif  // CASSINO_RECORDER_STANDINGS_H_
