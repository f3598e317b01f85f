// The related games' move rules (tablanette.h, callabra.h): worked
// positions with their full legal-move lists, refusals with their reasons,
// and Tablanette's round scoring.

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "rules/callabra.h"
#include "rules/game.h"
#include "rules/game_moves.h"
#include "rules/tablanette.h"
#include "tests/rules/test_util.h"

namespace cassino::testing {
namespace {

using ::testing::ElementsAreArray;
using ::testing::HasSubstr;

template <typename Generate>
std::vector<std::string> Moves(const std::string& position, Generate gen) {
  std::vector<std::string> out;
  for (const Move& m : gen(Pos(position))) out.push_back(m.ToString());
  return out;
}

std::string Refusal(absl::Status s) {
  EXPECT_FALSE(s.ok());
  return std::string(s.message());
}

// Every generated move validates, in both modules.
template <typename Generate, typename Validate>
void ExpectAllValidate(const std::string& position, Generate gen,
                       Validate validate) {
  const Position pos = Pos(position);
  for (const Move& m : gen(pos)) {
    EXPECT_TRUE(validate(pos, m).ok()) << m.ToString();
  }
}

TEST(TablanetteTest, NumeralCapturesGroupsJackTakesAllQueenHasNoPartner) {
  const std::string pos = "table: 5C 3D 2H JD 9S; hands: 5H QH JC / -";
  EXPECT_THAT(Moves(pos, tablanette::LegalMoves),
              ElementsAreArray({"trail 5H", "take 5H 2H 3D", "take 5H 5C",
                                "take 5H 2H 3D 5C", "trail QH", "trail JC",
                                "take JC 9S 2H 3D JD 5C"}));
  ExpectAllValidate(pos, tablanette::LegalMoves, tablanette::ValidateMove);
}

TEST(TablanetteTest, QueensAndKingsTakeOneOfTheirRank) {
  const std::string pos = "table: QS KD QH 4C; hands: QD KS / -";
  EXPECT_THAT(Moves(pos, tablanette::LegalMoves),
              ElementsAreArray({"trail KS", "take KS KD", "trail QD",
                                "take QD QS", "take QD QH"}));
  ExpectAllValidate(pos, tablanette::LegalMoves, tablanette::ValidateMove);
}

TEST(TablanetteTest, AceCountsOneAndAJackOnAnEmptyTableTrails) {
  EXPECT_THAT(Moves("table: AC 4S; hands: 5D / -", tablanette::LegalMoves),
              ElementsAreArray({"trail 5D", "take 5D 4S AC"}));
  EXPECT_THAT(Moves("table: -; hands: JH / -", tablanette::LegalMoves),
              ElementsAreArray({"trail JH"}));
}

TEST(TablanetteTest, RefusalsSayWhy) {
  const Position pos = Pos("table: 5C 3D QS QH; hands: JC QD 8H / -");
  EXPECT_THAT(Refusal(tablanette::ValidateMove(pos, M("take JC 5C"))),
              HasSubstr("a jack takes every loose card"));
  EXPECT_THAT(Refusal(tablanette::ValidateMove(pos, M("take QD QS QH"))),
              HasSubstr("exactly one card of its rank"));
  EXPECT_THAT(Refusal(tablanette::ValidateMove(pos, M("build 8 3D 5C"))),
              HasSubstr("no builds"));
  EXPECT_THAT(Refusal(tablanette::ValidateMove(pos, M("take 8H 5C"))),
              HasSubstr("8"));
  EXPECT_THAT(Refusal(tablanette::ValidateMove(pos, M("trail 2C"))),
              HasSubstr("not in your hand"));
  EXPECT_TRUE(tablanette::ValidateMove(pos, M("take 8H 3D 5C")).ok());
}

TEST(TablanetteTest, ScoresCardsFacesCassinosAcesAndSweepsInCountOutOrder) {
  // Side 0: every spade and heart and AD (27 cards); side 1 the rest.
  const CardSet zero = CardSet::OfSuit(Suit::kSpades) |
                       CardSet::OfSuit(Suit::kHearts) |
                       CardSet::Of(Card::Of(kAce, Suit::kDiamonds));
  const std::vector<CardSet> piles = {zero, CardSet::FullDeck() - zero};
  const std::vector<Sweep> sweeps = {{1, 1}};
  const RoundScore score = tablanette::ScoreRound(piles, sweeps);
  std::vector<std::string> items;
  for (const ScoreItem& item : score.items) {
    items.push_back(
        absl::StrCat(ScoreItemName(item.kind), ":", item.side, ":", item.points,
                     item.card.valid() ? item.card.ToString() : ""));
  }
  EXPECT_THAT(items,
              ElementsAreArray(
                  {"cards:0:3",  "face:0:1JS",        "face:0:1QS",
                   "face:0:1KS", "face:0:1JH",        "face:0:1QH",
                   "face:0:1KH", "face:1:1JD",        "face:1:1QD",
                   "face:1:1KD", "face:1:1JC",        "face:1:1QC",
                   "face:1:1KC", "big_cassino:1:2TD", "little_cassino:0:12S",
                   "ace:0:1AS",  "ace:1:1AC",         "ace:0:1AH",
                   "ace:0:1AD",  "sweep:1:1"}));
  EXPECT_EQ(score.sides[0].points, 13);
  EXPECT_EQ(score.sides[1].points, 10);
  EXPECT_EQ(score.sides[0].points + score.sides[1].points,
            tablanette::kRoundPoints + 1);
}

TEST(CallabraTest, SingleAndPairCaptures) {
  const std::string pos = "table: 5C 8D KH 2S AD; hands: 3C 5H 8S / -";
  EXPECT_THAT(
      Moves(pos, callabra::LegalMoves),
      ElementsAreArray({"trail 8S", "take 8S 8D", "take 8S+5H KH", "trail 5H",
                        "take 5H 5C", "take 5H+3C 8D", "trail 3C"}));
  ExpectAllValidate(pos, callabra::LegalMoves, callabra::ValidateMove);
}

TEST(CallabraTest, FaceCardsHaveValues) {
  const std::string pos = "table: JC 6D QS; hands: 5S 6H QH / -";
  EXPECT_THAT(Moves(pos, callabra::LegalMoves),
              ElementsAreArray({"trail 5S", "take 5S+6H JC", "trail 6H",
                                "take 6H 6D", "trail QH", "take QH QS"}));
  ExpectAllValidate(pos, callabra::LegalMoves, callabra::ValidateMove);
}

TEST(CallabraTest, PairNotationRoundTripsInCanonicalOrder) {
  const Move m = M("take 6h+5s jc");
  EXPECT_EQ(m.ToString(), "take 5S+6H JC");
  EXPECT_EQ(m, Move::PairCapture(Card::Of(6, Suit::kHearts),
                                 Card::Of(5, Suit::kSpades),
                                 Card::Of(kJack, Suit::kClubs)));
  EXPECT_EQ(M(m.ToString()), m);
  EXPECT_FALSE(Move::Parse("take 5S+5S JC").ok());
  EXPECT_FALSE(Move::Parse("take 5S+6H JC 2D").ok());
}

TEST(CallabraTest, RefusalsSayWhy) {
  const Position pos = Pos("table: JC 6D 4S; hands: 5S 6H 2C / -");
  EXPECT_THAT(Refusal(callabra::ValidateMove(pos, M("take 5S+6H 6D"))),
              HasSubstr("total 11, but 6D is worth 6"));
  EXPECT_THAT(Refusal(callabra::ValidateMove(pos, M("take 6H 6D 4S"))),
              HasSubstr("exactly one table card"));
  EXPECT_THAT(Refusal(callabra::ValidateMove(pos, M("take 9C 9D"))),
              HasSubstr("not in your hand"));
  EXPECT_THAT(Refusal(callabra::ValidateMove(pos, M("take 2C+6H 8D"))),
              HasSubstr("not on the table"));
  EXPECT_THAT(Refusal(callabra::ValidateMove(pos, M("build 6 2C 4S"))),
              HasSubstr("no builds"));
}

TEST(CallabraTest, OtherGamesRefuseAPairCapture) {
  const std::string table = "table: JC 6D; hands: 5S 6H / -";
  EXPECT_THAT(Refusal(ValidateMove(Pos(table), M("take 5S+6H JC"))),
              HasSubstr("only Callabra"));
  EXPECT_THAT(Refusal(tablanette::ValidateMove(
                  Pos(table + "; rules: tablanette"), M("take 5S+6H JC"))),
              HasSubstr("only Callabra"));
}

TEST(CallabraTest, PairCaptureTakesBothHandCards) {
  Position pos = Pos("table: JC 6D; hands: 5S 6H 2C / 3D");
  const MoveOutcome out = callabra::ApplyMove(pos, M("take 5S+6H JC"));
  EXPECT_EQ(out.captured.ToString(), "5S 6H JC");
  EXPECT_FALSE(out.sweep);
  EXPECT_EQ(pos.hands[0].ToString(), "2C");
  EXPECT_EQ(pos.table.loose.ToString(), "6D");
  EXPECT_EQ(pos.to_move, 1);
}

// GameLegalMoves and ValidateGameMove follow the position's `game=`: the
// tools (cassino moves) and the game share this one dispatch.
TEST(GameMovesTest, FollowTheRuleSetsGame) {
  const std::string callabra =
      "table: 5C 8D KH 2S AD; hands: 3C 5H 8S / -; rules: callabra";
  EXPECT_THAT(
      Moves(callabra, GameLegalMoves),
      ElementsAreArray({"trail 8S", "take 8S 8D", "take 8S+5H KH", "trail 5H",
                        "take 5H 5C", "take 5H+3C 8D", "trail 3C"}));
  EXPECT_THAT(Refusal(ValidateGameMove(Pos(callabra), M("build 8 5H 3C"))),
              HasSubstr("no builds"));
  EXPECT_TRUE(ValidateGameMove(Pos(callabra), M("take 5H+3C 8D")).ok());

  const std::string tablanette =
      "table: 9S 2H KD; hands: JC 5C / -; rules: tablanette";
  EXPECT_THAT(Moves(tablanette, GameLegalMoves),
              ElementsAreArray({"trail 5C", "trail JC", "take JC 9S 2H KD"}));
  EXPECT_TRUE(ValidateGameMove(Pos(tablanette), M("take JC 9S 2H KD")).ok());

  // Cassino: the same list as its own generator; the jack only pairs.
  const std::string cassino = "table: 9S 2H KD; hands: JC 5C / -";
  EXPECT_EQ(Moves(cassino, GameLegalMoves), Moves(cassino, LegalMoves));
  EXPECT_THAT(Refusal(ValidateGameMove(Pos(cassino), M("take JC 9S 2H KD"))),
              ::testing::Not(::testing::IsEmpty()));
}

TEST(CallabraGameTest, DealsThreeEachOneAtATimeThenFiveToTheTable) {
  absl::StatusOr<Game> g = Game::Create(
      *RuleSet::Parse("callabra players=2"),
      DeckSource::Explicit({DeckStarting("2H 5H 3H 6H 4H 7H 2S 3S 4S 5S 6S")}));
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ(g->position().ToString(),
            "table: 2S 3S 4S 5S 6S; hands: 2H 3H 4H / 5H 6H 7H; to_move: 0; "
            "rules: game=callabra");
  EXPECT_EQ(g->stock_size(), kDeckSize - 11);
}

TEST(CallabraGameTest, ClearingTheTableWinsAtOnce) {
  Game g = *Game::Create(
      *RuleSet::Parse("callabra players=2"),
      DeckSource::Explicit({DeckStarting("2H 5H 3H 6H 4H 7H 2S 3S 4S 5S 6S")}));
  for (const char* m :
       {"take 2H 2S", "take 5H 5S", "take 3H 3S", "take 6H 6S"}) {
    ASSERT_TRUE(g.Play(M(m)).ok()) << m;
    ASSERT_FALSE(g.over());
  }
  ASSERT_TRUE(g.Play(M("take 4H 4S")).ok());
  ASSERT_TRUE(g.over());
  EXPECT_EQ(g.result()->winner, 0);
  EXPECT_EQ(g.result()->reason, GameEndReason::kClearedTable);
  EXPECT_EQ(g.result()->totals, (std::vector<int>{6, 4}));
  EXPECT_TRUE(g.rounds().empty());
}

TEST(CallabraGameTest, APlayerWithAnEmptyHandIsPassedOver) {
  // Seat 0 spends two cards on a pair capture and runs out first.
  Game g = *Game::Create(
      *RuleSet::Parse("callabra players=2"),
      DeckSource::Explicit({DeckStarting("2H 9C 3H 9D 8H 9H 5S KS QS JS TS")}));
  ASSERT_TRUE(g.Play(M("take 2H+3H 5S")).ok());  // seat 0: 8H left
  ASSERT_TRUE(g.Play(M("trail 9C")).ok());       // seat 1
  ASSERT_TRUE(g.Play(M("trail 8H")).ok());       // seat 0: empty
  EXPECT_EQ(g.to_move(), 1);
  ASSERT_TRUE(g.Play(M("take 9D 9C")).ok());
  EXPECT_EQ(g.to_move(), 1) << "seat 0 has no card and is passed over";
  ASSERT_TRUE(g.Play(M("trail 9H")).ok());
  // Every hand is empty: the refill deals seat 0 first again.
  EXPECT_EQ(g.deal(), 2);
  EXPECT_EQ(g.to_move(), 0);
  EXPECT_EQ(g.position().hands[0].size(), 3);
  EXPECT_EQ(g.position().hands[1].size(), 3);
}

TEST(TablanetteGameTest, DealsSixEachInThreesThenFourToTheTable) {
  absl::StatusOr<Game> g = Game::Create(
      *RuleSet::Parse("tablanette"),
      DeckSource::Explicit(
          {DeckStarting("AS 2S 3S AH 2H 3H 4S 5S 6S 4H 5H 6H 7C 8C 9C TC")}));
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ(g->position().ToString(),
            "table: 7C 8C 9C TC; hands: AS 2S 3S 4S 5S 6S / AH 2H 3H 4H 5H 6H; "
            "to_move: 0; rules: game=tablanette");
  EXPECT_EQ(g->rules().DealsPerRound(), 4);
}

}  // namespace
}  // namespace cassino::testing
