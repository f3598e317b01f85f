#include "referee/rules/card.h"

#include <cctype>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace cassino {
namespace {

constexpr absl::string_view kRankChars = "A23456789TJQK";
constexpr absl::string_view kSuitChars = "SHDC";

// std::toupper on a plain char is undefined for bytes >= 0x80 (negative
// chars); input text may hold any bytes.
char ToUpper(char c) {
  return static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
}

}  // namespace

char RankChar(int rank) { return kRankChars[rank - 1]; }
char SuitChar(Suit suit) { return kSuitChars[static_cast<int>(suit)]; }

absl::StatusOr<Card> Card::Parse(absl::string_view text) {
  absl::string_view rank_text = text.substr(0, text.empty() ? 0 : text.size() - 1);
  if (text.size() < 2 || text.size() > 3) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", text, "' is not a card (expected rank and suit, e.g. 7H, TD)"));
  }
  int rank = 0;
  if (rank_text == "10") {
    rank = kTen;
  } else if (rank_text.size() == 1) {
    auto pos = kRankChars.find(ToUpper(rank_text[0]));
    if (pos != absl::string_view::npos) rank = static_cast<int>(pos) + 1;
  }
  if (rank == 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "'", text, "' is not a card: unknown rank '", rank_text,
        "' (ranks are A 2 3 4 5 6 7 8 9 T J Q K)"));
  }
  auto suit = kSuitChars.find(ToUpper(text.back()));
  if (suit == absl::string_view::npos) {
    return absl::InvalidArgumentError(absl::StrCat(
        "'", text, "' is not a card: unknown suit '", text.substr(text.size() - 1),
        "' (suits are S H D C)"));
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
