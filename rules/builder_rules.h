// The guard and the builder obligations (docs/rules.md, *Builder obligations*),
// shared by move generation and validation so that both apply exactly the same
// rule.
//
// A player controls a build if they made or last changed it.
//   Guard (always): no move may leave the mover controlling a build whose
//     value they no longer hold, unless the move captures it. With flexible
//     cards (dual_ten, ace_high) each value the mover controls after the
//     move needs its own card: one TD does not hold builds of 10 and 11.
//   v1: while controlling a build, the player may not trail.
//   v2: while controlling a build, the move must capture a build they
//       control, or raise or add to a build they control.
//   v3: while controlling a build, no trail; the move captures, raises or
//       adds to their own build, starts a new build, or raises another
//       player's single build (adding to another player's build is barred).
//       From revision 2 a capture must take in a build they control ("You
//       must either take in the build, duplicate it or increase it, OR
//       defer by starting another build or assuming ownership of an
//       opponent's build"). Under v3 no move may leave two builds of one
//       value on the table.
//   none: the guard only.

#ifndef CASSINO_RULES_BUILDER_RULES_H_
#define CASSINO_RULES_BUILDER_RULES_H_

#include <cstdint>
#include <string>

#include "rules/move.h"
#include "rules/position.h"

namespace cassino {

enum class BuilderViolation {
  kNone,
  kGuard,             // leaves a controlled build whose value is not held
  kGuardShared,       // one flexible card (TD) would have to take builds
                      // of two values
  kMayNotTrail,       // v1, v3
  kMustUseOwnBuild,   // v2
  kNoAddToOthers,     // v3
  kMustTakeOwnBuild,  // v3 (revision 2): a capture that leaves one's build
  kDuplicateValue,    // v3
};

// What a candidate move does to the builds on the table, by build index.
struct MoveEffect {
  MoveKind kind = MoveKind::kTrail;
  Card card;
  int value = 0;              // the resulting build's value (kBuild)
  uint32_t builds_taken = 0;  // bit i: table.builds[i] is captured
  int changed_build = -1;     // kBuild: index of the build raised/added to
  // defaults_cost: the builder rule the move breaks (it is legal, and costs
  // the mover the points); kNone otherwise.
  BuilderViolation broken = BuilderViolation::kNone;
};

// The card of five_spades_sweep.
inline constexpr Card kFiveOfSpades = Card::Of(5, Suit::kSpades);

// True if `move` is a trail of 5S that takes the whole table
// (five_spades_sweep, table not empty): a capture and a sweep.
inline bool IsFiveSpadesSweep(const Position& pos, const Move& move) {
  return pos.rules.five_spades_sweep && move.kind == MoveKind::kTrail &&
         move.card == kFiveOfSpades && !pos.table.empty();
}

// The mover's controlled builds as a bit mask over build indices.
uint32_t ControlledBuilds(const Position& pos, int seat);

// True if `hand` holds a card that may count `value` under `rules`.
bool HoldsValue(const RuleSet& rules, CardSet hand, int value);
// True if `hand` holds a card that could take `build`: one of its value, or
// for a natural face build one of its rank.
bool HoldsFor(const RuleSet& rules, CardSet hand, const Build& build);

// Checks the guard and the obligation for the mover (pos.to_move).
// `violating_build` receives the build index concerned, where there is one.
BuilderViolation CheckBuilderRules(const Position& pos,
                                   const MoveEffect& effect,
                                   int* violating_build = nullptr);

// A human-readable reason, e.g. "you control a build of 8 and may not trail".
std::string BuilderViolationReason(const Position& pos, BuilderViolation v,
                                   int build);

}  // namespace cassino

#endif  // CASSINO_RULES_BUILDER_RULES_H_
