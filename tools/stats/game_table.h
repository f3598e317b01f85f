// The finished games of a record set as `cassino stats` reads them: one
// compact GameInfo per game, bots and rule sets interned across every
// database of the set. Internal to tools/stats (ReadStats, stats.h).
//
// Contract: GameTable::Read appends the games of one database in game-id
// order, so each database's games form one contiguous, id-sorted segment
// (the event scan's range queries rely on it). Running and aborted games
// are counted in the Summary and not kept.

#ifndef CASSINO_TOOLS_STATS_GAME_TABLE_H_
#define CASSINO_TOOLS_STATS_GAME_TABLE_H_

#include <sqlite3.h>

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "absl/status/status.h"
#include "rules/position.h"
#include "rules/rule_set.h"
#include "tools/stats/stats.h"

namespace cassino::stats::internal {

inline constexpr int kMaxSeats = 6;  // California with 6 players

enum GameState : int8_t { kRunning, kFinished, kAborted };

// One finished game.
struct GameInfo {
  std::string id;
  int64_t created_us = 0;
  int32_t rules = 0;  // index into GameTable::rules()
  int8_t players = 0;
  int8_t sides = 0;
  int8_t winner = -1;  // side, or -1
  std::array<int32_t, kMaxSeats> seat_bot{-1, -1, -1, -1, -1, -1};
  std::array<int32_t, kMaxSeats> totals{};  // final points per side
  bool have_totals = false;
  // The distinct bots that play on exactly one side, with that side.
  int8_t members = 0;
  std::array<int32_t, kMaxSeats> member_bot{};
  std::array<int8_t, kMaxSeats> member_side{};
  // Bots on two or more sides (at most half the seats).
  int8_t self_players = 0;
  std::array<int32_t, kMaxSeats / 2> self_bot{};
  std::string deck_key;  // commitment, or explicit decks; for duplicates
};

// One rules text as recorded.
struct RulesInfo {
  bool partnerships = false;
  bool selected = true;     // matches Filter::rules
  std::string canonical{};  // RulesDiff, "standard" when empty
  int64_t games = 0;        // finished games analysed
};

// Games [first, last) of GameTable::games() came from `path`.
struct Segment {
  std::string path;
  size_t first = 0;
  size_t last = 0;
};

class GameTable {
 public:
  // `wanted`: Filter::rules parsed, if set.
  GameTable(const Filter& filter, std::optional<RuleSet> wanted)
      : filter_(filter), wanted_(std::move(wanted)) {}

  // Appends the finished games of the database `db` (opened read-only from
  // `path`) matching the filter, and counts every matching game in
  // `summary`. An error names `path`.
  absl::Status Read(sqlite3* db, const std::string& path, Summary* summary);

  const std::vector<GameInfo>& games() const { return games_; }
  const std::vector<Segment>& segments() const { return segments_; }
  const std::vector<std::string>& bot_names() const { return bot_names_; }
  const std::vector<RulesInfo>& rules() const { return rules_; }

 private:
  // Hashes std::string and string_view alike (heterogeneous lookup).
  struct StringHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const {
      return std::hash<std::string_view>{}(s);
    }
  };
  using Index =
      std::unordered_map<std::string, int32_t, StringHash, std::equal_to<>>;

  int32_t InternBot(std::string_view name);
  int32_t InternRules(std::string_view text);
  // A game row: columns 0-7 of the games query.
  void StartGame(sqlite3_stmt* st);
  void AddSeat(int seat, std::string_view bot);
  // Files the pending game (if any): counted, and kept when finished.
  void FinishGame(Summary* summary);

  const Filter filter_;
  const std::optional<RuleSet> wanted_;
  std::vector<GameInfo> games_;
  std::vector<Segment> segments_;
  Index bot_index_;
  std::vector<std::string> bot_names_;
  Index rules_index_;
  std::vector<RulesInfo> rules_;
  std::vector<std::string> rules_text_;
  int32_t last_rules_ = -1;  // nearly every game has the previous one's rules

  // The game being read.
  GameInfo pending_;
  GameState pending_state_ = kRunning;
  bool have_pending_ = false;
  int pending_seats_ = 0;
  bool pending_bad_ = false;
  std::string totals_text_;
};

}  // namespace cassino::stats::internal

#endif  // CASSINO_TOOLS_STATS_GAME_TABLE_H_
