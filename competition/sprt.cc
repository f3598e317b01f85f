#include "competition/sprt.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "competition/normal_cdf.h"

namespace cassino::competition {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
// 800 / ln 10: normalized Elo per unit of t-value.
const double kNeloPerT = 800.0 / std::log(10.0);
constexpr double kZ95 = 1.959963984540054;
// The weight of an outcome never seen, in the fits only.
constexpr double kUnseen = 1e-3;

constexpr std::array<double, 5> kPairScores = {0, 0.25, 0.5, 0.75, 1};
constexpr std::array<double, 3> kGameScores = {0, 0.5, 1};

double LogisticScore(double elo) {
  return 1.0 / (1.0 + std::pow(10.0, -elo / 400.0));
}
double LogisticElo(double score) {
  if (score <= 0) return -kInf;
  if (score >= 1) return kInf;
  return -400.0 * std::log10(1.0 / score - 1.0);
}

// The x in (-1/max h, -1/min h) with sum p_i h_i / (1 + x h_i) = 0: the
// Lagrange multiplier of the constraint sum P_i h_i = 0 on
// P_i = p_i / (1 + x h_i). The left side falls strictly from +inf to -inf
// over the interval, so Newton's method kept inside a shrinking bracket
// finds the one root. NaN when h does not change sign (no such P).
double SolveSecular(std::span<const double> h, std::span<const double> p) {
  const auto [hmin, hmax] = std::minmax_element(h.begin(), h.end());
  if (!(*hmin < 0 && *hmax > 0)) return std::nan("");
  double lo = -1.0 / *hmax;
  double hi = -1.0 / *hmin;
  double x = 0;
  for (int iter = 0; iter < 200; ++iter) {
    double f = 0;
    double df = 0;
    for (size_t i = 0; i < h.size(); ++i) {
      const double d = 1.0 + x * h[i];
      f += p[i] * h[i] / d;
      df -= p[i] * h[i] * h[i] / (d * d);
    }
    if (f == 0) break;
    (f > 0 ? lo : hi) = x;
    double next = x - f / df;
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    if (std::abs(next - x) <= 1e-15 * (1.0 + std::abs(x))) {
      x = next;
      break;
    }
    x = next;
  }
  return x;
}

// P_i = p_i / (1 + x h_i) for the root x of the secular equation; p itself
// when there is none.
std::vector<double> Tilt(std::span<const double> h, std::span<const double> p) {
  std::vector<double> out(p.begin(), p.end());
  const double x = SolveSecular(h, p);
  if (std::isnan(x)) return out;
  for (size_t i = 0; i < p.size(); ++i) out[i] = p[i] / (1.0 + x * h[i]);
  return out;
}

std::pair<double, double> MeanVar(std::span<const double> scores,
                                  std::span<const double> P) {
  double mu = 0;
  for (size_t i = 0; i < P.size(); ++i) mu += P[i] * scores[i];
  double var = 0;
  for (size_t i = 0; i < P.size(); ++i) {
    var += P[i] * (scores[i] - mu) * (scores[i] - mu);
  }
  return {mu, var};
}

// sum p_i log P_i over the outcomes with p_i > 0.
double MeanLogLikelihood(std::span<const double> p, std::span<const double> P) {
  double sum = 0;
  for (size_t i = 0; i < p.size(); ++i) {
    if (p[i] > 0) sum += p[i] * std::log(P[i]);
  }
  return sum;
}

// The counts as frequencies, unseen outcomes weighted kUnseen.
std::vector<double> Regularized(std::span<const int64_t> counts) {
  std::vector<double> p(counts.size());
  for (size_t i = 0; i < counts.size(); ++i) {
    p[i] = counts[i] > 0 ? static_cast<double>(counts[i]) : kUnseen;
  }
  const double total = std::accumulate(p.begin(), p.end(), 0.0);
  for (double& x : p) x /= total;
  return p;
}

// Fills the figures common to both models.
void Finish(std::span<const double> scores, std::span<const int64_t> counts,
            bool per_pair, SprtResult* r) {
  const int64_t n = std::accumulate(counts.begin(), counts.end(), int64_t{0});
  r->games = per_pair ? 2 * n : n;
  r->pair_count = per_pair ? n : 0;
  const auto [lower, upper] =
      std::pair(std::log(r->params.beta / (1 - r->params.alpha)),
                std::log((1 - r->params.beta) / r->params.alpha));
  r->lower = lower;
  r->upper = upper;
  r->llr = GeneralizedLlr(r->params, scores, counts, per_pair);
  r->verdict = Decide(r->llr, lower, upper);
  if (n == 0) {
    r->elo = r->nelo = {0, -kInf, kInf};
    return;
  }
  std::vector<double> freq(counts.size());
  for (size_t i = 0; i < counts.size(); ++i) {
    freq[i] = static_cast<double>(counts[i]) / static_cast<double>(n);
  }
  const auto [mu, var] = MeanVar(scores, freq);
  const double se = std::sqrt(var / static_cast<double>(n));
  r->score = mu;
  r->elo = {LogisticElo(mu), LogisticElo(mu - kZ95 * se),
            LogisticElo(mu + kZ95 * se)};
  // A game's sd: a pair's mean of two games has sd_game / sqrt 2.
  const double sd_game = std::sqrt(var) * (per_pair ? std::sqrt(2.0) : 1.0);
  double nelo;
  if (sd_game > 0) {
    nelo = (mu - 0.5) / sd_game * kNeloPerT;
  } else {
    nelo = mu == 0.5 ? 0 : (mu > 0.5 ? kInf : -kInf);
  }
  const double half =
      kZ95 * kNeloPerT / std::sqrt(static_cast<double>(r->games));
  r->nelo = {nelo, nelo - half, nelo + half};
  if (se > 0) {
    r->los = NormalCdf((mu - 0.5) / se);
  } else {
    r->los = mu > 0.5 ? 1 : (mu < 0.5 ? 0 : 0.5);
  }
}

// "0.05", "5", "-1.5" as shortest round-trip text.
std::string Number(double x) { return absl::StrFormat("%g", x); }

}  // namespace

absl::string_view ModelName(EloModel model) {
  return model == EloModel::kLogistic ? "logistic" : "normalized";
}

absl::StatusOr<SprtParams> ParseSprtParams(absl::string_view text) {
  SprtParams params;
  std::vector<std::string> seen;
  for (absl::string_view item : absl::StrSplit(text, ',', absl::SkipEmpty())) {
    const size_t eq = item.find('=');
    if (eq == absl::string_view::npos) {
      return absl::InvalidArgumentError(
          absl::StrCat("sprt: '", item, "' is not KEY=VALUE"));
    }
    const std::string key(item.substr(0, eq));
    const absl::string_view value = item.substr(eq + 1);
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("sprt: ", key, " given twice"));
    }
    seen.push_back(key);
    if (key == "model") {
      if (value == "normalized") {
        params.model = EloModel::kNormalized;
      } else if (value == "logistic") {
        params.model = EloModel::kLogistic;
      } else {
        return absl::InvalidArgumentError(absl::StrCat(
            "sprt: model must be normalized or logistic, not '", value, "'"));
      }
      continue;
    }
    double* target = key == "elo0"    ? &params.elo0
                     : key == "elo1"  ? &params.elo1
                     : key == "alpha" ? &params.alpha
                     : key == "beta"  ? &params.beta
                                      : nullptr;
    if (target == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("sprt: unknown key '", key,
                       "' (known: elo0, elo1, alpha, beta, model)"));
    }
    if (!absl::SimpleAtod(value, target) || !std::isfinite(*target)) {
      return absl::InvalidArgumentError(
          absl::StrCat("sprt: ", key, ": '", value, "' is not a number"));
    }
  }
  if (!(params.elo0 < params.elo1)) {
    return absl::InvalidArgumentError("sprt: elo0 must be less than elo1");
  }
  if (std::abs(params.elo0) > 2000 || std::abs(params.elo1) > 2000) {
    return absl::InvalidArgumentError("sprt: elo0 and elo1 must be in ±2000");
  }
  for (const auto& [name, v] :
       {std::pair("alpha", params.alpha), std::pair("beta", params.beta)}) {
    if (!(v > 0 && v <= 0.5)) {
      return absl::InvalidArgumentError(
          absl::StrCat("sprt: ", name, " must be in (0, 0.5]"));
    }
  }
  return params;
}

std::string FormatSprtParams(const SprtParams& p) {
  return absl::StrCat("elo0=", Number(p.elo0), ",elo1=", Number(p.elo1),
                      ",alpha=", Number(p.alpha), ",beta=", Number(p.beta),
                      ",model=", ModelName(p.model));
}

absl::string_view VerdictName(Verdict v) {
  switch (v) {
    case Verdict::kAcceptH0:
      return "H0";
    case Verdict::kAcceptH1:
      return "H1";
    case Verdict::kContinue:
      break;
  }
  return "continue";
}

Verdict Decide(double llr, double lower, double upper) {
  if (llr >= upper) return Verdict::kAcceptH1;
  if (llr <= lower) return Verdict::kAcceptH0;
  return Verdict::kContinue;
}

std::vector<double> ConstrainedMle(std::span<const double> scores,
                                   std::span<const double> p, double mean) {
  std::vector<double> h(scores.size());
  for (size_t i = 0; i < h.size(); ++i) h[i] = scores[i] - mean;
  return Tilt(h, p);
}

std::vector<double> ConstrainedMleT(std::span<const double> scores,
                                    std::span<const double> p, double t_value) {
  // The constraint g(P) = mu - 1/2 - t sd = 0 is not linear in P. Its
  // tangent at the current P (sd replaced by (sd^2 + (a - mu)^2) / (2 sd),
  // whose mean under P is sd) is, so each step solves the linear problem
  // and moves the tangent. At the fixed point P_i = p_i / (1 + x h_i) with
  // h the gradient of g up to a constant, which is the optimum's condition.
  // It starts from the uniform distribution: from a nearly degenerate p
  // the first tangent would be far off.
  std::vector<double> P(p.size(), 1.0 / static_cast<double>(p.size()));
  std::vector<double> h(scores.size());
  for (int iter = 0; iter < 100; ++iter) {
    const auto [mu, var] = MeanVar(scores, P);
    const double sd = std::sqrt(var);
    if (!(sd > 0)) break;
    for (size_t i = 0; i < h.size(); ++i) {
      const double d = scores[i] - mu;
      h[i] = scores[i] - 0.5 - t_value * (var + d * d) / (2 * sd);
    }
    std::vector<double> next = Tilt(h, p);
    double change = 0;
    for (size_t i = 0; i < P.size(); ++i) {
      change = std::max(change, std::abs(next[i] - P[i]));
    }
    P = std::move(next);
    if (change < 1e-13) break;
  }
  return P;
}

double GeneralizedLlr(const SprtParams& params, std::span<const double> scores,
                      std::span<const int64_t> counts, bool per_pair) {
  const int64_t n = std::accumulate(counts.begin(), counts.end(), int64_t{0});
  if (n == 0) return 0;
  const std::vector<double> p = Regularized(counts);
  std::vector<double> P0, P1;
  if (params.model == EloModel::kLogistic) {
    P0 = ConstrainedMle(scores, p, LogisticScore(params.elo0));
    P1 = ConstrainedMle(scores, p, LogisticScore(params.elo1));
  } else {
    const double scale = per_pair ? std::sqrt(2.0) : 1.0;
    P0 = ConstrainedMleT(scores, p, params.elo0 / kNeloPerT * scale);
    P1 = ConstrainedMleT(scores, p, params.elo1 / kNeloPerT * scale);
  }
  return static_cast<double>(n) *
         (MeanLogLikelihood(p, P1) - MeanLogLikelihood(p, P0));
}

SprtResult EvaluatePairs(const SprtParams& params, const Pentanomial& pairs) {
  SprtResult r;
  r.params = params;
  r.pentanomial = true;
  r.pairs = pairs;
  Finish(kPairScores, pairs, /*per_pair=*/true, &r);
  return r;
}

SprtResult EvaluateGames(const SprtParams& params, const Trinomial& games) {
  SprtResult r;
  r.params = params;
  r.pentanomial = false;
  r.games_wdl = games;
  Finish(kGameScores, games, /*per_pair=*/false, &r);
  return r;
}

}  // namespace cassino::competition
