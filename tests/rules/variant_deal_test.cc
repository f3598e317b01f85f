// The pack, deal sizes and player counts of docs/rules.md, *The deal*: `pack`,
// `remove`, `hand_size`, `last_deal_extra`, 5 and 6 players, and the seeded
// shuffle of a smaller pack. Expected hands are worked out by hand from the
// deal order of game.h; the seeded decks were computed by an independent Python
// implementation of docs/rules.md, *The seeded shuffle* over the pack's
// canonical order.

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "rules/deal.h"
#include "rules/game.h"
#include "rules/position.h"
#include "tests/rules/test_util.h"

namespace cassino {
namespace {

using ::testing::HasSubstr;

using ::cassino::testing::Rules;

// A game whose every round deals the pack in canonical order.
Game CanonicalGame(const std::string& text) {
  const RuleSet rules = Rules(text);
  absl::StatusOr<Game> g =
      Game::Create(rules, DeckSource::Explicit({CanonicalDeck(rules.Pack())}));
  EXPECT_TRUE(g.ok()) << g.status();
  return *std::move(g);
}

// Trails the first card of the hand until the deal number changes.
void TrailOutTheDeal(Game& g) {
  const int deal = g.deal();
  while (!g.over() && g.deal() == deal) {
    ASSERT_TRUE(
        g.Play(Move::Trail(g.position().hands[g.to_move()].first())).ok());
  }
}

TEST(VariantDealTest, PackAndRemoveText) {
  EXPECT_EQ(Rules("pack=40 hand_size=3").Pack().size(), 40);
  EXPECT_FALSE(
      Rules("pack=40 hand_size=3").Pack().intersects(CardSet::OfRank(kJack)));
  const RuleSet five = Rules("five_players");
  EXPECT_EQ(five.removed, *CardSet::Parse("2H 2D 2C"));
  EXPECT_EQ(five.Pack().size(), 49);
  EXPECT_THAT(five.ToString(), HasSubstr("remove=2H+2D+2C"));
  EXPECT_THAT(RuleSet::Standard().ToString(), HasSubstr("remove=none"));
  // Case-insensitive input, canonical output; round trip.
  EXPECT_EQ(Rules("players=5 remove=2c+2h+2d last_deal_extra=1"), five);
  EXPECT_EQ(Rules(five.ToString()), five);
  EXPECT_THAT(RuleSet::Parse("remove=2H+2H").status().message(),
              HasSubstr("listed twice"));
  EXPECT_THAT(RuleSet::Parse("remove=2H+XX").status().message(),
              HasSubstr("'XX' is not a card"));
  EXPECT_THAT(RuleSet::Parse("pack=36").status().message(),
              HasSubstr("not 52 or 40"));
  EXPECT_THAT(RuleSet::Parse("pack=40 remove=JS").status().message(),
              HasSubstr("JS not in the 40-card pack"));
}

TEST(VariantDealTest, DealsPerRoundAreDerivedAndMustDivide) {
  EXPECT_EQ(Rules("standard").DealsPerRound(), 6);
  EXPECT_EQ(Rules("players=6").DealsPerRound(), 2);
  EXPECT_EQ(Rules("five_players").DealsPerRound(), 2);
  EXPECT_EQ(Rules("diamond").DealsPerRound(), 6);
  EXPECT_EQ(Rules("diamond players=3").DealsPerRound(), 4);
  EXPECT_EQ(Rules("diamond players=4").DealsPerRound(), 3);
  EXPECT_EQ(Rules("draw").DealsPerRound(), 1);
  // 48 cards after the table do not make whole deals of 4 x 5.
  EXPECT_THAT(RuleSet::Parse("players=5").status().message(),
              HasSubstr("does not divide into deals"));
  // 36 cards after the table: not whole deals of 4 x 2.
  EXPECT_THAT(RuleSet::Parse("pack=40").status().message(),
              HasSubstr("does not divide into deals"));
  EXPECT_THAT(RuleSet::Parse("diamond players=5").status().message(),
              HasSubstr("does not divide into deals"));
  EXPECT_THAT(RuleSet::Parse("players=6 hand_size=12").status().message(),
              HasSubstr("fewer than the first deal needs"));
  EXPECT_THAT(RuleSet::Parse("draw last_deal_extra=1").status().message(),
              HasSubstr("last_deal_extra needs deals"));
  EXPECT_FALSE(RuleSet::Parse("players=7").ok());
  EXPECT_FALSE(RuleSet::Parse("players=6 partnerships=on").ok());
}

// Diamond, 2 players, deal=twos, 3 cards each: passes of 2 then 1; the
// table gets 2 then 1 before the dealer and the 4th after the last pass.
// Canonical 40-card deck: d0..d9 = AS..TS.
TEST(VariantDealTest, DiamondDealsThreeEach) {
  Game g = CanonicalGame("diamond");
  EXPECT_EQ(g.dealer(), 1);
  EXPECT_EQ(g.position().hands[0].ToString(), "AS 2S 7S");  // d0 d1 d6
  EXPECT_EQ(g.position().table.ToString(), "3S 4S 8S TS");  // d2 d3 d7 d9
  EXPECT_EQ(g.position().hands[1].ToString(), "5S 6S 9S");  // d4 d5 d8
  EXPECT_EQ(g.stock_size(), 30);
  TrailOutTheDeal(g);
  // Deal 2 (no table): seat 0 d10 d11 d14, seat 1 d12 d13 d15.
  EXPECT_EQ(g.deal(), 2);
  EXPECT_EQ(g.position().hands[0].ToString(), "AH 2H 5H");
  EXPECT_EQ(g.position().hands[1].ToString(), "3H 4H 6H");
  EXPECT_EQ(g.stock_size(), 24);
}

TEST(VariantDealTest, DiamondSinglesOwesTheTableItsFourthCard) {
  Game g = CanonicalGame("diamond deal=singles");
  // Passes of 1: seat 0 d0, table d1, seat 1 d2; ... three times; then the
  // table's 4th card d9.
  EXPECT_EQ(g.position().hands[0].ToString(), "AS 4S 7S");
  EXPECT_EQ(g.position().table.ToString(), "2S 5S 8S TS");
  EXPECT_EQ(g.position().hands[1].ToString(), "3S 6S 9S");
}

// Five players without 2H 2D 2C: 4 each, then 5 each on the last deal.
// Canonical 49-card deck: spades d0..d12, AH 3H..KH d13..d24, AD 3D..KD
// d25..d36, AC 3C..KC d37..d48.
TEST(VariantDealTest, FivePlayersFourThenFive) {
  Game g = CanonicalGame("five_players");
  EXPECT_EQ(g.dealer(), 4);
  EXPECT_EQ(g.position().hands[0].ToString(), "AS 2S KS AH");  // d0 d1 d12 d13
  EXPECT_EQ(g.position().table.ToString(), "9S TS 9H TH");     // d8 d9 d20 d21
  EXPECT_EQ(g.position().hands[4].ToString(),
            "JS QS JH QH");  // d10 d11 d22 d23
  EXPECT_EQ(g.stock_size(), 25);
  TrailOutTheDeal(g);
  EXPECT_EQ(g.deal(), 2);
  EXPECT_EQ(g.stock_size(), 0);
  for (CardSet hand : g.position().hands) EXPECT_EQ(hand.size(), 5);
  // Passes 2, 2, 1: seat 0 d24 d25, d34 d35, d44.
  EXPECT_EQ(g.position().hands[0].ToString(), "KH AD JD QD 9C");
  // 25 trails later the round is over and every card was in play.
  TrailOutTheDeal(g);
  ASSERT_EQ(g.rounds().size(), 1u);
  EXPECT_EQ(g.rounds()[0].leftovers.size(), 49);  // nobody captured
}

// Six players: 4 each, two deals, table 4.
TEST(VariantDealTest, SixPlayersTwoDeals) {
  Game g = CanonicalGame("players=6");
  EXPECT_EQ(g.dealer(), 5);
  EXPECT_EQ(g.position().hands[0].ToString(), "AS 2S 2H 3H");  // d0 d1 d14 d15
  EXPECT_EQ(g.position().table.ToString(), "JS QS QH KH");  // d10 d11 d24 d25
  EXPECT_EQ(g.position().hands[5].ToString(),
            "KS AH AD 2D");  // d12 d13 d26 d27
  EXPECT_EQ(g.stock_size(), 24);
  TrailOutTheDeal(g);
  EXPECT_EQ(g.deal(), 2);
  EXPECT_EQ(g.stock_size(), 0);
}

// The seeded shuffle of a smaller pack: canonical order of its cards, then
// Fisher-Yates over n cards with the docs/rules.md, *The seeded shuffle*
// stream. Vectors from an independent implementation (seed = 32 zero bytes).
TEST(VariantDealTest, SeededSmallerPackTestVectors) {
  const Seed zero{};
  const CardSet pack40 = Rules("diamond").Pack();
  const std::string r1 = DeckToString(ShuffledDeck(zero, 1, pack40));
  EXPECT_EQ(r1.substr(0, 35), "2H 9C 3H TD 9S 8H AC 2S 7S 7D 2D 6D");
  EXPECT_EQ(r1.substr(r1.size() - 11), "3S 4S 2C AH");
  EXPECT_EQ(DeckToString(ShuffledDeck(zero, 2, pack40)).substr(0, 11),
            "4H 9S 4C 8D");
  const std::string five =
      DeckToString(ShuffledDeck(zero, 1, Rules("five_players").Pack()));
  EXPECT_EQ(five.substr(0, 17), "KC QC AD 9D 4D 4C");
  EXPECT_EQ(five.substr(five.size() - 11), "6S TS 5C 3C");
  // The full pack is the vector of docs/rules.md, *The seeded shuffle*,
  // whichever overload is used.
  EXPECT_EQ(ShuffledDeck(zero, 1, CardSet::FullDeck()), ShuffledDeck(zero, 1));
  // A seeded game deals the shuffled pack.
  absl::StatusOr<Game> g =
      Game::Create(Rules("diamond"), DeckSource::FromSeed(zero));
  ASSERT_TRUE(g.ok());
  EXPECT_EQ(g->deck(), ShuffledDeck(zero, 1, pack40));
  // deal=twos: seat 0 d0 d1 d6 = 2H 9C AC; table d2 d3 d7 d9.
  EXPECT_EQ(g->position().hands[0].ToString(), "2H AC 9C");
  EXPECT_EQ(g->position().table.ToString(), "2S 3H 7D TD");  // d2 d3 d7 d9
}

// Position text carries the new options and up to 6 hands.
TEST(VariantDealTest, PositionTextWithSixPlayersAndVariantRules) {
  const std::string text =
      "table: KS 9C; hands: AS 2S / 3S / 4S / 5S / 6S / 7S; to_move: 5; "
      "rules: players=6 deal=singles face_capture=any sweeps=off "
      "match=deal_rounds multiple_builds=off face_builds=off";
  absl::StatusOr<Position> p = Position::Parse(text);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->hands.size(), 6u);
  EXPECT_EQ(p->rules, Rules("california players=6"));
  EXPECT_EQ(p->ToString(), text);
  absl::StatusOr<Position> diamond =
      Position::Parse("table: 7D; hands: AS / 2S; rules: diamond");
  ASSERT_TRUE(diamond.ok()) << diamond.status();
  EXPECT_THAT(diamond->ToString(),
              HasSubstr("rules: target=11 pack=40 hand_size=3 "
                        "scoring=cards:1+diamonds:1+all_aces:2+7D:1"));
  EXPECT_EQ(Position::Parse(diamond->ToString())->rules, Rules("diamond"));
}

TEST(VariantDealTest, ExplicitDecksHoldExactlyThePack) {
  const RuleSet diamond = Rules("diamond");
  EXPECT_FALSE(
      Game::Create(diamond, DeckSource::Explicit({CanonicalDeck()})).ok());
  EXPECT_TRUE(Game::Create(diamond, DeckSource::Explicit(
                                        {CanonicalDeck(diamond.Pack())}))
                  .ok());
  EXPECT_TRUE(
      ParseDeck(DeckToString(CanonicalDeck(diamond.Pack())), diamond.Pack())
          .ok());
  EXPECT_THAT(ParseDeck(DeckToString(CanonicalDeck()), diamond.Pack())
                  .status()
                  .message(),
              HasSubstr("JS is not in the pack"));
}

}  // namespace
}  // namespace cassino
