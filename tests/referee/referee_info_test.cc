// The referee's signing key: created beside the database on first start
// (mode 0600) and kept across restarts, or given as a file; published by
// GetRefereeInfo (no token); every game the referee ends, finished or
// aborted, is signed with it and verifies, and a new key leaves the
// records signed with the old one verifiable.

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "gtest/gtest.h"
#include "recorder/recorder.h"
#include "recorder/signature.h"
#include "tests/referee/test_referee.h"
#include "tools/health/health_check.h"
#include "tools/verify/verifier.h"

namespace cassino::testing {
namespace {

v1::GetRefereeInfoResponse RefereeInfo(TestReferee& referee) {
  v1::GetRefereeInfoResponse info;
  grpc::Status s = referee.stub().GetRefereeInfo(
      TestReferee::Context("").get(), v1::GetRefereeInfoRequest(), &info);
  EXPECT_TRUE(s.ok()) << s.error_message();
  return info;
}

// Plays a game to its end with random legal moves; returns its id.
std::string PlayOne(TestReferee& referee, const std::string& seed) {
  v1::CreateGameResponse game = referee.Create("standard", 2, seed);
  std::vector<std::thread> bots;
  for (int seat = 0; seat < 2; ++seat) {
    bots.emplace_back([&, seat] {
      PlayUnarySeat(referee.stub(), game.tokens(seat).token(), game.game_id(),
                    7 * seat + 3, nullptr, nullptr);
    });
  }
  for (std::thread& t : bots) t.join();
  EXPECT_EQ(referee.Info(game.game_id()).status(), v1::GAME_STATUS_FINISHED);
  return game.game_id();
}

std::string AbortOne(TestReferee& referee) {
  v1::CreateGameResponse game = referee.Create("standard", 2);
  v1::AbortGameRequest req;
  req.set_game_id(game.game_id());
  req.set_reason("test");
  v1::AbortGameResponse resp;
  grpc::Status s = referee.stub().AbortGame(
      TestReferee::Context(kAdminToken).get(), req, &resp);
  EXPECT_TRUE(s.ok()) << s.error_message();
  return game.game_id();
}

TEST(RefereeInfoTest, KeyIsCreatedPublishedKeptAndSignsEveryEndedGame) {
  const std::filesystem::path dir = TempDir();
  const std::filesystem::path db = dir / "cassino.db";
  std::string key;
  std::string finished, aborted;
  {
    TestReferee referee(db);
    EXPECT_TRUE(referee.server().signing_key_created());
    EXPECT_EQ(referee.server().signing_key_path(), db.string() + ".key");
    struct stat st {};
    ASSERT_EQ(::stat((db.string() + ".key").c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600);
    const v1::GetRefereeInfoResponse info = RefereeInfo(referee);
    key = info.signing_key();
    EXPECT_TRUE(recorder::IsPublicKeyHex(key)) << key;
    EXPECT_EQ(key, referee.server().recorder().signing_public_key());
    EXPECT_EQ(info.signature_scheme(), "cassino-record-signature-v1");
    // `cassino health --signing-key` asks the same call.
    absl::StatusOr<std::string> asked =
        health::SigningKey(referee.channel(), std::chrono::system_clock::now() +
                                                  std::chrono::seconds(5));
    ASSERT_TRUE(asked.ok()) << asked.status();
    EXPECT_EQ(*asked, key);
    finished = PlayOne(referee, SeedHex(3));
    aborted = AbortOne(referee);

    referee.Restart();
    EXPECT_FALSE(referee.server().signing_key_created());
    EXPECT_EQ(RefereeInfo(referee).signing_key(), key);
  }

  verify::VerifyOptions options;
  options.signatures.trusted_keys = {key};
  options.signatures.require_signed = true;
  absl::StatusOr<verify::VerifyReport> report =
      verify::VerifyDatabase(db.string(), options);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->games, 2);
  EXPECT_EQ(report->ok, 2) << (report->failures.empty()
                                   ? ""
                                   : report->failures[0].ToString());
  EXPECT_EQ(report->signatures[db.string()].signed_by[key], 2);

  // Another key (given as a file): old records keep verifying with theirs.
  const std::string other_file = (dir / "other.key").string();
  ASSERT_TRUE(recorder::SigningKey::Generate()->WriteFile(other_file).ok());
  std::string other;
  {
    TestReferee referee(db);
    referee.set_signing_key_path(other_file);
    referee.Restart();
    other = RefereeInfo(referee).signing_key();
    EXPECT_NE(other, key);
    PlayOne(referee, SeedHex(4));
  }
  options.signatures.trusted_keys = {key, other};
  report = verify::VerifyDatabase(db.string(), options);
  ASSERT_TRUE(report.ok());
  EXPECT_EQ(report->ok, 3);
  EXPECT_EQ(report->signatures[db.string()].signed_by[key], 2);
  EXPECT_EQ(report->signatures[db.string()].signed_by[other], 1);
  std::filesystem::remove_all(dir);
}

TEST(RefereeInfoTest, AMissingOrBadKeyFileRefusesToStart) {
  const std::filesystem::path dir = TempDir();
  service::ServerOptions options;
  options.listen = "127.0.0.1:0";
  options.db_path = (dir / "cassino.db").string();
  options.admin_token = kAdminToken;
  options.signing_key_path = (dir / "missing.key").string();
  EXPECT_EQ(service::RefereeServer::Start(options).status().code(),
            absl::StatusCode::kNotFound);
  std::ofstream(dir / "bad.key") << "not a key\n";
  options.signing_key_path = (dir / "bad.key").string();
  EXPECT_EQ(service::RefereeServer::Start(options).status().code(),
            absl::StatusCode::kInvalidArgument);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace cassino::testing
