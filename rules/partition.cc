#include "rules/partition.h"

#include "absl/container/flat_hash_map.h"

namespace cassino {
namespace {

// Memoised search over count vectors. A count vector is encoded in mixed
// radix so that the memo key is one integer.
class Splitter {
 public:
  Splitter(const ValueCounts& counts, int target) : target_(target) {
    uint64_t stride = 1;
    for (int v = 1; v <= kMaxPartValue; ++v) {
      stride_[v] = stride;
      stride *= static_cast<uint64_t>(counts[v]) + 1;
    }
  }

  uint64_t Encode(const ValueCounts& c) const {
    uint64_t key = 0;
    for (int v = 1; v <= kMaxPartValue; ++v) key += c[v] * stride_[v];
    return key;
  }

  bool Splits(ValueCounts& c) {
    int lowest = 1;
    while (lowest <= kMaxPartValue && c[lowest] == 0) ++lowest;
    if (lowest > kMaxPartValue) return true;
    if (lowest > target_) return false;
    const uint64_t key = Encode(c);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    // The lowest value must sit in some group: take one of it, then complete
    // the group from values >= lowest.
    --c[lowest];
    bool ok = CompleteGroup(c, target_ - lowest, lowest);
    ++c[lowest];
    memo_[key] = ok;
    return ok;
  }

  // Removes values >= `from` summing to `remaining` in every way, and asks
  // whether what is left splits.
  bool CompleteGroup(ValueCounts& c, int remaining, int from) {
    if (remaining == 0) return Splits(c);
    for (int v = from; v <= remaining && v <= kMaxPartValue; ++v) {
      if (c[v] == 0) continue;
      --c[v];
      bool ok = CompleteGroup(c, remaining - v, v);
      ++c[v];
      if (ok) return true;
    }
    return false;
  }

 private:
  int target_;
  std::array<uint64_t, kMaxPartValue + 1> stride_{};
  absl::flat_hash_map<uint64_t, bool> memo_;
};

// Tries every non-empty sub-multiset of values >= `from` summing to
// `remaining` as the first group.
bool TryFirstGroup(ValueCounts& c, int remaining, int from, bool taken_any,
                   int target) {
  if (remaining == 0) {
    if (!taken_any) return false;
    Splitter s(c, target);
    return s.Splits(c);
  }
  for (int v = from; v <= remaining && v <= kMaxPartValue; ++v) {
    if (c[v] == 0) continue;
    --c[v];
    bool ok = TryFirstGroup(c, remaining - v, v, true, target);
    ++c[v];
    if (ok) return true;
  }
  return false;
}

// The sum of the values 1..kMaxPartValue (the searches ignore counts[0]).
int Total(const ValueCounts& counts) {
  int total = 0;
  for (int v = 1; v <= kMaxPartValue; ++v) total += v * counts[v];
  return total;
}

}  // namespace

bool SplitsIntoGroups(const ValueCounts& counts, int target) {
  if (target <= 0) return false;
  // The answers that need no search (most captures: one group, or cards of
  // the target's value), before the memoised search and its allocation.
  const int total = Total(counts);
  if (total % target != 0) return false;  // the groups' sums make the total
  if (total == 0 || total == target) return true;  // no group, or one
  if (target <= kMaxPartValue && counts[target] * target == total) return true;
  ValueCounts c = counts;
  Splitter s(c, target);
  return s.Splits(c);
}

bool SplitsWithFirstGroup(const ValueCounts& counts, int first, int target) {
  if (first == 0) return SplitsIntoGroups(counts, target);
  if (first > 0 && target > 0) {
    // As in SplitsIntoGroups: the total is `first` plus the groups' sums,
    // and all of it may be the first group.
    const int total = Total(counts);
    if (total < first || (total - first) % target != 0) return false;
    if (total == first) return true;
  }
  ValueCounts c = counts;
  return TryFirstGroup(c, first, 1, false, target);
}

}  // namespace cassino
