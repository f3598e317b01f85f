#include "rules/partition.h"

#include <vector>

#include "gtest/gtest.h"

namespace cassino {
namespace {

// Reference answers by plain enumeration of subsets.
bool BruteSplits(const std::vector<int>& values, int target) {
  if (values.empty()) return true;
  const int n = static_cast<int>(values.size());
  // The group holding values[0]: every subset of the others with it.
  for (uint32_t mask = 0; mask < (uint32_t{1} << (n - 1)); ++mask) {
    int sum = values[0];
    std::vector<int> rest;
    for (int i = 1; i < n; ++i) {
      if (mask >> (i - 1) & 1) {
        sum += values[i];
      } else {
        rest.push_back(values[i]);
      }
    }
    if (sum == target && BruteSplits(rest, target)) return true;
  }
  return false;
}

bool BruteSplitsWithFirst(const std::vector<int>& values, int first,
                          int target) {
  if (first == 0) return BruteSplits(values, target);
  const int n = static_cast<int>(values.size());
  for (uint32_t mask = 1; mask < (uint32_t{1} << n); ++mask) {
    int sum = 0;
    std::vector<int> rest;
    for (int i = 0; i < n; ++i) {
      if (mask >> i & 1) {
        sum += values[i];
      } else {
        rest.push_back(values[i]);
      }
    }
    if (sum == first && BruteSplits(rest, target)) return true;
  }
  return false;
}

// Every collection of values 1..5, each at most twice (and some with 6..15),
// against the enumeration, for every target and first part.
TEST(PartitionTest, AgreesWithEnumeration) {
  int checked = 0, splits = 0;
  for (int code = 0; code < 243; ++code) {
    for (int big : {0, 7, 13}) {
      ValueCounts counts{};
      std::vector<int> values;
      for (int v = 1, c = code; v <= 5; ++v, c /= 3) {
        counts[v] = c % 3;
        for (int k = 0; k < c % 3; ++k) values.push_back(v);
      }
      if (big > 0) {
        ++counts[big];
        values.push_back(big);
      }
      for (int target = 1; target <= 14; ++target) {
        const bool want = BruteSplits(values, target);
        ASSERT_EQ(SplitsIntoGroups(counts, target), want)
            << "code " << code << " big " << big << " target " << target;
        splits += want;
        ++checked;
        for (int first = 1; first <= 8; ++first) {
          ASSERT_EQ(SplitsWithFirstGroup(counts, first, target),
                    BruteSplitsWithFirst(values, first, target))
              << "code " << code << " big " << big << " first " << first
              << " target " << target;
        }
      }
    }
  }
  EXPECT_GT(splits, 100);  // both answers occur
  EXPECT_LT(splits, checked - 100);
}

TEST(PartitionTest, EmptyAndNonPositiveTargets) {
  const ValueCounts none{};
  EXPECT_TRUE(SplitsIntoGroups(none, 8));
  EXPECT_FALSE(SplitsIntoGroups(none, 0));
  EXPECT_FALSE(SplitsWithFirstGroup(none, 3, 8));  // the first part is empty
  ValueCounts one{};
  one[8] = 1;
  EXPECT_FALSE(SplitsIntoGroups(one, -8));
}

}  // namespace
}  // namespace cassino
