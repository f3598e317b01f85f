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

void PublicHistoryBuilder::Observe(const recorder::Event& event,
                                   const Game& state) {
  if (!started_) {
    // The record's `create`: the game as dealt.
    started_ = true;
    events_.push_back(DealOf(state));
  } else {
    const bool moved = event.kind == recorder::EventKind::kMove;
    if (moved) {
      events_.push_back(MovePlayedEvent{state.history().back(), -1});
    }
    // (A forfeit may score the round too.)
    for (size_t r = rounds_; r < state.rounds().size(); ++r) {
      events_.push_back(RoundEndedEvent{state.rounds()[r]});
    }
    if (moved && !state.over() &&
        (state.round() != round_ || state.deal() != deal_)) {
      events_.push_back(DealOf(state));
    }
  }
  rounds_ = state.rounds().size();
  round_ = state.round();
  deal_ = state.deal();
}

}  // namespace cassino::service
