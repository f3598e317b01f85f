// The referee's time: one thread that runs callbacks at deadlines (move
// clocks, evictions, retries), and the time they are measured in.
//
// Schedule() returns at once; the callback runs on the timer thread at or
// shortly after `when`, unless it is cancelled or the timer is destroyed
// first. Callbacks run without the timer's lock held, so Schedule() and
// Cancel() may be called under any other lock; callbacks must not block.
// They typically hand the work to the game they belong to, which checks
// that the deadline is still the one in force.
//
// Bound: a game cancels its move clock's callback when the move is made, so
// the timer holds about one callback per open game, whatever the clocks'
// length and the rate of moves (a move clock of an hour at 20,000 moves a
// second would otherwise hold 72 million stale callbacks).
//
// Everything that measures the referee's time asks Now(). A timer built
// with kManualTime has no thread: its time stands still until Advance(),
// which runs the callbacks that fall due on the caller's thread, so tests
// control the clock (as LevelDB's Env lets them) instead of sleeping.

#ifndef CASSINO_REFEREE_DEADLINE_TIMER_H_
#define CASSINO_REFEREE_DEADLINE_TIMER_H_

#include <chrono>
#include <functional>
#include <thread>

#include "absl/base/thread_annotations.h"
#include "absl/container/btree_map.h"
#include "absl/synchronization/mutex.h"

namespace cassino::service {

class DeadlineTimer {
 public:
  using Clock = std::chrono::steady_clock;

  DeadlineTimer();
  enum ManualTime { kManualTime };
  explicit DeadlineTimer(ManualTime);
  // Stop()s.
  ~DeadlineTimer();
  DeadlineTimer(const DeadlineTimer&) = delete;
  DeadlineTimer& operator=(const DeadlineTimer&) = delete;

  // The steady clock's time, or the manual time.
  Clock::time_point Now() const ABSL_LOCKS_EXCLUDED(mu_);
  // A manual timer: moves its time on by `by`, running every callback due
  // meanwhile, in order, on this thread. Does nothing on a real timer.
  void Advance(Clock::duration by) ABSL_LOCKS_EXCLUDED(mu_);

  // A scheduled callback, for Cancel(): its due time and its place among
  // callbacks due at the same time (they run in the order scheduled).
  struct Id {
    Clock::time_point when;
    uint64_t order = 0;
    friend bool operator<(const Id& a, const Id& b) {
      return a.when != b.when ? a.when < b.when : a.order < b.order;
    }
  };

  // Does nothing once Stop() was called (and returns an Id that cancels
  // nothing).
  Id Schedule(Clock::time_point when, std::function<void()> callback)
      ABSL_LOCKS_EXCLUDED(mu_);
  // Drops the callback `id` if it has not started; whether it dropped it.
  bool Cancel(const Id& id) ABSL_LOCKS_EXCLUDED(mu_);
  // Callbacks scheduled and not yet run or cancelled.
  size_t pending() const ABSL_LOCKS_EXCLUDED(mu_);
  // Stops the thread and drops every pending callback; no callback runs
  // after Stop() returns (except one already running, which it waits for).
  void Stop() ABSL_LOCKS_EXCLUDED(mu_);

 private:
  void Run() ABSL_LOCKS_EXCLUDED(mu_);

  const bool manual_ = false;
  mutable absl::Mutex mu_;
  absl::CondVar cv_;
  Clock::time_point manual_now_ ABSL_GUARDED_BY(mu_){};
  // Due first, first.
  absl::btree_map<Id, std::function<void()>> queue_ ABSL_GUARDED_BY(mu_);
  uint64_t next_order_ ABSL_GUARDED_BY(mu_) = 0;
  bool stop_ ABSL_GUARDED_BY(mu_) = false;
  std::thread thread_;
};

}  // namespace cassino::service

#endif  // CASSINO_REFEREE_DEADLINE_TIMER_H_
