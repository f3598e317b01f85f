#include "rules/builder_rules.h"

#include <bit>

#include "absl/strings/str_cat.h"

namespace cassino {

uint32_t ControlledBuilds(const Position& pos, int seat) {
  uint32_t mask = 0;
  for (size_t i = 0; i < pos.table.builds.size(); ++i) {
    if (pos.table.builds[i].controller == seat) mask |= uint32_t{1} << i;
  }
  return mask;
}

bool HoldsValue(const RuleSet& rules, CardSet hand, int value) {
  if (value < 0 || value > 31) return false;
  for (Card c : hand) {
    if (rules.ValueMask(c) >> value & 1) return true;
  }
  return false;
}

bool HoldsFor(const RuleSet& rules, CardSet hand, const Build& build) {
  if (IsFaceBuild(rules, build)) {
    return hand.intersects(CardSet::OfRank(build.cards.first().rank()));
  }
  return HoldsValue(rules, hand, build.value);
}

namespace {

// True if distinct cards of `hand` can count each value of `values` (bit v:
// value v), one card per value.
bool CoversValues(const RuleSet& rules, CardSet hand, uint32_t values) {
  if (values == 0) return true;
  const int v = std::countr_zero(values);
  for (Card c : hand) {
    if ((rules.ValueMask(c) >> v & 1) &&
        CoversValues(rules, hand - CardSet::Of(c), values & (values - 1))) {
      return true;
    }
  }
  return false;
}

}  // namespace

BuilderViolation CheckBuilderRules(const Position& pos, const MoveEffect& e,
                                   int* violating_build) {
  const RuleSet& rules = pos.rules;
  const int seat = pos.to_move;
  const uint32_t controlled = ControlledBuilds(pos, seat);
  const CardSet rest = pos.hands[seat] - CardSet::Of(e.card);
  const auto& builds = pos.table.builds;
  const uint32_t changed =
      e.changed_build >= 0 ? uint32_t{1} << e.changed_build : 0;
  auto report = [&](BuilderViolation v, int build) {
    if (violating_build) *violating_build = build;
    return v;
  };

  // The obligation of a player who controls a build.
  if (controlled != 0) {
    const int first = std::countr_zero(controlled);
    switch (rules.builder_obligation) {
      case BuilderObligation::kNone:
        break;
      case BuilderObligation::kV1:
        if (e.kind == MoveKind::kTrail) {
          return report(BuilderViolation::kMayNotTrail, first);
        }
        break;
      case BuilderObligation::kV2:
        if ((e.builds_taken & controlled) == 0 && (changed & controlled) == 0) {
          return report(BuilderViolation::kMustUseOwnBuild, first);
        }
        break;
      case BuilderObligation::kV3:
        if (e.kind == MoveKind::kTrail) {
          return report(BuilderViolation::kMayNotTrail, first);
        }
        if (rules.revision >= 2 && e.kind == MoveKind::kCapture &&
            (e.builds_taken & controlled) == 0) {
          return report(BuilderViolation::kMustTakeOwnBuild, first);
        }
        if (e.kind == MoveKind::kBuild && e.changed_build >= 0 &&
            (changed & controlled) == 0 &&
            builds[e.changed_build].value == e.value) {
          return report(BuilderViolation::kNoAddToOthers, e.changed_build);
        }
        break;
    }
  }

  // Guard: every controlled build that survives unchanged must still be held.
  for (uint32_t m = controlled & ~e.builds_taken & ~changed; m; m &= m - 1) {
    const int i = std::countr_zero(m);
    if (!HoldsFor(rules, rest, builds[i])) {
      return report(BuilderViolation::kGuard, i);
    }
  }
  // One flexible card cannot hold two values at once.
  if (rest.intersects(rules.FlexibleCards())) {
    uint32_t values = 0;
    for (uint32_t m = controlled & ~e.builds_taken & ~changed; m; m &= m - 1) {
      const Build& b = builds[std::countr_zero(m)];
      if (!IsFaceBuild(rules, b)) values |= uint32_t{1} << b.value;
    }
    if (e.kind == MoveKind::kBuild) values |= uint32_t{1} << e.value;
    if (std::popcount(values) > 1 && !CoversValues(rules, rest, values)) {
      return report(BuilderViolation::kGuardShared, -1);
    }
  }

  if (rules.builder_obligation == BuilderObligation::kV3) {
    // No two builds of one value may remain.
    uint32_t values = 0;
    for (size_t i = 0; i < builds.size(); ++i) {
      if ((e.builds_taken | changed) >> i & 1) continue;
      const uint32_t bit = uint32_t{1} << builds[i].value;
      if (values & bit) return report(BuilderViolation::kDuplicateValue, -1);
      values |= bit;
    }
    if (e.kind == MoveKind::kBuild && (values >> e.value & 1)) {
      return report(BuilderViolation::kDuplicateValue, -1);
    }
  }
  return BuilderViolation::kNone;
}

std::string BuilderViolationReason(const Position& pos, BuilderViolation v,
                                   int build) {
  const Build* b =
      build >= 0 && build < static_cast<int>(pos.table.builds.size())
          ? &pos.table.builds[build]
          : nullptr;
  const std::string which = b ? b->ToString() : "a build";
  const int value = b ? b->value : 0;
  switch (v) {
    case BuilderViolation::kNone:
      return "";
    case BuilderViolation::kGuard:
      return absl::StrCat("you control the build ", which,
                          " and this move would leave you no card of ", value,
                          " to take it");
    case BuilderViolation::kGuardShared:
      return "after this move you would control builds of different values "
             "that only one card in your hand could take: each value needs its "
             "own card";
    case BuilderViolation::kMayNotTrail:
      return absl::StrCat("you control a build of ", value, " (", which,
                          ") and may not trail");
    case BuilderViolation::kMustUseOwnBuild:
      return absl::StrCat(
          "you control a build of ", value, " (", which,
          "): you must capture, raise or add to a build you control "
          "(builder_obligation=v2)");
    case BuilderViolation::kNoAddToOthers:
      return absl::StrCat(
          "while you control a build you may not add to another player's "
          "build ",
          which, " (builder_obligation=v3)");
    case BuilderViolation::kMustTakeOwnBuild:
      return absl::StrCat(
          "you control a build of ", value, " (", which,
          "): a capture must take it in; otherwise duplicate or increase it, "
          "start another build or take over an opponent's single build "
          "(builder_obligation=v3)");
    case BuilderViolation::kDuplicateValue:
      return "two builds of the same value may not stand on the table "
             "(builder_obligation=v3)";
  }
  return "";
}

}  // namespace cassino
