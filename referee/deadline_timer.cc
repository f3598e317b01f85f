#include "referee/deadline_timer.h"

namespace cassino::service {

DeadlineTimer::DeadlineTimer() : thread_([this] { Run(); }) {}

DeadlineTimer::~DeadlineTimer() { Stop(); }

void DeadlineTimer::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stop_) return;
    stop_ = true;
    queue_ = {};
  }
  cv_.notify_all();
  thread_.join();
}

void DeadlineTimer::Schedule(Clock::time_point when,
                             std::function<void()> callback) {
  bool earliest;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stop_) return;
    earliest = queue_.empty() || when < queue_.top().when;
    queue_.push(Entry{when, next_order_++, std::move(callback)});
  }
  if (earliest) cv_.notify_all();
}

void DeadlineTimer::Run() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!stop_) {
    if (queue_.empty()) {
      cv_.wait(lock);
      continue;
    }
    const Clock::time_point when = queue_.top().when;
    if (Clock::now() < when) {
      cv_.wait_until(lock, when);
      continue;
    }
    std::function<void()> callback = std::move(queue_.top().callback);
    queue_.pop();
    lock.unlock();
    callback();
    lock.lock();
  }
}

}  // namespace cassino::service
