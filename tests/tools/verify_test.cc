// The record verifier: good records pass; every kind of tampering is found
// and named; corrupt files never crash it.

#include <sqlite3.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "recorder/recorder.h"
#include "rules/adjudicator.h"
#include "rules/legal_moves.h"
#include "tests/recorder/sql_util.h"
#include "tests/tools/record_fixture.h"
#include "tools/verify/verifier.h"

namespace cassino::verify {
namespace {

using ::cassino::tools_testing::ExecSql;
using ::cassino::tools_testing::FixtureOptions;
using ::cassino::tools_testing::FixtureSeed;
using ::cassino::tools_testing::PlayFixtureGame;
using ::cassino::tools_testing::Rechain;
using ::cassino::tools_testing::UnpackToRows;
using ::cassino::tools_testing::WriteGame;
using ::testing::HasSubstr;

class VerifyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::path(::testing::TempDir()) /
           absl::StrCat(
               "verify_test_", getpid(), "_",
               ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    path_ = (dir_ / "games.db").string();
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  void Write(const std::vector<std::pair<std::string, FixtureOptions>>& games) {
    auto rec = recorder::Recorder::Open(path_, recorder::Durability::kNormal);
    ASSERT_TRUE(rec.ok()) << rec.status();
    for (const auto& [id, opt] : games) {
      ASSERT_TRUE(WriteGame(**rec, PlayFixtureGame(id, opt)).ok());
    }
  }
  // One two-player finished game "g" with rejects, its events as `events`
  // rows (the layout of a game that ended before schema version 5), which
  // the tampering tests edit in SQL.
  void WriteOne() {
    WritePacked();
    ASSERT_EQ(UnpackToRows(path_, "g"), "");
  }
  // The same game as the referee leaves it: its events in one event pack.
  void WritePacked() {
    FixtureOptions o;
    o.reject_every = 5;
    Write({{"g", o}});
  }
  // The integer the query `sql` gives on the test's database.
  int64_t CountOf(const std::string& sql) {
    return recorder::testing::QueryInt(path_, sql);
  }
  // Applies `edit` to game g's event pack, as a forger with SQLite would.
  void EditPack(const std::function<void(std::string&)>& edit) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path_.c_str(), &db), SQLITE_OK);
    sqlite3_stmt* q = nullptr;
    sqlite3_prepare_v2(db, "SELECT pack FROM event_packs WHERE game_id = 'g'",
                       -1, &q, nullptr);
    ASSERT_EQ(sqlite3_step(q), SQLITE_ROW);
    std::string pack(static_cast<const char*>(sqlite3_column_blob(q, 0)),
                     sqlite3_column_bytes(q, 0));
    sqlite3_finalize(q);
    edit(pack);
    sqlite3_prepare_v2(db,
                       "UPDATE event_packs SET pack = ?1 WHERE game_id = 'g'",
                       -1, &q, nullptr);
    sqlite3_bind_blob(q, 1, pack.data(), static_cast<int>(pack.size()),
                      SQLITE_TRANSIENT);
    EXPECT_EQ(sqlite3_step(q), SQLITE_DONE);
    sqlite3_finalize(q);
    sqlite3_close(db);
  }
  VerifyReport Verify() {
    absl::StatusOr<VerifyReport> r = VerifyDatabase(path_, {});
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() ? *r : VerifyReport{};
  }
  // The single failure of a one-game database.
  Failure OnlyFailure() {
    VerifyReport r = Verify();
    EXPECT_EQ(r.failures.size(), 1u);
    return r.failures.empty() ? Failure{} : r.failures[0];
  }
  // Sets event `seq`'s payload, re-chains the hashes (so that only the
  // content is wrong, as a forger would leave it) and returns the single
  // failure.
  Failure FailureAfterEdit(int64_t seq, const std::string& payload) {
    SetPayload(seq, payload);
    Rechain(path_, "g");
    return OnlyFailure();
  }
  // The seq of the first event of `kind` in game g (after `after`).
  int64_t SeqOf(const std::string& kind, int64_t after = 0) {
    auto rec = recorder::Recorder::Open(path_, recorder::Durability::kNormal);
    auto record = (*rec)->Load("g");
    for (const recorder::Event& e : record->events) {
      if (e.seq > after && recorder::EventKindName(e.kind) == kind) {
        return e.seq;
      }
    }
    return -1;
  }
  std::string Payload(int64_t seq) {
    auto rec = recorder::Recorder::Open(path_, recorder::Durability::kNormal);
    return (*rec)->Load("g")->events[seq].payload;
  }
  void SetPayload(int64_t seq, const std::string& payload) {
    std::string quoted;
    for (char c : payload) {
      quoted.push_back(c);
      if (c == '\'') quoted.push_back('\'');
    }
    EXPECT_EQ(
        ExecSql(path_, absl::StrCat("UPDATE events SET payload = '", quoted,
                                    "' WHERE game_id = 'g' AND "
                                    "seq = ",
                                    seq)),
        "");
  }

  std::filesystem::path dir_;
  std::string path_;
};

TEST_F(VerifyTest, GoodRecordsOfEveryShapeVerify) {
  std::vector<std::pair<std::string, FixtureOptions>> games;
  auto add = [&](const std::string& id, FixtureOptions o) {
    o.seed_index = static_cast<uint32_t>(games.size());
    games.emplace_back(id, o);
  };
  for (int i = 0; i < 5; ++i) add(absl::StrCat("two-", i), {});
  add("three", {.rules = "players=3"});
  add("four", {.rules = "players=4"});
  add("partners", {.rules = "players=4 partnerships=on"});
  // Variants whose score items have no column of their own in the tally.
  add("tablanette", {.rules = "tablanette"});
  add("callabra", {.rules = "callabra"});
  add("six", {.rules = "california players=6"});
  add("explicit", {.explicit_decks = true});
  add("rejects", {.reject_every = 3});
  add("forfeit-time", {.forfeit_after = 30});
  add("forfeit-illegal", {.forfeit_after = 7, .forfeit_illegal = true});
  add("forfeit-partners",
      {.rules = "players=4 partnerships=on", .forfeit_after = 60});
  add("aborted", {.abort_after = 20});
  add("running", {.stop_after = 25});
  // A person's seat (issue #26): marked in the create event, and the games
  // after it (verified with the same verifier) are not marked.
  add("human", {.humans = {false, true}});
  add("after-human", {});
  Write(games);
  VerifyReport r = Verify();
  for (const Failure& f : r.failures) ADD_FAILURE() << f.ToString();
  EXPECT_EQ(r.games, static_cast<int64_t>(games.size()));
  EXPECT_EQ(r.ok, r.games);

  // Named games, and an unknown one.
  absl::StatusOr<VerifyReport> named =
      VerifyDatabase(path_, {.games = {"three", "nope"}, .progress = {}});
  ASSERT_TRUE(named.ok());
  EXPECT_EQ(named->games, 2);
  ASSERT_EQ(named->failures.size(), 1u);
  EXPECT_EQ(named->failures[0].game_id, "nope");
  EXPECT_THAT(named->failures[0].what, HasSubstr("no such game"));
}

// Issue #23: explicit decks of a reduced pack hold exactly its cards, and
// verify reads them (and, for a game still running, the deal events'
// decks) against the rules' pack; they were read as 52 cards.
TEST_F(VerifyTest, ReducedPacksVerifyFromExplicitDecksAndDeals) {
  std::vector<std::pair<std::string, FixtureOptions>> games;
  auto add = [&](const std::string& id, FixtureOptions o) {
    o.seed_index = static_cast<uint32_t>(games.size());
    games.emplace_back(id, o);
  };
  add("diamond", {.rules = "diamond", .explicit_decks = true});
  add("five", {.rules = "five_players", .explicit_decks = true});
  add("remove",
      {.rules = "remove=2H+2D+2C+2S+3H+3D+3C+3S", .explicit_decks = true});
  add("diamond-running", {.rules = "diamond", .stop_after = 12});
  Write(games);
  VerifyReport r = Verify();
  for (const Failure& f : r.failures) ADD_FAILURE() << f.ToString();
  EXPECT_EQ(r.games, 4);
  EXPECT_EQ(r.ok, r.games);
}

// A database of more than a few hundred games is cut into ranges of game
// ids that the threads take in turn: every game is verified once, and the
// failures come in game id order whatever the thread count.
TEST_F(VerifyTest, ManyGamesAreSplitIntoRangesWithoutLossOrReordering) {
  WriteOne();
  // 1,100 copies of g under other ids: each fails, since its create event
  // (which the chain covers) still names g.
  std::string sql =
      "CREATE TEMP TABLE n AS WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL "
      "SELECT i + 1 FROM c WHERE i < 1099) SELECT printf('c%04d', i) AS id "
      "FROM c;";
  for (const char* table : {"games", "seats", "events", "game_tallies"}) {
    absl::StrAppend(&sql, "CREATE TEMP TABLE x AS SELECT n.id AS new_id, ",
                    table, ".* FROM n, ", table, " WHERE game_id = 'g';",
                    "UPDATE x SET game_id = new_id;",
                    "ALTER TABLE x DROP COLUMN new_id;", "INSERT INTO ", table,
                    " SELECT * FROM x; DROP TABLE x;");
  }
  ASSERT_EQ(ExecSql(path_, sql), "");
  std::vector<std::string> first;
  for (int threads : {1, 2, 3}) {
    absl::StatusOr<VerifyReport> r =
        VerifyDatabase(path_, {.games = {}, .threads = threads});
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(r->games, 1101);
    EXPECT_EQ(r->ok, 1);
    ASSERT_EQ(r->failures.size(), 1100u);
    std::vector<std::string> ids;
    for (const Failure& f : r->failures) {
      EXPECT_THAT(f.what, HasSubstr("disagree with the create event on "
                                    "'game_id'"));
      ids.push_back(f.game_id);
    }
    EXPECT_EQ(ids.front(), "c0000");
    EXPECT_EQ(ids.back(), "c1099");
    EXPECT_TRUE(std::is_sorted(ids.begin(), ids.end()));
    EXPECT_EQ(std::adjacent_find(ids.begin(), ids.end()), ids.end());
    if (first.empty()) first = ids;
    EXPECT_EQ(ids, first) << threads << " threads";
  }
}

TEST_F(VerifyTest, AlteredMovePayloadBreaksTheChain) {
  WriteOne();
  const int64_t seq = SeqOf("move", 5);
  std::string p = Payload(seq);
  p.replace(p.find("\"elapsed_ms\":") + 13, 1, "9");
  SetPayload(seq, p);
  Failure f = OnlyFailure();
  EXPECT_EQ(f.seq, seq);
  EXPECT_THAT(f.what, HasSubstr("hash chain broken"));
  // Found before the replay: the failure names the event, not a round and
  // turn it does not know (issue #22, B7: it said "round 0 turn 0").
  EXPECT_FALSE(f.in_play);
  EXPECT_THAT(f.ToString(),
              HasSubstr(absl::StrCat("FAIL g (event seq ", seq, ")")));
}

TEST_F(VerifyTest, RechainedIllegalMoveIsCaughtByTheEngine) {
  WriteOne();
  const int64_t seq = SeqOf("move", 5);
  std::string p = Payload(seq);
  // Replay the previous move again: its card has already been played.
  const std::string before = Payload(SeqOf("move", 3));
  auto move_text = [](const std::string& payload) {
    const size_t at = payload.find("\"move\":\"") + 8;
    return std::make_pair(at, payload.find('"', at) - at);
  };
  auto [from, length] = move_text(before);
  auto [at, len] = move_text(p);
  p.replace(at, len, before.substr(from, length));
  Failure f = FailureAfterEdit(seq, p);
  EXPECT_EQ(f.seq, seq);
  EXPECT_THAT(f.what, HasSubstr("illegal move"));
}

TEST_F(VerifyTest, RechainedMoveOutOfTurnIsCaught) {
  WriteOne();
  const int64_t seq = SeqOf("move", 5);
  std::string p = Payload(seq);
  const size_t at = p.find("\"seat\":") + 7;
  p[at] = p[at] == '0' ? '1' : '0';
  Failure f = FailureAfterEdit(seq, p);
  EXPECT_EQ(f.seq, seq);
  EXPECT_THAT(f.what, HasSubstr("not to move"));
}

// A payload is read only in the canonical form the recorder writes
// (recorder/payload.h): the same values spelled otherwise, re-hashed so
// that the chain holds, are refused and named by their event.
TEST_F(VerifyTest, NonCanonicalPayloadsAreNamedByTheirEvent) {
  WriteOne();
  const int64_t seq = SeqOf("move", 5);
  const std::string canonical = Payload(seq);
  nlohmann::json j = nlohmann::json::parse(canonical);
  // The same fields, spaced and in another order.
  const std::string spaced = absl::StrCat(
      "{ \"turn\": ", j["turn"].dump(), ", \"seat\": ", j["seat"].dump(),
      ", \"round\": ", j["round"].dump(), ", \"move\": ", j["move"].dump(),
      ", \"elapsed_ms\": ", j["elapsed_ms"].dump(), " }");
  // A leading zero; an escaped letter; an extra key.
  std::string zero = canonical;
  zero.replace(zero.find("\"turn\":") + 7, 0, "0");
  std::string escaped = canonical;
  escaped.replace(escaped.find("\"move\":\"") + 8, 1, "\\u0074");
  std::string extra = canonical;
  extra.insert(extra.size() - 1, ",\"x\":1");
  for (const std::string& p : {spaced, zero, escaped, extra}) {
    SCOPED_TRACE(p);
    Failure f = FailureAfterEdit(seq, p);
    EXPECT_EQ(f.seq, seq);
    EXPECT_THAT(f.what, HasSubstr("the move payload is not in canonical form"));
    EXPECT_EQ(f.recorded, p);
  }
  // In the canonical spelling, a wrong seat is the engine's finding.
  std::string p = canonical;
  const size_t at = p.find("\"seat\":") + 7;
  p[at] = p[at] == '0' ? '1' : '0';
  Failure f = FailureAfterEdit(seq, p);
  EXPECT_EQ(f.seq, seq);
  EXPECT_EQ(f.what, "a move by a seat not to move");

  // A round and an end payload with their keys in another order (equal as
  // JSON to what the engine computes).
  SetPayload(seq, canonical);
  for (const char* kind : {"round", "end"}) {
    SCOPED_TRACE(kind);
    const int64_t at_seq = SeqOf(kind);
    const std::string before = Payload(at_seq);
    nlohmann::ordered_json reordered = nlohmann::ordered_json::object();
    const nlohmann::json sorted = nlohmann::json::parse(before);
    for (auto it = sorted.rbegin(); it != sorted.rend(); ++it) {
      reordered[it.key()] = *it;
    }
    Failure r = FailureAfterEdit(at_seq, reordered.dump());
    EXPECT_EQ(r.seq, at_seq);
    EXPECT_THAT(r.what,
                HasSubstr(absl::StrCat("the ", kind,
                                       " payload is not in canonical form")));
    SetPayload(at_seq, before);
  }
  Rechain(path_, "g");
  EXPECT_TRUE(Verify().failures.empty());
}

// The referee packs an ended game's events (schema 5): the pack verifies
// exactly as the rows it came from, and tampering with it is named alike.
TEST_F(VerifyTest, PackedGameVerifiesAndItsTamperingIsNamed) {
  WritePacked();
  EXPECT_EQ(CountOf("SELECT count(*) FROM events"), 0);
  EXPECT_EQ(CountOf("SELECT count(*) FROM event_packs"), 1);
  EXPECT_TRUE(Verify().failures.empty());

  // One byte of a move's payload, changed inside the pack.
  const int64_t seq = SeqOf("move", 5);
  const std::string payload = Payload(seq);
  EditPack([&](std::string& pack) {
    const size_t at = pack.find(payload);
    ASSERT_NE(at, std::string::npos);
    const size_t digit = at + payload.find("\"elapsed_ms\":") + 13;
    pack[digit] = pack[digit] == '9' ? '8' : '9';
  });
  Failure f = OnlyFailure();
  EXPECT_EQ(f.seq, seq);
  EXPECT_THAT(f.what, HasSubstr("hash chain broken at this move event"));
}

TEST_F(VerifyTest, CorruptPackIsNamed) {
  WritePacked();
  EditPack([](std::string& pack) { pack.resize(pack.size() - 40); });
  Failure f = OnlyFailure();
  EXPECT_EQ(f.game_id, "g");
  EXPECT_GT(f.seq, 100);  // the last event, named by its seq
  EXPECT_THAT(f.what, HasSubstr("the event pack is corrupt at event"));
  EXPECT_THAT(f.what, HasSubstr("run past the end"));

  EditPack([](std::string& pack) { pack[0] = '\x07'; });
  EXPECT_THAT(OnlyFailure().what, HasSubstr("format version 7"));
}

TEST_F(VerifyTest, PackCountAndDoubleStorageAreCaught) {
  WritePacked();
  ExecSql(path_, "UPDATE event_packs SET events = events + 1");
  EXPECT_THAT(OnlyFailure().what,
              HasSubstr("the event pack's events column says"));
  ExecSql(path_, "UPDATE event_packs SET events = events - 1");
  EXPECT_TRUE(Verify().failures.empty());
  // Only an ended game's events are packed.
  ExecSql(path_, "UPDATE games SET status = 'running'");
  EXPECT_EQ(OnlyFailure().what, "the events of a running game are packed");
  ExecSql(path_, "UPDATE games SET status = 'finished'");
  EXPECT_TRUE(Verify().failures.empty());
  // A row beside the pack: two versions of the record.
  ExecSql(path_, "INSERT INTO events VALUES ('g', 0, 'create', 1, '{}', '')");
  EXPECT_THAT(OnlyFailure().what,
              HasSubstr("both event rows and an event pack"));
}

TEST_F(VerifyTest, AlteredHashIsCaught) {
  WriteOne();
  ExecSql(path_, "UPDATE events SET hash = '" + std::string(64, 'a') +
                     "' WHERE game_id = 'g' AND seq = 4");
  Failure f = OnlyFailure();
  EXPECT_EQ(f.seq, 4);
  EXPECT_THAT(f.what, HasSubstr("hash chain broken"));
  EXPECT_EQ(f.recorded, std::string(64, 'a'));
}

// Hashes are compared as hex without regard to case, every digit counts.
TEST_F(VerifyTest, UpperCaseHashesVerifyAndEveryDigitCounts) {
  WriteOne();
  ExecSql(path_, "UPDATE events SET hash = upper(hash) WHERE game_id = 'g'");
  VerifyReport r = Verify();
  EXPECT_EQ(r.ok, 1) << (r.failures.empty() ? "" : r.failures[0].ToString());
  // The last digit of event 3's hash, changed (upper case kept elsewhere).
  ExecSql(path_,
          "UPDATE events SET hash = substr(hash, 1, 63) || CASE "
          "substr(hash, 64) WHEN '0' THEN '1' ELSE '0' END "
          "WHERE game_id = 'g' AND seq = 3");
  Failure f = OnlyFailure();
  EXPECT_EQ(f.seq, 3);
  EXPECT_THAT(f.what, HasSubstr("hash chain broken"));
}

TEST_F(VerifyTest, DeletedEventIsCaught) {
  WriteOne();
  ExecSql(path_, "DELETE FROM events WHERE game_id = 'g' AND seq = 7");
  Failure f = OnlyFailure();
  EXPECT_EQ(f.seq, 8);
  EXPECT_THAT(f.what, HasSubstr("missing"));
}

TEST_F(VerifyTest, RechainedDeletionIsCaughtByTheReplay) {
  WriteOne();
  const int64_t seq = SeqOf("move", 5);
  ExecSql(path_, absl::StrCat("DELETE FROM events WHERE game_id = 'g' AND "
                              "seq = ",
                              seq,
                              "; UPDATE events SET seq = seq - 1 WHERE "
                              "game_id = 'g' AND seq > ",
                              seq));
  Rechain(path_, "g");
  Failure f = OnlyFailure();
  EXPECT_EQ(f.seq, seq);  // the next event no longer fits the game
  EXPECT_FALSE(f.what.empty());
}

TEST_F(VerifyTest, SwappedDeckIsCaught) {
  WriteOne();
  std::string p = Payload(1);
  ASSERT_THAT(p, HasSubstr("\"deck\":\""));
  const size_t at = p.find("\"deck\":\"") + 8;
  std::swap(p[at], p[at + 3]);  // swap the first two cards' ranks
  std::swap(p[at + 1], p[at + 4]);
  Failure f = FailureAfterEdit(1, p);
  EXPECT_EQ(f.seq, 1);
  EXPECT_THAT(f.what, HasSubstr("deck of round 1 differs"));
}

TEST_F(VerifyTest, WrongRevealedSeedIsCaught) {
  WriteOne();
  const int64_t seq = SeqOf("end");
  ASSERT_GT(seq, 0);
  std::string p = Payload(seq);
  const size_t at = p.find("\"seed\":\"") + 8;
  p[at] = p[at] == 'f' ? '0' : 'f';
  Failure f = FailureAfterEdit(seq, p);
  EXPECT_EQ(f.seq, seq);
  EXPECT_THAT(f.what, HasSubstr("does not hash to the commitment"));
}

TEST_F(VerifyTest, WrongSeedColumnIsCaught) {
  WriteOne();
  ExecSql(path_, "UPDATE games SET seed = '" + std::string(64, '0') + "'");
  Failure f = OnlyFailure();
  EXPECT_EQ(f.seq, -1);
  EXPECT_THAT(f.what, HasSubstr("seed column"));
}

TEST_F(VerifyTest, AlteredRoundPayloadIsCaught) {
  WriteOne();
  const int64_t seq = SeqOf("round");
  std::string p = Payload(seq);
  const size_t at = p.find("\"totals_after\":[") + 16;
  p.insert(at, "1");
  Failure f = FailureAfterEdit(seq, p);
  EXPECT_EQ(f.seq, seq);
  EXPECT_THAT(f.what, HasSubstr("score of round 1 differs"));
  EXPECT_THAT(f.what, HasSubstr("totals_after"));
}

TEST_F(VerifyTest, AlteredEndPayloadIsCaught) {
  WriteOne();
  const int64_t seq = SeqOf("end");
  std::string p = Payload(seq);
  const size_t at = p.find("\"winner\":") + 9;
  p[at] = p[at] == '0' ? '1' : '0';
  Failure f = FailureAfterEdit(seq, p);
  EXPECT_EQ(f.seq, seq);
  EXPECT_THAT(f.what, HasSubstr("result differs"));
}

TEST_F(VerifyTest, AlteredStatusAndSummaryColumnsAreCaught) {
  WriteOne();
  ExecSql(path_, "UPDATE games SET status = 'aborted'");
  Failure f = OnlyFailure();
  EXPECT_THAT(f.what, HasSubstr("status column"));
  EXPECT_EQ(f.expected, "finished");
  EXPECT_EQ(f.recorded, "aborted");

  ExecSql(path_, "UPDATE games SET status = 'finished', winner = 7");
  EXPECT_THAT(OnlyFailure().what, HasSubstr("winner column"));
  ExecSql(path_, "UPDATE games SET winner = NULL");
  EXPECT_THAT(OnlyFailure().what, HasSubstr("winner column"));
}

TEST_F(VerifyTest, TallyDisagreeingWithTheEventsIsCaught) {
  WriteOne();
  EXPECT_TRUE(Verify().failures.empty());
  // Each column altered in turn (and put back): the failure names the game
  // and the column.
  const std::pair<const char*, const char*> changes[] = {
      {"events", "events = events + 1"},
      {"rounds", "rounds = rounds - 1"},
      {"moves", "moves = moves + 1"},
      {"bad_moves", "bad_moves = 1"},
      {"bad_events", "bad_events = 2"},
      {"points", "points = replace(points, '[', '[1')"},
      {"conduct", "conduct = replace(conduct, '],[', '],[9')"},
      {"move_ms", "move_ms = replace(move_ms, '[[', '[[1')"},
  };
  ExecSql(path_, "CREATE TABLE saved AS SELECT * FROM game_tallies");
  for (const auto& [column, set] : changes) {
    SCOPED_TRACE(column);
    EXPECT_EQ(ExecSql(path_, absl::StrCat("UPDATE game_tallies SET ", set)),
              "");
    Failure f = OnlyFailure();
    EXPECT_EQ(f.game_id, "g");
    EXPECT_EQ(f.what, absl::StrCat("the tally column ", column,
                                   " disagrees with the events"));
    EXPECT_NE(f.expected, f.recorded);
    ExecSql(path_,
            "DELETE FROM game_tallies; INSERT INTO game_tallies SELECT * FROM "
            "saved");
    EXPECT_TRUE(Verify().failures.empty());
  }
  // A missing tally is no discrepancy (readers fall back to the events);
  // nor is a database from before game_tallies existed.
  ExecSql(path_, "DELETE FROM game_tallies");
  EXPECT_TRUE(Verify().failures.empty());
  ExecSql(path_, "DROP TABLE game_tallies; PRAGMA user_version = 1");
  EXPECT_TRUE(Verify().failures.empty());
}

TEST_F(VerifyTest, TallyOfARunningGameIsCaught) {
  FixtureOptions o;
  o.stop_after = 10;
  Write({{"g", o}});
  ExecSql(path_,
          "INSERT INTO game_tallies VALUES ('g', 1, 0, 0, 0, 0, '[]', '[]', "
          "'[]')");
  EXPECT_THAT(OnlyFailure().what, HasSubstr("running game has a game_tallies"));
}

TEST_F(VerifyTest, AlteredHeaderColumnIsCaught) {
  WriteOne();
  ExecSql(path_, "UPDATE seats SET bot_name = 'mallory' WHERE seat = 1");
  Failure f = OnlyFailure();
  EXPECT_THAT(f.what, HasSubstr("disagree with the create event on 'seats'"));
}

TEST_F(VerifyTest, BrokenJsonIsNamed) {
  WriteOne();
  const int64_t seq = SeqOf("move", 3);
  Failure f = FailureAfterEdit(seq, "{\"turn\":");
  EXPECT_EQ(f.seq, seq);
  EXPECT_THAT(f.what, HasSubstr("not in canonical form"));
}

TEST_F(VerifyTest, WrongKindIsNamed) {
  WriteOne();
  // The schema's CHECK forbids it; a hand-edited file need not obey.
  ExecSql(path_,
          "PRAGMA ignore_check_constraints = ON; UPDATE events SET kind = "
          "'bogus' WHERE game_id = 'g' AND seq = 3");
  Failure f = OnlyFailure();
  EXPECT_EQ(f.seq, 3);
  EXPECT_THAT(f.what, HasSubstr("unknown event kind"));

  ExecSql(path_,
          "UPDATE events SET kind = 'round' WHERE game_id = 'g' AND seq = 3");
  Rechain(path_, "g");
  f = OnlyFailure();
  EXPECT_EQ(f.seq, 3);
}

TEST_F(VerifyTest, LegalMoveRecordedAsRejectIsCaught) {
  // A game whose reject carries a move that was in fact legal.
  auto game = PlayFixtureGame("g", {});
  absl::StatusOr<RuleSet> rules = RuleSet::Parse(game.header.rules);
  Game engine = *Game::Create(*rules, *recorder::HeaderDecks(game.header));
  const Move legal = engine.LegalMoves()[0];
  game.events.insert(game.events.begin() + 1,
                     {recorder::EventKind::kReject, game.header.created_us + 1,
                      recorder::RejectPayload(0, engine.to_move(),
                                              legal.ToString(), "bad", 10)});
  {
    auto rec = recorder::Recorder::Open(path_, recorder::Durability::kNormal);
    ASSERT_TRUE(WriteGame(**rec, game).ok());
  }
  Failure f = OnlyFailure();
  EXPECT_EQ(f.seq, 2);
  EXPECT_THAT(f.what, HasSubstr("legal move was rejected"));
}

TEST_F(VerifyTest, MissingForfeitAfterIllegalLimitIsCaught) {
  auto game =
      PlayFixtureGame("g", {.forfeit_after = 4, .forfeit_illegal = true});
  // Drop the forfeit and what follows, then play on: not allowed.
  while (game.events.back().kind != recorder::EventKind::kReject) {
    game.events.pop_back();
  }
  game.events.push_back(
      {recorder::EventKind::kAbort, 0, recorder::AbortPayload("x")});
  {
    auto rec = recorder::Recorder::Open(path_, recorder::Durability::kNormal);
    ASSERT_TRUE(WriteGame(**rec, game).ok());
  }
  EXPECT_THAT(OnlyFailure().what, HasSubstr("did not forfeit"));
}

TEST_F(VerifyTest, TruncatedDatabaseNeverCrashes) {
  std::vector<std::pair<std::string, FixtureOptions>> games;
  for (uint32_t i = 0; i < 30; ++i) {
    games.emplace_back(absl::StrCat("g", i), FixtureOptions{.seed_index = i});
  }
  Write(games);
  const auto size = std::filesystem::file_size(path_);
  for (double fraction : {0.9, 0.5, 0.1, 0.0}) {
    const std::string cut =
        (dir_ / absl::StrCat("cut", fraction, ".db")).string();
    std::filesystem::copy_file(path_, cut);
    std::filesystem::resize_file(cut, static_cast<uintmax_t>(size * fraction));
    absl::StatusOr<VerifyReport> r = VerifyDatabase(cut, {});
    if (r.ok()) {
      // Whatever was readable is reported; nothing pretends to be whole.
      EXPECT_TRUE(!r->failures.empty() || r->games < 30) << fraction;
    }
    // And the command line exits with 1 or 2, not by a signal, and its
    // summary never reads as clean when it exits 1 (issue #22, B7: a
    // malformed page gave "1 ok, 0 failed" and exit 1).
    const std::string out = (dir_ / "cut_out.txt").string();
    const std::string cmd = absl::StrCat(CASSINO_CLI_PATH, " verify --quiet ",
                                         cut, " > ", out, " 2>&1");
    const int status = std::system(cmd.c_str());
    ASSERT_TRUE(WIFEXITED(status)) << fraction;
    EXPECT_TRUE(WEXITSTATUS(status) == 1 || WEXITSTATUS(status) == 2)
        << fraction << " exit " << WEXITSTATUS(status);
    std::ifstream in(out);
    const std::string text((std::istreambuf_iterator<char>(in)),
                           std::istreambuf_iterator<char>());
    if (WEXITSTATUS(status) == 1) {
      EXPECT_TRUE(text.find(" 0 failed\n") == std::string::npos)
          << fraction << ": " << text;
    }
  }
  // Not a database at all.
  const std::string junk = (dir_ / "junk.db").string();
  std::ofstream(junk) << "this is not a database";
  EXPECT_FALSE(VerifyDatabase(junk, {}).ok());
  EXPECT_FALSE(VerifyDatabase((dir_ / "missing.db").string(), {}).ok());
}

TEST_F(VerifyTest, CommandLineOutputAndExitStatus) {
  WriteOne();
  auto run = [&](const std::string& args) {
    const std::string out = (dir_ / "out.txt").string();
    const int status = std::system(
        absl::StrCat(CASSINO_CLI_PATH, " verify ", args, " > ", out, " 2>&1")
            .c_str());
    std::ifstream in(out);
    std::string text((std::istreambuf_iterator<char>(in)),
                     std::istreambuf_iterator<char>());
    return std::make_pair(WEXITSTATUS(status), text);
  };
  auto [code, text] = run(path_);
  EXPECT_EQ(code, 0) << text;
  EXPECT_THAT(text, HasSubstr("verified 1 games: 1 ok, 0 failed"));
  ExecSql(path_, "UPDATE games SET status = 'running'");
  std::tie(code, text) = run(path_);
  EXPECT_EQ(code, 1) << text;
  EXPECT_THAT(text, HasSubstr("FAIL g round "));
  EXPECT_THAT(text, HasSubstr("verified 1 games: 0 ok, 1 failed"));
  std::tie(code, text) = run("");
  EXPECT_EQ(code, 2) << text;
  std::tie(code, text) = run("--help");
  EXPECT_EQ(code, 0);
  EXPECT_THAT(text, HasSubstr("EXIT STATUS"));
}

// A record written before rules revisions existed: its rules text states
// every option but no revision, and a submission the engine of the time
// refused (a natural build with the played card alone, legal since revision
// 2) is recorded as a reject. It verifies as it was played, read as
// revision 1; read as the current revision the same reject is caught.
TEST_F(VerifyTest, RecordOfRevisionOneVerifiesUnderItsOwnReading) {
  FixtureOptions opt;
  opt.rules = "players=2 revision=1";
  auto game = PlayFixtureGame("g", opt);
  const std::string old_text =
      absl::StrReplaceAll(game.header.rules, {{" revision=1", ""}});
  ASSERT_NE(old_text, game.header.rules);
  game.header.rules = old_text;
  absl::StatusOr<RuleSet> old_rules = RuleSet::ParseRecorded(old_text);
  ASSERT_TRUE(old_rules.ok()) << old_rules.status();
  ASSERT_EQ(old_rules->revision, 1);
  RuleSet current = *old_rules;
  current.revision = RuleSet::kRevision;

  // Replay the fixture's game to the first position where the current
  // engine offers a natural build that revision 1 refuses.
  Game engine = *Game::Create(*old_rules, *recorder::HeaderDecks(game.header));
  RandomPlayer player(FixtureSeed(opt.seed_fill, opt.seed_index));
  int move_index = -1, turn = 0, seat = 0;
  Move natural;
  for (int k = 0; !engine.over() && move_index < 0; ++k) {
    Position now = engine.position();
    now.rules = current;
    for (const Move& m : LegalMoves(now)) {
      if (m.kind == MoveKind::kBuild && m.value == current.CardValue(m.card) &&
          !ValidateMove(engine.position(), m).ok()) {
        natural = m;
        move_index = k;
        turn = engine.turn();
        seat = engine.to_move();
        break;
      }
    }
    if (move_index < 0) engine.PlayUnchecked(player.Choose(engine));
  }
  ASSERT_GE(move_index, 0) << "the fixture game offers no natural build";
  int moves_seen = 0;
  for (auto it = game.events.begin(); it != game.events.end(); ++it) {
    if (it->kind != recorder::EventKind::kMove || moves_seen++ < move_index) {
      continue;
    }
    game.events.insert(
        it, {recorder::EventKind::kReject, it->at_us - 1,
             recorder::RejectPayload(turn, seat, natural.ToString(),
                                     "a new build needs table cards", 10)});
    break;
  }
  {
    auto rec = recorder::Recorder::Open(path_, recorder::Durability::kNormal);
    ASSERT_TRUE(WriteGame(**rec, game).ok());
    game.header.game_id = "g2";
    game.header.rules = absl::StrCat(old_text, " revision=2");
    ASSERT_TRUE(WriteGame(**rec, game).ok());
  }
  VerifyReport r = Verify();
  EXPECT_EQ(r.games, 2);
  ASSERT_EQ(r.failures.size(), 1u);
  EXPECT_EQ(r.failures[0].game_id, "g2");
  EXPECT_THAT(r.failures[0].what, HasSubstr("legal move was rejected"));
}

// A v3 game recorded by the old engine (revision 1), which let a player
// who controls a build make a capture that leaves it: it verifies as
// played; read as revision 2, its first such capture is caught.
TEST_F(VerifyTest, OldVariantThreeRecordVerifiesUnderItsOwnReading) {
  FixtureOptions opt;
  opt.rules = "players=2 builder_obligation=v3 revision=1";
  auto game = PlayFixtureGame("g", opt);
  const std::string old_text =
      absl::StrReplaceAll(game.header.rules, {{" revision=1", ""}});
  game.header.rules = old_text;
  {
    auto rec = recorder::Recorder::Open(path_, recorder::Durability::kNormal);
    ASSERT_TRUE(WriteGame(**rec, game).ok());
    game.header.game_id = "g2";
    game.header.rules = absl::StrCat(old_text, " revision=2");
    ASSERT_TRUE(WriteGame(**rec, game).ok());
  }
  VerifyReport r = Verify();
  EXPECT_EQ(r.games, 2);
  ASSERT_EQ(r.failures.size(), 1u);
  EXPECT_EQ(r.failures[0].game_id, "g2");
  EXPECT_THAT(r.failures[0].what, HasSubstr("a capture must take it in"));
}

}  // namespace
}  // namespace cassino::verify
