// Round scoring (RULES.md §6) as an itemised list in count-out order.
//
// Items, in the order count_out adds them: most cards 3, most spades 1,
// big cassino (TD) 2, little cassino (2S) 1, each ace 1 in the order AS AC
// AH AD, each sweep its value in the order made, then the all_eleven bonus.
// A tie for most cards or most spades scores nobody.

#ifndef CASSINO_REFEREE_RULES_SCORING_H_
#define CASSINO_REFEREE_RULES_SCORING_H_

#include <span>

#include "absl/strings/string_view.h"
#include <string>
#include <vector>

#include "referee/rules/card.h"
#include "referee/rules/rule_set.h"

namespace cassino {

enum class ScoreItemKind {
  kCards,
  kSpades,
  kBigCassino,
  kLittleCassino,
  kAce,
  kSweep,
  kAllEleven,
  kFace,  // Tablanette: each jack, queen and king taken
};
absl::string_view ScoreItemName(ScoreItemKind kind);
// Whether items of this kind name their card (`card` below): aces and faces.
constexpr bool ScoreItemHasCard(ScoreItemKind kind) {
  return kind == ScoreItemKind::kAce || kind == ScoreItemKind::kFace;
}

struct ScoreItem {
  ScoreItemKind kind;
  int side;
  int points;
  Card card;  // the ace or face card, where ScoreItemHasCard(kind)
  friend bool operator==(const ScoreItem&, const ScoreItem&) = default;
};

// A sweep as it was made.
struct Sweep {
  int side;
  int points;
  friend bool operator==(const Sweep&, const Sweep&) = default;
};

// What one side took in a round and what it scored.
struct SideTally {
  int cards = 0;
  int spades = 0;
  bool big_cassino = false;
  bool little_cassino = false;
  int aces = 0;
  int sweeps = 0;
  int points = 0;
  friend bool operator==(const SideTally&, const SideTally&) = default;
};

struct RoundScore {
  std::vector<SideTally> sides;
  std::vector<ScoreItem> items;  // count-out order
  int all_eleven_side = -1;      // the side that took all 11 base points
  friend bool operator==(const RoundScore&, const RoundScore&) = default;
};

// `piles[s]` is everything side s took this round (leftovers included).
RoundScore ScoreRound(const RuleSet& rules, std::span<const CardSet> piles,
                      std::span<const Sweep> sweeps);

// How a round's score changes the game totals (RULES.md §7).
struct TotalsUpdate {
  std::vector<int> totals;  // after the round
  int winner = -1;          // the side that won the game, or -1 to play on
  int winning_item = -1;    // count_out: index into items of the winning item
};

// count_out: adds the items in order and stops at the first side to reach
// the target. highest_total: adds everything; if a side reached the target,
// the unique highest total wins (a tie for highest plays on).
TotalsUpdate AddRoundScore(const RuleSet& rules, std::vector<int> totals,
                           const RoundScore& score);

// The side with strictly the most of something, or -1 on a tie.
int UniqueMost(std::span<const int> counts);
// The side whose pile holds `card`, or -1.
int HolderOf(std::span<const CardSet> piles, Card card);
// The aces in the order count_out adds them.
inline constexpr Card kAceCountOutOrder[] = {
    Card::Of(kAce, Suit::kSpades), Card::Of(kAce, Suit::kClubs),
    Card::Of(kAce, Suit::kHearts), Card::Of(kAce, Suit::kDiamonds)};

// The points of the base items (without sweeps) in a standard round.
inline constexpr int kBasePoints = 11;

}  // namespace cassino

#endif  // CASSINO_REFEREE_RULES_SCORING_H_
