#include "recorder/recorder.h"

#include <sqlite3.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <filesystem>
#include <future>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "recorder/checkpointer.h"
#include "recorder/migrations.h"
#include "recorder/tally.h"
#include "tests/recorder/sql_util.h"
#include "tests/recorder/test_game.h"

namespace cassino::recorder {
namespace {

using ::cassino::recorder::testing::MakeHeader;
using ::cassino::recorder::testing::MakeRecord;
using ::cassino::recorder::testing::PendingEvent;
using ::cassino::recorder::testing::PlayEvents;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using Json = nlohmann::json;

// A ListFilter with the fields `set` sets.
template <typename F>
ListFilter Filter(F set) {
  ListFilter filter;
  set(filter);
  return filter;
}

class RecorderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           absl::StrCat(
               "recorder_test_", getpid(), "_",
               ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    path_ = (dir_ / "games.db").string();
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::unique_ptr<Recorder> OpenOrDie(Durability d = Durability::kNormal) {
    absl::StatusOr<std::unique_ptr<Recorder>> r = Recorder::Open(path_, d);
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() ? *std::move(r) : nullptr;
  }
  std::unique_ptr<Recorder> OpenOrDie(const RecorderOptions& options) {
    absl::StatusOr<std::unique_ptr<Recorder>> r =
        Recorder::Open(path_, options);
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() ? *std::move(r) : nullptr;
  }

  // Runs `sql` on the database file directly, as another program (or an
  // older referee) would. Call through ASSERT_NO_FATAL_FAILURE.
  void ExecSql(const std::string& sql) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path_.c_str(), &db), SQLITE_OK);
    char* error = nullptr;
    const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error);
    const std::string message = error != nullptr ? error : "";
    sqlite3_free(error);
    sqlite3_close(db);
    ASSERT_EQ(rc, SQLITE_OK) << sql << ": " << message;
  }

  // Runs a queued write to its end: `enqueue` queues it with the callback
  // it is given.
  template <typename Enqueue>
  static absl::Status write(Enqueue&& enqueue) {
    std::promise<absl::Status> done;
    enqueue([&](absl::Status s) { done.set_value(s); });
    return done.get_future().get();
  }

  // The integer the query `sql` gives on the test's database.
  int64_t CountOf(const std::string& sql) {
    return recorder::testing::QueryInt(path_, sql);
  }

  // Writes a game as the referee would: create, then every event.
  static void WriteGame(Recorder& rec, const GameHeader& h,
                        const std::vector<PendingEvent>& events) {
    ASSERT_TRUE(rec.CreateGameSync(h).ok());
    for (const PendingEvent& e : events) {
      ASSERT_TRUE(rec.AppendSync(h.game_id, e.kind, e.at_us, e.payload).ok());
    }
  }

  std::filesystem::path dir_;
  std::string path_;
};

TEST(DurabilityTest, Parse) {
  EXPECT_EQ(*ParseDurability("normal"), Durability::kNormal);
  EXPECT_EQ(*ParseDurability("FULL"), Durability::kFull);
  EXPECT_FALSE(ParseDurability("fast").ok());
}

TEST_F(RecorderTest, InMemoryRefused) {
  EXPECT_FALSE(Recorder::Open(":memory:", Durability::kNormal).ok());
}

TEST_F(RecorderTest, CreateAppendLoadRoundTripWithHashChain) {
  auto rec = OpenOrDie();
  GameHeader h = MakeHeader("g1");
  std::vector<PendingEvent> events = PlayEvents(h);
  WriteGame(*rec, h, events);

  absl::StatusOr<GameRecord> loaded = rec->Load("g1");
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ(loaded->header, h);  // seed and token hashes included
  EXPECT_EQ(loaded->status, GameStatus::kFinished);
  // Exactly what an independent writer of the chain computes.
  GameRecord expected = MakeRecord(h, events);
  ASSERT_EQ(loaded->events.size(), events.size() + 1);
  EXPECT_EQ(loaded->events, expected.events);

  // Recompute the chain from the stored bytes, as docs/record_format.md says.
  Digest prev = *ParseSeed(h.commitment);
  for (size_t i = 0; i < loaded->events.size(); ++i) {
    const Event& e = loaded->events[i];
    EXPECT_EQ(e.seq, static_cast<int64_t>(i));
    prev = ChainHash(prev, e.kind, e.payload);
    EXPECT_EQ(e.hash, ToHex(prev)) << i;
  }
  EXPECT_EQ(loaded->events[0].payload, CreatePayload(h));

  absl::StatusOr<ReplayedGame> replayed = Replay(*loaded);
  ASSERT_TRUE(replayed.ok()) << replayed.status();
  EXPECT_TRUE(replayed->game.over());

  EXPECT_EQ(rec->Load("nope").status().code(), absl::StatusCode::kNotFound);
}

// When a game ends its event rows become one event pack (schema 5): here,
// as the recorder is quiet (one write a transaction), in a transaction of
// the writer thread's own once the end has committed. Nothing changes for
// readers but the storage.
TEST_F(RecorderTest, EndedGamesArePackedAndReadTheSame) {
  auto rec = OpenOrDie();
  GameHeader h = MakeHeader("g1");
  std::vector<PendingEvent> events = PlayEvents(h);
  ASSERT_TRUE(rec->CreateGameSync(h).ok());
  for (size_t i = 0; i + 1 < events.size(); ++i) {
    ASSERT_TRUE(rec->AppendSync("g1", events[i].kind, events[i].at_us,
                                events[i].payload)
                    .ok());
  }
  const int64_t count = static_cast<int64_t>(events.size()) + 1;
  // Running: every acknowledged event is a row.
  EXPECT_EQ(CountOf("SELECT count(*) FROM events"), count - 1);
  EXPECT_EQ(CountOf("SELECT count(*) FROM event_packs"), 0);
  const PendingEvent& last = events.back();
  ASSERT_EQ(last.kind, EventKind::kEnd);
  ASSERT_TRUE(rec->AppendSync("g1", last.kind, last.at_us, last.payload).ok());
  // Ended from its acknowledgement on, packed or not yet: an ended game
  // takes no more events (rows would fork its record).
  absl::Status more = rec->AppendSync("g1", EventKind::kAbort, last.at_us + 1,
                                      AbortPayload("x"));
  EXPECT_EQ(more.code(), absl::StatusCode::kFailedPrecondition) << more;
  EXPECT_EQ(CountOf("SELECT count(*) FROM game_tallies WHERE game_id = 'g1'"),
            1);
  rec->WaitIdle();
  EXPECT_EQ(rec->stats().packed_games, 1);
  EXPECT_EQ(CountOf("SELECT count(*) FROM events"), 0);
  EXPECT_EQ(CountOf("SELECT events FROM event_packs WHERE game_id = 'g1'"),
            count);
  absl::StatusOr<GameRecord> loaded = rec->Load("g1");
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ(loaded->events, MakeRecord(h, events).events);

  more = rec->AppendSync("g1", EventKind::kAbort, last.at_us + 1,
                         AbortPayload("x"));
  EXPECT_EQ(more.code(), absl::StatusCode::kFailedPrecondition) << more;
  rec.reset();
  rec = OpenOrDie();  // and none after a restart (the chain is in the pack)
  more = rec->AppendSync("g1", EventKind::kAbort, last.at_us + 1,
                         AbortPayload("x"));
  EXPECT_EQ(more.code(), absl::StatusCode::kFailedPrecondition) << more;
  EXPECT_THAT(more.message(), HasSubstr("has ended"));
  EXPECT_EQ(rec->Load("g1")->events, loaded->events);

  // A pack beside rows is two versions of one record: refused, not merged.
  rec.reset();
  ASSERT_NO_FATAL_FAILURE(
      ExecSql("INSERT INTO events VALUES ('g1', 0, 'create', 1, '{}', '')"));
  rec = OpenOrDie();
  EXPECT_EQ(rec->Load("g1").status().code(), absl::StatusCode::kDataLoss);
}

// A recorder that is not quiet packs an ended game in the transaction of
// its end: one transaction writes each page once.
TEST_F(RecorderTest, EndedGamesArePackedWithTheirEndWhenNotQuiet) {
  RecorderOptions options;
  options.commit_here_after = 0;  // never quiet
  std::unique_ptr<Recorder> rec = OpenOrDie(options);
  ASSERT_NE(rec, nullptr);
  GameHeader h = MakeHeader("g1");
  const std::vector<PendingEvent> events = PlayEvents(h);
  WriteGame(*rec, h, events);
  // (No WaitIdle: the pack is in what the end's acknowledgement covers.)
  EXPECT_EQ(CountOf("SELECT count(*) FROM events"), 0);
  EXPECT_EQ(CountOf("SELECT events FROM event_packs WHERE game_id = 'g1'"),
            static_cast<int64_t>(events.size()) + 1);
  EXPECT_EQ(rec->stats().packed_games, 0);
  EXPECT_EQ(rec->Load("g1")->events, MakeRecord(h, events).events);
}

// A game whose end committed and whose pack did not (the referee stopped
// between the two transactions) keeps its rows: they are its whole record.
// It takes no more events, reads the same, and is not rewritten at open.
TEST_F(RecorderTest, AnEndedGameLeftInRowsIsComplete) {
  auto rec = OpenOrDie();
  GameHeader h = MakeHeader("g1");
  const std::vector<PendingEvent> events = PlayEvents(h);
  WriteGame(*rec, h, events);
  rec.reset();
  ASSERT_EQ(testing::UnpackToRows(path_, "g1"), "");
  const int64_t count = static_cast<int64_t>(events.size()) + 1;
  ASSERT_EQ(CountOf("SELECT count(*) FROM events"), count);

  rec = OpenOrDie();
  const absl::Status more =
      rec->AppendSync("g1", EventKind::kAbort, 1, AbortPayload("x"));
  EXPECT_EQ(more.code(), absl::StatusCode::kFailedPrecondition) << more;
  EXPECT_THAT(more.message(), HasSubstr("has ended"));
  absl::StatusOr<GameRecord> loaded = rec->Load("g1");
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ(loaded->events, MakeRecord(h, events).events);
  rec->WaitIdle();
  EXPECT_EQ(rec->stats().packed_games, 0);
  EXPECT_EQ(CountOf("SELECT count(*) FROM events"), count);
  EXPECT_EQ(CountOf("SELECT count(*) FROM event_packs"), 0);
}

TEST_F(RecorderTest, ExplicitDecksChainStartsFromZeros) {
  auto rec = OpenOrDie();
  GameHeader h = MakeHeader("x1", 2, /*explicit_decks=*/true);
  WriteGame(*rec, h, PlayEvents(h, 5));
  absl::StatusOr<GameRecord> loaded = rec->Load("x1");
  ASSERT_TRUE(loaded.ok());
  EXPECT_EQ(loaded->header.explicit_decks, h.explicit_decks);
  EXPECT_EQ(loaded->events[0].hash,
            ToHex(ChainHash(Digest{}, EventKind::kCreate, CreatePayload(h))));
  EXPECT_TRUE(Replay(*loaded).ok());
  EXPECT_EQ(loaded->status, GameStatus::kRunning);
}

TEST_F(RecorderTest, EndAndAbortUpdateTheSummary) {
  auto rec = OpenOrDie();
  GameHeader h1 = MakeHeader("g1");
  Game final_state = *Game::Create(*HeaderRules(h1), *HeaderDecks(h1));
  WriteGame(*rec, h1, PlayEvents(h1, -1, &final_state));
  GameHeader h2 = MakeHeader("g2");
  h2.created_us += 10;
  WriteGame(*rec, h2, PlayEvents(h2, 4));
  ASSERT_TRUE(rec->AppendSync("g2", EventKind::kAbort, h2.created_us + 99,
                              AbortPayload("operator"))
                  .ok());
  GameHeader h3 = MakeHeader("g3");
  h3.created_us += 20;
  WriteGame(*rec, h3, PlayEvents(h3, 4));

  absl::StatusOr<std::vector<GameSummary>> all = rec->List({});
  ASSERT_TRUE(all.ok()) << all.status();
  ASSERT_EQ(all->size(), 3u);
  const GameSummary& g1 = (*all)[0];
  EXPECT_EQ(g1.game_id, "g1");
  EXPECT_EQ(g1.status, GameStatus::kFinished);
  EXPECT_EQ(g1.winner, final_state.result()->winner);
  EXPECT_EQ(g1.end_reason, GameEndReasonName(final_state.result()->reason));
  EXPECT_EQ(g1.totals, final_state.totals());
  EXPECT_GT(g1.finished_us, g1.created_us);
  EXPECT_THAT(g1.bots, ElementsAre("alpha", "beta"));
  EXPECT_EQ(g1.label, "test-match");
  EXPECT_EQ(g1.rules, h1.rules);

  const GameSummary& g2 = (*all)[1];
  EXPECT_EQ(g2.status, GameStatus::kAborted);
  EXPECT_EQ(g2.winner, -1);
  EXPECT_EQ(g2.end_reason, "aborted");
  EXPECT_EQ(g2.finished_us, h2.created_us + 99);

  const GameSummary& g3 = (*all)[2];
  EXPECT_EQ(g3.status, GameStatus::kRunning);
  EXPECT_EQ(g3.winner, -1);
  EXPECT_TRUE(g3.totals.empty());
  EXPECT_EQ(g3.finished_us, 0);

  absl::StatusOr<std::vector<std::string>> running = rec->Unfinished();
  ASSERT_TRUE(running.ok());
  EXPECT_THAT(*running, ElementsAre("g3"));
}

TEST_F(RecorderTest, ListFilters) {
  auto rec = OpenOrDie();
  for (int i = 0; i < 6; ++i) {
    GameHeader h = MakeHeader(absl::StrCat("g", i));
    h.created_us = 1000 + i;
    h.label = i % 2 == 0 ? "even" : "odd";
    h.seats[1].bot_name = absl::StrCat("bot", i % 3);
    ASSERT_TRUE(rec->CreateGameSync(h).ok());
    if (i < 2) {
      ASSERT_TRUE(
          rec->AppendSync(h.game_id, EventKind::kAbort, 2000, "{}").ok());
    }
  }
  auto ids = [&](const ListFilter& f) {
    std::vector<std::string> out;
    absl::StatusOr<std::vector<GameSummary>> list = rec->List(f);
    EXPECT_TRUE(list.ok()) << list.status();
    if (list.ok()) {
      for (const GameSummary& g : *list) out.push_back(g.game_id);
    }
    return out;
  };
  EXPECT_EQ(ids({}).size(), 6u);
  EXPECT_THAT(ids(Filter([](ListFilter& f) { f.label = "odd"; })),
              ElementsAre("g1", "g3", "g5"));
  EXPECT_THAT(ids(Filter([](ListFilter& f) { f.bot = "bot1"; })),
              ElementsAre("g1", "g4"));
  EXPECT_EQ(ids(Filter([](ListFilter& f) { f.bot = "alpha"; })).size(),
            6u);  // seat 0 of every game
  EXPECT_THAT(
      ids(Filter([](ListFilter& f) { f.status = GameStatus::kAborted; })),
      ElementsAre("g0", "g1"));
  EXPECT_THAT(ids(Filter([](ListFilter& f) {
                f.status = GameStatus::kRunning;
                f.label = "even";
              })),
              ElementsAre("g2", "g4"));
  EXPECT_THAT(ids(Filter([](ListFilter& f) {
                f.from_us = 1002;
                f.to_us = 1004;
              })),
              ElementsAre("g2", "g3"));
  EXPECT_THAT(ids(Filter([](ListFilter& f) { f.limit = 2; })),
              ElementsAre("g0", "g1"));
  EXPECT_THAT(ids(Filter([](ListFilter& f) {
                f.label = "even";
                f.bot = "bot2";
              })),
              ElementsAre("g2"));
  EXPECT_TRUE(ids(Filter([](ListFilter& f) { f.label = "none"; })).empty());
  EXPECT_THAT(*rec->Unfinished(), ElementsAre("g2", "g3", "g4", "g5"));
}

TEST_F(RecorderTest, FailedWritesFailAlone) {
  auto rec = OpenOrDie();
  ASSERT_TRUE(rec->CreateGameSync(MakeHeader("g1")).ok());

  // Queue a batch with a duplicate, an unknown game and a bad payload in the
  // middle of good writes; only the bad ones fail.
  std::mutex mu;
  std::condition_variable cv;
  std::vector<absl::Status> results(6);
  int done = 0;
  auto callback = [&](int i) {
    return [&, i](absl::Status s) {
      std::lock_guard<std::mutex> lock(mu);
      results[i] = s;
      ++done;
      cv.notify_all();
    };
  };
  rec->Append("g1", EventKind::kAbort, 1, R"({"detail":"x"})", callback(0));
  rec->CreateGame(MakeHeader("g1"), callback(1));
  rec->CreateGame(MakeHeader("g2"), callback(2));
  rec->Append("ghost", EventKind::kMove, 1, "{}", callback(3));
  rec->Append("g2", EventKind::kMove, 1, "not json", callback(4));
  rec->Append("g2", EventKind::kAbort, 1, "{}", callback(5));
  {
    std::unique_lock<std::mutex> lock(mu);
    cv.wait(lock, [&] { return done == 6; });
  }
  EXPECT_TRUE(results[0].ok()) << results[0];
  EXPECT_EQ(results[1].code(), absl::StatusCode::kAlreadyExists);
  EXPECT_TRUE(results[2].ok()) << results[2];
  EXPECT_EQ(results[3].code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(results[4].code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(results[5].ok()) << results[5];

  absl::StatusOr<GameRecord> g2 = rec->Load("g2");
  ASSERT_TRUE(g2.ok());
  ASSERT_EQ(g2->events.size(), 2u);  // the bad payload took no seq
  EXPECT_EQ(g2->events[1].seq, 1);
  EXPECT_EQ(g2->events[1].kind, EventKind::kAbort);
  EXPECT_EQ(rec->Load("g1")->events.size(), 2u);
  EXPECT_EQ(rec->CreateGameSync(MakeHeader("g1")).code(),
            absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(rec->AppendSync("g1", EventKind::kCreate, 1, "{}").code(),
            absl::StatusCode::kInvalidArgument);
}

TEST_F(RecorderTest, ConcurrentAppendsGroupCommitAndKeepOrder) {
  auto rec = OpenOrDie();
  constexpr int kThreads = 8;
  constexpr int kGamesPerThread = 4;
  constexpr int kEventsPerGame = 50;
  std::atomic<int> callbacks{0};
  std::atomic<int> failures{0};
  std::vector<std::atomic<int>> per_write(kThreads * kGamesPerThread *
                                          (kEventsPerGame + 1));
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int g = 0; g < kGamesPerThread; ++g) {
        const int game = t * kGamesPerThread + g;
        GameHeader h = MakeHeader(absl::StrCat("c", game));
        h.created_us = game;
        rec->CreateGame(h, [&, game](absl::Status s) {
          if (!s.ok()) ++failures;
          ++per_write[game * (kEventsPerGame + 1)];
          ++callbacks;
        });
      }
      // Interleave the games of this thread.
      for (int i = 0; i < kEventsPerGame; ++i) {
        for (int g = 0; g < kGamesPerThread; ++g) {
          const int game = t * kGamesPerThread + g;
          const int slot = game * (kEventsPerGame + 1) + i + 1;
          rec->Append(absl::StrCat("c", game), EventKind::kReject, i,
                      absl::StrCat(R"({"i":)", i, "}"),
                      [&, slot](absl::Status s) {
                        if (!s.ok()) ++failures;
                        ++per_write[slot];
                        ++callbacks;
                      });
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  // A synchronous write queued last completes after every earlier one.
  ASSERT_TRUE(rec->CreateGameSync(MakeHeader("last")).ok());
  const int total = kThreads * kGamesPerThread * (kEventsPerGame + 1);
  EXPECT_EQ(callbacks.load(), total);
  EXPECT_EQ(failures.load(), 0);
  for (const std::atomic<int>& n : per_write) EXPECT_EQ(n.load(), 1);

  Recorder::Stats stats = rec->stats();
  EXPECT_EQ(stats.writes, total + 1);
  EXPECT_LT(stats.transactions, stats.writes);

  for (int game = 0; game < kThreads * kGamesPerThread; ++game) {
    absl::StatusOr<GameRecord> r = rec->Load(absl::StrCat("c", game));
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r->events.size(), kEventsPerGame + 1u);
    Digest prev = *ParseSeed(r->header.commitment);
    for (size_t i = 0; i < r->events.size(); ++i) {
      const Event& e = r->events[i];
      EXPECT_EQ(e.seq, static_cast<int64_t>(i));
      if (i > 0) {
        EXPECT_EQ(e.payload, absl::StrCat(R"({"i":)", i - 1, "}"));
      }
      prev = ChainHash(prev, e.kind, e.payload);
      EXPECT_EQ(e.hash, ToHex(prev));
    }
  }
}

// Checkpoints run on a thread of their own (recorder/checkpointer.h), and
// the WAL stays bounded however many commits the writer makes.
TEST_F(RecorderTest, CheckpointsKeepTheWalBoundedOffTheWriter) {
  RecorderOptions options;
  options.checkpoint_pages = 16;
  std::unique_ptr<Recorder> opened = OpenOrDie(options);
  ASSERT_NE(opened, nullptr);
  Recorder& rec = *opened;
  // 40 games of 60 events each, one commit an event: thousands of WAL
  // pages in all.
  constexpr int kGames = 40;
  constexpr int kEvents = 60;
  for (int g = 0; g < kGames; ++g) {
    ASSERT_TRUE(rec.CreateGameSync(MakeHeader(absl::StrCat("w", g))).ok());
  }
  for (int i = 0; i < kEvents; ++i) {
    for (int g = 0; g < kGames; ++g) {
      ASSERT_TRUE(rec.AppendSync(absl::StrCat("w", g), EventKind::kReject, i,
                                 absl::StrCat(R"({"i":)", i, "}"))
                      .ok());
    }
  }
  const Recorder::Stats stats = rec.stats();
  EXPECT_EQ(stats.transactions, kGames * (kEvents + 1));
  EXPECT_GT(stats.background_checkpoints, 0);
  // Without checkpoints the WAL would hold at least a page a commit (2,440
  // pages); the writer checkpoints itself from 64.
  const uintmax_t page = 4096 + 24;  // a WAL frame: header and page
  EXPECT_LE(std::filesystem::file_size(path_ + "-wal"),
            2 * 16 * kCheckpointLimitFactor * page + 32);
  for (int g = 0; g < kGames; g += 13) {
    absl::StatusOr<GameRecord> r = rec.Load(absl::StrCat("w", g));
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(r->events.size(), kEvents + 1u);
  }
}

TEST(CheckpointerTest, RefusesBadBoundsAndHandsOverAtTheLimit) {
  EXPECT_EQ(
      Checkpointer::Start("unused.db", "NORMAL", 0, 10, 10).status().code(),
      absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(
      Checkpointer::Start("unused.db", "NORMAL", 20, 20, 10).status().code(),
      absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(
      Checkpointer::Start("unused.db", "NORMAL", 10, 5, 40).status().code(),
      absl::StatusCode::kInvalidArgument);
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() /
      absl::StrCat("checkpointer_test_", getpid());
  std::filesystem::create_directories(dir);
  {
    absl::StatusOr<std::unique_ptr<Checkpointer>> c =
        Checkpointer::Start((dir / "c.db").string(), "NORMAL", 10, 30, 40);
    ASSERT_TRUE(c.ok()) << c.status();
    EXPECT_EQ((*c)->Note(9, false), Checkpointer::NoteResult::kNothing);
    EXPECT_EQ((*c)->Note(10, false), Checkpointer::NoteResult::kWoken);
    EXPECT_EQ((*c)->Note(39, false), Checkpointer::NoteResult::kWoken);
    // While the writer is quiet, from 30 frames on.
    EXPECT_EQ((*c)->Note(29, true), Checkpointer::NoteResult::kNothing);
    EXPECT_EQ((*c)->Note(30, true), Checkpointer::NoteResult::kWoken);
    EXPECT_EQ((*c)->Note(39, true), Checkpointer::NoteResult::kWoken);
    EXPECT_EQ((*c)->Note(40, false), Checkpointer::NoteResult::kCheckpointHere);
    EXPECT_EQ((*c)->Note(40, true), Checkpointer::NoteResult::kCheckpointHere);
    EXPECT_EQ((*c)->failures(), 0);
  }  // (stops its thread)
  std::filesystem::remove_all(dir);
}

TEST_F(RecorderTest, ReadsRunConcurrentlyWithWrites) {
  auto rec = OpenOrDie();
  ASSERT_TRUE(rec->CreateGameSync(MakeHeader("g")).ok());
  std::atomic<bool> stop{false};
  std::atomic<int> bad{0};
  std::vector<std::thread> readers;
  for (int t = 0; t < 3; ++t) {
    readers.emplace_back([&] {
      while (!stop) {
        absl::StatusOr<GameRecord> r = rec->Load("g");
        if (!r.ok()) ++bad;
        // A snapshot is a prefix of the chain without gaps.
        for (size_t i = 0; r.ok() && i < r->events.size(); ++i) {
          if (r->events[i].seq != static_cast<int64_t>(i)) ++bad;
        }
        if (!rec->List({}).ok()) ++bad;
      }
    });
  }
  for (int i = 0; i < 200; ++i) {
    ASSERT_TRUE(rec->AppendSync("g", EventKind::kReject, i, "{}").ok());
  }
  stop = true;
  for (std::thread& t : readers) t.join();
  EXPECT_EQ(bad.load(), 0);
}

TEST_F(RecorderTest, ReopenKeepsEverythingAndContinuesTheChain) {
  GameHeader h = MakeHeader("g1");
  std::vector<PendingEvent> events = PlayEvents(h);
  {
    auto rec = OpenOrDie();
    std::vector<PendingEvent> first(events.begin(), events.begin() + 20);
    WriteGame(*rec, h, first);
    // Queue more without waiting: the destructor drains the queue.
    for (size_t i = 20; i < 30; ++i) {
      rec->Append("g1", events[i].kind, events[i].at_us, events[i].payload,
                  nullptr);
    }
  }
  {
    auto rec = OpenOrDie();
    EXPECT_THAT(*rec->Unfinished(), ElementsAre("g1"));
    absl::StatusOr<GameRecord> loaded = rec->Load("g1");
    ASSERT_TRUE(loaded.ok());
    ASSERT_EQ(loaded->events.size(), 31u);
    // The chain continues from the stored state after a restart.
    for (size_t i = 30; i < events.size(); ++i) {
      ASSERT_TRUE(rec->AppendSync("g1", events[i].kind, events[i].at_us,
                                  events[i].payload)
                      .ok());
    }
  }
  auto rec = OpenOrDie(Durability::kFull);
  absl::StatusOr<GameRecord> loaded = rec->Load("g1");
  ASSERT_TRUE(loaded.ok());
  EXPECT_EQ(loaded->events, MakeRecord(h, events).events);
  EXPECT_EQ(loaded->status, GameStatus::kFinished);
  EXPECT_TRUE(rec->Unfinished()->empty());
  EXPECT_TRUE(Replay(*loaded).ok());
}

TEST_F(RecorderTest, FullDurabilityWorks) {
  auto rec = OpenOrDie(Durability::kFull);
  GameHeader h = MakeHeader("f1");
  std::vector<PendingEvent> events = PlayEvents(h, 8);
  WriteGame(*rec, h, events);
  absl::StatusOr<GameRecord> loaded = rec->Load("f1");
  ASSERT_TRUE(loaded.ok());
  EXPECT_EQ(loaded->events, MakeRecord(h, events).events);
}

TEST_F(RecorderTest, NewerSchemaVersionRefused) {
  { auto rec = OpenOrDie(); }
  ASSERT_NO_FATAL_FAILURE(ExecSql("PRAGMA user_version=99"));
  absl::StatusOr<std::unique_ptr<Recorder>> rec =
      Recorder::Open(path_, Durability::kNormal);
  ASSERT_FALSE(rec.ok());
  EXPECT_THAT(rec.status().message(),
              HasSubstr(absl::StrCat(
                  "database schema version 99 is newer than this referee "
                  "supports (",
                  Migrations().back().version, "); upgrade the referee")));
}

TEST_F(RecorderTest, FreshDatabaseIsMigratedToTheLatestVersion) {
  { auto rec = OpenOrDie(); }
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path_.c_str(), &db), SQLITE_OK);
  sqlite3_stmt* stmt = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &stmt, nullptr),
            SQLITE_OK);
  ASSERT_EQ(sqlite3_step(stmt), SQLITE_ROW);
  EXPECT_EQ(sqlite3_column_int(stmt, 0), Migrations().back().version);
  EXPECT_GE(Migrations().back().version, 2);  // 002_game_tallies.sql
  sqlite3_finalize(stmt);
  ASSERT_EQ(sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &stmt, nullptr),
            SQLITE_OK);
  ASSERT_EQ(sqlite3_step(stmt), SQLITE_ROW);
  EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)),
               "wal");
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  // Opening again applies nothing and works.
  EXPECT_NE(OpenOrDie(), nullptr);
}

// The game_tallies row of `game_id` as text columns, or nullopt.
struct TallyRow {
  int64_t events, rounds, moves, bad_moves, bad_events;
  std::string points, conduct, move_ms;
};
std::optional<TallyRow> ReadTally(const std::string& path,
                                  const std::string& game_id) {
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  sqlite3_stmt* stmt = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(db,
                               "SELECT events, rounds, moves, bad_moves, "
                               "bad_events, points, conduct, move_ms FROM "
                               "game_tallies WHERE game_id = ?1",
                               -1, &stmt, nullptr),
            SQLITE_OK);
  sqlite3_bind_text(stmt, 1, game_id.c_str(), -1, SQLITE_TRANSIENT);
  std::optional<TallyRow> row;
  if (sqlite3_step(stmt) == SQLITE_ROW) {
    auto text = [&](int col) {
      return std::string(
          reinterpret_cast<const char*>(sqlite3_column_text(stmt, col)));
    };
    row = TallyRow{sqlite3_column_int64(stmt, 0),
                   sqlite3_column_int64(stmt, 1),
                   sqlite3_column_int64(stmt, 2),
                   sqlite3_column_int64(stmt, 3),
                   sqlite3_column_int64(stmt, 4),
                   text(5),
                   text(6),
                   text(7)};
  }
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return row;
}

void ExpectRowIs(const std::optional<TallyRow>& row, const GameTally& t) {
  ASSERT_TRUE(row.has_value());
  EXPECT_EQ(row->events, t.events);
  EXPECT_EQ(row->rounds, t.rounds);
  EXPECT_EQ(row->moves, t.moves);
  EXPECT_EQ(row->bad_moves, t.bad_moves);
  EXPECT_EQ(row->bad_events, t.bad_events);
  EXPECT_EQ(row->points, t.PointsText());
  EXPECT_EQ(row->conduct, t.ConductText());
  EXPECT_EQ(row->move_ms, t.MoveMsText());
}

TEST_F(RecorderTest, TallyIsWrittenWithTheEndEvent) {
  GameHeader h = MakeHeader("t1");
  Game final_state = *Game::Create(RuleSet::Standard(), *HeaderDecks(h));
  std::vector<PendingEvent> events = PlayEvents(h, -1, &final_state);
  ASSERT_EQ(events.back().kind, EventKind::kEnd);
  auto rec = OpenOrDie();
  ASSERT_TRUE(rec->CreateGameSync(h).ok());
  for (size_t i = 0; i + 1 < events.size(); ++i) {
    ASSERT_TRUE(rec->AppendSync("t1", events[i].kind, events[i].at_us,
                                events[i].payload)
                    .ok());
  }
  EXPECT_FALSE(ReadTally(path_, "t1").has_value());  // running: no tally
  ASSERT_TRUE(rec->AppendSync("t1", events.back().kind, events.back().at_us,
                              events.back().payload)
                  .ok());
  const std::optional<TallyRow> row = ReadTally(path_, "t1");
  ExpectRowIs(row, TallyOf(MakeRecord(h, events)));
  // Kept as the events were written, not read back at the end.
  EXPECT_EQ(rec->stats().tallies_read_back, 0);

  // The figures themselves, from what PlayEvents played: move i of the game
  // took 400 + 300 * (i % 5) ms, every third move had a reject first.
  int64_t moves = 0;
  std::array<int64_t, 2> rejects{}, seat_moves{};
  std::array<std::map<int64_t, int64_t>, 2> ms;
  for (const PendingEvent& e : events) {
    const Json p = Json::parse(e.payload);
    if (e.kind == EventKind::kMove) {
      ++seat_moves[p["seat"].get<int>()];
      ++ms[p["seat"].get<int>()][400 + 300 * (moves % 5)];
      ++moves;
    } else if (e.kind == EventKind::kReject) {
      ++rejects[p["seat"].get<int>()];
    }
  }
  EXPECT_EQ(row->moves, moves);
  EXPECT_EQ(row->events, static_cast<int64_t>(events.size() + 1));
  EXPECT_EQ(row->rounds, static_cast<int64_t>(final_state.rounds().size()));
  EXPECT_EQ(row->conduct,
            absl::StrCat("[[", seat_moves[0], ",", rejects[0], ",0,0],[",
                         seat_moves[1], ",", rejects[1], ",0,0]]"));
  std::string expected_ms = "[";
  for (int seat = 0; seat < 2; ++seat) {
    expected_ms += seat == 0 ? "[" : ",[";
    bool first = true;
    for (const auto& [v, n] : ms[seat]) {
      absl::StrAppend(&expected_ms, first ? "" : ",", v, ",", n);
      first = false;
    }
    expected_ms += "]";
  }
  expected_ms += "]";
  EXPECT_EQ(row->move_ms, expected_ms);
  // Each side's total adds up every item of every round the engine scored.
  std::array<int64_t, 2> sums{};
  for (const RoundResult& r : final_state.rounds()) {
    for (const ScoreItem& item : r.score.items) sums[item.side] += item.points;
  }
  GameTally t = TallyOf(MakeRecord(h, events));
  ASSERT_EQ(t.sides.size(), 2u);
  EXPECT_EQ(t.sides[0][kTallyTotal], sums[0]);
  EXPECT_EQ(t.sides[1][kTallyTotal], sums[1]);
  EXPECT_GT(sums[0] + sums[1], 0);
}

TEST_F(RecorderTest, AbortAndForfeitWriteATally) {
  GameHeader h = MakeHeader("t2");
  std::vector<PendingEvent> events = PlayEvents(h, 7);
  events.push_back({EventKind::kForfeit, events.back().at_us + 1,
                    ForfeitPayload(1, "time", "too slow")});
  events.push_back(
      {EventKind::kAbort, events.back().at_us + 1, AbortPayload("operator")});
  auto rec = OpenOrDie();
  ASSERT_TRUE(rec->CreateGameSync(h).ok());
  for (const PendingEvent& e : events) {
    ASSERT_TRUE(rec->AppendSync("t2", e.kind, e.at_us, e.payload).ok());
  }
  const std::optional<TallyRow> row = ReadTally(path_, "t2");
  ExpectRowIs(row, TallyOf(MakeRecord(h, events)));
  EXPECT_EQ(row->moves, 7);
  EXPECT_THAT(row->conduct, ::testing::EndsWith(",1,1]]"));  // seat 1 timed out
  EXPECT_EQ(rec->stats().tallies_read_back, 0);
}

TEST_F(RecorderTest, AGameResumedFromTheFileHasItsTallyReadBack) {
  GameHeader h = MakeHeader("t3");
  std::vector<PendingEvent> events = PlayEvents(h, -1);
  ASSERT_EQ(events.back().kind, EventKind::kEnd);
  const size_t half = events.size() / 2;
  {
    auto rec = OpenOrDie();
    WriteGame(*rec, h, {events.begin(), events.begin() + half});
  }
  // This recorder did not see the first half written: it keeps no tally
  // for the game, and reads the events back at its end.
  auto rec = OpenOrDie();
  for (size_t i = half; i < events.size(); ++i) {
    ASSERT_TRUE(rec->AppendSync("t3", events[i].kind, events[i].at_us,
                                events[i].payload)
                    .ok());
  }
  ExpectRowIs(ReadTally(path_, "t3"), TallyOf(MakeRecord(h, events)));
  EXPECT_EQ(rec->stats().tallies_read_back, 1);
  // A game created and ended here again keeps its tally as it goes.
  GameHeader h4 = MakeHeader("t4");
  std::vector<PendingEvent> more = PlayEvents(h4, -1);
  WriteGame(*rec, h4, more);
  ExpectRowIs(ReadTally(path_, "t4"), TallyOf(MakeRecord(h4, more)));
  EXPECT_EQ(rec->stats().tallies_read_back, 1);
}

TEST_F(RecorderTest, RunningTalliesAreBounded) {
  RecorderOptions options;
  options.running_tallies = 2;
  std::unique_ptr<Recorder> rec = OpenOrDie(options);
  ASSERT_NE(rec, nullptr);
  // Three games open at once: the third created has no running tally.
  std::vector<GameHeader> headers;
  std::vector<std::vector<PendingEvent>> games;
  for (const char* id : {"r1", "r2", "r3"}) {
    headers.push_back(MakeHeader(id));
    games.push_back(PlayEvents(headers.back(), -1));
    ASSERT_TRUE(rec->CreateGameSync(headers.back()).ok());
  }
  for (size_t g = 0; g < games.size(); ++g) {
    for (const PendingEvent& e : games[g]) {
      ASSERT_TRUE(
          rec->AppendSync(headers[g].game_id, e.kind, e.at_us, e.payload).ok());
    }
    ExpectRowIs(ReadTally(path_, headers[g].game_id),
                TallyOf(MakeRecord(headers[g], games[g])));
  }
  EXPECT_EQ(rec->stats().tallies_read_back, 1);
  // Ended games free their places: two more are kept again.
  for (const char* id : {"r4", "r5"}) {
    GameHeader h = MakeHeader(id);
    const std::vector<PendingEvent> events = PlayEvents(h, -1);
    WriteGame(*rec, h, events);
    ExpectRowIs(ReadTally(path_, id), TallyOf(MakeRecord(h, events)));
  }
  EXPECT_EQ(rec->stats().tallies_read_back, 1);
}

TEST_F(RecorderTest, SchemaVersion1DatabaseIsBackfilledAtOpen) {
  GameHeader h1 = MakeHeader("b1");
  GameRecord finished = MakeRecord(h1, PlayEvents(h1));
  GameHeader h2 = MakeHeader("b2", 9);
  GameRecord running = MakeRecord(h2, PlayEvents(h2, 5));
  {
    auto rec = OpenOrDie();
    ASSERT_TRUE(rec->Import(finished).ok());
    ASSERT_TRUE(rec->Import(running).ok());
  }
  // Import derives the tally; a running game has none.
  ExpectRowIs(ReadTally(path_, "b1"), TallyOf(finished));
  EXPECT_FALSE(ReadTally(path_, "b2").has_value());
  // The same games in a version 1 database, as an older referee left it:
  // only 001_initial.sql applied, the rows copied over.
  const std::string v3 = path_ + ".v3";
  std::filesystem::rename(path_, v3);
  ASSERT_EQ(Migrations()[0].version, 1);
  ASSERT_NO_FATAL_FAILURE(ExecSql(Migrations()[0].sql));
  ASSERT_NO_FATAL_FAILURE(ExecSql(absl::StrCat(
      "PRAGMA user_version=1; ATTACH '", v3, "' AS old;",
      "INSERT INTO games SELECT game_id, label, rules, commitment, seed, "
      "explicit_decks, per_move_ms, bank_ms, max_illegal, created_us, "
      "status, winner, end_reason, totals, finished_us FROM old.games;"
      "INSERT INTO seats SELECT game_id, seat, bot_name, token_hash FROM "
      "old.seats;"
      "INSERT INTO events SELECT * FROM old.events; DETACH old;")));
  // The finished game's events are packed in the new file; a version 1
  // database holds them as rows.
  for (const Event& e : finished.events) {
    ASSERT_NO_FATAL_FAILURE(ExecSql(absl::StrCat(
        "INSERT INTO events VALUES ('b1', ", e.seq, ", '",
        EventKindName(e.kind), "', ", e.at_us, ", '",
        absl::StrReplaceAll(e.payload, {{"'", "''"}}), "', '", e.hash, "')")));
  }
  auto rec = OpenOrDie();
  ExpectRowIs(ReadTally(path_, "b1"), TallyOf(finished));
  EXPECT_FALSE(ReadTally(path_, "b2").has_value());
  // A tally lost later (or never written) is filled in at the next open.
  rec.reset();
  ASSERT_NO_FATAL_FAILURE(ExecSql("DELETE FROM game_tallies"));
  rec = OpenOrDie();
  ExpectRowIs(ReadTally(path_, "b1"), TallyOf(finished));
}

// Column `column` of every row `sql` gives on the database at `path`, as
// text, in order: with "EXPLAIN " before a statement, its opcodes (column
// 1); with "EXPLAIN QUERY PLAN ", how it reads each table (column 3).
std::vector<std::string> ColumnOf(const std::string& path,
                                  const std::string& sql, int column) {
  std::vector<std::string> values;
  sqlite3* db = nullptr;
  sqlite3_open(path.c_str(), &db);
  sqlite3_stmt* q = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &q, nullptr) == SQLITE_OK) {
    while (sqlite3_step(q) == SQLITE_ROW) {
      const unsigned char* text = sqlite3_column_text(q, column);
      values.emplace_back(text != nullptr ? reinterpret_cast<const char*>(text)
                                          : "");
    }
  }
  sqlite3_finalize(q);
  sqlite3_close(db);
  return values;
}

// The opcodes of the program SQLite compiles for `sql` on the database at
// `path`, in order.
std::vector<std::string> Opcodes(const std::string& path,
                                 const std::string& sql) {
  return ColumnOf(path, "EXPLAIN " + sql, 1);
}

// Runs `sql` on the database at `path`; SQLite's result code.
int ExecSqlCode(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  sqlite3_open(path.c_str(), &db);
  const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr);
  sqlite3_close(db);
  return rc;
}

// Every event row of the database at `path`, each row's columns joined, in
// key order: equal only if the rows are equal byte for byte.
std::vector<std::string> EventRows(const std::string& path) {
  return ColumnOf(path,
                  "SELECT game_id || '|' || seq || '|' || kind || '|' || "
                  "at_us || '|' || hex(payload) || '|' || hash FROM events "
                  "ORDER BY game_id, seq",
                  0);
}

// The games of a migration test, as an older referee left them: `ended`
// imported with its events as rows (as before packs, schema version 5),
// and the first `half` of `running`'s events written.
struct OldGames {
  GameRecord ended;
  GameHeader running_header;
  std::vector<PendingEvent> running;
  size_t half = 0;
};

class RecorderMigrationTest : public RecorderTest {
 protected:
  // Writes the old games, their ids starting with `prefix`. Call through
  // ASSERT_NO_FATAL_FAILURE.
  void WriteOldGames(const std::string& prefix, OldGames* games) {
    const GameHeader ended_h = MakeHeader(prefix + "a");
    games->ended = MakeRecord(ended_h, PlayEvents(ended_h));
    games->running_header = MakeHeader(prefix + "b", 9);
    games->running = PlayEvents(games->running_header);
    games->half = games->running.size() / 2;
    auto rec = OpenOrDie();
    ASSERT_TRUE(rec->Import(games->ended).ok());
    WriteGame(*rec, games->running_header,
              {games->running.begin(),
               games->running.begin() + static_cast<ptrdiff_t>(games->half)});
    rec.reset();
    ASSERT_EQ(testing::UnpackToRows(path_, ended_h.game_id), "");
  }

  // Remakes the test's database as migrations 1 to `version` alone make
  // it, with the same games, seats, tallies and event rows: the file a
  // referee of that version left. Call through ASSERT_NO_FATAL_FAILURE.
  void RemakeAtVersion(int version) {
    const std::string made = path_ + ".made";
    std::filesystem::rename(path_, made);
    for (const Migration& m : Migrations()) {
      if (m.version <= version) {
        ASSERT_NO_FATAL_FAILURE(ExecSql(m.sql));
      }
    }
    ASSERT_NO_FATAL_FAILURE(ExecSql(absl::StrCat(
        "PRAGMA user_version=", version, "; ATTACH '", made, "' AS made;",
        "INSERT INTO games SELECT * FROM made.games;",
        "INSERT INTO seats SELECT * FROM made.seats;",
        "INSERT INTO game_tallies SELECT * FROM made.game_tallies;",
        "INSERT INTO events SELECT * FROM made.events; DETACH made;")));
  }

  // After the upgrade: the ended game loads exactly, and the running game
  // goes on to its end, one chain of old rows and new.
  void ExpectOldGamesGoOn(Recorder& rec, const OldGames& games) {
    const std::string& ended_id = games.ended.header.game_id;
    absl::StatusOr<GameRecord> loaded = rec.Load(ended_id);
    ASSERT_TRUE(loaded.ok()) << loaded.status();
    EXPECT_EQ(loaded->events, games.ended.events);
    EXPECT_EQ(CountOf(absl::StrCat("SELECT count(*) FROM events WHERE "
                                   "game_id = '",
                                   ended_id, "'")),
              static_cast<int64_t>(games.ended.events.size()));
    const std::string& id = games.running_header.game_id;
    for (size_t i = games.half; i < games.running.size(); ++i) {
      const PendingEvent& e = games.running[i];
      ASSERT_TRUE(rec.AppendSync(id, e.kind, e.at_us, e.payload).ok());
    }
    const GameRecord whole = MakeRecord(games.running_header, games.running);
    loaded = rec.Load(id);
    ASSERT_TRUE(loaded.ok()) << loaded.status();
    EXPECT_EQ(loaded->events, whole.events);
    ExpectRowIs(ReadTally(path_, id), TallyOf(whole));
  }
};

// Version 7 rebuilds `events` with its kind check as comparisons: a version
// 6 database's rows come through unchanged (a running game's and those of a
// game that ended before packs), the running game goes on, and the check
// refuses what it refused, without building a temporary index for each row.
TEST_F(RecorderMigrationTest, SchemaVersion6EventsAreRebuiltWithTheirRows) {
  OldGames games;
  ASSERT_NO_FATAL_FAILURE(WriteOldGames("v6", &games));
  ASSERT_NO_FATAL_FAILURE(RemakeAtVersion(6));
  const std::string insert =
      "INSERT INTO events VALUES ('v6b', 1000, 'move', 1, '{}', '')";
  EXPECT_THAT(Opcodes(path_, insert), ::testing::Contains("OpenEphemeral"));

  auto rec = OpenOrDie();
  EXPECT_EQ(CountOf("PRAGMA user_version"), Migrations().back().version);
  EXPECT_THAT(Opcodes(path_, insert),
              ::testing::Not(::testing::Contains("OpenEphemeral")));
  ASSERT_NO_FATAL_FAILURE(ExpectOldGamesGoOn(*rec, games));
  rec.reset();
  // Every kind is accepted and nothing else (the rows go in and out in one
  // transaction, so the games are untouched).
  std::string kinds = "BEGIN;";
  for (const char* kind : {"create", "deal", "move", "reject", "round",
                           "forfeit", "end", "abort"}) {
    absl::StrAppend(&kinds, "INSERT INTO events VALUES ('v6a', 5000, '", kind,
                    "', 1, '{}', '');", "DELETE FROM events WHERE seq = 5000;");
  }
  EXPECT_EQ(ExecSqlCode(path_, kinds + "ROLLBACK;"), SQLITE_OK);
  for (const char* kind : {"Move", "moves", "", "pass"}) {
    EXPECT_EQ(ExecSqlCode(path_, absl::StrCat("INSERT INTO events VALUES "
                                              "('v6a', 5000, '",
                                              kind, "', 1, '{}', '')")),
              SQLITE_CONSTRAINT)
        << kind;
  }
}

// Version 8 moves `events` from a WITHOUT ROWID table to a rowid table
// whose key (game_id, seq) a unique index keeps: the rows come through
// byte for byte, in key order; the recorder reads a game's rows through the
// index; the key is still unique; and the games go on.
TEST_F(RecorderMigrationTest, SchemaVersion7EventsMoveToARowidTable) {
  OldGames games;
  ASSERT_NO_FATAL_FAILURE(WriteOldGames("v7", &games));
  ASSERT_NO_FATAL_FAILURE(RemakeAtVersion(7));
  const std::string table_sql =
      "SELECT sql FROM sqlite_schema WHERE name = 'events'";
  EXPECT_THAT(ColumnOf(path_, table_sql, 0),
              ::testing::ElementsAre(::testing::HasSubstr("WITHOUT ROWID")));
  const std::vector<std::string> rows = EventRows(path_);
  ASSERT_EQ(rows.size(), games.ended.events.size() + games.half + 1);

  auto rec = OpenOrDie();
  EXPECT_EQ(CountOf("PRAGMA user_version"), Migrations().back().version);
  EXPECT_THAT(ColumnOf(path_, table_sql, 0),
              ::testing::ElementsAre(
                  ::testing::Not(::testing::HasSubstr("WITHOUT ROWID"))));
  EXPECT_EQ(EventRows(path_), rows);
  // Copied in key order: the table's own order is the key's.
  EXPECT_EQ(ColumnOf(path_,
                     "SELECT game_id || '|' || seq FROM events "
                     "ORDER BY rowid",
                     0),
            ColumnOf(path_,
                     "SELECT game_id || '|' || seq FROM events "
                     "ORDER BY game_id, seq",
                     0));
  EXPECT_EQ(CountOf("SELECT \"unique\" FROM pragma_index_list('events') "
                    "WHERE name = 'events_by_game'"),
            1);
  // A game's rows, read as docs/record_format.md says (and the recorder
  // does), come through the index, not a scan of every game's rows.
  EXPECT_THAT(ColumnOf(path_,
                       "EXPLAIN QUERY PLAN SELECT seq, kind, at_us, payload, "
                       "hash FROM events WHERE game_id = ?1 ORDER BY seq",
                       3),
              ::testing::ElementsAre(
                  ::testing::HasSubstr("USING INDEX events_by_game")));
  EXPECT_EQ(ExecSqlCode(path_,
                        "INSERT INTO events VALUES ('v7a', 0, "
                        "'create', 1, '{}', '')"),
            SQLITE_CONSTRAINT);
  ASSERT_NO_FATAL_FAILURE(ExpectOldGamesGoOn(*rec, games));
}

TEST_F(RecorderTest, BotAccountsAndSeatAccounts) {
  auto rec = OpenOrDie();
  BotAccountRow alice{"alice", "Ann", "ann@example.org", "k1", 10, 10, 0};
  EXPECT_TRUE(write([&](auto cb) { rec->InsertAccount(alice, cb); }).ok());
  EXPECT_TRUE(absl::IsAlreadyExists(
      write([&](auto cb) { rec->InsertAccount(alice, cb); })));

  // A seat names its account; the other seat names none.
  GameHeader h = MakeHeader("acc1");
  h.seats[0].account = "alice";
  h.seats[0].token_hash = "";
  ASSERT_TRUE(rec->CreateGameSync(h).ok());

  alice.key_hash = "";
  alice.revoked_us = 20;
  EXPECT_TRUE(write([&](auto cb) { rec->UpdateAccount(alice, cb); }).ok());
  BotAccountRow nobody{"nobody", "", "", "k", 1, 1, 0};
  EXPECT_TRUE(absl::IsNotFound(
      write([&](auto cb) { rec->UpdateAccount(nobody, cb); })));
  absl::StatusOr<std::vector<BotAccountRow>> accounts = rec->Accounts();
  ASSERT_TRUE(accounts.ok()) << accounts.status();
  ASSERT_EQ(accounts->size(), 1u);
  EXPECT_EQ((*accounts)[0], alice);
  // A revoked account is seated in no new game: checked by the writer, so
  // a revocation committed just before the game's write still counts.
  GameHeader late = MakeHeader("acc3");
  late.seats[1].account = "alice";
  absl::Status refused = rec->CreateGameSync(late);
  EXPECT_EQ(refused.code(), absl::StatusCode::kFailedPrecondition) << refused;
  EXPECT_EQ(refused.message(),
            "seats[1].account: bot account 'alice' is revoked");
  // An unknown account is refused (foreign key).
  GameHeader bad = MakeHeader("acc2");
  bad.seats[1].account = "nobody";
  EXPECT_FALSE(rec->CreateGameSync(bad).ok());
  EXPECT_TRUE(absl::IsNotFound(rec->Load("acc2").status()));
  EXPECT_TRUE(
      write([&](auto cb) { rec->SetSeatToken("acc1", 0, "fresh", cb); }).ok());
  EXPECT_TRUE(absl::IsNotFound(
      write([&](auto cb) { rec->SetSeatToken("acc1", 5, "x", cb); })));
  absl::StatusOr<GameRecord> loaded = rec->Load("acc1");
  ASSERT_TRUE(loaded.ok());
  EXPECT_EQ(loaded->header.seats[0].account, "alice");
  EXPECT_EQ(loaded->header.seats[0].token_hash, "fresh");
  EXPECT_EQ(loaded->header.seats[1].account, "");
  // The account is not part of the hashed create payload.
  EXPECT_EQ(loaded->events[0].payload.find("alice\""), std::string::npos);
}

// A database that reached the latest version while 002 was a placeholder
// has no game_tallies: it still opens and records games, without tallies.
TEST_F(RecorderTest, DatabaseWithoutTheTallyTableStillWorks) {
  OpenOrDie().reset();
  ASSERT_NO_FATAL_FAILURE(ExecSql("DROP TABLE game_tallies"));
  auto rec = OpenOrDie();
  GameHeader h = MakeHeader("nt");
  ASSERT_TRUE(rec->Import(MakeRecord(h, PlayEvents(h))).ok());
  GameHeader h2 = MakeHeader("nt2", 9);
  ASSERT_TRUE(rec->CreateGameSync(h2).ok());
  for (const PendingEvent& e : PlayEvents(h2)) {
    ASSERT_TRUE(rec->AppendSync("nt2", e.kind, e.at_us, e.payload).ok());
  }
  EXPECT_EQ(rec->Load("nt2")->events.back().kind, EventKind::kEnd);
}

TEST_F(RecorderTest, ImportRoundTrip) {
  GameHeader h = MakeHeader("i1");
  GameRecord record = MakeRecord(h, PlayEvents(h));
  ASSERT_EQ(record.status, GameStatus::kFinished);
  {
    auto rec = OpenOrDie();
    ASSERT_TRUE(rec->Import(record).ok());
    EXPECT_EQ(rec->Import(record).code(), absl::StatusCode::kAlreadyExists);
    absl::StatusOr<GameRecord> loaded = rec->Load("i1");
    ASSERT_TRUE(loaded.ok());
    EXPECT_EQ(loaded->header, record.header);
    EXPECT_EQ(loaded->status, record.status);
    EXPECT_EQ(loaded->events, record.events);
    // Stored as the referee leaves an ended game: packed.
    EXPECT_EQ(CountOf("SELECT count(*) FROM events WHERE game_id = 'i1'"), 0);
    EXPECT_EQ(CountOf("SELECT events FROM event_packs WHERE game_id = 'i1'"),
              static_cast<int64_t>(record.events.size()));
    absl::StatusOr<std::vector<GameSummary>> list = rec->List({});
    ASSERT_TRUE(list.ok());
    ASSERT_EQ(list->size(), 1u);
    EXPECT_EQ((*list)[0].status, GameStatus::kFinished);
    EXPECT_FALSE((*list)[0].end_reason.empty());
    EXPECT_EQ((*list)[0].totals.size(), 2u);

    // A running game imported and then appended to continues its chain.
    GameHeader h2 = MakeHeader("i2");
    std::vector<PendingEvent> events = PlayEvents(h2, 6);
    std::vector<PendingEvent> head(events.begin(), events.end() - 2);
    GameRecord partial = MakeRecord(h2, head);
    ASSERT_TRUE(rec->Import(partial).ok());
    for (size_t i = events.size() - 2; i < events.size(); ++i) {
      ASSERT_TRUE(rec->AppendSync("i2", events[i].kind, events[i].at_us,
                                  events[i].payload)
                      .ok());
    }
    EXPECT_EQ(rec->Load("i2")->events, MakeRecord(h2, events).events);
    EXPECT_THAT(*rec->Unfinished(), ElementsAre("i2"));

    // Malformed records are refused whole.
    GameRecord bad = record;
    bad.header.game_id = "i3";
    bad.events[4].seq = 9;
    EXPECT_EQ(rec->Import(bad).code(), absl::StatusCode::kInvalidArgument);
    bad = record;
    bad.header.game_id = "i3";
    bad.events[2].hash = "xyz";
    EXPECT_EQ(rec->Import(bad).code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(rec->Load("i3").status().code(), absl::StatusCode::kNotFound);
  }
  auto rec = OpenOrDie();
  EXPECT_EQ(rec->Load("i1")->events, record.events);
}

}  // namespace
}  // namespace cassino::recorder

namespace cassino::recorder {
namespace {

TEST_F(RecorderTest, SeveralEventsCommitTogetherOrNotAtAll) {
  auto rec = OpenOrDie();
  ASSERT_TRUE(rec->CreateGameSync(MakeHeader("g1")).ok());
  auto append = [&](std::vector<Recorder::NewEvent> events) {
    std::promise<absl::Status> done;
    std::future<absl::Status> result = done.get_future();
    rec->Append("g1", std::move(events),
                [&done](absl::Status s) { done.set_value(std::move(s)); });
    return result.get();
  };
  // A bad payload in the middle: nothing of the batch is written.
  const absl::Status bad = append({{EventKind::kReject, 1, R"({"seat":0})"},
                                   {EventKind::kMove, 2, "not json"},
                                   {EventKind::kReject, 3, R"({"seat":1})"}});
  EXPECT_EQ(bad.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(rec->Load("g1")->events.size(), 1u);
  // A good batch takes the next seqs in order, chained from the create.
  ASSERT_TRUE(append({{EventKind::kReject, 4, R"({"seat":0})"},
                      {EventKind::kAbort, 5, R"({"detail":"x"})"}})
                  .ok());
  absl::StatusOr<GameRecord> g1 = rec->Load("g1");
  ASSERT_TRUE(g1.ok());
  ASSERT_EQ(g1->events.size(), 3u);
  EXPECT_EQ(g1->events[1].seq, 1);
  EXPECT_EQ(g1->events[1].at_us, 4);
  EXPECT_EQ(g1->events[2].kind, EventKind::kAbort);
  EXPECT_EQ(g1->status, GameStatus::kAborted);
  Digest previous = *ParseSeed(g1->header.commitment);
  for (const Event& e : g1->events) {
    previous = ChainHash(previous, e.kind, e.payload);
    EXPECT_EQ(ToHex(previous), e.hash) << e.seq;
  }
  // The reject the failed batch wrote first was rolled back: the tally
  // kept as the game went had counted it, so the end reads the events
  // back and counts one reject (not in the referee's form: a bad event),
  // not two.
  const std::optional<TallyRow> row = ReadTally(path_, "g1");
  ExpectRowIs(row, TallyOf(*g1));
  EXPECT_EQ(row->bad_events, 1);
  EXPECT_EQ(rec->stats().tallies_read_back, 1);
}

TEST_F(RecorderTest, TournamentsAndTheirSchedules) {
  auto rec = OpenOrDie();
  TournamentRow t;
  t.name = "cup";
  t.participants = {"a", "b \"quoted\""};
  t.format = "gauntlet";
  t.games_per_pairing = 2;
  t.duplicate = true;
  t.rules = "players=2";
  t.clock = {1500, 3000, 2};
  t.max_concurrent = 3;
  t.grace_ms = 700;
  t.seed = std::string(64, 'a');
  t.commitment = std::string(64, 'c');
  t.created_us = 42;
  const std::vector<TournamentGameRow> games = {
      {0, {"a", "b \"quoted\""}, std::string(64, '1'), ""},
      {1, {"b \"quoted\"", "a"}, std::string(64, '1'), ""}};
  EXPECT_TRUE(
      write([&](auto cb) { rec->InsertTournament(t, games, cb); }).ok());
  EXPECT_TRUE(absl::IsAlreadyExists(
      write([&](auto cb) { rec->InsertTournament(t, games, cb); })));
  EXPECT_TRUE(
      write([&](auto cb) { rec->SetTournamentGame("cup", 1, "g1", cb); }).ok());
  EXPECT_TRUE(absl::IsNotFound(
      write([&](auto cb) { rec->SetTournamentGame("cup", 2, "g2", cb); })));
  EXPECT_TRUE(absl::IsNotFound(write(
      [&](auto cb) { rec->EndTournament("nope", "finished", "", 9, cb); })));

  rec = OpenOrDie();  // read back after a reopen
  absl::StatusOr<std::vector<TournamentRow>> rows = rec->Tournaments();
  ASSERT_TRUE(rows.ok()) << rows.status();
  ASSERT_EQ(rows->size(), 1u);
  EXPECT_EQ((*rows)[0], t);
  absl::StatusOr<std::vector<TournamentGameRow>> schedule =
      rec->TournamentGames("cup");
  ASSERT_TRUE(schedule.ok()) << schedule.status();
  ASSERT_EQ(schedule->size(), 2u);
  EXPECT_EQ((*schedule)[0], games[0]);
  EXPECT_EQ((*schedule)[1].game_id, "g1");

  EXPECT_TRUE(write([&](auto cb) {
                rec->EndTournament("cup", "cancelled", "rain", 77, cb);
              }).ok());
  rows = rec->Tournaments();
  ASSERT_TRUE(rows.ok());
  EXPECT_EQ((*rows)[0].status, "cancelled");
  EXPECT_EQ((*rows)[0].reason, "rain");
  EXPECT_EQ((*rows)[0].ended_us, 77);
  // The schema refuses a status it does not know.
  EXPECT_FALSE(write([&](auto cb) {
                 rec->EndTournament("cup", "paused", "", 78, cb);
               }).ok());
}

// A tournament's name labels exactly its scheduled games. The writer checks
// it in its transaction, where a CreateGame and a CreateTournament of the
// same name are ordered, so neither can slip past the other.
TEST_F(RecorderTest, ATournamentsNameLabelsOnlyItsScheduledGames) {
  auto rec = OpenOrDie();
  TournamentRow t;
  t.name = "cup";
  t.participants = {"a", "b"};
  t.format = "round_robin";
  t.games_per_pairing = 1;
  t.rules = "players=2";
  t.seed = std::string(64, 'a');
  t.commitment = std::string(64, 'c');
  ASSERT_TRUE(write([&](auto cb) {
                rec->InsertTournament(
                    t, {{0, {"a", "b"}, std::string(64, '1'), ""}}, cb);
              }).ok());
  GameHeader stray = MakeHeader("stray");
  stray.label = "cup";
  absl::Status s = rec->CreateGameSync(stray);
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << s;
  EXPECT_THAT(s.message(), HasSubstr("is the name of a tournament"));
  // Once the schedule names the game (the scheduler writes the id first),
  // it may be created with the label.
  GameHeader scheduled = MakeHeader("cup-0");
  scheduled.label = "cup";
  EXPECT_EQ(rec->CreateGameSync(scheduled).code(),
            absl::StatusCode::kFailedPrecondition);
  ASSERT_TRUE(write([&](auto cb) {
                rec->SetTournamentGame("cup", 0, "cup-0", cb);
              }).ok());
  EXPECT_TRUE(rec->CreateGameSync(scheduled).ok());
  // A scheduled game may seat a revoked account (it forfeits at once).
  ASSERT_TRUE(write([&](auto cb) {
                rec->InsertAccount({"gone", "", "", "", 1, 1, 2}, cb);
              }).ok());
  TournamentRow t2 = t;
  t2.name = "cup2";
  t2.participants = {"gone", "b"};
  ASSERT_TRUE(write([&](auto cb) {
                rec->InsertTournament(
                    t2, {{0, {"gone", "b"}, std::string(64, '1'), "cup2-0"}},
                    cb);
              }).ok());
  GameHeader forfeited = MakeHeader("cup2-0");
  forfeited.label = "cup2";
  forfeited.seats[0].account = "gone";
  EXPECT_TRUE(rec->CreateGameSync(forfeited).ok());
  forfeited.game_id = "cup2-x";  // not in the schedule
  EXPECT_EQ(rec->CreateGameSync(forfeited).code(),
            absl::StatusCode::kFailedPrecondition);
  // And a label already on games is no new tournament's name.
  ASSERT_TRUE(rec->CreateGameSync(MakeHeader("plain")).ok());  // test-match
  t.name = "test-match";
  absl::Status taken =
      write([&](auto cb) { rec->InsertTournament(t, {}, cb); });
  EXPECT_EQ(taken.code(), absl::StatusCode::kAlreadyExists) << taken;
  EXPECT_THAT(taken.message(), HasSubstr("must be a new label"));
}

}  // namespace
}  // namespace cassino::recorder
