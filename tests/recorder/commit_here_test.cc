// Recorder::CommitHere: while the recorder is quiet (one write at a time),
// the thread that queued a write commits it as its scope closes and runs
// its callback there; otherwise the writer thread does. Either way nothing
// is lost, one transaction runs at a time and callbacks keep their order.

#include <atomic>
#include <filesystem>
#include <functional>
#include <future>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "gtest/gtest.h"
#include "recorder/recorder.h"
#include "tests/recorder/test_game.h"
#include "tests/temp_dir.h"

namespace cassino::recorder {
namespace {

using ::cassino::recorder::testing::MakeHeader;

class CommitHereTest : public ::testing::Test {
 protected:
  // A recorder on a fresh database (tests/temp_dir.h) with these options.
  static std::unique_ptr<Recorder> Open(
      int commit_here_after, Durability durability = Durability::kNormal) {
    RecorderOptions options;
    options.commit_here_after = commit_here_after;
    options.durability = durability;
    absl::StatusOr<std::unique_ptr<Recorder>> r = Recorder::Open(
        (::cassino::testing::TempDir() / "games.db").string(), options);
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() ? *std::move(r) : nullptr;
  }

  // Checks that `game_id` holds events 0..count-1, the payloads {"i":k}
  // from seq 1 on, in order and chained.
  static void ExpectChain(Recorder& rec, const std::string& game_id,
                          int count) {
    absl::StatusOr<GameRecord> r = rec.Load(game_id);
    ASSERT_TRUE(r.ok()) << r.status();
    ASSERT_EQ(r->events.size(), static_cast<size_t>(count)) << game_id;
    Digest previous = *ParseSeed(r->header.commitment);
    for (size_t i = 0; i < r->events.size(); ++i) {
      const Event& e = r->events[i];
      EXPECT_EQ(e.seq, static_cast<int64_t>(i));
      if (i > 0) {
        EXPECT_EQ(e.payload, absl::StrCat(R"({"i":)", i, "}"));
      }
      previous = ChainHash(previous, e.kind, e.payload);
      EXPECT_EQ(e.hash, ToHex(previous)) << game_id << " seq " << i;
    }
  }
};

// What one scoped Append saw: where its callback ran, and whether it had
// run by the time the scope closed.
struct Outcome {
  std::thread::id callback_thread;
  bool done_when_scope_closed = false;
  absl::Status status;
};

// Appends event {"i":i} to `game_id` inside a CommitHere scope, and waits
// for its callback and for the committer to hand on (whoever commits next
// finds the recorder idle, as a bot's next move does after a round trip).
Outcome ScopedAppend(Recorder& rec, const std::string& game_id, int i) {
  std::promise<void> called;
  Outcome out;
  {
    Recorder::CommitHere here(rec);
    rec.Append(game_id, EventKind::kReject, i, absl::StrCat(R"({"i":)", i, "}"),
               [&](absl::Status s) {
                 out.callback_thread = std::this_thread::get_id();
                 out.status = std::move(s);
                 called.set_value();
               });
  }
  std::future<void> f = called.get_future();
  out.done_when_scope_closed =
      f.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
  f.wait();
  rec.WaitIdle();
  return out;
}

TEST_F(CommitHereTest, CommitsOnTheCallersThreadOnceQuiet) {
  std::unique_ptr<Recorder> rec = Open(/*commit_here_after=*/3);
  ASSERT_NE(rec, nullptr);
  // A transaction of one write: the first of three in a row.
  ASSERT_TRUE(rec->CreateGameSync(MakeHeader("g")).ok());
  rec->WaitIdle();
  const std::thread::id me = std::this_thread::get_id();
  for (int i = 1; i <= 10; ++i) {
    const Outcome out = ScopedAppend(*rec, "g", i);
    ASSERT_TRUE(out.status.ok()) << out.status;
    // The second and third single-write transactions are the writer's;
    // from then on the recorder is quiet.
    const bool here = i >= 3;
    EXPECT_EQ(out.callback_thread == me, here) << i;
    // (A writer's commit may or may not beat the scope's close.)
    if (here) {
      EXPECT_TRUE(out.done_when_scope_closed) << i;
    }
  }
  const Recorder::Stats stats = rec->stats();
  EXPECT_EQ(stats.transactions, 11);
  EXPECT_EQ(stats.writes, 11);
  EXPECT_EQ(stats.caller_transactions, 8);
  ExpectChain(*rec, "g", 11);

  // Outside a scope, the writer thread commits even a quiet recorder's
  // writes (a timer's, say).
  std::promise<std::thread::id> where;
  rec->Append("g", EventKind::kReject, 11, R"({"i":11})", [&](absl::Status s) {
    EXPECT_TRUE(s.ok()) << s;
    where.set_value(std::this_thread::get_id());
  });
  EXPECT_NE(where.get_future().get(), me);
  EXPECT_EQ(rec->stats().caller_transactions, 8);
  ExpectChain(*rec, "g", 12);
}

// Writes queued while this thread commits, one at a time (here each
// callback queues the next event, as the other seat's answer to a turn
// would come), are committed by this thread too, for up to eight
// transactions in a row; then the writer thread takes over.
TEST_F(CommitHereTest, WritesQueuedMeanwhileAreCommittedHereUpToEight) {
  std::unique_ptr<Recorder> rec = Open(/*commit_here_after=*/1);
  ASSERT_NE(rec, nullptr);
  ASSERT_TRUE(rec->CreateGameSync(MakeHeader("g")).ok());  // quiet now
  rec->WaitIdle();
  constexpr int kChain = 20;
  std::vector<std::thread::id> where(kChain + 1);
  std::promise<void> last;
  std::function<void(int)> append = [&](int i) {
    rec->Append("g", EventKind::kReject, i, absl::StrCat(R"({"i":)", i, "}"),
                [&, i](absl::Status s) {
                  EXPECT_TRUE(s.ok()) << s;
                  where[i] = std::this_thread::get_id();
                  if (i < kChain) {
                    append(i + 1);  // outside any scope
                  } else {
                    last.set_value();
                  }
                });
  };
  {
    Recorder::CommitHere here(*rec);
    append(1);
  }
  last.get_future().wait();
  const std::thread::id me = std::this_thread::get_id();
  for (int i = 1; i <= kChain; ++i) {
    EXPECT_EQ(where[i] == me, i <= 8) << i;
  }
  rec->WaitIdle();
  EXPECT_EQ(rec->stats().caller_transactions, 8);
  ExpectChain(*rec, "g", kChain + 1);
}

TEST_F(CommitHereTest, NeverInFullDurabilityOrWhenSwitchedOff) {
  for (const bool full : {true, false}) {
    SCOPED_TRACE(full ? "full durability" : "commit_here_after 0");
    std::unique_ptr<Recorder> rec =
        Open(/*commit_here_after=*/full ? 1 : 0,
             full ? Durability::kFull : Durability::kNormal);
    ASSERT_NE(rec, nullptr);
    const std::string game = full ? "full" : "off";
    ASSERT_TRUE(rec->CreateGameSync(MakeHeader(game)).ok());
    for (int i = 1; i <= 5; ++i) {
      const Outcome out = ScopedAppend(*rec, game, i);
      ASSERT_TRUE(out.status.ok()) << out.status;
      EXPECT_NE(out.callback_thread, std::this_thread::get_id()) << i;
    }
    EXPECT_EQ(rec->stats().caller_transactions, 0);
    ExpectChain(*rec, game, 6);
    rec.reset();
  }
}

// One game alone, then eight at once, each thread a bot that waits for each
// move's callback (as the referee's Play streams do), then alone again: the
// recorder goes from quiet to busy and back, and every write lands once,
// in order, with its callback run once, in order.
TEST_F(CommitHereTest, QuietAndBusyInTurnLoseNothingAndKeepOrder) {
  std::unique_ptr<Recorder> rec = Open(/*commit_here_after=*/4);
  ASSERT_NE(rec, nullptr);
  constexpr int kThreads = 8;
  constexpr int kMoves = 150;
  for (int t = 0; t < kThreads; ++t) {
    ASSERT_TRUE(rec->CreateGameSync(MakeHeader(absl::StrCat("b", t))).ok());
  }
  std::vector<int> next(kThreads, 1);  // each game's next i
  auto bot = [&](int t, int moves) {
    const std::string game = absl::StrCat("b", t);
    for (int m = 0; m < moves; ++m) {
      const Outcome out = ScopedAppend(*rec, game, next[t]++);
      ASSERT_TRUE(out.status.ok()) << out.status;
    }
  };
  bot(0, 20);  // alone: quiet after four single-write transactions
  const int64_t alone = rec->stats().caller_transactions;
  EXPECT_GE(alone, 20 - 4);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) threads.emplace_back(bot, t, kMoves);
  for (std::thread& t : threads) t.join();
  bot(1, 20);  // alone again
  EXPECT_GT(rec->stats().caller_transactions, alone);

  // A callback that runs twice, or out of order, would have shown above as
  // a promise set twice (an exception) or a gap below.
  const Recorder::Stats stats = rec->stats();
  EXPECT_EQ(stats.writes, kThreads + 20 + kThreads * kMoves + 20);
  for (int t = 0; t < kThreads; ++t) {
    ExpectChain(*rec, absl::StrCat("b", t), next[t]);
  }
}

// Callbacks of one game, queued by threads that do not wait, run in the
// order queued whichever thread commits them.
TEST_F(CommitHereTest, CallbacksKeepSubmissionOrderAcrossCommitters) {
  std::unique_ptr<Recorder> rec = Open(/*commit_here_after=*/2);
  ASSERT_NE(rec, nullptr);
  ASSERT_TRUE(rec->CreateGameSync(MakeHeader("o")).ok());
  absl::Mutex mu;
  std::vector<int> order;  // guarded by mu
  absl::Mutex submit_mu;   // one submitter at a time, so `i` is queue order
  int next = 1;            // guarded by submit_mu
  constexpr int kThreads = 4;
  constexpr int kEach = 200;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      for (int k = 0; k < kEach; ++k) {
        Recorder::CommitHere here(*rec);
        absl::MutexLock lock(&submit_mu);
        const int i = next++;
        rec->Append("o", EventKind::kReject, i,
                    absl::StrCat(R"({"i":)", i, "}"), [&, i](absl::Status s) {
                      EXPECT_TRUE(s.ok()) << s;
                      absl::MutexLock lock(&mu);
                      order.push_back(i);
                    });
        // (The scope closes after submit_mu is released: the commit, if
        // this thread's, runs holding no lock a callback takes.)
      }
    });
  }
  for (std::thread& t : threads) t.join();
  ASSERT_TRUE(rec->CreateGameSync(MakeHeader("last")).ok());  // drains
  absl::MutexLock lock(&mu);
  ASSERT_EQ(order.size(), static_cast<size_t>(kThreads * kEach));
  for (size_t k = 0; k < order.size(); ++k) {
    ASSERT_EQ(order[k], static_cast<int>(k) + 1);
  }
  ExpectChain(*rec, "o", kThreads * kEach + 1);
}

}  // namespace
}  // namespace cassino::recorder
