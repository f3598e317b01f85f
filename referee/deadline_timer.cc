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
      if (stop_ || queue_.empty() || queue_.begin()->first.when > until) {
        if (until > manual_now_) manual_now_ = until;
        return;
      }
      const auto first = queue_.begin();
      if (first->first.when > manual_now_) manual_now_ = first->first.when;
      callback = std::move(first->second);
      queue_.erase(first);
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

DeadlineTimer::Id DeadlineTimer::Schedule(Clock::time_point when,
                                          std::function<void()> callback) {
  bool earliest;
  Id id{when, 0};
  {
    absl::MutexLock lock(&mu_);
    if (stop_) return id;
    earliest = queue_.empty() || when < queue_.begin()->first.when;
    id.order = next_order_++;
    queue_.emplace(id, std::move(callback));
  }
  if (earliest) cv_.SignalAll();
  return id;
}

bool DeadlineTimer::Cancel(const Id& id) {
  // (The earliest callback's removal needs no wake-up: the thread finds the
  // next one when it wakes for the removed one's time.)
  absl::MutexLock lock(&mu_);
  return queue_.erase(id) > 0;
}

size_t DeadlineTimer::pending() const {
  absl::MutexLock lock(&mu_);
  return queue_.size();
}

void DeadlineTimer::Run() {
  mu_.Lock();
  while (!stop_) {
    if (queue_.empty()) {
      cv_.Wait(&mu_);
      continue;
    }
    const auto first = queue_.begin();
    const Clock::time_point when = first->first.when;
    if (Clock::now() < when) {
      cv_.WaitWithTimeout(&mu_, absl::FromChrono(when - Clock::now()));
      continue;
    }
    std::function<void()> callback = std::move(first->second);
    queue_.erase(first);
    mu_.Unlock();
    callback();
    mu_.Lock();
  }
  mu_.Unlock();
}

}  // namespace cassino::service
