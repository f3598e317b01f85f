// What an organiser asks of a ladder and what the referee answers, as the
// core sees it (no wire type; wire_convert.h fills these from cassino.v1).
// docs/ladder.md is the user's description.

#ifndef CASSINO_REFEREE_LADDER_SPEC_H_
#define CASSINO_REFEREE_LADDER_SPEC_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "competition/ladder_table.h"
#include "competition/matchmaking.h"
#include "referee/game_spec.h"

namespace cassino::service {

// Matchmaking, rate limits and probation. In a request 0 means the
// default; in an answer every field is the value in force.
struct LadderSettings {
  int max_concurrent_games = 0;  // the ladder's games at once: 1..1024; 16
  int max_games_per_bot = 0;     // one bot's games at once: 1..64; 4
  int64_t period_ms = 0;         // the caps' window: 1 min..7 days; 1 h
  int max_pair_games = 0;        // games of a pair per period: 1..100000; 20
  int max_bot_games = 0;         // games a bot starts per period; 240
  int provisional_games = 0;     // rated games before a version is placed; 10
  int probation_faults = 0;      // faults in a row for probation: 1..100; 3
  int64_t probation_ms = 0;      // a first probation: 1 s..7 days; 10 min
  friend bool operator==(const LadderSettings&,
                         const LadderSettings&) = default;
};

struct LadderSpec {
  std::string name;   // also the label of its games
  std::string rules;  // empty: "standard"
  ClockSpec clock;
  bool duplicate = false;  // two players only
  LadderSettings settings;
};

enum class LadderStatus { kOpen, kPaused, kClosed };
std::string LadderStatusName(LadderStatus status);  // "open", ...

// A ladder as an organiser sees it. Times are Unix microseconds.
struct LadderInfo {
  LadderSpec spec;  // defaults filled in, every clock field set
  LadderStatus status = LadderStatus::kOpen;
  std::string reason;  // why it was paused or closed
  int64_t created_us = 0;
  int64_t changed_us = 0;
  int bots_connected = 0;  // accounts in the ladder's lobby now
  int games_running = 0;   // including those being created
  int games_unrated = 0;   // ended, finished and not yet in games_rated
  int64_t games_rated = 0;
  int versions = 0;  // versions ever joined
  int on_probation = 0;
};

// A leaderboard row: a rated version and how it stands now.
struct LeaderboardRow {
  competition::Standing standing;
  bool provisional = false;  // fewer rated games than provisional_games
  bool connected = false;    // its account is in the ladder with it now
  bool on_probation = false;
  std::string probation_reason;  // the last probation's, even if over
  int64_t probation_until_us = 0;
};

struct LeaderboardQuery {
  std::string ladder;
  int page_size = 0;  // 0: the default
  std::string page_token;
  bool all_versions = false;
};

struct LeaderboardPage {
  std::vector<LeaderboardRow> rows;
  std::string next_page_token;  // empty on the last page
  int total = 0;                // rows in the whole leaderboard
  int64_t games_rated = 0;
};

// The settings with defaults filled in and checked: InvalidArgument naming
// the field ("spec.settings.period_ms") for one out of range.
absl::StatusOr<LadderSettings> SettingsOf(const LadderSettings& requested);
// The settings as the ladders table keeps them (a JSON object) and back.
std::string SettingsJson(const LadderSettings& settings);
absl::StatusOr<LadderSettings> ParseSettingsJson(const std::string& json);
// What the matchmaker takes of them, for rules of `players` seats.
competition::MatchSettings MatchSettingsOf(const LadderSettings& settings,
                                           int players, bool partnerships);

// Version names: 1 to kMaxVersionName letters, digits, '-', '_', '.'.
inline constexpr size_t kMaxVersionName = 32;
bool ValidVersionName(const std::string& version);

// The rating model every ladder uses (competition/rating.h's defaults).
competition::RatingModel LadderRatingModel();

}  // namespace cassino::service

#endif  // CASSINO_REFEREE_LADDER_SPEC_H_
