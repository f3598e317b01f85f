#include "bench/durable_echo.h"

#include <sqlite3.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <tuple>

#include "gtest/gtest.h"
#include "tests/temp_dir.h"

namespace cassino::bench {
namespace {

using CommitOn = DurableEchoService::CommitOn;

// Rows committed so far, read on a connection of its own (so only what
// was committed).
int64_t CommittedRows(const std::string& path) {
  sqlite3* db = nullptr;
  int64_t rows = -1;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) ==
      SQLITE_OK) {
    sqlite3_stmt* s = nullptr;
    if (sqlite3_prepare_v2(db, "SELECT count(*) FROM messages", -1, &s,
                           nullptr) == SQLITE_OK &&
        sqlite3_step(s) == SQLITE_ROW) {
      rows = sqlite3_column_int64(s, 0);
    }
    sqlite3_finalize(s);
  }
  sqlite3_close(db);
  return rows;
}

using Sync = DurableEchoService::Sync;

// `service` served on a free local port, and a stub that talks to it.
struct Served {
  std::unique_ptr<grpc::Server> server;
  std::unique_ptr<EchoService::Stub> stub;
};
Served Serve(DurableEchoService& service) {
  Served served;
  int port = 0;
  served.server = ServeInsecure(&service, "127.0.0.1:0", &port);
  if (served.server != nullptr) {
    served.stub = EchoService::NewStub(
        grpc::CreateChannel("127.0.0.1:" + std::to_string(port),
                            grpc::InsecureChannelCredentials()));
  }
  return served;
}

class DurableEchoTest
    : public ::testing::TestWithParam<std::tuple<CommitOn, Sync>> {};

// The contract referee_ratios relies on: a message comes back only once its
// row is committed, and it comes back unchanged.
TEST_P(DurableEchoTest, EchoesEachMessageOnlyOnceItIsCommitted) {
  const std::string path = (cassino::testing::TempDir() / "echo.db").string();
  DurableEchoService service(std::get<0>(GetParam()), std::get<1>(GetParam()));
  ASSERT_TRUE(service.Open(path).ok());
  Served served = Serve(service);
  ASSERT_NE(served.server, nullptr);
  grpc::ClientContext context;
  auto stream = served.stub->Echo(&context);
  for (int i = 0; i < 5; ++i) {
    EchoMessage sent;
    sent.set_payload(std::string(300, static_cast<char>('a' + i)));
    ASSERT_TRUE(stream->Write(sent));
    EchoMessage echoed;
    ASSERT_TRUE(stream->Read(&echoed));
    EXPECT_EQ(echoed.payload(), sent.payload());
    EXPECT_EQ(CommittedRows(path), i + 1) << "after echo " << i;
  }
  stream->WritesDone();
  EXPECT_TRUE(stream->Finish().ok());
  served.server->Shutdown();
}

INSTANTIATE_TEST_SUITE_P(
    BothCommittersBothSyncs, DurableEchoTest,
    ::testing::Combine(::testing::Values(CommitOn::kWriter, CommitOn::kReader),
                       ::testing::Values(Sync::kNormal, Sync::kFull)),
    [](const ::testing::TestParamInfo<std::tuple<CommitOn, Sync>>& info) {
      return std::string(std::get<0>(info.param) == CommitOn::kWriter
                             ? "Writer"
                             : "Reader") +
             (std::get<1>(info.param) == Sync::kFull ? "Full" : "Normal");
    });

// As the recorder, the durable echo copies its WAL back on a checkpoint
// thread of its own (recorder::Checkpointer), not on the committing thread:
// with a checkpoint every 10 pages, 200 one-message commits (quiet, so
// from 30 pages on) make the thread checkpoint.
TEST(DurableEchoCheckpointTest, CheckpointsOnAThreadOfItsOwn) {
  const std::string path = (cassino::testing::TempDir() / "echo.db").string();
  DurableEchoService service(CommitOn::kReader, Sync::kNormal,
                             /*checkpoint_pages=*/10);
  ASSERT_TRUE(service.Open(path).ok());
  Served served = Serve(service);
  ASSERT_NE(served.server, nullptr);
  grpc::ClientContext context;
  auto stream = served.stub->Echo(&context);
  EXPECT_EQ(service.checkpoints(), 0);
  for (int i = 0; i < 200; ++i) {
    EchoMessage sent;
    sent.set_payload(std::string(300, 'x'));
    ASSERT_TRUE(stream->Write(sent));
    EchoMessage echoed;
    ASSERT_TRUE(stream->Read(&echoed));
  }
  stream->WritesDone();
  EXPECT_TRUE(stream->Finish().ok());
  served.server->Shutdown();
  EXPECT_EQ(CommittedRows(path), 200);
  // The thread is woken by a commit and checkpoints after it; wait for it
  // (a bound, not a timing: it has a checkpoint to run).
  for (int i = 0; i < 500 && service.checkpoints() == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_GE(service.checkpoints(), 1);
}

TEST(DurableEchoOpenTest, ADatabaseThatCannotBeOpenedIsAnError) {
  DurableEchoService service(CommitOn::kWriter, Sync::kNormal);
  EXPECT_FALSE(service.Open("/nonexistent-directory/echo.db").ok());
}

}  // namespace
}  // namespace cassino::bench
