#include "referee/rules/rule_set.h"

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

constexpr std::array<Named<DealStyle>, 2> kDealNames{
    {{DealStyle::kTwos, "twos"}, {DealStyle::kSingles, "singles"}}};
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
    {{GameEnd::kCountOut, "count_out"}, {GameEnd::kHighestTotal, "highest_total"}}};
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
                       absl::string_view option, absl::string_view text, E* out) {
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
    return absl::InvalidArgumentError(absl::StrCat(
        "option ", option, ": '", text, "' is not a number from ", lo, " to ", hi));
  }
  *out = v;
  return absl::OkStatus();
}

absl::string_view OnOff(bool b) { return b ? "on" : "off"; }

// Every option: how to print it and how to set it. The order here is the
// order of RuleSet::ToString().
struct Option {
  OptionDoc doc;
  std::function<std::string(const RuleSet&)> get;
  std::function<absl::Status(RuleSet&, absl::string_view)> set;
};

const std::vector<Option>& Options() {
  static const std::vector<Option>* const options = new std::vector<Option>{
      {{"players", "2, 3, 4", "2", "number of players"},
       [](const RuleSet& r) { return absl::StrCat(r.players); },
       [](RuleSet& r, absl::string_view v) {
         return ParseInt("players", v, 2, 4, &r.players);
       }},
      {{"partnerships", "on, off", "off",
        "4 players as two teams, partners opposite (seats 0+2 and 1+3); "
        "captures, sweeps and scores are pooled per team"},
       [](const RuleSet& r) { return std::string(OnOff(r.partnerships)); },
       [](RuleSet& r, absl::string_view v) {
         return ParseBool("partnerships", v, &r.partnerships);
       }},
      {{"deal", "twos, singles", "twos",
        "cards are dealt two or one at a time"},
       [](const RuleSet& r) { return std::string(NameOf(kDealNames, r.deal)); },
       [](RuleSet& r, absl::string_view v) {
         return ParseEnum(kDealNames, "deal", v, &r.deal);
       }},
      {{"face_capture", "one, all, four, any", "one",
        "a face card takes exactly one loose card of its rank; all: or all "
        "loose cards of its rank; four: or every card of its rank on the "
        "table when that gathers all four, with natural face builds while "
        "holding every other card of the rank; any: any number of loose "
        "cards of its rank, with natural face builds while holding another"},
       [](const RuleSet& r) {
         return std::string(NameOf(kFaceNames, r.face_capture));
       },
       [](RuleSet& r, absl::string_view v) {
         return ParseEnum(kFaceNames, "face_capture", v, &r.face_capture);
       }},
      {{"builds_in_sums", "never, opponents_single", "never",
        "whether an opponent of a single build's controller may capture it "
        "as part of a sum"},
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
      // Move-level variant options (VARIANTS.md).
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
        "legal but costs the mover this many points at once"},
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
      {{"pluck", "on, off", "off",
        "once per deal each player may, before or after playing a card in "
        "the same turn, take one loose table card into their pile (never an "
        "ace, TD or 2S; not with one card on the table; not the card just "
        "played; not once the stock is empty); not a capture"},
       [](const RuleSet& r) { return std::string(OnOff(r.pluck)); },
       [](RuleSet& r, absl::string_view v) {
         return ParseBool("pluck", v, &r.pluck);
       }},
  };
  return *options;
}

}  // namespace

absl::StatusOr<RuleSet> RuleSet::Preset(absl::string_view name) {
  if (name == "standard") return Standard();
  // Move-level variants (VARIANTS.md).
  if (name == "royal" || name == "buckeye") {
    RuleSet r;
    r.card_values = CardValues::kRoyal;
    r.ace_high = true;
    r.max_build = 14;
    r.sweep_points = 0;
    r.game_end = GameEnd::kHighestTotal;
    r.target = 21;
    r.dual_ten = name == "buckeye";
    return r;
  }
  if (name == "trailing_royals") {
    RuleSet r;
    r.face_capture = FaceCapture::kAny;
    r.sweep_points = 0;
    return r;
  }
  if (name == "face_four") {
    RuleSet r;
    r.face_capture = FaceCapture::kFour;
    return r;
  }
  if (name == "five_spades") {
    RuleSet r;
    r.five_spades_sweep = true;
    return r;
  }
  if (name == "pluck") {
    RuleSet r;
    r.pluck = true;
    return r;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown rule preset '", name,
                   "' (presets: ", absl::StrJoin(PresetNames(), ", "), ")"));
}

std::vector<std::string> RuleSet::PresetNames() {
  return {"standard",
          // Move-level variants.
          "royal", "buckeye", "trailing_royals", "face_four", "five_spades",
          "pluck"};
}

absl::StatusOr<RuleSet> RuleSet::Parse(absl::string_view text) {
  RuleSet rules;
  bool first = true;
  for (absl::string_view word :
       absl::StrSplit(text, absl::ByAnyChar(" ,\t"), absl::SkipEmpty())) {
    auto eq = word.find('=');
    if (eq == absl::string_view::npos) {
      if (!first) {
        return absl::InvalidArgumentError(absl::StrCat(
            "rules: '", word, "' must come first (a preset) or be option=value"));
      }
      absl::StatusOr<RuleSet> preset = Preset(word);
      if (!preset.ok()) return preset.status();
      rules = *preset;
    } else {
      absl::Status s = rules.Set(word.substr(0, eq), word.substr(eq + 1));
      if (!s.ok()) return s;
    }
    first = false;
  }
  absl::Status valid = rules.Validate();
  if (!valid.ok()) return valid;
  return rules;
}

absl::Status RuleSet::Set(absl::string_view option, absl::string_view value) {
  for (const Option& o : Options()) {
    if (o.doc.name == option) return o.set(*this, value);
  }
  std::vector<absl::string_view> names;
  for (const Option& o : Options()) names.push_back(o.doc.name);
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown rule option '", option, "' (options: ", absl::StrJoin(names, ", "),
      ")"));
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
  if (players < 2 || players > 4) {
    return absl::InvalidArgumentError("players must be 2, 3 or 4");
  }
  if (partnerships && players != 4) {
    return absl::InvalidArgumentError("partnerships need 4 players");
  }
  if (call_out && players != 2) {
    return absl::InvalidArgumentError("call_out is for 2 players only");
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

int RuleSet::DealsPerRound() const {
  // 52 cards: 4 to the table, then 4 to each player per deal.
  return (kDeckSize - kTableDeal) / (kHandSize * players);
}

std::vector<OptionDoc> OptionDocs() {
  std::vector<OptionDoc> docs;
  for (const Option& o : Options()) docs.push_back(o.doc);
  return docs;
}

}  // namespace cassino
