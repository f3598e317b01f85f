// Values of card sets when some cards are flexible.
//
// Under ace_high an ace counts 1 or 14, under dual_ten `TD` counts 10 or 11
// (docs/rules.md, *Move-level variants*). A flexible card on the table counts
// whichever of its values the move that uses it needs: a move is legal if some
// choice of values for the flexible table cards it involves makes it legal.
// These helpers run a check under each such choice (at most 2^5 of them: four
// aces and TD), and under exactly one choice when no flexible card is involved.

#ifndef CASSINO_RULES_VALUES_H_
#define CASSINO_RULES_VALUES_H_

#include "rules/card.h"
#include "rules/partition.h"
#include "rules/rule_set.h"

namespace cassino {

// Calls check(counts, sum) with the value counts and the sum of `cards`
// under each choice of values for their flexible cards, until it returns
// true; returns whether it did. Cards with no value count in counts[0].
template <typename Check>
bool AnyValueChoice(const RuleSet& rules, CardSet cards, Check&& check) {
  ValueCounts counts{};
  int sum = 0;
  for (Card c : cards) {
    const int v = rules.CardValue(c);
    ++counts[v];
    sum += v;
  }
  const CardSet flex = cards & rules.FlexibleCards();
  if (flex.empty()) return check(counts, sum);
  int base[5], alt[5], n = 0;
  for (Card c : flex) {
    base[n] = rules.CardValue(c);
    alt[n] = rules.AltValue(c);
    ++n;
  }
  for (uint32_t choice = 0; choice < (uint32_t{1} << n); ++choice) {
    ValueCounts with = counts;
    int s = sum;
    for (int i = 0; i < n; ++i) {
      if ((choice >> i & 1) == 0) continue;
      --with[base[i]];
      ++with[alt[i]];
      s += alt[i] - base[i];
    }
    if (check(with, s)) return true;
  }
  return false;
}

// True if the cards can sum to exactly `target`.
inline bool CanSumTo(const RuleSet& rules, CardSet cards, int target) {
  return AnyValueChoice(rules, cards, [target](const ValueCounts&, int sum) {
    return sum == target;
  });
}

}  // namespace cassino

#endif  // CASSINO_RULES_VALUES_H_
