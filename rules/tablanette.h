// Tablanette: a related fishing game, played through the same interface as
// Cassino (docs/rules.md, *Related games*).
//
// Rules. 52 cards; 2 players, or 4 (alone or as two partnerships). Each deal
// gives every player 6 cards; the first deal of a round also puts 4 cards
// on the table. A turn plays one card from the hand:
//   - trail: the card goes to the table (always allowed; capturing is never
//     compulsory, as in Cassino);
//   - a numeral card (A=1 ... T=10) captures like Cassino without builds:
//     any non-empty union of disjoint groups of loose cards whose values
//     each total the card's value (a card of the same rank is such a group);
//   - a queen or a king captures exactly one loose card of its rank;
//   - a jack captures every loose card on the table (there must be one).
// There are no builds. A capture that empties the table is a sweep (1
// point), except with the very last card of the round. After the last deal
// the cards left on the table go to the last side that captured.
// Round points: most cards 3 (a tie: nobody), each J, Q, K taken 1, TD 2,
// 2S 1, each ace 1, each sweep 1: 22 points plus sweeps. Game to 21,
// counted out in the order cards, faces (J, Q, K in deck order), TD, 2S,
// aces (AS AC AH AD), sweeps in the order made.
//
// Move encoding: Cassino's `Move` with kinds trail and capture only, so the
// notation is unchanged: `trail 7H`, `take 5C 3D 2H` (played card, then the
// cards taken), `take JS 4H 9C KD` for a jack taking the whole table.
//
// This module holds the move rules over a `Position` (whose table never has
// builds); dealing, sweeps, leftovers and scoring are the game's (game.h),
// driven by the rule set's `game=tablanette`.

#ifndef CASSINO_RULES_TABLANETTE_H_
#define CASSINO_RULES_TABLANETTE_H_

#include <span>
#include <vector>

#include "absl/status/status.h"
#include "rules/adjudicator.h"
#include "rules/move.h"
#include "rules/position.h"
#include "rules/scoring.h"

namespace cassino::tablanette {

// Every legal move of pos.to_move, ordered by hand card (deck order), then
// trail before captures, captures in Cassino's generator order.
std::vector<Move> LegalMoves(const Position& pos);

// OK if `move` is legal for pos.to_move; otherwise InvalidArgument with the
// reason.
absl::Status ValidateMove(const Position& pos, const Move& move);

// Applies a legal move and passes the turn. `sweep` in the outcome says the
// table was emptied; whether that scores is the game's decision (not with
// the very last card of a round).
MoveOutcome ApplyMove(Position& pos, const Move& move);

// The round's items in count-out order (see above); `piles[s]` is all that
// side s took, leftovers included.
RoundScore ScoreRound(std::span<const CardSet> piles,
                      std::span<const Sweep> sweeps);

// Points of a round without sweeps and without a tie for cards.
inline constexpr int kRoundPoints = 22;

}  // namespace cassino::tablanette

#endif  // CASSINO_RULES_TABLANETTE_H_
