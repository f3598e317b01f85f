#include "referee/deadline_timer.h"

#include "absl/time/time.h"

namespace cassino::service {

DeadlineTimer::DeadlineTimer() : thread_([this] { Run(); }) {}

DeadlineTimer::DeadlineTimer(ManualTime) : manual_(true) {}

DeadlineTimer::~DeadlineTimer() { Stop(); }

DeadlineTimer::Clock::time_point DeadlineTimer::Now() const {
  if (!manual_) return Clock::now();
  absl::MutexLock lock(&mu_);
  return manual_now_;
}

void DeadlineTimer::Advance(Clock::duration by) {
  Clock::time_point until;
  {
    absl::MutexLock lock(&mu_);
    if (!manual_) return;
    until = manual_now_ + by;
  }
  // Each callback due by `until` runs in order, with the time at its due
  // time (a callback may schedule another that is due too).
  while (true) {
    std::function<void()> callback;
    {
      absl::MutexLock lock(&mu_);
      if (stop_ || queue_.empty() || queue_.top().when > until) {
        if (until > manual_now_) manual_now_ = until;
        return;
      }
      if (queue_.top().when > manual_now_) manual_now_ = queue_.top().when;
      callback = std::move(queue_.top().callback);
      queue_.pop();
    }
    callback();
  }
}

void DeadlineTimer::Stop() {
  {
    absl::MutexLock lock(&mu_);
    if (stop_) return;
    stop_ = true;
    queue_ = {};
  }
  cv_.SignalAll();
  if (thread_.joinable()) thread_.join();
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
