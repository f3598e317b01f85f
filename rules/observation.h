// What one seat is entitled to see.
//
// An observation holds the seat's own hand, the table (loose cards and
// builds with their controllers), every seat's hand size, the stock size,
// each side's captured-card and spade counts, sweeps and totals, the public
// round's history of accepted moves, the round results so far, and the result
// once the game is over. It never holds another seat's cards or an undealt
// card: everything in it is either the seat's own hand or was shown on the
// table (with draw=on, another seat's drawn card is blanked; `drew` stays: see
// SeesDrawnCard).

#ifndef CASSINO_RULES_OBSERVATION_H_
#define CASSINO_RULES_OBSERVATION_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "rules/game.h"

namespace cassino {

struct SidePublic {
  int captured = 0;  // cards taken this round
  int spades = 0;    // spades among them
  int sweeps = 0;    // sweeps this round
  int total = 0;     // game total before this round
  friend bool operator==(const SidePublic&, const SidePublic&) = default;
};

struct Observation {
  int seat = 0;
  RuleSet rules;
  int round = 0;
  int deal = 0;
  int dealer = 0;
  int to_move = 0;
  int turn = 0;
  CardSet hand;
  Table table;
  std::vector<int> hand_sizes;
  int stock_size = 0;
  std::vector<SidePublic> sides;
  // The current round's accepted moves, oldest first (empty when observed
  // with HistoryScope::kNone).
  std::vector<PlayedMove> history;
  // initial_pairs=on: the pairs taken from this round's first table.
  InitialCapture initial_capture;
  // pluck=on: bit s set once seat s has plucked in this deal (public: a
  // pluck is played face up).
  uint32_t plucked = 0;
  std::vector<RoundResult> rounds;
  std::optional<GameResult> result;
  friend bool operator==(const Observation&, const Observation&) = default;
};

// Which moves an observation's `history` holds.
enum class HistoryScope {
  kRound,  // the current round's (the default)
  kNone,   // none: for a reader that keeps the history itself
};

Observation Observe(const Game& game, int seat,
                    HistoryScope history = HistoryScope::kRound);

// The position as `seen`'s seat sees it: the table, its own hand (the
// other hands empty: unknown), the seat to move, who has plucked, and
// whether the stock is empty. Its legal moves are the seat's when it is
// to move.
Position SeenPosition(const Observation& seen);

// draw=on: whether `seat` (-1 for a spectator) may see the card `move`'s
// mover drew. Only the mover may; whether a card was drawn (`drew`) is
// public. Everything that sends a PlayedMove applies this one rule.
inline bool SeesDrawnCard(const PlayedMove& move, int seat) {
  return seat == move.seat;
}

}  // namespace cassino

#endif  // CASSINO_RULES_OBSERVATION_H_
