// How a reject event's `submitted` field holds a refused submission, so
// that `cassino verify` can interpret it again (docs/record_format.md,
// "reject").
//
// Contract: SubmissionText keeps every field of the submission (each cut
// just past its limit by ClipSubmission, so Interpret refuses the text as
// it refused the whole). A submission of a notation alone is written as
// the notation itself (as records always held it), unless the notation
// begins with '{'; any other is written as a canonical JSON object of every
// field, keys sorted: {"card":"5H","declared_value":0,"kind":2,"notation":
// "","pluck_after":false,"pluck_card":"","second_card":"","table_cards":
// ["5D"],"value":0}. ParseSubmissionText inverts it; a text that is not
// such an object is a notation (older records: also their
// "kind=... card=..." summaries, which Interpret refuses as they were).

#ifndef CASSINO_RECORDER_SUBMISSION_TEXT_H_
#define CASSINO_RECORDER_SUBMISSION_TEXT_H_

#include <string>

#include "absl/strings/string_view.h"
#include "rules/submission.h"

namespace cassino::recorder {

std::string SubmissionText(const Submission& submission);
Submission ParseSubmissionText(absl::string_view text);

}  // namespace cassino::recorder

#endif  // CASSINO_RECORDER_SUBMISSION_TEXT_H_
