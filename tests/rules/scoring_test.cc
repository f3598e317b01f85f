#include "rules/scoring.h"

#include "gtest/gtest.h"

namespace cassino {
namespace {

CardSet Cards(const char* text) { return *CardSet::Parse(text); }

// Builds two piles with the given counts: `spades` spades and the named
// cards in the first, the rest of the deck in the second.
std::vector<CardSet> Split(CardSet first) {
  return {first, CardSet::FullDeck() - first};
}

// docs/rules.md, *Worked examples*, example 7: 28 cards, 6 spades, TD, AS, AH,
// 1 sweep for seat 0 (8 points); 24 cards, 7 spades incl. 2S, AC, AD, 2 sweeps
// for seat 1 (6).
TEST(ScoringTest, WorkedExample7) {
  // Seat 0: 6 spades (AS 3S..7S), TD, AH, and 19 more non-spade non-point
  // cards to make 28.
  CardSet p0 = Cards("AS 3S 4S 5S 6S 7S TD AH");
  for (Card c : CardSet::FullDeck() - CardSet::OfSuit(Suit::kSpades)) {
    if (p0.size() == 28) break;
    if (c.rank() == kAce || c == kBigCassino) continue;
    p0.insert(c);
  }
  std::vector<CardSet> piles = Split(p0);
  ASSERT_EQ(piles[0].size(), 28);
  ASSERT_EQ(piles[1].size(), 24);
  ASSERT_EQ((piles[1] & CardSet::OfSuit(Suit::kSpades)).size(), 7);
  std::vector<Sweep> sweeps = {{1, 1}, {0, 1}, {1, 1}};
  RoundScore score = ScoreRound(RuleSet::Standard(), piles, sweeps);
  EXPECT_EQ(score.sides[0].points, 8);
  EXPECT_EQ(score.sides[1].points, 6);
  EXPECT_EQ(score.sides[0].cards, 28);
  EXPECT_EQ(score.sides[1].spades, 7);
  EXPECT_TRUE(score.sides[1].little_cassino);
  EXPECT_EQ(score.all_eleven_side, -1);
}

TEST(ScoringTest, TiesScoreNobody) {
  // 26 cards each, spades shared 6/7... make a 26-26 tie with 7 spades each
  // impossible (13 spades): seat 0 gets 7 spades, cards tie.
  CardSet p0 = CardSet::OfSuit(Suit::kHearts) | Cards("AS 2S 3S 4S 5S 6S");
  p0 |= Cards("AD 2D 3D 4D 5D 6D 7D");
  std::vector<CardSet> piles = Split(p0);
  ASSERT_EQ(piles[0].size(), 26);
  RoundScore score = ScoreRound(RuleSet::Standard(), piles, {});
  int total = score.sides[0].points + score.sides[1].points;
  EXPECT_EQ(total, kBasePoints - 3);  // cards tied: 8 points in all
  EXPECT_EQ(score.items.front().kind, ScoreItemKind::kSpades);
}

TEST(ScoringTest, CountOutOrderIsCardsSpadesTenTwoAcesSweeps) {
  std::vector<CardSet> piles = Split(Cards("AS AC AH AD 2S"));
  RoundScore score =
      ScoreRound(RuleSet::Standard(), piles, std::vector<Sweep>{{0, 1}});
  std::vector<ScoreItemKind> kinds;
  for (const ScoreItem& i : score.items) kinds.push_back(i.kind);
  EXPECT_EQ(kinds,
            (std::vector<ScoreItemKind>{
                ScoreItemKind::kCards, ScoreItemKind::kSpades,
                ScoreItemKind::kBigCassino, ScoreItemKind::kLittleCassino,
                ScoreItemKind::kAce, ScoreItemKind::kAce, ScoreItemKind::kAce,
                ScoreItemKind::kAce, ScoreItemKind::kSweep}));
  EXPECT_EQ(score.items[4].card.ToString(), "AS");
  EXPECT_EQ(score.items[5].card.ToString(), "AC");
  EXPECT_EQ(score.items[6].card.ToString(), "AH");
  EXPECT_EQ(score.items[7].card.ToString(), "AD");
}

// docs/rules.md, *Worked examples*, example 8: before the round 18-15; seat 1
// takes cards, spades and TD, seat 0 takes 2S and four aces.
TEST(ScoringTest, WorkedExample8) {
  CardSet p0 = Cards("2S AS AC AH AD 3H 4H");
  std::vector<CardSet> piles = Split(p0);
  RoundScore score = ScoreRound(RuleSet::Standard(), piles, {});
  RuleSet count_out = RuleSet::Standard();
  TotalsUpdate u = AddRoundScore(count_out, {18, 15}, score);
  EXPECT_EQ(u.winner, 1);
  EXPECT_EQ(score.items[u.winning_item].kind, ScoreItemKind::kBigCassino);
  EXPECT_EQ(u.totals, (std::vector<int>{18, 21}));

  RuleSet highest = RuleSet::Standard();
  highest.game_end = GameEnd::kHighestTotal;
  u = AddRoundScore(highest, {18, 15}, score);
  EXPECT_EQ(u.winner, 0);
  EXPECT_EQ(u.totals, (std::vector<int>{23, 21}));
}

TEST(ScoringTest, HighestTotalTiePlaysOn) {
  RuleSet highest = RuleSet::Standard();
  highest.game_end = GameEnd::kHighestTotal;
  std::vector<CardSet> piles = Split(Cards("2S AS AC AH AD 3H 4H"));
  RoundScore score = ScoreRound(highest, piles, {});
  TotalsUpdate u = AddRoundScore(highest, {16, 15}, score);  // 21 - 21
  EXPECT_EQ(u.totals, (std::vector<int>{21, 21}));
  EXPECT_EQ(u.winner, -1);
}

TEST(ScoringTest, AllElevenBonus) {
  RuleSet rules = RuleSet::Standard();
  rules.all_eleven = AllEleven::kBonus;
  std::vector<CardSet> piles =
      Split(CardSet::OfSuit(Suit::kSpades) | Cards("AH AD AC TD") |
            CardSet::OfSuit(Suit::kHearts) | CardSet::OfSuit(Suit::kClubs));
  RoundScore score = ScoreRound(rules, piles, {});
  EXPECT_EQ(score.all_eleven_side, 0);
  EXPECT_EQ(score.sides[0].points, 12);
  EXPECT_EQ(score.items.back().kind, ScoreItemKind::kAllEleven);
}

TEST(ScoringTest, ThreeSidesMostIsStrict) {
  std::vector<CardSet> piles = {
      CardSet::OfSuit(Suit::kSpades) | CardSet::OfSuit(Suit::kHearts),
      CardSet::OfSuit(Suit::kDiamonds), CardSet::OfSuit(Suit::kClubs)};
  RoundScore score = ScoreRound(RuleSet::Standard(), piles, {});
  EXPECT_EQ(score.sides[0].points, 3 + 1 + 1 + 2);  // cards, spades, 2S, AS AH
  EXPECT_EQ(score.sides[1].points, 2 + 1);          // TD, AD
  EXPECT_EQ(score.sides[2].points, 1);              // AC
}

}  // namespace
}  // namespace cassino
