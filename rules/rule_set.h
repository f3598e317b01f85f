// The rule set: every option of docs/rules.md as one value type, plus presets.
//
// A RuleSet is plain data. Its text form is a preset name followed by
// `option=value` words, e.g. `standard builder_obligation=v2 target=11`;
// `ToString()` prints every option in a fixed order so that a record states
// the rules completely. Options that players disagree about are named here
// exactly as in docs/rules.md, *Rule options*; `OptionDocs()` describes each
// for `--help` and the documentation.
//
// Card values come from the rule set (`CardValue`), never from constants in
// the engine, so that later variants can give face cards values.
//
// Deal, scoring and game flow (docs/rules.md, *The deal*, *Scoring*, *End of
// the game*): the pack (`pack`, `remove`),
// the deal sizes (`hand_size`, `last_deal_extra`, up to 6 players), what a
// round scores (`scoring`, `tie_cards`) and how play flows (`draw`,
// `initial_pairs`, `sudden_death`, `match`). The number of deals in a round
// is derived: after the table's 4 cards, every deal gives `hand_size` cards
// to each player and the last deal `hand_size + last_deal_extra`; the pack
// must divide exactly into such deals (Validate says why when it does not).
//
// `scoring` is written as `item:points` words joined by `+`, e.g.
// `scoring=cards:3+spades:1+each_ace:1+2S:1+TD:2` (the standard game). The
// value is the complete table: items not listed score nothing. Items:
// `cards`, `spades`, `diamonds` (most of them), `each_ace`, `each_spade`,
// `all_aces` (one side took every ace of the pack) and any card (`TD`, `JS`:
// that card's own points). Sweep points stay the `sweeps` option. `none`
// is the empty table.
//
// Move-level variant options and presets (docs/rules.md, *Move-level
// variants*, *Presets*): card_values,
// max_build, ace_high, dual_ten, multiple_builds, face_capture four/any
// with face_builds, five_spades_sweep, defaults_cost and pluck; presets
// royal, buckeye, trailing_royals, face_four, five_spades and pluck.
// docs/rules.md describes each for players.
//
// Card values come from the rule set, never from constants in the engine.
// `CardValue` is a card's default value; `ValueMask` is every value it may
// count. Only two cards are flexible (docs/rules.md, *Move-level variants*): an
// ace counts 1 or 14 under `ace_high`, and `TD` counts 10 or 11 under
// `dual_ten`. A flexible card played from the hand declares its value in the
// move (Move::declared); a flexible loose card on the table counts whichever of
// its values the move needs. Under `card_values=royal` J, Q, K count 11, 12, 13
// and are numerals in every respect (the face-card rule of `face_capture` does
// not apply).
//
// Revisions (`revision`): a record states its rules as text, and must replay
// as it was played. When a reading of the source texts changes what is
// legal or how a game flows, the old reading stays reachable as revision 1:
//   1: the readings before issue #13 (no natural build with the played card
//      alone; `builds_in_sums=never` unless stated).
//   2: natural builds with the played card alone; under defaults_cost the
//      points a defaulter gives up go to every other side (revision 1: they
//      were taken from the defaulter's total); `builds_in_sums=
//      opponents_single` unless stated; under v3 a capture must take in the
//      player's build, and duplicating a build keeps its owner.
//   3 (kRevision, the current; issue #23): `raise_with_table=on` unless
//      stated (a build raised by the played card with loose cards);
//      Callabra ends when the table is cleared whatever `sweeps`; a
//      default's points go to the next side in play order only; pluck's
//      point cards follow the scoring; the related games refuse Cassino's
//      options (docs/rules.md, *Rules revisions*).
// ToString() always writes the revision. Parse() reads a text without one as
// the current revision (a player asking for a game); ParseRecorded() reads
// it as revision 1 (a record written before revisions existed).

#ifndef CASSINO_RULES_RULE_SET_H_
#define CASSINO_RULES_RULE_SET_H_

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "rules/card.h"

namespace cassino {

// Which game is played: Cassino or one of the related games of docs/rules.md
// (*Related games*), each its own rules module (callabra.h, tablanette.h).
enum class GameKind { kCassino, kCallabra, kTablanette };
// How the cards are dealt (docs/rules.md, *The deal*): two at a time (the
// tradition), or one, three or four at a time ("The dealer has the option to
// deal any number of cards at one time to each person so long as each person is
// dealt in sequence. This can include a deal of one, two, three, or four
// cards to each", source 002).
enum class DealStyle { kTwos, kSingles, kThrees, kFours };
// What a face card may take (docs/rules.md, *Capturing*).
// `four` and `any` add natural face builds (docs/rules.md, *Move-level
// variants*).
enum class FaceCapture { kOne, kAll, kFour, kAny };
// Whether a build may be part of a sum when capturing (docs/rules.md,
// *Capturing*): `never` is Hoyle's stricter reading, `opponents_single` (the
// default from revision 2) the sources' "an eight build may be combined with
// an ace if an adversary holds a nine".
enum class BuildsInSums { kNever, kOpponentsSingle };
// Whether a player may raise a build they control (docs/rules.md,
// *Building*).
enum class OwnRaise { kAllowed, kNeedsOldValue, kForbidden };
// What a player who controls a build must do (docs/rules.md, *Builder
// obligations*).
enum class BuilderObligation { kV1, kV2, kV3, kNone };
// What taking all 11 base points in a round earns (docs/rules.md, *Scoring*).
enum class AllEleven { kNone, kBonus, kSkunk, kWin };
// How the winner is decided when a round ends (docs/rules.md, *End of the
// game*).
enum class GameEnd { kCountOut, kHighestTotal };
// Who scores "most cards" when the most cards are tied (docs/rules.md,
// *Scoring*).
enum class TieCards { kNone, kSpades };
// How long a game lasts (docs/rules.md, *End of the game*): to the target, or a
// fixed number of rounds in which each player deals twice.
enum class Match { kTarget, kDealRounds };

// What a round scores, item by item (docs/rules.md, *Scoring*). Points are
// 0..100 each; the standard game is the default.
struct Scoring {
  int most_cards = 3;
  int most_spades = 1;
  int most_diamonds = 0;
  int each_ace = 1;
  int each_spade = 0;
  int all_aces = 0;  // one side took every ace of the pack
  // A card's own points, by deck index (TD 2 and 2S 1 in the standard game).
  std::array<int8_t, kDeckSize> card{[] {
    std::array<int8_t, kDeckSize> points{};
    points[kBigCassino.index()] = 2;
    points[kLittleCassino.index()] = 1;
    return points;
  }()};

  // `cards:3+spades:1+...`; `none` when nothing scores.
  std::string ToString() const;
  static absl::StatusOr<Scoring> Parse(absl::string_view text);
  friend bool operator==(const Scoring&, const Scoring&) = default;
};
// The values of the cards (docs/rules.md, *Move-level variants*): standard
// A=1..T=10 and faces none; royal J=11, Q=12, K=13.
enum class CardValues { kStandard, kRoyal };

struct RuleSet {
  GameKind game = GameKind::kCassino;  // the other options are Cassino's
  int players = 2;            // 2 to 6 (related games: fewer, see Validate)
  bool partnerships = false;  // 4 players as two teams (0+2 vs 1+3)
  DealStyle deal = DealStyle::kTwos;
  FaceCapture face_capture = FaceCapture::kOne;
  BuildsInSums builds_in_sums = BuildsInSums::kOpponentsSingle;
  bool multi_build_absorb = true;
  OwnRaise own_raise = OwnRaise::kAllowed;
  // A single build may be raised by the played card with loose table cards
  // (revision 3; off unless stated in revisions 1 and 2).
  bool raise_with_table = true;
  BuilderObligation builder_obligation = BuilderObligation::kV1;
  int sweep_points = 1;  // 0 = sweeps off, 1 or 2
  AllEleven all_eleven = AllEleven::kNone;
  int target = 21;
  GameEnd game_end = GameEnd::kCountOut;
  bool call_out = false;  // 2 players only

  // Deal, scoring and game flow; see the file comment.
  int pack = 52;            // 52, or 40 (no J, Q, K)
  CardSet removed;          // cards taken out of the pack
  int hand_size = 4;        // cards to each player per deal
  int last_deal_extra = 0;  // extra cards to each player on the last deal
  Scoring scoring;          // what a round scores
  TieCards tie_cards = TieCards::kNone;
  bool draw = false;           // one deal; draw a card after each play
  bool initial_pairs = false;  // pairs on the first table go to the leader
  bool sudden_death = false;   // sweeps score when made; may end the game
  // Each point card (its own points, each_ace, each_spade) scores when a
  // play captures it, and may end the game at once; the round's items then
  // leave it out.
  bool score_as_captured = false;
  Match match = Match::kTarget;
  // Move-level variant options (docs/rules.md, *Move-level variants*).
  CardValues card_values = CardValues::kStandard;
  int max_build = 10;           // 10; 13 or 14 with royal values (14: ace_high)
  bool ace_high = false;        // royal only: an ace counts 1 or 14
  bool dual_ten = false;        // TD counts 10 or 11
  bool multiple_builds = true;  // off: no multiple build, no add, no absorb
  bool face_builds = true;      // face_capture=four/any: natural face builds
  bool five_spades_sweep = false;  // trailing 5S takes the whole table
  int defaults_cost = 0;  // > 0: builder-rule breaks are legal, cost this
  // > 0: this many instant scores (defaults, sudden-death sweeps) against
  // one side end the round at once (Michigan: 3); 0 off.
  int instant_limit = 0;
  bool pluck = false;  // once per deal: take one loose card
  // The readings of the rules (see the file comment): 1 to kRevision.
  int revision = kRevision;

  static constexpr int kRevision = 3;

  // Natural building with the played card alone (revision 2): a card of
  // value V played onto loose groups of V makes a (multiple) build of V.
  bool NaturalBuilds() const { return revision >= 2 && multiple_builds; }
  // Raising a single build with the played card and loose table cards
  // (revision 3, raise_with_table).
  bool RaiseWithTable() const { return revision >= 3 && raise_with_table; }

  // The standard game's defaults (docs/rules.md, *Rule options*).
  static RuleSet Standard() { return RuleSet{}; }

  // Parses `[preset] [option=value ...]` separated by spaces or commas.
  // Unknown presets, options and values are errors naming the culprit.
  // A text without `revision=` is the current revision.
  static absl::StatusOr<RuleSet> Parse(absl::string_view text);
  // The rules text of a record: like Parse, but a text without `revision=`
  // was written before revisions existed and is read as revision 1.
  static absl::StatusOr<RuleSet> ParseRecorded(absl::string_view text);
  // A preset by name (`standard`, `diamond`, ...; see PresetDocs()).
  static absl::StatusOr<RuleSet> Preset(absl::string_view name);
  static std::vector<std::string> PresetNames();

  // Sets one option from its text form.
  absl::Status Set(absl::string_view option, absl::string_view value);
  // Every option as `name=value`, in a fixed order, space separated.
  std::string ToString() const;
  // Checks the combination (player count, partnerships, call_out...).
  absl::Status Validate() const;

  // The default value of a card in sums and builds; 0 means the card never
  // takes part in a sum or a build (face cards with standard values).
  constexpr int CardValue(Card c) const {
    return c.rank() <= kTen || card_values == CardValues::kRoyal ? c.rank() : 0;
  }
  // The other value a flexible card may count (14 for an ace under
  // ace_high, 11 for TD under dual_ten), or 0.
  constexpr int AltValue(Card c) const {
    if (ace_high && c.rank() == kAce) return 14;
    if (dual_ten && c == kBigCassino) return 11;
    return 0;
  }
  // Bit v is set for every value v the card may count; 0 for a card with no
  // value.
  constexpr uint32_t ValueMask(Card c) const {
    // CardValue() and AltValue() without a branch on the card: move
    // generation asks for every hand card of every position.
    const int rank = c.rank();
    const uint32_t valued =
        (rank <= kTen) | (card_values == CardValues::kRoyal);
    const uint32_t ace_as_14 = ace_high & (rank == kAce);
    const uint32_t ten_as_11 = dual_ten & (c == kBigCassino);
    return valued << rank | ace_as_14 << 14 | ten_as_11 << 11;
  }
  // The cards with a value (CardValue above 0): every card under royal
  // values, else the numerals A..10.
  constexpr CardSet ValuedCards() const {
    return card_values == CardValues::kRoyal ? CardSet::FullDeck()
                                             : kNumeralCards;
  }
  // The cards with two values under these rules (aces, TD), possibly none.
  constexpr CardSet FlexibleCards() const {
    CardSet flex;
    if (ace_high) flex |= CardSet::OfRank(kAce);
    if (dual_ten) flex.insert(kBigCassino);
    return flex;
  }
  // The highest value a build may have.
  constexpr int MaxBuild() const { return max_build; }

  // A side is a player, or a team in partnerships.
  int Sides() const { return partnerships ? 2 : players; }
  int SideOf(int seat) const { return partnerships ? seat % 2 : seat; }
  // Deals in a round: derived from the pack, hand_size, last_deal_extra and
  // players (1 with draw); Validate rejects combinations that do not divide.
  int DealsPerRound() const;
  // The cards in play: the pack less the removed cards.
  CardSet Pack() const;
  // The rounds of a match=deal_rounds game (each player deals twice); 0
  // with match=target.
  int MatchRounds() const {
    return match == Match::kDealRounds ? 2 * players : 0;
  }
  static constexpr int kHandSize = 4;  // the standard hand_size
  static constexpr int kTableDeal = 4;

  friend bool operator==(const RuleSet&, const RuleSet&) = default;
};

// One option's documentation: its name, accepted values, default, meaning.
struct OptionDoc {
  absl::string_view name;
  absl::string_view values;
  absl::string_view default_value;
  absl::string_view meaning;
};
std::vector<OptionDoc> OptionDocs();

// One preset's documentation: its name, the options it sets on top of the
// standard game (RuleSet text form) and what it is, for players.
struct PresetDoc {
  absl::string_view name;
  absl::string_view options;
  absl::string_view meaning;
};
std::vector<PresetDoc> PresetDocs();

}  // namespace cassino

#endif  // CASSINO_RULES_RULE_SET_H_
