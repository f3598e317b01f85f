// The tests' one way to assert on an absl::Status or StatusOr: ASSERT_OK /
// EXPECT_OK print the status's message when it is not OK.

#ifndef CASSINO_TESTS_STATUS_MATCHERS_H_
#define CASSINO_TESTS_STATUS_MATCHERS_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gtest/gtest.h"

namespace cassino::testing {

inline const absl::Status& StatusOf(const absl::Status& status) {
  return status;
}
template <typename T>
const absl::Status& StatusOf(const absl::StatusOr<T>& value) {
  return value.status();
}

}  // namespace cassino::testing

#define ASSERT_OK(expr)                                \
  ASSERT_TRUE(::cassino::testing::StatusOf(expr).ok()) \
      << ::cassino::testing::StatusOf(expr)
#define EXPECT_OK(expr)                                \
  EXPECT_TRUE(::cassino::testing::StatusOf(expr).ok()) \
      << ::cassino::testing::StatusOf(expr)

#endif  // CASSINO_TESTS_STATUS_MATCHERS_H_
