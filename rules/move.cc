#include "rules/move.h"

#include <tuple>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace cassino {

absl::string_view MoveKindName(MoveKind kind) {
  switch (kind) {
    case MoveKind::kTrail:
      return "trail";
    case MoveKind::kCapture:
      return "capture";
    case MoveKind::kBuild:
      return "build";
    case MoveKind::kCallOut:
      return "call_out";
  }
  return "unspecified";
}

bool MoveLess(const Move& a, const Move& b) {
  auto key = [](const Move& m) {
    return std::tuple(m.card.index(), static_cast<int>(m.kind), m.declared,
                      m.value, m.table.bits(), m.pluck.index(), m.pluck_after);
  };
  return key(a) < key(b);
}

namespace {

// Whether `word` is `lower` (a lower-case literal) in any ASCII case, like
// absl::EqualsIgnoreCase, inline and the length first: every word of every
// recorded move is compared (`cassino verify`), most of them two-letter
// cards.
bool IsWord(absl::string_view word, absl::string_view lower) {
  if (word.size() != lower.size()) return false;
  for (size_t i = 0; i < word.size(); ++i) {
    if (absl::ascii_tolower(static_cast<unsigned char>(word[i])) != lower[i]) {
      return false;
    }
  }
  return true;
}

// Whether the (short) word holds `c`.
bool Holds(absl::string_view word, char c) {
  for (char x : word) {
    if (x == c) return true;
  }
  return false;
}

// The played card with its declared value, e.g. "AC=14".
std::string Played(const Move& m) {
  if (m.declared == 0) return m.card.ToString();
  return absl::StrCat(m.card.ToString(), "=", m.declared);
}

// Parses "AC" or "AC=14"; a declared value equal to the card's rank (its
// default value) is stored as 0.
absl::Status ParsePlayed(absl::string_view word, Card* card, int* declared) {
  *declared = 0;
  absl::string_view card_text = word;
  if (Holds(word, '=')) {
    const size_t eq = word.find('=');
    card_text = word.substr(0, eq);
    int v = 0;
    if (!absl::SimpleAtoi(word.substr(eq + 1), &v) || v < 1 || v > 99) {
      return absl::InvalidArgumentError(absl::StrCat(
          "'", word, "': a declared value is a number, e.g. AC=14"));
    }
    *declared = v;
  }
  absl::StatusOr<Card> c = Card::Parse(card_text);
  if (!c.ok()) return c.status();
  *card = *c;
  if (*declared == c->rank()) *declared = 0;
  return absl::OkStatus();
}

}  // namespace

std::string Move::ToString() const {
  if (has_pluck()) {
    const std::string base = WithoutPluck().ToString();
    const std::string pluck_text = absl::StrCat("pluck ", pluck.ToString());
    return pluck_after ? absl::StrCat(base, ", ", pluck_text)
                       : absl::StrCat(pluck_text, ", ", base);
  }
  switch (kind) {
    case MoveKind::kTrail:
      return absl::StrCat("trail ", card.ToString());
    case MoveKind::kCapture:
      if (second.valid()) {
        return absl::StrCat("take ", card.ToString(), "+", second.ToString(),
                            " ", table.ToString());
      }
      return absl::StrCat("take ", Played(*this), " ", table.ToString());
    case MoveKind::kBuild:
      return absl::StrCat("build ", value, " ", Played(*this), " ",
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
    // (Built in place: a view built apart and then copied in was read back
    // as one 16-byte load of its two 8-byte stores, which the CPU cannot
    // forward; docs/performance.md.)
    if (i > start) words.emplace_back(text.data() + start, i - start);
  }
  if (words.empty()) return absl::InvalidArgumentError("empty move");
  // A pluck comes first ("pluck 7H, trail 3D") or last ("trail 3D, pluck
  // 7H"); the rest is the move.
  for (size_t i = 0; i < words.size(); ++i) {
    if (!IsWord(words[i], "pluck")) continue;
    const bool after = i > 0;
    if (i + 1 >= words.size() || (after && i + 2 != words.size())) {
      return absl::InvalidArgumentError(
          absl::StrCat("'", text,
                       "': expected 'pluck <card>' before or after the move, "
                       "e.g. 'pluck 7H, trail 3D' or 'trail 3D, pluck 7H'"));
    }
    absl::StatusOr<Card> p = Card::Parse(words[i + 1]);
    if (!p.ok()) return p.status();
    std::vector<absl::string_view> rest(words.begin(), words.begin() + i);
    rest.insert(rest.end(), words.begin() + i + 2, words.end());
    if (rest.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "'", text, "': a pluck goes with a move, e.g. 'pluck 7H, trail 3D'"));
    }
    absl::StatusOr<Move> m = Parse(absl::StrJoin(rest, " "));
    if (!m.ok()) return m.status();
    if (m->has_pluck()) {
      return absl::InvalidArgumentError(
          absl::StrCat("'", text, "': one pluck per turn"));
    }
    if (m->kind == MoveKind::kCallOut) {
      return absl::InvalidArgumentError(
          absl::StrCat("'", text, "': a call-out plucks nothing"));
    }
    if (m->card == *p || m->table.contains(*p)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "'", text, "': ", p->ToString(), " cannot be plucked and played"));
    }
    return m->WithPluck(*p, after);
  }
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

  if (IsWord(verb, "call")) {
    if (words.size() != 1) return syntax("'call' alone");
    return CallOut();
  }
  if (IsWord(verb, "trail")) {
    if (words.size() != 2) return syntax("'trail <card>', e.g. 'trail 7H'");
    if (Holds(words[1], '=')) {
      return absl::InvalidArgumentError(
          absl::StrCat("'", text, "': a trailed card declares no value"));
    }
    absl::StatusOr<Card> c = Card::Parse(words[1]);
    if (!c.ok()) return c.status();
    return Trail(*c);
  }
  if (IsWord(verb, "take") || IsWord(verb, "capture")) {
    if (words.size() < 3) {
      return syntax("'take <card> <table cards...>', e.g. 'take 8C 8H'");
    }
    absl::StatusOr<CardSet> taken = table_cards(2);
    if (!taken.ok()) return taken.status();
    if (Holds(words[1], '+')) {
      const size_t plus = words[1].find('+');
      absl::StatusOr<Card> a = Card::Parse(words[1].substr(0, plus));
      if (!a.ok()) return a.status();
      absl::StatusOr<Card> b = Card::Parse(words[1].substr(plus + 1));
      if (!b.ok()) return b.status();
      if (*a == *b) {
        return absl::InvalidArgumentError(
            absl::StrCat("'", text, "': ", a->ToString(), " is named twice"));
      }
      if (taken->size() != 1 || taken->contains(*a) || taken->contains(*b)) {
        return syntax(
            "'take <card>+<card> <one table card>', e.g. "
            "'take 3C+5H 8D'");
      }
      return PairCapture(*a, *b, taken->first());
    }
    Card c;
    int declared = 0;
    if (absl::Status s = ParsePlayed(words[1], &c, &declared); !s.ok())
      return s;
    if (taken->contains(c)) {
      return absl::InvalidArgumentError(
          absl::StrCat("'", text, "': the played card ", c.ToString(),
                       " cannot also be taken"));
    }
    return Capture(c, *taken, declared);
  }
  if (IsWord(verb, "build")) {
    if (words.size() < 4) {
      return syntax(
          "'build <value> <card> <table cards...>', e.g. 'build 8 3D 5S'");
    }
    int value = 0;
    if (!absl::SimpleAtoi(words[1], &value) || value < 1 || value > 99) {
      return syntax("a build value (a number) after 'build'");
    }
    Card c;
    int declared = 0;
    if (absl::Status s = ParsePlayed(words[2], &c, &declared); !s.ok())
      return s;
    absl::StatusOr<CardSet> table = table_cards(3);
    if (!table.ok()) return table.status();
    if (table->contains(c)) {
      return absl::InvalidArgumentError(
          absl::StrCat("'", text, "': the played card ", c.ToString(),
                       " cannot also be a table card"));
    }
    return Build(c, value, *table, declared);
  }
  return absl::InvalidArgumentError(
      absl::StrCat("'", text, "': unknown move kind '", words[0],
                   "' (trail, take, build, call)"));
}

}  // namespace cassino
