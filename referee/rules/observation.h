// What one seat is entitled to see.
//
// An observation holds the seat's own hand, the table (loose cards and
// builds with their controllers), every seat's hand size, the stock size,
// each side's captured-card and spade counts, sweeps and totals, the public
// history of accepted moves, the round results so far, and the result once
// the game is over. It never holds another seat's cards or an undealt card:
// everything in it is either the seat's own hand or was shown on the table
// (with draw=on, another seat's drawn card is blanked; `drew` stays).

#ifndef CASSINO_REFEREE_RULES_OBSERVATION_H_
#define CASSINO_REFEREE_RULES_OBSERVATION_H_

#include <optional>
#include <vector>

#include "referee/rules/game.h"

namespace cassino {

struct SidePublic {
  int captured = 0;  // cards taken this round
  int spades = 0;    // spades among them
  int sweeps = 0;    // sweeps this round
  int total = 0;     // game total before this round
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
  std::vector<PlayedMove> history;
  // initial_pairs=on: the pairs taken from this round's first table.
  InitialCapture initial_capture;
  std::vector<RoundResult> rounds;
  std::optional<GameResult> result;
};

Observation Observe(const Game& game, int seat);

}  // namespace cassino

#endif  // CASSINO_REFEREE_RULES_OBSERVATION_H_
