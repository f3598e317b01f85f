#include "bench/load_client.h"

#include <unistd.h>

#include <chrono>
#include <thread>

#include "gtest/gtest.h"

namespace cassino::bench {
namespace {

// The count covers every thread, not only the main one that
// /proc/<pid>/status describes: a second thread that sleeps 20 times makes
// at least 20 voluntary switches, while the main thread only waits for it.
TEST(ProcContextSwitchesTest, CountsTheSwitchesOfEveryThread) {
  const int64_t before = ProcContextSwitches(getpid());
  ASSERT_GE(before, 0);
  const int64_t main_before =
      ProcStatusField("self", "voluntary_ctxt_switches") +
      ProcStatusField("self", "nonvoluntary_ctxt_switches");
  std::thread sleeper([before] {
    for (int i = 0; i < 20; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    // Still running here, so its switches are counted.
    EXPECT_GE(ProcContextSwitches(getpid()) - before, 20);
  });
  sleeper.join();
  const int64_t main_after =
      ProcStatusField("self", "voluntary_ctxt_switches") +
      ProcStatusField("self", "nonvoluntary_ctxt_switches");
  // The main thread's own count rose by far less than the sleeper's 20.
  EXPECT_LT(main_after - main_before, 20);
}

TEST(ProcContextSwitchesTest, AProcessThatDoesNotExistIsMinusOne) {
  // Above the kernel's pid_max (at most 2^22), so never a live process.
  EXPECT_EQ(ProcContextSwitches(1 << 23), -1);
}

}  // namespace
}  // namespace cassino::bench
