// The wall clock as the records keep it. Turn deadlines do not use it (they
// run on DeadlineTimer's steady clock, which tests control); only the
// times written into records and shown to people do.

#ifndef CASSINO_REFEREE_WALL_CLOCK_H_
#define CASSINO_REFEREE_WALL_CLOCK_H_

#include <chrono>
#include <cstdint>

namespace cassino::service {

// Now, as Unix time in microseconds (the records' `*_us`).
inline int64_t UnixMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace cassino::service

#endif  // CASSINO_REFEREE_WALL_CLOCK_H_
