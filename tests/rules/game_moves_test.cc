// rules/game_moves.h's shared helpers: ApplyGameMove does to a position
// what Game does for each move, in every game; InNotationOrder gives the
// API's order (by notation) with each notation made once.

#include "rules/game_moves.h"

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "rules/game.h"
#include "tests/rules/test_util.h"

namespace cassino {
namespace {

using ::cassino::testing::Rules;
using ::cassino::testing::SeedOf;

class ApplyGameMoveTest : public ::testing::TestWithParam<std::string> {};

// Within a deal, the position after Game::PlayUnchecked is the position
// ApplyGameMove made from the one before (tables and hands).
TEST_P(ApplyGameMoveTest, ApplyGameMoveIsWhatTheGameDoes) {
  const RuleSet rules = Rules(GetParam());
  std::mt19937_64 rng(11);
  int compared = 0;
  for (uint64_t n = 1; n <= 5; ++n) {
    absl::StatusOr<Game> g =
        Game::Create(rules, DeckSource::FromSeed(SeedOf(n)));
    ASSERT_TRUE(g.ok()) << g.status();
    while (!g->over()) {
      const std::vector<Move> moves = g->LegalMoves();
      ASSERT_FALSE(moves.empty());
      const Move m = moves[rng() % moves.size()];
      if (m.kind == MoveKind::kCallOut) break;
      Position applied = g->position();
      ApplyGameMove(applied, m);
      const int round = g->round(), deal = g->deal();
      g->PlayUnchecked(m);
      if (g->over() || g->round() != round || g->deal() != deal) continue;
      ASSERT_EQ(applied.table, g->position().table) << m.ToString();
      ASSERT_EQ(applied.hands, g->position().hands) << m.ToString();
      ++compared;
    }
  }
  EXPECT_GT(compared, 100);
}

INSTANTIATE_TEST_SUITE_P(Games, ApplyGameMoveTest,
                         ::testing::Values("standard", "game=callabra",
                                           "game=tablanette"));

TEST(InNotationOrderTest, SortsByNotationWithEachNotationOnce) {
  absl::StatusOr<Position> pos = Position::Parse(
      "table: 2C 6H 8D [5S 3H]=8@1; hands: 8C TD 2H 3S / ?; to_move: 0");
  ASSERT_TRUE(pos.ok()) << pos.status();
  const std::vector<Move> moves = GameLegalMoves(*pos);
  const std::vector<NotatedMove> sorted = InNotationOrder(moves);
  ASSERT_EQ(sorted.size(), moves.size());
  std::vector<std::string> expected;
  for (const Move& m : moves) expected.push_back(m.ToString());
  std::sort(expected.begin(), expected.end());
  for (size_t i = 0; i < sorted.size(); ++i) {
    EXPECT_EQ(sorted[i].notation, expected[i]);
    EXPECT_EQ(sorted[i].move.ToString(), sorted[i].notation);
  }
  // The generator's own order is not the notation order here (the sort
  // does something): "build ..." comes before "take ..." and "trail ...".
  EXPECT_EQ(sorted.front().notation.rfind("build", 0), 0u);
  EXPECT_EQ(sorted.back().notation.rfind("trail", 0), 0u);
}

}  // namespace
}  // namespace cassino
