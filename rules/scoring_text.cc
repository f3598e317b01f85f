// The text form of a round's scoring table (`scoring=` of the rule set):
// `item:points` words joined by `+`, or `none`; see rule_set.h.

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "rules/rule_set.h"

namespace cassino {
namespace {

// The named (non-card) items of `scoring=`, in their printed order.
struct ScoringItem {
  absl::string_view name;
  int Scoring::*points;
};
constexpr std::array<ScoringItem, 6> kScoringItems{{
    {"cards", &Scoring::most_cards},
    {"spades", &Scoring::most_spades},
    {"diamonds", &Scoring::most_diamonds},
    {"each_ace", &Scoring::each_ace},
    {"each_spade", &Scoring::each_spade},
    {"all_aces", &Scoring::all_aces},
}};
constexpr int kMaxItemPoints = 100;

}  // namespace

std::string Scoring::ToString() const {
  std::vector<std::string> words;
  for (const ScoringItem& item : kScoringItems) {
    if (this->*item.points != 0) {
      words.push_back(absl::StrCat(item.name, ":", this->*item.points));
    }
  }
  for (int i = 0; i < kDeckSize; ++i) {
    if (card[i] != 0) {
      words.push_back(
          absl::StrCat(Card::FromIndex(i).ToString(), ":", card[i]));
    }
  }
  return words.empty() ? "none" : absl::StrJoin(words, "+");
}

absl::StatusOr<Scoring> Scoring::Parse(absl::string_view text) {
  Scoring s;
  for (const ScoringItem& item : kScoringItems) s.*item.points = 0;
  s.card.fill(0);
  if (text == "none") return s;
  std::vector<std::string> seen;
  for (absl::string_view word : absl::StrSplit(text, '+')) {
    const size_t colon = word.find(':');
    if (colon == absl::string_view::npos) {
      return absl::InvalidArgumentError(absl::StrCat(
          "option scoring: '", word, "' is not item:points (e.g. cards:3)"));
    }
    const absl::string_view name = word.substr(0, colon);
    int points = 0;
    if (!absl::SimpleAtoi(word.substr(colon + 1), &points) || points < 0 ||
        points > kMaxItemPoints) {
      return absl::InvalidArgumentError(absl::StrCat(
          "option scoring: '", word, "': points must be a number from 0 to ",
          kMaxItemPoints));
    }
    int* target = nullptr;
    std::string key;
    for (const ScoringItem& item : kScoringItems) {
      if (item.name == name) {
        target = &(s.*item.points);
        key = std::string(name);
      }
    }
    int8_t* card_target = nullptr;
    if (target == nullptr) {
      absl::StatusOr<Card> c = Card::Parse(name);
      if (!c.ok()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "option scoring: unknown item '", name,
            "' (items: cards, spades, diamonds, each_ace, each_spade, "
            "all_aces, or a card such as TD)"));
      }
      card_target = &s.card[c->index()];
      key = c->ToString();
    }
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("option scoring: '", key, "' is listed twice"));
    }
    seen.push_back(key);
    if (target != nullptr) {
      *target = points;
    } else {
      *card_target = static_cast<int8_t>(points);
    }
  }
  return s;
}

}  // namespace cassino
