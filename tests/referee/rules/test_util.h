// Helpers shared by the rules tests.

#ifndef CASSINO_TESTS_REFEREE_RULES_TEST_UTIL_H_
#define CASSINO_TESTS_REFEREE_RULES_TEST_UTIL_H_

#include <algorithm>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "referee/rules/legal_moves.h"
#include "referee/rules/position.h"

namespace cassino::testing {

inline Position Pos(const std::string& text) {
  absl::StatusOr<Position> p = Position::Parse(text);
  EXPECT_TRUE(p.ok()) << text << ": " << p.status();
  return p.ok() ? *p : Position{};
}

// The legal moves of a position in canonical notation, sorted.
inline std::vector<std::string> SortedMoves(const std::string& position) {
  std::vector<std::string> out;
  for (const Move& m : LegalMoves(Pos(position))) out.push_back(m.ToString());
  std::sort(out.begin(), out.end());
  return out;
}

inline std::vector<std::string> Sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

inline Move M(const std::string& text) {
  absl::StatusOr<Move> m = Move::Parse(text);
  EXPECT_TRUE(m.ok()) << text << ": " << m.status();
  return m.ok() ? *m : Move{};
}

}  // namespace cassino::testing

#endif  // CASSINO_TESTS_REFEREE_RULES_TEST_UTIL_H_
