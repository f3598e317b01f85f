// Reference strategies for Cassino bots.
//
// Each strategy implements bots::Strategy and needs nothing but a TurnView,
// so the same object plays over the network (cassino-bot) and in local
// games driven by the rules engine (tests). All three are deterministic for
// a given seed and view sequence.
//
// Every strategy handles the call-out option the same way: it calls out
// only when its side's total plus the points it has certainly earned this
// round (as docs/rules.md, *End of the game* counts them) reaches the target,
// and never otherwise (a wrong call loses at once).

#ifndef CASSINO_TOOLS_BOTS_STRATEGIES_H_
#define CASSINO_TOOLS_BOTS_STRATEGIES_H_

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "rules/legal_moves.h"
#include "tools/bots/client/turn_view.h"

namespace cassino::bots {

// What captured cards are worth, in (approximate) game points.
struct CardWeights {
  double card = 0.2;    // each card, towards "most cards" (3 points)
  double spade = 0.15;  // each spade on top of that, towards "most spades"
  double big_cassino = 2;
  double little_cassino = 1;
  double ace = 1;
  double sweep = 1;

  // The standard weights, with the sweep worth the rules' sweep points.
  static CardWeights For(const RuleSet& rules);
  // As For(), but the card and spade weights drop to 0 once a side has
  // already won that item this round (27+ cards, 7+ spades).
  static CardWeights Adaptive(const TurnView& view);

  double Value(Card c) const;
  double Value(CardSet cards) const;
};

// True if calling out now wins (own total + points certainly earned this
// round >= target). False when the rules have no call-out.
bool CallOutWins(const TurnView& view);

// The legal moves without the call-out, unless calling out wins; then only
// the call-out. Never empty when view.legal_moves is not.
std::vector<Move> CandidateMoves(const TurnView& view);

// `random`: picks uniformly among the candidate moves with a seeded
// std::mt19937_64. The baseline every other strategy must beat.
class RandomStrategy : public Strategy {
 public:
  explicit RandomStrategy(uint64_t seed) : rng_(seed) {}
  std::string name() const override { return "random"; }
  Move Choose(const TurnView& view) override;

 private:
  std::mt19937_64 rng_;
};

// `greedy`: best immediate gain, no look-ahead.
//   1. If some move captures, play the capture whose taken cards (the
//      played card included) are worth most by CardWeights: each card, each
//      spade, TD 2, 2S 1, each ace 1, plus the sweep value if it clears
//      the table. Any capture is preferred to any other move.
//   2. Otherwise make the build that locks up the most valuable cards (the
//      rules guarantee it holds the card to take the build later).
//   3. Otherwise trail its least valuable card (ties: the first legal).
class GreedyStrategy : public Strategy {
 public:
  std::string name() const override { return "greedy"; }
  Move Choose(const TurnView& view) override;
};

// `builder`: one-ply look-ahead with a model of the opponent's reply.
// For every candidate move it plays the move on a copy of the position
// (rules engine ApplyMove) and scores
//
//   score = gain now
//         - expected best reply of the next player
//         + 0.7 * P(follow-up survives) * best follow-up capture
//         - exposure penalty for point cards left loose on the table
//
// where
//   - gain now values the captured cards with adaptive CardWeights (cards
//     and spades stop counting once their item is decided) plus the sweep;
//     on the round's last move it includes the leftovers it will get.
//   - the next player's hand is modelled as a uniformly random subset (of
//     its known size) of the cards this seat has not seen; for each unseen
//     rank it computes the best capture that card could make on the new
//     table (sweeps included) and takes the exact expectation of the
//     maximum over such a hand. A build controlled by that player is
//     assumed takeable (the rules force them to hold its value).
//   - the follow-up is the best capture this seat's remaining cards could
//     make on the new table, weighted by the chance that the next player
//     holds no card of the same value. This is what makes it build: a
//     build of V with a V in hand is a capture it keeps for next turn,
//     worth it when few V's are unseen. It also makes it prefer trails
//     that set up its own captures over trails that feed the opponent.
//   - trailing TD, 2S or an ace is penalised on top of the modelled
//     reply, since such a card can be taken by anyone later in the deal.
// The result protects TD/2S/aces, avoids leaving single cards that invite
// sweeps, and captures early what the opponent could otherwise take.
class BuilderStrategy : public Strategy {
 public:
  std::string name() const override { return "builder"; }
  Move Choose(const TurnView& view) override;

  // The score of one candidate (exposed for tests and tuning).
  double Score(const TurnView& view, const Move& move);

 private:
  // The best value `mover` could capture by playing `card` onto `table`
  // (played card and sweep included); negative if it captures nothing.
  double BestCapture(const RuleSet& rules, const Table& table, int mover,
                     Card card, const CardWeights& w);

  MoveGenerator generator_;
  std::vector<Move> scratch_;
};

// The strategy called `name` ("random", "greedy", "builder"), or nullptr.
std::unique_ptr<Strategy> MakeStrategy(absl::string_view name, uint64_t seed);
std::vector<std::string> StrategyNames();

}  // namespace cassino::bots

#endif  // CASSINO_TOOLS_BOTS_STRATEGIES_H_
