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

}  // namespace
}  // namespace cassino
