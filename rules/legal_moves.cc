#include "rules/legal_moves.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstring>

#include "absl/base/attributes.h"
#include "rules/adjudicator.h"
#include "rules/builder_rules.h"

namespace cassino {

namespace {

// Two words as one vector register (GCC and Clang vector extensions; plain
// code on targets without one).
using TwoWords = uint64_t __attribute__((vector_size(16)));

// kDisjoint[a]: the masks m below 64 with no item of mask a, as a bitmap
// (bit m). For such m, m | a is m + a, so (bits & kDisjoint[a]) << a maps
// a bitmap of masks to the bitmap of their unions with a.
constexpr std::array<uint64_t, 64> kDisjoint = [] {
  std::array<uint64_t, 64> table{};
  for (uint32_t a = 0; a < 64; ++a) {
    for (uint32_t m = 0; m < 64; ++m) {
      if ((m & a) == 0) table[a] |= uint64_t{1} << m;
    }
  }
  return table;
}();

// Whether `cards` holds at most six cards (without a population count,
// which is a library call on the baseline x86-64).
bool AtMostSix(CardSet cards) {
  uint64_t bits = cards.bits();
  for (int i = 0; i < 6; ++i) bits &= bits - 1;
  return bits == 0;
}

}  // namespace

void MoveGenerator::Prepare(const Position& pos, CardSet flex,
                            uint32_t choice) {
  const RuleSet& rules = pos.rules;
  const int seat = pos.to_move;
  n_ = 0;
  loose_dropped_ = false;
  int flex_bit = 0;
  // The loose cards with a value (the flexible ones have two).
  for (Card c : pos.table.loose& rules.ValuedCards()) {
    int v = rules.CardValue(c);
    if (flex.contains(c)) {
      if (choice >> flex_bit & 1) v = rules.AltValue(c);
      ++flex_bit;
    }
    assert(v > 0 && v <= kMaxSum);
    if (n_ == kMaxItems) {
      loose_dropped_ = true;
      continue;
    }
    items_[n_++] = {CardSet::Of(c), v, -1};
  }
  face_builds_ = 0;
  // Natural face builds exist only under face_capture=four or any.
  const bool face_builds_possible = rules.face_capture == FaceCapture::kFour ||
                                    rules.face_capture == FaceCapture::kAny;
  for (size_t i = 0; face_builds_possible && i < pos.table.builds.size(); ++i) {
    if (IsFaceBuild(rules, pos.table.builds[i]))
      face_builds_ |= uint32_t{1} << i;
  }
  n_loose_ = n_;
  loose_mask_ = (uint32_t{1} << n_) - 1;
  if (rules.builds_in_sums == BuildsInSums::kOpponentsSingle) {
    for (size_t i = 0; i < pos.table.builds.size(); ++i) {
      const Build& b = pos.table.builds[i];
      if (!b.multiple && rules.SideOf(b.controller) != rules.SideOf(seat) &&
          n_ < kMaxItems) {
        items_[n_++] = {b.cards, b.value, static_cast<int>(i)};
      }
    }
  }

  group_limit_ = GroupLimit(rules);
  EnumerateGroups();
  good_masks_.clear();
  goods_listed_ = 0;
  good_bits_known_ = 0;
  loose_good_known_ = 0;
  if (words_ > kMaxSetWords ||
      rules.builds_in_sums != BuildsInSums::kOpponentsSingle) {
    // Good() leaves visited_ all zero; it only needs to cover 2^n_ bits.
    const size_t words = ((size_t{1} << n_) + 63) / 64;
    if (visited_.size() < words) visited_.resize(words, 0);
  }

  // Under defaults_cost breaking the builder rules is legal (it costs
  // points instead), so nothing is filtered.
  check_rules_ = rules.defaults_cost == 0 &&
                 (ControlledBuilds(pos, seat) != 0 ||
                  rules.builder_obligation == BuilderObligation::kV3);
}

int MoveGenerator::GroupLimit(const RuleSet& rules) const {
  // A capture asks for groups of the played card's value, a build for
  // groups of at most MaxBuild().
  const int limit = std::max(rules.MaxBuild(),
                             static_cast<int>(std::bit_width(hand_seen_)) - 1);
  return std::min(limit, kMaxSum);
}

// A subset-sum table over bitmaps: for each sum s, the bitmap of the item
// masks summing to s (bit m set: mask m sums to s). Items are added one at
// a time: the masks with item j are those without it shifted by 2^j, their
// sums raised by the item's value. Masks over kMaxSum are in no bitmap, so
// an item's supersets over it cost nothing.
void MoveGenerator::EnumerateGroups() {
  const int limit = group_limit_;
  const uint32_t in_range = (uint32_t{2} << limit) - 1;  // sums 0..limit
  const int words = n_ <= 6 ? 1 : 1 << (n_ - 6);
  words_ = words;
  // The first six items make masks below 64: one word per sum, computed for
  // every sum up to the limit at once in loops of vector operations (two
  // sums at a time) that the data does not branch. Each item reads one buffer
  // and writes the other; below sum 0 both are zero, so that sum s - v
  // reads zero for s < v.
  static constexpr std::array<uint64_t, kMaxSum + 1> kNoItems = {1};
  uint64_t* low = low_buffers_[0].data() + kMaxSum + 1;
  std::copy(kNoItems.begin(), kNoItems.end(), low);
  uint32_t reach = 1;  // bit s set when some mask so far sums to s
  const int in_word = std::min(n_, 6);
  for (int j = 0; j < in_word; ++j) {
    if (j == n_loose_) loose_sums_ = reach & ~uint32_t{1};
    const int v = items_[j].value;
    const int shift = 1 << j;
    uint64_t* const next = low_buffers_[(j + 1) & 1].data() + kMaxSum + 1;
    for (int s = 0; s <= limit; s += 2) {  // sums up to limit | 1
      TwoWords with, without;
      std::memcpy(&without, low + s, sizeof without);
      std::memcpy(&with, low + s - v, sizeof with);
      without |= with << shift;
      std::memcpy(next + s, &without, sizeof without);
    }
    low = next;
    reach |= (reach << v) & in_range;
  }
  low_bits_ = low;
  sums_present_ = reach & ~uint32_t{1};  // sum 0 is only the empty mask
  if (n_loose_ == in_word) loose_sums_ = sums_present_;
  group_masks_.clear();
  groups_listed_ = 0;
  if (words == 1) return;
  const size_t total = static_cast<size_t>(limit + 1) * words;
  if (sum_bits_.size() < total) sum_bits_.resize(total);
  uint64_t* const bits = sum_bits_.data();
  for (int s = 0; s <= limit; ++s)
    bits[static_cast<size_t>(s) * words] = low[s];
  // Each later item j fills the upper half of the words it opens (masks
  // 2^j .. 2^(j+1) - 1) from the lower half of the sum v less.
  for (int j = in_word; j < n_; ++j) {
    if (j == n_loose_) loose_sums_ = reach & ~uint32_t{1};
    const int v = items_[j].value;
    const int half = 1 << (j - 6);
    for (int s = 0; s <= limit; ++s) {
      // Row s - v, or nothing below sum v (masked: a copy loop would be a
      // library call per row).
      const uint64_t keep = s >= v ? ~uint64_t{0} : 0;
      const uint64_t* const from =
          bits + static_cast<size_t>(s >= v ? s - v : s) * words;
      uint64_t* const with = bits + static_cast<size_t>(s) * words + half;
      for (int i = 0; i < half; ++i) with[i] = from[i] & keep;
    }
    reach = (reach | reach << v) & in_range;
  }
  sums_present_ = reach & ~uint32_t{1};
  if (n_loose_ == n_) loose_sums_ = sums_present_;
}

std::span<const uint32_t> MoveGenerator::Groups(int sum) {
  if (!HasGroups(sum)) return {};
  if ((groups_listed_ >> sum & 1) == 0) {
    groups_listed_ |= uint32_t{1} << sum;
    group_begin_[sum] = static_cast<int32_t>(group_masks_.size());
    const uint64_t* w =
        words_ == 1 ? &low_bits_[sum]
                    : sum_bits_.data() + static_cast<size_t>(sum) * words_;
    for (int i = 0; i < words_; ++i) {
      for (uint64_t b = w[i]; b; b &= b - 1) {
        group_masks_.push_back(static_cast<uint32_t>(i) << 6 |
                               std::countr_zero(b));
      }
    }
    group_end_[sum] = static_cast<int32_t>(group_masks_.size());
  }
  return {group_masks_.data() + group_begin_[sum],
          static_cast<size_t>(group_end_[sum] - group_begin_[sum])};
}

// The closure of the empty set under adding a disjoint group of `groups`
// (a bitmap of masks below 64): every union of disjoint groups. One pass
// over the groups suffices: after group i the set holds every union of
// pairwise disjoint groups among the first i.
uint64_t MoveGenerator::Closure(uint64_t groups) {
  uint64_t good = 1;
  for (uint64_t g = groups; g != 0; g &= g - 1) {
    const int a = std::countr_zero(g);
    good |= (good & kDisjoint[a]) << a;
  }
  return good;
}

// to |= {m | a : m in `from`, m disjoint from a}, on sets of words_ words.
// A mask m of word w is disjoint from a when w shares no bit with a's word
// and m's low bits none with a's: then m | a is m + a, whose word is
// w | (a >> 6), with no carry between the words.
void MoveGenerator::AddUnions(const uint64_t* from, uint32_t a,
                              uint64_t* to) const {
  const uint32_t high = a >> 6;
  const uint32_t low = a & 63;
  const uint64_t free = kDisjoint[low];
  for (uint32_t w = 0; w < static_cast<uint32_t>(words_); ++w) {
    if ((w & high) == 0) to[w | high] |= (from[w] & free) << low;
  }
}

// Closure() on sets of words_ words (AddUnions may add in place: the
// unions it adds are not disjoint from the group).
void MoveGenerator::ClosureSet(const uint64_t* groups, uint64_t* good) const {
  for (int w = 0; w < kMaxSetWords; ++w) good[w] = w == 0;
  for (int w = 0; w < words_; ++w) {
    for (uint64_t g = groups[w]; g != 0; g &= g - 1) {
      AddUnions(good, static_cast<uint32_t>(w) << 6 | std::countr_zero(g),
                good);
    }
  }
}

const uint64_t* MoveGenerator::GroupSet(int sum) const {
  static constexpr std::array<uint64_t, kMaxSetWords> kNone{};
  if (!HasGroups(sum)) return kNone.data();
  return words_ == 1 ? &low_bits_[sum]
                     : sum_bits_.data() + static_cast<size_t>(sum) * words_;
}

uint64_t MoveGenerator::LooseOnlyWord(int w) const {
  if (n_loose_ < 6) return w == 0 ? (uint64_t{1} << (1 << n_loose_)) - 1 : 0;
  return w < (1 << (n_loose_ - 6)) ? ~uint64_t{0} : 0;
}

const uint64_t* MoveGenerator::GoodSet(int value) {
  uint64_t* const good = good_sets_[value].data();
  if ((good_bits_known_ >> value & 1) == 0) {
    good_bits_known_ |= uint32_t{1} << value;
    if (words_ == 1) {
      good[0] = Closure(GroupBits(value));
    } else {
      ClosureSet(GroupSet(value), good);
    }
  }
  return good;
}

const uint64_t* MoveGenerator::LooseGoodSet(int value) {
  uint64_t* const good = loose_good_sets_[value].data();
  if ((loose_good_known_ >> value & 1) == 0) {
    loose_good_known_ |= uint32_t{1} << value;
    if (words_ == 1) {
      good[0] = Closure(GroupBits(value) & LooseOnly());
    } else {
      std::array<uint64_t, kMaxSetWords> groups;
      const uint64_t* all = GroupSet(value);
      for (int w = 0; w < words_; ++w) groups[w] = all[w] & LooseOnlyWord(w);
      ClosureSet(groups.data(), good);
    }
  }
  return good;
}

std::span<const uint32_t> MoveGenerator::Good(int value) {
  if ((goods_listed_ >> value & 1) == 0) {
    goods_listed_ |= uint32_t{1} << value;
    const std::span<const uint32_t> groups = Groups(value);
    const size_t begin = good_masks_.size();
    good_masks_.push_back(0);
    if (groups.size() == 1) {
      good_masks_.push_back(groups[0]);
    } else if (groups.size() > 1) {
      // The closure: each union found is extended by every disjoint group.
      for (size_t i = begin; i < good_masks_.size(); ++i) {
        const uint32_t m = good_masks_[i];
        for (uint32_t g : groups) {
          if (g & m) continue;
          const uint32_t u = m | g;
          uint64_t& word = visited_[u >> 6];
          const uint64_t bit = uint64_t{1} << (u & 63);
          if (word & bit) continue;
          word |= bit;
          good_masks_.push_back(u);
        }
      }
      for (size_t i = begin; i < good_masks_.size(); ++i) {
        visited_[good_masks_[i] >> 6] = 0;
      }
    }
    good_begin_[value] = static_cast<int32_t>(begin);
    good_end_[value] = static_cast<int32_t>(good_masks_.size());
  }
  return {good_masks_.data() + good_begin_[value],
          static_cast<size_t>(good_end_[value] - good_begin_[value])};
}

std::span<const uint32_t> MoveGenerator::Unions(int first, int value,
                                                bool absorb) {
  static constexpr uint32_t kEmpty[] = {0};
  if (first != 0 && !HasGroups(first)) return {};
  // Without absorbing only the empty set of further groups is used. (Good()
  // first: it may extract groups, which would move `firsts`.)
  const std::span<const uint32_t> good =
      absorb ? Good(value) : std::span<const uint32_t>(kEmpty);
  const std::span<const uint32_t> firsts =
      first == 0 ? std::span<const uint32_t>(kEmpty) : Groups(first);
  const uint32_t all = (uint32_t{1} << n_) - 1;
  if (good.size() == 1 && loose_mask_ == all) return firsts;  // all loose
  auto loose_only = [&](uint32_t m) { return (m & ~loose_mask_) == 0; };
  scratch_.clear();
  for (uint32_t a : firsts) {
    if (!loose_only(a)) continue;
    for (uint32_t b : good) {
      if ((a & b) || !loose_only(b)) continue;
      scratch_.push_back(a | b);
    }
  }
  // With no further groups the firsts came in increasing order, distinct.
  if (good.size() > 1) {
    std::sort(scratch_.begin(), scratch_.end());
    scratch_.erase(std::unique(scratch_.begin(), scratch_.end()),
                   scratch_.end());
  }
  return scratch_;
}

uint64_t MoveGenerator::SmallUnions(int first, int value, bool absorb) {
  const uint64_t good = absorb ? LooseGoodSet(value)[0] : 1;
  if (first == 0) return good;
  uint64_t unions = 0;
  for (uint64_t f = GroupBits(first) & LooseOnly(); f != 0; f &= f - 1) {
    const int a = std::countr_zero(f);
    unions |= (good & kDisjoint[a]) << a;
  }
  return unions;
}

// Unions() as a set of words_ words (at most kMaxSetItems items).
void MoveGenerator::UnionSet(int first, int value, bool absorb,
                             uint64_t* unions) {
  // Good(value) restricted to loose-only unions, or only the empty set.
  static constexpr std::array<uint64_t, kMaxSetWords> kEmptySet = {1};
  const uint64_t* const good = absorb ? LooseGoodSet(value) : kEmptySet.data();
  if (first == 0) {
    std::copy(good, good + kMaxSetWords, unions);
    return;
  }
  std::fill(unions, unions + kMaxSetWords, 0);
  const uint64_t* const firsts = GroupSet(first);
  for (int w = 0; w < words_; ++w) {
    for (uint64_t f = firsts[w] & LooseOnlyWord(w); f != 0; f &= f - 1) {
      AddUnions(good, static_cast<uint32_t>(w) << 6 | std::countr_zero(f),
                unions);
    }
  }
}

CardSet MoveGenerator::CardsOf(uint32_t mask) const {
  // The first six items (all of a small table's) without a branch per item.
  uint64_t bits = 0;
  for (int j = 0; j < 6; ++j) {
    bits |= items_[j].cards.bits() & (0 - uint64_t{mask >> j & 1});
  }
  CardSet cards(bits);
  for (mask >>= 6; mask; mask &= mask - 1) {
    cards |= items_[6 + std::countr_zero(mask)].cards;
  }
  return cards;
}

uint32_t MoveGenerator::BuildsOf(uint32_t mask) const {
  uint32_t builds = 0;
  for (mask &= ~loose_mask_; mask; mask &= mask - 1) {
    builds |= uint32_t{1} << items_[std::countr_zero(mask)].build;
  }
  return builds;
}

// Inline: called once per candidate move, and usually with nothing to check.
ABSL_ATTRIBUTE_ALWAYS_INLINE inline void MoveGenerator::Emit(
    const Position& pos, const Move& move, uint32_t builds_taken,
    int changed_build, std::vector<Move>* out, MoveKind effect_kind) {
  if (check_rules_) {
    MoveEffect e{effect_kind, move.card, move.value, builds_taken,
                 changed_build};
    if (CheckBuilderRules(pos, e) != BuilderViolation::kNone) return;
  }
  out->push_back(move);
}

ABSL_ATTRIBUTE_ALWAYS_INLINE inline void MoveGenerator::Emit(
    const Position& pos, const Move& move, uint32_t builds_taken,
    int changed_build, std::vector<Move>* out) {
  Emit(pos, move, builds_taken, changed_build, out, move.kind);
}

void MoveGenerator::Captures(const Position& pos, Card c, int x, int declared,
                             std::vector<Move>* out) {
  const auto& builds = pos.table.builds;
  // Builds of value x are taken whole, in any combination.
  // At most kMaxWholeBuilds of them (2^k combinations); beyond that the
  // list is reported incomplete.
  uint32_t whole[kMaxWholeBuilds];
  int k = 0;
  for (size_t i = 0; i < builds.size(); ++i) {
    if (builds[i].value != x || (face_builds_ >> i & 1)) continue;
    if (k == kMaxWholeBuilds) {
      capped_ = true;
      break;
    }
    whole[k++] = static_cast<uint32_t>(i);
  }
  if (k == 0 && !HasGroups(x)) return;  // nothing to take
  const size_t first = out->size();
  if (words_ <= kMaxSetWords &&
      pos.rules.builds_in_sums == BuildsInSums::kOpponentsSingle) {
    // The list is sorted below: Good(x) as a set of masks.
    const uint64_t* const good = GoodSet(x);
    if (k == 0 && n_ == n_loose_) {
      // Loose cards alone: increasing masks are increasing card sets, all
      // distinct, so the list comes out sorted.
      ForEachMask(good, [&](uint32_t g) {
        if (g != 0)
          Emit(pos, Move::Capture(c, CardsOf(g), declared), 0, -1, out);
      });
      return;
    }
    for (uint32_t s = 0; s < (uint32_t{1} << k); ++s) {
      CardSet build_cards;
      uint32_t taken = 0;
      for (int j = 0; j < k; ++j) {
        if (s >> j & 1) {
          build_cards |= builds[whole[j]].cards;
          taken |= uint32_t{1} << whole[j];
        }
      }
      ForEachMask(good, [&](uint32_t g) {
        if (s == 0 && g == 0) return;
        const uint32_t g_builds = BuildsOf(g);
        if (g_builds & taken) return;
        Emit(pos, Move::Capture(c, build_cards | CardsOf(g), declared),
             taken | g_builds, -1, out);
      });
    }
    SortCaptures(first, out);
    return;
  }
  const std::span<const uint32_t> good = Good(x);
  for (uint32_t s = 0; s < (uint32_t{1} << k); ++s) {
    CardSet build_cards;
    uint32_t taken = 0;
    for (int j = 0; j < k; ++j) {
      if (s >> j & 1) {
        build_cards |= builds[whole[j]].cards;
        taken |= uint32_t{1} << whole[j];
      }
    }
    for (uint32_t g : good) {
      if (s == 0 && g == 0) continue;
      const uint32_t g_builds = BuildsOf(g);
      if (g_builds & taken) continue;
      Emit(pos, Move::Capture(c, build_cards | CardsOf(g), declared),
           taken | g_builds, -1, out);
    }
  }
  if (pos.rules.builds_in_sums == BuildsInSums::kOpponentsSingle) {
    SortCaptures(first, out);
  }
}

void MoveGenerator::SortCaptures(size_t first, std::vector<Move>* out) {
  if (out->size() - first < 2) return;
  // A build of value x is reachable both whole and as a one-item group.
  auto by_table = [](const Move& a, const Move& b) {
    return a.table.bits() < b.table.bits();
  };
  std::sort(out->begin() + first, out->end(), by_table);
  out->erase(std::unique(out->begin() + first, out->end()), out->end());
}

void MoveGenerator::Builds(const Position& pos, Card c, int x, int declared,
                           uint32_t held, std::vector<Move>* out) {
  const RuleSet& rules = pos.rules;
  const int seat = pos.to_move;
  const auto& builds = pos.table.builds;
  const bool absorb = rules.multi_build_absorb && rules.multiple_builds;
  auto holds = [held](int v) {
    return v >= 1 && v < 32 && (held >> v & 1) != 0;
  };
  // The builds of value `value` made of c, `base` (a build raised or added
  // to, or nothing) and each union of Unions(first, value).
  auto emit_builds = [&](int first, int value, CardSet base, int changed) {
    ForEachUnion(first, value, absorb, [&](uint32_t m) {
      Emit(pos, Move::Build(c, value, base | CardsOf(m), declared), 0, changed,
           out);
    });
  };

  // A natural build (revision 2): c alone is a group of x, played onto one
  // loose group of x and, absorbing, further groups of x. Always multiple.
  if (rules.NaturalBuilds() && x <= rules.MaxBuild() && holds(x)) {
    emit_builds(x, x, CardSet(), -1);
  }
  // Each value v in x+1..MaxBuild() that the rest of the hand holds, in
  // increasing order (values are below 16).
  const uint32_t above_x = ~((uint32_t{2} << x) - 1);
  const uint32_t up_to_max = (uint32_t{2} << rules.MaxBuild()) - 1;
  uint32_t values = held & above_x & up_to_max;
  // With no build on the table only new builds are made, which need loose
  // cards summing to v - x.
  if (builds.empty()) values &= loose_sums_ << x;
  for (; values != 0; values &= values - 1) {
    const int v = std::countr_zero(values);
    // A new build: c with loose cards summing to v - x, plus groups of v.
    emit_builds(v - x, v, CardSet(), -1);
    // Raising a single build of value v - x; under raise_with_table also a
    // build of less with loose cards summing to the difference.
    for (size_t i = 0; i < builds.size(); ++i) {
      const Build& b = builds[i];
      if (b.multiple || (face_builds_ >> i & 1)) continue;
      const int part = v - x - b.value;  // from the loose cards
      if (part < 0 || (part > 0 && !rules.RaiseWithTable())) continue;
      if (b.controller == seat) {
        if (rules.own_raise == OwnRaise::kForbidden) continue;
        if (rules.own_raise == OwnRaise::kNeedsOldValue && !holds(b.value)) {
          continue;
        }
      }
      emit_builds(part, v, b.cards, static_cast<int>(i));
    }
  }
  // Adding to a build of value V >= x: c with loose cards summing to V
  // (always a multiple build: none under multiple_builds=off).
  if (!rules.multiple_builds) return;
  for (size_t i = 0; i < builds.size(); ++i) {
    const Build& b = builds[i];
    if (b.value < x || !holds(b.value) || (face_builds_ >> i & 1)) continue;
    emit_builds(b.value - x, b.value, b.cards, static_cast<int>(i));
  }
}

void MoveGenerator::FaceMoves(const Position& pos, Card c,
                              std::vector<Move>* out) {
  const RuleSet& rules = pos.rules;
  const CardSet rank = CardSet::OfRank(c.rank());
  const CardSet same = pos.table.loose & rank;
  // one: one loose card of the rank; all: any non-empty set of them
  // (revision 1: one, or every loose one).
  if (rules.face_capture == FaceCapture::kOne ||
      rules.face_capture == FaceCapture::kAll) {
    for (Card f : same) Emit(pos, Move::Capture(c, CardSet::Of(f)), 0, -1, out);
    if (rules.face_capture == FaceCapture::kOne || same.size() < 2) return;
    if (rules.revision < 2) {
      Emit(pos, Move::Capture(c, same), 0, -1, out);
      return;
    }
    const std::vector<Card> cards = same.ToVector();
    const uint32_t n = static_cast<uint32_t>(cards.size());
    for (uint32_t m = 1; m < (uint32_t{1} << n); ++m) {
      if (std::has_single_bit(m)) continue;  // the singles came first
      CardSet taken;
      for (uint32_t j = 0; j < n; ++j) {
        if (m >> j & 1) taken.insert(cards[j]);
      }
      Emit(pos, Move::Capture(c, taken), 0, -1, out);
    }
    return;
  }
  // four, any: the units of the rank on the table are its loose cards and
  // its natural face builds (each taken whole).
  CardSet units[kMaxWholeBuilds + 4];
  int unit_build[kMaxWholeBuilds + 4];
  int n = 0;
  for (Card f : same) {
    units[n] = CardSet::Of(f);
    unit_build[n++] = -1;
  }
  CardSet on_table = same;
  const auto& builds = pos.table.builds;
  for (size_t i = 0; i < builds.size() && n < kMaxWholeBuilds + 4; ++i) {
    if ((face_builds_ >> i & 1) && builds[i].cards.intersects(rank)) {
      units[n] = builds[i].cards;
      unit_build[n++] = static_cast<int>(i);
      on_table |= builds[i].cards;
    }
  }
  const CardSet rest = pos.hands[pos.to_move] - CardSet::Of(c);
  for (uint32_t m = 1; m < (uint32_t{1} << n); ++m) {
    CardSet cards;
    uint32_t taken = 0;
    int changed = -1, n_builds = 0;
    for (int j = 0; j < n; ++j) {
      if ((m >> j & 1) == 0) continue;
      cards |= units[j];
      if (unit_build[j] >= 0) {
        taken |= uint32_t{1} << unit_build[j];
        changed = unit_build[j];
        ++n_builds;
      }
    }
    // Captures: four takes one loose card, or everything of the rank on
    // the table when that gathers all four; any takes any units.
    const bool one_loose = n_builds == 0 && cards.size() == 1;
    if (rules.face_capture == FaceCapture::kAny || one_loose ||
        (cards == on_table && (cards | CardSet::Of(c)) == rank)) {
      Emit(pos, Move::Capture(c, cards), taken, -1, out);
    }
    // Natural face builds: at most one build involved; four needs every
    // card of the rank on the table and every other one in the hand, any
    // needs another card of the rank in the hand.
    if (n_builds > 1) continue;
    const bool may_build =
        rules.face_builds && rest.intersects(rank) &&
        (rules.face_capture == FaceCapture::kAny ||
         (cards == on_table && rest.contains(rank - cards - CardSet::Of(c))));
    if (may_build) {
      Emit(pos, Move::Build(c, c.rank(), cards), 0, changed, out);
    }
  }
}

void MoveGenerator::PlayedCardMoves(const Position& pos,
                                    std::vector<Move>* out) {
  const CardSet hand = pos.hands[pos.to_move];
  int i = 0;
  for (Card c : hand) {
    const uint32_t values = hand_values_[i++];
    const uint32_t held = Held(values);
    if (values == 0) {
      FaceMoves(pos, c, out);
    } else if ((values & (values - 1)) == 0) {
      // One value (the usual case): the card's rank value.
      const int x = std::countr_zero(values);
      Captures(pos, c, x, 0, out);
      Builds(pos, c, x, 0, held, out);
    } else {
      // Each value the card may count; the rank is the default, any other
      // value is declared in the move.
      for (uint32_t m = values; m; m &= m - 1) {
        const int x = std::countr_zero(m);
        const int declared = x == c.rank() ? 0 : x;
        Captures(pos, c, x, declared, out);
        Builds(pos, c, x, declared, held, out);
      }
    }
    if (IsFiveSpadesSweep(pos, Move::Trail(c))) {
      // five_spades_sweep: the trail takes the whole table, builds too.
      const uint32_t all =
          static_cast<uint32_t>((uint64_t{1} << pos.table.builds.size()) - 1);
      Emit(pos, Move::Trail(c), all, -1, out, MoveKind::kCapture);
    } else {
      Emit(pos, Move::Trail(c), 0, -1, out);
    }
  }
}

// The common case of play in one pass: no build on the table, at most six
// loose cards with a value, none of them flexible, and captures listed by
// their table cards (builds_in_sums=opponents_single). Then every item is a
// loose card, so the masks in increasing order are the card sets in
// increasing order, no build is taken, raised or added to, and only the v3
// obligation checks the builder rules. The same list as Prepare() and
// PlayedCardMoves(), which handle every other case.
void MoveGenerator::LooseTableMoves(const Position& pos,
                                    std::vector<Move>* out) {
  const RuleSet& rules = pos.rules;
  n_ = 0;
  for (Card c : pos.table.loose& rules.ValuedCards()) {
    items_[n_++] = {CardSet::Of(c), c.rank(), -1};  // a valued card's value
  }
  n_loose_ = n_;
  loose_mask_ = (uint32_t{1} << n_) - 1;
  loose_dropped_ = false;
  face_builds_ = 0;
  group_limit_ = GroupLimit(rules);
  EnumerateGroups();
  good_bits_known_ = 0;
  check_rules_ = rules.defaults_cost == 0 &&
                 rules.builder_obligation == BuilderObligation::kV3;
  const bool absorb = rules.multi_build_absorb && rules.multiple_builds;
  const bool natural = rules.NaturalBuilds();
  const uint32_t up_to_max = (uint32_t{2} << rules.MaxBuild()) - 1;
  const uint32_t sums = sums_present_;
  // The builds of `value` made of c and each union of a group of `first`
  // with a union of further groups of `value` when absorbing.
  auto emit_builds = [&](Card c, int first, int value, int declared) {
    const uint64_t good = absorb ? GoodSet(value)[0] : 1;
    uint64_t unions = 0;
    for (uint64_t f = GroupBits(first); f != 0; f &= f - 1) {
      const int a = std::countr_zero(f);
      unions |= (good & kDisjoint[a]) << a;
    }
    for (; unions != 0; unions &= unions - 1) {
      Emit(pos,
           Move::Build(c, value, CardsOf(std::countr_zero(unions)), declared),
           0, -1, out);
    }
  };

  const CardSet hand = pos.hands[pos.to_move];
  int i = 0;
  for (Card c : hand) {
    const uint32_t values = hand_values_[i++];
    const uint32_t held = Held(values);
    if (values == 0) FaceMoves(pos, c, out);
    const bool two_values = (values & (values - 1)) != 0;
    for (uint32_t xs = values; xs != 0; xs &= xs - 1) {
      const int x = std::countr_zero(xs);
      // A value other than the rank is declared in the move.
      const int declared = two_values && x != c.rank() ? x : 0;
      // Captures: every union of disjoint groups of x.
      if (sums >> x & 1) {
        for (uint64_t g = GoodSet(x)[0] & ~uint64_t{1}; g != 0; g &= g - 1) {
          Emit(pos, Move::Capture(c, CardsOf(std::countr_zero(g)), declared), 0,
               -1, out);
        }
      }
      // A natural build of x, then new builds of each value v held above x
      // with loose cards summing to v - x.
      if (natural && (held & up_to_max & sums) >> x & 1) {
        emit_builds(c, x, x, declared);
      }
      const uint32_t above_x = ~((uint32_t{2} << x) - 1);
      for (uint32_t vs = held & above_x & up_to_max & (sums << x); vs != 0;
           vs &= vs - 1) {
        const int v = std::countr_zero(vs);
        emit_builds(c, v - x, v, declared);
      }
    }
    if (IsFiveSpadesSweep(pos, Move::Trail(c))) {
      Emit(pos, Move::Trail(c), 0, -1, out, MoveKind::kCapture);
    } else {
      Emit(pos, Move::Trail(c), 0, -1, out);
    }
  }
}

bool MoveGenerator::Generate(const Position& pos, std::vector<Move>* out) {
  out->clear();
  capped_ = false;
  if (pos.rules.call_out) out->push_back(Move::CallOut());
  bool complete = AppendMoves(pos, out);
  if (MayPluck(pos)) complete = AppendPlucks(pos, out) && complete;
  return complete;
}

bool MoveGenerator::AppendPlucks(const Position& pos, std::vector<Move>* out) {
  // After the play: any pluckable loose card of the table the move leaves,
  // except the card just played, if at least two cards are left.
  const int on_table = pos.table.AllCards().size();
  const size_t n = out->size();
  for (size_t i = 0; i < n; ++i) {
    const Move m = (*out)[i];
    CardSet loose_after = pos.table.loose - m.table;
    int left = on_table - m.table.size();
    switch (m.kind) {
      case MoveKind::kTrail:
        if (IsFiveSpadesSweep(pos, m)) continue;  // the table is taken
        loose_after.insert(m.card);
        ++left;
        break;
      case MoveKind::kBuild:
        ++left;  // the played card joins the build
        break;
      case MoveKind::kCapture:
        break;
      case MoveKind::kCallOut:
        continue;
    }
    if (left < 2) continue;
    loose_after.erase(m.card);
    for (Card p : loose_after) {
      if (Pluckable(pos.rules, p))
        out->push_back(m.WithPluck(p, /*after=*/true));
    }
  }
  // Before the play: any pluckable loose card, if at least two cards are on
  // the table; the play is then judged without it.
  bool complete = true;
  if (on_table < 2) return complete;
  for (Card p : pos.table.loose) {
    if (!Pluckable(pos.rules, p)) continue;
    Position without = pos;
    without.table.loose.erase(p);
    pluck_scratch_.clear();
    complete = AppendMoves(without, &pluck_scratch_) && complete;
    for (const Move& m : pluck_scratch_) {
      out->push_back(m.WithPluck(p, /*after=*/false));
    }
  }
  return complete;
}

bool MoveGenerator::AppendMoves(const Position& pos, std::vector<Move>* out) {
  const RuleSet& rules = pos.rules;
  n_hand_ = 0;
  uint32_t seen = 0, twice = 0;
  for (Card c : pos.hands[pos.to_move]) {
    const uint32_t values = rules.ValueMask(c);
    hand_values_[n_hand_++] = values;
    twice |= seen & values;
    seen |= values;
  }
  hand_seen_ = seen;
  hand_twice_ = twice;
  const CardSet flex = pos.table.loose & rules.FlexibleCards();
  if (flex.empty() && pos.table.builds.empty() &&
      rules.builds_in_sums == BuildsInSums::kOpponentsSingle &&
      AtMostSix(pos.table.loose & rules.ValuedCards())) {
    LooseTableMoves(pos, out);
    return !capped_;
  }
  if (flex.empty()) {
    Prepare(pos, flex, 0);
    PlayedCardMoves(pos, out);
  } else {
    // Every choice of values for the flexible loose cards; a move legal
    // under several choices is listed once.
    const size_t first = out->size();
    for (uint32_t choice = 0; choice < (uint32_t{1} << flex.size()); ++choice) {
      Prepare(pos, flex, choice);
      PlayedCardMoves(pos, out);
    }
    std::sort(out->begin() + first, out->end(), MoveLess);
    out->erase(std::unique(out->begin() + first, out->end()), out->end());
  }
  // Prepare dropped the loose cards with a value beyond kMaxItems.
  return !loose_dropped_ && !capped_;
}

std::vector<Move> LegalMoves(const Position& pos) {
  MoveGenerator gen;
  std::vector<Move> moves;
  gen.Generate(pos, &moves);
  return moves;
}

}  // namespace cassino
