// competition/sprt.h: the LLR, the estimates and the stopping rule on
// fixtures whose values tests/competition/sprt_reference.py computes by another
// method (the convex dual with linear constraints, golden-section search),
// plus closed forms computed by hand where there is one.

#include "competition/sprt.h"

#include <cmath>
#include <limits>

#include "gtest/gtest.h"

namespace cassino::competition {
namespace {

constexpr double kTol = 1e-7;

SprtParams Params(double elo0, double elo1, EloModel model) {
  SprtParams p;
  p.elo0 = elo0;
  p.elo1 = elo1;
  p.model = model;
  return p;
}
const SprtParams kNorm = Params(0, 5, EloModel::kNormalized);
const SprtParams kLogi = Params(0, 5, EloModel::kLogistic);
const SprtParams kWide = Params(-5, 20, EloModel::kNormalized);

TEST(SprtTest, BoundsFromAlphaAndBeta) {
  const SprtResult r = EvaluatePairs(kNorm, {});
  EXPECT_NEAR(r.lower, -std::log(19.0), 1e-12);
  EXPECT_NEAR(r.upper, std::log(19.0), 1e-12);
  SprtParams p = kNorm;
  p.alpha = 0.01;
  p.beta = 0.1;
  const SprtResult q = EvaluatePairs(p, {});
  EXPECT_NEAR(q.lower, std::log(0.1 / 0.99), 1e-12);
  EXPECT_NEAR(q.upper, std::log(0.9 / 0.01), 1e-12);
}

TEST(SprtTest, StoppingRule) {
  EXPECT_EQ(Decide(2.94, -2.94, 2.94), Verdict::kAcceptH1);
  EXPECT_EQ(Decide(2.9399, -2.94, 2.94), Verdict::kContinue);
  EXPECT_EQ(Decide(-2.94, -2.94, 2.94), Verdict::kAcceptH0);
  EXPECT_EQ(Decide(-2.9399, -2.94, 2.94), Verdict::kContinue);
  EXPECT_EQ(Decide(0, -2.94, 2.94), Verdict::kContinue);
}

TEST(SprtTest, NothingPlayed) {
  const SprtResult r = EvaluatePairs(kNorm, {});
  EXPECT_EQ(r.llr, 0);
  EXPECT_EQ(r.verdict, Verdict::kContinue);
  EXPECT_EQ(r.games, 0);
  EXPECT_EQ(r.score, 0.5);
  EXPECT_TRUE(std::isinf(r.elo.low) && r.elo.low < 0);
}

TEST(SprtTest, MixedPentanomial) {
  const Pentanomial pairs = {3, 12, 40, 15, 5};
  EXPECT_NEAR(EvaluatePairs(kNorm, pairs).llr, 0.145297125770, kTol);
  EXPECT_NEAR(EvaluatePairs(kLogi, pairs).llr, 0.217583412082, kTol);
  EXPECT_NEAR(EvaluatePairs(kWide, pairs).llr, 0.572081108215, kTol);
  const SprtResult r = EvaluatePairs(kNorm, pairs);
  EXPECT_EQ(r.games, 150);
  EXPECT_EQ(r.pair_count, 75);
  EXPECT_NEAR(r.score, 0.523333333333, 1e-9);
  EXPECT_NEAR(r.elo.value, 16.225445977669, 1e-8);
  EXPECT_NEAR(r.elo.low, -18.480560067244, 1e-8);
  EXPECT_NEAR(r.elo.high, 51.259178247135, 1e-8);
  EXPECT_NEAR(r.nelo.value, 25.996727615146, 1e-8);
  EXPECT_NEAR(r.nelo.low, -29.603524362081, 1e-8);
  EXPECT_NEAR(r.nelo.high, 81.596979592373, 1e-8);
  EXPECT_NEAR(r.los, 0.820274161933, 1e-9);
  EXPECT_EQ(r.verdict, Verdict::kContinue);
}

TEST(SprtTest, SplitPairsOnly) {
  const Pentanomial pairs = {10, 0, 30, 0, 20};
  EXPECT_NEAR(EvaluatePairs(kNorm, pairs).llr, 0.275554411206, kTol);
  EXPECT_NEAR(EvaluatePairs(kLogi, pairs).llr, 0.276030421198, kTol);
  EXPECT_NEAR(EvaluatePairs(kWide, pairs).llr, 1.255001206400, kTol);
  const SprtResult r = EvaluatePairs(kNorm, pairs);
  EXPECT_NEAR(r.elo.value, 58.451214271295, 1e-8);
  EXPECT_NEAR(r.elo.low, -2.505661922740, 1e-8);
  EXPECT_NEAR(r.nelo.value, 59.584711345285, 1e-8);
  EXPECT_NEAR(r.los, 0.969855413005, 1e-9);
}

// Every pair split (or drawn twice): no evidence for A, and none of
// spread. The logistic test heads to H0; the normalized one learns little
// per pair, since the sd is ~0 and a tiny shift of the mean meets t1.
TEST(SprtTest, AllPairsEven) {
  const Pentanomial pairs = {0, 0, 100, 0, 0};
  const SprtResult norm = EvaluatePairs(kNorm, pairs);
  EXPECT_NEAR(norm.llr, -0.037538381301, kTol);
  EXPECT_NEAR(EvaluatePairs(kLogi, pairs).llr, -1.441590244840, kTol);
  EXPECT_NEAR(EvaluatePairs(kWide, pairs).llr, -0.616329727250, kTol);
  EXPECT_EQ(norm.score, 0.5);
  EXPECT_EQ(norm.elo.value, 0);
  EXPECT_EQ(norm.nelo.value, 0);
  EXPECT_EQ(norm.los, 0.5);
  // 300 such pairs cross H0's bound under the logistic model, not under
  // the normalized one.
  const SprtResult many = EvaluatePairs(kLogi, {0, 0, 300, 0, 0});
  EXPECT_NEAR(many.llr, -4.339432575470, kTol);
  EXPECT_EQ(many.verdict, Verdict::kAcceptH0);
  const SprtResult many_norm = EvaluatePairs(kNorm, {0, 0, 300, 0, 0});
  EXPECT_NEAR(many_norm.llr, -0.119239341385, kTol);
  EXPECT_EQ(many_norm.verdict, Verdict::kContinue);
}

TEST(SprtTest, OneSided) {
  const Pentanomial pairs = {0, 0, 0, 0, 50};
  EXPECT_NEAR(EvaluatePairs(kNorm, pairs).llr, 1.007114054654, kTol);
  EXPECT_NEAR(EvaluatePairs(kLogi, pairs).llr, 0.714351602855, kTol);
  const SprtResult wide = EvaluatePairs(kWide, pairs);
  EXPECT_NEAR(wide.llr, 4.928351831833, kTol);
  EXPECT_EQ(wide.verdict, Verdict::kAcceptH1);
  EXPECT_EQ(wide.score, 1);
  EXPECT_TRUE(std::isinf(wide.elo.value) && wide.elo.value > 0);
  EXPECT_TRUE(std::isinf(wide.nelo.value) && wide.nelo.value > 0);
  EXPECT_EQ(wide.los, 1);
  // The mirror image: the same evidence for B.
  EXPECT_NEAR(
      EvaluatePairs(Params(-20, 5, EloModel::kNormalized), {50, 0, 0, 0, 0})
          .llr,
      -4.928351831833, kTol);
}

TEST(SprtTest, Trinomial) {
  EXPECT_NEAR(EvaluateGames(kNorm, {20, 10, 30}).llr, 0.151440111375, kTol);
  EXPECT_NEAR(EvaluateGames(kLogi, {20, 10, 30}).llr, 0.165284863342, kTol);
  EXPECT_NEAR(EvaluateGames(kWide, {20, 10, 30}).llr, 0.695024192997, kTol);
  const SprtResult r = EvaluateGames(kNorm, {20, 10, 30});
  EXPECT_EQ(r.games, 60);
  EXPECT_EQ(r.pair_count, 0);
  EXPECT_NEAR(r.elo.value, 58.451214271295, 1e-8);
  EXPECT_NEAR(r.elo.low, -21.022869656003, 1e-8);
  EXPECT_NEAR(r.elo.high, 144.620766955161, 1e-8);
  EXPECT_NEAR(r.nelo.value, 64.517168548362, 1e-8);
  EXPECT_NEAR(r.nelo.low, -23.394548815297, 1e-8);
  EXPECT_NEAR(r.los, 0.924838272261, 1e-9);
}

// No draws: two outcomes, so the mean fixes the distribution and the LLR
// has a closed form, W ln(s1/s0) + L ln((1-s1)/(1-s0)) with s = the
// logistic scores of elo0 and elo1. The unseen draw's 1e-3 weight moves it
// by about 1e-7.
TEST(SprtTest, NoDrawsClosedForm) {
  const double s0 = 0.5;
  const double s1 = 1 / (1 + std::pow(10.0, -5.0 / 400));
  const double closed =
      30 * std::log(s1 / s0) + 20 * std::log((1 - s1) / (1 - s0));
  const double llr = EvaluateGames(kLogi, {20, 0, 30}).llr;
  EXPECT_NEAR(llr, 0.138734012550, kTol);
  EXPECT_NEAR(llr, closed, 2e-7);
  EXPECT_NEAR(EvaluateGames(kNorm, {20, 0, 30}).llr, 0.138728064545, kTol);
}

TEST(SprtTest, ConstrainedFitsMeetTheirConstraints) {
  const double scores[] = {0, 0.25, 0.5, 0.75, 1};
  const double p[] = {0.1, 0.2, 0.4, 0.2, 0.1};
  const std::vector<double> m = ConstrainedMle(scores, p, 0.6);
  double mu = 0, sum = 0;
  for (int i = 0; i < 5; ++i) {
    mu += m[i] * scores[i];
    sum += m[i];
  }
  EXPECT_NEAR(sum, 1, 1e-12);
  EXPECT_NEAR(mu, 0.6, 1e-12);
  const std::vector<double> t = ConstrainedMleT(scores, p, 0.3);
  mu = sum = 0;
  double sq = 0;
  for (int i = 0; i < 5; ++i) {
    mu += t[i] * scores[i];
    sq += t[i] * scores[i] * scores[i];
    sum += t[i];
  }
  EXPECT_NEAR(sum, 1, 1e-12);
  EXPECT_NEAR((mu - 0.5) / std::sqrt(sq - mu * mu), 0.3, 1e-10);
}

TEST(SprtTest, ParseParams) {
  absl::StatusOr<SprtParams> p =
      ParseSprtParams("elo0=0,elo1=5,alpha=0.05,beta=0.05");
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->elo1, 5);
  EXPECT_EQ(p->model, EloModel::kNormalized);
  EXPECT_EQ(FormatSprtParams(*p),
            "elo0=0,elo1=5,alpha=0.05,beta=0.05,model=normalized");
  p = ParseSprtParams("model=logistic,elo1=10,elo0=-2.5,beta=0.1");
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(FormatSprtParams(*p),
            "elo0=-2.5,elo1=10,alpha=0.05,beta=0.1,model=logistic");
  EXPECT_TRUE(ParseSprtParams("").ok());
  for (const char* bad :
       {"elo0=5,elo1=0", "elo0=x", "alpha=0", "beta=0.6", "model=bayes",
        "elo2=1", "elo0=1,elo0=2", "elo1", "elo1=inf"}) {
    EXPECT_FALSE(ParseSprtParams(bad).ok()) << bad;
  }
}

}  // namespace
}  // namespace cassino::competition
