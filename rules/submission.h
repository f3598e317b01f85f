// A move as a bot submitted it, field by field, before interpretation; and
// the one interpretation of it that both the referee (for a submission) and
// `cassino verify` (for a recorded rejection) apply.
//
// Contract: Interpret is pure and total: it returns the move the fields
// describe, or InvalidArgument saying what is malformed. The notation and
// the structured fields are two ways to say a move: give one of them, or
// both in full agreement. Every field is checked: a field the move has no
// use for (a trail's table cards, a call-out's card), a field set beside a
// notation without `kind`, or any field that disagrees with the notation
// refuses the submission. Sizes are checked before anything is parsed
// (kMaxNotation bytes of notation, kMaxCardField bytes per card field, at
// most kMaxTableCards table cards), so a submission clipped just past those
// limits (ClipSubmission, which the record keeps) is refused as the full
// one was.

#ifndef CASSINO_RULES_SUBMISSION_H_
#define CASSINO_RULES_SUBMISSION_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "rules/move.h"

namespace cassino {

// The kinds, numbered as cassino.v1.MoveKind.
enum SubmittedKind : int32_t {
  kSubmittedUnspecified = 0,
  kSubmittedTrail = 1,
  kSubmittedCapture = 2,
  kSubmittedBuild = 3,
  kSubmittedCallOut = 4,
};

struct Submission {
  std::string notation;
  int32_t kind = kSubmittedUnspecified;  // any number a client sent
  std::string card;
  int32_t value = 0;
  std::vector<std::string> table_cards;
  std::string second_card;
  int32_t declared_value = 0;
  std::string pluck_card;
  bool pluck_after = false;

  // Only the notation is set (every other field has its default).
  bool NotationOnly() const;
  friend bool operator==(const Submission&, const Submission&) = default;
};

inline constexpr size_t kMaxNotation = 256;
inline constexpr size_t kMaxCardField = 8;
inline constexpr size_t kMaxTableCards = 52;

// The move the fields describe (syntax and shape, not legality). An error
// names the field it is about (SubmissionErrorField).
absl::StatusOr<Move> Interpret(const Submission& submission);

// The request field an error of Interpret is about, e.g. "move.card";
// "move" when it is about the submission as a whole (or not Interpret's).
std::string SubmissionErrorField(const absl::Status& status);

// The submission with each field cut one unit past its limit (bytes of a
// text, entries of the list), which Interpret refuses just as the whole.
Submission ClipSubmission(Submission submission);

}  // namespace cassino

#endif  // CASSINO_RULES_SUBMISSION_H_
