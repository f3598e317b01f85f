// Bradley–Terry ratings from pairwise results.
//
// The model: bot i beats bot j with probability
// σ(θ_i − θ_j) = 1 / (1 + e^{θ_j − θ_i}); a draw counts as half a win for
// each. The strengths θ are fitted by damped Newton's method on the
// log-likelihood; Elo = 1500 + (400 / ln 10)·(θ_i − mean θ), so the mean
// rating is 1500. Standard errors come from the inverse Fisher information
// (the negated Hessian) of the centred strengths; LOS(i over j) =
// Φ((θ_i − θ_j) / SE(θ_i − θ_j)) with the SE of the difference from the
// same covariance matrix.
//
// Each bot also plays `prior_draws` virtual draws against a virtual
// 1500-rated opponent: this keeps unbeaten, winless and disconnected bots
// finite and is negligible once a bot has played a few dozen games; 0 gives
// the plain maximum-likelihood fit (then a bot that never lost has no finite
// rating and the fit reports `converged = false`).

#ifndef CASSINO_COMPETITION_BRADLEY_TERRY_H_
#define CASSINO_COMPETITION_BRADLEY_TERRY_H_

#include <vector>

namespace cassino::competition {

// Ratings on the Elo scale with mean 1500, in the order of the input.
struct Ratings {
  std::vector<double> elo;
  std::vector<double> se;                // NaN if not identifiable
  std::vector<std::vector<double>> los;  // los[i][j]
  int iterations = 0;
  bool converged = false;
};

// `wins[i][j]` is the (possibly fractional: draws count half) number of
// wins of i over j; the matrix is square.
Ratings FitBradleyTerry(const std::vector<std::vector<double>>& wins,
                        double prior_draws);

}  // namespace cassino::competition

#endif  // CASSINO_COMPETITION_BRADLEY_TERRY_H_
