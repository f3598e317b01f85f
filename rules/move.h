// A move and its canonical text notation (docs/rules.md, *Move notation*).
//
// The identity of a move is: the kind, the played card, for builds the build
// value, and the set of table cards involved (loose cards and whole builds).
// Two derivations with the same identity are the same move. `Move` stores
// exactly that identity, so equality of Moves is equality of moves.
//
// Under ace_high or dual_ten the identity also holds the value declared for
// the played card when it is not the card's default value (docs/rules.md,
// *Move-level variants*):
// `take AC=14 KS AH`, `build 14 AC=14 ...`, `take TD=11 5H 6C`. The default
// value is never written (`AC=1` and `TD=10` parse as plain `AC`, `TD`), so
// the notation stays canonical.
//
// Under pluck the identity also holds the plucked card and whether it was
// plucked before or after the card was played (docs/rules.md,
// *Move-level variants*):
//   pluck 7H, trail 3D          pluck first, then play
//   trail 3D, pluck 7H          play first, then pluck
//
// Notation (canonical form sorts table cards by deck index):
//   trail 7H                    the played card goes to the table
//   take 8C 8H 6D 2C            played card, then every table card taken
//   build 8 3D 5S 8H 6D 2C      value, played card, table cards involved
//   call                        call out (option call_out): claim the win
//   take 3S+5H 8D               Callabra's pair capture: two hand cards
//                               (joined by '+', deck order) take one card
//                               whose value is their sum
// The parser accepts table cards in any order, `capture` for `take`, and
// lower-case letters; the printer always writes the canonical form.

#ifndef CASSINO_RULES_MOVE_H_
#define CASSINO_RULES_MOVE_H_

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "rules/card.h"

namespace cassino {

enum class MoveKind : uint8_t { kTrail, kCapture, kBuild, kCallOut };

struct Move {
  MoveKind kind = MoveKind::kTrail;
  Card card;         // the played card; invalid for kCallOut
  int8_t value = 0;  // the build's value for kBuild, else 0
  // The value declared for the played card (captures and builds) when it
  // differs from the card's rank (an ace as 14, TD as 11); 0: the default.
  int8_t declared = 0;
  // pluck: the loose table card plucked this turn (invalid: none), and
  // whether it was plucked after playing the card (else before).
  Card pluck;
  bool pluck_after = false;
  // Callabra's pair capture: the second hand card played with `card` (the
  // one later in deck order); invalid for every other move.
  Card second;
  CardSet table;  // table cards involved; empty for trails and call-outs
  // (The fields are ordered so that a Move stays 16 bytes.)

  static Move Trail(Card c) {
    Move m;
    m.kind = MoveKind::kTrail;
    m.card = c;
    return m;
  }
  static Move Capture(Card c, CardSet taken, int declared = 0) {
    Move m;
    m.kind = MoveKind::kCapture;
    m.card = c;
    m.declared = static_cast<int8_t>(declared);
    m.table = taken;
    return m;
  }
  static Move Build(Card c, int value, CardSet table, int declared = 0) {
    Move m;
    m.kind = MoveKind::kBuild;
    m.card = c;
    m.value = static_cast<int8_t>(value);
    m.declared = static_cast<int8_t>(declared);
    m.table = table;
    return m;
  }
  static Move CallOut() {
    Move m;
    m.kind = MoveKind::kCallOut;
    return m;
  }

  // Two hand cards taking one table card (Callabra); the hand cards in
  // either order.
  static Move PairCapture(Card a, Card b, Card taken) {
    Move m = Capture(std::min(a, b), CardSet::Of(taken));
    m.second = std::max(a, b);
    return m;
  }
  // The hand cards the move plays: `card`, and `second` if valid.
  CardSet played() const {
    CardSet set;
    if (card.valid()) set.insert(card);
    if (second.valid()) set.insert(second);
    return set;
  }

  bool has_pluck() const { return pluck.valid(); }
  // The move without its pluck.
  Move WithoutPluck() const {
    Move m = *this;
    m.pluck = Card();
    m.pluck_after = false;
    return m;
  }
  Move WithPluck(Card p, bool after) const {
    Move m = *this;
    m.pluck = p;
    m.pluck_after = after;
    return m;
  }

  // Canonical notation.
  std::string ToString() const;
  // Parses the notation; checks syntax only (not legality).
  static absl::StatusOr<Move> Parse(absl::string_view text);

  friend bool operator==(const Move&, const Move&) = default;
};
static_assert(sizeof(Move) == 16);

// "trail", "capture", "build" or "call_out": the API's kind without its
// MOVE_KIND_ prefix, as the SDKs name it.
absl::string_view MoveKindName(MoveKind kind);

// A strict weak order on moves: by played card, kind, declared value, build
// value, table cards, pluck. Used to sort move lists into a fixed order.
bool MoveLess(const Move& a, const Move& b);

}  // namespace cassino

#endif  // CASSINO_RULES_MOVE_H_
