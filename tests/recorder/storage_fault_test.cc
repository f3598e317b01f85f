// The recorder under storage faults it can detect: a full disk (the faulty
// VFS), a database file or WAL deleted under it, a file it cannot write.
// Nothing that failed is reported committed; the recorder says it is
// unhealthy, and recovers once writes succeed again (except from a deleted
// file, which is permanent).

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <future>
#include <random>
#include <thread>

#include "absl/synchronization/mutex.h"
#include "gtest/gtest.h"
#include "recorder/recorder.h"
#include "tests/recorder/faulty_vfs.h"
#include "tests/recorder/sql_util.h"
#include "tests/recorder/test_game.h"
#include "tests/temp_dir.h"

namespace cassino::recorder {
namespace {

using ::cassino::testing::FaultyVfs;
using testing::MakeHeader;
using testing::PlayEvents;

std::filesystem::path TempDb() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() /
      (std::string("cassino_storage_") + info->name() + "_" +
       std::to_string(std::random_device{}()));
  std::filesystem::create_directories(dir);
  return ::cassino::testing::RemoveAtTestEnd(dir) / "records.db";
}

RecorderOptions FastProbe() {
  RecorderOptions options;
  options.probe_interval = std::chrono::milliseconds(20);
  return options;
}

// Waits up to 5 s for the recorder's health to become `writable`.
bool AwaitWritable(const Recorder& r, bool writable) {
  for (int i = 0; i < 500; ++i) {
    if (r.health().writable == writable) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

class StorageFaultTest : public ::testing::Test {
 protected:
  void TearDown() override { FaultyVfs::FailWrites(false); }
};

TEST_F(StorageFaultTest, FullDiskFailsWritesThenRecoversByItself) {
  const std::filesystem::path db = TempDb();
  absl::StatusOr<std::unique_ptr<Recorder>> r =
      Recorder::Open(FaultyVfs::Uri(db.string()), FastProbe());
  ASSERT_TRUE(r.ok()) << r.status();
  absl::Mutex mu;
  std::vector<StorageHealth> changes;
  (*r)->OnHealthChange([&](const StorageHealth& h) {
    absl::MutexLock lock(&mu);
    changes.push_back(h);
  });
  const GameHeader header = MakeHeader("g1");
  ASSERT_TRUE((*r)->CreateGameSync(header).ok());
  const std::vector<testing::PendingEvent> events = PlayEvents(header, 4);
  ASSERT_GE(events.size(), 3u);
  ASSERT_TRUE(
      (*r)->AppendSync("g1", events[0].kind, events[0].at_us, events[0].payload)
          .ok());

  FaultyVfs::FailWrites(true);
  absl::Status failed = (*r)->AppendSync("g1", events[1].kind, events[1].at_us,
                                         events[1].payload);
  EXPECT_EQ(failed.code(), absl::StatusCode::kUnavailable) << failed;
  EXPECT_FALSE((*r)->health().writable);
  EXPECT_FALSE((*r)->health().lost);
  EXPECT_FALSE((*r)->health().fault.empty());
  // Still failing while the disk is full, probes included.
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_FALSE((*r)->health().writable);

  FaultyVfs::FailWrites(false);
  ASSERT_TRUE(AwaitWritable(**r, true)) << "no recovery after the fault";
  // The failed event was never written: the game goes on from the last
  // committed one, and its chain is intact.
  ASSERT_TRUE(
      (*r)->AppendSync("g1", events[1].kind, events[1].at_us, events[1].payload)
          .ok());
  absl::StatusOr<GameRecord> record = (*r)->Load("g1");
  ASSERT_TRUE(record.ok()) << record.status();
  ASSERT_EQ(record->events.size(), 3u);  // create, events[0], events[1]
  EXPECT_EQ(record->events[2].payload, events[1].payload);
  EXPECT_TRUE(CheckChain(*record).ok()) << CheckChain(*record);
  absl::MutexLock lock(&mu);
  ASSERT_EQ(changes.size(), 2u);
  EXPECT_FALSE(changes[0].writable);
  EXPECT_TRUE(changes[1].writable);
}

// A quiet recorder packs an ended game after the end's commit. When the
// disk fills in between, the end stays acknowledged, the game keeps its
// rows, the acknowledgements stop, and the pack is written once the disk
// takes writes again.
TEST_F(StorageFaultTest, PackAfterTheEndWaitsForTheStorage) {
  const std::filesystem::path db = TempDb();
  absl::StatusOr<std::unique_ptr<Recorder>> r =
      Recorder::Open(FaultyVfs::Uri(db.string()), FastProbe());
  ASSERT_TRUE(r.ok()) << r.status();
  const GameHeader header = MakeHeader("g1");
  ASSERT_TRUE((*r)->CreateGameSync(header).ok());
  const std::vector<testing::PendingEvent> events = PlayEvents(header);
  // One write a transaction: quiet long before the end.
  for (size_t i = 0; i + 1 < events.size(); ++i) {
    ASSERT_TRUE((*r)->AppendSync("g1", events[i].kind, events[i].at_us,
                                 events[i].payload)
                    .ok());
  }
  std::promise<absl::Status> ended;
  // (The end's callback runs on the writer thread before its turn at the
  // pack: the disk is full from then on.)
  (*r)->Append("g1", events.back().kind, events.back().at_us,
               events.back().payload, [&ended](absl::Status s) {
                 FaultyVfs::FailWrites(true);
                 ended.set_value(std::move(s));
               });
  ASSERT_TRUE(ended.get_future().get().ok());
  ASSERT_TRUE(AwaitWritable(**r, false)) << "the failed pack went unnoticed";
  const int64_t rows = static_cast<int64_t>(events.size()) + 1;
  const std::string count_rows = "SELECT count(*) FROM events";
  const std::string count_packs = "SELECT count(*) FROM event_packs";
  EXPECT_EQ(testing::QueryInt(db.string(), count_rows), rows);
  EXPECT_EQ(testing::QueryInt(db.string(), count_packs), 0);
  EXPECT_EQ((*r)->stats().packed_games, 0);

  FaultyVfs::FailWrites(false);
  ASSERT_TRUE(AwaitWritable(**r, true)) << "no recovery after the fault";
  (*r)->WaitIdle();
  EXPECT_EQ((*r)->stats().packed_games, 1);
  EXPECT_EQ(testing::QueryInt(db.string(), count_rows), 0);
  EXPECT_EQ(testing::QueryInt(db.string(), count_packs), 1);
  absl::StatusOr<GameRecord> record = (*r)->Load("g1");
  ASSERT_TRUE(record.ok()) << record.status();
  EXPECT_EQ(static_cast<int64_t>(record->events.size()), rows);
  EXPECT_TRUE(CheckChain(*record).ok()) << CheckChain(*record);
}

TEST_F(StorageFaultTest, FailedBatchFailsEveryWriteOfIt) {
  // Writes queued together while the disk is full: none is reported
  // committed, and none is in the database afterwards.
  const std::filesystem::path db = TempDb();
  absl::StatusOr<std::unique_ptr<Recorder>> r =
      Recorder::Open(FaultyVfs::Uri(db.string()), FastProbe());
  ASSERT_TRUE(r.ok()) << r.status();
  std::vector<GameHeader> headers;
  for (int i = 0; i < 8; ++i) {
    headers.push_back(MakeHeader("g" + std::to_string(i), 10 + i));
  }
  FaultyVfs::FailWrites(true);
  absl::Mutex mu;
  int done = 0, ok = 0;
  for (const GameHeader& h : headers) {
    (*r)->CreateGame(h, [&](absl::Status s) {
      absl::MutexLock lock(&mu);
      ++done;
      ok += s.ok();
    });
  }
  {
    absl::MutexLock lock(&mu);
    mu.Await(absl::Condition(
        +[](int* d) { return *d == 8; }, &done));
    EXPECT_EQ(ok, 0);
  }
  FaultyVfs::FailWrites(false);
  ASSERT_TRUE(AwaitWritable(**r, true));
  for (const GameHeader& h : headers) {
    EXPECT_EQ((*r)->Load(h.game_id).status().code(),
              absl::StatusCode::kNotFound)
        << h.game_id;
  }
}

TEST_F(StorageFaultTest, DeletedDatabaseFileStopsEveryAcknowledgement) {
  const std::filesystem::path db = TempDb();
  absl::StatusOr<std::unique_ptr<Recorder>> r =
      Recorder::Open(db.string(), FastProbe());
  ASSERT_TRUE(r.ok()) << r.status();
  const GameHeader header = MakeHeader("g1");
  ASSERT_TRUE((*r)->CreateGameSync(header).ok());
  const std::vector<testing::PendingEvent> events = PlayEvents(header, 2);
  ASSERT_TRUE(std::filesystem::remove(db));
  absl::Status s = (*r)->AppendSync("g1", events[0].kind, events[0].at_us,
                                    events[0].payload);
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << s;
  EXPECT_NE(s.message().find("deleted or replaced"), std::string::npos) << s;
  EXPECT_FALSE((*r)->health().writable);
  EXPECT_TRUE((*r)->health().lost);
  // Permanent: probes never make it healthy, later writes keep failing.
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_FALSE((*r)->health().writable);
  EXPECT_FALSE(
      (*r)->AppendSync("g1", events[1].kind, events[1].at_us, events[1].payload)
          .ok());
}

TEST_F(StorageFaultTest, DeletedWalStopsEveryAcknowledgement) {
  const std::filesystem::path db = TempDb();
  absl::StatusOr<std::unique_ptr<Recorder>> r =
      Recorder::Open(db.string(), FastProbe());
  ASSERT_TRUE(r.ok()) << r.status();
  const GameHeader header = MakeHeader("g1");
  ASSERT_TRUE((*r)->CreateGameSync(header).ok());
  const std::vector<testing::PendingEvent> events = PlayEvents(header, 1);
  const std::filesystem::path wal = db.string() + "-wal";
  ASSERT_TRUE(std::filesystem::exists(wal));
  ASSERT_TRUE(std::filesystem::remove(wal));
  absl::Status s = (*r)->AppendSync("g1", events[0].kind, events[0].at_us,
                                    events[0].payload);
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << s;
  EXPECT_NE(s.message().find("WAL"), std::string::npos) << s;
  EXPECT_TRUE((*r)->health().lost);
}

TEST_F(StorageFaultTest, DatabaseThatTakesNoWriteIsRefusedAtOpen) {
  const std::filesystem::path db = TempDb();
  ASSERT_TRUE(Recorder::Open(db.string(), Durability::kNormal).ok());
  // A full disk at start.
  FaultyVfs::FailWrites(true);
  absl::StatusOr<std::unique_ptr<Recorder>> full =
      Recorder::Open(FaultyVfs::Uri(db.string()), FastProbe());
  EXPECT_EQ(full.status().code(), absl::StatusCode::kFailedPrecondition)
      << full.status();
  FaultyVfs::FailWrites(false);
  // A file SQLite can open only read-only (as an immutable file is).
  absl::StatusOr<std::unique_ptr<Recorder>> read_only =
      Recorder::Open("file:" + db.string() + "?mode=ro", FastProbe());
  EXPECT_EQ(read_only.status().code(), absl::StatusCode::kFailedPrecondition)
      << read_only.status();
  EXPECT_NE(read_only.status().message().find("cannot be written"),
            std::string::npos)
      << read_only.status();
  // And the same file, writable, opens.
  EXPECT_TRUE(Recorder::Open(db.string(), FastProbe()).ok());
}

TEST(RecordChainTest, CheckChainNamesTheChangedEvent) {
  const std::filesystem::path db = TempDb();
  absl::StatusOr<std::unique_ptr<Recorder>> r =
      Recorder::Open(db.string(), Durability::kNormal);
  ASSERT_TRUE(r.ok()) << r.status();
  const GameHeader header = MakeHeader("g1");
  ASSERT_TRUE((*r)->CreateGameSync(header).ok());
  for (const testing::PendingEvent& e : PlayEvents(header, 3)) {
    ASSERT_TRUE((*r)->AppendSync("g1", e.kind, e.at_us, e.payload).ok());
  }
  absl::StatusOr<GameRecord> record = (*r)->Load("g1");
  ASSERT_TRUE(record.ok());
  ASSERT_TRUE(CheckChain(*record).ok()) << CheckChain(*record);
  GameRecord changed = *record;
  changed.events[2].hash[5] = changed.events[2].hash[5] == '0' ? '1' : '0';
  absl::Status s = CheckChain(changed);
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(s.message().find("event 2"), std::string::npos) << s;
  changed = *record;
  changed.events[1].payload += " ";
  EXPECT_EQ(CheckChain(changed).code(), absl::StatusCode::kDataLoss);
}

}  // namespace
}  // namespace cassino::recorder
