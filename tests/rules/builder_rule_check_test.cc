// BuilderRuleCheck (rules/builder_rules.h) against CheckBuilderRules: at
// every position of seeded random games under each builder obligation, with
// and without flexible cards, every candidate effect (each hand card, each
// kind, each set of builds taken, each build changed) gets the same answer
// from both.

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "rules/builder_rules.h"
#include "rules/deal.h"
#include "rules/game.h"
#include "tests/rules/property_util.h"
#include "tools/playout/random_playout.h"

namespace cassino {
namespace {

struct Counts {
  long effects = 0;
  long broken = 0;
  long positions_with_control = 0;
};

// Compares the two on every candidate effect of g's position.
void CompareAt(const Position& pos, Counts* counts) {
  BuilderRuleCheck check;
  check.Reset(pos);
  const int n_builds = static_cast<int>(pos.table.builds.size());
  // Subsets of the first four builds taken (enough to reach every build a
  // random game leaves), each build changed or none.
  const uint32_t subsets = uint32_t{1} << std::min(n_builds, 4);
  counts->positions_with_control +=
      ControlledBuilds(pos, pos.to_move) != 0 ? 1 : 0;
  for (Card c : pos.hands[pos.to_move]) {
    for (MoveKind kind :
         {MoveKind::kTrail, MoveKind::kCapture, MoveKind::kBuild}) {
      for (uint32_t taken = 0; taken < subsets; ++taken) {
        for (int changed = -1; changed < n_builds; ++changed) {
          for (int value : {pos.rules.CardValue(c), 7, 10}) {
            const MoveEffect e{kind, c, value, taken, changed};
            const bool slow =
                CheckBuilderRules(pos, e) != BuilderViolation::kNone;
            ASSERT_EQ(check.Breaks(e), slow)
                << pos.ToString() << " card " << c.ToString() << " kind "
                << static_cast<int>(kind) << " taken " << taken << " changed "
                << changed << " value " << value;
            ++counts->effects;
            counts->broken += slow;
          }
        }
      }
    }
  }
}

class BuilderRuleCheckTest : public ::testing::TestWithParam<std::string> {};

TEST_P(BuilderRuleCheckTest, AgreesWithCheckBuilderRules) {
  absl::StatusOr<RuleSet> rules = RuleSet::Parse(GetParam());
  ASSERT_TRUE(rules.ok()) << rules.status();
  Seed batch{};
  const std::string tag = "builder_rule_check";
  for (size_t i = 0; i < tag.size(); ++i) batch[i] = tag[i];
  Counts counts;
  const int games = testing::GamesPerConfig(150);
  for (int n = 0; n < games; ++n) {
    const Seed seed = BatchGameSeed(batch, n);
    Game g = *Game::Create(*rules, DeckSource::FromSeed(seed));
    RandomPlayer player(seed);
    while (!g.over() && g.rounds().size() < 2) {
      ASSERT_NO_FATAL_FAILURE(CompareAt(g.position(), &counts));
      g.PlayUnchecked(player.Choose(g));
    }
  }
  // Both answers occur, and the mover controls a build in some positions:
  // the comparison covers the rules, not only the easy case.
  EXPECT_GT(counts.broken, 0);
  EXPECT_LT(counts.broken, counts.effects);
  EXPECT_GT(counts.positions_with_control, 0);
}

// Each obligation; a flexible card (TD under dual_ten, aces under
// ace_high) in the hand, where the check falls back to CheckBuilderRules.
INSTANTIATE_TEST_SUITE_P(
    Obligations, BuilderRuleCheckTest,
    ::testing::Values("standard", "standard builder_obligation=none",
                      "standard builder_obligation=v2",
                      "standard builder_obligation=v3", "standard dual_ten=on",
                      "royal ace_high=on",
                      "standard face_capture=four face_builds=on"));

}  // namespace
}  // namespace cassino
