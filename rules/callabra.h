// Callabra: a related fishing game, played through the same interface as
// Cassino (docs/rules.md, *Related games*).
//
// Rules. 52 cards valued A=1, 2..10, J=11, Q=12, K=13; 2, 3 or 4 players,
// each for themselves. The dealer (the last seat) deals one card at a time
// round the players, starting at their left, until each holds 3, then 5
// cards face up to the table. When every hand is empty they are refilled
// the same way from the stock; when the stock cannot give everyone 3, its
// cards go round one at a time as far as they last. A turn is one of:
//   - trail: one hand card goes to the table;
//   - capture: one hand card takes one table card of the same value;
//   - pair capture: two hand cards, played together, take one table card
//     whose value is their sum (so at most 13).
// Capturing is never compulsory. A player who clears the table wins the
// game at once. When the stock and every hand are empty, the player who
// captured most cards wins; equal most is a draw. Cards still on the table
// then count for nobody. There is one round and no score beyond the cards.
//
// Move encoding: Cassino's `Move`: `trail 7H`, `take 8C 8H` (hand card,
// then the card taken), and for a pair capture `take 3S+5H 8D` (`card` and
// `second` hold the two hand cards, in deck order).
//
// This module holds the move rules over a `Position` (loose cards only, no
// builds); dealing and the end of the game are the game's (game.h), driven
// by the rule set's `game=callabra`.

#ifndef CASSINO_RULES_CALLABRA_H_
#define CASSINO_RULES_CALLABRA_H_

#include <vector>

#include "absl/status/status.h"
#include "rules/adjudicator.h"
#include "rules/move.h"
#include "rules/position.h"

namespace cassino::callabra {

// Cards per hand after each deal, and cards on the table at the start.
inline constexpr int kHandSize = 3;
inline constexpr int kTableDeal = 5;

// A card's value: its rank, A=1 ... K=13.
constexpr int Value(Card c) { return c.rank(); }

// Every legal move of pos.to_move: for each hand card in deck order, its
// trail, then its single captures (table cards in deck order), then the
// pair captures in which it is the lower card.
std::vector<Move> LegalMoves(const Position& pos);

// OK if `move` is legal for pos.to_move; otherwise InvalidArgument with the
// reason.
absl::Status ValidateMove(const Position& pos, const Move& move);

// Applies a legal move and passes the turn. `sweep` in the outcome says the
// capture cleared the table, which wins the game.
MoveOutcome ApplyMove(Position& pos, const Move& move);

}  // namespace cassino::callabra

#endif  // CASSINO_RULES_CALLABRA_H_
