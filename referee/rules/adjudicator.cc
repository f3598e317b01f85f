#include "referee/rules/adjudicator.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "referee/rules/partition.h"

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

// Value counts of loose cards plus extra values (builds used in a sum).
ValueCounts CountsOf(const RuleSet& rules, CardSet cards,
                     const std::vector<int>& extra = {}) {
  ValueCounts counts{};
  for (Card c : cards) ++counts[rules.CardValue(c)];
  for (int v : extra) ++counts[v];
  return counts;
}

absl::Status CheckCapture(const Position& pos, const Move& m, CardSet loose,
                          uint32_t involved, MoveEffect* e) {
  const RuleSet& rules = pos.rules;
  const auto& builds = pos.table.builds;
  const Card c = m.card;
  const int x = rules.CardValue(c);
  if (x == 0) {
    if (involved) {
      return Illegal(absl::StrCat("a face card never takes a build (",
                                  c.ToString(), " cannot take ",
                                  builds[std::countr_zero(involved)].ToString(), ")"));
    }
    for (Card t : loose) {
      if (t.rank() != c.rank()) {
        return Illegal(absl::StrCat("a ", RankName(c.rank()), " takes only a ",
                                    RankName(c.rank()), " (", t.ToString(),
                                    " is not one)"));
      }
    }
    const CardSet same = pos.table.loose & CardSet::OfRank(c.rank());
    if (loose.size() == 1) return absl::OkStatus();
    if (rules.face_capture == FaceCapture::kAll) {
      if (loose == same) return absl::OkStatus();
      return Illegal(absl::StrCat(
          "a face card takes one card of its rank or all of them "
          "(face_capture=all); the table has ", same.ToString()));
    }
    return Illegal(
        "a face card takes exactly one card of its rank (face_capture=one)");
  }
  std::vector<int> in_sums;
  for (uint32_t b = involved; b; b &= b - 1) {
    const int i = std::countr_zero(b);
    const Build& build = builds[i];
    if (build.value == x) {
      e->builds_taken |= uint32_t{1} << i;
      continue;
    }
    const bool opponent = rules.SideOf(build.controller) != rules.SideOf(pos.to_move);
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
  if (!SplitsIntoGroups(CountsOf(rules, loose, in_sums), x)) {
    return Illegal(absl::StrCat(
        "the cards taken (", loose.ToString(), ") do not split into groups "
        "summing to ", x));
  }
  return absl::OkStatus();
}

absl::Status CheckBuild(const Position& pos, const Move& m, CardSet loose,
                        uint32_t involved, MoveEffect* e) {
  const RuleSet& rules = pos.rules;
  const auto& builds = pos.table.builds;
  const int seat = pos.to_move;
  const Card c = m.card;
  const int x = rules.CardValue(c);
  const int v = m.value;
  const CardSet rest = pos.hands[seat] - CardSet::Of(c);
  if (x == 0) {
    return Illegal(absl::StrCat("face cards never take part in a build (",
                                c.ToString(), ")"));
  }
  if (v > rules.MaxBuild()) {
    return Illegal(absl::StrCat("a build's value is at most ", rules.MaxBuild()));
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
  const ValueCounts counts = CountsOf(rules, loose);
  int loose_sum = 0;
  for (Card t : loose) loose_sum += rules.CardValue(t);
  if (n_builds == 0) {
    if (loose.empty()) {
      return Illegal("a build needs at least one table card with the played card");
    }
    if (v == x) {
      return Illegal(absl::StrCat("a new build of ", v, " needs table cards that, with ",
                                  c.ToString(), ", sum to ", v,
                                  "; to take cards of ", v, " use take"));
    }
    if (!SplitsWithFirstGroup(counts, v - x, v)) {
      return Illegal(absl::StrCat(c.ToString(), " with ", loose.ToString(),
                                  " does not make a build of ", v,
                                  " (part summing to ", v - x,
                                  " with the played card, the rest in groups of ", v,
                                  ")"));
    }
    if (!rules.multi_build_absorb && loose_sum != v - x) {
      return Illegal("absorbing further groups into a build is off "
                     "(multi_build_absorb=off)");
    }
    return absl::OkStatus();
  }
  const int i = std::countr_zero(involved);
  const Build& b = builds[i];
  e->changed_build = i;
  if (b.value + x == v) {
    if (b.multiple) {
      return Illegal(absl::StrCat("a multiple build is never raised (",
                                  b.ToString(), ")"));
    }
    if (b.controller == seat) {
      if (rules.own_raise == OwnRaise::kForbidden) {
        return Illegal("you may not raise a build you control (own_raise=forbidden)");
      }
      if (rules.own_raise == OwnRaise::kNeedsOldValue &&
          !HoldsValue(rules, rest, b.value)) {
        return Illegal(absl::StrCat(
            "raising your own build of ", b.value, " requires another ", b.value,
            " in hand (own_raise=needs_old_value)"));
      }
    }
    if (!loose.empty() && !rules.multi_build_absorb) {
      return Illegal("absorbing further groups into a build is off "
                     "(multi_build_absorb=off)");
    }
    if (!SplitsIntoGroups(counts, v)) {
      return Illegal(absl::StrCat(
          "raising ", b.ToString(), " to ", v, ": the loose cards ",
          loose.ToString(), " do not split into groups of ", v,
          " (loose cards never help change a build's value)"));
    }
    return absl::OkStatus();
  }
  if (b.value == v) {
    if (!SplitsWithFirstGroup(counts, v - x, v)) {
      return Illegal(absl::StrCat(
          "adding to ", b.ToString(), ": ", c.ToString(),
          loose.empty() ? std::string() : absl::StrCat(" with ", loose.ToString()),
          " does not make ", v, " (with further groups of ", v, ")"));
    }
    if (!rules.multi_build_absorb && loose_sum != v - x) {
      return Illegal("absorbing further groups into a build is off "
                     "(multi_build_absorb=off)");
    }
    return absl::OkStatus();
  }
  return Illegal(absl::StrCat(c.ToString(), " cannot turn the build ",
                              b.ToString(), " into a build of ", v,
                              b.multiple ? "" : absl::StrCat(" (raising it gives ",
                                                             b.value + x, ")")));
}

}  // namespace

absl::Status AnalyseMove(const Position& pos, const Move& m, MoveEffect* e) {
  const RuleSet& rules = pos.rules;
  const int seat = pos.to_move;
  *e = MoveEffect{m.kind, m.card, m.value, 0, -1};
  if (m.kind == MoveKind::kCallOut) {
    if (!rules.call_out) return Illegal("calling out is not allowed (call_out=off)");
    return absl::OkStatus();
  }
  if (!m.card.valid()) return Illegal("the move names no card");
  if (!pos.hands[seat].contains(m.card)) {
    return Illegal(absl::StrCat("you do not hold ", m.card.ToString()));
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
      break;
    case MoveKind::kCapture:
      if (m.table.empty()) return Illegal("a capture must take at least one card");
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
  if (v != BuilderViolation::kNone) {
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
  const int seat = pos.to_move;
  pos.to_move = (seat + 1) % pos.rules.players;
  if (m.kind == MoveKind::kCallOut) return out;
  pos.hands[seat].erase(m.card);
  Table& table = pos.table;
  // Remove every involved build and loose card.
  std::erase_if(table.builds,
                [&](const Build& b) { return m.table.intersects(b.cards); });
  table.loose -= m.table;
  switch (m.kind) {
    case MoveKind::kTrail:
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
      b.controller = seat;
      int sum = 0;
      for (Card c : b.cards) sum += pos.rules.CardValue(c);
      b.multiple = sum > m.value;
      table.AddBuild(b);
      break;
    }
    case MoveKind::kCallOut:
      break;
  }
  return out;
}

}  // namespace cassino
