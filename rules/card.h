// Cards, card sets and their text notation.
//
// A card is written rank + suit: ranks `A 2 3 4 5 6 7 8 9 T J Q K`, suits
// `S H D C` (docs/rules.md, *Cards*). The canonical deck order numbers the 52
// cards 0..51: suits in the order S, H, D, C and, within a suit, A, 2, ..., K,
// so that index = suit * 13 + (rank - 1). Everything that sorts cards (the
// canonical move notation, printed positions) sorts by this index.
//
// `Card` and `CardSet` are trivially copyable value types. A `CardSet` is a
// 64-bit mask over deck indices; it is the representation of hands, table
// cards, capture piles and the table cards a move involves.

#ifndef CASSINO_RULES_CARD_H_
#define CASSINO_RULES_CARD_H_

#include <bit>
#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace cassino {

enum class Suit : uint8_t {
  kSpades = 0,
  kHearts = 1,
  kDiamonds = 2,
  kClubs = 3
};

inline constexpr int kDeckSize = 52;
inline constexpr int kRanks = 13;

// Ranks are 1 (ace) .. 13 (king).
inline constexpr int kAce = 1;
inline constexpr int kTen = 10;
inline constexpr int kJack = 11;
inline constexpr int kQueen = 12;
inline constexpr int kKing = 13;

class Card {
 public:
  // The default card is invalid; `valid()` is false.
  constexpr Card() = default;
  static constexpr Card FromIndex(int index) { return Card(index); }
  static constexpr Card Of(int rank, Suit suit) {
    return Card(static_cast<int>(suit) * kRanks + rank - 1);
  }

  // Parses "7H", "TD", "as" (case-insensitive); "10" is accepted for T.
  static absl::StatusOr<Card> Parse(absl::string_view text);

  constexpr bool valid() const { return index_ >= 0 && index_ < kDeckSize; }
  constexpr int index() const { return index_; }
  constexpr int rank() const { return index_ % kRanks + 1; }
  constexpr Suit suit() const { return static_cast<Suit>(index_ / kRanks); }
  constexpr bool is_face() const { return rank() >= kJack; }

  // Two characters, e.g. "TD". An invalid card prints as "??".
  std::string ToString() const;

  friend constexpr auto operator<=>(Card, Card) = default;

 private:
  constexpr explicit Card(int index) : index_(static_cast<int8_t>(index)) {}
  int8_t index_ = -1;
};

// Named cards of the scoring rules.
inline constexpr Card kBigCassino = Card::Of(kTen, Suit::kDiamonds);  // TD
inline constexpr Card kLittleCassino = Card::Of(2, Suit::kSpades);    // 2S

char RankChar(int rank);
char SuitChar(Suit suit);

// A set of cards as a bit mask over deck indices. Iteration visits cards in
// deck-index order.
class CardSet {
 public:
  constexpr CardSet() = default;
  constexpr explicit CardSet(uint64_t bits) : bits_(bits) {}
  constexpr CardSet(std::initializer_list<Card> cards) {
    for (Card c : cards) insert(c);
  }
  static constexpr CardSet Of(Card c) {
    return CardSet(uint64_t{1} << c.index());
  }
  static constexpr CardSet FullDeck() {
    return CardSet((uint64_t{1} << kDeckSize) - 1);
  }
  static constexpr CardSet OfSuit(Suit s) {
    return CardSet(((uint64_t{1} << kRanks) - 1)
                   << (static_cast<int>(s) * kRanks));
  }
  static constexpr CardSet OfRank(int rank) {
    // Deck index suit * kRanks + rank - 1: the four suits' bits of rank 1,
    // shifted to the rank.
    constexpr uint64_t kAces = uint64_t{1} | uint64_t{1} << kRanks |
                               uint64_t{1} << 2 * kRanks |
                               uint64_t{1} << 3 * kRanks;
    return CardSet(kAces << (rank - 1));
  }

  // Parses cards separated by spaces and/or commas; "-" or "" is empty.
  // Duplicates are an error.
  static absl::StatusOr<CardSet> Parse(absl::string_view text);

  constexpr uint64_t bits() const { return bits_; }
  constexpr bool empty() const { return bits_ == 0; }
  constexpr int size() const { return std::popcount(bits_); }
  constexpr bool contains(Card c) const { return (bits_ >> c.index()) & 1; }
  constexpr bool contains(CardSet other) const {
    return (other.bits_ & ~bits_) == 0;
  }
  constexpr bool intersects(CardSet other) const {
    return (bits_ & other.bits_) != 0;
  }
  constexpr void insert(Card c) { bits_ |= uint64_t{1} << c.index(); }
  constexpr void erase(Card c) { bits_ &= ~(uint64_t{1} << c.index()); }
  // The card with the lowest deck index; the set must not be empty.
  constexpr Card first() const {
    return Card::FromIndex(std::countr_zero(bits_));
  }

  constexpr CardSet operator|(CardSet o) const {
    return CardSet(bits_ | o.bits_);
  }
  constexpr CardSet operator&(CardSet o) const {
    return CardSet(bits_ & o.bits_);
  }
  constexpr CardSet operator-(CardSet o) const {
    return CardSet(bits_ & ~o.bits_);
  }
  constexpr CardSet& operator|=(CardSet o) {
    bits_ |= o.bits_;
    return *this;
  }
  constexpr CardSet& operator&=(CardSet o) {
    bits_ &= o.bits_;
    return *this;
  }
  constexpr CardSet& operator-=(CardSet o) {
    bits_ &= ~o.bits_;
    return *this;
  }
  friend constexpr bool operator==(CardSet, CardSet) = default;

  class Iterator {
   public:
    constexpr explicit Iterator(uint64_t bits) : bits_(bits) {}
    constexpr Card operator*() const {
      return Card::FromIndex(std::countr_zero(bits_));
    }
    constexpr Iterator& operator++() {
      bits_ &= bits_ - 1;
      return *this;
    }
    constexpr bool operator!=(const Iterator& o) const {
      return bits_ != o.bits_;
    }

   private:
    uint64_t bits_;
  };
  constexpr Iterator begin() const { return Iterator(bits_); }
  constexpr Iterator end() const { return Iterator(0); }

  std::vector<Card> ToVector() const;
  // Cards in deck-index order separated by single spaces; "-" when empty.
  std::string ToString() const;

 private:
  uint64_t bits_ = 0;
};

// The cards of ranks A to 10.
inline constexpr CardSet kNumeralCards = [] {
  CardSet numerals;
  for (int rank = kAce; rank <= kTen; ++rank) {
    numerals |= CardSet::OfRank(rank);
  }
  return numerals;
}();

}  // namespace cassino

#endif  // CASSINO_RULES_CARD_H_
