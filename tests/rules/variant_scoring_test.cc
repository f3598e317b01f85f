// The scoring options of docs/rules.md, *Scoring* (`scoring`, `tie_cards`) and
// the presets that use them: portuguese, spade, diamond. Each example is a pair
// of capture piles worked out by hand.

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "rules/game.h"
#include "rules/scoring.h"
#include "tests/rules/test_util.h"

namespace cassino {
namespace {

using ::testing::HasSubstr;

using ::cassino::testing::Items;
using ::cassino::testing::Rules;

CardSet Cards(const char* text) { return *CardSet::Parse(text); }

TEST(VariantScoringTest, ScoringText) {
  EXPECT_EQ(RuleSet::Standard().scoring.ToString(),
            "cards:3+spades:1+each_ace:1+2S:1+TD:2");
  EXPECT_EQ(Rules("spade").scoring.ToString(),
            "cards:3+spades:1+each_ace:1+each_spade:1+2S:1+JS:1+TD:2");
  // The value is the whole table; order and case do not matter.
  EXPECT_EQ(Rules("scoring=td:2+2s:1+each_ace:1+spades:1+cards:3"),
            RuleSet::Standard());
  EXPECT_EQ(Rules("scoring=none").scoring.ToString(), "none");
  EXPECT_EQ(BasePoints(Rules("scoring=none")), 0);
  for (const std::string& name : RuleSet::PresetNames()) {
    const RuleSet r = Rules(name);
    EXPECT_EQ(Rules(r.ToString()), r) << name;
  }
  EXPECT_THAT(RuleSet::Parse("scoring=cards").status().message(),
              HasSubstr("not item:points"));
  EXPECT_THAT(RuleSet::Parse("scoring=hearts:1").status().message(),
              HasSubstr("unknown item 'hearts'"));
  EXPECT_THAT(RuleSet::Parse("scoring=cards:-1").status().message(),
              HasSubstr("from 0 to 100"));
  EXPECT_THAT(RuleSet::Parse("scoring=TD:2+td:1").status().message(),
              HasSubstr("'TD' is listed twice"));
  EXPECT_FALSE(RuleSet::Parse("tie_cards=hearts").ok());
}

TEST(VariantScoringTest, BasePointsOfThePresets) {
  EXPECT_EQ(BasePoints(RuleSet::Standard()), kBasePoints);
  EXPECT_EQ(BasePoints(Rules("portuguese")), 11);
  EXPECT_EQ(BasePoints(Rules("five_players")), 11);  // 2H 2D 2C score nothing
  EXPECT_EQ(BasePoints(Rules("spade")), 25);
  EXPECT_EQ(BasePoints(Rules("diamond")), 5);
  // Taking a point card out of the pack takes its points out of the round.
  EXPECT_EQ(BasePoints(Rules("players=5 remove=2S+2D+2C last_deal_extra=1")),
            10);
  EXPECT_EQ(Rules("portuguese").target, 31);
  EXPECT_EQ(Rules("spade").target, 61);
  EXPECT_EQ(Rules("diamond").target, 11);
}

// Portuguese: 26-26 on cards, seat 0 has 7 spades. The standard game gives
// the cards to nobody (10 points in all); tie_cards=spades gives them to
// seat 0.
TEST(VariantScoringTest, PortugueseCardsTieGoesToMostSpades) {
  const CardSet p0 = Cards("AS 3S 4S 5S 6S 7S 8S") |
                     CardSet::OfSuit(Suit::kHearts) |
                     Cards("AD 2D 3D 4D 5D 6D");
  const std::vector<CardSet> piles = {p0, CardSet::FullDeck() - p0};
  ASSERT_EQ(piles[0].size(), 26);
  const RoundScore standard = ScoreRound(RuleSet::Standard(), piles, {});
  EXPECT_EQ(Items(standard),
            (std::vector<std::string>{
                "spades 0 1", "big_cassino 1 2 TD", "little_cassino 1 1 2S",
                "ace 0 1 AS", "ace 1 1 AC", "ace 0 1 AH", "ace 0 1 AD"}));
  const RoundScore portuguese = ScoreRound(Rules("portuguese"), piles, {});
  EXPECT_EQ(portuguese.items.front(),
            (ScoreItem{ScoreItemKind::kCards, 0, 3, Card()}));
  EXPECT_EQ(portuguese.sides[0].points, 7);
  EXPECT_EQ(portuguese.sides[1].points, 4);
}

// With three sides a cards tie is broken by spades among the tied sides
// only, and an equal spade count leaves the cards to nobody.
TEST(VariantScoringTest, PortugueseTieBreakAmongTiedSidesOnly) {
  const RuleSet rules = Rules("portuguese players=3");
  // Seats 0 and 1 have 20 cards each, seat 2 has 12 (with 5 spades).
  const CardSet p2 = Cards("AS 2S 3S 4S 5S") | Cards("AH 2H 3H 4H 5H 6H 7H");
  const CardSet p0 = Cards("6S 7S 8S 9S") | Cards("8H 9H TH JH QH KH") |
                     Cards("AD 2D 3D 4D 5D 6D 7D 8D 9D TD");
  const CardSet p1 = CardSet::FullDeck() - p0 - p2;
  ASSERT_EQ(p0.size(), 20);
  ASSERT_EQ(p1.size(), 20);
  // Seat 0 has 4 spades, seat 1 has 4: nobody takes the cards, although
  // seat 2 has the most spades of all.
  std::vector<CardSet> piles = {p0, p1, p2};
  RoundScore score = ScoreRound(rules, piles, {});
  EXPECT_EQ(Items(score)[0], "spades 2 1");
  // Swap one of seat 1's spades with one of seat 0's hearts: 5 to 3.
  piles[0] = (p0 - Cards("8H")) | Cards("TS");
  piles[1] = (p1 - Cards("TS")) | Cards("8H");
  score = ScoreRound(rules, piles, {});
  EXPECT_EQ(Items(score)[0], "cards 0 3");
}

// Spade: seat 0 took every spade and TD (14 cards). Count-out order: cards,
// spades, TD, 2S, JS, the aces, then each spade.
TEST(VariantScoringTest, SpadeScoresEverySpade) {
  const RuleSet spade = Rules("spade");
  const CardSet p0 = CardSet::OfSuit(Suit::kSpades) | Cards("TD");
  const std::vector<CardSet> piles = {p0, CardSet::FullDeck() - p0};
  const RoundScore score = ScoreRound(spade, piles, {});
  std::vector<std::string> expected = {
      "cards 1 3",          "spades 0 1",
      "big_cassino 0 2 TD", "little_cassino 0 1 2S",
      "card 0 1 JS",        "ace 0 1 AS",
      "ace 1 1 AC",         "ace 1 1 AH",
      "ace 1 1 AD"};
  for (Card c : CardSet::OfSuit(Suit::kSpades)) {
    expected.push_back(absl::StrCat("spade 0 1 ", c.ToString()));
  }
  EXPECT_EQ(Items(score), expected);
  EXPECT_EQ(score.sides[0].points, 19);  // 1 + 2 + 1 + 1 + 1 + 13
  EXPECT_EQ(score.sides[1].points, 6);
  // Count-out to 61 from 50 and 55: seat 1 reaches 61 at AD, before seat
  // 0's spades are counted; highest_total lets seat 0 win 69 to 61.
  TotalsUpdate count_out = AddRoundScore(spade, {50, 55}, score);
  EXPECT_EQ(count_out.winner, 1);
  EXPECT_EQ(Items(score)[count_out.winning_item], "ace 1 1 AD");
  EXPECT_EQ(count_out.totals, (std::vector<int>{56, 61}));
  TotalsUpdate highest =
      AddRoundScore(Rules("spade game_end=highest_total"), {50, 55}, score);
  EXPECT_EQ(highest.winner, 0);
  EXPECT_EQ(highest.totals, (std::vector<int>{69, 61}));
}

// Diamond (40 cards): a 20-20 cards tie scores nobody; seat 0's 7
// diamonds, 7D and all four aces make 4.
TEST(VariantScoringTest, DiamondItems) {
  const RuleSet diamond = Rules("diamond");
  const CardSet pack = diamond.Pack();
  CardSet p0 =
      Cards("AD 2D 3D 4D 5D 6D 7D AS AH AC 2S 3S 4S 5S 6S 7S 8S 9S TS 2H");
  std::vector<CardSet> piles = {p0, pack - p0};
  ASSERT_EQ(piles[1].size(), 20);
  RoundScore score = ScoreRound(diamond, piles, {});
  EXPECT_EQ(Items(score), (std::vector<std::string>{
                              "diamonds 0 1", "card 0 1 7D", "all_aces 0 2"}));
  EXPECT_EQ(score.sides[0].points, 4);
  EXPECT_EQ(score.sides[0].diamonds, 7);
  // Seat 0 gives up AC and takes 3H 4H: 21 cards to 19, and the aces are
  // split, so all_aces scores nobody. Sweeps come last, in the order made.
  p0 = (p0 - Cards("AC")) | Cards("3H 4H");
  piles = {p0, pack - p0};
  const std::vector<Sweep> sweeps = {{1, 1}, {0, 1}};
  score = ScoreRound(diamond, piles, sweeps);
  EXPECT_EQ(Items(score), (std::vector<std::string>{"cards 0 1", "diamonds 0 1",
                                                    "card 0 1 7D", "sweep 1 1",
                                                    "sweep 0 1"}));
  EXPECT_EQ(score.all_eleven_side, -1);
  // One side taking all 5 base points is "all eleven" under this scoring.
  piles = {pack, CardSet()};
  score = ScoreRound(diamond, piles, {});
  EXPECT_EQ(score.sides[0].points, 5);
  EXPECT_EQ(score.all_eleven_side, 0);
}

// call_out counts the points that can no longer be lost, under the rule
// set's scoring.
TEST(VariantScoringTest, CallOutCountsTheScoringTable) {
  // Spade: seat 0 captures 9S with 9H on the first move.
  RuleSet spade = Rules("spade call_out=on");
  Deck deck = CanonicalDeck();
  // Seat 0 gets d0 d1 d6 d7, the table d2 d3 d8 d9.
  std::swap(deck[0], deck[21]);  // 9H to seat 0
  std::swap(deck[2], deck[8]);   // 9S to the table (d2)
  absl::StatusOr<Game> g = Game::Create(spade, DeckSource::Explicit({deck}));
  ASSERT_TRUE(g.ok()) << g.status();
  ASSERT_TRUE(g->Play(*Move::Parse("take 9H 9S")).ok())
      << g->position().ToString();
  EXPECT_EQ(g->EarnedThisRound(0), 1);  // one spade; standard would be 0
  EXPECT_EQ(g->EarnedThisRound(1), 0);
}

}  // namespace
}  // namespace cassino
