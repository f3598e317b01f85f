// Round scoring (docs/rules.md, *Scoring*) as an itemised list in
// count-out order.
//
// Items, in the order count_out adds them (points from the rule set's
// `scoring`; an item worth 0 is not listed):
//   1. most cards (`cards`; standard 3)        6. each ace, AS AC AH AD (1)
//   2. most spades (`spades`; 1)                7. all the pack's aces to one
//   3. most diamonds (`diamonds`; 0)               side (`all_aces`; 0)
//   4. big cassino TD (2), little cassino 2S (1) 8. each spade, in deck order
//   5. every other card with points of its         (`each_spade`; 0)
//      own, in deck order (e.g. JS, 7D)         9. each sweep in the order
//                                                  made (`sweeps`)
//                                              10. the all_eleven bonus
// A tie for most of something scores nobody, except that with
// tie_cards=spades a tie for most cards goes to whichever tied side has
// strictly the most spades. With sudden_death the sweeps were scored when
// made and are not items here (the tallies still count them).

#ifndef CASSINO_RULES_SCORING_H_
#define CASSINO_RULES_SCORING_H_

#include <span>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "rules/card.h"
#include "rules/rule_set.h"

namespace cassino {

enum class ScoreItemKind {
  kCards,
  kSpades,
  kBigCassino,
  kLittleCassino,
  kAce,
  kSweep,
  kAllEleven,
  kFace,      // Tablanette: each jack, queen and king taken
  kDiamonds,  // most diamonds
  kCard,      // a card's own points, other than TD and 2S (`card` says which)
  kAllAces,   // every ace of the pack
  kSpade,     // each spade (`card` says which)
};
absl::string_view ScoreItemName(ScoreItemKind kind);
// Whether items of this kind name their card (`card` below): aces, faces,
// point cards and spades.
constexpr bool ScoreItemHasCard(ScoreItemKind kind) {
  return kind == ScoreItemKind::kAce || kind == ScoreItemKind::kFace ||
         kind == ScoreItemKind::kCard || kind == ScoreItemKind::kSpade;
}

struct ScoreItem {
  ScoreItemKind kind;
  int side;
  int points;
  Card card;  // the card, where ScoreItemHasCard(kind)
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
  int points = 0;  // the round's items (sudden-death sweeps excluded)
  int diamonds = 0;
  friend bool operator==(const SideTally&, const SideTally&) = default;
};

struct RoundScore {
  std::vector<SideTally> sides;
  std::vector<ScoreItem> items;  // count-out order
  int all_eleven_side = -1;      // the side that took all the base points
  friend bool operator==(const RoundScore&, const RoundScore&) = default;
};

// `piles[s]` is everything side s took this round (leftovers included).
// `scored_in_play` (score_as_captured): cards whose own, ace and spade
// points were scored when captured; they score no item here.
RoundScore ScoreRound(const RuleSet& rules, std::span<const CardSet> piles,
                      std::span<const Sweep> sweeps,
                      CardSet scored_in_play = CardSet());

// How a round's score changes the game totals (docs/rules.md, *End of the
// game*).
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

// The points of the base items (everything but sweeps and the all_eleven
// bonus) of a round under `rules`, when no item is tied: 11 standard, 25
// spade, 5 diamond. A side that takes them all has "all eleven".
int BasePoints(const RuleSet& rules);

}  // namespace cassino

#endif  // CASSINO_RULES_SCORING_H_
