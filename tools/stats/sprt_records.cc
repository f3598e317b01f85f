#include "tools/stats/sprt_records.h"

#include <algorithm>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace cassino::stats {
namespace {

int IndexOf(const Stats& stats, absl::string_view name) {
  for (size_t i = 0; i < stats.bots.size(); ++i) {
    if (stats.bots[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace

competition::Pentanomial PairsBetween(const Stats& stats, absl::string_view a,
                                      absl::string_view b) {
  const int ia = IndexOf(stats, a), ib = IndexOf(stats, b);
  competition::Pentanomial counts{};
  if (ia < 0 || ib < 0 || ia == ib) return counts;
  for (const DuplicateResult& d : stats.duplicates) {
    if (d.a == std::min(ia, ib) && d.b == std::max(ia, ib)) {
      counts = d.penta;  // from d.a's side
      if (d.a != ia) std::reverse(counts.begin(), counts.end());
    }
  }
  return counts;
}

absl::StatusOr<competition::SprtResult> SprtFromStats(
    const Stats& stats, absl::string_view a, absl::string_view b,
    const competition::SprtParams& params) {
  if (a == b) {
    return absl::InvalidArgumentError("the SPRT needs two different bots");
  }
  const int ia = IndexOf(stats, a), ib = IndexOf(stats, b);
  for (const auto& [name, index] : {std::pair(a, ia), std::pair(b, ib)}) {
    if (index < 0) {
      return absl::NotFoundError(
          absl::StrCat("no finished game of bot '", name, "' selected"));
    }
  }
  const competition::Pentanomial pairs = PairsBetween(stats, a, b);
  int64_t total = 0;
  for (int64_t n : pairs) total += n;
  if (total > 0) return competition::EvaluatePairs(params, pairs);
  const HeadToHead& h = stats.head_to_head[ia][ib];
  return competition::EvaluateGames(params, {h.losses, h.draws, h.wins});
}

}  // namespace cassino::stats
