// Whether this test binary is built with AddressSanitizer (clang's
// __has_feature or gcc's __SANITIZE_ADDRESS__): tests scale their timing
// bounds and flood sizes for it, or skip what it cannot measure.

#ifndef CASSINO_TESTS_SANITIZERS_H_
#define CASSINO_TESTS_SANITIZERS_H_

namespace cassino::testing {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kSanitized = true;
#elif defined(__has_feature)
inline constexpr bool kSanitized = __has_feature(address_sanitizer);
#else
inline constexpr bool kSanitized = false;
#endif

}  // namespace cassino::testing

#endif  // CASSINO_TESTS_SANITIZERS_H_
