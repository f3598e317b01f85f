// A move and its canonical text notation (RULES.md §4).
//
// The identity of a move is: the kind, the played card, for builds the build
// value, and the set of table cards involved (loose cards and whole builds).
// Two derivations with the same identity are the same move. `Move` stores
// exactly that identity, so equality of Moves is equality of moves.
//
// Notation (canonical form sorts table cards by deck index):
//   trail 7H                    the played card goes to the table
//   take 8C 8H 6D 2C            played card, then every table card taken
//   build 8 3D 5S 8H 6D 2C      value, played card, table cards involved
//   call                        call out (option call_out): claim the win
//   take 3C+5H 8D               Callabra's pair capture: two hand cards
//                               (joined by '+', deck order) take one card
//                               whose value is their sum
// The parser accepts table cards in any order, `capture` for `take`, and
// lower-case letters; the printer always writes the canonical form.

#ifndef CASSINO_REFEREE_RULES_MOVE_H_
#define CASSINO_REFEREE_RULES_MOVE_H_

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/strings/string_view.h"
#include "absl/status/statusor.h"
#include "referee/rules/card.h"

namespace cassino {

enum class MoveKind : uint8_t { kTrail, kCapture, kBuild, kCallOut };

struct Move {
  MoveKind kind = MoveKind::kTrail;
  Card card;          // the played card; invalid for kCallOut
  int8_t value = 0;   // the build's value for kBuild, else 0
  CardSet table;      // table cards involved; empty for trails and call-outs
  // Callabra's pair capture: the second hand card played with `card` (the
  // one later in deck order); invalid for every other move.
  Card second;

  static Move Trail(Card c) { return Move{MoveKind::kTrail, c, 0, {}, Card()}; }
  static Move Capture(Card c, CardSet taken) {
    return Move{MoveKind::kCapture, c, 0, taken, Card()};
  }
  static Move Build(Card c, int value, CardSet table) {
    return Move{MoveKind::kBuild, c, static_cast<int8_t>(value), table,
                Card()};
  }
  static Move CallOut() {
    return Move{MoveKind::kCallOut, Card(), 0, {}, Card()};
  }
  // Two hand cards taking one table card (Callabra); the hand cards in
  // either order.
  static Move PairCapture(Card a, Card b, Card taken) {
    return Move{MoveKind::kCapture, std::min(a, b), 0, CardSet::Of(taken),
                std::max(a, b)};
  }
  // The hand cards the move plays: `card`, and `second` if valid.
  CardSet played() const {
    CardSet set;
    if (card.valid()) set.insert(card);
    if (second.valid()) set.insert(second);
    return set;
  }

  // Canonical notation.
  std::string ToString() const;
  // Parses the notation; checks syntax only (not legality).
  static absl::StatusOr<Move> Parse(absl::string_view text);

  friend bool operator==(const Move&, const Move&) = default;
};

absl::string_view MoveKindName(MoveKind kind);

}  // namespace cassino

#endif  // CASSINO_REFEREE_RULES_MOVE_H_
