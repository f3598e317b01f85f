// Record sets (several referees' databases read as one): which files a
// directory names, verify and export over several databases, a game id in
// two databases, and the CLI's DB... arguments.

#include "recorder/record_set.h"

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "recorder/recorder.h"
#include "tests/tools/record_fixture.h"
#include "tools/verify/interchange.h"
#include "tools/verify/verifier.h"

namespace cassino::verify {
namespace {

using ::cassino::tools_testing::FixtureOptions;
using ::cassino::tools_testing::PlayFixtureGame;
using ::cassino::tools_testing::WriteGame;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

class RecordSetTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::path(::testing::TempDir()) /
           absl::StrCat(
               "record_set_test_", getpid(), "_",
               ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_ / "set");
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // A database `name` in the set's directory holding the games `ids`.
  std::string Database(const std::string& name,
                       const std::vector<std::string>& ids) {
    const std::string path = (dir_ / "set" / name).string();
    auto rec = recorder::Recorder::Open(path, recorder::Durability::kNormal);
    EXPECT_TRUE(rec.ok()) << rec.status();
    uint32_t index = static_cast<uint32_t>(name.size());
    for (const std::string& id : ids) {
      FixtureOptions o;
      o.seed_index = index++;
      o.reject_every = 7;
      EXPECT_TRUE(WriteGame(**rec, PlayFixtureGame(id, o)).ok());
    }
    return path;
  }

  // Runs the CLI; (exit status, stdout and stderr).
  std::pair<int, std::string> Cli(const std::string& args) {
    const std::string out = (dir_ / "out.txt").string();
    const int status = std::system(
        absl::StrCat(CASSINO_CLI_PATH, " ", args, " > ", out, " 2>&1").c_str());
    std::ifstream in(out);
    return {WEXITSTATUS(status), std::string(std::istreambuf_iterator<char>(in),
                                             std::istreambuf_iterator<char>())};
  }

  std::filesystem::path dir_;
};

TEST_F(RecordSetTest, ADirectoryNamesItsDatabaseFilesInNameOrder) {
  const std::string b = Database("b.sqlite", {});
  const std::string a = Database("a.db", {});
  std::ofstream((dir_ / "set" / "notes.txt").string()) << "not a database";
  const std::string dir = (dir_ / "set").string();
  absl::StatusOr<std::vector<std::string>> paths =
      recorder::ExpandDatabases(std::vector<std::string>{dir, a});
  ASSERT_TRUE(paths.ok()) << paths.status();
  EXPECT_THAT(*paths, ElementsAre(a, b));  // a.db once

  EXPECT_TRUE(absl::IsNotFound(
      recorder::ExpandDatabases(std::vector<std::string>{dir + "/missing.db"})
          .status()));
  std::filesystem::create_directories(dir_ / "empty");
  EXPECT_TRUE(absl::IsInvalidArgument(
      recorder::ExpandDatabases(
          std::vector<std::string>{(dir_ / "empty").string()})
          .status()));
}

TEST_F(RecordSetTest, VerifyReadsEveryDatabaseAsOneSet) {
  const std::string one = Database("one.db", {"g1", "g3", "g5"});
  const std::string two = Database("two.db", {"g2", "g4"});
  absl::StatusOr<VerifyReport> all = VerifyRecordSet({one, two}, {});
  ASSERT_TRUE(all.ok()) << all.status();
  EXPECT_EQ(all->games, 5);
  EXPECT_EQ(all->ok, 5);
  EXPECT_TRUE(all->failures.empty());

  VerifyOptions named;
  named.games = {"g4", "g1", "nowhere"};
  absl::StatusOr<VerifyReport> some = VerifyRecordSet({one, two}, named);
  ASSERT_TRUE(some.ok()) << some.status();
  EXPECT_EQ(some->games, 3);
  EXPECT_EQ(some->ok, 2);
  ASSERT_EQ(some->failures.size(), 1u);
  EXPECT_EQ(some->failures[0].game_id, "nowhere");
  EXPECT_THAT(some->failures[0].what, HasSubstr("no such game"));
}

TEST_F(RecordSetTest, AGameIdInTwoDatabasesFails) {
  const std::string one = Database("one.db", {"g1", "same"});
  const std::string two = Database("two.db", {"same", "g2"});
  absl::StatusOr<VerifyReport> r = VerifyRecordSet({one, two}, {});
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->failures.size(), 1u);
  EXPECT_EQ(r->failures[0].game_id, "same");
  EXPECT_THAT(r->failures[0].what, HasSubstr(one));
  EXPECT_THAT(r->failures[0].what, HasSubstr(two));
  EXPECT_EQ(r->games - r->ok, 1);

  std::ostringstream out;
  EXPECT_TRUE(absl::IsFailedPrecondition(
      ExportRecordSet({one, two}, {}, ExportFormat::kJson, out)));
}

TEST_F(RecordSetTest, ExportMergesInIdOrderAndRoundTripsThroughOneDatabase) {
  const std::string one = Database("one.db", {"g1", "g4"});
  const std::string two = Database("two.db", {"g2", "g3"});
  std::ostringstream merged;
  ASSERT_TRUE(
      ExportRecordSet({one, two}, {}, ExportFormat::kJson, merged).ok());
  const std::string text = merged.str();
  const size_t p1 = text.find("\"game_id\":\"g1\""),
               p2 = text.find("\"game_id\":\"g2\""),
               p3 = text.find("\"game_id\":\"g3\""),
               p4 = text.find("\"game_id\":\"g4\"");
  ASSERT_NE(p4, std::string::npos);
  EXPECT_LT(p1, p2);
  EXPECT_LT(p2, p3);
  EXPECT_LT(p3, p4);

  // Import the merged set into one database: exporting that gives the same
  // bytes.
  const std::string combined = (dir_ / "combined.db").string();
  absl::StatusOr<ImportResult> imported = ImportExport(combined, text);
  ASSERT_TRUE(imported.ok()) << imported.status();
  EXPECT_EQ(imported->imported, 4);
  std::ostringstream again;
  ASSERT_TRUE(ExportDatabase(combined, {}, ExportFormat::kJson, again).ok());
  EXPECT_EQ(again.str(), text);
}

TEST_F(RecordSetTest, TheCliTakesSeveralDatabasesOrADirectory) {
  const std::string one = Database("one.db", {"g1"});
  const std::string two = Database("two.db", {"g2", "g3"});
  const std::string dir = (dir_ / "set").string();

  auto [code, out] = Cli(absl::StrCat("verify ", dir));
  EXPECT_EQ(code, 0) << out;
  EXPECT_THAT(out, HasSubstr("verified 3 games: 3 ok, 0 failed"));

  std::tie(code, out) = Cli(absl::StrCat("verify ", one, " ", two, " g3"));
  EXPECT_EQ(code, 0) << out;
  EXPECT_THAT(out, HasSubstr("verified 1 games: 1 ok"));

  std::tie(code, out) = Cli(absl::StrCat("replay ", one, " ", two, " g3"));
  EXPECT_EQ(code, 0) << out;
  EXPECT_THAT(out, HasSubstr("g3"));

  std::tie(code, out) = Cli(absl::StrCat("replay ", dir, " nowhere"));
  EXPECT_EQ(code, 1) << out;

  std::tie(code, out) = Cli(absl::StrCat("export ", dir, " --format text"));
  EXPECT_EQ(code, 0) << out;
  EXPECT_THAT(out, HasSubstr("g1"));
  EXPECT_THAT(out, HasSubstr("g3"));

  std::tie(code, out) = Cli("verify /no/such/file.db");
  EXPECT_EQ(code, 2) << out;
  EXPECT_THAT(out, HasSubstr("no such file"));
}

}  // namespace
}  // namespace cassino::verify
