// `cassino stats DB... --ladder NAME`: a ladder's leaderboard recomputed
// from the records alone (docs/ladder.md, *Auditing*), with what the
// viewer's ladder page shows besides: each version's rating after each of
// its games, the recent games, and the pairs played.
//
// The computation is the referee's own: the same conversion of each game's
// summary (recorder/ladder_record.h) folded by the same ladder table
// (competition/ladder_table.h) in the same order, (finished_us, game_id),
// so that the leaderboard equals the referee's GetLeaderboard to the last
// bit once no game of the ladder is running.

#ifndef CASSINO_TOOLS_STATS_LADDER_H_
#define CASSINO_TOOLS_STATS_LADDER_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "competition/ladder_table.h"
#include "nlohmann/json.hpp"
#include "recorder/ladder_rows.h"
#include "tools/stats/stats.h"

namespace cassino::stats {

// A game of the ladder as the page lists it.
struct LadderGameRow {
  std::string game_id;
  std::vector<std::string> bots;  // per seat
  std::string status;             // running, finished, aborted
  int winner = -1;                // side
  std::string end_reason;
  std::vector<int> totals;
  int64_t created_us = 0;
  int64_t finished_us = 0;
};

// Two versions' games against each other (on different sides).
struct LadderPair {
  std::string a;  // a < b
  std::string b;
  int games = 0;
  int a_wins = 0;  // a's side placed ahead of b's
  int b_wins = 0;
  int draws = 0;
};

struct LadderStats {
  std::string ladder;
  std::optional<recorder::LadderRow> row;  // when a database has it
  int provisional_games = 10;              // from its settings (or 10)
  competition::RatingModel model;
  std::vector<competition::Standing> leaderboard;  // ranked
  int64_t games_rated = 0;
  int games_running = 0;
  int games_aborted = 0;
  // With `details`: every version's history, the last games (newest
  // first, at most `recent`), the pairs, and the bots' health rows.
  std::map<std::string, std::vector<competition::HistoryPoint>> history;
  std::vector<LadderGameRow> recent;
  std::vector<LadderPair> pairs;
  std::vector<recorder::LadderBotRow> health;
};

struct LadderOptions {
  bool all_versions = false;
  bool details = false;
  int recent = 50;
};

absl::StatusOr<LadderStats> ReadLadder(
    const std::vector<std::string>& databases, const std::string& ladder,
    const LadderOptions& options = LadderOptions());

// A leaderboard row as JSON (stats --ladder --format json, the viewer):
// rank, bot, account, version, mu, sigma, conservative, games, wins,
// losses, draws, provisional, current, last_game_us.
nlohmann::json StandingJson(const competition::Standing& standing,
                            int provisional_games);
// A pair as JSON: a, b, games, a_wins, b_wins, draws.
nlohmann::json PairJson(const LadderPair& pair);

// text: the leaderboard (and with details, pairs and recent games); csv:
// sections leaderboard (and pairs, recent); json: one object. NotFound-ish
// callers check games_rated themselves.
std::string FormatLadder(const LadderStats& stats, Format format);

}  // namespace cassino::stats

#endif  // CASSINO_TOOLS_STATS_LADDER_H_
