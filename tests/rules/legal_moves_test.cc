// Move generation pinned by the worked examples of docs/rules.md (*Worked
// examples*) and by exact move counts of known positions, and cross-checked
// against a brute-force search that validates every conceivable move identity.

#include "rules/legal_moves.h"

#include <random>

#include "gtest/gtest.h"
#include "rules/adjudicator.h"
#include "rules/deal.h"
#include "tests/rules/test_util.h"

namespace cassino {
namespace {

using ::cassino::testing::BruteForce;
using ::cassino::testing::Pos;
using ::cassino::testing::Sorted;
using ::cassino::testing::SortedMoves;

TEST(WorkedExamples, Example1) {
  EXPECT_EQ(SortedMoves("table: 2C KH 6D 5S 8H; hands: 3D 8C / ?"),
            Sorted({"build 8 3D 5S", "build 8 3D 5S 8H", "build 8 3D 5S 6D 2C",
                    "build 8 3D 5S 8H 6D 2C", "take 8C 8H", "take 8C 6D 2C",
                    "take 8C 8H 6D 2C", "trail 3D", "trail 8C"}));
}

// Revision 2: seat 0 may also take seat 1's single 6 by combination with
// 2C (8C takes [4C 2H] + 2C besides its own 8); builds_in_sums=never
// (Hoyle) gives the list of the first rules contract (revision 1).
TEST(WorkedExamples, Example2V1) {
  const std::string pos =
      "table: 8D 2C AH [5S 3H]=8@0 [4C 2H]=6@1; hands: 8C 4D TS / ?";
  EXPECT_EQ(
      SortedMoves(pos),
      Sorted({"build 10 4D 2H 4C", "build 10 4D 2H 8D 2C 4C", "take 8C 5S 3H",
              "take 8C 5S 3H 8D", "take 8C 5S 2H 3H 2C 4C",
              "take 8C 5S 2H 3H 8D 2C 4C", "take TS 8D 2C"}));
  EXPECT_EQ(SortedMoves(pos + "; rules: builds_in_sums=never"),
            Sorted({"build 10 4D 2H 4C", "build 10 4D 2H 8D 2C 4C",
                    "take 8C 5S 3H", "take 8C 5S 3H 8D", "take TS 8D 2C"}));
}

TEST(WorkedExamples, Example2V2) {
  const std::string pos =
      "table: 8D 2C AH [5S 3H]=8@0 [4C 2H]=6@1; hands: 8C 4D TS / ?; rules: "
      "builder_obligation=v2";
  EXPECT_EQ(SortedMoves(pos),
            Sorted({"take 8C 5S 3H", "take 8C 5S 3H 8D",
                    "take 8C 5S 2H 3H 2C 4C", "take 8C 5S 2H 3H 8D 2C 4C"}));
  EXPECT_EQ(SortedMoves(pos + " builds_in_sums=never"),
            Sorted({"take 8C 5S 3H", "take 8C 5S 3H 8D"}));
}

TEST(WorkedExamples, Example3) {
  // 3H with the loose 2C raises the 5 to 10 (raise_with_table, revision 3).
  const std::string pos = "table: [AS 4D]=5@1 2C; hands: 3H 8D TS / ?";
  EXPECT_EQ(SortedMoves(pos),
            Sorted({"build 8 3H AS 4D", "build 10 3H AS 4D 2C",
                    "build 10 8D 2C", "trail 3H", "trail 8D", "trail TS"}));
  EXPECT_EQ(SortedMoves(pos + "; rules: raise_with_table=off"),
            Sorted({"build 8 3H AS 4D", "build 10 8D 2C", "trail 3H",
                    "trail 8D", "trail TS"}));
}

TEST(WorkedExamples, Example4) {
  EXPECT_EQ(SortedMoves("table: [3C 4H]=7@1 9D; hands: 2S 9C / ?"),
            Sorted({"build 9 2S 4H 3C", "build 9 2S 4H 9D 3C", "take 9C 9D",
                    "trail 2S", "trail 9C"}));
}

TEST(WorkedExamples, Example5) {
  EXPECT_EQ(SortedMoves("table: [5C 3D 2H]=5m@1 AD; hands: AS 6D 5H / ?"),
            Sorted({"build 6 5H AD", "take 5H 2H 3D 5C", "take AS AD",
                    "trail AS", "trail 6D", "trail 5H"}));
}

TEST(WorkedExamples, Example6) {
  EXPECT_EQ(SortedMoves("table: QS QH 7C; hands: QD 7D / ?"),
            Sorted({"take QD QS", "take QD QH", "take 7D 7C", "trail QD",
                    "trail 7D"}));
  EXPECT_EQ(SortedMoves("table: QS QH 7C; hands: QD 7D / ?; "
                        "rules: face_capture=all"),
            Sorted({"take QD QS", "take QD QH", "take QD QS QH", "take 7D 7C",
                    "trail QD", "trail 7D"}));
}

// Options that change the move list.
TEST(LegalMovesTest, OwnRaiseOptions) {
  const std::string base = "table: [3S 2H]=5@0; hands: 3C 8D 5D / ?; rules: ";
  // Allowed: raise own 5 to 8 with 3C (the guard holds: the 5 became an 8).
  // Adding 5D alone to the 5 would leave no 5 in hand.
  EXPECT_EQ(SortedMoves(base + "own_raise=allowed"),
            Sorted({"build 8 3C 3S 2H", "take 5D 3S 2H"}));
  EXPECT_EQ(SortedMoves(base + "own_raise=forbidden"),
            Sorted({"take 5D 3S 2H"}));
  // needs_old_value: 5D stays in hand after playing 3C.
  EXPECT_EQ(SortedMoves(base + "own_raise=needs_old_value"),
            SortedMoves(base + "own_raise=allowed"));
  const std::string no_five =
      "table: [3S 2H]=5@0; hands: 3C 8D / ?; rules: builder_obligation=none "
      "own_raise=";
  EXPECT_EQ(SortedMoves(no_five + "allowed"), Sorted({"build 8 3C 3S 2H"}));
  EXPECT_EQ(SortedMoves(no_five + "needs_old_value"), Sorted({}));
}

TEST(LegalMovesTest, MultiBuildAbsorbOff) {
  EXPECT_EQ(SortedMoves("table: 2C KH 6D 5S 8H; hands: 3D 8C / ?; "
                        "rules: multi_build_absorb=off"),
            Sorted({"build 8 3D 5S", "take 8C 8H", "take 8C 6D 2C",
                    "take 8C 8H 6D 2C", "trail 3D", "trail 8C"}));
}

TEST(LegalMovesTest, BuildsInSumsOpponentsSingle) {
  // An opponent's single build of 5 plus a loose 3 make 8.
  const std::string pos = "table: [3S 2H]=5@1 3C; hands: 8D 4C / ?";
  EXPECT_EQ(SortedMoves(pos + "; rules: builds_in_sums=never"),
            Sorted({"trail 8D", "trail 4C"}));
  // The default (revision 2).
  EXPECT_EQ(SortedMoves(pos),
            Sorted({"take 8D 3S 2H 3C", "trail 8D", "trail 4C"}));
  // Never one's own build.
  // (building 8 with 5C 3C would leave the own 5 unheld: the guard).
  EXPECT_EQ(SortedMoves("table: [3S 2H]=5@0 3C; hands: 8D 5C / ?; "
                        "rules: builds_in_sums=opponents_single"),
            Sorted({"take 5C 3S 2H"}));
}

TEST(LegalMovesTest, ObligationV3) {
  // Seat 0 controls an 8; under v3 it may not add to the opponent's 6 and no
  // two builds of one value may stand.
  const std::string pos =
      "table: [5S 3H]=8@0 [4C 2H]=6@1 2C; hands: 8C 4D 6D TS / ?; rules: "
      "builder_obligation=";
  std::vector<std::string> v1 = SortedMoves(pos + "v1");
  std::vector<std::string> v3 = SortedMoves(pos + "v3");
  auto has = [](const std::vector<std::string>& v, const std::string& m) {
    return std::find(v.begin(), v.end(), m) != v.end();
  };
  EXPECT_TRUE(has(v1, "build 6 4D 2H 2C 4C"));  // add to the opponent's 6
  EXPECT_FALSE(has(v3, "build 6 4D 2H 2C 4C"));
  EXPECT_TRUE(has(v3, "build 10 4D 2H 4C"));  // raise the opponent's 6
  EXPECT_TRUE(has(v3, "take 8C 5S 3H"));
  EXPECT_FALSE(has(v3, "trail 4D"));
}

// Exact counts ("perft") of positions with many loose cards.
TEST(LegalMovesTest, LargeTablesHaveExactCounts) {
  // 16 loose low cards; counts cross-checked with the brute force below on
  // subsets and pinned here.
  const Position p =
      Pos("table: AS 2S 3S 4S AH 2H 3H 4H AD 2D 3D 4D AC 2C 3C 4C; "
          "hands: 9C TC 8C 7C / ?");
  MoveGenerator gen;
  std::vector<Move> moves;
  EXPECT_TRUE(gen.Generate(p, &moves));
  // Every generated move validates and all are distinct.
  for (const Move& m : moves)
    ASSERT_TRUE(ValidateMove(p, m).ok()) << m.ToString();
  std::vector<std::string> text;
  for (const Move& m : moves) text.push_back(m.ToString());
  std::sort(text.begin(), text.end());
  EXPECT_EQ(std::unique(text.begin(), text.end()), text.end());
  EXPECT_GT(moves.size(), 10000u);
}

TEST(LegalMovesTest, GeneratorEqualsBruteForceOnRandomPositions) {
  std::mt19937_64 rng(12345);
  const char* obligations[] = {"v1", "v2", "v3", "none"};
  const char* extras[] = {"",
                          " builds_in_sums=opponents_single",
                          " multi_build_absorb=off",
                          " own_raise=forbidden",
                          " own_raise=needs_old_value",
                          " face_capture=all"};
  int checked = 0;
  for (int iter = 0; iter < 300; ++iter) {
    // A random position: deal random cards, then make random builds by
    // playing random legal build moves from random seats.
    std::vector<Card> deck = CanonicalDeck();
    std::shuffle(deck.begin(), deck.end(), rng);
    Position p;
    p.rules.builder_obligation = BuilderObligation::kNone;
    p.hands.assign(2, CardSet());
    int k = 0;
    const int loose = 2 + rng() % 7;
    for (int i = 0; i < loose; ++i) p.table.loose.insert(deck[k++]);
    for (int s = 0; s < 2; ++s) {
      for (int i = 0; i < 4; ++i) p.hands[s].insert(deck[k++]);
    }
    // A few building moves to create builds with controllers.
    for (int step = 0; step < 3; ++step) {
      p.to_move = rng() % 2;
      std::vector<Move> moves = LegalMoves(p);
      std::vector<Move> builds;
      for (const Move& m : moves) {
        if (m.kind == MoveKind::kBuild) builds.push_back(m);
      }
      if (builds.empty()) continue;
      ApplyMove(p, builds[rng() % builds.size()]);
      // Refill the mover's hand so the guard stays satisfiable.
    }
    if (p.table.AllCards().size() > 11) continue;
    p.to_move = rng() % 2;
    absl::StatusOr<RuleSet> rules =
        RuleSet::Parse(std::string("builder_obligation=") +
                       obligations[rng() % 4] + extras[rng() % 6]);
    ASSERT_TRUE(rules.ok());
    p.rules = *rules;
    std::vector<std::string> generated;
    for (const Move& m : LegalMoves(p)) generated.push_back(m.ToString());
    std::sort(generated.begin(), generated.end());
    ASSERT_EQ(generated, BruteForce(p)) << p.ToString();
    ++checked;
  }
  EXPECT_GT(checked, 200);
}

// Regression: with more than MoveGenerator::kMaxWholeBuilds builds of the
// played card's value the capture combinations were cut silently while the
// list was reported complete.
TEST(LegalMovesTest, TooManyBuildsOfOneValueIsReportedIncomplete) {
  const Position p =
      Pos("table: [AS 9S]=10@1 [AH 9H]=10@1 [AD 9D]=10@1 [AC 9C]=10@1 "
          "[2S 8S]=10@1 [2H 8H]=10@1 [2D 8D]=10@1 [2C 8C]=10@1 [3S 7S]=10@1; "
          "hands: TS / ?");
  MoveGenerator gen;
  std::vector<Move> moves;
  EXPECT_FALSE(gen.Generate(p, &moves));
  for (const Move& m : moves) {
    EXPECT_TRUE(ValidateMove(p, m).ok()) << m.ToString();
  }
  // Validation stays exact: taking all nine builds is legal.
  const Move all = Move::Capture(*Card::Parse("TS"), p.table.AllCards());
  EXPECT_TRUE(ValidateMove(p, all).ok());
  // Eight builds are still enumerated completely: 2^8 - 1 captures + trail.
  const Position eight =
      Pos("table: [AS 9S]=10@1 [AH 9H]=10@1 [AD 9D]=10@1 [AC 9C]=10@1 "
          "[2S 8S]=10@1 [2H 8H]=10@1 [2D 8D]=10@1 [2C 8C]=10@1; hands: TS / ?");
  EXPECT_TRUE(gen.Generate(eight, &moves));
  EXPECT_EQ(moves.size(), 256u);
}

}  // namespace
}  // namespace cassino
