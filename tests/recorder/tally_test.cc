// Game tallies (recorder/tally.h): what each event counts, what does not
// read, and the text columns written and read back.

#include "recorder/tally.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "recorder/payload.h"
#include "tests/recorder/test_game.h"

namespace cassino::recorder {
namespace {

// A round payload in the writer's layout with these items (JSON).
std::string RoundWithItems(const std::string& items) {
  return absl::StrCat(
      "{\"all_eleven_side\":-1,\"builds_left\":0,\"dealer\":1,\"items\":[",
      items,
      "],\"leftover_side\":-1,\"leftovers\":\"-\",\"round\":1,\"sides\":[],"
      "\"totals_after\":[],\"totals_before\":[]}");
}

PlayedMove MoveBy(int seat) {
  PlayedMove m;
  m.seat = seat;
  m.move = *Move::Parse("trail 7H");
  return m;
}

TEST(TallyBuilderTest, CountsWhatReadsAndNamesTheRestBad) {
  TallyBuilder b(2, 2);
  b.Add(EventKind::kMove, MovePayload(MoveBy(0), 5));
  b.Add(EventKind::kMove, MovePayload(MoveBy(0), 5));
  b.Add(EventKind::kMove, MovePayload(MoveBy(1), 900));
  b.Add(EventKind::kMove, MovePayload(MoveBy(2), 5));  // no seat 2
  // The fields a tally needs, but not as the recorder writes them.
  b.Add(EventKind::kMove, "{\"seat\":0,\"elapsed_ms\":5}");
  b.Add(EventKind::kMove, "not json");
  b.Add(EventKind::kReject, RejectPayload(0, 1, "x", "bad", 3));
  b.Add(EventKind::kReject, RejectPayload(0, -1, "x", "bad", 3));
  b.Add(EventKind::kForfeit, ForfeitPayload(1, "time", "bank"));
  b.Add(EventKind::kForfeit, "{\"seat\":1}");
  b.Add(EventKind::kRound,
        RoundWithItems("{\"kind\":\"cards\",\"points\":3,\"side\":0},"
                       "{\"kind\":\"joker\",\"points\":1,\"side\":1}"));
  b.Add(EventKind::kRound,
        RoundWithItems("{\"card\":\"AS\",\"kind\":\"ace\",\"points\":1,"
                       "\"side\":1},{\"kind\":\"all_eleven\",\"points\":2,"
                       "\"side\":1},{\"kind\":\"sweep\",\"points\":1,"
                       "\"side\":3}"));  // side 3 dropped
  b.Add(EventKind::kRound,
        RoundWithItems("{\"kind\":\"sweep\",\"points\":1,\"side\":4}"));
  b.Add("nonsense", "{}");
  b.Add(EventKind::kDeal, "anything: not read");
  const GameTally& t = b.tally();
  EXPECT_EQ(t.events, 15);
  EXPECT_EQ(t.moves, 3);
  EXPECT_EQ(t.bad_moves, 3);
  EXPECT_EQ(t.bad_events, 4);
  EXPECT_EQ(t.rounds, 1);
  EXPECT_EQ(t.PointsText(), "[[0,0,0,0,0,0,0],[0,0,0,0,1,0,3]]");
  EXPECT_EQ(t.ConductText(), "[[2,0,0,0],[1,1,1,1]]");
  EXPECT_EQ(t.MoveMsText(), "[[5,2],[900,1]]");
}

TEST(TallyTest, TallyOfAWholeGameMatchesItsEvents) {
  const GameHeader h = testing::MakeHeader("g1");
  const GameRecord record = testing::MakeRecord(h, testing::PlayEvents(h));
  const GameTally t = TallyOf(record);
  EXPECT_EQ(t.events, static_cast<int64_t>(record.events.size()));
  EXPECT_EQ(t.bad_moves, 0);
  EXPECT_EQ(t.bad_events, 0);
  int64_t moves = 0, rounds = 0;
  for (const Event& e : record.events) {
    moves += e.kind == EventKind::kMove;
    rounds += e.kind == EventKind::kRound;
  }
  EXPECT_EQ(t.moves, moves);
  EXPECT_EQ(t.rounds, rounds);
  EXPECT_EQ(t.seats[0].moves + t.seats[1].moves, moves);
}

TEST(TallyTextTest, ColumnsReadBackAsWritten) {
  const GameHeader h = testing::MakeHeader("g1");
  const GameTally t = TallyOf(testing::MakeRecord(h, testing::PlayEvents(h)));
  for (const std::string& text :
       {t.PointsText(), t.ConductText(), t.MoveMsText()}) {
    SCOPED_TRACE(text);
    std::vector<std::vector<int64_t>> rows;
    const int n = ReadTallyRows(
        text,
        [&](int r) {
          rows.emplace_back();
          return r == static_cast<int>(rows.size()) - 1;
        },
        [&](int r, int, int64_t v) {
          rows[r].push_back(v);
          return true;
        });
    ASSERT_EQ(n, 2);
    std::string again = "[";
    for (size_t r = 0; r < rows.size(); ++r) {
      absl::StrAppend(&again, r > 0 ? ",[" : "[");
      for (size_t i = 0; i < rows[r].size(); ++i) {
        absl::StrAppend(&again, i > 0 ? "," : "", rows[r][i]);
      }
      absl::StrAppend(&again, "]");
    }
    EXPECT_EQ(again + "]", text);
  }
  auto rows = [](absl::string_view text) {
    return ReadTallyRows(
        text, [](int) { return true; }, [](int, int, int64_t) { return true; });
  };
  EXPECT_EQ(rows("[]"), 0);
  EXPECT_EQ(rows("[[],[-1,2]]"), 2);
  for (const char* bad : {"", "[", "[[]", "[[1,]]", "[[1] ,[2]]", "[[01]]",
                          "[[1]]x", "[1]", "[[\"1\"]]"}) {
    EXPECT_EQ(rows(bad), -1) << bad;
  }
  // A callback refuses.
  EXPECT_EQ(ReadTallyRows(
                "[[1],[2]]", [](int r) { return r < 1; },
                [](int, int, int64_t) { return true; }),
            -1);
}

}  // namespace
}  // namespace cassino::recorder
