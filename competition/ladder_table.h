// A ladder's ratings and leaderboard, folded from its finished games: the
// one computation that the referee's live ladder (referee/ladder.h) and
// `cassino stats --ladder` and the viewer's ladder page (reading the
// records) share, so that they agree exactly (docs/ladder.md).
//
// Contract:
//  * A rated bot is a bot name of the form ACCOUNT@VERSION (LadderBotName):
//    each version of an account is rated on its own, from scratch.
//  * A game is rated when it finished (not aborted) and each of its sides
//    has at least one bot and no bot sits on two sides. Its sides' places
//    are competition/finishing_order.h's OutcomeRanks.
//  * The order of updates is the order of (finished_us, game_id): the end
//    event's time in the record, then the game id (byte order) for games
//    that ended in the same microsecond. Add() may be called in any order:
//    a game that sorts before games already applied makes the table apply
//    them again in that order, so the result is always the fold over the
//    games sorted by that key.
//  * Memory: games are kept only while they might still be overtaken
//    (Settle drops those that ended before a time); a game that sorts
//    before the settled ones is refused (kStale) and the caller rebuilds
//    the table from the records.
//
// Not thread-safe: one owner.

#ifndef CASSINO_COMPETITION_LADDER_TABLE_H_
#define CASSINO_COMPETITION_LADDER_TABLE_H_

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "competition/rating.h"

namespace cassino::competition {

// "ACCOUNT@VERSION"; and back (nullopt unless the name has an '@' with
// text on both sides: account names have none).
std::string LadderBotName(absl::string_view account, absl::string_view version);
struct BotVersion {
  std::string account;
  std::string version;
};
std::optional<BotVersion> SplitBotName(absl::string_view bot);

// One finished game, as its record gives it.
struct LadderGame {
  std::string game_id;
  int64_t created_us = 0;
  int64_t finished_us = 0;  // the end event's time (games.finished_us)
  // The bot names of each side (a side of a partnership has two; the same
  // name twice on one side counts once).
  std::vector<std::vector<std::string>> sides;
  int winner = -1;          // side; -1: nobody won
  std::vector<int> totals;  // final totals per side
};

// One rated bot version and its results.
struct Standing {
  std::string bot;  // ACCOUNT@VERSION
  std::string account;
  std::string version;
  Rating rating;
  double conservative = 0;  // rating.mu - k * rating.sigma
  int games = 0;
  int wins = 0;  // its side won / another side won / nobody won
  int losses = 0;
  int draws = 0;
  int64_t first_game_us = 0;  // finished_us of its first and last games
  int64_t last_game_us = 0;
  // Its latest game by creation (created_us, then game id): the current
  // version of an account is the one whose latest game was created last.
  int64_t last_created_us = 0;
  std::string last_created_game;
  bool current = false;
  int rank = 0;  // 1-based place in the leaderboard it was listed in
};

// A bot's rating after one of its games.
struct HistoryPoint {
  std::string game_id;
  int64_t finished_us = 0;
  Rating rating;
};

class LadderTable {
 public:
  // `history`: keep every bot's rating after each of its games.
  explicit LadderTable(RatingModel model, bool history = false);

  enum class Added {
    kApplied,      // rated (or the table refolded with it)
    kNotRated,     // not a rated game (see the contract); nothing changed
    kAlreadyHere,  // this game id is in the table already
    kStale,        // it sorts before the settled games: rebuild
  };
  Added Add(LadderGame game);

  // Folds the games that ended at or before `before_us` into the settled
  // state and forgets them (and their ids). Later games that sort before
  // them are refused as kStale.
  void Settle(int64_t before_us);

  // The leaderboard: the current version of each account (all versions if
  // `all_versions`), ordered by conservative rating, then mu, both
  // descending, then bot name; rank 1, 2, ... in that order.
  std::vector<Standing> Leaderboard(bool all_versions) const;
  // One bot's standing (rank 0), if it has a rated game.
  std::optional<Standing> Find(const std::string& bot) const;
  // A bot's rating: its own, or a new one if it has no rated game.
  Rating RatingOf(const std::string& bot) const;
  // Rated games so far.
  int64_t games() const { return state_.games; }
  // The bots' histories (empty unless constructed with `history`).
  const std::map<std::string, std::vector<HistoryPoint>>& history() const {
    return state_.history;
  }
  const RatingModel& model() const { return model_; }

 private:
  using Key = std::pair<int64_t, std::string>;  // (finished_us, game_id)
  struct State {
    std::map<std::string, Standing> bots;
    std::map<std::string, std::vector<HistoryPoint>> history;
    int64_t games = 0;
  };
  // Applies one rated game to `state`.
  void Apply(const LadderGame& game, State& state) const;
  // state_ = settled_ followed by every kept game in order.
  void Refold();

  RatingModel model_;
  bool keep_history_;
  State settled_;
  std::optional<Key> settled_key_;     // the last game folded into settled_
  std::map<Key, LadderGame> pending_;  // games after settled_key_
  State state_;                        // settled_ + pending_, in order
};

}  // namespace cassino::competition

#endif  // CASSINO_COMPETITION_LADDER_TABLE_H_
