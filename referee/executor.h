// A few threads that run the referee's blocking work (database reads) off
// gRPC's callback threads and off every game's lock: a handler never
// blocks, it posts its read here and finishes its call from the task.
//
// Bounded: at most `max_queued` tasks wait; Post refuses more (the caller
// answers RESOURCE_EXHAUSTED), so no client can queue unbounded work.
// Stop() (and the destructor) runs every task already queued, then joins.

#ifndef CASSINO_REFEREE_EXECUTOR_H_
#define CASSINO_REFEREE_EXECUTOR_H_

#include <deque>
#include <functional>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"

namespace cassino::service {

class Executor {
 public:
  Executor(int threads, int max_queued);
  ~Executor();
  Executor(const Executor&) = delete;
  Executor& operator=(const Executor&) = delete;

  // Queues `task`; false (and `task` dropped) when `max_queued` tasks wait
  // already or the executor is stopping.
  bool Post(std::function<void()> task) ABSL_LOCKS_EXCLUDED(mu_);
  // Runs what is queued, then stops the threads. Idempotent.
  void Stop() ABSL_LOCKS_EXCLUDED(mu_);
  // Whether Stop() has been called: a refused Post is then the stop's,
  // not the bound's.
  bool stopping() const ABSL_LOCKS_EXCLUDED(mu_);

 private:
  void Run() ABSL_LOCKS_EXCLUDED(mu_);
  bool Ready() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const size_t max_queued_;
  mutable absl::Mutex mu_;
  std::deque<std::function<void()>> queue_ ABSL_GUARDED_BY(mu_);
  bool stop_ ABSL_GUARDED_BY(mu_) = false;
  std::vector<std::thread> threads_;
};

}  // namespace cassino::service

#endif  // CASSINO_REFEREE_EXECUTOR_H_
