// Worked examples per preset (issue #6): positions and short scripted games
// that show what a preset changes against the standard game, for the
// presets that had fewer than three such tests (michigan, california, draw,
// portuguese, spade).
// Every expected list and figure is worked out by hand from docs/rules.md
// (*Presets* and the sections they point to); the comments give the reasoning.
//
// Scripted games use explicit decks: DeckStarting(top) is `top` followed by
// the rest of the canonical deck. With 2 players and deal=twos seat 0 gets
// d0 d1 d6 d7, the table d2 d3 d8 d9 and seat 1 d4 d5 d10 d11.

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "rules/game.h"
#include "rules/scoring.h"
#include "tests/rules/test_util.h"

namespace cassino {
namespace {

using testing::DeckStarting;
using testing::Items;
using testing::Sorted;
using testing::SortedMoves;

Game NewGame(const std::string& rules, const Deck& deck) {
  absl::StatusOr<RuleSet> r = RuleSet::Parse(rules);
  EXPECT_TRUE(r.ok()) << rules << ": " << r.status();
  absl::StatusOr<Game> g = Game::Create(*r, DeckSource::Explicit({deck}));
  EXPECT_TRUE(g.ok()) << g.status();
  return *std::move(g);
}

std::vector<std::string> GameMoves(const Game& g) {
  std::vector<std::string> out;
  for (const Move& m : g.LegalMoves()) out.push_back(m.ToString());
  return Sorted(out);
}

absl::Status Play(Game& g, const std::string& move) {
  absl::StatusOr<Move> m = Move::Parse(move);
  if (!m.ok()) return m.status();
  return g.Play(*m);
}

// --- michigan: defaults_cost=2 sweeps=2 sudden_death=on --------------------

// Worked example 2 of the contract. Seat 0 controls [5S 3H]=8 and holds
// 8C 4D TS. Standard (v1): no trail, and 8C may not leave the build of 8
// unguarded, so 8C only takes the build (alone or with 8D); 4D raises the
// opponent's 6 to 10 (held: TS), alone or absorbing 8D 2C; TS takes 8D 2C.
// Michigan makes the three trails, `take 8C 8D` (guard) and
// `build 10 8C 2C` (guard: the 8 goes) legal at a cost. Building a value
// one does not hold stays illegal: that is the building rule, not the guard
// (`build 9 8C AH`, adding 8C alone to the 8).
TEST(PresetExamplesTest, MichiganBreakingTheBuilderRulesIsLegal) {
  const std::string pos =
      "table: 8D 2C AH [5S 3H]=8@0 [4C 2H]=6@1; hands: 8C 4D TS / ?; rules: ";
  const std::vector<std::string> standard =
      Sorted({"take 8C 5S 3H", "take 8C 5S 3H 8D", "build 10 4D 2H 4C",
              "build 10 4D 2H 8D 2C 4C", "take TS 8D 2C"});
  EXPECT_EQ(SortedMoves(pos + "standard"), standard);
  EXPECT_EQ(SortedMoves(pos + "michigan"),
            Sorted({"take 8C 5S 3H", "take 8C 5S 3H 8D", "build 10 4D 2H 4C",
                    "build 10 4D 2H 8D 2C 4C", "take TS 8D 2C", "take 8C 8D",
                    "build 10 8C 2C", "trail 8C", "trail 4D", "trail TS"}));
  EXPECT_FALSE(
      ValidateMove(testing::Pos(pos + "michigan"), testing::M("build 9 8C AH"))
          .ok());
}

// In a game the default costs the mover 2 points at once. Seat 0
// (5H 8H JH QH; table 3C KD 9C 4D) builds 8 with 5H 3C, holding 8H; seat 1
// trails 2D. Seat 0 now controls the 8 with 8H JH QH: standard allows only
// `take 8H 5H 3C` (no trail; nothing else to take, no build to make);
// michigan adds the three trails, and trailing JH costs 2.
TEST(PresetExamplesTest, MichiganChargesTheDefaultAtOnce) {
  // seat 0 d0 d1 d6 d7, table d2 d3 d8 d9, seat 1 d4 d5 d10 d11.
  const Deck deck = DeckStarting("5H 8H 3C KD 2D 6D JH QH 9C 4D 7D AD");
  for (const char* rules : {"standard", "michigan"}) {
    Game g = NewGame(rules, deck);
    ASSERT_EQ(g.position().hands[0].ToString(), "5H 8H JH QH") << rules;
    ASSERT_EQ(g.position().table.ToString(), "4D KD 3C 9C") << rules;
    ASSERT_EQ(g.position().hands[1].ToString(), "AD 2D 6D 7D") << rules;
    ASSERT_TRUE(Play(g, "build 8 5H 3C").ok()) << rules;
    ASSERT_TRUE(Play(g, "trail 2D").ok()) << rules;
    ASSERT_EQ(g.position().table.ToString(), "2D 4D KD 9C [5H 3C]=8@0");
  }
  Game standard = NewGame("standard", deck);
  ASSERT_TRUE(Play(standard, "build 8 5H 3C").ok());
  ASSERT_TRUE(Play(standard, "trail 2D").ok());
  EXPECT_EQ(GameMoves(standard), (std::vector<std::string>{"take 8H 5H 3C"}));
  EXPECT_FALSE(Play(standard, "trail JH").ok());

  Game g = NewGame("michigan", deck);
  ASSERT_TRUE(Play(g, "build 8 5H 3C").ok());
  ASSERT_TRUE(Play(g, "trail 2D").ok());
  EXPECT_EQ(GameMoves(g),
            Sorted({"take 8H 5H 3C", "trail 8H", "trail JH", "trail QH"}));
  ASSERT_TRUE(Play(g, "trail JH").ok());
  EXPECT_EQ(g.history().back().outcome.penalty, 2);
  EXPECT_EQ(g.totals(), (std::vector<int>{-2, 0}));
  EXPECT_EQ(g.position().table.ToString(), "JH 2D 4D KD 9C [5H 3C]=8@0");
}

// Sweeps are worth 2 and scored when made: seat 0 (7S 8S 9S TS) sweeps
// AS 2S 3S 4S (1+2+3+4 = 10) with TS. Standard: the sweep waits for the
// round's end (totals 0-0); michigan: 2 points now.
TEST(PresetExamplesTest, MichiganSweepScoresTwoWhenMade) {
  const Deck deck = DeckStarting("7S 8S AS 2S 5H 6H 9S TS 3S 4S 5D 6D");
  Game standard = NewGame("standard", deck);
  ASSERT_EQ(standard.position().hands[0].ToString(), "7S 8S 9S TS");
  ASSERT_EQ(standard.position().table.ToString(), "AS 2S 3S 4S");
  ASSERT_TRUE(Play(standard, "take TS AS 2S 3S 4S").ok());
  EXPECT_TRUE(standard.history().back().outcome.sweep);
  EXPECT_EQ(standard.history().back().immediate_points, 0);
  EXPECT_EQ(standard.totals(), (std::vector<int>{0, 0}));

  Game g = NewGame("michigan", deck);
  ASSERT_TRUE(Play(g, "take TS AS 2S 3S 4S").ok());
  EXPECT_TRUE(g.history().back().outcome.sweep);
  EXPECT_EQ(g.history().back().immediate_points, 2);
  EXPECT_EQ(g.totals(), (std::vector<int>{2, 0}));
  EXPECT_TRUE(g.position().table.empty());
}

// --- california: face_capture=any face_builds=off multiple_builds=off ------

// Table KS KH 3D 5C 8H, seat 0 holds KD 8C 3S. Standard: KD takes one king
// (either); 8C takes 8H, 3D 5C, or both; 3S takes 3D or builds 8 on 5C
// (held: 8C), single or absorbing 8H (multiple). California: KD may also
// take both kings; the multiple build is gone; KD may not be built on the
// kings (no face builds, and seat 0 holds no other king anyway).
TEST(PresetExamplesTest, CaliforniaFacesPairAnyNumberNoMultipleBuilds) {
  const std::string pos = "table: KS KH 3D 5C 8H; hands: KD 8C 3S / ?; rules: ";
  const std::vector<std::string> common = {
      "take KD KS",    "take KD KH",       "trail KD", "take 8C 8H",
      "take 8C 3D 5C", "take 8C 8H 3D 5C", "trail 8C", "take 3S 3D",
      "build 8 3S 5C", "trail 3S"};
  std::vector<std::string> standard = common;
  standard.push_back("build 8 3S 8H 5C");
  EXPECT_EQ(SortedMoves(pos + "standard"), Sorted(standard));
  std::vector<std::string> california = common;
  california.push_back("take KD KS KH");
  EXPECT_EQ(SortedMoves(pos + "california"), Sorted(california));
}

// --- draw: one deal, draw after each play ----------------------------------

// Seat 0 (AS 2S 7S 8S) takes 3S 4S with 7S and draws d12 = 5H; seat 1
// (5S 6S JS QS) trails 5S and draws d13 = KS. Seat 0's drawn 5H now takes
// 5S; in the standard game seat 0 holds only AS 2S 8S and can only trail
// (AS+5S = 6, 2S+5S = 7: no value held). After 8 plays the standard game
// deals again; the draw game is still in its first deal with 4 cards a hand.
TEST(PresetExamplesTest, DrawTheDrawnCardIsPlayableAtOnce) {
  const Deck deck = DeckStarting("AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS 5H");
  Game standard = NewGame("standard", deck);
  Game g = NewGame("draw", deck);
  for (Game* game : {&standard, &g}) {
    ASSERT_EQ(game->position().hands[0].ToString(), "AS 2S 7S 8S");
    ASSERT_EQ(game->position().table.ToString(), "3S 4S 9S TS");
    ASSERT_TRUE(Play(*game, "take 7S 3S 4S").ok());
    ASSERT_TRUE(Play(*game, "trail 5S").ok());
    ASSERT_EQ(game->position().table.ToString(), "5S 9S TS");
  }
  EXPECT_EQ(standard.position().hands[0].ToString(), "AS 2S 8S");
  EXPECT_EQ(GameMoves(standard), Sorted({"trail AS", "trail 2S", "trail 8S"}));
  EXPECT_EQ(g.position().hands[0].ToString(), "AS 2S 8S 5H");
  EXPECT_EQ(g.position().hands[1].ToString(), "6S JS QS KS");
  EXPECT_EQ(g.stock_size(), 38);
  EXPECT_EQ(GameMoves(g), Sorted({"take 5H 5S", "trail AS", "trail 2S",
                                  "trail 5H", "trail 8S"}));
  // Six more plays each: the standard game's first deal is over.
  for (int i = 0; i < 6; ++i) {
    ASSERT_TRUE(standard.Play(standard.LegalMoves().front()).ok());
    ASSERT_TRUE(g.Play(g.LegalMoves().front()).ok());
  }
  EXPECT_EQ(standard.deal(), 2);
  EXPECT_EQ(g.deal(), 1);
  EXPECT_EQ(g.stock_size(), 32);
  EXPECT_EQ(g.position().hands[0].size(), 4);
  EXPECT_EQ(g.position().hands[1].size(), 4);
}

// The stock runs out after 40 plays (52 - 8 in hands - 4 on the table), each
// play drawing one card, so hands are still 4 then; from play 41 nobody
// draws and hands shrink. Which moves are played does not matter here.
TEST(PresetExamplesTest, DrawHandsShrinkOnceTheStockIsEmpty) {
  Game g = NewGame("draw", CanonicalDeck());
  int plays = 0;
  while (g.stock_size() > 0) {
    ASSERT_TRUE(g.Play(g.LegalMoves().front()).ok());
    ++plays;
    EXPECT_TRUE(g.history().back().drew);
  }
  EXPECT_EQ(plays, 40);
  EXPECT_EQ(g.deal(), 1);
  EXPECT_EQ(g.to_move(), 0);
  EXPECT_EQ(g.position().hands[0].size(), 4);
  EXPECT_EQ(g.position().hands[1].size(), 4);
  ASSERT_TRUE(g.Play(g.LegalMoves().front()).ok());
  EXPECT_FALSE(g.history().back().drew);
  EXPECT_EQ(g.position().hands[0].size(), 3);
  EXPECT_EQ(g.round(), 1);
}

// --- portuguese: target=31 tie_cards=spades ---------------------------------

// The same round counted out from 15-19. Seat 0 took every spade and heart
// and AD (27 cards), seat 1 the rest (TD, AC). Items in count-out order:
// cards 0 3, spades 0 1, TD 1 2, 2S 0 1, aces AS 0, AC 1, AH 0, AD 0:
// seat 0 8 points, seat 1 3. Standard (to 21): cards and spades take seat 0
// to 18 and 19, then TD takes seat 1 to 21, who wins at item 2 (19-21).
// Portuguese (to 31): everything is added, 23-22, and the game goes on.
TEST(PresetExamplesTest, PortuguesePlaysToThirtyOne) {
  const CardSet p0 = CardSet::OfSuit(Suit::kSpades) |
                     CardSet::OfSuit(Suit::kHearts) | *CardSet::Parse("AD");
  const std::vector<CardSet> piles = {p0, CardSet::FullDeck() - p0};
  const std::vector<std::string> items = {
      "cards 0 3",  "spades 0 1", "big_cassino 1 2 TD", "little_cassino 0 1 2S",
      "ace 0 1 AS", "ace 1 1 AC", "ace 0 1 AH",         "ace 0 1 AD"};
  const RoundScore standard = ScoreRound(RuleSet::Standard(), piles, {});
  EXPECT_EQ(Items(standard), items);
  const TotalsUpdate at21 =
      AddRoundScore(RuleSet::Standard(), {15, 19}, standard);
  EXPECT_EQ(at21.winner, 1);
  EXPECT_EQ(at21.winning_item, 2);
  EXPECT_EQ(at21.totals, (std::vector<int>{19, 21}));

  const RuleSet portuguese = *RuleSet::Parse("portuguese");
  const RoundScore score = ScoreRound(portuguese, piles, {});
  EXPECT_EQ(Items(score), items);
  const TotalsUpdate at31 = AddRoundScore(portuguese, {15, 19}, score);
  EXPECT_EQ(at31.winner, -1);
  EXPECT_EQ(at31.totals, (std::vector<int>{23, 22}));
}

// --- spade: each spade 1 more, JS 1 more; to 61 ----------------------------

// Seat 0 took JS QS KS, every heart and every diamond (29 cards); seat 1
// AS-TS and every club (23). Standard: seat 0 cards 3, TD 2, AH, AD = 7;
// seat 1 spades 1, 2S 1, AS, AC = 4 (11). Spade adds JS 1 (seat 0) and each
// spade after the aces in deck order: seat 0 3 more (11 in all, JS worth 2),
// seat 1 10 more (14): 25.
TEST(PresetExamplesTest, SpadeCountsEverySpadeAndJackOfSpadesTwice) {
  const CardSet p0 = *CardSet::Parse("JS QS KS") |
                     CardSet::OfSuit(Suit::kHearts) |
                     CardSet::OfSuit(Suit::kDiamonds);
  const std::vector<CardSet> piles = {p0, CardSet::FullDeck() - p0};
  ASSERT_EQ(p0.size(), 29);
  const RoundScore standard = ScoreRound(RuleSet::Standard(), piles, {});
  EXPECT_EQ(
      Items(standard),
      (std::vector<std::string>{"cards 0 3", "spades 1 1", "big_cassino 0 2 TD",
                                "little_cassino 1 1 2S", "ace 1 1 AS",
                                "ace 1 1 AC", "ace 0 1 AH", "ace 0 1 AD"}));
  EXPECT_EQ(standard.sides[0].points, 7);
  EXPECT_EQ(standard.sides[1].points, 4);

  const RoundScore spade = ScoreRound(*RuleSet::Parse("spade"), piles, {});
  std::vector<std::string> expected = {
      "cards 0 3",          "spades 1 1",
      "big_cassino 0 2 TD", "little_cassino 1 1 2S",
      "card 0 1 JS",        "ace 1 1 AS",
      "ace 1 1 AC",         "ace 0 1 AH",
      "ace 0 1 AD"};
  for (const char* c :
       {"AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS"}) {
    expected.push_back(absl::StrCat("spade 1 1 ", c));
  }
  for (const char* c : {"JS", "QS", "KS"}) {
    expected.push_back(absl::StrCat("spade 0 1 ", c));
  }
  EXPECT_EQ(Items(spade), expected);
  EXPECT_EQ(spade.sides[0].points, 11);
  EXPECT_EQ(spade.sides[1].points, 14);
}

}  // namespace
}  // namespace cassino
