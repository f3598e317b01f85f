#include "referee/rules/move.h"

#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace cassino {

absl::string_view MoveKindName(MoveKind kind) {
  switch (kind) {
    case MoveKind::kTrail:
      return "trail";
    case MoveKind::kCapture:
      return "take";
    case MoveKind::kBuild:
      return "build";
    case MoveKind::kCallOut:
      return "call";
  }
  return "?";
}

std::string Move::ToString() const {
  switch (kind) {
    case MoveKind::kTrail:
      return absl::StrCat("trail ", card.ToString());
    case MoveKind::kCapture:
      if (second.valid()) {
        return absl::StrCat("take ", card.ToString(), "+", second.ToString(),
                            " ", table.ToString());
      }
      return absl::StrCat("take ", card.ToString(), " ", table.ToString());
    case MoveKind::kBuild:
      return absl::StrCat("build ", value, " ", card.ToString(), " ",
                          table.ToString());
    case MoveKind::kCallOut:
      return "call";
  }
  return "?";
}

absl::StatusOr<Move> Move::Parse(absl::string_view text) {
  // Words separated by spaces, commas and tabs (runs of them count once).
  // Parsing every recorded move is most of what `cassino verify` does with
  // a move, so no allocation for the usual few words.
  absl::InlinedVector<absl::string_view, 16> words;
  auto separator = [](char c) { return c == ' ' || c == ',' || c == '\t'; };
  for (size_t i = 0; i < text.size();) {
    while (i < text.size() && separator(text[i])) ++i;
    const size_t start = i;
    while (i < text.size() && !separator(text[i])) ++i;
    if (i > start) words.push_back(text.substr(start, i - start));
  }
  if (words.empty()) return absl::InvalidArgumentError("empty move");
  const absl::string_view verb = words[0];
  auto syntax = [&](absl::string_view expected) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", text, "': expected ", expected));
  };
  auto table_cards = [&](size_t from) -> absl::StatusOr<CardSet> {
    CardSet set;
    for (size_t i = from; i < words.size(); ++i) {
      absl::StatusOr<Card> c = Card::Parse(words[i]);
      if (!c.ok()) return c.status();
      if (set.contains(*c)) {
        return absl::InvalidArgumentError(
            absl::StrCat("'", text, "': ", c->ToString(), " is named twice"));
      }
      set.insert(*c);
    }
    return set;
  };

  if (absl::EqualsIgnoreCase(verb, "call")) {
    if (words.size() != 1) return syntax("'call' alone");
    return CallOut();
  }
  if (absl::EqualsIgnoreCase(verb, "trail")) {
    if (words.size() != 2) return syntax("'trail <card>', e.g. 'trail 7H'");
    absl::StatusOr<Card> c = Card::Parse(words[1]);
    if (!c.ok()) return c.status();
    return Trail(*c);
  }
  if (absl::EqualsIgnoreCase(verb, "take") ||
      absl::EqualsIgnoreCase(verb, "capture")) {
    if (words.size() < 3) {
      return syntax("'take <card> <table cards...>', e.g. 'take 8C 8H'");
    }
    absl::StatusOr<CardSet> taken = table_cards(2);
    if (!taken.ok()) return taken.status();
    if (const size_t plus = words[1].find('+'); plus != words[1].npos) {
      absl::StatusOr<Card> a = Card::Parse(words[1].substr(0, plus));
      if (!a.ok()) return a.status();
      absl::StatusOr<Card> b = Card::Parse(words[1].substr(plus + 1));
      if (!b.ok()) return b.status();
      if (*a == *b) {
        return absl::InvalidArgumentError(
            absl::StrCat("'", text, "': ", a->ToString(), " is named twice"));
      }
      if (taken->size() != 1 || taken->contains(*a) || taken->contains(*b)) {
        return syntax("'take <card>+<card> <one table card>', e.g. "
                      "'take 3C+5H 8D'");
      }
      return PairCapture(*a, *b, taken->first());
    }
    absl::StatusOr<Card> c = Card::Parse(words[1]);
    if (!c.ok()) return c.status();
    if (taken->contains(*c)) {
      return absl::InvalidArgumentError(
          absl::StrCat("'", text, "': the played card ", c->ToString(),
                       " cannot also be taken"));
    }
    return Capture(*c, *taken);
  }
  if (absl::EqualsIgnoreCase(verb, "build")) {
    if (words.size() < 4) {
      return syntax(
          "'build <value> <card> <table cards...>', e.g. 'build 8 3D 5S'");
    }
    int value = 0;
    if (!absl::SimpleAtoi(words[1], &value) || value < 1 || value > 99) {
      return syntax("a build value (a number) after 'build'");
    }
    absl::StatusOr<Card> c = Card::Parse(words[2]);
    if (!c.ok()) return c.status();
    absl::StatusOr<CardSet> table = table_cards(3);
    if (!table.ok()) return table.status();
    if (table->contains(*c)) {
      return absl::InvalidArgumentError(
          absl::StrCat("'", text, "': the played card ", c->ToString(),
                       " cannot also be a table card"));
    }
    return Build(*c, value, *table);
  }
  return absl::InvalidArgumentError(
      absl::StrCat("'", text, "': unknown move kind '", words[0],
                   "' (trail, take, build, call)"));
}

}  // namespace cassino
