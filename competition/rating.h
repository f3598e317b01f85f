// Ratings with uncertainty for games of two or more sides, where a side is
// one player or a team (a partnership): the Plackett–Luce model of Weng and
// Lin, "A Bayesian Approximation Method for Online Ranking" (JMLR 12,
// 2011), Algorithm 4, the model OpenSkill implements. Why this model, and
// its parameters: docs/ladder.md, *Ratings*.
//
// The model. Each player's skill is a normal belief N(mu, sigma^2); a
// side's skill is the sum of its players' (mu_i = sum mu, sigma_i^2 = sum
// sigma^2). A game's finishing order is a Plackett–Luce draw: the side that
// finishes first is drawn with probability proportional to e^{mu_i / c}
// among all sides, the second among the rest, and so on, with
// c^2 = sum over sides (sigma_i^2 + beta^2). Sides of equal rank (a draw)
// share each place (A_q, the number of sides of rank q, divides their
// terms). After a game, with p(i, q) = e^{mu_i/c} / sum_{s: r(s) >= r(q)}
// e^{mu_s/c}, each side i gets
//
//   Omega_i = (sigma_i^2 / c) sum_{q: r(q) <= r(i)} ([q = i] - p(i,q)) / A_q
//   Delta_i = gamma_i (sigma_i^2 / c^2)
//             sum_{q: r(q) <= r(i)} p(i,q) (1 - p(i,q)) / A_q
//
// with gamma_i = sigma_i / c, and each of its players j
//
//   mu_j     += (sigma_j^2 / sigma_i^2) Omega_i
//   sigma_j^2 *= max(1 - (sigma_j^2 / sigma_i^2) Delta_i, kappa).
//
// Before a game each player's sigma^2 grows by tau^2 (0 by default: a bot
// version is a fixed program whose strength does not drift; a new version
// is rated from scratch).
//
// Pure functions over values: the same inputs give the same doubles, so the
// referee's live ladder and `cassino stats --ladder` agree to the last bit
// when they apply the same games in the same order (ladder_table.h).

#ifndef CASSINO_COMPETITION_RATING_H_
#define CASSINO_COMPETITION_RATING_H_

#include <vector>

namespace cassino::competition {

// The model's parameters; the defaults are Weng and Lin's (and OpenSkill's)
// scale: a new player is N(25, (25/3)^2), and beta = 25/6 is the spread of
// one game's performance around a skill.
struct RatingModel {
  double mu = 25.0;           // a new player's mean
  double sigma = 25.0 / 3.0;  // a new player's standard deviation
  double beta = 25.0 / 6.0;   // performance noise per side
  double kappa = 1e-4;        // the floor of a variance's shrink factor
  double tau = 0.0;           // skill drift per game (added to sigma)
  // The leaderboard's conservative rating is mu - k * sigma.
  double k = 3.0;
  friend bool operator==(const RatingModel&, const RatingModel&) = default;
};

struct Rating {
  double mu = 25.0;
  double sigma = 25.0 / 3.0;
  friend bool operator==(const Rating&, const Rating&) = default;
};

// A new player's rating under `model`.
Rating NewRating(const RatingModel& model);
// mu - model.k * sigma: a value the skill is above with high probability
// (k = 3: 99.9%), so that few lucky games do not lead a leaderboard.
double Conservative(const RatingModel& model, const Rating& r);

// The ratings after one game. `teams[i]` are the players of side i (at
// least one each; at least two sides), `ranks[i]` its place (0 is first;
// equal values are a draw between those sides). Returns the new ratings in
// the same shape. Sides may have different sizes.
std::vector<std::vector<Rating>> RateGame(
    const RatingModel& model, const std::vector<std::vector<Rating>>& teams,
    const std::vector<int>& ranks);

// The probability that side 0 finishes ahead of side 1, for two sides:
// Phi((mu_0 - mu_1) / sqrt(2 beta^2 + sigma_0^2 + sigma_1^2)) with side
// sums as above (matchmaking's measure of a close game).
double WinProbability(const RatingModel& model, const std::vector<Rating>& a,
                      const std::vector<Rating>& b);

}  // namespace cassino::competition

#endif  // CASSINO_COMPETITION_RATING_H_
