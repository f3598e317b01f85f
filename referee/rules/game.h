// A complete game of Cassino: deals, turns, rounds, scoring and the end.
//
// Life cycle: Game::Create deals round 1 and the game waits for the move of
// `to_move()`. Each Play() applies one move; when every hand is empty the
// next deal follows at once, and after the last deal of a round the cards
// left on the table go to the last side that captured (not a sweep), the
// round is scored and the next round is dealt, unless the game is over.
// So between calls the game is always either waiting for a move or over.
//
// Dealing (RULES.md §3): the dealer of round 1 is the last seat and the deal
// passes left each round; the player left of the dealer plays first in every
// deal. With deal=twos each player in turn gets 2 cards, the table getting 2
// just before the dealer on the first deal, twice over; deal=singles deals
// the same order one card at a time.
//
// Decks come from the seed (deal.h) or are given explicitly; explicit decks
// are used in order, round 1 first, and then again from the first.
//
// The game end (RULES.md §7): with count_out the round's items are added in
// count-out order and the first side to reach the target wins at once (the
// items after the winning one are not added to the totals); with
// highest_total every item is added and, if any side reached the target, the
// side with the highest total wins (a tie for highest plays another round).
// Move-level variants: under defaults_cost a move that breaks the builder
// rules takes the points from the mover's total at once (PlayedMove's
// outcome.penalty); under pluck the plucked card goes to the mover's pile
// (not a capture), each deal clears who has plucked and the position says
// when the stock is empty; a five-spades trail that takes the table counts
// as a capture (and a sweep).
//
// A forfeit ends the game: with two sides the other side wins, otherwise
// the remaining side with the highest total (lowest side on a tie).

#ifndef CASSINO_REFEREE_RULES_GAME_H_
#define CASSINO_REFEREE_RULES_GAME_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "referee/rules/adjudicator.h"
#include "referee/rules/deal.h"
#include "referee/rules/legal_moves.h"
#include "referee/rules/move.h"
#include "referee/rules/position.h"
#include "referee/rules/rule_set.h"
#include "referee/rules/scoring.h"

namespace cassino {

// Where each round's deck comes from.
struct DeckSource {
  std::optional<Seed> seed;
  std::vector<Deck> decks;  // explicit decks; used when non-empty

  static DeckSource FromSeed(const Seed& seed) { return {seed, {}}; }
  static DeckSource Explicit(std::vector<Deck> decks) {
    return {std::nullopt, std::move(decks)};
  }
  bool is_explicit() const { return !decks.empty(); }
  Deck DeckFor(int round) const;
};

// One accepted move, as every seat saw it.
struct PlayedMove {
  int turn = 0;   // 0-based count of moves in the game
  int round = 0;  // 1-based
  int deal = 0;   // 1-based within the round
  int seat = 0;
  Move move;
  MoveOutcome outcome;
};

struct RoundResult {
  int round = 0;
  int dealer = 0;
  CardSet leftovers;      // table cards given to the last capturer
  int leftover_side = -1; // -1: nobody captured
  int builds_left = 0;    // builds still on the table when the round ended
  RoundScore score;
  std::vector<int> totals_before;
  std::vector<int> totals_after;
};

enum class GameEndReason {
  kTarget,        // count_out: a side reached the target
  kHighestTotal,  // highest_total
  kCallOut,       // a call-out was judged
  kAllEleven,     // all_eleven=win or skunk
  kForfeit,       // a seat forfeited (time, illegal moves, ...)
  kAborted,       // the organiser aborted the game; nobody wins
};
absl::string_view GameEndReasonName(GameEndReason reason);

struct GameResult {
  int winner = -1;  // the winning side; -1 when nobody won (aborted)
  GameEndReason reason = GameEndReason::kTarget;
  std::vector<int> totals;
  int forfeiting_seat = -1;
  std::string detail;  // human-readable, e.g. "side 1 reached 21 at big_cassino"
};

class Game {
 public:
  // Deals round 1. Fails if the rules are invalid or a deck is malformed.
  static absl::StatusOr<Game> Create(const RuleSet& rules, DeckSource decks);

  const RuleSet& rules() const { return position_.rules; }
  const DeckSource& decks() const { return decks_; }
  // Table, hands and the seat to move.
  const Position& position() const { return position_; }
  int to_move() const { return position_.to_move; }
  int round() const { return round_; }
  int deal() const { return deal_; }
  int dealer() const { return dealer_; }
  int turn() const { return static_cast<int>(history_.size()); }
  // The current round's deck and how many of its cards remain undealt.
  const Deck& deck() const { return deck_; }
  int stock_size() const { return static_cast<int>(deck_.size()) - deck_pos_; }
  bool over() const { return result_.has_value(); }
  const std::optional<GameResult>& result() const { return result_; }

  const std::vector<CardSet>& piles() const { return piles_; }  // this round
  const std::vector<Sweep>& sweeps() const { return sweeps_; }  // this round
  const std::vector<int>& totals() const { return totals_; }
  int last_capturer() const { return last_capturer_; }
  const std::vector<PlayedMove>& history() const { return history_; }
  const std::vector<RoundResult>& rounds() const { return rounds_; }

  // Every legal move of the seat to move (empty when the game is over).
  std::vector<Move> LegalMoves() const;
  // OK if `move` may be played now; FailedPrecondition when the game is
  // over, InvalidArgument with the reason when the move is illegal.
  absl::Status Validate(const Move& move) const;
  // Validates and plays.
  absl::Status Play(const Move& move);
  // Plays a move known to be legal (e.g. from LegalMoves), skipping checks.
  void PlayUnchecked(const Move& move);

  // Points side `side` has earned so far this round, as call_out counts them.
  int EarnedThisRound(int side) const;

  // Ends the game: `seat` forfeits.
  void Forfeit(int seat, std::string detail);
  // Ends the game with no winner.
  void Abort(std::string detail);

 private:
  Game() = default;
  void StartRound();
  void DealCards();
  void EndRound();
  void Finish(int winner, GameEndReason reason, std::string detail);

  DeckSource decks_;
  Position position_;
  int round_ = 0;
  int deal_ = 0;
  int dealer_ = 0;
  Deck deck_;
  int deck_pos_ = 0;
  std::vector<CardSet> piles_;
  std::vector<Sweep> sweeps_;
  std::vector<int> totals_;
  int last_capturer_ = -1;  // a side
  std::vector<PlayedMove> history_;
  std::vector<RoundResult> rounds_;
  std::optional<GameResult> result_;
};

}  // namespace cassino

#endif  // CASSINO_REFEREE_RULES_GAME_H_
