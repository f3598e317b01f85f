#include "referee/session_events.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "rules/game_moves.h"

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

YourTurnEvent TurnOf(const Game& game, HistoryScope history,
                     std::shared_ptr<const std::string> rules_text) {
  YourTurnEvent t;
  t.turn = game.turn();
  t.observation = Observe(game, game.to_move(), history);
  t.rules_text = std::move(rules_text);
  t.round_history_omitted = history == HistoryScope::kNone;
  std::vector<NotatedMove> sorted = InNotationOrder(game.LegalMoves());
  t.legal_moves.reserve(sorted.size());
  t.legal_notations.reserve(sorted.size());
  for (NotatedMove& m : sorted) {
    t.legal_moves.push_back(m.move);
    t.legal_notations.push_back(std::move(m.notation));
  }
  return t;
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
