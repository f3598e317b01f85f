#include "tools/stats/sprt_format.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "nlohmann/json.hpp"

namespace cassino::stats {
namespace {

using competition::Estimate;
using competition::SprtResult;
using competition::Verdict;

std::string EstimateText(const Estimate& e) {
  return absl::StrFormat("%.1f [%.1f, %.1f]", e.value, e.low, e.high);
}

nlohmann::ordered_json EstimateJson(const Estimate& e) {
  nlohmann::ordered_json j;
  // nlohmann writes non-finite numbers as null.
  j["value"] = e.value;
  j["low"] = e.low;
  j["high"] = e.high;
  return j;
}

}  // namespace

std::string FormatSprtText(const SprtResult& r, absl::string_view a,
                           absl::string_view b) {
  std::string out = absl::StrCat(
      "SPRT ", a, " vs ", b, ": ", competition::FormatSprtParams(r.params),
      r.pentanomial ? ", pentanomial (duplicate pairs)" : ", trinomial (games)",
      "\n");
  const char* verdict = r.verdict == Verdict::kAcceptH1   ? "H1 accepted"
                        : r.verdict == Verdict::kAcceptH0 ? "H0 accepted"
                                                          : "no decision";
  absl::StrAppendFormat(&out, "  verdict  %s\n", verdict);
  absl::StrAppendFormat(&out, "  LLR      %.2f (%.2f, %.2f)\n", r.llr, r.lower,
                        r.upper);
  if (r.pentanomial) {
    absl::StrAppendFormat(&out, "  games    %d (%d pairs)\n", r.games,
                          r.pair_count);
  } else {
    absl::StrAppendFormat(&out, "  games    %d\n", r.games);
  }
  absl::StrAppendFormat(&out, "  score    %.4f\n", r.score);
  absl::StrAppendFormat(&out, "  Elo      %s\n", EstimateText(r.elo));
  absl::StrAppendFormat(&out, "  nElo     %s\n", EstimateText(r.nelo));
  absl::StrAppendFormat(&out, "  LOS      %.1f%%\n", 100 * r.los);
  if (r.pentanomial) {
    absl::StrAppendFormat(&out,
                          "  pairs    LL %d, LD %d, WL+DD %d, WD %d, WW %d "
                          "(%s's half points per pair: 0..4)\n",
                          r.pairs[0], r.pairs[1], r.pairs[2], r.pairs[3],
                          r.pairs[4], a);
  } else {
    absl::StrAppendFormat(&out, "  results  %s: %d won, %d drawn, %d lost\n", a,
                          r.games_wdl[2], r.games_wdl[1], r.games_wdl[0]);
  }
  return out;
}

std::string FormatSprtJson(const SprtResult& r, absl::string_view a,
                           absl::string_view b) {
  nlohmann::ordered_json j;
  j["bot_a"] = std::string(a);
  j["bot_b"] = std::string(b);
  j["params"] = {
      {"elo0", r.params.elo0},
      {"elo1", r.params.elo1},
      {"alpha", r.params.alpha},
      {"beta", r.params.beta},
      {"model", std::string(competition::ModelName(r.params.model))}};
  j["outcomes"] = r.pentanomial ? "pentanomial" : "trinomial";
  j["verdict"] = std::string(competition::VerdictName(r.verdict));
  j["llr"] = r.llr;
  j["lower"] = r.lower;
  j["upper"] = r.upper;
  j["games"] = r.games;
  j["pairs"] = r.pair_count;
  j["score"] = r.score;
  j["elo"] = EstimateJson(r.elo);
  j["nelo"] = EstimateJson(r.nelo);
  j["los"] = r.los;
  if (r.pentanomial) {
    j["pentanomial"] = {{"LL", r.pairs[0]},
                        {"LD", r.pairs[1]},
                        {"WL_DD", r.pairs[2]},
                        {"WD", r.pairs[3]},
                        {"WW", r.pairs[4]}};
  } else {
    j["trinomial"] = {{"losses", r.games_wdl[0]},
                      {"draws", r.games_wdl[1]},
                      {"wins", r.games_wdl[2]}};
  }
  return j.dump(2) + "\n";
}

}  // namespace cassino::stats
