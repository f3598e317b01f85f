// DeadlineTimer on manual time: callbacks run in due order, a cancelled one
// never runs, and the timer holds only what is pending.

#include "referee/deadline_timer.h"

#include <chrono>
#include <string>

#include "gtest/gtest.h"

namespace cassino::service {
namespace {

using std::chrono::milliseconds;

TEST(DeadlineTimerTest, RunsDueCallbacksInOrderAndNeverACancelledOne) {
  DeadlineTimer timer(DeadlineTimer::kManualTime);
  const auto start = timer.Now();
  std::string ran;
  const DeadlineTimer::Id a =
      timer.Schedule(start + milliseconds(10), [&] { ran += "a"; });
  timer.Schedule(start + milliseconds(20), [&] { ran += "b"; });
  const DeadlineTimer::Id c =
      timer.Schedule(start + milliseconds(20), [&] { ran += "c"; });
  timer.Schedule(start + milliseconds(5), [&] { ran += "d"; });
  EXPECT_EQ(timer.pending(), 4);

  EXPECT_TRUE(timer.Cancel(a));
  EXPECT_FALSE(timer.Cancel(a));  // already dropped
  EXPECT_EQ(timer.pending(), 3);

  timer.Advance(milliseconds(20));
  EXPECT_EQ(ran, "dbc");  // due order; equal times in the order scheduled
  EXPECT_EQ(timer.pending(), 0);
  EXPECT_FALSE(timer.Cancel(c));  // it ran
}

TEST(DeadlineTimerTest, NothingIsScheduledOrRunAfterStop) {
  DeadlineTimer timer(DeadlineTimer::kManualTime);
  bool ran = false;
  timer.Schedule(timer.Now() + milliseconds(1), [&] { ran = true; });
  timer.Stop();
  EXPECT_EQ(timer.pending(), 0);
  const DeadlineTimer::Id late =
      timer.Schedule(timer.Now(), [&] { ran = true; });
  EXPECT_EQ(timer.pending(), 0);
  EXPECT_FALSE(timer.Cancel(late));
  timer.Advance(milliseconds(5));
  EXPECT_FALSE(ran);
}

}  // namespace
}  // namespace cassino::service
