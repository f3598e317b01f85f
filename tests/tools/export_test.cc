// Export and import: the JSON round trip is byte-identical, import verifies
// and refuses tampered games, and skips games already present.

#include <sqlite3.h>

#include <filesystem>
#include <future>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "recorder/recorder.h"
#include "tests/tools/record_fixture.h"
#include "tools/verify/interchange.h"

namespace cassino::verify {
namespace {

using ::cassino::tools_testing::FixtureOptions;
using ::cassino::tools_testing::PlayFixtureGame;
using ::cassino::tools_testing::WriteGame;
using ::testing::HasSubstr;

using ::testing::Not;

// The first column of the first row of `sql` on the database at `path`, as
// text ("" if none).
std::string QueryText(const std::string& path, const char* sql) {
  sqlite3* db = nullptr;
  sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
  sqlite3_stmt* stmt = nullptr;
  std::string out;
  if (sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr) == SQLITE_OK &&
      sqlite3_step(stmt) == SQLITE_ROW && sqlite3_column_text(stmt, 0)) {
    out = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
  }
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return out;
}

// Registers a bot account, waiting for the commit.
absl::Status AddAccount(recorder::Recorder& rec,
                        const recorder::BotAccountRow& row) {
  std::promise<absl::Status> done;
  rec.InsertAccount(row, [&done](absl::Status s) { done.set_value(s); });
  return done.get_future().get();
}

// The account of each seat of a game ("-" for none), "0:alpha 1:-".
std::string SeatAccounts(const std::string& db, const std::string& game_id) {
  return QueryText(
      db, absl::StrCat("SELECT group_concat(seat || ':' || "
                       "coalesce(account, '-'), ' ') FROM (SELECT * FROM "
                       "seats WHERE game_id = '",
                       game_id, "' ORDER BY seat)")
              .c_str());
}

class ExportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::path(::testing::TempDir()) /
           absl::StrCat(
               "export_test_", getpid(), "_",
               ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    source_ = (dir_ / "source.db").string();
    auto rec = recorder::Recorder::Open(source_, recorder::Durability::kNormal);
    ASSERT_TRUE(rec.ok());
    std::vector<std::pair<std::string, FixtureOptions>> games = {
        {"c-two", {.reject_every = 4}},
        {"a-three", {.rules = "players=3", .seed_index = 1}},
        {"b-partners", {.rules = "players=4 partnerships=on", .seed_index = 2}},
        {"d-explicit", {.seed_index = 3, .explicit_decks = true}},
        {"e-forfeit", {.seed_index = 4, .forfeit_after = 20}},
        {"f-aborted", {.seed_index = 5, .abort_after = 9}},
        {"g-running", {.seed_index = 6, .stop_after = 11}},
        {"h-account", {.seed_index = 7, .accounts = {"alpha", ""}}},
    };
    // Seat 0 of h-account is played by a registered bot account.
    ASSERT_TRUE(AddAccount(**rec, {.name = "alpha",
                                   .owner = "ann",
                                   .contact = "ann@example.org",
                                   .key_hash = std::string(64, 'a'),
                                   .created_us = 1'600'000'000'000'000,
                                   .key_us = 1'600'000'000'000'000})
                    .ok());
    for (const auto& [id, opt] : games) {
      ASSERT_TRUE(WriteGame(**rec, PlayFixtureGame(id, opt)).ok());
    }
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string Export(const std::string& db, ExportFormat format,
                     std::vector<std::string> ids = {}) {
    std::ostringstream out;
    absl::Status s = ExportDatabase(db, ids, format, out);
    EXPECT_TRUE(s.ok()) << s;
    return out.str();
  }

  std::filesystem::path dir_;
  std::string source_;
};

TEST_F(ExportTest, RoundTripIsByteIdentical) {
  const std::string first = Export(source_, ExportFormat::kJson);
  const std::string fresh = (dir_ / "fresh.db").string();
  absl::StatusOr<ImportResult> r = ImportExport(fresh, first);
  ASSERT_TRUE(r.ok()) << r.status();
  for (const std::string& m : r->messages) ADD_FAILURE() << m;
  EXPECT_EQ(r->imported, 8);
  EXPECT_EQ(Export(fresh, ExportFormat::kJson), first);
  EXPECT_THAT(first, HasSubstr("\"account\":\"alpha\""));

  // The seats' accounts came back; the fresh database did not know the
  // account, so it has it now without a key, revoked.
  EXPECT_EQ(SeatAccounts(fresh, "h-account"), "0:alpha 1:-");
  EXPECT_EQ(SeatAccounts(fresh, "c-two"), "0:- 1:-");
  EXPECT_EQ(QueryText(fresh,
                      "SELECT owner || '|' || key_hash || '|' || created_us "
                      "|| '|' || revoked_us FROM bot_accounts WHERE name = "
                      "'alpha'"),
            "||1700000000000007|1700000000000007");

  // The imported database verifies, columns included.
  absl::StatusOr<VerifyReport> v = VerifyDatabase(fresh, {});
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->ok, 8);
  EXPECT_TRUE(v->failures.empty());

  // Tallies are derived, not exported: import computed one per ended game
  // (the running game has none), identical to the source's.
  const char* kTallies =
      "SELECT group_concat(game_id || ' ' || events || ' ' || rounds || ' ' "
      "|| moves || ' ' || points || ' ' || conduct || ' ' || move_ms, ';') "
      "FROM (SELECT * FROM game_tallies ORDER BY game_id)";
  const std::string imported = QueryText(fresh, kTallies);
  EXPECT_EQ(imported, QueryText(source_, kTallies));
  EXPECT_EQ(QueryText(fresh, "SELECT count(*) FROM game_tallies"), "7");
  EXPECT_THAT(imported, Not(HasSubstr("g-running")));
  EXPECT_THAT(first, Not(HasSubstr("conduct")));
}

TEST_F(ExportTest, JsonShape) {
  const std::string text = Export(source_, ExportFormat::kJson);
  const nlohmann::json doc = nlohmann::json::parse(text);
  EXPECT_EQ(doc["format"], "cassino-record");
  EXPECT_EQ(doc["version"], 1);
  ASSERT_EQ(doc["games"].size(), 8u);
  EXPECT_EQ(doc["games"][0]["game_id"], "a-three");  // ordered by id
  // A seat's account only where it has one.
  for (const auto& g : doc["games"]) {
    for (size_t seat = 0; seat < g["seats"].size(); ++seat) {
      const bool has = g["game_id"] == "h-account" && seat == 0;
      EXPECT_EQ(g["seats"][seat].contains("account"), has)
          << g["game_id"] << " seat " << seat;
      if (has) {
        EXPECT_EQ(g["seats"][seat]["account"], "alpha");
      }
    }
  }
  EXPECT_THAT(text, ::testing::Not(HasSubstr("token")));
  // The seed only for finished games.
  for (const auto& g : doc["games"]) {
    if (g["status"] != "finished") {
      EXPECT_EQ(g["seed"], "") << g["game_id"];
    }
  }
  // Named games, in id order whatever the order asked.
  const nlohmann::json two = nlohmann::json::parse(
      Export(source_, ExportFormat::kJson, {"c-two", "a-three"}));
  ASSERT_EQ(two["games"].size(), 2u);
  EXPECT_EQ(two["games"][1]["game_id"], "c-two");
  std::ostringstream out;
  EXPECT_TRUE(absl::IsNotFound(
      ExportDatabase(source_, {"nope"}, ExportFormat::kJson, out)));
}

TEST_F(ExportTest, ImportRefusesATamperedGameAndSkipsExisting) {
  std::string text = Export(source_, ExportFormat::kJson);
  // Change a move of c-two: its chain no longer holds.
  const size_t line = text.rfind('\n', text.find("\"game_id\":\"c-two\""));
  ASSERT_NE(line, std::string::npos);
  const size_t move = text.find("take ", line);
  ASSERT_NE(move, std::string::npos);
  text.replace(move, 4, "tak3");
  const std::string fresh = (dir_ / "fresh.db").string();
  absl::StatusOr<ImportResult> r = ImportExport(fresh, text);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->refused, 1);
  EXPECT_EQ(r->imported, 7);
  ASSERT_EQ(r->messages.size(), 1u);
  EXPECT_THAT(r->messages[0], HasSubstr("refused c-two"));

  // Again: the six are skipped, c-two still refused.
  r = ImportExport(fresh, text);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->skipped, 7);
  EXPECT_EQ(r->refused, 1);
  EXPECT_EQ(r->imported, 0);

  EXPECT_FALSE(ImportExport(fresh, "{\"format\":\"x\"}").ok());
  EXPECT_FALSE(ImportExport(fresh, "not json").ok());
}

TEST_F(ExportTest, ImportKeepsAnAccountTheDatabaseKnows) {
  const std::string text = Export(source_, ExportFormat::kJson, {"h-account"});
  const std::string known = (dir_ / "known.db").string();
  {
    auto rec = recorder::Recorder::Open(known, recorder::Durability::kNormal);
    ASSERT_TRUE(rec.ok());
    ASSERT_TRUE(AddAccount(**rec, {.name = "alpha",
                                   .owner = "bea",
                                   .key_hash = std::string(64, 'b'),
                                   .created_us = 5,
                                   .key_us = 6})
                    .ok());
  }
  absl::StatusOr<ImportResult> r = ImportExport(known, text);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->imported, 1);
  EXPECT_EQ(SeatAccounts(known, "h-account"), "0:alpha 1:-");
  // The account is this database's own, untouched (key and all).
  EXPECT_EQ(QueryText(known,
                      "SELECT owner || '|' || key_hash || '|' || "
                      "coalesce(revoked_us, 'active') FROM bot_accounts"),
            "bea|" + std::string(64, 'b') + "|active");
}

TEST_F(ExportTest, ASeatAccountMustBeANonEmptyString) {
  const std::string text = Export(source_, ExportFormat::kJson, {"h-account"});
  const std::string fresh = (dir_ / "fresh.db").string();
  for (const char* bad : {"5", "\"\"", "null"}) {
    std::string changed = text;
    const size_t at = changed.find("\"alpha\"");
    ASSERT_NE(at, std::string::npos);
    changed.replace(at, 7, bad);
    absl::StatusOr<ImportResult> r = ImportExport(fresh, changed);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_THAT(r.status().message(),
                HasSubstr("seat 0: 'account' is not a non-empty string"))
        << bad;
  }
}

TEST_F(ExportTest, TextFormIsReadable) {
  const std::string text =
      Export(source_, ExportFormat::kText, {"c-two", "e-forfeit"});
  EXPECT_THAT(text, HasSubstr("[Game \"c-two\"]"));
  EXPECT_THAT(text, HasSubstr("[Seat1 \"bot1\"]"));
  EXPECT_THAT(text, HasSubstr("Round 1"));
  EXPECT_THAT(text, HasSubstr("  1. seat 0: "));
  EXPECT_THAT(text, HasSubstr("Score of round 1"));
  EXPECT_THAT(text, HasSubstr("rejected"));
  EXPECT_THAT(text, HasSubstr("Forfeit: seat "));
  EXPECT_THAT(text, HasSubstr("[Result \"side "));
  EXPECT_THAT(text, Not(HasSubstr("[Account")));
  const std::string with_account =
      Export(source_, ExportFormat::kText, {"h-account"});
  EXPECT_THAT(with_account, HasSubstr("[Seat0 \"bot0\"]\n[Account0 \"alpha\"]\n"
                                      "[Seat1 \"bot1\"]\n[Clock"));
}

}  // namespace
}  // namespace cassino::verify
