// Who plays whom next on a ladder: a pure, deterministic matchmaker
// (docs/ladder.md, *Matchmaking*). The referee's ladder (referee/ladder.h)
// calls it with the bots free to play and what it remembers of the games
// started; the same inputs always give the same matches.
//
// Contract, for each call of MakeMatches:
//  * Only candidates with a free slot are matched, each at most once per
//    call, and never with another version of the same account (nor with
//    itself): the seats of a match name distinct accounts.
//  * Rate limit: an account that started max_bot_games games in the last
//    period is not matched; a pair of bots (versions) that played
//    max_pair_games games in the last period (pair saturation) is not
//    matched again.
//  * Fairness: candidates are taken as anchors in the order of the fewest
//    games started in the period, then the longest since their last start,
//    then the account name, so that no bot, however many games it can play
//    at once, takes the others' turns.
//  * Closeness: an anchor's opponents are chosen by the lowest cost:
//    min(|mu_a - mu_b| / beta, 3) (close ratings first; beyond three betas
//    all are equally far), plus the pair's games in the period over
//    max_pair_games, times 2 (pairs that have played a lot give way),
//    minus 1.5 if the accounts have never met (everyone meets everyone),
//    plus half the opponent's games in the period over one more than the
//    busiest candidate's (the less busy first). With more than two
//    players the distance is to the mean of the bots chosen so far and the
//    pair terms are summed over them. A provisional anchor (fewer than
//    provisional_games rated games) aims instead at a spread of ratings: its
//    n-th game targets the quantile frac(0.5 + n * 0.618034) of the other
//    candidates' means, so that its first games sample the whole range and
//    place it quickly. Ties go to the smaller account name.
//  * Seats: two players: seat 0 goes to the bot with the lower
//    seat_balance (seat-0 games minus seat-1 games), then the anchor. More
//    players: the match's bots in account order, rotated by the anchor's
//    games in the period. Partnerships (4 players): the split into two
//    teams whose summed means are closest, the team with the anchor at
//    seats 0 and 2.
//  * Duplicate (two players only): each match stands for a pair of games,
//    the second with the seats swapped; the caller counts it as two games
//    in the history.

#ifndef CASSINO_COMPETITION_MATCHMAKING_H_
#define CASSINO_COMPETITION_MATCHMAKING_H_

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "competition/rating.h"

namespace cassino::competition {

struct MatchSettings {
  int players = 2;            // seats per game
  bool partnerships = false;  // 4 players in two teams: seats 0+2, 1+3
  int64_t period_ms = 3'600'000;
  int max_pair_games = 20;  // games of a pair of accounts per period
  int max_bot_games = 240;  // games a bot starts per period
  int provisional_games = 10;
};

// A bot free to play now.
struct Candidate {
  std::string account;
  std::string bot;     // ACCOUNT@VERSION
  int free_slots = 0;  // games it may start now
  Rating rating;
  int rated_games = 0;   // of this version
  int seat_balance = 0;  // seat-0 games minus seat-1 games (two players)
};

// The games started, as the matchmaker counts them: per account within the
// period (the rate limit is an account's), and per pair of bots (versions:
// a new version is a new bot, with pairs of its own) within the period and
// ever. Times are Unix microseconds, given by the caller (the referee's
// clock; a test's).
class MatchHistory {
 public:
  explicit MatchHistory(int64_t period_ms) : period_us_(period_ms * 1000) {}
  // A game (or each game of a duplicate pair: call it twice) started at
  // `at_us` seating these accounts, playing these bots (per seat; empty:
  // the accounts' names).
  void Started(int64_t at_us, const std::vector<std::string>& accounts,
               const std::vector<std::string>& bots = {});
  // Forgets what started before now - period.
  void Expire(int64_t now_us);
  // An account's games in the period.
  int BotGames(const std::string& account) const;
  // Two bots' games against each other in the period, and whether they
  // ever met.
  int PairGames(const std::string& a, const std::string& b) const;
  bool Met(const std::string& a, const std::string& b) const;
  // When the account last started a game; 0 if never.
  int64_t LastStarted(const std::string& account) const;
  // Games within the period (for bounds and tests).
  size_t size() const { return started_.size(); }

 private:
  using Pair = std::pair<std::string, std::string>;  // a < b
  static Pair PairOf(const std::string& a, const std::string& b);
  const int64_t period_us_;
  struct Start {
    int64_t at_us = 0;
    std::vector<std::string> accounts;
    std::vector<std::string> bots;
  };
  std::deque<Start> started_;
  std::map<std::string, int> bot_games_;
  std::map<Pair, int> pair_games_;
  std::map<Pair, int> met_;  // ever
  std::map<std::string, int64_t> last_started_;
};

struct Match {
  std::vector<std::string> seats;     // bot names, seat 0 first
  std::vector<std::string> accounts;  // the same seats' accounts
};

// At most `max_matches` matches among `candidates` (see the contract).
std::vector<Match> MakeMatches(const MatchSettings& settings,
                               const RatingModel& model,
                               std::vector<Candidate> candidates,
                               const MatchHistory& history, int max_matches);

}  // namespace cassino::competition

#endif  // CASSINO_COMPETITION_MATCHMAKING_H_
