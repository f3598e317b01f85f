#include "rules/submission.h"

#include "gtest/gtest.h"

namespace cassino {
namespace {

// The field an error names, or "" when the submission is accepted.
std::string FieldOf(const Submission& s) {
  absl::StatusOr<Move> move = Interpret(s);
  return move.ok() ? "" : SubmissionErrorField(move.status());
}

TEST(SubmissionTest, AnErrorNamesTheFieldItIsAbout) {
  Submission notation;
  notation.notation = "take 8C";
  EXPECT_EQ(FieldOf(notation), "move.notation");

  Submission bad_card;
  bad_card.kind = kSubmittedTrail;
  bad_card.card = "1X";
  EXPECT_EQ(FieldOf(bad_card), "move.card");

  Submission long_card;
  long_card.kind = kSubmittedTrail;
  long_card.second_card = std::string(kMaxCardField + 1, 'A');
  EXPECT_EQ(FieldOf(long_card), "move.second_card");

  Submission bad_kind;
  bad_kind.kind = 9;
  bad_kind.card = "7H";
  EXPECT_EQ(FieldOf(bad_kind), "move.kind");

  Submission value_off_build;
  value_off_build.kind = kSubmittedTrail;
  value_off_build.card = "7H";
  value_off_build.value = 7;
  EXPECT_EQ(FieldOf(value_off_build), "move.value");

  // About the move as a whole: no one field.
  EXPECT_EQ(FieldOf(Submission()), "move");
  Submission capture_nothing;
  capture_nothing.kind = kSubmittedCapture;
  capture_nothing.card = "7H";
  EXPECT_EQ(FieldOf(capture_nothing), "move");

  Submission fine;
  fine.notation = "trail 7H";
  EXPECT_EQ(FieldOf(fine), "");
  // A status Interpret did not make names no field.
  EXPECT_EQ(SubmissionErrorField(absl::InvalidArgumentError("x")), "move");
}

// A kind beside a notation: a kind that is not the notation's says so (not
// that some field is not a card), and so does a kind given without the
// card; the kind with every field in agreement is the move.
TEST(SubmissionTest, AKindThatDisagreesWithTheNotationSaysSo) {
  Submission trail_kind;
  trail_kind.notation = "take 8C 8H";
  trail_kind.kind = kSubmittedTrail;
  absl::StatusOr<Move> move = Interpret(trail_kind);
  ASSERT_FALSE(move.ok());
  EXPECT_EQ(SubmissionErrorField(move.status()), "move.kind");
  EXPECT_EQ(move.status().message(),
            "move.kind MOVE_KIND_TRAIL disagrees with move.notation \"take 8C "
            "8H\", which is a capture: give the notation alone, or the kind "
            "and every field of the same move");

  Submission call_kind;
  call_kind.notation = "call";
  call_kind.kind = kSubmittedBuild;
  move = Interpret(call_kind);
  ASSERT_FALSE(move.ok());
  EXPECT_NE(move.status().message().find("which is a call-out"),
            std::string::npos)
      << move.status().message();

  Submission no_card;
  no_card.notation = "trail 7H";
  no_card.kind = kSubmittedTrail;
  move = Interpret(no_card);
  ASSERT_FALSE(move.ok());
  EXPECT_EQ(SubmissionErrorField(move.status()), "move.card");
  EXPECT_EQ(move.status().message(),
            "move.card is empty, but move.kind is set beside move.notation "
            "\"trail 7H\": with a kind, give every field of the move (here "
            "move.card 7H), or the notation alone");

  Submission agreed = no_card;
  agreed.card = "7H";
  ASSERT_TRUE(Interpret(agreed).ok());
  EXPECT_EQ(Interpret(agreed)->ToString(), "trail 7H");
  Submission call_agreed = call_kind;
  call_agreed.kind = kSubmittedCallOut;
  EXPECT_TRUE(Interpret(call_agreed).ok());
  // An unknown kind is still about the kind itself.
  Submission unknown = no_card;
  unknown.kind = 9;
  unknown.card = "7H";
  move = Interpret(unknown);
  ASSERT_FALSE(move.ok());
  EXPECT_EQ(move.status().message(), "move.kind 9 is not a move kind");
}

}  // namespace
}  // namespace cassino
