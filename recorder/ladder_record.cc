#include "recorder/ladder_record.h"

#include "rules/rule_set.h"

namespace cassino::recorder {

std::optional<competition::LadderGame> LadderGameOf(const GameSummary& game) {
  if (game.status != GameStatus::kFinished) return std::nullopt;
  absl::StatusOr<RuleSet> rules = RuleSet::Parse(game.rules);
  if (!rules.ok()) return std::nullopt;
  competition::LadderGame g;
  g.game_id = game.game_id;
  g.created_us = game.created_us;
  g.finished_us = game.finished_us;
  g.winner = game.winner;
  g.totals = game.totals;
  g.sides.resize(rules->Sides());
  for (size_t seat = 0; seat < game.bots.size(); ++seat) {
    const int side = rules->SideOf(static_cast<int>(seat));
    if (side < 0 || side >= static_cast<int>(g.sides.size())) {
      return std::nullopt;
    }
    g.sides[side].push_back(game.bots[seat]);
  }
  return g;
}

}  // namespace cassino::recorder
