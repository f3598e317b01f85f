// A position: what move generation and validation need to know.
//
// The table holds loose cards and builds. A build is a pile of numeral cards
// with a declared value, a controller (the seat that made or last changed
// it) and a kind: single (its cards sum to the value) or multiple (its cards
// form two or more groups of the value). Builds are kept sorted by their
// lowest card, so equal tables compare equal.
//
// Text format (one line; sections separated by ';', in any order):
//
//   table: 2C KH [5S 3H]=8@0 [5C 3D 2H]=5m@1; hands: 4D 8C / ?; to_move: 0;
//   rules: builder_obligation=v2
//
//   table    loose cards and builds; a build is `[cards]=V@P` (V its value,
//            P its controller) with `m` after V for a multiple build; `-` is
//            an empty table.
//   hands    one hand per seat separated by '/', seat 0 first; `-` is an
//            empty hand, `?` a hand that is not known (treated as empty).
//            Seats not listed are unknown. The number of seats is the rules'
//            `players`.
//   to_move  the seat to move (default 0).
//   rules    a rule set in RuleSet text form (default: standard).
//   plucked  pluck: the seats that have plucked in this deal, e.g. `0 2`
//            (default none).
//   stock_empty  pluck: `on` once the stock is empty (the last deal), when
//            nobody may pluck (default off).
// `ToString()` prints the canonical form (every section, cards sorted, only
// the rule options that differ from the standard game).

#ifndef CASSINO_RULES_POSITION_H_
#define CASSINO_RULES_POSITION_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "rules/card.h"
#include "rules/rule_set.h"

namespace cassino {

struct Build {
  CardSet cards;
  int value = 0;
  int controller = 0;
  bool multiple = false;

  // `[5S 3H]=8@0`, `[5C 3D 2H]=5m@1`.
  std::string ToString() const;
  friend bool operator==(const Build&, const Build&) = default;
};

struct Table {
  CardSet loose;
  std::vector<Build> builds;  // sorted by lowest card

  CardSet AllCards() const;
  bool empty() const { return loose.empty() && builds.empty(); }
  // Inserts keeping the order.
  void AddBuild(const Build& build);
  // Loose cards then builds, canonical; "-" when empty.
  std::string ToString() const;
  friend bool operator==(const Table&, const Table&) = default;
};

struct Position {
  RuleSet rules;
  Table table;
  std::vector<CardSet> hands;  // one per seat
  int to_move = 0;
  // pluck (docs/rules.md, *Move-level variants*): bit s set once seat s has
  // plucked in this deal; and whether the stock is empty, when nobody may
  // pluck.
  uint32_t plucked = 0;
  bool stock_empty = false;

  static absl::StatusOr<Position> Parse(absl::string_view text);
  std::string ToString() const;
  // Every card appears at most once; builds are well formed.
  absl::Status Validate() const;
  friend bool operator==(const Position&, const Position&) = default;
};

// True for a natural face build (face_capture=four/any): face cards of one
// rank, which have no value under the rules; its value is the rank (11, 12,
// 13). Every other build is a numeral build.
inline bool IsFaceBuild(const RuleSet& rules, const Build& build) {
  return !build.cards.empty() && rules.CardValue(build.cards.first()) == 0;
}

// The rule options that differ from the standard game, as RuleSet text
// (empty for the standard game).
std::string RulesDiff(const RuleSet& rules);

}  // namespace cassino

#endif  // CASSINO_RULES_POSITION_H_
