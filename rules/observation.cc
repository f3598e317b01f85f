#include "rules/observation.h"

#include <iterator>

namespace cassino {

Observation Observe(const Game& game, int seat, HistoryScope history) {
  Observation o;
  const Position& pos = game.position();
  o.seat = seat;
  o.rules = game.rules();
  o.round = game.round();
  o.deal = game.deal();
  o.dealer = game.dealer();
  o.to_move = pos.to_move;
  o.turn = game.turn();
  o.hand = pos.hands[seat];
  o.table = pos.table;
  for (CardSet h : pos.hands) o.hand_sizes.push_back(h.size());
  o.stock_size = game.stock_size();
  for (int s = 0; s < game.rules().Sides(); ++s) {
    SidePublic side;
    side.captured = game.piles()[s].size();
    side.spades = (game.piles()[s] & CardSet::OfSuit(Suit::kSpades)).size();
    for (const Sweep& sw : game.sweeps()) side.sweeps += sw.side == s;
    side.total = game.totals()[s];
    o.sides.push_back(side);
  }
  if (history == HistoryScope::kRound) {
    // The round's moves are the history's tail.
    const std::vector<PlayedMove>& all = game.history();
    auto first = all.end();
    while (first != all.begin() && std::prev(first)->round == o.round) --first;
    o.history.assign(first, all.end());
    // A drawn card is seen only by the seat that drew it.
    for (PlayedMove& m : o.history) {
      if (!SeesDrawnCard(m, seat)) m.drawn = Card();
    }
  }
  o.initial_capture = game.initial_capture();
  o.plucked = pos.plucked;
  o.rounds = game.rounds();
  o.result = game.result();
  return o;
}

Position SeenPosition(const Observation& seen) {
  Position p;
  p.rules = seen.rules;
  p.table = seen.table;
  p.hands.assign(seen.rules.players, CardSet());
  if (seen.seat >= 0 && seen.seat < seen.rules.players) {
    p.hands[seen.seat] = seen.hand;
  }
  p.to_move = seen.to_move;
  p.plucked = seen.plucked;
  p.stock_empty = seen.stock_size == 0;
  return p;
}

}  // namespace cassino
