// A token bucket: at most `rate` requests per second on average, with
// bursts of up to `burst`. Used per seat so that one bot flooding the
// referee is refused (RESOURCE_EXHAUSTED) without slowing anyone else.
// Not thread-safe: its owner guards it.

#ifndef CASSINO_REFEREE_RATE_LIMITER_H_
#define CASSINO_REFEREE_RATE_LIMITER_H_

#include <algorithm>
#include <chrono>

namespace cassino::service {

struct RateLimit {
  double per_second = 5000;  // sustained requests per second; <= 0: no limit
  double burst = 10000;      // requests allowed at once
};

class TokenBucket {
 public:
  using Clock = std::chrono::steady_clock;

  explicit TokenBucket(RateLimit limit = RateLimit())
      : limit_(limit), tokens_(limit.burst), last_(Clock::now()) {}

  // True if one more request may go through now (and counts it).
  bool Admit(Clock::time_point now = Clock::now()) {
    if (limit_.per_second <= 0) return true;
    const double elapsed = std::chrono::duration<double>(now - last_).count();
    last_ = now;
    tokens_ = std::min(limit_.burst, tokens_ + elapsed * limit_.per_second);
    if (tokens_ < 1) return false;
    tokens_ -= 1;
    return true;
  }

 private:
  RateLimit limit_;
  double tokens_;
  Clock::time_point last_;
};

}  // namespace cassino::service

#endif  // CASSINO_REFEREE_RATE_LIMITER_H_
