#include "recorder/submission_text.h"

#include <utility>

#include "absl/strings/match.h"
#include "recorder/canonical_json.h"

namespace cassino::recorder {

std::string SubmissionText(const Submission& submission) {
  const Submission s = ClipSubmission(submission);
  if (s.NotationOnly() && !absl::StartsWith(s.notation, "{")) {
    return s.notation;
  }
  std::string out;
  JsonWriter(&out)
      .Raw("{\"card\":")
      .String(s.card)
      .Raw(",\"declared_value\":")
      .Int(s.declared_value)
      .Raw(",\"kind\":")
      .Int(s.kind)
      .Raw(",\"notation\":")
      .String(s.notation)
      .Raw(",\"pluck_after\":")
      .Bool(s.pluck_after)
      .Raw(",\"pluck_card\":")
      .String(s.pluck_card)
      .Raw(",\"second_card\":")
      .String(s.second_card)
      .Raw(",\"table_cards\":")
      .StringArray(s.table_cards)
      .Raw(",\"value\":")
      .Int(s.value)
      .Raw("}");
  return out;
}

Submission ParseSubmissionText(absl::string_view text) {
  Submission s;
  if (absl::StartsWith(text, "{")) {
    CanonicalReader r(text);
    int declared = 0, kind = 0, value = 0;
    if (r.Literal("{\"card\":") && r.String(&s.card) &&
        r.Literal(",\"declared_value\":") && r.Int(&declared) &&
        r.Literal(",\"kind\":") && r.Int(&kind) &&
        r.Literal(",\"notation\":") && r.String(&s.notation) &&
        r.Literal(",\"pluck_after\":") && r.Bool(&s.pluck_after) &&
        r.Literal(",\"pluck_card\":") && r.String(&s.pluck_card) &&
        r.Literal(",\"second_card\":") && r.String(&s.second_card) &&
        r.Literal(",\"table_cards\":") && r.StringArray(&s.table_cards) &&
        r.Literal(",\"value\":") && r.Int(&value) && r.Literal("}") &&
        r.End()) {
      s.declared_value = declared;
      s.kind = kind;
      s.value = value;
      return s;
    }
  }
  Submission notation;
  notation.notation = std::string(text);
  return notation;
}

}  // namespace cassino::recorder
