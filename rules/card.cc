#include "rules/card.h"

#include <array>
#include <cstdint>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace cassino {
namespace {

constexpr absl::string_view kRankChars = "A23456789TJQK";
constexpr absl::string_view kSuitChars = "SHDC";

// For each byte, 1 + its index in `chars` ignoring ASCII case, or 0: card
// text is parsed for every recorded move (`cassino verify`), so a table
// rather than a search.
constexpr std::array<int8_t, 256> IndexTable(absl::string_view chars) {
  std::array<int8_t, 256> table{};
  for (size_t i = 0; i < chars.size(); ++i) {
    const char c = chars[i];
    table[static_cast<unsigned char>(c)] = static_cast<int8_t>(i + 1);
    if (c >= 'A' && c <= 'Z') {
      table[static_cast<unsigned char>(c - 'A' + 'a')] =
          static_cast<int8_t>(i + 1);
    }
  }
  return table;
}
constexpr std::array<int8_t, 256> kRankIndex = IndexTable(kRankChars);
constexpr std::array<int8_t, 256> kSuitIndex = IndexTable(kSuitChars);

}  // namespace

char RankChar(int rank) { return kRankChars[rank - 1]; }
char SuitChar(Suit suit) { return kSuitChars[static_cast<int>(suit)]; }

absl::StatusOr<Card> Card::Parse(absl::string_view text) {
  if (text.size() == 2) {  // the usual card, e.g. 7H: two table look-ups
    const int rank = kRankIndex[static_cast<unsigned char>(text[0])];
    const int suit = kSuitIndex[static_cast<unsigned char>(text[1])] - 1;
    if (rank != 0 && suit >= 0) return Card::Of(rank, static_cast<Suit>(suit));
  }
  absl::string_view rank_text =
      text.substr(0, text.empty() ? 0 : text.size() - 1);
  if (text.size() < 2 || text.size() > 3) {
    return absl::InvalidArgumentError(absl::StrCat(
        "'", text, "' is not a card (expected rank and suit, e.g. 7H, TD)"));
  }
  int rank = 0;
  if (rank_text == "10") {
    rank = kTen;
  } else if (rank_text.size() == 1) {
    rank = kRankIndex[static_cast<unsigned char>(rank_text[0])];
  }
  if (rank == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", text, "' is not a card: unknown rank '", rank_text,
                     "' (ranks are A 2 3 4 5 6 7 8 9 T J Q K)"));
  }
  const int suit = kSuitIndex[static_cast<unsigned char>(text.back())] - 1;
  if (suit < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", text, "' is not a card: unknown suit '",
                     text.substr(text.size() - 1), "' (suits are S H D C)"));
  }
  return Card::Of(rank, static_cast<Suit>(suit));
}

std::string Card::ToString() const {
  if (!valid()) return "??";
  return std::string{RankChar(rank()), SuitChar(suit())};
}

absl::StatusOr<CardSet> CardSet::Parse(absl::string_view text) {
  CardSet set;
  for (absl::string_view token :
       absl::StrSplit(text, absl::ByAnyChar(" ,\t"), absl::SkipEmpty())) {
    if (token == "-") continue;
    absl::StatusOr<Card> card = Card::Parse(token);
    if (!card.ok()) return card.status();
    if (set.contains(*card)) {
      return absl::InvalidArgumentError(
          absl::StrCat(card->ToString(), " appears twice"));
    }
    set.insert(*card);
  }
  return set;
}

std::vector<Card> CardSet::ToVector() const {
  std::vector<Card> cards;
  cards.reserve(size());
  for (Card c : *this) cards.push_back(c);
  return cards;
}

std::string CardSet::ToString() const {
  if (empty()) return "-";
  std::string out;
  for (Card c : *this) {
    if (!out.empty()) out.push_back(' ');
    out += c.ToString();
  }
  return out;
}

}  // namespace cassino
