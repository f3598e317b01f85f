#include "rules/callabra.h"

#include "absl/strings/str_cat.h"

namespace cassino::callabra {

std::vector<Move> LegalMoves(const Position& pos) {
  std::vector<Move> moves;
  const CardSet hand = pos.hands[pos.to_move];
  const CardSet loose = pos.table.loose;
  for (Card c : hand) {
    moves.push_back(Move::Trail(c));
    for (Card t : loose) {
      if (Value(t) == Value(c)) {
        moves.push_back(Move::Capture(c, CardSet::Of(t)));
      }
    }
    for (Card d : hand) {
      if (d <= c) continue;
      for (Card t : loose) {
        if (Value(t) == Value(c) + Value(d)) {
          moves.push_back(Move::PairCapture(c, d, t));
        }
      }
    }
  }
  return moves;
}

absl::Status ValidateMove(const Position& pos, const Move& move) {
  if (move.kind == MoveKind::kBuild) {
    return absl::InvalidArgumentError("Callabra has no builds");
  }
  if (move.kind == MoveKind::kCallOut) {
    return absl::InvalidArgumentError("Callabra has no call-out");
  }
  const CardSet hand = pos.hands[pos.to_move];
  for (Card c : move.played()) {
    if (!hand.contains(c)) {
      return absl::InvalidArgumentError(
          absl::StrCat(c.ToString(), " is not in your hand"));
    }
  }
  if (move.kind == MoveKind::kTrail) return absl::OkStatus();
  if (move.table.size() != 1) {
    return absl::InvalidArgumentError(
        "a Callabra capture takes exactly one table card");
  }
  const Card taken = move.table.first();
  if (!pos.table.loose.contains(taken)) {
    return absl::InvalidArgumentError(
        absl::StrCat(taken.ToString(), " is not on the table"));
  }
  const int played =
      Value(move.card) + (move.second.valid() ? Value(move.second) : 0);
  if (played != Value(taken)) {
    return absl::InvalidArgumentError(
        absl::StrCat(move.played().ToString(),
                     move.second.valid() ? " total " : " is worth ", played,
                     ", but ", taken.ToString(), " is worth ", Value(taken)));
  }
  return absl::OkStatus();
}

MoveOutcome ApplyMove(Position& pos, const Move& move) {
  if (move.second.valid()) pos.hands[pos.to_move].erase(move.second);
  MoveOutcome out = cassino::ApplyMove(pos, move);
  if (move.second.valid()) out.captured.insert(move.second);
  return out;
}

}  // namespace cassino::callabra
