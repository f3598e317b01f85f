// The rule set: every option of RULES.md as one value type, plus presets.
//
// A RuleSet is plain data. Its text form is a preset name followed by
// `option=value` words, e.g. `standard builder_obligation=v2 target=11`;
// `ToString()` prints every option in a fixed order so that a record states
// the rules completely. Options that players disagree about are named here
// exactly as in RULES.md; `OptionDocs()` describes each for `--help` and the
// documentation.
//
// Card values come from the rule set (`CardValue`), never from constants in
// the engine, so that later variants can give face cards values.

#ifndef CASSINO_REFEREE_RULES_RULE_SET_H_
#define CASSINO_REFEREE_RULES_RULE_SET_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "referee/rules/card.h"

namespace cassino {

// Which game is played: Cassino (RULES.md) or one of the related games of
// VARIANTS.md, each its own rules module (callabra.h, tablanette.h).
enum class GameKind { kCassino, kCallabra, kTablanette };
// How the cards are dealt (RULES.md §3).
enum class DealStyle { kTwos, kSingles };
// What a face card may take (RULES.md §4).
enum class FaceCapture { kOne, kAll };
// Whether a build may be part of a sum when capturing (RULES.md §4).
enum class BuildsInSums { kNever, kOpponentsSingle };
// Whether a player may raise a build they control (RULES.md §4).
enum class OwnRaise { kAllowed, kNeedsOldValue, kForbidden };
// What a player who controls a build must do (RULES.md §5).
enum class BuilderObligation { kV1, kV2, kV3, kNone };
// What taking all 11 base points in a round earns (RULES.md §6).
enum class AllEleven { kNone, kBonus, kSkunk, kWin };
// How the winner is decided when a round ends (RULES.md §7).
enum class GameEnd { kCountOut, kHighestTotal };

struct RuleSet {
  GameKind game = GameKind::kCassino;  // the other options are Cassino's
  int players = 2;             // 2, 3 or 4
  bool partnerships = false;   // 4 players as two teams (0+2 vs 1+3)
  DealStyle deal = DealStyle::kTwos;
  FaceCapture face_capture = FaceCapture::kOne;
  BuildsInSums builds_in_sums = BuildsInSums::kNever;
  bool multi_build_absorb = true;
  OwnRaise own_raise = OwnRaise::kAllowed;
  BuilderObligation builder_obligation = BuilderObligation::kV1;
  int sweep_points = 1;        // 0 = sweeps off, 1 or 2
  AllEleven all_eleven = AllEleven::kNone;
  int target = 21;
  GameEnd game_end = GameEnd::kCountOut;
  bool call_out = false;       // 2 players only

  // The standard game's defaults (RULES.md).
  static RuleSet Standard() { return RuleSet{}; }

  // Parses `[preset] [option=value ...]` separated by spaces or commas.
  // Unknown presets, options and values are errors naming the culprit.
  static absl::StatusOr<RuleSet> Parse(absl::string_view text);
  // A preset by name (`standard`).
  static absl::StatusOr<RuleSet> Preset(absl::string_view name);
  static std::vector<std::string> PresetNames();

  // Sets one option from its text form.
  absl::Status Set(absl::string_view option, absl::string_view value);
  // Every option as `name=value`, in a fixed order, space separated.
  std::string ToString() const;
  // Checks the combination (player count, partnerships, call_out...).
  absl::Status Validate() const;

  // The value of a card in sums and builds; 0 means the card never takes
  // part in a sum or a build (face cards in the standard game).
  constexpr int CardValue(Card c) const {
    return c.rank() <= kTen ? c.rank() : 0;
  }
  // The highest value a build may have.
  constexpr int MaxBuild() const { return 10; }

  // A side is a player, or a team in partnerships.
  int Sides() const { return partnerships ? 2 : players; }
  int SideOf(int seat) const { return partnerships ? seat % 2 : seat; }
  int DealsPerRound() const;
  static constexpr int kHandSize = 4;
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

}  // namespace cassino

#endif  // CASSINO_REFEREE_RULES_RULE_SET_H_
