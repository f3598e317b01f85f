#include "rules/game.h"

#include "gtest/gtest.h"
#include "rules/observation.h"
#include "tests/rules/test_util.h"

namespace cassino {
namespace {

using ::cassino::testing::M;

Game NewGame(const std::string& rules_text,
             std::vector<Deck> decks = {CanonicalDeck()}) {
  absl::StatusOr<RuleSet> rules = RuleSet::Parse(rules_text);
  EXPECT_TRUE(rules.ok()) << rules.status();
  absl::StatusOr<Game> game = Game::Create(*rules, DeckSource::Explicit(decks));
  EXPECT_TRUE(game.ok()) << game.status();
  return *game;
}

// docs/rules.md, *The deal*: 2 players, dealer seat 1, deck d0 d1 ...: seat 0
// d0 d1, table d2 d3, seat 1 d4 d5, seat 0 d6 d7, table d8 d9, seat 1 d10 d11.
TEST(GameTest, DealOrderTwosTwoPlayers) {
  Game g = NewGame("standard");
  EXPECT_EQ(g.dealer(), 1);
  EXPECT_EQ(g.to_move(), 0);
  EXPECT_EQ(g.position().hands[0].ToString(), "AS 2S 7S 8S");
  EXPECT_EQ(g.position().table.ToString(), "3S 4S 9S TS");
  EXPECT_EQ(g.position().hands[1].ToString(), "5S 6S JS QS");
  EXPECT_EQ(g.stock_size(), 40);
}

TEST(GameTest, DealOrderSingles) {
  Game g = NewGame("standard deal=singles");
  // seat 0 d0 d3 d6 d9, table d1 d4 d7 d10, seat 1 d2 d5 d8 d11.
  EXPECT_EQ(g.position().hands[0].ToString(), "AS 4S 7S TS");
  EXPECT_EQ(g.position().table.ToString(), "2S 5S 8S JS");
  EXPECT_EQ(g.position().hands[1].ToString(), "3S 6S 9S QS");
}

TEST(GameTest, DealOrderThreePlayers) {
  Game g = NewGame("standard players=3");
  EXPECT_EQ(g.dealer(), 2);
  // seat0 d0d1, seat1 d2d3, table d4d5, seat2 d6d7, then again.
  EXPECT_EQ(g.position().hands[0].ToString(), "AS 2S 9S TS");
  EXPECT_EQ(g.position().hands[1].ToString(), "3S 4S JS QS");
  EXPECT_EQ(g.position().table.ToString(), "5S 6S KS AH");
  EXPECT_EQ(g.position().hands[2].ToString(), "7S 8S 2H 3H");
}

TEST(GameTest, LaterDealsGiveFourEachAndNoTable) {
  Game g = NewGame("standard");
  // Trail everything in the first deal: 8 trails.
  for (int i = 0; i < 8; ++i) {
    Card c = g.position().hands[g.to_move()].first();
    ASSERT_TRUE(g.Play(Move::Trail(c)).ok());
  }
  EXPECT_EQ(g.deal(), 2);
  EXPECT_EQ(g.to_move(), 0);  // left of the dealer again
  // Deal 2 starts at d12: seat 0 d12 d13 d16 d17, seat 1 d14 d15 d18 d19.
  EXPECT_EQ(g.position().hands[0].ToString(), "KS AH 4H 5H");
  EXPECT_EQ(g.position().hands[1].ToString(), "2H 3H 6H 7H");
  EXPECT_EQ(g.position().table.loose.size(), 12);
}

TEST(GameTest, DealsPerRound) {
  EXPECT_EQ(RuleSet::Parse("players=2")->DealsPerRound(), 6);
  EXPECT_EQ(RuleSet::Parse("players=3")->DealsPerRound(), 4);
  EXPECT_EQ(RuleSet::Parse("players=4")->DealsPerRound(), 3);
}

TEST(GameTest, DealerPassesLeftEachRound) {
  Game g = NewGame("standard target=1000");
  std::vector<Move> moves;
  while (g.round() < 3) ASSERT_TRUE(g.Play(g.LegalMoves().front()).ok());
  EXPECT_EQ(g.dealer(), 1);  // round 1: 1, round 2: 0, round 3: 1
  EXPECT_EQ(g.rounds().size(), 2u);
  EXPECT_EQ(g.rounds()[0].dealer, 1);
  EXPECT_EQ(g.rounds()[1].dealer, 0);
}

TEST(GameTest, LeftoversGoToTheLastCapturerAndAreNoSweep) {
  Game g = NewGame("standard target=1000");
  while (g.round() == 1) ASSERT_TRUE(g.Play(g.LegalMoves().front()).ok());
  const RoundResult& r = g.rounds()[0];
  int total = 0;
  for (const SideTally& s : r.score.sides) total += s.cards;
  if (r.leftover_side >= 0) {
    EXPECT_EQ(total, 52);
  }
  int sweeps = 0;
  for (const PlayedMove& pm : g.history()) sweeps += pm.outcome.sweep;
  int scored_sweeps = 0;
  for (const SideTally& s : r.score.sides) scored_sweeps += s.sweeps;
  EXPECT_EQ(sweeps, scored_sweeps);
}

TEST(GameTest, IllegalMovesAreRefusedAndChangeNothing) {
  Game g = NewGame("standard");
  const std::string before = g.position().ToString();
  absl::Status s = g.Play(M("trail 5S"));  // seat 1's card
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "you do not hold 5S");
  EXPECT_EQ(g.position().ToString(), before);
  EXPECT_EQ(g.turn(), 0);
}

TEST(GameTest, ForfeitEndsTheGame) {
  Game g = NewGame("standard");
  g.Forfeit(0, "timeout");
  ASSERT_TRUE(g.over());
  EXPECT_EQ(g.result()->winner, 1);
  EXPECT_EQ(g.result()->reason, GameEndReason::kForfeit);
  EXPECT_EQ(g.result()->forfeiting_seat, 0);
  EXPECT_EQ(g.Play(M("trail AS")).code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE(g.LegalMoves().empty());
}

TEST(GameTest, CallOutJudged) {
  Game g = NewGame("standard call_out=on");
  ASSERT_TRUE(g.Play(Move::CallOut()).ok());
  ASSERT_TRUE(g.over());
  EXPECT_EQ(g.result()->reason, GameEndReason::kCallOut);
  EXPECT_EQ(g.result()->winner, 1);  // seat 0 had nothing
  Game h = NewGame("standard call_out=on target=1");
  // Seat 0 takes something worth a point first: play until a point card is
  // captured by seat 0, then call.
  while (!h.over() && h.EarnedThisRound(0) == 0) {
    std::vector<Move> moves = h.LegalMoves();
    ASSERT_TRUE(h.Play(moves.size() > 1 ? moves[1] : moves[0]).ok());
  }
  if (!h.over() && h.to_move() == 0) {
    ASSERT_TRUE(h.Play(Move::CallOut()).ok());
    EXPECT_EQ(h.result()->winner, 0);
  }
}

TEST(GameTest, PartnershipsPoolCaptures) {
  Game g = NewGame("standard players=4 partnerships=on");
  EXPECT_EQ(g.rules().Sides(), 2);
  EXPECT_EQ(g.totals().size(), 2u);
  // Always capture when possible, so that the game makes progress (a policy
  // that never captures can deal the same explicit deck forever).
  while (!g.over()) {
    const std::vector<Move> moves = g.LegalMoves();
    auto capture = std::find_if(moves.begin(), moves.end(), [](const Move& m) {
      return m.kind == MoveKind::kCapture;
    });
    ASSERT_TRUE(g.Play(capture != moves.end() ? *capture : moves.back()).ok());
  }
  ASSERT_FALSE(g.rounds().empty());
  for (const RoundResult& r : g.rounds()) {
    ASSERT_EQ(r.score.sides.size(), 2u);
    // Partners share one pile: the two sides' cards cover the whole deck.
    EXPECT_EQ(r.score.sides[0].cards + r.score.sides[1].cards, kDeckSize);
  }
}

TEST(GameTest, ObservationHidesOtherHandsAndStock) {
  Game g = NewGame("standard");
  Observation o = Observe(g, 1);
  EXPECT_EQ(o.hand, g.position().hands[1]);
  EXPECT_EQ(o.hand_sizes, (std::vector<int>{4, 4}));
  EXPECT_EQ(o.stock_size, 40);
  EXPECT_EQ(o.table, g.position().table);
  EXPECT_EQ(o.to_move, 0);
}

TEST(GameTest, ExplicitDecksMustBeComplete) {
  Deck bad = CanonicalDeck();
  bad[0] = bad[1];
  EXPECT_FALSE(
      Game::Create(RuleSet::Standard(), DeckSource::Explicit({bad})).ok());
  EXPECT_FALSE(Game::Create(RuleSet::Standard(), DeckSource{}).ok());
}

TEST(RuleSetTest, TextRoundTripAndErrors) {
  absl::StatusOr<RuleSet> r = RuleSet::Parse(
      "standard players=4 partnerships=on sweeps=2 game_end=highest_total");
  ASSERT_TRUE(r.ok()) << r.status();
  absl::StatusOr<RuleSet> again = RuleSet::Parse(r->ToString());
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(*r, *again);
  EXPECT_EQ(RuleSet::Parse("sweeps=off")->sweep_points, 0);
  EXPECT_FALSE(RuleSet::Parse("royalz").ok());
  EXPECT_FALSE(RuleSet::Parse("colour=red").ok());
  EXPECT_FALSE(RuleSet::Parse("players=3 partnerships=on").ok());
  EXPECT_FALSE(RuleSet::Parse("players=3 call_out=on").ok());
  EXPECT_NE(RuleSet::Parse("deal=fives")
                .status()
                .message()
                .find("twos, singles, threes, fours"),
            absl::string_view::npos);
}

}  // namespace
}  // namespace cassino
