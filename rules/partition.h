// Exact checks that a collection of values splits into groups of a sum.
//
// Validation asks these questions of the one move a player submitted; move
// generation answers them for all subsets at once (see legal_moves.h). The
// checks work on value counts, not on cards: cards of equal value are
// interchangeable here, which bounds the work by the product of (count + 1)
// over the distinct values however many cards there are.

#ifndef CASSINO_RULES_PARTITION_H_
#define CASSINO_RULES_PARTITION_H_

#include <array>

namespace cassino {

// Values 1..kMaxPartValue may occur; counts per value.
inline constexpr int kMaxPartValue = 15;
using ValueCounts = std::array<int, kMaxPartValue + 1>;

// True if the values split into groups each summing to `target` (an empty
// collection splits into zero groups).
bool SplitsIntoGroups(const ValueCounts& counts, int target);

// True if a non-empty part of the values sums to `first` and the rest splits
// into groups of `target`. With `first` == 0 this is SplitsIntoGroups.
bool SplitsWithFirstGroup(const ValueCounts& counts, int first, int target);

}  // namespace cassino

#endif  // CASSINO_RULES_PARTITION_H_
