// tools/viewer: the JSON views over a recorded database. What a page may
// show (reveal.h) is checked card by card against the engine's own state.

#include "tools/viewer/viewer.h"

#include <unistd.h>

#include <filesystem>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "recorder/recorder.h"
#include "recorder/replay.h"
#include "tests/tools/record_fixture.h"
#include "tools/viewer/database.h"
#include "tools/viewer/game_view.h"

namespace cassino {
namespace {

using ::cassino::tools_testing::ExecSql;
using ::cassino::tools_testing::FixtureGame;
using ::cassino::tools_testing::FixtureOptions;
using ::cassino::tools_testing::PlayFixtureGame;
using ::cassino::tools_testing::WriteGame;
using ::nlohmann::json;
using ::testing::HasSubstr;
using ::testing::Not;
using viewer::Params;
using viewer::Viewer;

class ViewerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::path(::testing::TempDir()) /
           absl::StrCat(
               "viewer_test_", getpid(), "_",
               ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    path_ = (dir_ / "games.db").string();
    recorder_ = *recorder::Recorder::Open(path_, recorder::Durability::kNormal);
  }
  void TearDown() override {
    recorder_.reset();
    std::filesystem::remove_all(dir_);
  }

  FixtureGame Add(const std::string& id, const FixtureOptions& options) {
    FixtureGame g = PlayFixtureGame(id, options);
    EXPECT_TRUE(WriteGame(*recorder_, g).ok());
    return g;
  }

  std::unique_ptr<Viewer> Open() {
    absl::StatusOr<std::unique_ptr<Viewer>> v = Viewer::Open({path_});
    EXPECT_TRUE(v.ok()) << v.status();
    return v.ok() ? *std::move(v) : nullptr;
  }

  json View(const Viewer& v, const std::string& id) {
    absl::StatusOr<std::string> text = v.GameJson(id);
    EXPECT_TRUE(text.ok()) << text.status();
    last_text_ = text.ok() ? *text : "";
    return json::parse(last_text_);
  }

  std::filesystem::path dir_;
  std::string path_;
  std::unique_ptr<recorder::Recorder> recorder_;
  std::string last_text_;
};

// The fixture game replayed through the engine, one state per move.
std::vector<recorder::ReplayedGame> EngineStates(const FixtureGame& g) {
  recorder::GameRecord record;
  record.header = g.header;
  record.events.push_back({0, recorder::EventKind::kCreate, 0,
                           recorder::CreatePayload(g.header), ""});
  for (const auto& e : g.events) {
    record.events.push_back({static_cast<int64_t>(record.events.size()), e.kind,
                             e.at_us, e.payload, ""});
  }
  std::vector<recorder::ReplayedGame> states;
  EXPECT_TRUE(recorder::Replay(record, [&](const recorder::Event& e,
                                           const recorder::ReplayedGame& s) {
                if (e.kind == recorder::EventKind::kCreate ||
                    e.kind == recorder::EventKind::kMove) {
                  states.push_back(s);
                }
              }).ok());
  return states;
}

std::vector<std::string> CardList(CardSet cards) {
  std::vector<std::string> out;
  for (const Card c : cards) out.push_back(c.ToString());
  return out;
}

// Whether `text` holds the card as a token (not inside a longer word).
bool MentionsCard(const std::string& text, Card card) {
  const std::regex token(
      absl::StrCat("(^|[^A-Za-z0-9])", card.ToString(), "($|[^A-Za-z0-9])"));
  return std::regex_search(text, token);
}

TEST_F(ViewerTest, FinishedGameShowsEveryHandAtEveryTurn) {
  const FixtureGame g = Add("done", {.reject_every = 5});
  auto v = Open();
  const json j = View(*v, "done");
  EXPECT_EQ(j["status"], "finished");
  EXPECT_EQ(j["view"], "omniscient");
  EXPECT_TRUE(j["verified"]["ok"].get<bool>()) << j["verified"];
  const std::vector<recorder::ReplayedGame> states = EngineStates(g);
  ASSERT_EQ(j["positions"].size(), states.size());
  for (size_t k = 0; k < states.size(); ++k) {
    const json& p = j["positions"][k];
    const Position& engine = states[k].game.position();
    EXPECT_EQ(p["turn"], k);
    EXPECT_EQ(p["table"]["loose"].get<std::vector<std::string>>(),
              CardList(engine.table.loose))
        << "turn " << k;
    ASSERT_EQ(p["table"]["builds"].size(), engine.table.builds.size());
    for (size_t s = 0; s < engine.hands.size(); ++s) {
      EXPECT_EQ(p["hands"][s].get<std::vector<std::string>>(),
                CardList(engine.hands[s]))
          << "turn " << k << " seat " << s;
    }
    EXPECT_EQ(p["bank_ms"].get<std::vector<int64_t>>(), states[k].bank_left_ms);
    if (k > 0) {
      EXPECT_EQ(p["move"]["text"],
                states[k].game.history().back().move.ToString());
    }
  }
  EXPECT_FALSE(j["rounds"].empty());
  ASSERT_TRUE(states.back().game.result().has_value());
  EXPECT_EQ(
      j["result"]["reason"],
      std::string(GameEndReasonName(states.back().game.result()->reason)));
  EXPECT_EQ(j["seed"], g.header.seed);
  EXPECT_FALSE(j["decks"].empty());
  // Refused submissions are shown once the game is over.
  bool submitted = false;
  for (const json& p : j["positions"]) {
    for (const json& r : p.value("rejects", json::array())) {
      submitted |= r.contains("submitted");
    }
  }
  EXPECT_TRUE(submitted);
}

// The heart of the reveal rule: while a game runs, no card in a hand or in
// the stock appears anywhere in its JSON (the game is in its first round,
// so no hidden card can have been shown legitimately before).
TEST_F(ViewerTest, RunningGameShowsNoHiddenCard) {
  const FixtureGame g = Add("live", {.reject_every = 2, .stop_after = 9});
  auto v = Open();
  const json j = View(*v, "live");
  EXPECT_EQ(j["status"], "running");
  EXPECT_EQ(j["view"], "public");
  const std::vector<recorder::ReplayedGame> states = EngineStates(g);
  const Game& now = states.back().game;
  ASSERT_EQ(now.round(), 1);
  CardSet hidden;
  for (const CardSet hand : now.position().hands) hidden |= hand;
  const Deck& deck = now.deck();
  for (size_t i = deck.size() - now.stock_size(); i < deck.size(); ++i) {
    hidden.insert(deck[i]);
  }
  ASSERT_GT(hidden.size(), 20);
  // Everything but the rule set's text (which names TD and 2S).
  json shown = j;
  shown.erase("rules");
  const std::string text = shown.dump();
  EXPECT_THAT(text, HasSubstr("\"table\""));
  for (const Card c : hidden) {
    EXPECT_FALSE(MentionsCard(text, c)) << c.ToString();
  }
  EXPECT_THAT(last_text_, Not(HasSubstr(g.header.seed)));
  EXPECT_THAT(last_text_, Not(HasSubstr("\"hands\"")));
  EXPECT_THAT(last_text_, Not(HasSubstr("\"decks\"")));
  EXPECT_THAT(last_text_, Not(HasSubstr("\"submitted\"")));
  // The public facts are there: sizes, the table, the moves.
  const json& last = j["positions"].back();
  EXPECT_EQ(j["positions"].size(), 10u);
  EXPECT_EQ(last["hand_sizes"][0], now.position().hands[0].size());
  EXPECT_EQ(last["to_move"], now.to_move());
  EXPECT_EQ(last["table"]["loose"].get<std::vector<std::string>>(),
            CardList(now.position().table.loose));
  // Rejected submissions are counted, not quoted.
  EXPECT_FALSE(j["positions"][1]["rejects"].empty());
}

TEST_F(ViewerTest, AbortedGameStaysPublic) {
  Add("stopped", {.abort_after = 7});
  auto v = Open();
  const json j = View(*v, "stopped");
  EXPECT_EQ(j["status"], "aborted");
  EXPECT_EQ(j["view"], "public");
  EXPECT_EQ(j["result"]["reason"], "aborted");
  EXPECT_FALSE(j.contains("seed"));
  EXPECT_FALSE(j["positions"].back().contains("hands"));
}

// A finished game whose duplicate twin (the same seed) still runs shows no
// more than the twin does; once the twin ends, both are omniscient.
TEST_F(ViewerTest, DuplicateTwinKeepsFinishedGamePublic) {
  const FixtureGame done = Add("pair-a", {.seed_index = 4});
  Add("pair-b", {.seed_index = 4, .stop_after = 5});
  auto v = Open();
  json j = View(*v, "pair-a");
  EXPECT_EQ(j["view"], "public");
  EXPECT_THAT(j["hidden_reason"].get<std::string>(), HasSubstr("pair-b"));
  EXPECT_THAT(last_text_, Not(HasSubstr(done.header.seed)));
  EXPECT_FALSE(j["positions"][0].contains("hands"));
  ExecSql(path_,
          "UPDATE games SET status = 'aborted' WHERE game_id = 'pair-b'");
  j = View(*v, "pair-a");
  EXPECT_EQ(j["view"], "omniscient");
}

// A tournament game scheduled with the same seed but not created yet.
TEST_F(ViewerTest, PendingScheduledTwinKeepsFinishedGamePublic) {
  const FixtureGame done = Add("t-0", {.seed_index = 6});
  ExecSql(
      path_,
      absl::StrCat("INSERT INTO tournaments (name, participants, format, "
                   "games_per_pairing, duplicate, rules, per_move_ms, bank_ms, "
                   "max_illegal, max_concurrent, grace_ms, seed, commitment, "
                   "created_us) VALUES ('fixture', '[\"bot0\",\"bot1\"]', "
                   "'round_robin', 2, 1, '', 1, 1, 1, 1, 1, 'x', 'y', 1);"
                   "INSERT INTO tournament_games VALUES ('fixture', 0, 'bot0', "
                   "'bot1', '",
                   done.header.seed,
                   "', 't-0');"
                   "INSERT INTO tournament_games VALUES ('fixture', 1, 'bot1', "
                   "'bot0', '",
                   done.header.seed, "', NULL);"));
  auto v = Open();
  json j = View(*v, "t-0");
  EXPECT_EQ(j["view"], "public");
  ExecSql(path_, "UPDATE tournament_games SET game_id = 'gone' WHERE idx = 1");
  EXPECT_EQ(View(*v, "t-0")["view"], "public");  // names no game: pending
  ExecSql(path_, "DELETE FROM tournament_games WHERE idx = 1");
  EXPECT_EQ(View(*v, "t-0")["view"], "omniscient");
}

TEST_F(ViewerTest, HostileNamesAreEscaped) {
  FixtureGame g = PlayFixtureGame("evil", {.stop_after = 3});
  const std::string name = "<script>alert(1)</script>\x01\x1b[31m\x7f\u2028";
  g.header.seats[0].bot_name = name;
  g.header.label = "</script><img src=x onerror=alert(2)>";
  ASSERT_TRUE(WriteGame(*recorder_, g).ok());
  auto v = Open();
  const json j = View(*v, "evil");
  for (const std::string& text :
       {last_text_, *v->GamesJson({}), *v->GamesJson({{"bot", name}})}) {
    EXPECT_EQ(text.find('<'), std::string::npos) << text;
    EXPECT_EQ(text.find('>'), std::string::npos);
    EXPECT_THAT(text, Not(HasSubstr("\u2028")));
    for (const char c : text) {
      EXPECT_GE(static_cast<unsigned char>(c), 0x20) << text;
    }
  }
  // Escaped, not altered.
  EXPECT_EQ(j["seats"][0]["bot"], name);
  const json list = json::parse(*v->GamesJson({{"bot", name}}));
  ASSERT_EQ(list["games"].size(), 1u);
  EXPECT_EQ(list["games"][0]["label"], g.header.label);
}

TEST_F(ViewerTest, ListingPagesWithFiltersAndCursor) {
  for (uint32_t i = 0; i < 7; ++i) {
    FixtureOptions o{.seed_index = i};
    if (i % 3 == 0) o.stop_after = 4;
    Add(absl::StrCat("g", i), o);
  }
  auto v = Open();
  // Every game once, newest first, over pages of two.
  std::vector<std::string> seen;
  Params params = {{"limit", "2"}};
  for (int page = 0; page < 10; ++page) {
    const json j = json::parse(*v->GamesJson(params));
    for (const json& g : j["games"]) seen.push_back(g["game_id"]);
    if (j["next"].is_null()) break;
    params["after"] = j["next"];
  }
  EXPECT_THAT(seen,
              ::testing::ElementsAre("g6", "g5", "g4", "g3", "g2", "g1", "g0"));
  const json running =
      json::parse(*v->GamesJson({{"status", "running"}, {"bot", "bot1"}}));
  std::vector<std::string> ids;
  for (const json& g : running["games"]) ids.push_back(g["game_id"]);
  EXPECT_THAT(ids, ::testing::ElementsAre("g6", "g3", "g0"));
  EXPECT_TRUE(json::parse(*v->GamesJson({{"bot", "nobody"}}))["games"].empty());
  EXPECT_EQ(
      json::parse(*v->GamesJson({{"rules", "players=2"}}))["games"].size(), 7u);
  EXPECT_TRUE(
      json::parse(*v->GamesJson({{"rules", "royal"}}))["games"].empty());
  EXPECT_EQ(json::parse(
                *v->GamesJson({{"label", "fixture"}, {"limit", "3"}}))["games"]
                .size(),
            3u);
  EXPECT_FALSE(v->GamesJson({{"status", "bogus"}}).ok());
  EXPECT_FALSE(v->GamesJson({{"after", "nonsense"}}).ok());
  EXPECT_FALSE(v->GamesJson({{"from", "2026-13-45"}}).ok());
}

// A bot in thousands of games is listed by walking the games newest first
// (the other plan, database.cc); pages must be the same.
TEST_F(ViewerTest, ListingOfABotWithManyGames) {
  ExecSql(path_,
          "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n "
          "WHERE i < 3299) INSERT INTO games (game_id, rules, per_move_ms, "
          "bank_ms, max_illegal, created_us) SELECT printf('s%04d', i), "
          "'players=2', 1, 1, 1, 1000 + i / 2 FROM n;"
          "INSERT INTO seats (game_id, seat, bot_name) SELECT game_id, 0, "
          "CASE WHEN CAST(substr(game_id, 2) AS INTEGER) % 3 = 0 THEN 'rare' "
          "ELSE 'busy' END FROM games WHERE game_id LIKE 's%';"
          "INSERT INTO seats (game_id, seat, bot_name) SELECT game_id, 1, "
          "'other' FROM games WHERE game_id LIKE 's%';");
  auto v = Open();
  for (const std::string bot : {"busy", "rare"}) {
    std::vector<std::string> ids;
    Params params = {{"bot", bot}, {"limit", "500"}};
    for (;;) {
      const json j = json::parse(*v->GamesJson(params));
      for (const json& g : j["games"]) ids.push_back(g["game_id"]);
      if (j["next"].is_null()) break;
      params["after"] = j["next"];
    }
    // Newest first: created_us, then game_id, both descending.
    std::vector<std::string> expected;
    for (int i = 3299; i >= 0; --i) {
      if ((i % 3 == 0) == (bot == "rare")) {
        expected.push_back(absl::StrCat("s", absl::Dec(i, absl::kZeroPad4)));
      }
    }
    EXPECT_EQ(ids, expected) << bot;
  }
}

TEST_F(ViewerTest, HeadCountsEventsAndUnknownGamesAreNotFound) {
  const FixtureGame g = Add("h", {.stop_after = 2});
  auto v = Open();
  const json head = json::parse(*v->GameHeadJson("h"));
  EXPECT_EQ(head["events"], g.events.size() + 1);
  EXPECT_EQ(head["status"], "running");
  EXPECT_TRUE(absl::IsNotFound(v->GameJson("nope").status()));
  EXPECT_TRUE(absl::IsNotFound(v->GameHeadJson("nope").status()));
}

TEST_F(ViewerTest, OpensReadOnlyBesideAWriter) {
  Add("first", {.stop_after = 2});
  auto v = Open();
  // The recorder keeps writing; the viewer sees each commit.
  Add("second", {});
  EXPECT_EQ(json::parse(*v->GamesJson({}))["games"].size(), 2u);
  EXPECT_EQ(viewer::ReadOnlyUri("/a b/c?d#e%f.db"),
            "file:/a b/c%3fd%23e%25f.db?mode=ro");
  EXPECT_FALSE(Viewer::Open({(dir_ / "missing.db").string()}).ok());
}

TEST_F(ViewerTest, VerificationFailureIsNamed) {
  Add("forged", {});
  tools_testing::UnpackToRows(path_, "forged");
  ExecSql(path_,
          "UPDATE events SET payload = replace(payload, '\"elapsed_ms\":250', "
          "'\"elapsed_ms\":251') WHERE game_id = 'forged' AND kind = 'move'");
  auto v = Open();
  const json j = View(*v, "forged");
  EXPECT_FALSE(j["verified"]["ok"].get<bool>());
  EXPECT_THAT(j["verified"]["what"].get<std::string>(), HasSubstr("hash"));
}

TEST(TournamentViewTest, StandingsAndCrosstable) {
  viewer::TournamentListing t;
  t.name = "cup";
  t.participants = {"a", "b", "c"};
  std::vector<viewer::ScheduledGame> games = {
      {0, {"a", "b"}, "g0", "finished", 0, "[21,3]", {}, {0, 0}},
      {1, {"b", "a"}, "g1", "finished", -1, "[11,11]", {}, {0, 0}},
      {2, {"a", "c"}, "g2", "finished", 1, "[5,21]", {}, {1, 0}},
      {3, {"c", "b"}, "g3", "running", -1, "", {7, 9}, {}},
      {4, {"b", "c"}, "", "", -1, "", {}, {}},
  };
  const json j = viewer::TournamentJson(t, games);
  EXPECT_EQ(j["games"][4]["status"], "pending");
  EXPECT_EQ(j["games"][3]["totals"], json::parse("[7,9]"));
  EXPECT_FALSE(j["games"][4].contains("totals"));
  EXPECT_EQ(j["games_total"], 5);
  EXPECT_TRUE(j["games_next"].is_null());
  EXPECT_FALSE(j.contains("pair_crosstable"));
  EXPECT_EQ(j["running_games"], 1);
  EXPECT_EQ(j["ended_games"], 3);
  // a beat b once and drew once; c beat a.
  EXPECT_EQ(j["crosstable"][0][1]["wins"], 1);
  EXPECT_EQ(j["crosstable"][0][1]["draws"], 1);
  EXPECT_EQ(j["crosstable"][1][0]["losses"], 1);
  EXPECT_EQ(j["crosstable"][2][0]["wins"], 1);
  EXPECT_EQ(j["crosstable"][0][2]["losses"], 1);
  ASSERT_EQ(j["standings"].size(), 3u);
  const json& top = j["standings"][0];
  EXPECT_EQ(top["bot"], "a");  // 1.5 points, +20 - 16... ranked by score
  EXPECT_EQ(top["score"], 1.5);
  EXPECT_EQ(top["forfeits"], 1);
  // A page of two after game 1; the standings still count every game.
  const json page = viewer::TournamentJson(t, games, {.after = 1, .limit = 2});
  ASSERT_EQ(page["games"].size(), 2u);
  EXPECT_EQ(page["games"][0]["index"], 2);
  EXPECT_EQ(page["games_next"], 3);
  EXPECT_EQ(page["standings"], j["standings"]);
}

TEST(TournamentViewTest, DuplicatePairs) {
  viewer::TournamentListing t;
  t.name = "dup";
  t.participants = {"a", "b"};
  t.duplicate = true;
  t.rules = "players=2 target=11";
  std::vector<viewer::ScheduledGame> games = {
      // Pair 0: a wins both (a 2-0 b).
      {0, {"a", "b"}, "g0", "finished", 0, "[21,3]", {}, {0, 0}},
      {1, {"b", "a"}, "g1", "finished", 1, "[4,21]", {}, {0, 0}},
      // Pair 1: each wins the same deal once (1-1).
      {2, {"a", "b"}, "g2", "finished", 0, "[21,9]", {}, {0, 0}},
      {3, {"b", "a"}, "g3", "finished", 0, "[21,19]", {}, {0, 0}},
      // Pair 2: a draw and a loss for a (0.5-1.5).
      {4, {"a", "b"}, "g4", "finished", -1, "[21,21]", {}, {0, 0}},
      {5, {"b", "a"}, "g5", "finished", 0, "[21,20]", {}, {0, 0}},
      // Pair 3: unfinished.
      {6, {"a", "b"}, "g6", "finished", 0, "[21,2]", {}, {0, 0}},
      {7, {"b", "a"}, "g7", "running", -1, "", {}, {}},
  };
  const json j = viewer::TournamentJson(t, games);
  EXPECT_EQ(j["rules_short"], "standard target=11");
  EXPECT_EQ(j["games"][1]["pair"], 0);
  EXPECT_EQ(j["games"][1]["pair_points"], json::parse("[2.0,0.0]"));
  EXPECT_EQ(j["games"][3]["pair_points"], json::parse("[1.0,1.0]"));
  EXPECT_EQ(j["games"][5]["pair_points"], json::parse("[0.5,1.5]"));
  EXPECT_FALSE(j["games"][7].contains("pair_points"));
  const json& pairs = j["pair_crosstable"];
  EXPECT_EQ(pairs[0][1]["wins"], 1);
  EXPECT_EQ(pairs[0][1]["draws"], 1);
  EXPECT_EQ(pairs[0][1]["losses"], 1);
  EXPECT_EQ(pairs[1][0]["wins"], 1);
}

// Issue #26: a game lost by illegal submissions before any move showed no
// move, "0 refused", while the JSON held the rejects.
TEST_F(ViewerTest, AGameForfeitedByIllegalSubmissionsCountsThem) {
  Add("illegal", {.forfeit_after = 0, .forfeit_illegal = true});
  auto v = Open();
  const json j = View(*v, "illegal");
  ASSERT_EQ(j["positions"].size(), 1u);
  EXPECT_EQ(j["result"]["reason"], "forfeit");
  ASSERT_EQ(j["pending_rejects"].size(), 5u);  // the fixture's max_illegal
  EXPECT_EQ(j["pending_rejects"][0]["reason"], "bad card");
  EXPECT_EQ(j["positions"][0]["rejects_so_far"], json::parse("[5,0]"));
}

TEST_F(ViewerTest, RulesShortAndRunningTotals) {
  Add("std", {});
  Add("run",
      {.rules = "players=2 target=11", .seed_index = 1, .stop_after = 70});
  auto v = Open();
  const json list = json::parse(*v->GamesJson({}));
  ASSERT_EQ(list["games"].size(), 2u);
  const json& run = list["games"][0];
  const json& done = list["games"][1];
  EXPECT_EQ(done["rules_short"], "standard");
  EXPECT_EQ(run["rules_short"], "standard target=11");
  EXPECT_EQ(run["status"], "running");
  // 70 moves into the game: at least one round was scored; its totals.
  const json game = View(*v, "run");
  ASSERT_FALSE(game["rounds"].empty());
  EXPECT_EQ(run["totals"], game["rounds"].back()["totals_after"]);
  EXPECT_EQ(View(*v, "std")["rules_short"], "standard");
}

}  // namespace
}  // namespace cassino
