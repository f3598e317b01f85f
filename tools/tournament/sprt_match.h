// An SPRT match between two bots launched here: `cassino tournament
// --sprt`. It plays duplicate pairs of A (bots[0], the candidate) against
// B (bots[1]) until the generalized SPRT (competition/sprt.h) accepts H0 or
// H1, or a cap on pairs is reached.
//
// Pair k (from 0, counting pairs of earlier runs) is games 2k and 2k+1 of
// the two-bot duplicate schedule (rules/schedule.h): both on the deal of
// seed BatchGameSeed(seed, 2k), A in seat 0 then in seat 1. So a resumed
// match (same label, same seed, `first_pair` = the pairs already started)
// deals the same games an uninterrupted one would. Each of up to
// `concurrency` workers plays one pair at a time, its two games one after
// the other. A pair counts when both its games finished (a forfeit counts:
// the forfeiting side loses, as everywhere); a pair with a game that could
// not be played or was aborted is left out, as `cassino stats --sprt`
// leaves it out (it only pairs finished games).
//
// Stopping: after each counted pair the test is evaluated over every
// counted pair (`resumed` ones included); when it first crosses a bound no
// new pair starts, the pairs under way finish and count, and the result
// holds the verdict at the crossing together with the test over all counted
// pairs — the figures `cassino stats --sprt` computes from the database.
//
// Lifetimes: RunSprtMatch returns when every started game has ended.

#ifndef CASSINO_TOOLS_TOURNAMENT_SPRT_MATCH_H_
#define CASSINO_TOOLS_TOURNAMENT_SPRT_MATCH_H_

#include <functional>
#include <vector>

#include "absl/status/statusor.h"
#include "competition/sprt.h"
#include "tools/tournament/tournament.h"

namespace cassino::tournament {

struct SprtMatchOptions {
  // Exactly two bots: bots[0] is A, bots[1] is B. The schedule,
  // games_per_pairing and duplicate fields are not used.
  TournamentOptions tournament;
  competition::SprtParams params;
  int max_pairs = 10000;  // counting resumed pairs; then the match stops
  int first_pair = 0;     // the first pair index to play
  competition::Pentanomial resumed{};  // counted pairs of earlier runs
};

struct PairOutcome {
  int pair = 0;
  GameOutcome games[2];  // A in seat 0, then in seat 1
  bool counted = false;
  int a_half_points = 0;  // over both games: 2 a win, 1 no winner, 0 a loss
};

struct SprtMatchResult {
  competition::SprtResult
      sprt;  // over every counted pair, resumed ones included
  // The verdict when a bound was first crossed (kContinue: never, the cap
  // was reached).
  competition::Verdict verdict = competition::Verdict::kContinue;
  int pairs_started = 0;            // in this run
  int pairs_uncounted = 0;          // in this run
  std::vector<GameOutcome> games;   // this run's, in schedule order
  std::vector<Standing> standings;  // over this run's games
};

// `progress` is called after each pair (from worker threads, one at a
// time) with the test over the pairs counted so far.
absl::StatusOr<SprtMatchResult> RunSprtMatch(
    const SprtMatchOptions& options,
    const std::function<void(const PairOutcome&,
                             const competition::SprtResult&)>& progress);

// The half points A (seat `a_seat`) took from one ended game: 2 a win, 1
// no winner, 0 a loss.
int HalfPoints(const GameOutcome& game, int a_seat);

}  // namespace cassino::tournament

#endif  // CASSINO_TOOLS_TOURNAMENT_SPRT_MATCH_H_
