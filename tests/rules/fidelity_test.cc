// Rules fidelity (issue #13): worked positions for the readings of the
// source texts that revision 2 of the rules corrects, each with its full
// legal-move list, cross-checked against the brute-force validator, and the
// old reading (revision=1) that older records replay under.

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "rules/adjudicator.h"
#include "rules/game.h"
#include "rules/legal_moves.h"
#include "tests/rules/test_util.h"
#include "tools/playout/random_playout.h"

namespace cassino {
namespace {

using ::cassino::testing::BruteForce;
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

// --- 1. Natural building with the played card alone --------------------
// "a player can place a 7 on top of another 7, or on top of a 5 and a 2
// which have been built to 7, and announce 'building sevens', provided
// that he has a 7 in his hand" (sources 000, 001).

TEST(NaturalBuild, SevenOnASeven) {
  EXPECT_EQ(Checked("table: 7C; hands: 7H 7S / ?"),
            Sorted({"build 7 7S 7C", "build 7 7H 7C", "take 7S 7C",
                    "take 7H 7C", "trail 7S", "trail 7H"}));
}

TEST(NaturalBuild, SevenOnALooseGroupOfSeven) {
  EXPECT_EQ(Checked("table: 3C 4D; hands: 7H 7S / ?"),
            Sorted({"build 7 7S 4D 3C", "build 7 7H 4D 3C", "take 7S 4D 3C",
                    "take 7H 4D 3C", "trail 7S", "trail 7H"}));
}

TEST(NaturalBuild, NeedsAnotherCardOfTheValue) {
  // One 7 only: nothing to take the build with later.
  EXPECT_EQ(Checked("table: 7C; hands: 7H 9S / ?"),
            Sorted({"take 7H 7C", "trail 7H", "trail 9S"}));
}

TEST(NaturalBuild, AbsorbsFurtherGroups) {
  // 7H (or 7S) alone is one group; 7C and 4D+3C are two more. 2D builds 7
  // with 5S as before.
  const std::string pos = "table: 7C 4D 3C 5S; hands: 7H 7S 2D / ?";
  EXPECT_EQ(
      Checked(pos),
      Sorted({"build 7 7S 7C", "build 7 7S 4D 3C", "build 7 7S 4D 3C 7C",
              "build 7 7H 7C", "build 7 7H 4D 3C", "build 7 7H 4D 3C 7C",
              "take 7S 7C", "take 7S 4D 3C", "take 7S 4D 3C 7C", "take 7H 7C",
              "take 7H 4D 3C", "take 7H 4D 3C 7C", "build 7 2D 5S",
              "build 7 2D 5S 7C", "build 7 2D 5S 4D 3C",
              "build 7 2D 5S 4D 3C 7C", "trail 7S", "trail 7H", "trail 2D"}));
  // Without absorbing a natural build takes exactly one loose group.
  EXPECT_EQ(Checked(pos + "; rules: multi_build_absorb=off"),
            Sorted({"build 7 7S 7C", "build 7 7S 4D 3C", "build 7 7H 7C",
                    "build 7 7H 4D 3C", "take 7S 7C", "take 7S 4D 3C",
                    "take 7S 4D 3C 7C", "take 7H 7C", "take 7H 4D 3C",
                    "take 7H 4D 3C 7C", "build 7 2D 5S", "trail 7S", "trail 7H",
                    "trail 2D"}));
}

TEST(NaturalBuild, NotWithoutMultipleBuildsNorInRevisionOne) {
  const std::string pos = "table: 3C 4D; hands: 7H 7S / ?; rules: ";
  const std::vector<std::string> takes_and_trails =
      Sorted({"take 7S 4D 3C", "take 7H 4D 3C", "trail 7S", "trail 7H"});
  // California: no multiple builds, and a natural build is one.
  EXPECT_EQ(Checked(pos + "california"), takes_and_trails);
  EXPECT_EQ(Checked(pos + "multiple_builds=off"), takes_and_trails);
  // The old reading, for records made before revision 2.
  EXPECT_EQ(Checked(pos + "revision=1"), takes_and_trails);
  EXPECT_EQ(
      ValidateMove(Pos(pos + "revision=1"), M("build 7 7H 4D 3C")).message(),
      "a new build of 7 needs table cards that, with 7H, sum to 7; to "
      "take cards of 7 use take (natural builds with the played card "
      "alone need revision=2)");
}

TEST(NaturalBuild, EveryValueUpToTheBuildLimit) {
  // Aces to tens; with royal values kings (13) too.
  EXPECT_EQ(Checked("table: AC; hands: AS AH / ?"),
            Sorted({"build 1 AS AC", "build 1 AH AC", "take AS AC",
                    "take AH AC", "trail AS", "trail AH"}));
  EXPECT_EQ(Checked("table: 4C 6C; hands: TS TH / ?"),
            Sorted({"build 10 TS 4C 6C", "build 10 TH 4C 6C", "take TS 4C 6C",
                    "take TH 4C 6C", "trail TS", "trail TH"}));
  const std::vector<std::string> royal =
      SortedMoves("table: KC; hands: KS KH / ?; rules: royal");
  EXPECT_EQ(royal,
            BruteForce(Pos("table: KC; hands: KS KH / ?; rules: royal")));
  EXPECT_NE(std::find(royal.begin(), royal.end(), "build 13 KS KC"),
            royal.end());
}

TEST(NaturalBuild, MakesAMultipleBuildTakenOnlyByItsValue) {
  Position p = Pos("table: 3C 4D; hands: 7H 7S 3S / 5D 2H 9C");
  ApplyMove(p, M("build 7 7H 4D 3C"));
  EXPECT_EQ(p.table.ToString(), "[7H 4D 3C]=7m@0");
  // Seat 1 can neither raise it (a multiple build) nor take it with 9.
  EXPECT_EQ(SortedMoves(p.ToString()),
            Sorted({"trail 5D", "trail 2H", "trail 9C"}));
  ApplyMove(p, M("trail 9C"));
  EXPECT_EQ(SortedMoves(p.ToString()), Sorted({"take 7S 7H 4D 3C"}));
}

// --- 2. Adversaries take a build by combination -------------------------
// "The building player's adversaries may also take in a build by
// combination, increasing the capturing number; that is, an eight build may
// be combined with an ace if an adversary holds a nine" (sources 000, 001).

TEST(Combination, AnAdversaryCombinesAnEightBuildWithAnAce) {
  const std::string pos = "table: [5S 3H]=8@1 AC 4D; hands: 9D 2C / ?";
  EXPECT_EQ(Checked(pos), Sorted({"take 9D 5S 3H AC", "trail 9D", "trail 2C"}));
  // Hoyle's stricter reading, and revision 1 (the old default).
  const std::vector<std::string> trails = Sorted({"trail 9D", "trail 2C"});
  EXPECT_EQ(Checked(pos + "; rules: builds_in_sums=never"), trails);
  EXPECT_EQ(Checked(pos + "; rules: revision=1"), trails);
  EXPECT_EQ(
      Checked(pos + "; rules: revision=1 builds_in_sums=opponents_single"),
      Sorted({"take 9D 5S 3H AC", "trail 9D", "trail 2C"}));
}

TEST(Combination, NotOnesOwnNorAPartnersNorAMultipleBuild) {
  // Own build: 8C takes it; 9D may not combine it with the ace (and may
  // not trail under v1).
  EXPECT_EQ(Checked("table: [5S 3H]=8@0 AC; hands: 9D 8C / ?"),
            Sorted({"take 8C 5S 3H"}));
  // A multiple build's capturing number never changes.
  EXPECT_EQ(Checked("table: [4S 4H 5C 3C]=8m@1 AC; hands: 9D / ?"),
            Sorted({"trail 9D"}));
  // Partnerships: the partner's (seat 2) build is not an adversary's.
  EXPECT_EQ(Checked("table: [5S 3H]=8@2 AC; hands: 9D / ? / ? / ?; "
                    "rules: players=4 partnerships=on"),
            Sorted({"trail 9D"}));
  EXPECT_EQ(Checked("table: [5S 3H]=8@1 AC; hands: 9D / ? / ? / ?; "
                    "rules: players=4 partnerships=on"),
            Sorted({"take 9D 5S 3H AC", "trail 9D"}));
}

// --- 3. Variant 3: take in, duplicate or increase the build -------------
// "You must either take in the build, duplicate it or increase it, OR
// defer by starting another build or assuming ownership of an opponent's
// build. A build 'belongs' to the last player that set its value."

TEST(VariantThree, ACaptureMustTakeInOnesBuild) {
  // Seat 0 owns the 8: 8C takes it in, 4C duplicates it with 4D; taking
  // 4D alone with 4C leaves the build and is refused.
  const std::string pos =
      "table: [5S 3H]=8@0 4D; hands: 8C 4C 2S / ?; rules: "
      "builder_obligation=v3";
  EXPECT_EQ(Checked(pos), Sorted({"take 8C 5S 3H", "build 8 4C 5S 3H 4D"}));
  EXPECT_EQ(ValidateMove(Pos(pos), M("take 4C 4D")).message(),
            "you control a build of 8 ([5S 3H]=8@0): a capture must take it "
            "in; otherwise duplicate or increase it, start another build or "
            "take over an opponent's single build (builder_obligation=v3)");
  // Revision 1 allowed it.
  EXPECT_EQ(Checked(pos + " revision=1"),
            Sorted({"take 8C 5S 3H", "build 8 4C 5S 3H 4D", "take 4C 4D"}));
}

TEST(VariantThree, MayDeferByStartingAnotherBuildOrTakingOneOver) {
  // Seat 0 owns the 5. Take it in (5D), duplicate it (4S with AD), increase
  // it (4S to 9), start another build (3D on AD makes 4), or take over
  // seat 1's single 6 by raising it to 9. 4S on AD would start a second
  // build of 5, and nothing may be trailed. Revision 3 (raise_with_table)
  // also increases the 5 to 9 with 3D and the loose AD.
  const std::string pos =
      "table: [3S 2H]=5@0 [4C 2C]=6@1 AD; hands: 5D 3D 9C 4S / ?; rules: "
      "builder_obligation=v3";
  EXPECT_EQ(Checked(pos), Sorted({"take 5D 3S 2H", "build 5 4S 3S 2H AD",
                                  "build 9 4S 3S 2H", "build 9 3D 3S 2H AD",
                                  "build 4 3D AD", "build 9 3D 2C 4C"}));
  EXPECT_EQ(Checked(pos + " raise_with_table=off"),
            Sorted({"take 5D 3S 2H", "build 5 4S 3S 2H AD", "build 9 4S 3S 2H",
                    "build 4 3D AD", "build 9 3D 2C 4C"}));
}

TEST(VariantThree, DuplicatingKeepsTheOwner) {
  // Seat 0 controls no build and duplicates seat 1's 8: it stays seat 1's
  // (revision 2); revision 1 gave it to seat 0.
  Position p = Pos(
      "table: [5S 3H]=8@1 4D; hands: 4C 8C / 8D; rules: builder_obligation=v3");
  ApplyMove(p, M("build 8 4C 5S 3H 4D"));
  EXPECT_EQ(p.table.ToString(), "[5S 3H 4D 4C]=8m@1");
  Position old = Pos(
      "table: [5S 3H]=8@1 4D; hands: 4C 8C / 8D; rules: builder_obligation=v3 "
      "revision=1");
  ApplyMove(old, M("build 8 4C 5S 3H 4D"));
  EXPECT_EQ(old.table.ToString(), "[5S 3H 4D 4C]=8m@0");
  // Increasing it takes it over.
  Position raised = Pos(
      "table: [5S 3H]=8@1; hands: 2C TC / 8D; rules: builder_obligation=v3");
  ApplyMove(raised, M("build 10 2C 5S 3H"));
  EXPECT_EQ(raised.table.ToString(), "[5S 3H 2C]=10@0");
}

// --- 4. face_capture=all: any non-empty set of the rank -----------------

TEST(FaceCaptureAll, TakesAnyNonEmptySetOfItsRank) {
  const std::string pos =
      "table: QS QH QC 7C; hands: QD 7D / ?; rules: "
      "face_capture=all";
  EXPECT_EQ(Checked(pos),
            Sorted({"take QD QS", "take QD QH", "take QD QC", "take QD QS QH",
                    "take QD QS QC", "take QD QH QC", "take QD QS QH QC",
                    "take 7D 7C", "trail QD", "trail 7D"}));
  // Revision 1: one, or all of them.
  EXPECT_EQ(Checked(pos + " revision=1"),
            Sorted({"take QD QS", "take QD QH", "take QD QC",
                    "take QD QS QH QC", "take 7D 7C", "trail QD", "trail 7D"}));
  // The default takes exactly one.
  EXPECT_EQ(Checked("table: QS QH QC 7C; hands: QD 7D / ?"),
            Sorted({"take QD QS", "take QD QH", "take QD QC", "take 7D 7C",
                    "trail QD", "trail 7D"}));
}

// --- 5. Michigan: defaults give points away; games end ------------------
// "a player who defaults on his duty after building gives up 2 points at
// the time of the violation ... any three instant scores (sweeps or
// defaults) against the same player ends the round" (sources 000, 001).

// Plays seeded random games of `rules` until `stop` says so after a move;
// returns whether it did.
template <typename Stop>
bool PlayUntil(const std::string& rules_text, int games, Stop&& stop) {
  const RuleSet rules = Rules(rules_text);
  for (int n = 0; n < games; ++n) {
    Seed seed{};
    seed[0] = static_cast<uint8_t>(n);
    Game g = *Game::Create(rules, DeckSource::FromSeed(seed));
    RandomPlayer player(seed);
    while (!g.over()) {
      const std::vector<int> before = g.totals();
      const size_t rounds = g.rounds().size();
      g.PlayUnchecked(player.Choose(g));
      if (stop(g, before, rounds)) return true;
    }
  }
  return false;
}

TEST(Michigan, TheDefaulterGivesItsPointsToTheOtherSide) {
  auto check = [](int expected_other, int expected_mover) {
    return [=](const Game& g, const std::vector<int>& before, size_t rounds) {
      const PlayedMove& m = g.history().back();
      if (m.outcome.penalty == 0 || g.rounds().size() != rounds || g.over()) {
        return false;
      }
      const int mover = g.rules().SideOf(m.seat);
      EXPECT_EQ(m.outcome.penalty, 2);
      EXPECT_EQ(g.totals()[mover],
                before[mover] + m.immediate_points + expected_mover);
      EXPECT_EQ(g.totals()[1 - mover], before[1 - mover] + expected_other);
      return true;
    };
  };
  EXPECT_TRUE(PlayUntil("michigan", 20, check(2, 0)));
  // Revision 1 took them from the mover's total.
  EXPECT_TRUE(PlayUntil("michigan revision=1", 20, check(0, -2)));
}

TEST(Michigan, ThreeInstantScoresAgainstOneSideEndTheRound) {
  const bool found = PlayUntil(
      "michigan", 200,
      [](const Game& g, const std::vector<int>&, size_t rounds) {
        if (g.rounds().size() == rounds || !g.rounds().back().ended_early) {
          return false;
        }
        // Count the instant scores against each side in that round: its own
        // defaults, the others' sweeps.
        const RoundResult& r = g.rounds().back();
        std::vector<int> against(g.rules().Sides(), 0);
        int reached_at = -1, moves = 0;
        for (const PlayedMove& m : g.history()) {
          if (m.round != r.round) continue;
          const int side = g.rules().SideOf(m.seat);
          if (m.outcome.penalty > 0) ++against[side];
          if (m.outcome.sweep) {
            for (int s = 0; s < g.rules().Sides(); ++s) against[s] += s != side;
          }
          ++moves;
          if (reached_at < 0 &&
              *std::max_element(against.begin(), against.end()) >= 3) {
            reached_at = moves;
          }
        }
        EXPECT_EQ(reached_at, moves) << "the round went on after the third";
        EXPECT_FALSE(r.unplayed.empty());
        EXPECT_LT(moves, 48);
        return true;
      });
  EXPECT_TRUE(found);
}

TEST(Michigan, EveryGameEnds) {
  // Before revision 2 random michigan games ran below zero for ever.
  const RuleSet rules = Rules("michigan");
  for (int n = 0; n < 50; ++n) {
    Seed seed{};
    seed[1] = static_cast<uint8_t>(n);
    const Game g = PlayRandomGame(rules, seed);
    ASSERT_TRUE(g.over());
    EXPECT_NE(g.result()->reason, GameEndReason::kAborted) << n;
    EXPECT_GE(g.result()->winner, 0);
  }
}

TEST(MoveCap, ARunawayGameIsAnErrorNotUnboundedMemory) {
  // Nothing ever scores, so the target is never reached.
  const RuleSet rules = Rules("standard scoring=none sweeps=off");
  Seed seed{};
  Game g = *Game::Create(rules, DeckSource::FromSeed(seed));
  RandomPlayer player(seed);
  absl::Status last;
  while (!g.over()) last = g.Play(player.Choose(g));
  EXPECT_EQ(last.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(g.turn(), Game::kMaxMoves);
  EXPECT_EQ(g.result()->reason, GameEndReason::kAborted);
  EXPECT_EQ(g.result()->detail,
            "the game did not end within 100000 moves (its rules may never "
            "reach an end)");
}

// --- 6. Missing variants -------------------------------------------------
// "The dealer has the option to deal any number of cards at one time to
// each person so long as each person is dealt in sequence. This can include
// a deal of one, two, three, or four cards to each" (source 002).

// The hands and table after the first deal of an explicit canonical deck
// (AS 2S 3S ...), 2 players, dealer seat 1.
std::string FirstDeal(const std::string& deal) {
  Deck deck;
  for (int i = 0; i < kDeckSize; ++i) deck.push_back(Card::FromIndex(i));
  const Game g = *Game::Create(Rules("standard deal=" + deal),
                               DeckSource::Explicit({deck}));
  return absl::StrCat(g.position().hands[0].ToString(), " / ",
                      g.position().hands[1].ToString(), " / ",
                      g.position().table.ToString());
}

TEST(DealPackets, OneTwoThreeOrFourAtATime) {
  // d0.. = AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS.
  EXPECT_EQ(FirstDeal("twos"), "AS 2S 7S 8S / 5S 6S JS QS / 3S 4S 9S TS");
  EXPECT_EQ(FirstDeal("singles"), "AS 4S 7S TS / 3S 6S 9S QS / 2S 5S 8S JS");
  EXPECT_EQ(FirstDeal("threes"), "AS 2S 3S TS / 7S 8S 9S QS / 4S 5S 6S JS");
  EXPECT_EQ(FirstDeal("fours"), "AS 2S 3S 4S / 9S TS JS QS / 5S 6S 7S 8S");
}

// "A scoring variation in which each point card is scored as it is
// captured also exists" (sources 000, 001).
TEST(ScoreAsCaptured, PointCardsScoreWhenTakenAndNotAgainWithTheRound) {
  int captures = 0;
  const bool round_seen = PlayUntil(
      "standard score_as_captured=on", 20,
      [&](const Game& g, const std::vector<int>& before, size_t rounds) {
        const PlayedMove& m = g.history().back();
        if (g.rounds().size() == rounds) {
          if (m.outcome.captured.empty() || g.over()) return false;
          int points = 0;
          for (Card c : m.outcome.captured) {
            points += (c == kBigCassino) * 2 + (c == kLittleCassino) +
                      (c.rank() == kAce);
          }
          if (points == 0) return false;
          ++captures;
          const int side = g.rules().SideOf(m.seat);
          EXPECT_EQ(m.immediate_points, points);
          EXPECT_EQ(g.totals()[side], before[side] + points);
          return false;
        }
        // At the round's end only the leftovers' point cards are items.
        const RoundResult& r = g.rounds().back();
        for (const ScoreItem& it : r.score.items) {
          if (ScoreItemHasCard(it.kind)) {
            EXPECT_TRUE(r.leftovers.contains(it.card)) << it.card.ToString();
          }
        }
        return true;
      });
  EXPECT_TRUE(round_seen);
  EXPECT_GT(captures, 0);
}

TEST(ScoreAsCaptured, ReachingTheTargetWithACaptureWinsAtOnce) {
  const bool won = PlayUntil(
      "standard score_as_captured=on target=3", 20,
      [](const Game& g, const std::vector<int>&, size_t) {
        if (!g.over()) return false;
        EXPECT_EQ(g.result()->reason, GameEndReason::kTarget);
        EXPECT_GT(g.history().back().immediate_points, 0);
        EXPECT_TRUE(g.rounds().empty()) << "won during the first round";
        return true;
      });
  EXPECT_TRUE(won);
}

}  // namespace
}  // namespace cassino
