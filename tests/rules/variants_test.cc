// The move-level variants of docs/rules.md (*Move-level variants*): worked
// positions per preset with the full legal-move list, the notation of declared
// values, the reasons validation gives, and a brute-force cross-check of the
// generator under each variant's rules.

#include <random>

#include "gtest/gtest.h"
#include "rules/adjudicator.h"
#include "rules/deal.h"
#include "rules/game.h"
#include "rules/legal_moves.h"
#include "rules/rule_set.h"
#include "tests/rules/test_util.h"

namespace cassino {
namespace {

using ::cassino::testing::BruteForce;
using ::cassino::testing::M;
using ::cassino::testing::Pos;
using ::cassino::testing::Sorted;
using ::cassino::testing::SortedMoves;

// The reason ValidateMove gives, or "" when the move is legal.
std::string Reason(const std::string& position, const std::string& move) {
  absl::Status s = ValidateMove(Pos(position), M(move));
  return std::string(s.message());
}

// --- Rule sets ---------------------------------------------------------

TEST(VariantRuleSetTest, RoyalAndBuckeyePresets) {
  absl::StatusOr<RuleSet> royal = RuleSet::Parse("royal");
  ASSERT_TRUE(royal.ok()) << royal.status();
  EXPECT_EQ(royal->card_values, CardValues::kRoyal);
  EXPECT_TRUE(royal->ace_high);
  EXPECT_FALSE(royal->dual_ten);
  EXPECT_EQ(royal->max_build, 14);
  EXPECT_EQ(royal->sweep_points, 0);
  EXPECT_EQ(royal->game_end, GameEnd::kHighestTotal);
  EXPECT_EQ(royal->target, 21);
  absl::StatusOr<RuleSet> buckeye = RuleSet::Parse("buckeye");
  ASSERT_TRUE(buckeye.ok());
  RuleSet expected = *royal;
  expected.dual_ten = true;
  EXPECT_EQ(*buckeye, expected);
  // The text form states every option and parses back to the same rules.
  EXPECT_EQ(*RuleSet::Parse(buckeye->ToString()), *buckeye);
  EXPECT_NE(buckeye->ToString().find("card_values=royal max_build=14 "
                                     "ace_high=on dual_ten=on"),
            std::string::npos)
      << buckeye->ToString();
}

TEST(VariantRuleSetTest, CardValues) {
  const RuleSet standard = RuleSet::Standard();
  const RuleSet royal = *RuleSet::Parse("royal");
  const RuleSet buckeye = *RuleSet::Parse("buckeye");
  const Card ks = *Card::Parse("KS"), ah = *Card::Parse("AH");
  const Card td = *Card::Parse("TD"), tc = *Card::Parse("TC");
  EXPECT_EQ(standard.CardValue(ks), 0);
  EXPECT_EQ(standard.ValueMask(ks), 0u);
  EXPECT_EQ(royal.CardValue(ks), 13);
  EXPECT_EQ(royal.ValueMask(ah), (1u << 1) | (1u << 14));
  EXPECT_EQ(royal.ValueMask(td), 1u << 10);
  EXPECT_EQ(buckeye.ValueMask(td), (1u << 10) | (1u << 11));
  EXPECT_EQ(buckeye.ValueMask(tc), 1u << 10);
  EXPECT_EQ(buckeye.FlexibleCards().size(), 5);
  EXPECT_TRUE(standard.FlexibleCards().empty());
}

TEST(VariantRuleSetTest, InvalidCombinationsSayWhy) {
  auto error = [](const char* text) {
    absl::StatusOr<RuleSet> r = RuleSet::Parse(text);
    return r.ok() ? std::string("ok") : std::string(r.status().message());
  };
  EXPECT_EQ(error("ace_high=on"), "ace_high needs card_values=royal");
  EXPECT_EQ(error("max_build=13"), "max_build=13 needs card_values=royal");
  EXPECT_EQ(error("card_values=royal max_build=14"),
            "max_build=14 needs ace_high");
  EXPECT_EQ(error("card_values=royal max_build=12"),
            "option max_build: '12' is not one of 10, 13, 14");
  EXPECT_EQ(error("card_values=queen"),
            "option card_values: 'queen' is not one of standard, royal");
  EXPECT_EQ(error("card_values=royal max_build=13"), "ok");
  EXPECT_EQ(error("dual_ten=on"), "ok");
}

// --- Notation ----------------------------------------------------------

TEST(VariantMoveTest, DeclaredValuesRoundTrip) {
  for (const char* text :
       {"take AC=14 KS AH", "build 14 AC=14 9S 5H", "take TD=11 5S 6C",
        "build 11 TD=11 AH", "take AC AH", "build 14 KD AH"}) {
    absl::StatusOr<Move> m = Move::Parse(text);
    ASSERT_TRUE(m.ok()) << text << ": " << m.status();
    EXPECT_EQ(m->ToString(), text);
    EXPECT_EQ(*Move::Parse(m->ToString()), *m);
  }
  // The default value is never written.
  EXPECT_EQ(Move::Parse("take AC=1 AH")->ToString(), "take AC AH");
  EXPECT_EQ(*Move::Parse("take AC=1 AH"), *Move::Parse("take AC AH"));
  EXPECT_EQ(Move::Parse("build 12 td=10 2h")->ToString(), "build 12 TD 2H");
  EXPECT_EQ(Move::Parse("take ac=14 ah ks")->ToString(), "take AC=14 KS AH");
  EXPECT_NE(*Move::Parse("take AC=14 AH"), *Move::Parse("take AC AH"));
  EXPECT_EQ(Move::Parse("take AC=14 AH")->declared, 14);
  // Syntax errors.
  for (const char* bad : {"trail AC=14", "take AC= AH", "take AC=x AH",
                          "take AC AH=14", "build 14 AC=0 KS"}) {
    EXPECT_FALSE(Move::Parse(bad).ok()) << bad;
  }
}

TEST(VariantMoveTest, DeclaredValueReasons) {
  EXPECT_EQ(Reason("table: AH 5S 8D; hands: AC KD / ?", "take AC=14 AH"),
            "AC cannot count 14: an ace counts 14 only under ace_high");
  EXPECT_EQ(Reason("table: AH 5S 8D; hands: AC KD / ?; rules: royal",
                   "take AC=13 5S 8D"),
            "AC cannot count 13: an ace counts 1 or 14");
  EXPECT_EQ(
      Reason("table: 5S 6C; hands: TD / ?; rules: royal", "take TD=11 5S 6C"),
      "TD cannot count 11: TD counts 11 only under dual_ten");
  EXPECT_EQ(Reason("table: 5S 6C; hands: TD 9C / ?; rules: buckeye",
                   "take 9C=11 5S 6C"),
            "9C cannot count 11: only an ace (ace_high) or TD (dual_ten) may "
            "declare a value");
  EXPECT_EQ(Reason("table: 5S 6C 4H; hands: TD 2C / ?; rules: buckeye",
                   "take TD=11 4H 6C"),
            "the cards taken (4H 6C) do not split into groups summing to 11");
  EXPECT_EQ(Reason("table: KH 6D 7S; hands: KC 6C / ?", "take KC 7S 6D"),
            "a king takes only a king (7S is not one)");
  EXPECT_EQ(Reason("table: KH 6D 7S; hands: KC 6C / ?; rules: royal",
                   "take KC 7S 6D"),
            "");
  EXPECT_EQ(Reason("table: KH 6D 7S; hands: KC 2C / ?; rules: royal "
                   "max_build=13 ace_high=off",
                   "build 14 2C KH"),
            "a build's value is at most 13");
}

// --- Royal ---------------------------------------------------------------

// Faces count 11, 12, 13: they sum, build and are captured by sums.
TEST(RoyalTest, FacesSumBuildAndCapture) {
  const std::string pos = "table: KH 6D 7S; hands: KC 6C / ?";
  EXPECT_EQ(SortedMoves(pos),
            Sorted({"take KC KH", "take 6C 6D", "trail KC", "trail 6C"}));
  EXPECT_EQ(SortedMoves(pos + "; rules: royal"),
            Sorted({"take KC KH", "take KC 7S 6D", "take KC 7S KH 6D",
                    "build 13 6C 7S", "build 13 6C 7S KH", "take 6C 6D",
                    "trail KC", "trail 6C"}));
}

// An ace counts 1 or 14: played, it declares its value; loose, it counts
// as the move needs.
TEST(RoyalTest, AceCountsOneOrFourteen) {
  EXPECT_EQ(
      SortedMoves("table: AH 5S 8D; hands: AC KD / ?; rules: royal"),
      Sorted({"take AC AH", "take AC=14 AH", "take AC=14 5S AH 8D",
              "take KD 5S 8D", "build 14 KD AH", "trail AC", "trail KD"}));
  // Without ace_high (values royal, builds to 13) the ace is only 1.
  EXPECT_EQ(SortedMoves("table: AH 5S 8D; hands: AC KD / ?; rules: royal "
                        "ace_high=off max_build=13"),
            Sorted({"take AC AH", "take KD 5S 8D", "trail AC", "trail KD"}));
}

// A build of 14 is taken by an ace played as 14; the builder may not trail
// (v1) and must keep a card of 14 for it.
TEST(RoyalTest, BuildOfFourteen) {
  EXPECT_EQ(
      SortedMoves("table: [9S 5H]=14@0 QC; hands: AD 2C / ?; "
                  "rules: royal"),
      Sorted({"take AD=14 9S 5H", "build 14 2C QC", "build 14 2C 9S 5H QC"}));
  // After `build 14 2C QC` seat 0 controls two builds of 14 and holds only
  // AD: taking one build would leave the other unheld (the guard), so AD=14
  // must take both.
  Position p = Pos("table: [9S 5H]=14@0 QC; hands: AD 2C / ?; rules: royal");
  ASSERT_TRUE(ValidateMove(p, M("build 14 2C QC")).ok());
  ApplyMove(p, M("build 14 2C QC"));
  p.to_move = 0;
  EXPECT_EQ(p.table.ToString(), "[9S 5H]=14@0 [2C QC]=14@0");
  EXPECT_EQ(SortedMoves(p.ToString()), Sorted({"take AD=14 9S 5H 2C QC"}));
  EXPECT_EQ(Reason(p.ToString(), "take AD=14 9S 5H"),
            "you control the build [2C QC]=14@0 and this move would leave you "
            "no card of 14 to take it");
}

// --- Buckeye -------------------------------------------------------------

// A loose TD counts 10 or 11, whichever the capture needs.
TEST(BuckeyeTest, LooseBigCassinoCountsTenOrEleven) {
  const std::string pos = "table: TD 4S 7H; hands: JC TH / ?; rules: ";
  EXPECT_EQ(SortedMoves(pos + "royal"),
            Sorted({"take JC 4S 7H", "take TH TD", "trail JC", "trail TH"}));
  EXPECT_EQ(SortedMoves(pos + "buckeye"),
            Sorted({"take JC TD", "take JC 4S 7H", "take JC 4S 7H TD",
                    "take TH TD", "trail JC", "trail TH"}));
}

// TD played declares 11 when it counts 11; holding TD counts as holding
// both 10 and 11 for building.
TEST(BuckeyeTest, PlayedBigCassinoDeclaresEleven) {
  EXPECT_EQ(SortedMoves("table: 5S 6C 4H; hands: TD 2C / ?; rules: buckeye"),
            Sorted({"take TD 4H 6C", "take TD=11 5S 6C", "build 11 2C 5S 4H",
                    "trail TD", "trail 2C"}));
  EXPECT_EQ(SortedMoves("table: 5S 6C 4H; hands: TD 2C / ?; rules: royal"),
            Sorted({"take TD 4H 6C", "trail TD", "trail 2C"}));
}

TEST(BuckeyeTest, BigCassinoTakesBuildsOfEleven) {
  EXPECT_EQ(SortedMoves("table: [5S 6H]=11@1 JD; hands: TD 7C / ?; "
                        "rules: buckeye"),
            Sorted({"take TD=11 5S 6H", "take TD=11 JD", "take TD=11 5S 6H JD",
                    "trail TD", "trail 7C"}));
  EXPECT_EQ(SortedMoves("table: [5S 6H]=11@1 JD; hands: TD 7C / ?; "
                        "rules: royal"),
            Sorted({"trail TD", "trail 7C"}));
}

// One TD holds 10 or 11, not both: a move that would leave the builder
// with builds of 10 and 11 and only TD to take them is barred.
TEST(BuckeyeTest, OneBigCassinoDoesNotHoldTwoValues) {
  const std::string pos =
      "table: [5S 5H]=10@0 8D 7C; hands: TD 3C / ?; rules: buckeye";
  EXPECT_EQ(SortedMoves(pos), Sorted({"take TD 5S 5H", "build 10 3C 7C",
                                      "build 10 3C 5S 5H 7C"}));
  EXPECT_EQ(Reason(pos, "build 11 3C 8D"),
            "after this move you would control builds of different values "
            "that only one card in your hand could take: each value needs its "
            "own card");
}

// --- multiple_builds=off ----------------------------------------------------

TEST(MultipleBuildsOffTest, NoAbsorbing) {
  EXPECT_EQ(SortedMoves("table: 2C KH 6D 5S 8H; hands: 3D 8C / ?; "
                        "rules: multiple_builds=off"),
            Sorted({"build 8 3D 5S", "take 8C 8H", "take 8C 6D 2C",
                    "take 8C 8H 6D 2C", "trail 3D", "trail 8C"}));
}

TEST(MultipleBuildsOffTest, NoAddingToABuild) {
  const std::string pos = "table: [5S 3H]=8@1 6D 2C; hands: 2D 8C / ?";
  EXPECT_EQ(SortedMoves(pos),
            Sorted({"take 2D 2C", "build 8 2D 6D", "build 8 2D 5S 3H 6D",
                    "take 8C 5S 3H", "take 8C 6D 2C", "take 8C 5S 3H 6D 2C",
                    "trail 2D", "trail 8C"}));
  EXPECT_EQ(
      SortedMoves(pos + "; rules: multiple_builds=off"),
      Sorted({"take 2D 2C", "build 8 2D 6D", "take 8C 5S 3H", "take 8C 6D 2C",
              "take 8C 5S 3H 6D 2C", "trail 2D", "trail 8C"}));
  EXPECT_EQ(Reason(pos + "; rules: multiple_builds=off", "build 8 2D 5S 3H 6D"),
            "adding to [5S 3H]=8@1 would make a multiple build, and multiple "
            "builds are off (multiple_builds=off)");
}

TEST(MultipleBuildsOffTest, RaisesRemain) {
  const std::string pos = "table: [4S 2H]=6@1 8H; hands: 2D 8C / ?";
  EXPECT_EQ(SortedMoves(pos), Sorted({"build 8 2D 4S 2H", "build 8 2D 4S 2H 8H",
                                      "take 8C 8H", "trail 2D", "trail 8C"}));
  EXPECT_EQ(SortedMoves(pos + "; rules: multiple_builds=off"),
            Sorted({"build 8 2D 4S 2H", "take 8C 8H", "trail 2D", "trail 8C"}));
  EXPECT_EQ(Reason(pos + "; rules: multiple_builds=off", "build 8 2D 4S 2H 8H"),
            "multiple builds are off (multiple_builds=off): a build takes no "
            "further groups");
}

// --- Trailing royals (face_capture=any) ------------------------------------

TEST(TrailingRoyalsTest, FaceCardTakesAnyNumberOfItsRank) {
  const std::string pos = "table: KS KH 7C; hands: KD 7D / ?";
  EXPECT_EQ(SortedMoves(pos), Sorted({"take KD KS", "take KD KH", "take 7D 7C",
                                      "trail KD", "trail 7D"}));
  EXPECT_EQ(SortedMoves(pos + "; rules: trailing_royals"),
            Sorted({"take KD KS", "take KD KH", "take KD KS KH", "take 7D 7C",
                    "trail KD", "trail 7D"}));
}

TEST(TrailingRoyalsTest, NaturalFaceBuildNeedsAnotherOfTheRank) {
  EXPECT_EQ(SortedMoves("table: KS 7C; hands: KD KH 3D / ?; "
                        "rules: trailing_royals"),
            Sorted({"take KD KS", "build 13 KD KS", "take KH KS",
                    "build 13 KH KS", "trail KD", "trail KH", "trail 3D"}));
  // The build is a single face build controlled by its maker.
  Position p = Pos("table: KS 7C; hands: KD KH 3D / ?; rules: trailing_royals");
  ApplyMove(p, M("build 13 KD KS"));
  EXPECT_EQ(p.table.ToString(), "7C [KS KD]=13@0");
  EXPECT_EQ(Reason("table: KS 7C; hands: KD 3D / ?; rules: trailing_royals",
                   "build 13 KD KS"),
            "a natural face build needs another king left in hand to take it "
            "later");
  EXPECT_EQ(Reason("table: KS 7C; hands: KD KH / ?; rules: trailing_royals",
                   "build 12 KD KS"),
            "a face build's value is its rank: build 13 KD ...");
  EXPECT_EQ(Reason("table: KS 7C; hands: KD KH / ?; rules: trailing_royals "
                   "face_builds=off",
                   "build 13 KD KS"),
            "natural face builds are off (face_builds=off)");
}

TEST(TrailingRoyalsTest, FaceBuildIsTakenByItsRank) {
  EXPECT_EQ(SortedMoves("table: [KS KH]=13@1 KC; hands: KD 5H / ?; "
                        "rules: trailing_royals"),
            Sorted({"take KD KC", "take KD KS KH", "take KD KS KH KC",
                    "trail KD", "trail 5H"}));
  EXPECT_EQ(Reason("table: [KS KH]=13@1 KC; hands: KD 5H / ?; "
                   "rules: trailing_royals",
                   "take 5H KS KH"),
            "the face build [KS KH]=13@1 is taken only by a card of its rank");
}

// --- All four face cards (face_capture=four) --------------------------------

TEST(FaceFourTest, BuildWhileHoldingEveryOtherCard) {
  EXPECT_EQ(SortedMoves("table: QS QH; hands: QD QC 4S / ?; rules: face_four"),
            Sorted({"take QD QS", "take QD QH", "build 12 QD QS QH",
                    "take QC QS", "take QC QH", "build 12 QC QS QH", "trail QD",
                    "trail QC", "trail 4S"}));
}

TEST(FaceFourTest, TheLastCardGathersAllFour) {
  const std::string pos =
      "table: [QS QH QD]=12@0; hands: QC 4S / ?; rules: face_four";
  EXPECT_EQ(SortedMoves(pos), Sorted({"take QC QS QH QD"}));
  EXPECT_EQ(Reason(pos, "trail 4S"),
            "you control a build of 12 ([QS QH QD]=12@0) and may not trail");
  EXPECT_EQ(Reason("table: QS QH 5D; hands: QD 4S / ?; rules: face_four",
                   "take QD QS QH"),
            "a face card takes one loose card of its rank, or every card of "
            "its rank on the table when that gathers all four "
            "(face_capture=four); the table has QS QH");
}

TEST(FaceFourTest, NoBuildWhileAnotherPlayerHoldsTheRank) {
  const std::string pos = "table: JS 2D; hands: JD JH 5C / JC";
  EXPECT_EQ(
      SortedMoves(pos + "; rules: face_four"),
      Sorted({"take JD JS", "take JH JS", "trail JD", "trail JH", "trail 5C"}));
  EXPECT_EQ(SortedMoves(pos + "; rules: trailing_royals"),
            Sorted({"take JD JS", "build 11 JD JS", "take JH JS",
                    "build 11 JH JS", "trail JD", "trail JH", "trail 5C"}));
  EXPECT_EQ(Reason(pos + "; rules: face_four", "build 11 JD JS"),
            "a natural face build needs every other jack in your hand "
            "(face_capture=four)");
}

// --- Five-of-spades sweep -----------------------------------------------

// The list is the standard one; the trail of 5S takes the table.
TEST(FiveSpadesTest, TrailTakesTheWholeTable) {
  const std::string pos = "table: [2H 3C]=5@1 7H; hands: 5S 2D / ?";
  EXPECT_EQ(SortedMoves(pos + "; rules: five_spades"),
            Sorted({"take 5S 2H 3C", "trail 5S", "trail 2D"}));
  EXPECT_EQ(SortedMoves(pos), SortedMoves(pos + "; rules: five_spades"));
  Position p = Pos(pos + "; rules: five_spades");
  const MoveOutcome out = ApplyMove(p, M("trail 5S"));
  EXPECT_EQ(out.captured.ToString(), "5S 2H 7H 3C");
  EXPECT_TRUE(out.sweep);
  EXPECT_TRUE(p.table.empty());
  // Onto an empty table it is a plain trail.
  Position empty = Pos("table: -; hands: 5S / ?; rules: five_spades");
  EXPECT_TRUE(ApplyMove(empty, M("trail 5S")).captured.empty());
  EXPECT_EQ(empty.table.ToString(), "5S");
}

// Allowed while controlling a build (v1 bars other trails).
TEST(FiveSpadesTest, AllowedWhileControllingABuild) {
  const std::string pos = "table: [4H 4C]=8@0 6D; hands: 5S 8S / ?";
  EXPECT_EQ(SortedMoves(pos), Sorted({"take 8S 4H 4C"}));
  EXPECT_EQ(SortedMoves(pos + "; rules: five_spades"),
            Sorted({"take 8S 4H 4C", "trail 5S"}));
  EXPECT_EQ(Reason(pos + "; rules: five_spades", "trail 8S"),
            "you control a build of 8 ([4H 4C]=8@0) and may not trail");
}

// It takes the mover's own build, which satisfies v2.
TEST(FiveSpadesTest, TakesOwnBuildUnderV2) {
  const std::string pos =
      "table: [4H 4C]=8@0 2D; hands: 5S 8S 7C / ?; rules: "
      "builder_obligation=v2";
  EXPECT_EQ(SortedMoves(pos), Sorted({"take 8S 4H 4C"}));
  EXPECT_EQ(SortedMoves(pos + " five_spades_sweep=on"),
            Sorted({"take 8S 4H 4C", "trail 5S"}));
}

TEST(FiveSpadesTest, GameCountsTheSweep) {
  // Play seeded games, trailing 5S whenever it would take a non-empty table.
  const RuleSet rules = *RuleSet::Parse("five_spades");
  int seen = 0;
  for (uint8_t n = 0; n < 20 && seen < 3; ++n) {
    Seed seed{};
    seed[0] = n;
    Game g = *Game::Create(rules, DeckSource::FromSeed(seed));
    while (!g.over() && g.round() == 1) {
      const std::vector<Move> moves = g.LegalMoves();
      const Move five = Move::Trail(kFiveOfSpades);
      const bool sweep =
          std::find(moves.begin(), moves.end(), five) != moves.end() &&
          !g.position().table.empty();
      if (!sweep) {
        ASSERT_TRUE(g.Play(moves.back()).ok());
        continue;
      }
      const int side = g.rules().SideOf(g.to_move());
      const CardSet table = g.position().table.AllCards();
      const size_t sweeps = g.sweeps().size();
      ASSERT_TRUE(g.Play(five).ok());
      if (g.round() != 1) break;  // the round ended with this move
      EXPECT_TRUE(g.piles()[side].contains(table | CardSet::Of(five.card)));
      EXPECT_EQ(g.sweeps().size(), sweeps + 1);
      EXPECT_EQ(g.last_capturer(), side);
      EXPECT_TRUE(g.history().back().outcome.sweep);
      ++seen;
    }
  }
  EXPECT_GT(seen, 0);
}

// --- defaults_cost (Michigan) ---------------------------------------------

TEST(DefaultsCostTest, BreakingTheBuilderRulesIsLegal) {
  const std::string pos =
      "table: 8D 2C AH [5S 3H]=8@0 [4C 2H]=6@1; hands: 8C 4D TS / ?";
  // (8C also takes seat 1's single 6 by combination with 2C.)
  EXPECT_EQ(
      SortedMoves(pos),
      Sorted({"build 10 4D 2H 4C", "build 10 4D 2H 8D 2C 4C", "take 8C 5S 3H",
              "take 8C 5S 3H 8D", "take 8C 5S 2H 3H 2C 4C",
              "take 8C 5S 2H 3H 8D 2C 4C", "take TS 8D 2C"}));
  // Leaving the own 8 unheld breaks the guard: legal at a cost.
  const std::vector<std::string> all =
      Sorted({"take 8C 5S 3H", "take 8C 8D", "take 8C 5S 3H 8D",
              "take 8C 5S 2H 3H 2C 4C", "take 8C 5S 2H 3H 8D 2C 4C",
              "take 8C 2H 2C 4C", "take 8C 2H 8D 2C 4C", "build 10 8C 2C",
              "build 10 4D 2H 4C", "build 10 4D 2H 8D 2C 4C", "take TS 8D 2C",
              "trail 8C", "trail 4D", "trail TS"});
  EXPECT_EQ(SortedMoves(pos + "; rules: defaults_cost=2"), all);
  EXPECT_EQ(SortedMoves(pos + "; rules: defaults_cost=2 builder_obligation=v2"),
            all);
  // Validation names the broken rule instead of refusing.
  const Position p = Pos(pos + "; rules: defaults_cost=2");
  auto broken = [&](const char* move) {
    MoveEffect e;
    EXPECT_TRUE(AnalyseMove(p, M(move), &e).ok()) << move;
    return e.broken;
  };
  EXPECT_EQ(broken("trail 4D"), BuilderViolation::kMayNotTrail);
  EXPECT_EQ(broken("take 8C 8D"), BuilderViolation::kGuard);
  EXPECT_EQ(broken("take TS 8D 2C"), BuilderViolation::kNone);
  // Other rules still refuse.
  EXPECT_EQ(Reason(pos + "; rules: defaults_cost=2", "take 8C 2C"),
            "the cards taken (2C) do not split into groups summing to 8");
}

// Revision 2: the other side scores the defaulter's points; revision 1 took
// them from the mover's total.
TEST(DefaultsCostTest, GameChargesTheMover) {
  for (const int revision : {1, 2}) {
    const RuleSet rules =
        *RuleSet::Parse(absl::StrCat("defaults_cost=2 revision=", revision));
    int charged = 0;
    for (uint8_t n = 0; n < 20 && charged < 3; ++n) {
      Seed seed{};
      seed[0] = n;
      Game g = *Game::Create(rules, DeckSource::FromSeed(seed));
      while (!g.over() && g.round() == 1) {
        const std::vector<Move> moves = g.LegalMoves();
        // Prefer a move that breaks the builder rules, else build, else the
        // first move.
        const Move* pick = &moves.front();
        bool breaks = false;
        for (const Move& m : moves) {
          MoveEffect e;
          ASSERT_TRUE(AnalyseMove(g.position(), m, &e).ok());
          if (e.broken != BuilderViolation::kNone) {
            pick = &m;
            breaks = true;
            break;
          }
          if (m.kind == MoveKind::kBuild) pick = &m;
        }
        const int side = g.rules().SideOf(g.to_move());
        const std::vector<int> before = g.totals();
        const int round = g.round();
        ASSERT_TRUE(g.Play(*pick).ok());
        if (g.round() != round || g.over()) break;  // scored
        EXPECT_EQ(g.history().back().outcome.penalty, breaks ? 2 : 0);
        const int cost = breaks ? 2 : 0;
        if (revision == 1) {
          EXPECT_EQ(g.totals()[side], before[side] - cost);
          EXPECT_EQ(g.totals()[1 - side], before[1 - side]);
        } else {
          EXPECT_EQ(g.totals()[side], before[side]);
          EXPECT_EQ(g.totals()[1 - side], before[1 - side] + cost);
        }
        charged += breaks;
      }
    }
    EXPECT_GT(charged, 0);
  }
}

// --- Pluck ---------------------------------------------------------------

TEST(PluckTest, BeforeOrAfterThePlay) {
  const std::string pos = "table: 7H 3C; hands: 3D 9S / ?";
  EXPECT_EQ(SortedMoves(pos), Sorted({"take 3D 3C", "trail 3D", "trail 9S"}));
  EXPECT_EQ(SortedMoves(pos + "; rules: pluck"),
            Sorted({"take 3D 3C", "trail 3D", "trail 9S",
                    // After: not the card just played; nothing after the
                    // capture, which leaves one card.
                    "trail 3D, pluck 7H", "trail 3D, pluck 3C",
                    "trail 9S, pluck 7H", "trail 9S, pluck 3C",
                    // Before: the play is judged without the plucked card.
                    "pluck 7H, take 3D 3C", "pluck 7H, trail 3D",
                    "pluck 7H, trail 9S", "pluck 3C, trail 3D",
                    "pluck 3C, trail 9S"}));
  // (The parser refuses this; a move built in code is judged like this.)
  EXPECT_EQ(ValidateMove(Pos(pos + "; rules: pluck"),
                         M("take 3D 3C").WithPluck(*Card::Parse("3C"), false))
                .message(),
            "3C is not on the table");
  EXPECT_EQ(Reason(pos + "; rules: pluck", "take 3D 3C, pluck 7H"),
            "no plucking with only one card on the table (after your play)");
  EXPECT_EQ(Reason(pos, "trail 3D, pluck 7H"), "plucking is off (pluck=off)");
}

TEST(PluckTest, NeverAnAceBigOrLittleCassino) {
  const std::string pos = "table: AH 2S TD 6C; hands: 4D / ?; rules: pluck";
  EXPECT_EQ(SortedMoves(pos),
            Sorted({"trail 4D", "trail 4D, pluck 6C", "pluck 6C, trail 4D"}));
  EXPECT_EQ(Reason(pos, "trail 4D, pluck AH"),
            "AH may not be plucked (a point card: it scores by itself)");
  EXPECT_EQ(Reason(pos, "pluck TD, trail 4D"),
            "TD may not be plucked (a point card: it scores by itself)");
  Position p = Pos(pos);
  Move m = M("trail 4D");
  EXPECT_EQ(ValidateMove(p, m.WithPluck(m.card, true)).message(),
            "you may not pluck the card you just played (4D)");
}

TEST(PluckTest, OncePerDealNotOnTheLastDealNotFromOneCard) {
  const std::string pos = "table: 7H 3C; hands: 3D 9S / ?; rules: pluck";
  const std::vector<std::string> plain = {"take 3D 3C", "trail 3D", "trail 9S"};
  EXPECT_EQ(SortedMoves(pos + "; plucked: 0"), Sorted(plain));
  EXPECT_EQ(SortedMoves(pos + "; plucked: 1").size(), 12u);
  EXPECT_EQ(SortedMoves(pos + "; stock_empty: on"), Sorted(plain));
  EXPECT_EQ(Reason(pos + "; plucked: 0", "trail 3D, pluck 7H"),
            "you have already plucked in this deal (once per deal)");
  EXPECT_EQ(Reason(pos + "; stock_empty: on", "trail 3D, pluck 7H"),
            "no plucking once the stock is empty (the last deal)");
  // One card on the table: only after a play that adds one.
  const std::string one = "table: 7H; hands: 3D 5C / ?; rules: pluck";
  EXPECT_EQ(SortedMoves(one),
            Sorted({"trail 3D", "trail 5C", "trail 3D, pluck 7H",
                    "trail 5C, pluck 7H"}));
  EXPECT_EQ(Reason(one, "pluck 7H, trail 3D"),
            "no plucking with only one card on the table (before your play)");
  // The position text keeps the pluck state.
  EXPECT_EQ(Pos(pos + "; plucked: 0; stock_empty: on").ToString(),
            "table: 7H 3C; hands: 9S 3D / -; to_move: 0; rules: pluck=on; "
            "plucked: 0; stock_empty: on");
}

TEST(PluckTest, NotationRoundTrips) {
  for (const char* text :
       {"pluck 7H, trail 3D", "trail 3D, pluck 7H", "pluck 7H, take 3D 3C",
        "take 8C 5S 3H, pluck 9D", "pluck 9D, build 8 3D 5S",
        "pluck 9D, take AC=14 KS AH"}) {
    absl::StatusOr<Move> m = Move::Parse(text);
    ASSERT_TRUE(m.ok()) << text << ": " << m.status();
    EXPECT_EQ(m->ToString(), text);
    EXPECT_EQ(*Move::Parse(m->ToString()), *m);
  }
  EXPECT_EQ(Move::Parse("PLUCK 7h trail 3d")->ToString(), "pluck 7H, trail 3D");
  EXPECT_NE(*Move::Parse("pluck 7H, trail 3D"),
            *Move::Parse("trail 3D, pluck 7H"));
  EXPECT_NE(*Move::Parse("pluck 7H, trail 3D"), *Move::Parse("trail 3D"));
  for (const char* bad : {"pluck 7H", "pluck, trail 3D", "trail 3D, pluck",
                          "pluck 7H, trail 3D, pluck 8H", "pluck 7H, call",
                          "trail 3D, pluck 7H 8H", "pluck 3D, trail 3D",
                          "pluck 8H, take 8C 8H"}) {
    EXPECT_FALSE(Move::Parse(bad).ok()) << bad;
  }
}

TEST(PluckTest, GameGivesThePluckedCardToThePile) {
  const RuleSet rules = *RuleSet::Parse("pluck");
  Seed seed{};
  Game g = *Game::Create(rules, DeckSource::FromSeed(seed));
  int plucks = 0;
  while (!g.over() && g.round() == 1) {
    const std::vector<Move> moves = g.LegalMoves();
    const Move* pick = &moves.front();
    for (const Move& m : moves) {
      if (m.has_pluck()) {
        pick = &m;
        break;
      }
    }
    const int side = g.rules().SideOf(g.to_move());
    const int seat = g.to_move();
    const int capturer = g.last_capturer();
    const int deal = g.deal();
    ASSERT_TRUE(g.Play(*pick).ok()) << pick->ToString();
    if (g.round() != 1) break;
    if (pick->has_pluck()) {
      ++plucks;
      EXPECT_TRUE(g.piles()[side].contains(pick->pluck));
      EXPECT_EQ(g.history().back().outcome.plucked, pick->pluck);
      if (pick->kind != MoveKind::kCapture) {
        EXPECT_EQ(g.last_capturer(), capturer);  // a pluck is not a capture
      }
      if (g.deal() == deal) {
        EXPECT_TRUE(g.position().plucked >> seat & 1);
      }
    }
    // On the last deal nobody may pluck.
    if (g.stock_size() == 0) {
      EXPECT_TRUE(g.position().stock_empty);
    }
    if (g.position().stock_empty) {
      for (const Move& m : g.LegalMoves()) EXPECT_FALSE(m.has_pluck());
    }
  }
  // Two players, six deals: each plucks once per deal except on the last.
  EXPECT_EQ(plucks, 10);
}

// --- Brute force ---------------------------------------------------------

// Random positions under `rules_text`, with builds made by random legal
// build moves; the generated list must equal the brute-force list.
void CheckAgainstBruteForce(const std::string& rules_text, int iterations,
                            uint64_t seed, int max_table = 10) {
  std::mt19937_64 rng(seed);
  const RuleSet rules = *RuleSet::Parse(rules_text);
  int checked = 0;
  for (int iter = 0; iter < iterations; ++iter) {
    std::vector<Card> deck = CanonicalDeck();
    std::shuffle(deck.begin(), deck.end(), rng);
    Position p;
    p.rules = rules;
    p.rules.builder_obligation = BuilderObligation::kNone;
    p.hands.assign(2, CardSet());
    int k = 0;
    const int loose = 2 + rng() % 7;
    for (int i = 0; i < loose; ++i) p.table.loose.insert(deck[k++]);
    for (int s = 0; s < 2; ++s) {
      for (int i = 0; i < 4; ++i) p.hands[s].insert(deck[k++]);
    }
    for (int step = 0; step < 3; ++step) {
      p.to_move = rng() % 2;
      std::vector<Move> builds;
      for (const Move& m : LegalMoves(p)) {
        if (m.kind == MoveKind::kBuild) builds.push_back(m);
      }
      if (builds.empty()) continue;
      ApplyMove(p, builds[rng() % builds.size()]);
    }
    if (p.table.AllCards().size() > max_table) continue;
    p.to_move = rng() % 2;
    p.rules = rules;
    ASSERT_TRUE(p.Validate().ok()) << p.ToString();
    std::vector<std::string> generated;
    for (const Move& m : LegalMoves(p)) generated.push_back(m.ToString());
    std::sort(generated.begin(), generated.end());
    ASSERT_EQ(generated, BruteForce(p)) << p.ToString();
    ++checked;
  }
  EXPECT_GT(checked, iterations / 2);
}

TEST(VariantBruteForceTest, Royal) { CheckAgainstBruteForce("royal", 120, 1); }
TEST(VariantBruteForceTest, RoyalV2) {
  CheckAgainstBruteForce("royal builder_obligation=v2", 60, 2);
}
TEST(VariantBruteForceTest, Buckeye) {
  CheckAgainstBruteForce("buckeye", 120, 3);
}
TEST(VariantBruteForceTest, TrailingRoyals) {
  CheckAgainstBruteForce("trailing_royals", 150, 5);
}
TEST(VariantBruteForceTest, FaceFour) {
  CheckAgainstBruteForce("face_four builder_obligation=v3", 150, 6);
}
TEST(VariantBruteForceTest, MultipleBuildsOff) {
  CheckAgainstBruteForce("multiple_builds=off", 100, 7);
}
TEST(VariantBruteForceTest, FiveSpades) {
  CheckAgainstBruteForce("five_spades builder_obligation=v2", 100, 8);
}
TEST(VariantBruteForceTest, DefaultsCost) {
  CheckAgainstBruteForce("defaults_cost=2 builder_obligation=v3", 100, 9);
}
TEST(VariantBruteForceTest, Pluck) {
  CheckAgainstBruteForce("pluck", 150, 10, 6);
}
TEST(VariantBruteForceTest, PluckFiveSpadesV2) {
  CheckAgainstBruteForce("pluck five_spades_sweep=on builder_obligation=v2",
                         100, 11, 6);
}
TEST(VariantBruteForceTest, StandardDualTen) {
  CheckAgainstBruteForce("dual_ten=on", 80, 4);
}

}  // namespace
}  // namespace cassino
