// Legal-move enumeration.
//
// The generator works on bit masks over the loose numeral cards ("items";
// under builds_in_sums=opponents_single, eligible builds are items too). One
// pass computes the sum of every subset; the subsets summing to s are the
// groups of s; the unions of disjoint groups of V (found by a closure over
// the groups, deduplicated with a visited bitmap) are the sets that can be
// captured with, or absorbed into a build of, V. No recursion over
// partitions is involved, so 15+ loose cards cost milliseconds, not hours.
//
// Flexible loose cards (an ace under ace_high, TD under dual_ten) are
// handled by generating once per choice of their values and merging the
// lists (sorted by MoveLess, duplicates removed); a hand card with two
// values is tried with each, the non-default one declared in the move.
//
// Under pluck each move also comes with every legal pluck after it, and the
// moves of the table without each pluckable loose card come with that pluck
// before them.
//
// Above kMaxItems loose numeral cards the full list can run to millions of
// moves; the generator then enumerates with the first kMaxItems of them and
// reports the list as incomplete. Likewise, captures combine at most
// kMaxWholeBuilds builds of the played card's value; a table with more such
// builds (never seen in play) also gives an incomplete list. Validation
// (adjudicator.h) is exact in every case.

#ifndef CASSINO_RULES_LEGAL_MOVES_H_
#define CASSINO_RULES_LEGAL_MOVES_H_

#include <array>
#include <bit>
#include <cstdint>
#include <span>
#include <vector>

#include "rules/move.h"
#include "rules/position.h"

namespace cassino {

// Reusable scratch space for move generation. Not thread-safe; keep one per
// thread. Generating with a reused generator allocates nothing once warm.
class MoveGenerator {
 public:
  static constexpr int kMaxItems = 20;
  static constexpr int kMaxWholeBuilds = 8;

  // Replaces `out` with every legal move for pos.to_move, in a fixed order
  // (by hand card, then kind). Returns false if the list is incomplete.
  bool Generate(const Position& pos, std::vector<Move>* out);

 private:
  struct Item {
    CardSet cards;
    int value;
    int build;  // index into table.builds, or -1 for a loose card
  };

  // Items for the loose cards, the flexible ones among them (`flex`) valued
  // by the bits of `choice` (bit i set: the i-th flexible card in deck order
  // counts its other value). Needs hand_values_.
  void Prepare(const Position& pos, CardSet flex, uint32_t choice);
  // Appends the moves of the seat to move (no call-out, no pluck); false if
  // the list is incomplete.
  bool AppendMoves(const Position& pos, std::vector<Move>* out);
  // pluck: appends every move of `out` with a pluck after it, and every
  // move of the table without a pluckable card with that pluck before it.
  bool AppendPlucks(const Position& pos, std::vector<Move>* out);
  // Appends the moves of every hand card under the prepared items.
  void PlayedCardMoves(const Position& pos, std::vector<Move>* out);
  // Prepare() and PlayedCardMoves() for a table without builds of at most 6
  // loose cards with a value, none flexible, under
  // builds_in_sums=opponents_single (see the definition).
  void LooseTableMoves(const Position& pos, std::vector<Move>* out);
  // Fills the subset-sum table: for every sum up to group_limit_, the item
  // masks summing to it.
  void EnumerateGroups();
  // The groups of `sum`: the non-empty item masks summing to it, in
  // increasing numeric order (none for a sum outside 1..group_limit_).
  // Valid until the next call of Groups(), Good(), Unions() or Prepare().
  std::span<const uint32_t> Groups(int sum);
  // Whether `sum` has a group at all.
  bool HasGroups(int sum) const {
    return sum >= 1 && sum <= kMaxSum && (sums_present_ >> sum & 1) != 0;
  }
  // At most 6 items (words_ 1): the groups of `sum` as a bitmap of masks
  // (bit m: mask m sums to `sum`); 0 for a sum with none.
  uint64_t GroupBits(int sum) const {
    return HasGroups(sum) ? low_bits_[sum] : 0;
  }
  // At most 6 items: the bitmap of the loose-only masks.
  uint64_t LooseOnly() const {
    return n_loose_ == 6 ? ~uint64_t{0} : (uint64_t{1} << (1 << n_loose_)) - 1;
  }
  // At most 6 items: the closure of the empty set under adding a disjoint
  // group of `groups` (a bitmap of masks), i.e. every union of disjoint
  // groups, as a bitmap.
  static uint64_t Closure(uint64_t groups);

  // Sets of masks as bitmaps: up to kMaxSetItems items, a set is words_
  // words, bit m % 64 of word m / 64 for mask m (one word up to 6 items).
  // Larger tables use the lists above.
  static constexpr int kMaxSetItems = 10;
  static constexpr int kMaxSetWords = 1 << (kMaxSetItems - 6);
  // The groups of `sum` (zero words for a sum with none).
  const uint64_t* GroupSet(int sum) const;
  // Word w of the set of the loose-only masks.
  uint64_t LooseOnlyWord(int w) const;
  // to |= the unions m | a of the masks m of `from` disjoint from a.
  void AddUnions(const uint64_t* from, uint32_t a, uint64_t* to) const;
  // Closure() of the set `groups` into `good` (kMaxSetWords words).
  void ClosureSet(const uint64_t* groups, uint64_t* good) const;
  // Good(value) as a set, and its loose-only unions (cached until the next
  // Prepare()).
  const uint64_t* GoodSet(int value);
  const uint64_t* LooseGoodSet(int value);
  // UnionSet() with at most 6 items (words_ 1), as one word.
  uint64_t SmallUnions(int first, int value, bool absorb);
  // Unions(first, value, absorb) as a set, into `unions` (kMaxSetWords
  // words).
  void UnionSet(int first, int value, bool absorb, uint64_t* unions);
  // Calls fn(mask) for each mask of a set, in increasing order.
  template <typename Fn>
  void ForEachMask(const uint64_t* set, Fn fn) const {
    for (int w = 0; w < words_; ++w) {
      for (uint64_t b = set[w]; b != 0; b &= b - 1) {
        fn(static_cast<uint32_t>(w) << 6 | std::countr_zero(b));
      }
    }
  }

  // Every union of disjoint groups of `value`, the empty set first. The
  // span is valid until the next call of Good() or Prepare().
  std::span<const uint32_t> Good(int value);
  // The masks A | B for A a loose-only group of `first` (or A empty when
  // first is 0) and B a loose-only union in Good(value) (only the empty set
  // unless absorbing) disjoint from A, increasing and distinct. Valid until
  // the next call of Groups(), Unions(), Good() or Prepare().
  std::span<const uint32_t> Unions(int first, int value, bool absorb);
  // Calls fn(mask) for each mask of Unions(first, value, absorb), in
  // increasing order.
  template <typename Fn>
  void ForEachUnion(int first, int value, bool absorb, Fn fn) {
    if (first != 0 && (first > kMaxSum || (loose_sums_ >> first & 1) == 0)) {
      return;  // no loose-only group of `first`
    }
    if (words_ == 1) {
      for (uint64_t u = SmallUnions(first, value, absorb); u != 0; u &= u - 1) {
        fn(static_cast<uint32_t>(std::countr_zero(u)));
      }
    } else if (words_ <= kMaxSetWords) {
      std::array<uint64_t, kMaxSetWords> unions;
      UnionSet(first, value, absorb, unions.data());
      ForEachMask(unions.data(), fn);
    } else {
      for (uint32_t m : Unions(first, value, absorb)) fn(m);
    }
  }
  CardSet CardsOf(uint32_t mask) const;
  // Sorts the captures out[first, end) by their table cards and drops the
  // repeated ones (a build of the played value is reachable both whole and
  // as a one-item group under builds_in_sums=opponents_single).
  static void SortCaptures(size_t first, std::vector<Move>* out);
  uint32_t BuildsOf(uint32_t mask) const;
  // Appends `move` unless it breaks the builder rules; `effect_kind` is what
  // the move does (a five-spades trail captures).
  void Emit(const Position& pos, const Move& move, uint32_t builds_taken,
            int changed_build, std::vector<Move>* out);
  void Emit(const Position& pos, const Move& move, uint32_t builds_taken,
            int changed_build, std::vector<Move>* out, MoveKind effect_kind);

  // Moves of a face card with no value (face_capture, natural face builds).
  void FaceMoves(const Position& pos, Card c, std::vector<Move>* out);
  // Moves of hand card c counting x (`declared`: x when not c's default).
  void Captures(const Position& pos, Card c, int x, int declared,
                std::vector<Move>* out);
  // `held`: bit v set when the rest of the hand holds a card of value v.
  void Builds(const Position& pos, Card c, int x, int declared, uint32_t held,
              std::vector<Move>* out);

  // The generator keeps no state between calls except its buffers, which
  // grow to the largest position seen and are never shrunk.
  // The value masks (RuleSet::ValueMask) of the hand cards of the seat to
  // move, in deck order.
  std::array<uint32_t, kDeckSize> hand_values_;
  int n_hand_ = 0;
  uint32_t hand_seen_ = 0;   // the values of the hand's cards
  uint32_t hand_twice_ = 0;  // the values of at least two of them
  // The values the rest of the hand holds besides a card of `values`.
  uint32_t Held(uint32_t values) const {
    return hand_seen_ & ~(values & ~hand_twice_);
  }
  std::array<Item, kMaxItems> items_;
  int n_ = 0;
  int n_loose_ = 0;             // the loose cards come first among the items
  uint32_t loose_mask_ = 0;     // items that are loose cards
  bool loose_dropped_ = false;  // loose numerals beyond kMaxItems
  uint32_t face_builds_ = 0;    // table.builds that are natural face builds
  bool check_rules_ = false;    // whether the guard/obligation can bite
  bool capped_ = false;         // the current list is incomplete
  static constexpr int kMaxSum = 15;
  int group_limit_ = kMaxSum;  // groups are kept for sums 1..group_limit_
  // The largest sum any move of the seat to move asks groups for (its hand
  // values, hand_seen_, and MaxBuild()), at most kMaxSum.
  int GroupLimit(const RuleSet& rules) const;
  // The subset-sum table: bit m of word s * words_ + m / 64 of sum_bits_
  // is set when the items of mask m sum to s (s up to group_limit_). With
  // at most 6 items (words_ 1) the table is low_bits_[s] alone. Only the
  // words of the sums in sums_present_ (and 0) are valid.
  int words_ = 1;
  const uint64_t* low_bits_ = nullptr;  // into low_buffers_
  // Two tables of kMaxSum + 1 words, each after kMaxSum + 1 zero words.
  alignas(16) std::array<uint64_t, 2 * (kMaxSum + 1)> low_buffers_[2]{};
  std::vector<uint64_t> sum_bits_;
  uint32_t sums_present_ = 0;  // bit s: sum s has a group
  uint32_t loose_sums_ = 0;    // bit s: sum s has a loose-only group
  // The groups of sum s are group_masks_[group_begin_[s], group_end_[s]),
  // written by Groups(s) on first use (bit s of groups_listed_ set then).
  uint32_t groups_listed_ = 0;
  std::vector<uint32_t> group_masks_;
  std::array<int32_t, kMaxSum + 1> group_begin_{};
  std::array<int32_t, kMaxSum + 1> group_end_{};
  // GoodSet(v) and LooseGoodSet(v), once computed (bit v of the `known`
  // masks set then).
  uint32_t good_bits_known_ = 0;
  uint32_t loose_good_known_ = 0;
  std::array<std::array<uint64_t, kMaxSetWords>, kMaxSum + 1> good_sets_;
  std::array<std::array<uint64_t, kMaxSetWords>, kMaxSum + 1> loose_good_sets_;
  // Good(v) is good_masks_[good_begin_[v], good_end_[v]) once computed
  // (bit v of goods_listed_ set then).
  uint32_t goods_listed_ = 0;
  std::vector<uint32_t> good_masks_;
  std::array<int32_t, kMaxSum + 1> good_begin_{};
  std::array<int32_t, kMaxSum + 1> good_end_{};
  std::vector<uint64_t> visited_;
  std::vector<uint32_t> scratch_;
  std::vector<Move> pluck_scratch_;
};

// Convenience: all legal moves of a position.
std::vector<Move> LegalMoves(const Position& pos);

}  // namespace cassino

#endif  // CASSINO_RULES_LEGAL_MOVES_H_
