// Validation reasons: every refusal says what is wrong in words.

#include "rules/adjudicator.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/rules/test_util.h"

namespace cassino {
namespace {

using ::cassino::testing::M;
using ::cassino::testing::Pos;
using ::testing::HasSubstr;

std::string Reason(const std::string& position, const std::string& move) {
  absl::Status s = ValidateMove(Pos(position), M(move));
  EXPECT_FALSE(s.ok()) << move;
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  return std::string(s.message());
}

const char kExample2[] =
    "table: 8D 2C AH [5S 3H]=8@0 [4C 2H]=6@1; hands: 8C 4D TS / ?";

TEST(AdjudicatorTest, ControllerMayNotTrail) {
  EXPECT_EQ(Reason(kExample2, "trail 4D"),
            "you control a build of 8 ([5S 3H]=8@0) and may not trail");
}

TEST(AdjudicatorTest, GuardProtectsTheBuildersCard) {
  EXPECT_THAT(Reason(kExample2, "take 8C 8D"),
              HasSubstr("leave you no card of 8"));
}

TEST(AdjudicatorTest, BuildingNeedsTheValueInHand) {
  EXPECT_EQ(Reason("table: 5S; hands: 4D 8C / ?", "build 9 4D 5S"),
            "building 9 requires a 9 left in hand to take it later");
}

TEST(AdjudicatorTest, V2RequiresUsingOwnBuild) {
  EXPECT_THAT(Reason(std::string(kExample2) + "; rules: builder_obligation=v2",
                     "take TS 8D 2C"),
              HasSubstr("builder_obligation=v2"));
}

TEST(AdjudicatorTest, CardsMustBeHeldAndOnTheTable) {
  EXPECT_EQ(Reason(kExample2, "take 9C 8D"), "you do not hold 9C");
  EXPECT_EQ(Reason(kExample2, "take TS 7D 3D"), "3D is not on the table");
}

TEST(AdjudicatorTest, BuildsAreNeverSplitOrMerged) {
  EXPECT_THAT(
      Reason(kExample2, "take 8C 5S 8D"),
      HasSubstr("is part of the build [5S 3H]=8@0; builds are never split"));
  EXPECT_THAT(Reason("table: [5S 3H]=8@1 [4C 2H]=6@1; hands: 2D TS / ?",
                     "build 10 2D 5S 3H 4C 2H"),
              HasSubstr("never merged"));
}

TEST(AdjudicatorTest, CaptureSumsMustSplit) {
  EXPECT_THAT(Reason("table: 6D 3C; hands: 8C / ?", "take 8C 6D 3C"),
              HasSubstr("do not split into groups summing to 8"));
  EXPECT_THAT(Reason("table: [4C 2H]=6@0; hands: 8C / ?", "take 8C 4C 2H"),
              HasSubstr("cannot be taken with 8C"));
  EXPECT_THAT(Reason("table: [4C 2H]=6@1; hands: 8C / ?; rules: "
                     "builds_in_sums=never",
                     "take 8C 4C 2H"),
              HasSubstr("cannot be taken with 8C"));
  // An adversary's single build may be part of a sum, which must still
  // split into groups of the capturing value.
  EXPECT_THAT(Reason("table: [4C 2H]=6@1; hands: 8C / ?", "take 8C 4C 2H"),
              HasSubstr("do not split into groups summing to 8"));
}

TEST(AdjudicatorTest, FaceCards) {
  EXPECT_EQ(Reason("table: QS KH; hands: QD / ?", "take QD KH"),
            "a queen takes only a queen (KH is not one)");
  EXPECT_THAT(Reason("table: QS QH; hands: QD / ?", "take QD QS QH"),
              HasSubstr("face_capture=one"));
  EXPECT_THAT(Reason("table: QS 2H; hands: QD 2C / ?", "build 2 QD 2H"),
              HasSubstr("face cards never take part in a build"));
  EXPECT_THAT(Reason("table: KS 2H; hands: 3D TC / ?", "take TC KS"),
              HasSubstr("a face card (KS) is never part of a sum"));
}

TEST(AdjudicatorTest, MultipleBuildsAreNeverRaised) {
  EXPECT_THAT(Reason("table: [5C 3D 2H]=5m@1 AD; hands: AS 6D 5H / ?",
                     "build 6 AS 5C 3D 2H"),
              HasSubstr("a multiple build is never raised"));
}

TEST(AdjudicatorTest, NewBuildNeedsATableCardWithThePlayedCard) {
  EXPECT_THAT(ValidateMove(Pos("table: 8H; hands: 8C 8D / ?"),
                           Move::Build(*Card::Parse("8C"), 8, CardSet()))
                  .message(),
              HasSubstr("at least one table card"));
  // A natural build (the played card alone is a group) is legal from
  // revision 2; revision 1 refused it.
  EXPECT_TRUE(
      ValidateMove(Pos("table: 8H; hands: 8C 8D / ?"), M("build 8 8C 8H"))
          .ok());
  EXPECT_THAT(
      Reason("table: 8H; hands: 8C 8D / ?; rules: revision=1", "build 8 8C 8H"),
      HasSubstr("use take"));
}

TEST(AdjudicatorTest, OwnRaiseForbidden) {
  EXPECT_THAT(Reason("table: [3S 2H]=5@0; hands: 3C 8D 5D / ?; "
                     "rules: own_raise=forbidden",
                     "build 8 3C 3S 2H"),
              HasSubstr("own_raise=forbidden"));
}

TEST(AdjudicatorTest, CallOutNeedsTheOption) {
  EXPECT_THAT(Reason("table: 5S; hands: 4D / ?", "call"),
              HasSubstr("call_out=off"));
  EXPECT_TRUE(ValidateMove(Pos("table: 5S; hands: 4D / ?; rules: call_out=on"),
                           M("call"))
                  .ok());
}

TEST(AdjudicatorTest, ApplyMakesBuildsWithControllerAndKind) {
  Position p = Pos("table: 2C KH 6D 5S 8H; hands: 3D 8C / 9S");
  MoveOutcome out = ApplyMove(p, M("build 8 3D 5S 8H 6D 2C"));
  EXPECT_TRUE(out.captured.empty());
  EXPECT_EQ(p.table.ToString(), "KH [5S 8H 3D 6D 2C]=8m@0");
  EXPECT_EQ(p.to_move, 1);
  EXPECT_EQ(p.hands[0].ToString(), "8C");
}

TEST(AdjudicatorTest, ApplyCaptureDetectsSweep) {
  Position p = Pos("table: 6D 2C [5S 3H]=8@1; hands: 8C 3D / 9S");
  MoveOutcome out = ApplyMove(p, M("take 8C 5S 3H 6D 2C"));
  EXPECT_TRUE(out.sweep);
  EXPECT_EQ(out.captured.ToString(), "5S 3H 6D 2C 8C");
  EXPECT_TRUE(p.table.empty());
}

// The form that writes into a caller's record does what the returned form
// does, whatever the record held before (Game keeps the outcome in its
// history this way).
TEST(AdjudicatorTest, ApplyIntoARecordReplacesWhatItHeld) {
  const MoveOutcome stale{
      .captured = CardSet::Of(Card::Of(kKing, Suit::kHearts)),
      .sweep = true,
      .penalty = 3,
      .plucked = Card::Of(kAce, Suit::kSpades)};
  for (const char* move : {"take 8C 5S 3H 6D 2C", "trail 3D",
                           "pluck 2C, take 8C 5S 3H", "trail 3D, pluck 6D"}) {
    SCOPED_TRACE(move);
    const Position start =
        Pos("table: 6D 2C [5S 3H]=8@1; hands: 8C 3D / 9S; rules: pluck");
    ASSERT_TRUE(ValidateMove(start, M(move)).ok());
    Position returned = start, in_place = start;
    const MoveOutcome expected = ApplyMove(returned, M(move));
    MoveOutcome record = stale;
    ApplyMove(in_place, M(move), &record);
    EXPECT_EQ(record, expected);
    EXPECT_EQ(in_place, returned);
  }
  // One of them pinned: the pluck before, then a capture that leaves 6D.
  Position p = Pos("table: 6D 2C [5S 3H]=8@1; hands: 8C 3D / 9S; rules: pluck");
  MoveOutcome out = stale;
  ApplyMove(p, M("pluck 2C, take 8C 5S 3H"), &out);
  EXPECT_EQ(out.captured.ToString(), "5S 3H 8C");
  EXPECT_FALSE(out.sweep);
  EXPECT_EQ(out.penalty, 0);
  EXPECT_EQ(out.plucked.ToString(), "2C");
  EXPECT_EQ(p.table.ToString(), "6D");
}

}  // namespace
}  // namespace cassino
