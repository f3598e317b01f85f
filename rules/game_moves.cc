#include "rules/game_moves.h"

#include <algorithm>
#include <utility>

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

MoveOutcome ApplyGameMove(Position& pos, const Move& move) {
  MoveOutcome outcome;
  ApplyGameMove(pos, move, &outcome);
  return outcome;
}

void ApplyGameMove(Position& pos, const Move& move, MoveOutcome* outcome) {
  switch (pos.rules.game) {
    case GameKind::kCallabra:
      *outcome = callabra::ApplyMove(pos, move);
      return;
    case GameKind::kTablanette:
      *outcome = tablanette::ApplyMove(pos, move);
      return;
    case GameKind::kCassino:
      break;
  }
  ApplyMove(pos, move, outcome);
}

std::vector<NotatedMove> InNotationOrder(std::span<const Move> moves) {
  std::vector<NotatedMove> out;
  out.reserve(moves.size());
  for (const Move& m : moves) out.push_back({m.ToString(), m});
  std::sort(out.begin(), out.end(),
            [](const NotatedMove& a, const NotatedMove& b) {
              return a.notation < b.notation;
            });
  return out;
}

}  // namespace cassino
