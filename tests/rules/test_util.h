// Helpers shared by the rules tests.

#ifndef CASSINO_TESTS_REFEREE_RULES_TEST_UTIL_H_
#define CASSINO_TESTS_REFEREE_RULES_TEST_UTIL_H_

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "rules/adjudicator.h"
#include "rules/deal.h"
#include "rules/legal_moves.h"
#include "rules/position.h"
#include "rules/scoring.h"

namespace cassino::testing {

inline RuleSet Rules(const std::string& text) {
  absl::StatusOr<RuleSet> rules = RuleSet::Parse(text);
  EXPECT_TRUE(rules.ok()) << text << ": " << rules.status();
  return rules.ok() ? *rules : RuleSet();
}

// A game seed from a number: its bytes, least significant first, then
// zeros.
inline Seed SeedOf(uint64_t n) {
  Seed s{};
  for (int i = 0; i < 8; ++i) s[i] = static_cast<uint8_t>(n >> (8 * i));
  return s;
}

inline Position Pos(const std::string& text) {
  absl::StatusOr<Position> p = Position::Parse(text);
  EXPECT_TRUE(p.ok()) << text << ": " << p.status();
  return p.ok() ? *p : Position{};
}

// The legal moves of a position in canonical notation, sorted.
inline std::vector<std::string> SortedMoves(const std::string& position) {
  std::vector<std::string> out;
  for (const Move& m : LegalMoves(Pos(position))) out.push_back(m.ToString());
  std::sort(out.begin(), out.end());
  return out;
}

inline std::vector<std::string> Sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

// A deck that starts with `top` (in order) and continues with the rest of
// the 52 cards in canonical order: scripted games with explicit decks.
inline Deck DeckStarting(const std::string& top) {
  Deck deck;
  const CardSet used = *CardSet::Parse(top);
  for (absl::string_view word : absl::StrSplit(top, ' ')) {
    deck.push_back(*Card::Parse(word));
  }
  for (int i = 0; i < kDeckSize; ++i) {
    if (!used.contains(Card::FromIndex(i))) deck.push_back(Card::FromIndex(i));
  }
  return deck;
}

// A round's score items as `kind side points [card]`, in count-out order.
inline std::vector<std::string> Items(const RoundScore& score) {
  std::vector<std::string> out;
  for (const ScoreItem& it : score.items) {
    std::string s =
        absl::StrCat(ScoreItemName(it.kind), " ", it.side, " ", it.points);
    if (it.card.valid()) absl::StrAppend(&s, " ", it.card.ToString());
    out.push_back(s);
  }
  return out;
}

inline Move M(const std::string& text) {
  absl::StatusOr<Move> m = Move::Parse(text);
  EXPECT_TRUE(m.ok()) << text << ": " << m.status();
  return m.ok() ? *m : Move{};
}

// Brute force: every (card, kind, declared value, build value, subset of
// table cards) identity is validated; returns the accepted ones in
// canonical notation, sorted. Must equal the generated list.
inline std::vector<std::string> BruteForce(const Position& p) {
  std::vector<std::string> out;
  const std::vector<Card> table = p.table.AllCards().ToVector();
  const int n = static_cast<int>(table.size());
  const bool face_builds = p.rules.face_capture == FaceCapture::kFour ||
                           p.rules.face_capture == FaceCapture::kAny;
  const int max_value = face_builds ? 13 : p.rules.MaxBuild();
  for (Card c : p.hands[p.to_move]) {
    std::vector<int> declared = {0};
    if (p.rules.AltValue(c) != 0) declared.push_back(p.rules.AltValue(c));
    std::vector<Move> candidates = {Move::Trail(c)};
    for (uint32_t mask = 1; mask < (uint32_t{1} << n); ++mask) {
      CardSet set;
      for (int i = 0; i < n; ++i) {
        if (mask >> i & 1) set.insert(table[i]);
      }
      for (int d : declared) {
        candidates.push_back(Move::Capture(c, set, d));
        for (int v = 1; v <= max_value; ++v) {
          candidates.push_back(Move::Build(c, v, set, d));
        }
      }
    }
    // pluck: every candidate also with each table card plucked before or
    // after it.
    if (p.rules.pluck) {
      const size_t n_base = candidates.size();
      for (size_t i = 0; i < n_base; ++i) {
        for (Card t : table) {
          candidates.push_back(candidates[i].WithPluck(t, false));
          candidates.push_back(candidates[i].WithPluck(t, true));
        }
      }
    }
    for (const Move& m : candidates) {
      if (ValidateMove(p, m).ok()) out.push_back(m.ToString());
    }
  }
  if (p.rules.call_out) out.push_back("call");
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace cassino::testing

#endif  // CASSINO_TESTS_REFEREE_RULES_TEST_UTIL_H_
