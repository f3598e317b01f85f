#include "referee/deadline_timer.h"

#include "absl/time/time.h"

namespace cassino::service {

DeadlineTimer::DeadlineTimer() : thread_([this] { Run(); }) {}

DeadlineTimer::~DeadlineTimer() { Stop(); }

void DeadlineTimer::Stop() {
  {
    absl::MutexLock lock(&mu_);
    if (stop_) return;
    stop_ = true;
    queue_ = {};
  }
  cv_.SignalAll();
  thread_.join();
}

void DeadlineTimer::Schedule(Clock::time_point when,
                             std::function<void()> callback) {
  bool earliest;
  {
    absl::MutexLock lock(&mu_);
    if (stop_) return;
    earliest = queue_.empty() || when < queue_.top().when;
    queue_.push(Entry{when, next_order_++, std::move(callback)});
  }
  if (earliest) cv_.SignalAll();
}

void DeadlineTimer::Run() {
  mu_.Lock();
  while (!stop_) {
    if (queue_.empty()) {
      cv_.Wait(&mu_);
      continue;
    }
    const Clock::time_point when = queue_.top().when;
    if (Clock::now() < when) {
      cv_.WaitWithTimeout(&mu_, absl::FromChrono(when - Clock::now()));
      continue;
    }
    std::function<void()> callback = std::move(queue_.top().callback);
    queue_.pop();
    mu_.Unlock();
    callback();
    mu_.Lock();
  }
  mu_.Unlock();
}

}  // namespace cassino::service
