// Validating and applying one move in a position.
//
// ValidateMove decides legality directly from the move's identity, without
// enumerating the legal moves, and explains a refusal in words a bot author
// can act on ("you control a build of 8 and may not trail", "building 9
// requires a 9 left in hand"). It agrees exactly with MoveGenerator: the
// property tests check both directions.
//
// Variants (docs/rules.md, *Move-level variants*) judged here: a declared value
// for the played card (ace_high, dual_ten); natural face builds
// (face_capture=four/any); a trail of 5S that takes the table
// (five_spades_sweep: a capture and a sweep); builder-rule breaks that are
// legal at a cost (defaults_cost: the effect names the broken rule, Game
// charges the points); and a pluck before or after the play (pluck: a play
// after a pluck is judged on the table without the plucked card; the plucked
// card goes to the mover's pile).

#ifndef CASSINO_RULES_ADJUDICATOR_H_
#define CASSINO_RULES_ADJUDICATOR_H_

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "rules/builder_rules.h"
#include "rules/move.h"
#include "rules/position.h"

namespace cassino {

// OK if `move` is legal for pos.to_move; otherwise InvalidArgument with the
// reason. Call-outs are legal whenever the rules allow them (judging the
// claim is the game's business).
absl::Status ValidateMove(const Position& pos, const Move& move);

// Like ValidateMove, and on success also describes the move's effect on the
// builds (which are captured, which is raised or added to). Under
// defaults_cost a move that breaks the builder rules is legal and
// effect->broken names the rule it breaks.
absl::Status AnalyseMove(const Position& pos, const Move& move,
                         MoveEffect* effect);

// What applying a move did.
struct MoveOutcome {
  CardSet captured;    // the played card and every table card taken (captures)
  bool sweep = false;  // a capture that left the table empty
  // defaults_cost: the points the mover lost for breaking the builder rules
  // (set by Game, which judges the move before applying it).
  int penalty = 0;
  // pluck: the card plucked this turn (into the mover's pile; not a
  // capture), or invalid.
  Card plucked;
  friend bool operator==(const MoveOutcome&, const MoveOutcome&) = default;
};

// pluck: whether `card` may ever be plucked: never a point card ("Point
// cards cannot be plucked"), a card that scores by itself under the rules'
// scoring (its own points, each_ace or all_aces for an ace, each_spade for
// a spade; revision 3). Revisions 1 and 2: never an ace, TD or 2S, whatever
// the scoring. MayPluck: whether the seat to move may still pluck (pluck
// on, stock not empty, not yet plucked in this deal).
inline bool Pluckable(const RuleSet& rules, Card card) {
  if (rules.revision < 3) {
    return card.rank() != kAce && card != kBigCassino && card != kLittleCassino;
  }
  const Scoring& sc = rules.scoring;
  const bool ace = card.rank() == kAce;
  return sc.card[card.index()] == 0 &&
         !(ace && (sc.each_ace != 0 || sc.all_aces != 0)) &&
         !(card.suit() == Suit::kSpades && sc.each_spade != 0);
}
inline bool MayPluck(const Position& pos) {
  return pos.rules.pluck && !pos.stock_empty &&
         (pos.plucked >> pos.to_move & 1) == 0;
}

// Applies a legal move (ValidateMove must have accepted it) for pos.to_move
// and passes the turn to the next seat. Call-outs change nothing here.
MoveOutcome ApplyMove(Position& pos, const Move& move);
// The same, written into `*outcome` (which must not be part of `pos`): for
// a caller that keeps the outcome in a larger record. Copied there from a
// returned value, the outcome's fields, just stored one by one, would be
// read back as one wider load, which the CPU cannot forward from them; it
// waits for the stores to reach the cache (a stall perf found in
// Game::PlayMove; docs/performance.md).
void ApplyMove(Position& pos, const Move& move, MoveOutcome* outcome);

}  // namespace cassino

#endif  // CASSINO_RULES_ADJUDICATOR_H_
