#include "referee/executor.h"

#include <pthread.h>

#include <utility>

namespace cassino::service {

Executor::Executor(int threads, int max_queued)
    : max_queued_(static_cast<size_t>(max_queued)) {
  for (int i = 0; i < threads; ++i) {
    threads_.emplace_back([this] {
      pthread_setname_np(pthread_self(), "referee-reads");
      Run();
    });
  }
}

Executor::~Executor() { Stop(); }

bool Executor::Post(std::function<void()> task) {
  absl::MutexLock lock(&mu_);
  if (stop_ || queue_.size() >= max_queued_) return false;
  queue_.push_back(std::move(task));
  return true;
}

void Executor::Stop() {
  {
    absl::MutexLock lock(&mu_);
    if (stop_) return;
    stop_ = true;
  }
  for (std::thread& t : threads_) t.join();
}

bool Executor::stopping() const {
  absl::MutexLock lock(&mu_);
  return stop_;
}

bool Executor::Ready() const { return stop_ || !queue_.empty(); }

void Executor::Run() {
  while (true) {
    std::function<void()> task;
    {
      absl::MutexLock lock(&mu_);
      mu_.Await(absl::Condition(this, &Executor::Ready));
      if (queue_.empty()) return;  // stopping and drained
      task = std::move(queue_.front());
      queue_.pop_front();
    }
    task();
  }
}

}  // namespace cassino::service
