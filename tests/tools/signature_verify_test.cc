// Signed records (recorder/signature.h) under `cassino verify`: a signed
// game verifies and names its key; one byte changed after signing is caught
// and names the game; a foreign key is refused under --trusted-keys; an
// unsigned record verifies as unsigned; a new key leaves old records
// verifiable; export and import keep the signatures.

#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "recorder/payload.h"
#include "recorder/recorder.h"
#include "recorder/signature.h"
#include "tests/tools/record_fixture.h"
#include "tools/verify/interchange.h"
#include "tools/verify/verifier.h"

namespace cassino::verify {
namespace {

using ::cassino::tools_testing::ExecSql;
using ::cassino::tools_testing::FixtureOptions;
using ::cassino::tools_testing::PlayFixtureGame;
using ::cassino::tools_testing::Rechain;
using ::cassino::tools_testing::UnpackToRows;
using ::cassino::tools_testing::WriteGame;
using ::testing::HasSubstr;

class SignatureVerifyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::path(::testing::TempDir()) /
           absl::StrCat(
               "signature_verify_test_", getpid(), "_",
               ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    path_ = (dir_ / "games.db").string();
    key_a_ = *recorder::SigningKey::Generate();
    key_b_ = *recorder::SigningKey::Generate();
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // Writes the games through a recorder holding `key` (none: unsigned).
  void Write(const std::vector<std::pair<std::string, FixtureOptions>>& games,
             const recorder::SigningKey* key, const std::string& path = "") {
    recorder::RecorderOptions options;
    if (key != nullptr) {
      // (Through a key file, as the referee reads it.)
      const std::string file =
          (dir_ / absl::StrCat("key", ++keys_written_)).string();
      ASSERT_TRUE(key->WriteFile(file).ok());
      options.signing_key = *recorder::SigningKey::ReadFile(file);
    }
    auto rec = recorder::Recorder::Open(path.empty() ? path_ : path, options);
    ASSERT_TRUE(rec.ok()) << rec.status();
    for (const auto& [id, opt] : games) {
      ASSERT_TRUE(WriteGame(**rec, PlayFixtureGame(id, opt)).ok());
    }
  }
  VerifyReport Verify(SignaturePolicy policy = {}) {
    VerifyOptions options;
    options.signatures = std::move(policy);
    absl::StatusOr<VerifyReport> r = VerifyDatabase(path_, options);
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() ? *r : VerifyReport{};
  }
  // Game g's events, from its rows (after UnpackToRows).
  std::vector<recorder::Event> Events() {
    auto rec = recorder::Recorder::Open(path_, recorder::Durability::kNormal);
    EXPECT_TRUE(rec.ok()) << rec.status();
    if (!rec.ok()) return {};
    absl::StatusOr<recorder::GameRecord> record = (*rec)->Load("g");
    EXPECT_TRUE(record.ok()) << record.status();
    if (!record.ok()) return {};
    return std::move(record->events);
  }
  std::string Payload(int64_t seq) { return Events().at(seq).payload; }
  int64_t LastSeq() { return static_cast<int64_t>(Events().size()) - 1; }
  int64_t FirstSeqOf(recorder::EventKind kind) {
    for (const recorder::Event& e : Events()) {
      if (e.kind == kind) return e.seq;
    }
    return -1;
  }
  // Sets game g's event `seq` payload and re-chains every hash, as a forger
  // with SQLite would.
  void Forge(int64_t seq, const std::string& payload) {
    EXPECT_EQ(
        ExecSql(path_, absl::StrCat("UPDATE events SET payload = '",
                                    absl::StrReplaceAll(payload, {{"'", "''"}}),
                                    "' WHERE game_id = 'g' AND seq = ", seq)),
        "");
    Rechain(path_, "g");
  }
  std::pair<int, std::string> Cli(const std::string& args) {
    const std::string out = (dir_ / "out.txt").string();
    const int status =
        std::system(absl::StrCat(CASSINO_CLI_PATH, " verify --quiet ", args,
                                 " > ", out, " 2>&1")
                        .c_str());
    std::ifstream in(out);
    std::string text((std::istreambuf_iterator<char>(in)),
                     std::istreambuf_iterator<char>());
    return {WEXITSTATUS(status), text};
  }
  std::string TrustedFile(const std::vector<std::string>& lines) {
    const std::string file = (dir_ / "trusted.txt").string();
    std::ofstream out(file);
    for (const std::string& line : lines) out << line << "\n";
    return file;
  }

  std::filesystem::path dir_;
  std::string path_;
  recorder::SigningKey key_a_ = *recorder::SigningKey::Generate();
  recorder::SigningKey key_b_ = *recorder::SigningKey::Generate();
  int keys_written_ = 0;
};

FixtureOptions Finished() {
  FixtureOptions o;
  o.reject_every = 4;
  return o;
}
FixtureOptions Aborted() {
  FixtureOptions o;
  o.abort_after = 6;
  return o;
}
FixtureOptions Running() {
  FixtureOptions o;
  o.stop_after = 5;
  return o;
}

TEST_F(SignatureVerifyTest, SignedGamesVerifyAndNameTheirKey) {
  Write({{"g", Finished()}, {"h", Aborted()}, {"r", Running()}}, &key_a_);
  VerifyReport r = Verify();
  EXPECT_EQ(r.games, 3);
  EXPECT_EQ(r.ok, 3) << (r.failures.empty() ? "" : r.failures[0].ToString());
  const SignatureCounts& counts = r.signatures[path_];
  ASSERT_EQ(counts.signed_by.size(), 1u);
  EXPECT_EQ(counts.signed_by.at(key_a_.public_key()), 2);
  EXPECT_EQ(counts.unsigned_games, 0);
  EXPECT_EQ(counts.running, 1);
  // Trusted, and required.
  r = Verify({{key_a_.public_key()}, true});
  EXPECT_EQ(r.ok, 3);

  auto [code, text] = Cli(path_);
  EXPECT_EQ(code, 0) << text;
  EXPECT_THAT(text, HasSubstr(absl::StrCat(path_, ": 2 games signed by key ",
                                           key_a_.public_key())));
  EXPECT_THAT(text, HasSubstr(": 1 running games, not signed yet"));
  EXPECT_THAT(text, HasSubstr("verified 3 games: 3 ok, 0 failed"));
}

// A reject's reason is free text the replay cannot check: only the
// signature catches a re-chained change to it.
TEST_F(SignatureVerifyTest, OneChangedByteAfterSigningIsCaught) {
  struct Case {
    const char* name;
    std::function<void()> forge;
  };
  const std::vector<Case> cases = {
      {"a reject's reason",
       [&] {
         const int64_t seq = FirstSeqOf(recorder::EventKind::kReject);
         std::string p = Payload(seq);
         const size_t at = p.find("\"reason\":\"") + 10;
         p[at] ^= 0x01;
         Forge(seq, p);
       }},
      {"the create payload's label",
       [&] {
         // The games row too, so that only the signature disagrees.
         ExecSql(path_, "UPDATE games SET label = 'x' || label");
         std::string p = Payload(0);
         const size_t at = p.find("\"label\":\"") + 9;
         p.insert(at, "x");
         Forge(0, p);
       }},
      {"the signature",
       [&] {
         std::string p = Payload(LastSeq());
         const size_t at = p.find("\"sig\":\"") + 7;
         p[at] = p[at] == '0' ? '1' : '0';
         Forge(LastSeq(), p);
       }},
      {"the key",
       [&] {
         std::string p = Payload(LastSeq());
         Forge(LastSeq(), absl::StrReplaceAll(
                              p, {{key_a_.public_key(), key_b_.public_key()}}));
       }},
      {"the end payload's detail",
       [&] {
         std::string p = Payload(LastSeq());
         const size_t at = p.find("\"detail\":\"") + 10;
         p[at] ^= 0x01;
         Forge(LastSeq(), p);
       }},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    std::filesystem::remove(path_);
    Write({{"g", Finished()}}, &key_a_);
    ASSERT_EQ(UnpackToRows(path_, "g"), "");
    ASSERT_EQ(Verify().ok, 1);
    c.forge();
    VerifyReport r = Verify();
    ASSERT_EQ(r.failures.size(), 1u);
    EXPECT_EQ(r.failures[0].game_id, "g");
    auto [code, text] = Cli(path_);
    EXPECT_EQ(code, 1) << text;
    EXPECT_THAT(text, HasSubstr("FAIL g "));
  }
  // The first three are failures of the signature itself.
  std::filesystem::remove(path_);
  Write({{"g", Finished()}}, &key_a_);
  ASSERT_EQ(UnpackToRows(path_, "g"), "");
  cases[0].forge();
  VerifyReport r = Verify();
  ASSERT_EQ(r.failures.size(), 1u);
  EXPECT_THAT(r.failures[0].what,
              HasSubstr("the signature does not verify with its key"));
  EXPECT_EQ(r.failures[0].seq, LastSeq());
}

TEST_F(SignatureVerifyTest, ForeignKeyIsRefusedUnderTrustedKeys) {
  Write({{"g", Finished()}}, &key_b_);
  VerifyReport r = Verify({{key_a_.public_key()}, false});
  ASSERT_EQ(r.failures.size(), 1u);
  EXPECT_EQ(r.failures[0].game_id, "g");
  EXPECT_THAT(r.failures[0].what, HasSubstr("not trusted"));
  EXPECT_EQ(r.failures[0].recorded, key_b_.public_key());

  auto [code, text] = Cli(absl::StrCat(
      "--trusted-keys ",
      TrustedFile({"# referee A", "", key_a_.public_key() + "  referee-a"}),
      " ", path_));
  EXPECT_EQ(code, 1) << text;
  EXPECT_THAT(text, HasSubstr("FAIL g "));
  EXPECT_THAT(text, HasSubstr("not trusted"));
  std::tie(code, text) = Cli(
      absl::StrCat("--trusted-keys ",
                   TrustedFile({key_a_.public_key(),
                                absl::AsciiStrToUpper(key_b_.public_key())}),
                   " ", path_));
  EXPECT_EQ(code, 0) << text;
  // A file that is not a key list is a usage error.
  std::tie(code, text) =
      Cli(absl::StrCat("--trusted-keys ", TrustedFile({"nope"}), " ", path_));
  EXPECT_EQ(code, 2) << text;
  EXPECT_THAT(text, HasSubstr("line 1"));
}

TEST_F(SignatureVerifyTest, UnsignedRecordVerifiesAsUnsigned) {
  Write({{"g", Finished()}, {"h", Aborted()}}, nullptr);
  VerifyReport r = Verify({{key_a_.public_key()}, false});
  EXPECT_EQ(r.ok, 2);
  EXPECT_EQ(r.signatures[path_].unsigned_games, 2);
  EXPECT_TRUE(r.signatures[path_].signed_by.empty());
  auto [code, text] = Cli(path_);
  EXPECT_EQ(code, 0) << text;
  EXPECT_THAT(text, HasSubstr(": 2 ended games unsigned"));

  r = Verify({{}, true});
  ASSERT_EQ(r.failures.size(), 2u);
  EXPECT_THAT(r.failures[0].what, HasSubstr("unsigned"));
  std::tie(code, text) = Cli(absl::StrCat("--require-signed ", path_));
  EXPECT_EQ(code, 1) << text;
}

TEST_F(SignatureVerifyTest, RotatedKeyLeavesOldRecordsVerifiable) {
  Write({{"g1", Finished()}}, nullptr);
  Write({{"g2", Finished()}}, &key_a_);
  Write({{"g3", Aborted()}}, &key_b_);
  VerifyReport r = Verify();
  EXPECT_EQ(r.ok, 3);
  const SignatureCounts& counts = r.signatures[path_];
  EXPECT_EQ(counts.signed_by.at(key_a_.public_key()), 1);
  EXPECT_EQ(counts.signed_by.at(key_b_.public_key()), 1);
  EXPECT_EQ(counts.unsigned_games, 1);
  EXPECT_EQ(Verify({{key_a_.public_key(), key_b_.public_key()}, false}).ok, 3);
  r = Verify({{key_b_.public_key()}, false});
  ASSERT_EQ(r.failures.size(), 1u);
  EXPECT_EQ(r.failures[0].game_id, "g2");
}

TEST_F(SignatureVerifyTest, ExportAndImportKeepTheSignatures) {
  Write({{"g", Finished()}, {"h", Aborted()}}, &key_a_);
  std::ostringstream json;
  ASSERT_TRUE(ExportDatabase(path_, {}, ExportFormat::kJson, json).ok());
  EXPECT_THAT(json.str(), HasSubstr(key_a_.public_key()));
  const std::string copy = (dir_ / "copy.db").string();
  absl::StatusOr<ImportResult> imported = ImportExport(copy, json.str());
  ASSERT_TRUE(imported.ok()) << imported.status();
  EXPECT_EQ(imported->imported, 2);
  absl::StatusOr<VerifyReport> r = VerifyDatabase(copy, {});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->ok, 2);
  EXPECT_EQ(r->signatures[copy].signed_by.at(key_a_.public_key()), 2);

  // A signature changed in the export is refused at import.
  std::string forged = json.str();
  const size_t at = forged.find("\\\"sig\\\":\\\"") + 10;
  forged[at] = forged[at] == '0' ? '1' : '0';
  const std::string other = (dir_ / "other.db").string();
  imported = ImportExport(other, forged);
  ASSERT_TRUE(imported.ok()) << imported.status();
  EXPECT_EQ(imported->refused, 1);
}

}  // namespace
}  // namespace cassino::verify
