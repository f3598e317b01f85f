#include "referee/session_events.h"

#include <utility>

namespace cassino::service {

DealEvent DealOf(const Game& game) {
  DealEvent d;
  d.round = game.round();
  d.deal = game.deal();
  d.table = game.position().table;
  d.stock_size = game.stock_size();
  if (game.deal() == 1 && !game.initial_capture().cards.empty()) {
    d.initial_capture = game.initial_capture();
  }
  return d;
}

std::vector<PublicEvent> PublicHistory(const Game& game) {
  std::vector<PublicEvent> out;
  absl::StatusOr<Game> replay = Game::Create(game.rules(), game.decks());
  if (!replay.ok()) return out;  // (it was created from these once)
  Game& g = *replay;
  out.push_back({DealOf(g)});
  for (const PlayedMove& m : game.history()) {
    const size_t rounds_before = g.rounds().size();
    const int round_before = g.round();
    const int deal_before = g.deal();
    g.PlayUnchecked(m.move);
    out.push_back({MovePlayedEvent{m, /*viewer=*/-1}});
    for (size_t r = rounds_before; r < g.rounds().size(); ++r) {
      out.push_back({RoundEndedEvent{g.rounds()[r]}});
    }
    if (!g.over() && (g.round() != round_before || g.deal() != deal_before)) {
      out.push_back({DealOf(g)});
    }
  }
  // Rounds scored after the last move (a forfeit ends the round too).
  for (size_t r = g.rounds().size(); r < game.rounds().size(); ++r) {
    out.push_back({RoundEndedEvent{game.rounds()[r]}});
  }
  return out;
}

}  // namespace cassino::service
