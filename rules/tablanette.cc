#include "rules/tablanette.h"

#include "absl/strings/str_cat.h"
#include "rules/legal_moves.h"

namespace cassino::tablanette {
namespace {

// Numeral captures are Cassino's captures on a table without builds, under
// the standard rule set (whose face rule is not used here).
Position AsCassino(const Position& pos) {
  Position p = pos;
  const int players = p.rules.players;
  const bool partnerships = p.rules.partnerships;
  p.rules = RuleSet::Standard();
  p.rules.players = players;
  p.rules.partnerships = partnerships;
  return p;
}

}  // namespace

std::vector<Move> LegalMoves(const Position& pos) {
  std::vector<Move> moves;
  const CardSet hand = pos.hands[pos.to_move];
  const CardSet loose = pos.table.loose;
  std::vector<Move> numeral;  // Cassino's moves, for the numeral cards
  bool numeral_ready = false;
  for (Card c : hand) {
    moves.push_back(Move::Trail(c));
    if (c.rank() == kJack) {
      if (!loose.empty()) moves.push_back(Move::Capture(c, loose));
    } else if (c.is_face()) {
      for (Card t : loose& CardSet::OfRank(c.rank())) {
        moves.push_back(Move::Capture(c, CardSet::Of(t)));
      }
    } else {
      if (!numeral_ready) {
        numeral = cassino::LegalMoves(AsCassino(pos));
        numeral_ready = true;
      }
      for (const Move& m : numeral) {
        if (m.kind == MoveKind::kCapture && m.card == c) moves.push_back(m);
      }
    }
  }
  return moves;
}

absl::Status ValidateMove(const Position& pos, const Move& move) {
  const CardSet hand = pos.hands[pos.to_move];
  if (move.kind == MoveKind::kBuild) {
    return absl::InvalidArgumentError("Tablanette has no builds");
  }
  if (move.kind == MoveKind::kCallOut) {
    return absl::InvalidArgumentError("Tablanette has no call-out");
  }
  if (move.second.valid()) {
    return absl::InvalidArgumentError(
        "only Callabra plays two hand cards in one move");
  }
  if (!hand.contains(move.card)) {
    return absl::InvalidArgumentError(
        absl::StrCat(move.card.ToString(), " is not in your hand"));
  }
  if (move.kind == MoveKind::kTrail) return absl::OkStatus();
  if (move.table.empty()) {
    return absl::InvalidArgumentError("a capture takes at least one card");
  }
  const CardSet loose = pos.table.loose;
  if (!loose.contains(move.table)) {
    for (Card c : move.table - loose) {
      return absl::InvalidArgumentError(
          absl::StrCat(c.ToString(), " is not a loose card on the table"));
    }
  }
  const Card c = move.card;
  if (c.rank() == kJack) {
    if (move.table != loose) {
      return absl::InvalidArgumentError(
          absl::StrCat("a jack takes every loose card on the table: ",
                       Move::Capture(c, loose).ToString()));
    }
    return absl::OkStatus();
  }
  if (c.is_face()) {
    if (move.table.size() != 1 || move.table.first().rank() != c.rank()) {
      return absl::InvalidArgumentError(
          absl::StrCat(c.ToString(), " takes exactly one card of its rank"));
    }
    return absl::OkStatus();
  }
  return cassino::ValidateMove(AsCassino(pos), move);
}

MoveOutcome ApplyMove(Position& pos, const Move& move) {
  return cassino::ApplyMove(pos, move);
}

RoundScore ScoreRound(std::span<const CardSet> piles,
                      std::span<const Sweep> sweeps) {
  RoundScore score;
  const int sides = static_cast<int>(piles.size());
  score.sides.resize(sides);
  std::vector<int> cards(sides);
  for (int s = 0; s < sides; ++s) {
    cards[s] = piles[s].size();
    score.sides[s].cards = cards[s];
    score.sides[s].spades = (piles[s] & CardSet::OfSuit(Suit::kSpades)).size();
  }
  auto add = [&](ScoreItemKind kind, int side, int points, Card card = Card()) {
    score.items.push_back({kind, side, points, card});
    score.sides[side].points += points;
  };
  if (int s = UniqueMost(cards); s >= 0) add(ScoreItemKind::kCards, s, 3);
  const CardSet faces =
      CardSet::OfRank(kJack) | CardSet::OfRank(kQueen) | CardSet::OfRank(kKing);
  for (Card face : faces) {
    if (int s = HolderOf(piles, face); s >= 0) {
      add(ScoreItemKind::kFace, s, 1, face);
    }
  }
  if (int s = HolderOf(piles, kBigCassino); s >= 0) {
    score.sides[s].big_cassino = true;
    add(ScoreItemKind::kBigCassino, s, 2, kBigCassino);
  }
  if (int s = HolderOf(piles, kLittleCassino); s >= 0) {
    score.sides[s].little_cassino = true;
    add(ScoreItemKind::kLittleCassino, s, 1, kLittleCassino);
  }
  for (Card ace : kAceCountOutOrder) {
    if (int s = HolderOf(piles, ace); s >= 0) {
      ++score.sides[s].aces;
      add(ScoreItemKind::kAce, s, 1, ace);
    }
  }
  for (const Sweep& sw : sweeps) {
    ++score.sides[sw.side].sweeps;
    add(ScoreItemKind::kSweep, sw.side, sw.points);
  }
  return score;
}

}  // namespace cassino::tablanette
