// sprt_sim: how often the SPRT of competition/sprt.h errs, by simulation.
//
//   sprt_sim [--runs N] [--sprt PARAMS] [--base LL,LD,WLDD,WD,WW]
//            [--max-pairs P] [--seed S]
//
// Draws duplicate-pair outcomes from a pentanomial distribution whose true
// strength is exactly elo0, runs the test pair by pair to a verdict (or P
// pairs, default 200,000), and repeats N times (default 1,000); then the
// same at elo1. Reports the rate of H1 at elo0 (false positives, to compare
// with alpha), of H0 at elo1 (false negatives, beta), and the mean and
// 90th percentile of pairs to a verdict. The true distributions are the
// base distribution (default 0.05,0.2,0.45,0.2,0.1: mostly split pairs, as
// between close Cassino bots) moved to the hypothesis by the same
// maximum-likelihood tilt the test uses (ConstrainedMleT / ConstrainedMle),
// so their Elo in the test's model is exactly elo0 or elo1. A program, not
// a test: the default run takes minutes. docs/stats.md quotes its output.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "competition/sprt.h"

namespace {

using cassino::competition::EloModel;
using cassino::competition::Pentanomial;
using cassino::competition::SprtParams;
using cassino::competition::Verdict;

struct Tally {
  int h0 = 0, h1 = 0, none = 0;
  std::vector<int64_t> pairs;
};

Tally Simulate(const SprtParams& params, const std::vector<double>& truth,
               int runs, int64_t max_pairs, std::mt19937_64& rng) {
  Tally tally;
  std::discrete_distribution<int> draw(truth.begin(), truth.end());
  for (int r = 0; r < runs; ++r) {
    Pentanomial counts{};
    Verdict v = Verdict::kContinue;
    int64_t n = 0;
    while (v == Verdict::kContinue && n < max_pairs) {
      ++counts[draw(rng)];
      ++n;
      v = cassino::competition::EvaluatePairs(params, counts).verdict;
    }
    (v == Verdict::kAcceptH1   ? tally.h1
     : v == Verdict::kAcceptH0 ? tally.h0
                               : tally.none)++;
    tally.pairs.push_back(n);
  }
  return tally;
}

void Report(const char* at, double elo, const Tally& t, int runs) {
  std::vector<int64_t> p = t.pairs;
  std::sort(p.begin(), p.end());
  double mean = 0;
  for (int64_t x : p) mean += static_cast<double>(x);
  mean /= static_cast<double>(p.size());
  std::printf(
      "true elo = %s (%g): H1 %.2f%%, H0 %.2f%%, no decision %.2f%%; pairs "
      "mean %.0f, p90 %lld\n",
      at, elo, 100.0 * t.h1 / runs, 100.0 * t.h0 / runs, 100.0 * t.none / runs,
      mean, static_cast<long long>(p[p.size() * 9 / 10]));
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 1000;
  int64_t max_pairs = 200000;
  uint64_t seed = 1;
  std::string sprt = "elo0=0,elo1=5,alpha=0.05,beta=0.05";
  std::vector<double> base = {0.05, 0.2, 0.45, 0.2, 0.1};
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i], value = argv[i + 1];
    bool ok = true;
    if (flag == "--runs") {
      ok = absl::SimpleAtoi(value, &runs) && runs > 0;
    } else if (flag == "--max-pairs") {
      ok = absl::SimpleAtoi(value, &max_pairs) && max_pairs > 0;
    } else if (flag == "--seed") {
      ok = absl::SimpleAtoi(value, &seed);
    } else if (flag == "--sprt") {
      sprt = value;
    } else if (flag == "--base") {
      base.clear();
      for (absl::string_view x : absl::StrSplit(value, ',')) {
        double d = 0;
        ok = ok && absl::SimpleAtod(x, &d) && d > 0;
        base.push_back(d);
      }
      ok = ok && base.size() == 5;
    } else {
      ok = false;
    }
    if (!ok) {
      std::fprintf(stderr, "sprt_sim: bad %s %s\n", flag.c_str(),
                   value.c_str());
      return 2;
    }
  }
  if (argc % 2 == 0) {
    std::fprintf(stderr,
                 "usage: sprt_sim [--runs N] [--sprt PARAMS] [--base "
                 "LL,LD,WLDD,WD,WW] [--max-pairs P] [--seed S]\n");
    return 2;
  }
  absl::StatusOr<SprtParams> params =
      cassino::competition::ParseSprtParams(sprt);
  if (!params.ok()) {
    std::fprintf(stderr, "sprt_sim: %s\n",
                 std::string(params.status().message()).c_str());
    return 2;
  }
  double total = 0;
  for (double x : base) total += x;
  for (double& x : base) x /= total;
  const double scores[] = {0, 0.25, 0.5, 0.75, 1};
  auto truth_at = [&](double elo) {
    if (params->model == EloModel::kLogistic) {
      return cassino::competition::ConstrainedMle(
          scores, base, 1 / (1 + std::pow(10.0, -elo / 400)));
    }
    // A pair's t-value is sqrt 2 times a game's (sprt.h).
    const double t = elo / (800 / std::log(10.0)) * std::sqrt(2.0);
    return cassino::competition::ConstrainedMleT(scores, base, t);
  };
  std::mt19937_64 rng(seed);
  std::printf("SPRT %s, %d runs each, pentanomial base %g,%g,%g,%g,%g\n",
              cassino::competition::FormatSprtParams(*params).c_str(), runs,
              base[0], base[1], base[2], base[3], base[4]);
  const Tally at0 =
      Simulate(*params, truth_at(params->elo0), runs, max_pairs, rng);
  Report("elo0", params->elo0, at0, runs);
  const Tally at1 =
      Simulate(*params, truth_at(params->elo1), runs, max_pairs, rng);
  Report("elo1", params->elo1, at1, runs);
  std::printf("false positive rate (H1 at elo0) %.2f%% vs alpha %.2f%%\n",
              100.0 * at0.h1 / runs, 100 * params->alpha);
  std::printf("false negative rate (H0 at elo1) %.2f%% vs beta %.2f%%\n",
              100.0 * at1.h0 / runs, 100 * params->beta);
  return 0;
}
