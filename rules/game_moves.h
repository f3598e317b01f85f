// The move rules of whichever game a position's rule set plays
// (`game=cassino|callabra|tablanette`): the one dispatch by game kind that
// the game, the tools and the playouts share, so that a tool never lists
// Cassino's moves for a Callabra or Tablanette position.
//
// Contract: the functions read `pos` only for the duration of the call and
// keep nothing. `pos` must be valid (Position::Validate).

#ifndef CASSINO_RULES_GAME_MOVES_H_
#define CASSINO_RULES_GAME_MOVES_H_

#include <span>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "rules/adjudicator.h"
#include "rules/legal_moves.h"
#include "rules/move.h"
#include "rules/position.h"

namespace cassino {

// Replaces `out` with every legal move of pos.to_move under the position's
// game, in that game's fixed order. `gen` is scratch space for Cassino
// (reused without allocating once warm). Returns false if the list is
// incomplete (only Cassino's generator caps very large tables; see
// MoveGenerator::kMaxItems).
bool GenerateGameMoves(const Position& pos, MoveGenerator& gen,
                       std::vector<Move>* out);

// Convenience: every legal move of pos.to_move under the position's game.
std::vector<Move> GameLegalMoves(const Position& pos);

// OK if `move` is legal for pos.to_move under the position's game;
// otherwise InvalidArgument with the reason.
absl::Status ValidateGameMove(const Position& pos, const Move& move);

// Applies a legal move (ValidateGameMove accepted it) for pos.to_move under
// the position's game and passes the turn: what Game does to its position
// for each move (its piles, deals and scoring are the Game's).
MoveOutcome ApplyGameMove(Position& pos, const Move& move);
// The same into `*outcome` (see the ApplyMove that does: Game's hot path).
void ApplyGameMove(Position& pos, const Move& move, MoveOutcome* outcome);

// A move with its canonical notation.
struct NotatedMove {
  std::string notation;
  Move move;
};
// `moves` in the API's order, each with its notation made once: sorted by
// notation (byte order). The order of YourTurn.legal_moves, which every
// SDK and the forward model (sdk/python) give their bots.
std::vector<NotatedMove> InNotationOrder(std::span<const Move> moves);

}  // namespace cassino

#endif  // CASSINO_RULES_GAME_MOVES_H_
