// The Bradley–Terry fit of bradley_terry.h.

#include "competition/bradley_terry.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <utility>
#include <vector>

#include "competition/normal_cdf.h"

namespace cassino::competition {
namespace {

// Inverts a symmetric positive-definite-ish matrix by Gauss–Jordan with
// partial pivoting. False if singular.
bool Invert(std::vector<std::vector<double>> a,
            std::vector<std::vector<double>>* inv) {
  const size_t n = a.size();
  inv->assign(n, std::vector<double>(n, 0));
  for (size_t i = 0; i < n; ++i) (*inv)[i][i] = 1;
  double scale = 0;
  for (size_t i = 0; i < n; ++i) scale = std::max(scale, std::abs(a[i][i]));
  if (scale == 0) return n == 0;
  for (size_t c = 0; c < n; ++c) {
    size_t pivot = c;
    for (size_t r = c + 1; r < n; ++r) {
      if (std::abs(a[r][c]) > std::abs(a[pivot][c])) pivot = r;
    }
    if (std::abs(a[pivot][c]) < 1e-12 * scale) return false;
    std::swap(a[c], a[pivot]);
    std::swap((*inv)[c], (*inv)[pivot]);
    const double d = a[c][c];
    for (size_t k = 0; k < n; ++k) {
      a[c][k] /= d;
      (*inv)[c][k] /= d;
    }
    for (size_t r = 0; r < n; ++r) {
      if (r == c || a[r][c] == 0) continue;
      const double f = a[r][c];
      for (size_t k = 0; k < n; ++k) {
        a[r][k] -= f * a[c][k];
        (*inv)[r][k] -= f * (*inv)[c][k];
      }
    }
  }
  return true;
}

double Sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

}  // namespace

Ratings FitBradleyTerry(const std::vector<std::vector<double>>& wins,
                        double prior_draws) {
  const size_t n = wins.size();
  Ratings out;
  out.elo.assign(n, 1500);
  out.se.assign(n, 0);
  out.los.assign(n, std::vector<double>(n, 0.5));
  out.converged = true;
  if (n == 0) return out;
  const double d = std::max(0.0, prior_draws);
  std::vector<double> theta(n, 0);
  // Pair totals.
  std::vector<std::vector<double>> games(n, std::vector<double>(n, 0));
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = 0; j < n; ++j) {
      if (i != j) games[i][j] = wins[i][j] + wins[j][i];
    }
  }
  auto log_likelihood = [&](const std::vector<double>& t) {
    double ll = 0;
    for (size_t i = 0; i < n; ++i) {
      for (size_t j = 0; j < n; ++j) {
        if (i != j && wins[i][j] > 0) {
          // log sigmoid(x) = -log1p(exp(-x)), computed stably.
          const double x = t[i] - t[j];
          ll += wins[i][j] * (x > 0 ? -std::log1p(std::exp(-x))
                                    : x - std::log1p(std::exp(x)));
        }
      }
      if (d > 0) {
        const double x = t[i];
        const double ls =
            x > 0 ? -std::log1p(std::exp(-x)) : x - std::log1p(std::exp(x));
        ll += d / 2 * ls + d / 2 * (ls - x);  // log sigmoid(-x) = ls - x
      }
    }
    return ll;
  };
  // Fisher information (negated Hessian) at t; with d == 0 its null space
  // holds the all-ones vector, so J/n is added (this leaves the Newton step
  // orthogonal to it and makes the matrix invertible when the comparison
  // graph is connected).
  auto information = [&](const std::vector<double>& t, bool plus_j) {
    std::vector<std::vector<double>> f(n, std::vector<double>(n, 0));
    for (size_t i = 0; i < n; ++i) {
      for (size_t j = 0; j < n; ++j) {
        if (i == j || games[i][j] == 0) continue;
        const double p = Sigmoid(t[i] - t[j]);
        const double w = games[i][j] * p * (1 - p);
        f[i][i] += w;
        f[i][j] -= w;
      }
      if (d > 0) {
        const double p = Sigmoid(t[i]);
        f[i][i] += d * p * (1 - p);
      }
      if (plus_j) {
        for (size_t j = 0; j < n; ++j) f[i][j] += 1.0 / n;
      }
    }
    return f;
  };
  const bool plus_j = d == 0;
  double ll = log_likelihood(theta);
  out.converged = false;
  constexpr int kMaxIterations = 100;
  constexpr double kMaxTheta = 30;  // ~5200 Elo: "unbounded" for our purposes
  for (int iter = 1; iter <= kMaxIterations; ++iter) {
    out.iterations = iter;
    std::vector<double> grad(n, 0);
    for (size_t i = 0; i < n; ++i) {
      for (size_t j = 0; j < n; ++j) {
        if (i == j || games[i][j] == 0) continue;
        grad[i] += wins[i][j] - games[i][j] * Sigmoid(theta[i] - theta[j]);
      }
      if (d > 0) grad[i] += d / 2 - d * Sigmoid(theta[i]);
    }
    std::vector<std::vector<double>> inv;
    if (!Invert(information(theta, plus_j), &inv)) break;
    std::vector<double> step(n, 0);
    double max_step = 0;
    for (size_t i = 0; i < n; ++i) {
      for (size_t j = 0; j < n; ++j) step[i] += inv[i][j] * grad[j];
      max_step = std::max(max_step, std::abs(step[i]));
    }
    // Damped step: at most 2 in log-strength, then halve until the
    // likelihood does not fall.
    double scale = max_step > 2 ? 2 / max_step : 1;
    std::vector<double> next(n);
    double next_ll = ll;
    for (int halvings = 0; halvings < 40; ++halvings, scale /= 2) {
      for (size_t i = 0; i < n; ++i) {
        next[i] = std::clamp(theta[i] + scale * step[i], -kMaxTheta, kMaxTheta);
      }
      next_ll = log_likelihood(next);
      if (next_ll >= ll - 1e-12 * std::abs(ll)) break;
    }
    theta = next;
    ll = next_ll;
    if (max_step * scale < 1e-9) {
      out.converged = true;
      break;
    }
  }
  for (double t : theta) {
    if (std::abs(t) >= kMaxTheta - 1e-9) out.converged = false;
  }
  // Centre and convert.
  const double mean = std::accumulate(theta.begin(), theta.end(), 0.0) / n;
  const double k = 400 / std::log(10.0);
  for (size_t i = 0; i < n; ++i) out.elo[i] = 1500 + k * (theta[i] - mean);
  // Covariance of theta: F^-1 with a prior, else the pseudo-inverse
  // (F + J/n)^-1 - J/n. Then centred: C cov C with C = I - J/n.
  std::vector<std::vector<double>> cov;
  if (n == 1) {
    out.se[0] = 0;
    return out;
  }
  if (!Invert(information(theta, plus_j), &cov)) {
    for (size_t i = 0; i < n; ++i) {
      out.se[i] = std::numeric_limits<double>::quiet_NaN();
      for (size_t j = 0; j < n; ++j) {
        if (i != j) out.los[i][j] = std::numeric_limits<double>::quiet_NaN();
      }
    }
    return out;
  }
  if (plus_j) {
    for (auto& row : cov) {
      for (double& v : row) v -= 1.0 / n;
    }
  }
  std::vector<double> row_mean(n, 0), col_mean(n, 0);
  double all_mean = 0;
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = 0; j < n; ++j) {
      row_mean[i] += cov[i][j] / n;
      col_mean[j] += cov[i][j] / n;
      all_mean += cov[i][j] / (n * n);
    }
  }
  for (size_t i = 0; i < n; ++i) {
    const double centred = cov[i][i] - row_mean[i] - col_mean[i] + all_mean;
    out.se[i] = k * std::sqrt(std::max(0.0, centred));
    for (size_t j = 0; j < n; ++j) {
      if (i == j) continue;
      const double var = cov[i][i] + cov[j][j] - cov[i][j] - cov[j][i];
      const double diff = theta[i] - theta[j];
      out.los[i][j] = var > 0 ? NormalCdf(diff / std::sqrt(var))
                              : (diff > 0   ? 1
                                 : diff < 0 ? 0
                                            : 0.5);
    }
  }
  return out;
}

}  // namespace cassino::competition
