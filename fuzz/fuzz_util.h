// Helpers shared by the fuzz targets.

#ifndef CASSINO_FUZZ_FUZZ_UTIL_H_
#define CASSINO_FUZZ_FUZZ_UTIL_H_

#include <cstdio>
#include <cstdlib>
#include <string>

namespace cassino::fuzz {

// Reports a broken property of the code under test and aborts, so that
// libFuzzer records the input as a crash.
[[noreturn]] inline void Fail(const std::string& what,
                              const std::string& input) {
  std::fprintf(stderr, "FUZZ PROPERTY FAILED: %s\ninput: '%s'\n", what.c_str(),
               input.c_str());
  std::abort();
}

}  // namespace cassino::fuzz

#endif  // CASSINO_FUZZ_FUZZ_UTIL_H_
