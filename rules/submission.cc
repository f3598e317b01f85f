#include "rules/submission.h"

#include <utility>

#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"

namespace cassino {
namespace {

constexpr char kFieldPayload[] = "cassino.rules/submission_field";

// InvalidArgument about the submission as a whole.
absl::Status Invalid(absl::string_view message) {
  return absl::InvalidArgumentError(message);
}
// InvalidArgument about one field ("move.card").
absl::Status Invalid(absl::string_view field, absl::string_view message) {
  absl::Status status = absl::InvalidArgumentError(message);
  status.SetPayload(kFieldPayload, absl::Cord(field));
  return status;
}

absl::StatusOr<CardSet> ParseCards(const std::vector<std::string>& cards) {
  CardSet set;
  for (const std::string& text : cards) {
    absl::StatusOr<Card> c = Card::Parse(text);
    if (!c.ok()) {
      return Invalid(absl::StrCat("card \"", text.substr(0, kMaxCardField),
                                  "\": ", c.status().message()));
    }
    if (set.contains(*c))
      return Invalid(absl::StrCat(text, " is listed twice"));
    set.insert(*c);
  }
  return set;
}

// The kind, cards and value of the structured fields, checked for shape.
absl::StatusOr<Move> StructuredBody(const Submission& m, Card played,
                                    CardSet table) {
  if (!m.second_card.empty() && m.kind != kSubmittedCapture) {
    return Invalid(
        "move.second_card",
        "move.second_card is only for a pair capture (kind CAPTURE)");
  }
  if (m.value != 0 && m.kind != kSubmittedBuild) {
    return Invalid("move.value", "move.value is only for a build (kind BUILD)");
  }
  switch (m.kind) {
    case kSubmittedTrail:
      if (!table.empty()) return Invalid("a trail involves no table cards");
      return Move::Trail(played);
    case kSubmittedCapture:
      if (table.empty()) return Invalid("a capture must take table cards");
      if (!m.second_card.empty()) {
        absl::StatusOr<Card> second = Card::Parse(m.second_card);
        if (!second.ok()) {
          return Invalid(
              "move.second_card",
              absl::StrCat("move.second_card: ", second.status().message()));
        }
        if (*second == played || table.size() != 1 || table.contains(*second)) {
          return Invalid(
              "a pair capture plays two different hand cards and takes one "
              "table card");
        }
        return Move::PairCapture(played, *second, table.first());
      }
      return Move::Capture(played, table);
    case kSubmittedBuild:
      if (m.value < 1 || m.value > 14) {
        return Invalid("move.value", absl::StrCat("move.value ", m.value,
                                                  " is not a build value"));
      }
      if (table.empty()) return Invalid("a build must use table cards");
      return Move::Build(played, m.value, table);
    default:
      return Invalid("move.kind",
                     absl::StrCat("move.kind ", m.kind, " is not a move kind"));
  }
}

// The structured fields (kind set), checked for shape.
absl::StatusOr<Move> Structured(const Submission& m) {
  if (m.kind == kSubmittedCallOut) {
    if (!m.card.empty() || m.value != 0 || !m.table_cards.empty() ||
        !m.second_card.empty() || m.declared_value != 0 ||
        !m.pluck_card.empty() || m.pluck_after) {
      return Invalid("a call-out (kind CALL_OUT) has no other field");
    }
    return Move::CallOut();
  }
  absl::StatusOr<Card> card = Card::Parse(m.card);
  if (!card.ok()) {
    return Invalid("move.card",
                   absl::StrCat("move.card: ", card.status().message()));
  }
  absl::StatusOr<CardSet> table = ParseCards(m.table_cards);
  if (!table.ok()) {
    return Invalid("move.table_cards", absl::StrCat("move.table_cards: ",
                                                    table.status().message()));
  }
  absl::StatusOr<Move> move = StructuredBody(m, *card, *table);
  if (!move.ok()) return move;
  if (m.declared_value != 0) {
    if (move->kind == MoveKind::kTrail || move->second.valid()) {
      return Invalid(
          "move.declared_value",
          "move.declared_value is for a card played to capture or build");
    }
    if (m.declared_value < 1 || m.declared_value > 14) {
      return Invalid("move.declared_value",
                     absl::StrCat("move.declared_value ", m.declared_value,
                                  " is not a card value"));
    }
    // The card's own rank is the default, as the notation writes it.
    move->declared = static_cast<int8_t>(
        m.declared_value == card->rank() ? 0 : m.declared_value);
  }
  if (!m.pluck_card.empty()) {
    absl::StatusOr<Card> pluck = Card::Parse(m.pluck_card);
    if (!pluck.ok()) {
      return Invalid("move.pluck_card", absl::StrCat("move.pluck_card: ",
                                                     pluck.status().message()));
    }
    if (*pluck == *card || table->contains(*pluck)) {
      return Invalid(
          absl::StrCat(pluck->ToString(), " cannot be plucked and played"));
    }
    *move = move->WithPluck(*pluck, m.pluck_after);
  } else if (m.pluck_after) {
    return Invalid("move.pluck_after", "move.pluck_after without a pluck_card");
  }
  return move;
}

// The kind's name as the API spells it (MoveKind), and what it is in words.
struct KindWords {
  const char* api;
  const char* words;
};
KindWords WordsOf(int32_t kind) {
  switch (kind) {
    case kSubmittedTrail:
      return {"MOVE_KIND_TRAIL", "a trail"};
    case kSubmittedCapture:
      return {"MOVE_KIND_CAPTURE", "a capture"};
    case kSubmittedBuild:
      return {"MOVE_KIND_BUILD", "a build"};
    case kSubmittedCallOut:
      return {"MOVE_KIND_CALL_OUT", "a call-out"};
    default:
      return {"?", "?"};
  }
}

int32_t SubmittedKindOf(MoveKind kind) {
  switch (kind) {
    case MoveKind::kTrail:
      return kSubmittedTrail;
    case MoveKind::kCapture:
      return kSubmittedCapture;
    case MoveKind::kBuild:
      return kSubmittedBuild;
    case MoveKind::kCallOut:
      return kSubmittedCallOut;
  }
  return kSubmittedUnspecified;
}

// A notation given with a kind: the kind must be the notation's, and then
// the other fields must say the same move. Said before the fields are
// parsed, so that a bot that sets the kind beside a notation and leaves the
// card empty is told that, not that "" is not a card.
absl::Status CheckKindAgrees(const Submission& m, const Move& parsed) {
  const int32_t said = SubmittedKindOf(parsed.kind);
  if (m.kind >= kSubmittedTrail && m.kind <= kSubmittedCallOut &&
      m.kind != said) {
    return Invalid(
        "move.kind",
        absl::StrCat("move.kind ", WordsOf(m.kind).api,
                     " disagrees with "
                     "move.notation \"",
                     parsed.ToString(), "\", which is ", WordsOf(said).words,
                     ": give the notation alone, or the "
                     "kind and every field of the same move"));
  }
  if (m.kind != kSubmittedCallOut && m.card.empty()) {
    return Invalid(
        "move.card",
        absl::StrCat("move.card is empty, but move.kind is set beside "
                     "move.notation \"",
                     parsed.ToString(),
                     "\": with a "
                     "kind, give every field of the move (here move.card ",
                     parsed.card.ToString(), "), or the notation alone"));
  }
  return absl::OkStatus();
}

absl::Status CheckSizes(const Submission& m) {
  if (m.notation.size() > kMaxNotation) {
    return Invalid(
        "move.notation",
        absl::StrCat("move.notation is longer than ", kMaxNotation, " bytes"));
  }
  if (m.table_cards.size() > kMaxTableCards) {
    return Invalid("move.table_cards",
                   absl::StrCat("move.table_cards lists more than ",
                                kMaxTableCards, " cards"));
  }
  auto too_long = [](const std::string& s) { return s.size() > kMaxCardField; };
  for (const auto& [field, text] :
       {std::pair<const char*, const std::string*>{"card", &m.card},
        {"second_card", &m.second_card},
        {"pluck_card", &m.pluck_card}}) {
    if (too_long(*text)) {
      return Invalid(absl::StrCat("move.", field),
                     absl::StrCat("move.", field, " is longer than ",
                                  kMaxCardField, " bytes"));
    }
  }
  for (const std::string& c : m.table_cards) {
    if (too_long(c)) {
      return Invalid("move.table_cards",
                     absl::StrCat("move.table_cards: a card is longer than ",
                                  kMaxCardField, " bytes"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

bool Submission::NotationOnly() const {
  Submission bare;
  bare.notation = notation;
  return *this == bare;
}

absl::StatusOr<Move> Interpret(const Submission& m) {
  if (absl::Status s = CheckSizes(m); !s.ok()) return s;
  const bool structured = m.kind != kSubmittedUnspecified;
  if (m.notation.empty()) {
    if (!structured) {
      return Invalid(
          "the move is empty: give move.notation or move.kind with its cards");
    }
    return Structured(m);
  }
  absl::StatusOr<Move> parsed = Move::Parse(m.notation);
  if (!parsed.ok()) {
    return Invalid("move.notation",
                   absl::StrCat("move.notation: ", parsed.status().message()));
  }
  if (!structured) {
    if (!m.NotationOnly()) {
      return Invalid(
          "move.notation",
          "move.notation is given with other fields but no move.kind: give "
          "the notation alone, or the kind and every field in agreement");
    }
    return parsed;
  }
  if (absl::Status s = CheckKindAgrees(m, *parsed); !s.ok()) return s;
  absl::StatusOr<Move> fields = Structured(m);
  if (!fields.ok()) return fields.status();
  if (!(*fields == *parsed)) {
    return Invalid("move.notation",
                   absl::StrCat("move.notation \"", parsed->ToString(),
                                "\" and the structured fields (",
                                fields->ToString(), ") disagree"));
  }
  return parsed;
}

Submission ClipSubmission(Submission m) {
  auto clip = [](std::string& s, size_t limit) {
    if (s.size() > limit + 1) s.resize(limit + 1);
  };
  clip(m.notation, kMaxNotation);
  clip(m.card, kMaxCardField);
  clip(m.second_card, kMaxCardField);
  clip(m.pluck_card, kMaxCardField);
  if (m.table_cards.size() > kMaxTableCards + 1) {
    m.table_cards.resize(kMaxTableCards + 1);
  }
  for (std::string& c : m.table_cards) clip(c, kMaxCardField);
  return m;
}

std::string SubmissionErrorField(const absl::Status& status) {
  absl::optional<absl::Cord> field = status.GetPayload(kFieldPayload);
  return field ? std::string(*field) : "move";
}

}  // namespace cassino
