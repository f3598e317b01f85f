#include "rules/rule_set.h"

#include <algorithm>
#include <array>
#include <functional>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace cassino {
namespace {

// An enumerated option value and its name.
template <typename E>
struct Named {
  E value;
  absl::string_view name;
};

constexpr std::array<Named<GameKind>, 3> kGameNames{
    {{GameKind::kCassino, "cassino"},
     {GameKind::kCallabra, "callabra"},
     {GameKind::kTablanette, "tablanette"}}};
constexpr std::array<Named<DealStyle>, 4> kDealNames{
    {{DealStyle::kTwos, "twos"},
     {DealStyle::kSingles, "singles"},
     {DealStyle::kThrees, "threes"},
     {DealStyle::kFours, "fours"}}};
constexpr std::array<Named<FaceCapture>, 4> kFaceNames{
    {{FaceCapture::kOne, "one"},
     {FaceCapture::kAll, "all"},
     {FaceCapture::kFour, "four"},
     {FaceCapture::kAny, "any"}}};
constexpr std::array<Named<BuildsInSums>, 2> kSumNames{
    {{BuildsInSums::kNever, "never"},
     {BuildsInSums::kOpponentsSingle, "opponents_single"}}};
constexpr std::array<Named<OwnRaise>, 3> kOwnRaiseNames{
    {{OwnRaise::kAllowed, "allowed"},
     {OwnRaise::kNeedsOldValue, "needs_old_value"},
     {OwnRaise::kForbidden, "forbidden"}}};
constexpr std::array<Named<BuilderObligation>, 4> kObligationNames{
    {{BuilderObligation::kV1, "v1"},
     {BuilderObligation::kV2, "v2"},
     {BuilderObligation::kV3, "v3"},
     {BuilderObligation::kNone, "none"}}};
constexpr std::array<Named<AllEleven>, 4> kAllElevenNames{
    {{AllEleven::kNone, "none"},
     {AllEleven::kBonus, "bonus"},
     {AllEleven::kSkunk, "skunk"},
     {AllEleven::kWin, "win"}}};
constexpr std::array<Named<GameEnd>, 2> kGameEndNames{
    {{GameEnd::kCountOut, "count_out"},
     {GameEnd::kHighestTotal, "highest_total"}}};
constexpr std::array<Named<TieCards>, 2> kTieCardsNames{
    {{TieCards::kNone, "none"}, {TieCards::kSpades, "spades"}}};
constexpr std::array<Named<Match>, 2> kMatchNames{
    {{Match::kTarget, "target"}, {Match::kDealRounds, "deal_rounds"}}};
constexpr std::array<Named<CardValues>, 2> kCardValueNames{
    {{CardValues::kStandard, "standard"}, {CardValues::kRoyal, "royal"}}};

template <typename E, size_t N>
absl::string_view NameOf(const std::array<Named<E>, N>& names, E value) {
  for (const auto& n : names) {
    if (n.value == value) return n.name;
  }
  return "?";
}

template <typename E, size_t N>
absl::Status ParseEnum(const std::array<Named<E>, N>& names,
                       absl::string_view option, absl::string_view text,
                       E* out) {
  for (const auto& n : names) {
    if (n.name == text) {
      *out = n.value;
      return absl::OkStatus();
    }
  }
  std::vector<absl::string_view> accepted;
  for (const auto& n : names) accepted.push_back(n.name);
  return absl::InvalidArgumentError(
      absl::StrCat("option ", option, ": '", text, "' is not one of ",
                   absl::StrJoin(accepted, ", ")));
}

absl::Status ParseBool(absl::string_view option, absl::string_view text,
                       bool* out) {
  if (text == "on" || text == "true" || text == "1") {
    *out = true;
  } else if (text == "off" || text == "false" || text == "0") {
    *out = false;
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("option ", option, ": '", text, "' is not on or off"));
  }
  return absl::OkStatus();
}

absl::Status ParseInt(absl::string_view option, absl::string_view text, int lo,
                      int hi, int* out) {
  int v = 0;
  if (!absl::SimpleAtoi(text, &v) || v < lo || v > hi) {
    return absl::InvalidArgumentError(
        absl::StrCat("option ", option, ": '", text, "' is not a number from ",
                     lo, " to ", hi));
  }
  *out = v;
  return absl::OkStatus();
}

absl::string_view OnOff(bool b) { return b ? "on" : "off"; }

// `remove=`: cards joined by '+', or `none`.
std::string CardsText(CardSet cards) {
  if (cards.empty()) return "none";
  std::vector<std::string> names;
  for (Card c : cards) names.push_back(c.ToString());
  return absl::StrJoin(names, "+");
}

absl::Status ParseCardsText(absl::string_view option, absl::string_view text,
                            CardSet* out) {
  CardSet cards;
  if (text != "none" && text != "-") {
    for (absl::string_view word : absl::StrSplit(text, '+')) {
      absl::StatusOr<Card> c = Card::Parse(word);
      if (!c.ok()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "option ", option, ": '", word, "' is not a card (",
            c.status().message(),
            "); write cards joined by '+', e.g. 2H+2D+2C, or none"));
      }
      if (cards.contains(*c)) {
        return absl::InvalidArgumentError(absl::StrCat(
            "option ", option, ": ", c->ToString(), " is listed twice"));
      }
      cards.insert(*c);
    }
  }
  *out = cards;
  return absl::OkStatus();
}

// Every option: how to print it and how to set it. The order here is the
// order of RuleSet::ToString().
struct Option {
  OptionDoc doc;
  std::function<std::string(const RuleSet&)> get;
  std::function<absl::Status(RuleSet&, absl::string_view)> set;
};

const std::vector<Option>& Options() {
  static const std::vector<Option>* const options = new std::vector<Option>{
      {{"game", "cassino, callabra, tablanette", "cassino",
        "the game played: Cassino, or a related game with its own rules "
        "(docs/rules.md); Callabra uses only `players`, Tablanette only "
        "`players`, `partnerships`, `sweeps`, `target` and `game_end`"},
       [](const RuleSet& r) { return std::string(NameOf(kGameNames, r.game)); },
       [](RuleSet& r, absl::string_view v) {
         return ParseEnum(kGameNames, "game", v, &r.game);
       }},
      {{"players", "2 to 6", "2", "number of players"},
       [](const RuleSet& r) { return absl::StrCat(r.players); },
       [](RuleSet& r, absl::string_view v) {
         return ParseInt("players", v, 2, 6, &r.players);
       }},
      {{"partnerships", "on, off", "off",
        "4 players as two teams, partners opposite (seats 0+2 and 1+3); "
        "captures, sweeps and scores are pooled per team"},
       [](const RuleSet& r) { return std::string(OnOff(r.partnerships)); },
       [](RuleSet& r, absl::string_view v) {
         return ParseBool("partnerships", v, &r.partnerships);
       }},
      {{"deal", "twos, singles, threes, fours", "twos",
        "cards are dealt two, one, three or four at a time to each player "
        "in turn (the table's first cards likewise, just before the "
        "dealer's)"},
       [](const RuleSet& r) { return std::string(NameOf(kDealNames, r.deal)); },
       [](RuleSet& r, absl::string_view v) {
         return ParseEnum(kDealNames, "deal", v, &r.deal);
       }},
      {{"face_capture", "one, all, four, any", "one",
        "a face card takes exactly one loose card of its rank; all: any "
        "non-empty set of the loose cards of its rank (revision 1: one or "
        "all); four: or every card of its rank on the "
        "table when that gathers all four, with natural face builds while "
        "holding every other card of the rank; any: any number of loose "
        "cards of its rank, with natural face builds while holding another"},
       [](const RuleSet& r) {
         return std::string(NameOf(kFaceNames, r.face_capture));
       },
       [](RuleSet& r, absl::string_view v) {
         return ParseEnum(kFaceNames, "face_capture", v, &r.face_capture);
       }},
      {{"builds_in_sums", "never, opponents_single", "opponents_single",
        "opponents_single: an adversary of a single build's controller may "
        "take it by combination, counting it at its value in a sum (an "
        "eight build with an ace, by a nine); never: Hoyle's stricter "
        "reading, a build is never part of a sum (the default of revision "
        "1)"},
       [](const RuleSet& r) {
         return std::string(NameOf(kSumNames, r.builds_in_sums));
       },
       [](RuleSet& r, absl::string_view v) {
         return ParseEnum(kSumNames, "builds_in_sums", v, &r.builds_in_sums);
       }},
      {{"multi_build_absorb", "on, off", "on",
        "whether a build move may absorb further loose groups of the build's "
        "value (making a multiple build)"},
       [](const RuleSet& r) {
         return std::string(OnOff(r.multi_build_absorb));
       },
       [](RuleSet& r, absl::string_view v) {
         return ParseBool("multi_build_absorb", v, &r.multi_build_absorb);
       }},
      {{"own_raise", "allowed, needs_old_value, forbidden", "allowed",
        "whether a player may raise a single build they control; "
        "needs_old_value: only while also holding a card of its old value"},
       [](const RuleSet& r) {
         return std::string(NameOf(kOwnRaiseNames, r.own_raise));
       },
       [](RuleSet& r, absl::string_view v) {
         return ParseEnum(kOwnRaiseNames, "own_raise", v, &r.own_raise);
       }},
      {{"raise_with_table", "on, off", "on",
        "on: a single build may be raised by the played card together with "
        "loose table cards (\"continue their 'build' with any card on the "
        "table\"; a 7 build with an ace on the table becomes 9 with a "
        "played ace); off: by the played card alone (the default of "
        "revisions 1 and 2)"},
       [](const RuleSet& r) { return std::string(OnOff(r.RaiseWithTable())); },
       [](RuleSet& r, absl::string_view v) {
         return ParseBool("raise_with_table", v, &r.raise_with_table);
       }},
      {{"builder_obligation", "v1, v2, v3, none", "v1",
        "what a player controlling a build must do (see docs/rules.md)"},
       [](const RuleSet& r) {
         return std::string(NameOf(kObligationNames, r.builder_obligation));
       },
       [](RuleSet& r, absl::string_view v) {
         return ParseEnum(kObligationNames, "builder_obligation", v,
                          &r.builder_obligation);
       }},
      {{"sweeps", "off, 1, 2", "1", "points for each sweep"},
       [](const RuleSet& r) {
         return r.sweep_points == 0 ? std::string("off")
                                    : absl::StrCat(r.sweep_points);
       },
       [](RuleSet& r, absl::string_view v) {
         if (v == "off") {
           r.sweep_points = 0;
           return absl::OkStatus();
         }
         return ParseInt("sweeps", v, 0, 2, &r.sweep_points);
       }},
      {{"all_eleven", "none, bonus, skunk, win", "none",
        "what a side earns by taking all 11 base points of a round: bonus +1, "
        "skunk wins the game if it happens in round 1, win wins the game"},
       [](const RuleSet& r) {
         return std::string(NameOf(kAllElevenNames, r.all_eleven));
       },
       [](RuleSet& r, absl::string_view v) {
         return ParseEnum(kAllElevenNames, "all_eleven", v, &r.all_eleven);
       }},
      {{"target", "1..1000", "21", "points that win the game"},
       [](const RuleSet& r) { return absl::StrCat(r.target); },
       [](RuleSet& r, absl::string_view v) {
         return ParseInt("target", v, 1, 1000, &r.target);
       }},
      {{"game_end", "count_out, highest_total", "count_out",
        "count_out: round points are added item by item and the first side "
        "to reach the target wins; highest_total: the highest total wins once "
        "any side reached the target, a tie plays another round"},
       [](const RuleSet& r) {
         return std::string(NameOf(kGameEndNames, r.game_end));
       },
       [](RuleSet& r, absl::string_view v) {
         return ParseEnum(kGameEndNames, "game_end", v, &r.game_end);
       }},
      {{"call_out", "on, off", "off",
        "2 players: at the start of their turn a player may call out (claim "
        "to have reached the target); a wrong claim loses the game"},
       [](const RuleSet& r) { return std::string(OnOff(r.call_out)); },
       [](RuleSet& r, absl::string_view v) {
         return ParseBool("call_out", v, &r.call_out);
       }},
      // Deal, scoring and game flow (docs/rules.md, *The deal*, *Scoring*).
      {{"pack", "52, 40", "52",
        "the pack: all 52 cards, or 40 without the jacks, queens and kings"},
       [](const RuleSet& r) { return absl::StrCat(r.pack); },
       [](RuleSet& r, absl::string_view v) {
         if (v != "52" && v != "40") {
           return absl::InvalidArgumentError(
               absl::StrCat("option pack: '", v, "' is not 52 or 40"));
         }
         r.pack = v == "52" ? 52 : 40;
         return absl::OkStatus();
       }},
      {{"remove", "none, cards joined by +", "none",
        "cards taken out of the pack, e.g. remove=2H+2D+2C (five players)"},
       [](const RuleSet& r) { return CardsText(r.removed); },
       [](RuleSet& r, absl::string_view v) {
         return ParseCardsText("remove", v, &r.removed);
       }},
      {{"hand_size", "1..12", "4", "cards dealt to each player per deal"},
       [](const RuleSet& r) { return absl::StrCat(r.hand_size); },
       [](RuleSet& r, absl::string_view v) {
         return ParseInt("hand_size", v, 1, 12, &r.hand_size);
       }},
      {{"last_deal_extra", "0..8", "0",
        "extra cards to each player on the last deal of a round"},
       [](const RuleSet& r) { return absl::StrCat(r.last_deal_extra); },
       [](RuleSet& r, absl::string_view v) {
         return ParseInt("last_deal_extra", v, 0, 8, &r.last_deal_extra);
       }},
      {{"scoring", "item:points joined by +, or none",
        "cards:3+spades:1+each_ace:1+2S:1+TD:2",
        "what a round scores; items cards, spades, diamonds (most of each), "
        "each_ace, each_spade, all_aces, or a card (its own points); the "
        "value is the whole table, unlisted items score nothing"},
       [](const RuleSet& r) { return r.scoring.ToString(); },
       [](RuleSet& r, absl::string_view v) {
         absl::StatusOr<Scoring> s = Scoring::Parse(v);
         if (!s.ok()) return s.status();
         r.scoring = *s;
         return absl::OkStatus();
       }},
      {{"tie_cards", "none, spades", "none",
        "who scores most cards on a tie: nobody, or (spades) whoever of the "
        "tied sides has the most spades"},
       [](const RuleSet& r) {
         return std::string(NameOf(kTieCardsNames, r.tie_cards));
       },
       [](RuleSet& r, absl::string_view v) {
         return ParseEnum(kTieCardsNames, "tie_cards", v, &r.tie_cards);
       }},
      {{"draw", "on, off", "off",
        "one deal per round; after each play the player draws a card from "
        "the stock while it lasts"},
       [](const RuleSet& r) { return std::string(OnOff(r.draw)); },
       [](RuleSet& r, absl::string_view v) {
         return ParseBool("draw", v, &r.draw);
       }},
      {{"initial_pairs", "on, off", "off",
        "pairs among the table's first four cards go at once to the first "
        "player to move (a capture; a sweep if the table is emptied)"},
       [](const RuleSet& r) { return std::string(OnOff(r.initial_pairs)); },
       [](RuleSet& r, absl::string_view v) {
         return ParseBool("initial_pairs", v, &r.initial_pairs);
       }},
      {{"score_as_captured", "on, off", "off",
        "each point card scores for the side that captures it at once (its "
        "own points, each_ace, each_spade), and reaching the target that "
        "way wins at once; cards taken at the round's end score with the "
        "round"},
       [](const RuleSet& r) { return std::string(OnOff(r.score_as_captured)); },
       [](RuleSet& r, absl::string_view v) {
         return ParseBool("score_as_captured", v, &r.score_as_captured);
       }},
      {{"sudden_death", "on, off", "off",
        "sweeps score the moment they are made; reaching the target that "
        "way ends the game at once"},
       [](const RuleSet& r) { return std::string(OnOff(r.sudden_death)); },
       [](RuleSet& r, absl::string_view v) {
         return ParseBool("sudden_death", v, &r.sudden_death);
       }},
      {{"match", "target, deal_rounds", "target",
        "target: play to the target; deal_rounds: each player deals twice, "
        "the highest total wins and equal highest totals are a draw"},
       [](const RuleSet& r) {
         return std::string(NameOf(kMatchNames, r.match));
       },
       [](RuleSet& r, absl::string_view v) {
         return ParseEnum(kMatchNames, "match", v, &r.match);
       }},
      // Move-level variant options (docs/rules.md, *Move-level variants*).
      {{"card_values", "standard, royal", "standard",
        "standard: A=1 .. T=10, faces have no value; royal: J=11, Q=12, "
        "K=13, and faces sum, build and capture like numerals"},
       [](const RuleSet& r) {
         return std::string(NameOf(kCardValueNames, r.card_values));
       },
       [](RuleSet& r, absl::string_view v) {
         return ParseEnum(kCardValueNames, "card_values", v, &r.card_values);
       }},
      {{"max_build", "10, 13, 14", "10",
        "the highest value a build may have (13 or 14 need card_values=royal, "
        "14 also ace_high)"},
       [](const RuleSet& r) { return absl::StrCat(r.max_build); },
       [](RuleSet& r, absl::string_view v) {
         absl::Status s = ParseInt("max_build", v, 10, 14, &r.max_build);
         if (s.ok() && r.max_build != 10 && r.max_build < 13) {
           return absl::InvalidArgumentError(absl::StrCat(
               "option max_build: '", v, "' is not one of 10, 13, 14"));
         }
         return s;
       }},
      {{"ace_high", "on, off", "off",
        "royal values only: an ace counts 1 or 14; an ace played to capture "
        "or build declares 14 as AC=14, a loose ace counts as needed"},
       [](const RuleSet& r) { return std::string(OnOff(r.ace_high)); },
       [](RuleSet& r, absl::string_view v) {
         return ParseBool("ace_high", v, &r.ace_high);
       }},
      {{"dual_ten", "on, off", "off",
        "TD counts 10 or 11: declared TD=11 when played to capture or build, "
        "either value as needed when loose on the table"},
       [](const RuleSet& r) { return std::string(OnOff(r.dual_ten)); },
       [](RuleSet& r, absl::string_view v) {
         return ParseBool("dual_ten", v, &r.dual_ten);
       }},
      {{"multiple_builds", "on, off", "on",
        "off: no multiple build can be made (no add to a build, nothing "
        "absorbed); single builds and raises remain"},
       [](const RuleSet& r) { return std::string(OnOff(r.multiple_builds)); },
       [](RuleSet& r, absl::string_view v) {
         return ParseBool("multiple_builds", v, &r.multiple_builds);
       }},
      {{"face_builds", "on, off", "on",
        "with face_capture=four or any: whether a face card may be built "
        "naturally onto cards of its rank"},
       [](const RuleSet& r) { return std::string(OnOff(r.face_builds)); },
       [](RuleSet& r, absl::string_view v) {
         return ParseBool("face_builds", v, &r.face_builds);
       }},
      {{"five_spades_sweep", "on, off", "off",
        "trailing 5S onto a non-empty table takes the whole table, builds "
        "too: a capture and a sweep, allowed while controlling a build"},
       [](const RuleSet& r) { return std::string(OnOff(r.five_spades_sweep)); },
       [](RuleSet& r, absl::string_view v) {
         return ParseBool("five_spades_sweep", v, &r.five_spades_sweep);
       }},
      {{"defaults_cost", "off, 1..10", "off",
        "Michigan: a move that breaks the builder obligation or the guard is "
        "legal, and the mover gives up this many points at once: the next "
        "side in play order scores them (revision 2: each other side; "
        "revision 1: the mover's total lost them)"},
       [](const RuleSet& r) {
         return r.defaults_cost == 0 ? std::string("off")
                                     : absl::StrCat(r.defaults_cost);
       },
       [](RuleSet& r, absl::string_view v) {
         if (v == "off") {
           r.defaults_cost = 0;
           return absl::OkStatus();
         }
         return ParseInt("defaults_cost", v, 0, 10, &r.defaults_cost);
       }},
      {{"instant_limit", "off, 1..10", "off",
        "Michigan: this many instant scores (defaults under defaults_cost, "
        "sweeps under sudden_death) against one side end the round at "
        "once; the cards not yet played count for nobody"},
       [](const RuleSet& r) {
         return r.instant_limit == 0 ? std::string("off")
                                     : absl::StrCat(r.instant_limit);
       },
       [](RuleSet& r, absl::string_view v) {
         if (v == "off") {
           r.instant_limit = 0;
           return absl::OkStatus();
         }
         return ParseInt("instant_limit", v, 1, 10, &r.instant_limit);
       }},
      {{"pluck", "on, off", "off",
        "once per deal each player may, before or after playing a card in "
        "the same turn, take one loose table card into their pile (never a "
        "point card: one that scores by itself, e.g. an ace, TD or 2S; not "
        "with one card on the table; not the card just "
        "played; not once the stock is empty); not a capture"},
       [](const RuleSet& r) { return std::string(OnOff(r.pluck)); },
       [](RuleSet& r, absl::string_view v) {
         return ParseBool("pluck", v, &r.pluck);
       }},
      {{"revision", "1, 2, 3", "3",
        "the readings of the rules: 3 the current; 2 those before issue #23; "
        "1 those before issue #13 "
        "(no natural build with the played card alone, builds_in_sums=never "
        "unless stated, v3 without its capture rule, ...; kept so that "
        "older records replay as played; a record's rules without revision "
        "are 1)"},
       [](const RuleSet& r) { return absl::StrCat(r.revision); },
       [](RuleSet& r, absl::string_view v) {
         return ParseInt("revision", v, 1, RuleSet::kRevision, &r.revision);
       }},
  };
  return *options;
}

// The presets: a name, the options that make it (applied to the standard
// game) and a line for players. The order is the order of PresetNames().
struct PresetEntry {
  absl::string_view name;
  absl::string_view options;
  absl::string_view meaning;
};

const std::vector<PresetEntry>& Presets() {
  static const std::vector<PresetEntry>* const presets =
      new std::vector<PresetEntry>{
          {"standard", "", "the standard game (every option at its default)"},
          // Deal, scoring and game flow (docs/rules.md, *The deal*, *Scoring*).
          {"portuguese", "target=31 tie_cards=spades",
           "2 players or 4 in partnerships; to 31; a tie for most cards goes "
           "to most spades"},
          {"spade",
           "scoring=cards:3+spades:1+each_ace:1+each_spade:1+2S:1+JS:1+TD:2 "
           "target=61",
           "every spade scores 1 and JS 2 in all, besides the standard items "
           "(25 a round); to 61"},
          {"diamond",
           "pack=40 hand_size=3 scoring=cards:1+diamonds:1+all_aces:2+7D:1 "
           "target=11",
           "40 cards, 3 each; most cards 1, most diamonds 1, 7D 1, all four "
           "aces 2, sweeps 1 (5 a round); to 11"},
          {"five_players", "players=5 remove=2H+2D+2C last_deal_extra=1",
           "5 players without 2H 2D 2C: 4 each, then 5 each on the last deal"},
          {"draw", "draw=on",
           "one deal of 4 each; after each play the player draws from the "
           "stock while it lasts"},
          {"initial_pairs", "initial_pairs=on",
           "pairs on the first table go at once to the first player to move"},
          {"california",
           "deal=singles sweeps=off match=deal_rounds face_capture=any "
           "face_builds=off multiple_builds=off",
           "2, 3, 4 or 6 players, dealt one at a time; face cards pair any "
           "number, no face builds, no multiple builds, no sweeps; each "
           "player deals twice and the highest total wins"},
          // Move-level variants (docs/rules.md, *Move-level variants*).
          {"royal",
           "card_values=royal ace_high=on max_build=14 sweeps=off "
           "game_end=highest_total target=21",
           "J=11, Q=12, K=13 sum and build; an ace counts 1 or 14 as its "
           "player declares; no sweeps; the highest total at 21 wins"},
          {"buckeye",
           "card_values=royal ace_high=on max_build=14 sweeps=off "
           "game_end=highest_total target=21 dual_ten=on",
           "royal, and TD counts 10 or 11"},
          {"trailing_royals", "face_capture=any sweeps=off",
           "face cards pair any number of their rank and build naturally; no "
           "sweeps"},
          {"pluck", "pluck=on",
           "once per deal a player may also pluck one loose non-point card"},
          {"michigan",
           "defaults_cost=2 sweeps=2 sudden_death=on instant_limit=3",
           "breaking a builder rule is legal but gives the other side 2 at "
           "once; sweeps 2, scored when made; three instant scores against "
           "one side end the round"},
          {"face_four", "face_capture=four",
           "a face card takes one of its rank, or all four when it gathers "
           "them"},
          {"five_spades", "five_spades_sweep=on",
           "trailing 5S takes the whole table as a sweep"},
          // Related games, each its own rules module (docs/rules.md, *Related
          // games*).
          {"callabra", "game=callabra",
           "Callabra: 3 cards each, 5 to the table; take one card of the same "
           "value, or one worth the sum of two hand cards; clearing the table "
           "wins, else most cards"},
          {"tablanette", "game=tablanette",
           "Tablanette: 6 cards each; numerals take groups, Q and K their "
           "rank, a jack the whole table; cards 3, each face, TD 2, 2S 1, "
           "aces, sweeps; to 21"},
      };
  return *presets;
}

}  // namespace

absl::StatusOr<RuleSet> RuleSet::Preset(absl::string_view name) {
  for (const PresetEntry& p : Presets()) {
    if (p.name != name) continue;
    RuleSet rules;
    for (absl::string_view word :
         absl::StrSplit(p.options, ' ', absl::SkipEmpty())) {
      const size_t eq = word.find('=');
      if (absl::Status s = rules.Set(word.substr(0, eq), word.substr(eq + 1));
          !s.ok()) {
        return s;  // a broken table entry; the tests parse every preset
      }
    }
    return rules;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown rule preset '", name,
                   "' (presets: ", absl::StrJoin(PresetNames(), ", "), ")"));
}

std::vector<std::string> RuleSet::PresetNames() {
  std::vector<std::string> names;
  for (const PresetEntry& p : Presets()) names.emplace_back(p.name);
  return names;
}

std::vector<PresetDoc> PresetDocs() {
  std::vector<PresetDoc> docs;
  for (const PresetEntry& p : Presets()) {
    docs.push_back({p.name, p.options, p.meaning});
  }
  return docs;
}

namespace {

// Parse and ParseRecorded: a text without `revision=` is read as
// `unstated_revision`.
absl::StatusOr<RuleSet> ParseText(absl::string_view text,
                                  int unstated_revision) {
  RuleSet rules;
  bool first = true;
  bool revision_stated = false, sums_stated = false, raise_stated = false;
  for (absl::string_view word :
       absl::StrSplit(text, absl::ByAnyChar(" ,\t"), absl::SkipEmpty())) {
    auto eq = word.find('=');
    if (eq == absl::string_view::npos) {
      if (!first) {
        return absl::InvalidArgumentError(
            absl::StrCat("rules: '", word,
                         "' must come first (a preset) or be option=value"));
      }
      absl::StatusOr<RuleSet> preset = RuleSet::Preset(word);
      if (!preset.ok()) return preset.status();
      rules = *preset;
    } else {
      const absl::string_view option = word.substr(0, eq);
      revision_stated |= option == "revision";
      sums_stated |= option == "builds_in_sums";
      raise_stated |= option == "raise_with_table";
      absl::Status s = rules.Set(option, word.substr(eq + 1));
      if (!s.ok()) return s;
    }
    first = false;
  }
  if (!revision_stated) rules.revision = unstated_revision;
  // Revision 1 had builds_in_sums=never by default.
  if (rules.revision < 2 && !sums_stated) {
    rules.builds_in_sums = BuildsInSums::kNever;
  }
  // Before revision 3 the played card alone raised a build.
  if (rules.revision < 3 && !raise_stated) rules.raise_with_table = false;
  absl::Status valid = rules.Validate();
  if (!valid.ok()) return valid;
  return rules;
}

}  // namespace

absl::StatusOr<RuleSet> RuleSet::Parse(absl::string_view text) {
  return ParseText(text, kRevision);
}

absl::StatusOr<RuleSet> RuleSet::ParseRecorded(absl::string_view text) {
  return ParseText(text, 1);
}

absl::Status RuleSet::Set(absl::string_view option, absl::string_view value) {
  for (const Option& o : Options()) {
    if (o.doc.name == option) return o.set(*this, value);
  }
  std::vector<absl::string_view> names;
  for (const Option& o : Options()) names.push_back(o.doc.name);
  return absl::InvalidArgumentError(
      absl::StrCat("unknown rule option '", option,
                   "' (options: ", absl::StrJoin(names, ", "), ")"));
}

std::string RuleSet::ToString() const {
  std::string out;
  for (const Option& o : Options()) {
    if (!out.empty()) out.push_back(' ');
    absl::StrAppend(&out, o.doc.name, "=", o.get(*this));
  }
  return out;
}

absl::Status RuleSet::Validate() const {
  if (players < 2 || players > 6) {
    return absl::InvalidArgumentError("players must be 2 to 6");
  }
  if (partnerships && players != 4) {
    return absl::InvalidArgumentError("partnerships need 4 players");
  }
  if (call_out && players != 2) {
    return absl::InvalidArgumentError("call_out is for 2 players only");
  }
  if (game != GameKind::kCassino && call_out) {
    return absl::InvalidArgumentError("call_out is a Cassino option");
  }
  if (game == GameKind::kCallabra && partnerships) {
    return absl::InvalidArgumentError("Callabra is played without partners");
  }
  if (game != GameKind::kCassino) {
    // The related games deal their own way from the whole pack.
    const RuleSet standard;
    if (pack != standard.pack || !removed.empty() ||
        hand_size != standard.hand_size || last_deal_extra != 0 ||
        !(scoring == standard.scoring) || tie_cards != standard.tie_cards ||
        draw || initial_pairs || sudden_death || score_as_captured ||
        match != standard.match) {
      return absl::InvalidArgumentError(
          "pack, remove, hand_size, last_deal_extra, scoring, tie_cards, "
          "draw, initial_pairs, sudden_death and match are Cassino options; "
          "the related games keep their defaults");
    }
    if (players > 4) {
      return absl::InvalidArgumentError(
          "the related games are for 2 to 4 players");
    }
    // Revision 3: the Cassino move options too (revision 2 accepted them,
    // without effect or with Cassino's, and its records keep them).
    if (revision >= 3 &&
        (deal != standard.deal || face_capture != standard.face_capture ||
         builds_in_sums != standard.builds_in_sums ||
         multi_build_absorb != standard.multi_build_absorb ||
         own_raise != standard.own_raise ||
         RaiseWithTable() != standard.raise_with_table ||
         builder_obligation != standard.builder_obligation ||
         all_eleven != standard.all_eleven ||
         !(card_values == standard.card_values) ||
         max_build != standard.max_build || ace_high || dual_ten ||
         multiple_builds != standard.multiple_builds ||
         face_builds != standard.face_builds || five_spades_sweep ||
         defaults_cost != 0 || instant_limit != 0 || pluck)) {
      return absl::InvalidArgumentError(
          "deal, face_capture, builds_in_sums, multi_build_absorb, own_raise, "
          "raise_with_table, builder_obligation, all_eleven and the move-level "
          "variant options "
          "are Cassino options; the related games keep their defaults");
    }
  }
  if (game == GameKind::kTablanette && players == 3) {
    return absl::InvalidArgumentError(
        "Tablanette is for 2 or 4 players (6 cards each must share out the "
        "48 cards left after the table)");
  }
  if (game == GameKind::kCassino) {
    // Deal, scoring and game flow.
    const CardSet base =
        pack == 40 ? CardSet::FullDeck() - CardSet::OfRank(kJack) -
                         CardSet::OfRank(kQueen) - CardSet::OfRank(kKing)
                   : CardSet::FullDeck();
    if (!base.contains(removed)) {
      return absl::InvalidArgumentError(
          absl::StrCat("remove: ", (removed - base).ToString(), " not in the ",
                       pack, "-card pack"));
    }
    const int cards = Pack().size();
    const int first_deal = kTableDeal + players * hand_size;
    if (cards < first_deal) {
      return absl::InvalidArgumentError(absl::StrCat(
          "the pack has ", cards, " cards, fewer than the first deal needs (",
          kTableDeal, " to the table and ", hand_size, " to each of ", players,
          " players)"));
    }
    if (draw) {
      if (last_deal_extra != 0) {
        return absl::InvalidArgumentError(
            "last_deal_extra needs deals; with draw=on there is only one");
      }
    } else {
      const int per_deal = players * hand_size;
      const int rest = cards - kTableDeal - players * last_deal_extra;
      if (rest < per_deal || rest % per_deal != 0) {
        return absl::InvalidArgumentError(absl::StrCat(
            "the pack does not divide into deals: ", cards, " cards less ",
            kTableDeal, " to the table leave ", cards - kTableDeal,
            ", which is not "
            "a whole number of deals of ",
            hand_size, " to each of ", players, " players",
            last_deal_extra > 0 ? absl::StrCat(" plus ", last_deal_extra,
                                               " more each on the last")
                                : "",
            " (change hand_size, last_deal_extra, pack or remove)"));
      }
    }
    if (match == Match::kDealRounds && (sudden_death || call_out)) {
      return absl::InvalidArgumentError(
          "match=deal_rounds has no target: sudden_death and call_out need "
          "match=target");
    }
    if (score_as_captured && call_out) {
      return absl::InvalidArgumentError(
          "call_out counts the point cards of the round itself: it does not "
          "go with score_as_captured");
    }
  }
  // Move-level variant options.
  const bool royal = card_values == CardValues::kRoyal;
  if (ace_high && !royal) {
    return absl::InvalidArgumentError("ace_high needs card_values=royal");
  }
  if (max_build != 10 && max_build != 13 && max_build != 14) {
    return absl::InvalidArgumentError("max_build must be 10, 13 or 14");
  }
  if (max_build > 10 && !royal) {
    return absl::InvalidArgumentError(
        absl::StrCat("max_build=", max_build, " needs card_values=royal"));
  }
  if (max_build == 14 && !ace_high) {
    return absl::InvalidArgumentError("max_build=14 needs ace_high");
  }
  if (royal && face_capture != FaceCapture::kOne) {
    return absl::InvalidArgumentError(
        "face_capture is for faces without value: with card_values=royal "
        "faces capture by value (leave face_capture=one)");
  }
  return absl::OkStatus();
}

CardSet RuleSet::Pack() const {
  CardSet cards = CardSet::FullDeck();
  if (pack == 40) {
    cards -= CardSet::OfRank(kJack) | CardSet::OfRank(kQueen) |
             CardSet::OfRank(kKing);
  }
  return cards - removed;
}

int RuleSet::DealsPerRound() const {
  // Tablanette: 4 to the table, then 6 to each player per deal.
  if (game == GameKind::kTablanette) return (kDeckSize - 4) / (6 * players);
  // Callabra: refills until the stock is gone (game.h); at most this many.
  if (game == GameKind::kCallabra) {
    return (kDeckSize - 5 + 3 * players - 1) / (3 * players);
  }
  if (draw) return 1;
  // After the table's 4 cards, hand_size to each player per deal and
  // last_deal_extra more each on the last (Validate checks it divides).
  // (The card count without a popcount: this runs at every deal.)
  const int cards = pack - (removed.empty() ? 0 : removed.size());
  return (cards - kTableDeal - players * last_deal_extra) /
         (hand_size * players);
}

std::vector<OptionDoc> OptionDocs() {
  std::vector<OptionDoc> docs;
  for (const Option& o : Options()) docs.push_back(o.doc);
  return docs;
}

}  // namespace cassino
