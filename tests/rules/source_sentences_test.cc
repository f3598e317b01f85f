// Sentences of the source texts that docs/rules_trace.md traces to a rule
// and that no other test pinned: each test names the sentence it pins.

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "rules/game.h"
#include "rules/scoring.h"
#include "tests/rules/test_util.h"

namespace cassino {
namespace {

using ::cassino::testing::Rules;
using ::cassino::testing::Sorted;
using ::cassino::testing::SortedMoves;

// Plays the current round to its end: seat `taker` plays its first capture
// whenever it has one, every other seat trails; with taker -1 every seat
// captures when it can. Nobody builds, so trailing is always legal.
void PlayRound(Game& g, int taker) {
  const int round = g.round();
  while (!g.over() && g.round() == round) {
    const std::vector<Move> moves = g.LegalMoves();
    ASSERT_FALSE(moves.empty());
    const bool captures = taker < 0 || g.to_move() == taker;
    const Move* chosen = nullptr;
    for (const Move& m : moves) {
      if (m.kind == MoveKind::kCapture && captures && chosen == nullptr) {
        chosen = &m;
      }
    }
    for (const Move& m : moves) {
      if (m.kind == MoveKind::kTrail && chosen == nullptr) chosen = &m;
    }
    ASSERT_NE(chosen, nullptr);
    ASSERT_TRUE(g.Play(*chosen).ok()) << chosen->ToString();
  }
}

Game NewGame(const std::string& rules) {
  return *Game::Create(Rules(rules), DeckSource::FromSeed(Seed{}));
}

// "If one player has won the entire 11 points, ... Other rules state that
// this is a 'skunk' if it occurs in the first round, and therefore that
// player wins. In other variations, taking all traditional 11 points in a
// single round is an automatic win, no matter when it occurs." Seat 1 only
// trails, so seat 0 takes every card (the last cards as the last capturer).
TEST(SourceSentencesTest, AllElevenInRoundOneSkunkAndWinEndTheGame) {
  for (const char* rules : {"standard all_eleven=skunk target=1000",
                            "standard all_eleven=win target=1000"}) {
    Game g = NewGame(rules);
    PlayRound(g, 0);
    ASSERT_TRUE(g.over()) << rules;
    EXPECT_EQ(g.result()->winner, 0) << rules;
    EXPECT_EQ(g.result()->reason, GameEndReason::kAllEleven) << rules;
  }
  // Without the option the game plays on; the round still had all eleven.
  Game none = NewGame("standard target=1000");
  PlayRound(none, 0);
  EXPECT_FALSE(none.over());
  EXPECT_EQ(none.rounds().at(0).score.all_eleven_side, 0);
}

// The skunk counts only in the first round; `win` counts in any round.
TEST(SourceSentencesTest, AllElevenLaterOnlyWinEndsTheGame) {
  for (const auto& [rules, ends] : std::vector<std::pair<std::string, bool>>{
           {"standard all_eleven=skunk target=1000", false},
           {"standard all_eleven=win target=1000", true}}) {
    Game g = NewGame(rules);
    PlayRound(g, -1);  // both capture: nobody takes all eleven
    ASSERT_FALSE(g.over()) << rules;
    ASSERT_EQ(g.rounds()[0].score.all_eleven_side, -1) << rules;
    ASSERT_EQ(g.round(), 2);
    // Round 2 is dealt by seat 0, so seat 1 leads: seat 1 takes everything.
    PlayRound(g, 1);
    ASSERT_EQ(g.rounds().back().score.all_eleven_side, 1) << rules;
    EXPECT_EQ(g.over(), ends) << rules;
    if (ends) {
      EXPECT_EQ(g.result()->winner, 1) << rules;
    }
  }
}

// "A sweep is declared by a player who manages to capture all face-up cards
// from the table. ... The opponent has no move except to trail": on an
// empty table every card can only be trailed.
TEST(SourceSentencesTest, AfterASweepTheOpponentCanOnlyTrail) {
  EXPECT_EQ(SortedMoves("table: -; hands: 5H 8C KS / ?"),
            Sorted({"trail 5H", "trail 8C", "trail KS"}));
}

// California: "a player may lay one card on top of multiple cards to build
// to one numerical value. For example, if a player holds a 3 if their hand
// and a 2 and 4 are on the table, that player may place the 3 on the 4 and
// the 2 and declare 'building 9.'" (and must hold the 9).
TEST(SourceSentencesTest, OneCardBuildsOnSeveralLooseCards) {
  EXPECT_EQ(SortedMoves("table: 2C 4D; hands: 3H 9S / ?; rules: california"),
            Sorted({"build 9 3H 4D 2C", "trail 3H", "trail 9S"}));
}

// "Note that the five of spades does not in itself give a point, just the
// sweep." The five_spades preset scores the standard 11 and no 5S item.
TEST(SourceSentencesTest, FiveOfSpadesScoresOnlyTheSweep) {
  const RuleSet rules = Rules("five_spades");
  EXPECT_EQ(BasePoints(rules), kBasePoints);
  EXPECT_EQ(rules.scoring, RuleSet::Standard().scoring);
}

// Sweeps: "California Cassino prohibits points based on sweeps"; Royal
// "Sweeps do not count"; trailing-royals "does not pair well with the
// preceding variant that rewards sweeps"; Michigan "Sweeps also score 2
// points".
TEST(SourceSentencesTest, SweepPointsOfThePresets) {
  EXPECT_EQ(Rules("standard").sweep_points, 1);
  EXPECT_EQ(Rules("california").sweep_points, 0);
  EXPECT_EQ(Rules("royal").sweep_points, 0);
  EXPECT_EQ(Rules("trailing_royals").sweep_points, 0);
  EXPECT_EQ(Rules("michigan").sweep_points, 2);
}

// "California Cassino is a variation for two, three, four or six players":
// each of those counts deals out the 52 cards; five do not (48 cards after
// the table do not make deals of 4 x 5).
TEST(SourceSentencesTest, CaliforniaPlayerCounts) {
  for (int players : {2, 3, 4, 6}) {
    EXPECT_TRUE(
        RuleSet::Parse("california players=" + std::to_string(players)).ok())
        << players;
  }
  EXPECT_FALSE(RuleSet::Parse("california players=5").ok());
}

}  // namespace
}  // namespace cassino
