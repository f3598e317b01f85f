#include "rules/game_moves.h"

#include "rules/adjudicator.h"
#include "rules/callabra.h"
#include "rules/tablanette.h"

namespace cassino {

bool GenerateGameMoves(const Position& pos, MoveGenerator& gen,
                       std::vector<Move>* out) {
  switch (pos.rules.game) {
    case GameKind::kCallabra:
      *out = callabra::LegalMoves(pos);
      return true;
    case GameKind::kTablanette:
      *out = tablanette::LegalMoves(pos);
      return true;
    case GameKind::kCassino:
      break;
  }
  return gen.Generate(pos, out);
}

std::vector<Move> GameLegalMoves(const Position& pos) {
  MoveGenerator gen;
  std::vector<Move> moves;
  GenerateGameMoves(pos, gen, &moves);
  return moves;
}

absl::Status ValidateGameMove(const Position& pos, const Move& move) {
  switch (pos.rules.game) {
    case GameKind::kCallabra:
      return callabra::ValidateMove(pos, move);
    case GameKind::kTablanette:
      return tablanette::ValidateMove(pos, move);
    case GameKind::kCassino:
      break;
  }
  return ValidateMove(pos, move);
}

}  // namespace cassino
