#include "rules/adjudicator.h"

#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "rules/partition.h"
#include "rules/values.h"

namespace cassino {
namespace {

absl::Status Illegal(absl::string_view reason) {
  return absl::InvalidArgumentError(reason);
}

std::string RankName(int rank) {
  switch (rank) {
    case kJack:
      return "jack";
    case kQueen:
      return "queen";
    case kKing:
      return "king";
  }
  return std::string(1, RankChar(rank));
}

// The value the played card counts in this move: its declared value, or
// by default its rank value.
int PlayedValue(const RuleSet& rules, const Move& m) {
  return m.declared != 0 ? m.declared : rules.CardValue(m.card);
}

// Natural face builds of the played face card's rank among `involved`, as
// a build mask; an error for any other build.
absl::Status FaceUnits(const Position& pos, Card c, uint32_t involved,
                       uint32_t* face_builds) {
  const auto& builds = pos.table.builds;
  *face_builds = 0;
  for (uint32_t b = involved; b; b &= b - 1) {
    const int i = std::countr_zero(b);
    const Build& build = builds[i];
    if (!IsFaceBuild(pos.rules, build)) {
      return Illegal(
          absl::StrCat("a face card never takes part in a numeral "
                       "build (",
                       c.ToString(), " and ", build.ToString(), ")"));
    }
    if (build.cards.first().rank() != c.rank()) {
      return Illegal(absl::StrCat("the face build ", build.ToString(),
                                  " is taken only by a card of its rank"));
    }
    *face_builds |= uint32_t{1} << i;
  }
  return absl::OkStatus();
}

// Every card of the played face card's rank on the table: loose, or in a
// natural face build.
CardSet RankOnTable(const Position& pos, Card c) {
  const CardSet rank = CardSet::OfRank(c.rank());
  CardSet on_table = pos.table.loose & rank;
  for (const Build& b : pos.table.builds) {
    if (IsFaceBuild(pos.rules, b) && b.cards.intersects(rank))
      on_table |= b.cards;
  }
  return on_table;
}

absl::Status CheckFaceCapture(const Position& pos, const Move& m, CardSet loose,
                              uint32_t involved, MoveEffect* e) {
  const RuleSet& rules = pos.rules;
  const Card c = m.card;
  for (Card t : loose) {
    if (t.rank() != c.rank()) {
      return Illegal(absl::StrCat("a ", RankName(c.rank()), " takes only a ",
                                  RankName(c.rank()), " (", t.ToString(),
                                  " is not one)"));
    }
  }
  if (involved && (rules.face_capture == FaceCapture::kOne ||
                   rules.face_capture == FaceCapture::kAll)) {
    return Illegal(absl::StrCat(
        "a face card never takes a build (", c.ToString(), " cannot take ",
        pos.table.builds[std::countr_zero(involved)].ToString(), ")"));
  }
  uint32_t face_builds = 0;
  if (absl::Status s = FaceUnits(pos, c, involved, &face_builds); !s.ok()) {
    return s;
  }
  e->builds_taken = face_builds;
  if (loose.size() == 1 && involved == 0) return absl::OkStatus();
  const CardSet same = pos.table.loose & CardSet::OfRank(c.rank());
  switch (rules.face_capture) {
    case FaceCapture::kOne:
      return Illegal(
          "a face card takes exactly one card of its rank (face_capture=one)");
    case FaceCapture::kAll:
      // Capturing may take only some of what it could (revision 2).
      if (loose == same || rules.revision >= 2) return absl::OkStatus();
      return Illegal(
          absl::StrCat("a face card takes one card of its rank or all of them "
                       "(face_capture=all, revision=1); the table has ",
                       same.ToString()));
    case FaceCapture::kFour: {
      const CardSet on_table = RankOnTable(pos, c);
      if (m.table == on_table &&
          (on_table | CardSet::Of(c)) == CardSet::OfRank(c.rank())) {
        return absl::OkStatus();
      }
      return Illegal(absl::StrCat(
          "a face card takes one loose card of its rank, or every card of its "
          "rank on the table when that gathers all four (face_capture=four); "
          "the table has ",
          on_table.ToString()));
    }
    case FaceCapture::kAny:
      return absl::OkStatus();
  }
  return absl::OkStatus();
}

// A natural face build (face_capture=four or any): the played face card
// onto cards of its rank.
absl::Status CheckFaceBuild(const Position& pos, const Move& m, CardSet loose,
                            uint32_t involved, MoveEffect* e) {
  const RuleSet& rules = pos.rules;
  const Card c = m.card;
  const CardSet rank = CardSet::OfRank(c.rank());
  const CardSet rest = pos.hands[pos.to_move] - CardSet::Of(c);
  if (rules.face_capture != FaceCapture::kFour &&
      rules.face_capture != FaceCapture::kAny) {
    return Illegal(absl::StrCat("face cards never take part in a build (",
                                c.ToString(),
                                "; natural face builds need "
                                "face_capture=four or any)"));
  }
  if (!rules.face_builds) {
    return Illegal("natural face builds are off (face_builds=off)");
  }
  if (m.value != c.rank()) {
    return Illegal(absl::StrCat("a face build's value is its rank: build ",
                                c.rank(), " ", c.ToString(), " ..."));
  }
  if (m.table.empty()) {
    return Illegal(
        "a build needs at least one table card with the played card");
  }
  for (Card t : loose) {
    if (t.rank() != c.rank()) {
      return Illegal(
          absl::StrCat("a natural face build holds only cards of "
                       "one rank (",
                       t.ToString(), ")"));
    }
  }
  uint32_t face_builds = 0;
  if (absl::Status s = FaceUnits(pos, c, involved, &face_builds); !s.ok()) {
    return s;
  }
  if (std::popcount(face_builds) > 1) {
    return Illegal("builds are never merged: a move may change only one build");
  }
  if (face_builds) e->changed_build = std::countr_zero(face_builds);
  if (!rest.intersects(rank)) {
    return Illegal(absl::StrCat("a natural face build needs another ",
                                RankName(c.rank()),
                                " left in hand to take it later"));
  }
  if (rules.face_capture == FaceCapture::kFour) {
    const CardSet on_table = RankOnTable(pos, c);
    if (m.table != on_table) {
      return Illegal(absl::StrCat(
          "a natural face build takes every card of its rank on the table (",
          on_table.ToString(), ") (face_capture=four)"));
    }
    if (!rest.contains(rank - on_table - CardSet::Of(c))) {
      return Illegal(absl::StrCat("a natural face build needs every other ",
                                  RankName(c.rank()),
                                  " in your hand (face_capture=four)"));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckCapture(const Position& pos, const Move& m, CardSet loose,
                          uint32_t involved, MoveEffect* e) {
  const RuleSet& rules = pos.rules;
  const auto& builds = pos.table.builds;
  const Card c = m.card;
  const int x = PlayedValue(rules, m);
  if (x == 0) return CheckFaceCapture(pos, m, loose, involved, e);
  std::vector<int> in_sums;
  for (uint32_t b = involved; b; b &= b - 1) {
    const int i = std::countr_zero(b);
    const Build& build = builds[i];
    if (IsFaceBuild(rules, build)) {
      return Illegal(absl::StrCat("the face build ", build.ToString(),
                                  " is taken only by a card of its rank"));
    }
    if (build.value == x) {
      e->builds_taken |= uint32_t{1} << i;
      continue;
    }
    const bool opponent =
        rules.SideOf(build.controller) != rules.SideOf(pos.to_move);
    if (rules.builds_in_sums == BuildsInSums::kOpponentsSingle && opponent &&
        !build.multiple && build.value < x) {
      e->builds_taken |= uint32_t{1} << i;
      in_sums.push_back(build.value);
      continue;
    }
    return Illegal(absl::StrCat("the build ", build.ToString(), " has value ",
                                build.value, " and cannot be taken with ",
                                c.ToString(), " (value ", x, ")"));
  }
  for (Card t : loose) {
    if (rules.CardValue(t) == 0) {
      return Illegal(absl::StrCat("a face card (", t.ToString(),
                                  ") is never part of a sum"));
    }
  }
  const bool splits =
      AnyValueChoice(rules, loose, [&](ValueCounts counts, int) {
        for (int v : in_sums) ++counts[v];
        return SplitsIntoGroups(counts, x);
      });
  if (!splits) {
    return Illegal(absl::StrCat("the cards taken (", loose.ToString(),
                                ") do not split into groups "
                                "summing to ",
                                x));
  }
  return absl::OkStatus();
}

// A new build of the played card's own value: the played card alone is a
// group, the loose cards one group more and, absorbing, further groups
// (revision 2; a multiple build, so never under multiple_builds=off).
absl::Status CheckNaturalBuild(const Position& pos, const Move& m,
                               CardSet loose) {
  const RuleSet& rules = pos.rules;
  const int v = m.value;
  if (!rules.NaturalBuilds()) {
    return Illegal(absl::StrCat(
        "a new build of ", v, " needs table cards that, with ",
        m.card.ToString(), ", sum to ", v, "; to take cards of ", v,
        " use take",
        rules.multiple_builds
            ? " (natural builds with the played card alone need revision=2)"
            : " (a natural build is a multiple build, and multiple builds "
              "are off)"));
  }
  const bool absorb = rules.multi_build_absorb;
  const bool splits =
      AnyValueChoice(rules, loose, [&](const ValueCounts& counts, int) {
        return SplitsIntoGroups(counts, v);
      });
  if (!splits) {
    return Illegal(absl::StrCat("a natural build of ", v, ": the table cards ",
                                loose.ToString(),
                                " do not split into groups of ", v));
  }
  if (!absorb && !CanSumTo(rules, loose, v)) {
    return Illegal(
        "absorbing further groups into a build is off "
        "(multi_build_absorb=off): a natural build takes one group");
  }
  return absl::OkStatus();
}

absl::Status CheckBuild(const Position& pos, const Move& m, CardSet loose,
                        uint32_t involved, MoveEffect* e) {
  const RuleSet& rules = pos.rules;
  const auto& builds = pos.table.builds;
  const int seat = pos.to_move;
  const Card c = m.card;
  const int x = PlayedValue(rules, m);
  const int v = m.value;
  const CardSet rest = pos.hands[seat] - CardSet::Of(c);
  if (x == 0) return CheckFaceBuild(pos, m, loose, involved, e);
  if (v > rules.MaxBuild()) {
    return Illegal(
        absl::StrCat("a build's value is at most ", rules.MaxBuild()));
  }
  if (v < x) {
    return Illegal(absl::StrCat("a build of ", v, " cannot hold ", c.ToString(),
                                " (value ", x, ")"));
  }
  if (!HoldsValue(rules, rest, v)) {
    return Illegal(absl::StrCat("building ", v, " requires a ", v,
                                " left in hand to take it later"));
  }
  for (Card t : loose) {
    if (rules.CardValue(t) == 0) {
      return Illegal(absl::StrCat("face cards never take part in a build (",
                                  t.ToString(), ")"));
    }
  }
  const int n_builds = std::popcount(involved);
  if (n_builds > 1) {
    return Illegal("builds are never merged: a move may change only one build");
  }
  const bool absorb = rules.multi_build_absorb && rules.multiple_builds;
  auto no_absorb = [&] {
    return Illegal(
        rules.multiple_builds
            ? "absorbing further groups into a build is off "
              "(multi_build_absorb=off)"
            : "multiple builds are off (multiple_builds=off): a build takes no "
              "further groups");
  };
  // With absorbing off, the loose cards must make exactly `first` (checked
  // after loose_fit_absorbing, to name the reason precisely).
  auto loose_fit = [&](int first) {
    return absorb || CanSumTo(rules, loose, first);
  };
  // Whether the loose cards can be a part summing to `first` (none when
  // first is 0) and groups of v.
  auto loose_fit_absorbing = [&](int first) {
    return AnyValueChoice(rules, loose, [&](const ValueCounts& counts, int) {
      return SplitsWithFirstGroup(counts, first, v);
    });
  };
  if (n_builds == 0) {
    if (loose.empty()) {
      return Illegal(
          "a build needs at least one table card with the played card");
    }
    if (v == x) return CheckNaturalBuild(pos, m, loose);
    if (!loose_fit_absorbing(v - x)) {
      return Illegal(absl::StrCat(
          c.ToString(), " with ", loose.ToString(),
          " does not make a build of ", v, " (part summing to ", v - x,
          " with the played card, the rest in groups of ", v, ")"));
    }
    if (!loose_fit(v - x)) return no_absorb();
    return absl::OkStatus();
  }
  const int i = std::countr_zero(involved);
  const Build& b = builds[i];
  e->changed_build = i;
  // Raising: the played card, and under raise_with_table loose cards summing
  // to the rest of the difference.
  const int part = v - x - b.value;
  if (part == 0 || (part > 0 && b.value != v && rules.RaiseWithTable())) {
    if (b.multiple) {
      return Illegal(absl::StrCat("a multiple build is never raised (",
                                  b.ToString(), ")"));
    }
    if (b.controller == seat) {
      if (rules.own_raise == OwnRaise::kForbidden) {
        return Illegal(
            "you may not raise a build you control (own_raise=forbidden)");
      }
      if (rules.own_raise == OwnRaise::kNeedsOldValue &&
          !HoldsValue(rules, rest, b.value)) {
        return Illegal(absl::StrCat("raising your own build of ", b.value,
                                    " requires another ", b.value,
                                    " in hand (own_raise=needs_old_value)"));
      }
    }
    if (part == 0 && !loose.empty() && !absorb) return no_absorb();
    if (!loose_fit_absorbing(part)) {
      return Illegal(absl::StrCat(
          "raising ", b.ToString(), " to ", v, ": the loose cards ",
          loose.ToString(), " do not split into ",
          part > 0 ? absl::StrCat("a part summing to ", part, " and ")
                   : std::string(),
          "groups of ", v,
          part > 0 ? "" : " (loose cards never help change a build's value)"));
    }
    if (part > 0 && !loose_fit(part)) return no_absorb();
    return absl::OkStatus();
  }
  if (b.value == v) {
    if (!rules.multiple_builds) {
      return Illegal(
          absl::StrCat("adding to ", b.ToString(),
                       " would make a multiple build, and "
                       "multiple builds are off (multiple_builds=off)"));
    }
    if (!loose_fit_absorbing(v - x)) {
      return Illegal(absl::StrCat(
          "adding to ", b.ToString(), ": ", c.ToString(),
          loose.empty() ? std::string()
                        : absl::StrCat(" with ", loose.ToString()),
          " does not make ", v, " (with further groups of ", v, ")"));
    }
    if (!loose_fit(v - x)) return no_absorb();
    return absl::OkStatus();
  }
  return Illegal(absl::StrCat(
      c.ToString(), " cannot turn the build ", b.ToString(),
      " into a build of ", v,
      b.multiple ? "" : absl::StrCat(" (raising it gives ", b.value + x, ")")));
}

}  // namespace

namespace {

// The checks of a pluck that do not depend on when it happens.
absl::Status CheckPluckCard(const Position& pos, const Move& m) {
  const RuleSet& rules = pos.rules;
  if (!rules.pluck) return Illegal("plucking is off (pluck=off)");
  if (m.kind == MoveKind::kCallOut) return Illegal("a call-out plucks nothing");
  if (pos.plucked >> pos.to_move & 1) {
    return Illegal("you have already plucked in this deal (once per deal)");
  }
  if (pos.stock_empty) {
    return Illegal("no plucking once the stock is empty (the last deal)");
  }
  if (!Pluckable(rules, m.pluck)) {
    return Illegal(absl::StrCat(m.pluck.ToString(), " may not be plucked (",
                                rules.revision < 3
                                    ? "never an ace, TD or 2S)"
                                    : "a point card: it scores by itself)"));
  }
  if (m.pluck == m.card) {
    return Illegal(absl::StrCat("you may not pluck the card you just played (",
                                m.card.ToString(), ")"));
  }
  return absl::OkStatus();
}

// Whether `p` may be plucked from `table` now.
absl::Status CheckPluckFrom(const Table& table, Card p,
                            absl::string_view when) {
  if (!table.loose.contains(p)) {
    return Illegal(absl::StrCat(p.ToString(),
                                " is not a loose card on the table ", when,
                                " (only a loose card is plucked)"));
  }
  if (table.AllCards().size() < 2) {
    return Illegal(absl::StrCat("no plucking with only one card on the table (",
                                when, ")"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status AnalyseMove(const Position& pos, const Move& m, MoveEffect* e) {
  const RuleSet& rules = pos.rules;
  const int seat = pos.to_move;
  *e = MoveEffect{m.kind, m.card, m.value, 0, -1};
  if (m.second.valid()) {
    return absl::InvalidArgumentError(
        "only Callabra plays two hand cards in one move");
  }
  if (m.has_pluck()) {
    // pluck: the move is judged on the table as it is when the card is
    // played (without the plucked card when it is plucked first).
    if (absl::Status s = CheckPluckCard(pos, m); !s.ok()) return s;
    const Move base = m.WithoutPluck();
    if (!m.pluck_after) {
      if (absl::Status s =
              CheckPluckFrom(pos.table, m.pluck, "before your play");
          !s.ok()) {
        return s;
      }
      Position plucked = pos;
      plucked.table.loose.erase(m.pluck);
      return AnalyseMove(plucked, base, e);
    }
    if (absl::Status s = AnalyseMove(pos, base, e); !s.ok()) return s;
    Position after = pos;
    ApplyMove(after, base);
    return CheckPluckFrom(after.table, m.pluck, "after your play");
  }
  if (m.kind == MoveKind::kCallOut) {
    if (!rules.call_out)
      return Illegal("calling out is not allowed (call_out=off)");
    return absl::OkStatus();
  }
  if (!m.card.valid()) return Illegal("the move names no card");
  if (!pos.hands[seat].contains(m.card)) {
    return Illegal(absl::StrCat("you do not hold ", m.card.ToString()));
  }
  if (m.declared != 0) {
    if (m.kind != MoveKind::kCapture && m.kind != MoveKind::kBuild) {
      return Illegal("only a card played to capture or build declares a value");
    }
    if (m.declared < 0 || m.declared > 31 ||
        (rules.ValueMask(m.card) >> m.declared & 1) == 0) {
      std::string why;
      if (m.card.rank() == kAce) {
        why = rules.ace_high ? "an ace counts 1 or 14"
                             : "an ace counts 14 only under ace_high";
      } else if (m.card == kBigCassino) {
        why = rules.dual_ten ? "TD counts 10 or 11"
                             : "TD counts 11 only under dual_ten";
      } else {
        why = "only an ace (ace_high) or TD (dual_ten) may declare a value";
      }
      return Illegal(absl::StrCat(m.card.ToString(), " cannot count ",
                                  m.declared, ": ", why));
    }
  }
  const CardSet on_table = pos.table.AllCards();
  if (!on_table.contains(m.table)) {
    return Illegal(absl::StrCat((m.table - on_table).first().ToString(),
                                " is not on the table"));
  }
  uint32_t involved = 0;
  for (size_t i = 0; i < pos.table.builds.size(); ++i) {
    const Build& b = pos.table.builds[i];
    if (!m.table.intersects(b.cards)) continue;
    if (!m.table.contains(b.cards)) {
      return Illegal(absl::StrCat((m.table & b.cards).first().ToString(),
                                  " is part of the build ", b.ToString(),
                                  "; builds are never split"));
    }
    involved |= uint32_t{1} << i;
  }
  const CardSet loose = m.table & pos.table.loose;
  absl::Status s;
  switch (m.kind) {
    case MoveKind::kTrail:
      if (!m.table.empty()) return Illegal("a trail involves no table cards");
      if (IsFiveSpadesSweep(pos, m)) {
        // The trail takes the whole table, builds too.
        e->kind = MoveKind::kCapture;
        e->builds_taken =
            static_cast<uint32_t>((uint64_t{1} << pos.table.builds.size()) - 1);
      }
      break;
    case MoveKind::kCapture:
      if (m.table.empty())
        return Illegal("a capture must take at least one card");
      s = CheckCapture(pos, m, loose, involved, e);
      break;
    case MoveKind::kBuild:
      s = CheckBuild(pos, m, loose, involved, e);
      break;
    case MoveKind::kCallOut:
      break;
  }
  if (!s.ok()) return s;
  int build = -1;
  BuilderViolation v = CheckBuilderRules(pos, *e, &build);
  if (v != BuilderViolation::kNone && rules.defaults_cost > 0) {
    e->broken = v;  // legal, at a cost (Michigan)
  } else if (v != BuilderViolation::kNone) {
    return Illegal(BuilderViolationReason(pos, v, build));
  }
  return absl::OkStatus();
}

absl::Status ValidateMove(const Position& pos, const Move& move) {
  MoveEffect e;
  return AnalyseMove(pos, move, &e);
}

MoveOutcome ApplyMove(Position& pos, const Move& m) {
  MoveOutcome out;
  ApplyMove(pos, m, &out);
  return out;
}

void ApplyMove(Position& pos, const Move& m, MoveOutcome* outcome) {
  if (m.has_pluck()) {
    const int seat = pos.to_move;
    if (!m.pluck_after) pos.table.loose.erase(m.pluck);
    ApplyMove(pos, m.WithoutPluck(), outcome);
    if (m.pluck_after) pos.table.loose.erase(m.pluck);
    pos.plucked |= uint32_t{1} << seat;
    outcome->plucked = m.pluck;
    return;
  }
  *outcome = MoveOutcome();
  MoveOutcome& out = *outcome;
  const int seat = pos.to_move;
  pos.to_move = (seat + 1) % pos.rules.players;
  if (m.kind == MoveKind::kCallOut) return;
  pos.hands[seat].erase(m.card);
  Table& table = pos.table;
  // The build a build move raises or adds to, if any.
  std::optional<Build> old_build;
  if (m.kind == MoveKind::kBuild) {
    for (const Build& b : table.builds) {
      if (m.table.intersects(b.cards)) old_build = b;
    }
  }
  const Build* old = old_build ? &*old_build : nullptr;
  // Remove every involved build and loose card.
  std::erase_if(table.builds,
                [&](const Build& b) { return m.table.intersects(b.cards); });
  table.loose -= m.table;
  switch (m.kind) {
    case MoveKind::kTrail:
      if (pos.rules.five_spades_sweep && m.card == kFiveOfSpades &&
          !table.empty()) {
        // The whole table (already removed above: m.table is empty, so take
        // it now) goes with the 5S.
        out.captured = table.AllCards() | CardSet::Of(m.card);
        table = Table();
        out.sweep = true;
        break;
      }
      table.loose.insert(m.card);
      break;
    case MoveKind::kCapture:
      out.captured = m.table | CardSet::Of(m.card);
      out.sweep = table.empty();
      break;
    case MoveKind::kBuild: {
      Build b;
      b.cards = m.table | CardSet::Of(m.card);
      b.value = m.value;
      // A build belongs to whoever made or changed it; under v3 (revision
      // 2) to the last player that set its value: duplicating it keeps
      // its owner.
      b.controller = seat;
      if (old != nullptr && old->value == m.value &&
          pos.rules.builder_obligation == BuilderObligation::kV3 &&
          pos.rules.revision >= 2) {
        b.controller = old->controller;
      }
      // Single or multiple by how it was made: a new build is single when
      // the played card and the loose cards make exactly the value; a raise
      // is single unless it absorbed loose groups; an add is multiple.
      const CardSet loose = m.table - (old ? old->cards : CardSet());
      const int x = PlayedValue(pos.rules, m);
      if (IsFaceBuild(pos.rules, b)) {
        b.multiple = false;
      } else if (old == nullptr) {
        b.multiple = !CanSumTo(pos.rules, loose, m.value - x);
      } else if (!old->multiple && old->value + x == m.value) {
        b.multiple = !loose.empty();
      } else if (!old->multiple && old->value + x < m.value &&
                 old->value != m.value) {
        // A raise with loose cards (raise_with_table): single when they
        // make exactly the difference.
        b.multiple = !CanSumTo(pos.rules, loose, m.value - x - old->value);
      } else {
        b.multiple = true;
      }
      table.AddBuild(b);
      break;
    }
    case MoveKind::kCallOut:
      break;
  }
}

}  // namespace cassino
