#include "competition/rating.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace cassino::competition {

Rating NewRating(const RatingModel& model) { return {model.mu, model.sigma}; }

double Conservative(const RatingModel& model, const Rating& r) {
  return r.mu - model.k * r.sigma;
}

std::vector<std::vector<Rating>> RateGame(
    const RatingModel& model, const std::vector<std::vector<Rating>>& teams,
    const std::vector<int>& ranks) {
  std::vector<std::vector<Rating>> out = teams;
  const size_t k = teams.size();
  if (k < 2 || ranks.size() != k) return out;
  // The drift before the game.
  const double tau2 = model.tau * model.tau;
  for (std::vector<Rating>& team : out) {
    for (Rating& r : team) r.sigma = std::sqrt(r.sigma * r.sigma + tau2);
  }
  // The sides' sums.
  std::vector<double> mu(k, 0), var(k, 0);
  double c2 = 0;
  for (size_t i = 0; i < k; ++i) {
    for (const Rating& r : out[i]) {
      mu[i] += r.mu;
      var[i] += r.sigma * r.sigma;
    }
    c2 += var[i] + model.beta * model.beta;
  }
  const double c = std::sqrt(c2);
  // e^{mu_i / c}, scaled by the largest exponent (the ratios are what
  // matter) so that nothing overflows.
  double top = mu[0];
  for (size_t i = 1; i < k; ++i) top = std::max(top, mu[i]);
  std::vector<double> e(k);
  for (size_t i = 0; i < k; ++i) e[i] = std::exp((mu[i] - top) / c);
  // sum_q: over the sides placed at or below q; a_q: sides sharing q's rank.
  std::vector<double> sum(k, 0);
  std::vector<int> a(k, 0);
  for (size_t q = 0; q < k; ++q) {
    for (size_t s = 0; s < k; ++s) {
      if (ranks[s] >= ranks[q]) sum[q] += e[s];
      if (ranks[s] == ranks[q]) ++a[q];
    }
  }
  for (size_t i = 0; i < k; ++i) {
    double omega = 0, delta = 0;
    for (size_t q = 0; q < k; ++q) {
      if (ranks[q] > ranks[i]) continue;
      const double p = e[i] / sum[q];
      delta += p * (1 - p) / a[q];
      omega += ((q == i ? 1.0 : 0.0) - p) / a[q];
    }
    omega *= var[i] / c;
    const double gamma = std::sqrt(var[i]) / c;
    delta *= gamma * var[i] / c2;
    for (Rating& r : out[i]) {
      const double share = r.sigma * r.sigma / var[i];
      r.mu += share * omega;
      r.sigma *= std::sqrt(std::max(1 - share * delta, model.kappa));
    }
  }
  return out;
}

double WinProbability(const RatingModel& model, const std::vector<Rating>& a,
                      const std::vector<Rating>& b) {
  double mu = 0, var = 2 * model.beta * model.beta;
  for (const Rating& r : a) {
    mu += r.mu;
    var += r.sigma * r.sigma;
  }
  for (const Rating& r : b) {
    mu -= r.mu;
    var += r.sigma * r.sigma;
  }
  return 0.5 * std::erfc(-mu / std::sqrt(2 * var));
}

}  // namespace cassino::competition
