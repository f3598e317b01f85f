// Rules audit (issue #23): the findings of the independent audit, each with
// the exact position, move list or score that shows it fixed, and the old
// reading (revision=2) that records made before keep replaying under.

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "rules/adjudicator.h"
#include "rules/game.h"
#include "rules/legal_moves.h"
#include "tests/rules/test_util.h"
#include "tools/playout/random_playout.h"

namespace cassino {
namespace {

using ::cassino::testing::BruteForce;
using ::cassino::testing::DeckStarting;
using ::cassino::testing::M;
using ::cassino::testing::Pos;
using ::cassino::testing::Rules;
using ::cassino::testing::Sorted;
using ::cassino::testing::SortedMoves;

// The generated list of `position`, checked equal to the brute force.
std::vector<std::string> Checked(const std::string& position) {
  std::vector<std::string> moves = SortedMoves(position);
  EXPECT_EQ(moves, BruteForce(Pos(position))) << position;
  return moves;
}

// --- Medium 1: Callabra ends when the table is cleared, sweeps or not ----
// "Game ends when a player finally clears all the cards from the table."

// The five captures of CallabraGameTest.ClearingTheTableWinsAtOnce: the
// fifth empties the table.
Game CallabraClearingGame(const std::string& rules) {
  Game g = *Game::Create(
      Rules(rules),
      DeckSource::Explicit({DeckStarting("2H 5H 3H 6H 4H 7H 2S 3S 4S 5S 6S")}));
  for (const char* m :
       {"take 2H 2S", "take 5H 5S", "take 3H 3S", "take 6H 6S", "take 4H 4S"}) {
    EXPECT_TRUE(g.Play(M(m)).ok()) << m;
  }
  return g;
}

TEST(AuditCallabra, ClearingTheTableEndsTheGameWithSweepsOff) {
  const Game g = CallabraClearingGame("callabra sweeps=off");
  ASSERT_TRUE(g.over());
  EXPECT_EQ(g.result()->winner, 0);
  EXPECT_EQ(g.result()->reason, GameEndReason::kClearedTable);
  EXPECT_EQ(g.result()->totals, (std::vector<int>{6, 4}));
  // Revision 2 ended it only when sweeps scored.
  const Game old = CallabraClearingGame("callabra sweeps=off revision=2");
  EXPECT_FALSE(old.over());
  EXPECT_TRUE(old.position().table.empty());
}

// --- Medium 3: continuing a build with the played card and table cards --
// Variant 1: the builder "may, however, pair or continue their 'build' with
// any card on the table"; Variant 3: "Continuing a build from only cards on
// the table is not allowed".

TEST(AuditRaiseWithTable, TheIssuesPosition) {
  const std::string pos = "table: [3C 4H]=7@0 AD; hands: AS 9C 7D / ?";
  // Seat 0 controls the 7 (v1: no trail) and holds no 8: the ace alone
  // cannot raise it, the ace with the ace on the table makes 9.
  EXPECT_EQ(Checked(pos),
            Sorted({"build 9 AS 4H AD 3C", "take 7D 4H 3C", "take AS AD"}));
  // Off (and revisions 1 and 2): the played card alone raises.
  const std::vector<std::string> before =
      Sorted({"take 7D 4H 3C", "take AS AD"});
  EXPECT_EQ(Checked(pos + "; rules: raise_with_table=off"), before);
  EXPECT_EQ(Checked(pos + "; rules: revision=2"), before);
}

TEST(AuditRaiseWithTable, MakesASingleBuildOwnedByTheRaiser) {
  Position p = Pos("table: [3C 4H]=7@1 AD 5S; hands: AS 9C / ?");
  ASSERT_TRUE(ValidateMove(p, M("build 9 AS 4H AD 3C")).ok());
  ApplyMove(p, M("build 9 AS 4H AD 3C"));
  ASSERT_EQ(p.table.builds.size(), 1u);
  EXPECT_EQ(p.table.builds[0].ToString(), "[AS 4H AD 3C]=9@0");
  EXPECT_FALSE(p.table.builds[0].multiple);
  EXPECT_EQ(p.table.loose.ToString(), "5S");
}

TEST(AuditRaiseWithTable, RefusalsSayWhy) {
  // The loose cards must make the difference, and a multiple build is
  // never raised.
  const Position p = Pos("table: [3C 4H]=7@1 2D; hands: AS 9C / ?");
  EXPECT_FALSE(ValidateMove(p, M("build 9 AS 4H 2D 3C")).ok());
  const Position multiple =
      Pos("table: [3C 4H 7S]=7m@1 AD; hands: AS 9C 7D / ?");
  EXPECT_FALSE(ValidateMove(multiple, M("build 9 AS 4H AD 3C 7S")).ok());
}

// --- Medium 4: Michigan with three or more sides -------------------------
// "a player who defaults on his duty after building gives up 2 points at
// the time of the violation."

// Plays seeded random games of `rules_text` to the first default that does
// not end the round (instant_limit would add the round's score); returns
// the totals before it and the game after it.
bool FirstDefault(const std::string& rules_text, int games,
                  std::vector<int>* before, Game* after) {
  const RuleSet rules = Rules(rules_text);
  for (int n = 0; n < games; ++n) {
    Seed seed{};
    seed[0] = static_cast<uint8_t>(n);
    Game g = *Game::Create(rules, DeckSource::FromSeed(seed));
    RandomPlayer player(seed);
    while (!g.over()) {
      *before = g.totals();
      const size_t rounds = g.rounds().size();
      g.PlayUnchecked(player.Choose(g));
      if (g.history().back().outcome.penalty > 0 &&
          g.rounds().size() == rounds) {
        *after = std::move(g);
        return true;
      }
    }
  }
  return false;
}

TEST(AuditMichigan, ADefaultGivesTwoPointsToTheNextSideOnly) {
  std::vector<int> before;
  Game g = *Game::Create(Rules("michigan"), DeckSource::FromSeed(Seed{}));
  ASSERT_TRUE(FirstDefault("michigan players=3", 60, &before, &g));
  const PlayedMove& m = g.history().back();
  ASSERT_EQ(m.outcome.penalty, 2);
  std::vector<int> expected = before;
  expected[m.seat] += m.immediate_points;
  expected[(m.seat + 1) % 3] += 2;
  EXPECT_EQ(g.totals(), expected);
}

TEST(AuditMichigan, TheIssuesThreePlayerTargetTwoGame) {
  // With nothing scored before, the default ends the game: the next side
  // alone reaches 2 and wins; revision 2 gave 2 to both other sides and
  // the lower seat won the tie.
  std::vector<int> before;
  Game g = *Game::Create(Rules("michigan"), DeckSource::FromSeed(Seed{}));
  ASSERT_TRUE(FirstDefault("michigan players=3 target=2", 60, &before, &g));
  ASSERT_EQ(before, (std::vector<int>{0, 0, 0}));
  const int seat = g.history().back().seat;
  ASSERT_TRUE(g.over());
  EXPECT_EQ(g.result()->winner, (seat + 1) % 3);
  std::vector<int> expected = {0, 0, 0};
  expected[(seat + 1) % 3] = 2;
  EXPECT_EQ(g.result()->totals, expected);

  Game old = *Game::Create(Rules("michigan"), DeckSource::FromSeed(Seed{}));
  ASSERT_TRUE(FirstDefault("michigan players=3 target=2 revision=2", 60,
                           &before, &old));
  const int old_seat = old.history().back().seat;
  ASSERT_TRUE(old.over());
  std::vector<int> old_expected = {2, 2, 2};
  old_expected[old_seat] = 0;
  EXPECT_EQ(old.result()->totals, old_expected);
  EXPECT_EQ(old.result()->winner, old_seat == 0 ? 1 : 0);
}

TEST(AuditMichigan, TwoSidesUnchanged) {
  // With two sides the next side is the other side, as in revision 2.
  std::vector<int> before;
  Game g = *Game::Create(Rules("michigan"), DeckSource::FromSeed(Seed{}));
  ASSERT_TRUE(FirstDefault("michigan", 20, &before, &g));
  const PlayedMove& m = g.history().back();
  std::vector<int> expected = before;
  expected[m.seat] += m.immediate_points;
  expected[1 - m.seat] += 2;
  EXPECT_EQ(g.totals(), expected);
}

// --- Low: the related games refuse Cassino's options ---------------------

TEST(AuditRelatedGames, RefuseCassinoOptions) {
  for (const char* text :
       {"callabra deal=fours", "tablanette all_eleven=win",
        "callabra face_capture=all builder_obligation=v3",
        "tablanette pluck=on", "callabra defaults_cost=2",
        "tablanette raise_with_table=off", "callabra card_values=royal"}) {
    EXPECT_FALSE(RuleSet::Parse(text).ok()) << text;
    // Records of revision 2 keep them (without effect).
    EXPECT_TRUE(RuleSet::Parse(std::string(text) + " revision=2").ok()) << text;
  }
  for (const char* text : {"callabra players=4 sweeps=off",
                           "tablanette players=4 "
                           "partnerships=on target=31 "
                           "game_end=highest_total sweeps=2"}) {
    EXPECT_TRUE(RuleSet::Parse(text).ok()) << text;
  }
}

// --- Low: Pluck's point cards follow the scoring -------------------------
// "Point cards cannot be plucked - so plucking excludes aces, big casino
// (10 of diamonds) and little casino (2 of spades)."

TEST(AuditPluck, PointCardsAreThoseTheScoringCounts) {
  // Spade Cassino: every spade scores (JS two); Diamond: 7D and the aces.
  EXPECT_EQ(
      SortedMoves("table: JS 9H 6C; hands: 4D / ?; rules: spade pluck=on"),
      Sorted({"trail 4D", "trail 4D, pluck 9H", "trail 4D, pluck 6C",
              "pluck 9H, trail 4D", "pluck 6C, trail 4D"}));
  EXPECT_EQ(
      SortedMoves("table: 7D 9H AC; hands: 4D / ?; rules: diamond pluck=on"),
      Sorted({"trail 4D", "trail 4D, pluck 9H", "pluck 9H, trail 4D"}));
  // Revision 2: aces, TD and 2S whatever the scoring.
  EXPECT_EQ(SortedMoves("table: JS 9H 6C; hands: 4D / ?; rules: spade pluck=on "
                        "revision=2"),
            Sorted({"trail 4D", "trail 4D, pluck JS", "trail 4D, pluck 9H",
                    "trail 4D, pluck 6C", "pluck JS, trail 4D",
                    "pluck 9H, trail 4D", "pluck 6C, trail 4D"}));
  // The standard scoring: the same cards as ever.
  EXPECT_EQ(SortedMoves("table: AH 2S TD 6C; hands: 4D / ?; rules: pluck"),
            Sorted({"trail 4D", "trail 4D, pluck 6C", "pluck 6C, trail 4D"}));
}

// --- Explicit decks of reduced packs --------------------------------------

TEST(AuditExplicitDecks, ParseAgainstThePack) {
  for (const char* text :
       {"diamond", "five_players", "remove=2H+2D+2C+2S+3H+3D+3C+3S"}) {
    const RuleSet rules = Rules(text);
    const Deck deck = CanonicalDeck(rules.Pack());
    absl::StatusOr<Deck> parsed = ParseDeck(DeckToString(deck), rules.Pack());
    ASSERT_TRUE(parsed.ok()) << text << ": " << parsed.status();
    EXPECT_TRUE(Game::Create(rules, DeckSource::Explicit({*parsed})).ok());
    EXPECT_FALSE(ParseDeck(DeckToString(CanonicalDeck()), rules.Pack()).ok());
  }
}

}  // namespace
}  // namespace cassino
