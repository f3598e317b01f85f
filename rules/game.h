// A complete game of Cassino: deals, turns, rounds, scoring and the end.
//
// Life cycle: Game::Create deals round 1 and the game waits for the move of
// `to_move()`. Each Play() applies one move; when every hand is empty the
// next deal follows at once, and after the last deal of a round the cards
// left on the table go to the last side that captured (not a sweep), the
// round is scored and the next round is dealt, unless the game is over.
// So between calls the game is always either waiting for a move or over.
//
// Dealing (docs/rules.md, *The deal*): the dealer of round 1 is the last seat
// and the deal passes left each round; the player left of the dealer plays
// first in every deal. With deal=twos each player in turn gets 2 cards, the
// table getting 2 just before the dealer on the first deal, twice over;
// deal=singles deals the same order one card at a time.
//
// Deal sizes (docs/rules.md, *The deal*): each deal gives `hand_size` cards to
// each player
// (`hand_size + last_deal_extra` on the last deal of a round) in passes of
// 2 cards with deal=twos (a last pass of 1 when the count is odd), of 1
// with deal=singles, of 3 with deal=threes and of 4 with deal=fours (a last,
// smaller pass for what remains). On the first deal the table gets, just before
// the dealer in each pass, as many cards as the pass gives each player until it
// holds 4; any still owed (hand_size below 4) go to the table after the
// last pass. For hand_size 4 this is exactly the docs/rules.md, *The deal*
// order.
//
// Flow options: with draw=on there is one deal per round and after each
// play the player draws the top card of the stock while it lasts
// (PlayedMove::drawn). With initial_pairs=on, right after the first deal
// pairs of the same rank among the table's 4 cards go to the side of the
// first player to move (three of a kind: the two with the lowest deck
// indices; four: all); this is a capture (that side becomes the last
// capturer) and a sweep if it empties the table (`initial_capture()`, and
// RoundResult::initial_capture). With sudden_death=on each sweep is added
// to the totals when made (PlayedMove::immediate_points,
// RoundResult::in_play) and a side that reaches the target that way wins
// at once (reason kTarget); score_as_captured does the same for each point
// card a play captures (PlayedMove::immediate_points). With
// match=deal_rounds the game lasts 2 rounds
// per player and ends after the last (reason kDealRounds): the highest
// total wins; equal highest totals are a draw (winner -1, draw true).
//
// Decks come from the seed (deal.h; the pack of the rules) or are given
// explicitly; explicit decks hold exactly the cards of the rules' pack and
// are used in order, round 1 first, and then again from the first.
//
// The game end (docs/rules.md, *End of the game*): with count_out the round's
// items are added in count-out order and the first side to reach the target
// wins at once (the items after the winning one are not added to the totals);
// with highest_total every item is added and, if any side reached the target,
// the side with the highest total wins (a tie for highest plays another round).
// Move-level variants: under defaults_cost a move that breaks the builder
// rules gives up its points at once (PlayedMove's outcome.penalty): the next
// side in play order scores them (revision 2: each other side; revision 1:
// the mover's total lost them), and
// under sudden_death a side that reaches the target that way wins at once;
// with instant_limit, that many instant scores against one side in a round
// (its defaults, and sudden-death sweeps by the others) end the round at
// once (RoundResult::unplayed holds the cards nobody played); under pluck the
// plucked card goes to the mover's pile (not a capture), each deal clears who
// has plucked and the position says when the stock is empty; a five-spades
// trail that takes the table counts as a capture (and a sweep).
//
// A forfeit ends the game: with two sides the other side wins, otherwise
// the remaining side with the highest total (lowest side on a tie).
//
// The related games (rules `game=callabra|tablanette`) run through this same
// class; their move rules are their modules' (callabra.h, tablanette.h).
// Tablanette deals 6 cards to each player per deal in packets of 3 (twice
// round from the dealer's left) and, on a round's first deal, then 4 to the
// table; a sweep with the round's very last card scores nothing; rounds are
// scored by tablanette::ScoreRound and counted out like Cassino. Callabra
// deals one card at a time, three times round, then 5 to the table; refills
// the same way from the stock as far as it lasts; a player whose hand is
// empty while others still hold cards is passed over. Callabra has one
// round and no RoundResult: a capture that clears the table wins at once
// (reason cleared_table), else when stock and hands are empty the side
// with most cards captured wins (most_cards) or nobody does (draw); its
// totals are the cards each side captured.

#ifndef CASSINO_RULES_GAME_H_
#define CASSINO_RULES_GAME_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "rules/adjudicator.h"
#include "rules/deal.h"
#include "rules/legal_moves.h"
#include "rules/move.h"
#include "rules/position.h"
#include "rules/rule_set.h"
#include "rules/scoring.h"

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
  // The deck of a round: explicit, or shuffled from the seed (full pack).
  Deck DeckFor(int round) const;
  // The same for a smaller pack (deal.h): the seeded shuffle of `pack`.
  Deck DeckFor(int round, CardSet pack) const;
  // DeckFor(round, pack) into `deck`, reusing its storage.
  void FillDeck(int round, CardSet pack, Deck* deck) const;
};

// One accepted move, as every seat saw it.
struct PlayedMove {
  int turn = 0;   // 0-based count of moves in the game
  int round = 0;  // 1-based
  int deal = 0;   // 1-based within the round
  int seat = 0;
  Move move;
  MoveOutcome outcome;
  // draw=on: the card the mover drew after the play (invalid when the stock
  // was empty). Only the mover may see it; `drew` is public.
  Card drawn;
  bool drew = false;
  // Points added to the mover's side total at once by this move
  // (sudden_death: the sweep's points).
  int immediate_points = 0;
  friend bool operator==(const PlayedMove&, const PlayedMove&) = default;
};

// initial_pairs=on: the pairs taken from the first table of a round.
struct InitialCapture {
  CardSet cards;       // empty when the table held no pair
  int side = -1;       // the side of the first player to move; -1 if none
  bool sweep = false;  // it emptied the table (and sweeps are on)
  friend bool operator==(const InitialCapture&,
                         const InitialCapture&) = default;
};

struct RoundResult {
  int round = 0;
  int dealer = 0;
  CardSet leftovers;       // table cards given to the last capturer
  int leftover_side = -1;  // -1: nobody captured
  int builds_left = 0;     // builds still on the table when the round ended
  RoundScore score;
  std::vector<int> totals_before;  // at the start of the round
  std::vector<int> totals_after;   // totals_before + in_play + items added
  InitialCapture initial_capture;  // initial_pairs=on
  std::vector<int> in_play;        // per side: points added during play
                                   // (sudden-death sweeps, defaults)
  // instant_limit: the round ended at once; the cards still in hands or
  // in the stock then, which nobody scores.
  bool ended_early = false;
  CardSet unplayed;
  friend bool operator==(const RoundResult&, const RoundResult&) = default;
};

enum class GameEndReason {
  kTarget,        // count_out: a side reached the target
  kHighestTotal,  // highest_total
  kCallOut,       // a call-out was judged
  kAllEleven,     // all_eleven=win or skunk
  kForfeit,       // a seat forfeited (time, illegal moves, ...)
  kAborted,       // the organiser aborted the game; nobody wins
  kClearedTable,  // Callabra: a capture cleared the table
  kMostCards,     // Callabra: stock and hands ran out; most cards won
  kDraw,          // nobody won, and the game was played out (winner -1)
  kDealRounds,    // match=deal_rounds: the last round was played
};
absl::string_view GameEndReasonName(GameEndReason reason);

struct GameResult {
  // The winning side; -1 when nobody won: aborted, or a draw (see `draw`).
  int winner = -1;
  GameEndReason reason = GameEndReason::kTarget;
  std::vector<int> totals;
  int forfeiting_seat = -1;
  std::string
      detail;  // human-readable, e.g. "side 1 reached 21 at big_cassino"
  // match=deal_rounds ended with equal highest totals: nobody won, nobody
  // lost (winner is -1, reason kDealRounds).
  bool draw = false;
  friend bool operator==(const GameResult&, const GameResult&) = default;
};

struct Observation;  // rules/observation.h

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
  // initial_pairs=on: what the first player took from this round's table.
  const InitialCapture& initial_capture() const { return initial_capture_; }
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
  // Validates and plays. ResourceExhausted when the move was played but
  // the game reached kMaxMoves without ending: it is then over (aborted).
  absl::Status Play(const Move& move);
  // Plays a move known to be legal (e.g. from LegalMoves), skipping checks.
  // A game that reaches kMaxMoves moves is aborted (reason kAborted), so
  // that a rule set whose games cannot end never grows without bound.
  void PlayUnchecked(const Move& move);
  // The most moves a game may have (a standard game has about 48 a round).
  static constexpr int kMaxMoves = 100'000;

  // Points side `side` has earned so far this round, as call_out counts them.
  int EarnedThisRound(int side) const;

  // Ends the game: `seat` forfeits.
  void Forfeit(int seat, std::string detail);
  // Ends the game with no winner.
  void Abort(std::string detail);

 private:
  // Builds a game from a seat's observation (rules/sampled_game.h).
  friend absl::StatusOr<Game> SampleGame(const Observation& seen,
                                         uint64_t seed);

  Game() = default;
  void StartRound();
  void DealCards();
  void DealRelatedGame();  // Callabra and Tablanette
  // After a move has emptied every hand: the next deal, or the end of the
  // round (or of a Callabra game).
  void AfterHandsEmpty();
  void FinishCallabra();
  void EndRound();
  // Empties the table.
  void ClearTable();
  void Finish(int winner, GameEndReason reason, std::string detail);
  void TakeInitialPairs();
  // Records a sweep; with sudden_death adds it to the totals and returns
  // true when that won the game.
  bool AddSweep(int side, int* immediate_points);
  // PlayUnchecked without the move cap.
  void PlayMove(const Move& move);
  // defaults_cost: side `side` gives up `points`, an instant score against
  // it. Returns the side that reached the target with them under
  // sudden_death, or -1 (revision 2, where every other side scored them: the
  // highest such total, the lowest side on a tie).
  int GiveUpPoints(int side, int points);
  // instant_limit: some side has that many instant scores against it.
  bool InstantLimitReached() const;
  // score_as_captured: scores the point cards of `captured` for `side` at
  // once; returns true when that won the game.
  bool ScoreCaptured(int side, CardSet captured, int* immediate_points);

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
  InitialCapture initial_capture_;
  std::vector<int> round_start_totals_;
  std::vector<int> in_play_;  // per side, this round
  std::vector<int> against_;  // per side: instant scores against it, this round
  CardSet scored_in_play_;    // score_as_captured: this round's scored cards
  std::vector<PlayedMove> history_;
  std::vector<RoundResult> rounds_;
  std::optional<GameResult> result_;
};

}  // namespace cassino

#endif  // CASSINO_RULES_GAME_H_
