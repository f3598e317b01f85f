// The batched-WAL VFS (recorder/batched_wal_vfs.h): a commit is one write of
// the WAL, and what a commit promises through the base VFS it still
// promises: every committed frame is in the file when COMMIT returns (seen
// by a connection without the VFS, and after the writing process dies
// without closing), a failed write fails the commit, and transactions that
// spill, rewrite frames or outgrow one write come out whole.
//
// The batched VFS runs over the tests' faulty VFS (FaultyVfs::kBatchedName),
// which counts every write it is asked for and can fail them.

#include "recorder/batched_wal_vfs.h"

#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <string>

#include "gtest/gtest.h"
#include "tests/recorder/faulty_vfs.h"
#include "tests/recorder/sql_util.h"
#include "tests/temp_dir.h"

namespace cassino::recorder {
namespace {

using ::cassino::testing::FaultyVfs;

constexpr const char* kBatchedFaulty = FaultyVfs::kBatchedName;
// A WAL frame of a 4 KiB page: its 24-byte header and the page.
constexpr int64_t kFrameBytes = 24 + 4096;

class BatchedWalVfsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { FaultyVfs::Register(); }

  void SetUp() override {
    path_ = (::cassino::testing::TempDir() / "test.db").string();
  }
  void TearDown() override {
    FaultyVfs::FailWrites(false);
    Close(writer_);
  }

  // Opens the test's database through `vfs`.
  sqlite3* Open(const char* vfs) {
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open_v2(path_.c_str(), &db,
                              SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, vfs),
              SQLITE_OK);
    return db;
  }
  static void Close(sqlite3*& db) {
    if (db != nullptr) sqlite3_close(db);
    db = nullptr;
  }
  static int Exec(sqlite3* db, const std::string& sql) {
    return sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr);
  }
  // The writer through `vfs`, in WAL mode, without automatic checkpoints
  // (so that a commit writes the WAL only), and a table of blobs. With
  // synchronous=NORMAL, as the referee's `normal` durability: no sync of
  // the WAL at a commit, so nothing but the commit frame flushes the run.
  void OpenWriter(const char* vfs) {
    writer_ = Open(vfs);
    ASSERT_EQ(Exec(writer_,
                   "PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0;"
                   "PRAGMA synchronous=NORMAL;"
                   "CREATE TABLE t (id INTEGER PRIMARY KEY, v BLOB)"),
              SQLITE_OK);
  }
  // Inserts `rows` rows of `bytes` random bytes each in one transaction;
  // returns COMMIT's result.
  int InsertRows(int rows, int bytes) {
    EXPECT_EQ(Exec(writer_, "BEGIN"), SQLITE_OK);
    for (int i = 0; i < rows; ++i) {
      EXPECT_EQ(Exec(writer_, "INSERT INTO t (v) VALUES (randomblob(" +
                                  std::to_string(bytes) + "))"),
                SQLITE_OK);
    }
    return Exec(writer_, "COMMIT");
  }
  int64_t WalBytes() const {
    return static_cast<int64_t>(std::filesystem::file_size(path_ + "-wal"));
  }

  // The integer `sql` gives, read by a connection of its own without the
  // batched VFS.
  int64_t PlainInt(const std::string& sql) const {
    return recorder::testing::QueryInt(path_, sql);
  }
  // Whether SQLite's integrity check passes, read the same way.
  bool PlainIntact() const {
    return PlainInt(
               "SELECT count(*) FROM pragma_integrity_check "
               "WHERE integrity_check = 'ok'") == 1;
  }

  std::string path_;
  sqlite3* writer_ = nullptr;
};

TEST_F(BatchedWalVfsTest, ACommitIsOneWriteOfWholeFrames) {
  OpenWriter(kBatchedFaulty);
  for (int commit = 1; commit <= 5; ++commit) {
    const int64_t writes = FaultyVfs::Writes();
    const int64_t wal = WalBytes();
    ASSERT_EQ(InsertRows(20, 1000), SQLITE_OK);  // about 6 pages
    EXPECT_EQ(FaultyVfs::Writes() - writes, 1) << "commit " << commit;
    // The WAL grew by whole frames, all in the file now.
    const int64_t grown = WalBytes() - wal;
    EXPECT_GT(grown, 4 * kFrameBytes);
    EXPECT_EQ(grown % kFrameBytes, 0);
    EXPECT_EQ(PlainInt("SELECT count(*) FROM t"), 20 * commit);
  }
}

TEST_F(BatchedWalVfsTest, WithoutItACommitIsTwoWritesAFrame) {
  // The same commit through the faulty VFS alone: what the batching saves.
  OpenWriter(FaultyVfs::kName);
  ASSERT_EQ(InsertRows(20, 1000), SQLITE_OK);  // the first creates the WAL
  const int64_t writes = FaultyVfs::Writes();
  const int64_t wal = WalBytes();
  ASSERT_EQ(InsertRows(20, 1000), SQLITE_OK);
  EXPECT_EQ(FaultyVfs::Writes() - writes, 2 * (WalBytes() - wal) / kFrameBytes);
}

TEST_F(BatchedWalVfsTest, ALargeCommitIsWrittenInRunsAndReadsBackWhole) {
  OpenWriter(kBatchedFaulty);
  const int64_t writes = FaultyVfs::Writes();
  const int64_t wal = WalBytes();
  ASSERT_EQ(InsertRows(100, 3000), SQLITE_OK);  // about 100 pages
  const int64_t grown = WalBytes() - wal;
  constexpr auto kRun = static_cast<int64_t>(kMaxWriteBytes);
  EXPECT_GT(grown, kRun);
  EXPECT_EQ(FaultyVfs::Writes() - writes, (grown + kRun - 1) / kRun);
  EXPECT_EQ(PlainInt("SELECT count(*) FROM t"), 100);
  EXPECT_EQ(PlainInt("SELECT sum(length(v)) FROM t"), 300000);
  EXPECT_TRUE(PlainIntact());
}

TEST_F(BatchedWalVfsTest, SpilledAndRewrittenFramesComeOutWhole) {
  // A cache of a few pages makes SQLite spill pages to the WAL in the
  // middle of the transaction, read them back and write them again.
  OpenWriter(kBatchedFaulty);
  ASSERT_EQ(Exec(writer_, "PRAGMA cache_size=5"), SQLITE_OK);
  ASSERT_EQ(InsertRows(200, 500), SQLITE_OK);
  ASSERT_EQ(Exec(writer_,
                 "BEGIN; UPDATE t SET v = zeroblob(600);"
                 "UPDATE t SET v = zeroblob(700) WHERE id % 2 = 0;"
                 "SAVEPOINT s; DELETE FROM t WHERE id > 150;"
                 "ROLLBACK TO s; RELEASE s; COMMIT"),
            SQLITE_OK);
  EXPECT_EQ(PlainInt("SELECT count(*) FROM t"), 200);
  EXPECT_EQ(PlainInt("SELECT sum(length(v)) FROM t"), 100 * 600 + 100 * 700);
  EXPECT_TRUE(PlainIntact());
}

TEST_F(BatchedWalVfsTest, AFailedWriteFailsTheCommitAndPublishesNothing) {
  OpenWriter(kBatchedFaulty);
  ASSERT_EQ(InsertRows(10, 1000), SQLITE_OK);
  FaultyVfs::FailWrites(true);
  EXPECT_EQ(InsertRows(10, 1000) & 0xff, SQLITE_FULL);
  FaultyVfs::FailWrites(false);
  Exec(writer_, "ROLLBACK");  // if the failed COMMIT left it open
  EXPECT_EQ(PlainInt("SELECT count(*) FROM t"), 10);
  ASSERT_EQ(InsertRows(10, 1000), SQLITE_OK);
  EXPECT_EQ(PlainInt("SELECT count(*) FROM t"), 20);
  EXPECT_TRUE(PlainIntact());
}

TEST_F(BatchedWalVfsTest, CommitsSurviveAProcessThatDiesWithoutClosing) {
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // The child commits and dies at once: no close, no checkpoint.
    OpenWriter(kBatchedFaulty);
    for (int i = 0; i < 7; ++i) {
      if (InsertRows(3, 2000) != SQLITE_OK) _exit(1);
    }
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  ASSERT_EQ(WEXITSTATUS(status), 0);
  EXPECT_EQ(PlainInt("SELECT count(*) FROM t"), 21);
  EXPECT_TRUE(PlainIntact());
}

}  // namespace
}  // namespace cassino::recorder
