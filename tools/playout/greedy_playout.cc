#include "tools/playout/greedy_playout.h"

#include "rules/game_moves.h"

namespace cassino {

double GreedyPlayer::Worth(const RuleSet& rules, CardSet cards) {
  const Scoring& sc = rules.scoring;
  double worth = 0;
  for (Card c : cards) {
    const bool spade = c.suit() == Suit::kSpades;
    worth += 0.1 + (spade ? 0.05 + sc.each_spade : 0) + sc.card[c.index()] +
             (c.rank() == kAce ? sc.each_ace : 0);
  }
  return worth;
}

Move GreedyPlayer::Choose(const Game& game) {
  GenerateGameMoves(game.position(), generator_, &moves_);
  if (!moves_.empty() && moves_.front().kind == MoveKind::kCallOut) {
    moves_.erase(moves_.begin());
  }
  if (rng_() % 8 == 0) return moves_[rng_() % moves_.size()];
  const RuleSet& rules = game.rules();
  const CardSet table = game.position().table.AllCards();
  size_t best = 0;
  double best_worth = 0;
  for (size_t i = 0; i < moves_.size(); ++i) {
    const Move& m = moves_[i];
    double worth = 0;
    switch (m.kind) {
      case MoveKind::kCapture:
        worth = Worth(rules, m.table | m.played()) +
                (m.table == table ? rules.sweep_points : 0);
        break;
      case MoveKind::kBuild:
        worth = kBuildWorth;
        break;
      case MoveKind::kTrail:
        worth = -Worth(rules, CardSet::Of(m.card));
        break;
      case MoveKind::kCallOut:
        continue;
    }
    if (i == 0 || worth > best_worth) {
      best = i;
      best_worth = worth;
    }
  }
  return moves_[best];
}

}  // namespace cassino
