// Sequential probability ratio test (SPRT) between two bots, A and B: is A
// stronger than B by elo1 (H1) rather than by elo0 (H0)?
//
// A pure module: counts in, figures out; no I/O, no state (the text and
// JSON forms of a result are tools/stats/sprt_format.h). The formulas and
// their sources are in docs/stats.md ("SPRT"); in short:
//
//  * Results are counted from A's side. A game scores 1 (win), 1/2 (draw,
//    the game finished without a winner) or 0 (loss). A duplicate pair (the
//    same deal played twice with the seats swapped) scores the mean of its
//    two games: 0, 1/4, 1/2, 3/4 or 1, the pentanomial outcomes LL, LD,
//    WL or DD, WD, WW. Pairs are modelled as independent draws from a
//    five-outcome distribution (pentanomial model); single games from a
//    three-outcome one (trinomial model).
//  * The log-likelihood ratio is the generalized SPRT's: the number of
//    observations times the difference between the empirical distribution's
//    maximum mean log-likelihood under H1's constraint and under H0's, each
//    maximized over every distribution on the same outcomes. With the
//    logistic model the constraint is a mean score, 1 / (1 + 10^(-elo/400));
//    with the normalized model (the default) it is a t-value,
//    (mean - 1/2) / sd = nelo / (800 / ln 10), per game (the pair's sd is
//    scaled by sqrt 2 to a game's). Outcomes never seen count 1e-3 times in
//    the fit (never in the estimates), so the maximum always exists.
//  * Bounds: lower = ln(beta / (1 - alpha)), upper = ln((1 - beta) / alpha).
//    The test accepts H1 once LLR >= upper, H0 once LLR <= lower, and goes
//    on otherwise.
//  * Estimates with 95% intervals: logistic Elo -400 log10(1/mean - 1) over
//    mean ± 1.96 se; normalized Elo (mean - 1/2) / sd_game · 800 / ln 10 ±
//    1.96 · (800 / ln 10) / sqrt(games); LOS = Φ((mean - 1/2) / se).
//
// Lifetimes: values only.

#ifndef CASSINO_COMPETITION_SPRT_H_
#define CASSINO_COMPETITION_SPRT_H_

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace cassino::competition {

// Which Elo the hypotheses are stated in.
enum class EloModel { kNormalized, kLogistic };

struct SprtParams {
  double elo0 = 0;
  double elo1 = 5;
  double alpha = 0.05;  // chance of accepting H1 when elo = elo0
  double beta = 0.05;   // chance of accepting H0 when elo = elo1
  EloModel model = EloModel::kNormalized;
};

// Parses "elo0=0,elo1=5,alpha=0.05,beta=0.05,model=normalized": keys in any
// order, each at most once, missing ones at their defaults. InvalidArgument
// (naming the key) for an unknown key, a bad number, elo0 >= elo1, alpha or
// beta outside (0, 0.5], or a model other than normalized / logistic.
absl::StatusOr<SprtParams> ParseSprtParams(absl::string_view text);
// The canonical form, e.g.
// "elo0=0,elo1=5,alpha=0.05,beta=0.05,model=normalized".
std::string FormatSprtParams(const SprtParams& params);
absl::string_view ModelName(EloModel model);

// Pair outcomes from A's side, indexed by A's half points over the pair's
// two games (a game: 2 won, 1 no winner, 0 lost): [0] LL, [1] LD, [2] WL
// or DD, [3] WD, [4] WW.
using Pentanomial = std::array<int64_t, 5>;
// Game outcomes from A's side: [0] losses, [1] draws, [2] wins.
using Trinomial = std::array<int64_t, 3>;

enum class Verdict { kContinue, kAcceptH0, kAcceptH1 };
absl::string_view VerdictName(Verdict v);  // "continue", "H0", "H1"

// The stopping rule: H1 at or above `upper`, H0 at or below `lower`.
Verdict Decide(double llr, double lower, double upper);

// A point estimate with its 95% interval (infinite when the mean score is 0
// or 1; 0 in (-inf, inf) when there are no observations).
struct Estimate {
  double value = 0;
  double low = 0;
  double high = 0;
};

struct SprtResult {
  SprtParams params;
  bool pentanomial = true;  // pairs (true) or single games
  Pentanomial pairs{};      // when pentanomial
  Trinomial games_wdl{};    // when trinomial
  int64_t games = 0;        // games counted (2 per pair)
  int64_t pair_count = 0;   // 0 for the trinomial model
  double llr = 0;
  double lower = 0;
  double upper = 0;
  Verdict verdict = Verdict::kContinue;
  double score = 0.5;  // A's mean score per game (0.5 when nothing played)
  Estimate elo;        // logistic Elo of A over B
  Estimate nelo;       // normalized Elo of A over B
  double los = 0.5;    // likelihood of superiority of A
};

// The whole test over duplicate pairs / over single games.
SprtResult EvaluatePairs(const SprtParams& params, const Pentanomial& pairs);
SprtResult EvaluateGames(const SprtParams& params, const Trinomial& games);

// The generalized LLR over outcomes `scores` (per game, in [0, 1]) seen
// `counts` times, `per_pair` when each observation is a duplicate pair
// (normalized model: the sd is scaled by sqrt 2). 0 with no observations.
double GeneralizedLlr(const SprtParams& params, std::span<const double> scores,
                      std::span<const int64_t> counts, bool per_pair);

// The maximum-likelihood distribution over `scores` closest (in the
// Kullback–Leibler sense) to the frequencies `p` (positive, summing to 1)
// whose mean is `mean` (t_value unset) or whose (mean - 1/2) / sd is
// `t_value`. Exposed for the tests and the simulation program.
std::vector<double> ConstrainedMle(std::span<const double> scores,
                                   std::span<const double> p, double mean);
std::vector<double> ConstrainedMleT(std::span<const double> scores,
                                    std::span<const double> p, double t_value);

}  // namespace cassino::competition

#endif  // CASSINO_COMPETITION_SPRT_H_
