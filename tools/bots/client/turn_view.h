// What a bot strategy sees on its turn, and the strategy interface.
//
// A TurnView is built from the referee's YourTurn message (or, for local
// games and tests, from the rules engine's Observation of a cassino::Game):
// it keeps the observation proto as sent, the legal moves parsed into
// cassino::Move, and a cassino::Position reconstructed from what the seat
// can see (the table with its builds, the seat's own hand, the rules, the
// seat to move = the seat itself; other hands are empty because they are
// unknown). Strategies can therefore call the rules engine directly on
// `position` (ApplyMove, LegalMoves, ...) to evaluate their candidates.
//
// The helpers at the end convert between the engine's value types and the
// API messages, so that a local game produces exactly the view a networked
// bot would receive.

#ifndef CASSINO_TOOLS_BOTS_CLIENT_TURN_VIEW_H_
#define CASSINO_TOOLS_BOTS_CLIENT_TURN_VIEW_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "cassino/v1/referee_service.pb.h"
#include "proto/convert.h"
#include "rules/card.h"
#include "rules/game.h"
#include "rules/move.h"
#include "rules/observation.h"
#include "rules/position.h"

namespace cassino::bots {

namespace v1 = ::cassino::v1;

struct TurnView {
  // The seat to move (the bot's own seat).
  int seat = 0;
  // The turn number the answer must carry (YourTurn.turn).
  int turn = 0;
  // The observation exactly as the referee sent it.
  v1::Observation observation;
  // Every legal move, in the referee's order; never empty on a real turn.
  std::vector<Move> legal_moves;
  // Table, own hand, rules, to_move = seat; other seats' hands are empty.
  Position position;
  // Cards the seat has not seen this round: not in its hand, not on the
  // table, not played, captured or plucked in this round's history, not
  // taken as initial pairs. Exactly the other hands and the stock.
  CardSet unseen;
  // Milliseconds left for this move (0 for local games: no clock).
  int64_t time_left_ms = 0;

  const RuleSet& rules() const { return position.rules; }
  CardSet hand() const { return position.hands[seat]; }
  int side() const { return position.rules.SideOf(seat); }
};

// A playing policy. Implementations may keep state between calls (e.g. an
// RNG) but must not block for long: the referee's clock is running.
class Strategy {
 public:
  virtual ~Strategy() = default;
  // A short name, e.g. "greedy".
  virtual std::string name() const = 0;
  // Returns one of `view.legal_moves` (the client substitutes a legal move,
  // and logs it, if it gets anything else).
  virtual Move Choose(const TurnView& view) = 0;
};

// Builds the view from the observation and legal moves of a YourTurn.
// InvalidArgument if the rules, a card or a move cannot be parsed.
absl::StatusOr<TurnView> MakeTurnView(const v1::YourTurn& your_turn);

// The view of `seat` in a local game whose turn it is, built through the
// same API messages a networked bot gets (engine Observation -> proto ->
// MakeTurnView), the legal moves in the referee's order, so local tests
// exercise the real conversion path and see the list a real game shows.
absl::StatusOr<TurnView> MakeLocalTurnView(const Game& game, int seat);

// Conversions to and from the API messages are referee/convert.h
// (convert::ToProto, convert::FromProto, convert::CardsFromProto).

// A one-line description of a result from the point of view of `seat`
// (playing for `side`), e.g.
// "game g1 seat 0: won (target) totals 21-17: side 0 reached 21 at cards".
std::string DescribeResult(const std::string& game_id, int seat, int side,
                           const v1::GameResult& result);

}  // namespace cassino::bots

#endif  // CASSINO_TOOLS_BOTS_CLIENT_TURN_VIEW_H_
