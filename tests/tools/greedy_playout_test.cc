// tools/playout/greedy_playout.h: the greedy playout policy picks the move
// of highest worth (most of the time), is seeded, and plays games out.

#include "tools/playout/greedy_playout.h"

#include <algorithm>
#include <map>
#include <vector>

#include "gtest/gtest.h"
#include "rules/game.h"
#include "tests/rules/test_util.h"
#include "tools/playout/random_playout.h"

namespace cassino {
namespace {

using ::cassino::testing::SeedOf;

TEST(GreedyPlayerTest, WorthFollowsTheScoring) {
  const RuleSet standard = RuleSet::Standard();
  const CardSet td = *CardSet::Parse("TD"), as = *CardSet::Parse("AS");
  EXPECT_DOUBLE_EQ(GreedyPlayer::Worth(standard, td), 2.1);
  EXPECT_DOUBLE_EQ(GreedyPlayer::Worth(standard, as), 1.15);
  EXPECT_DOUBLE_EQ(GreedyPlayer::Worth(standard, *CardSet::Parse("5H 6C")),
                   0.2);
  RuleSet no_aces = standard;
  no_aces.scoring.each_ace = 0;
  EXPECT_DOUBLE_EQ(GreedyPlayer::Worth(no_aces, as), 0.15);
}

// The best move as the file comment defines it, ties to the first.
Move Best(const Game& game, const std::vector<Move>& moves) {
  const RuleSet& rules = game.rules();
  const CardSet table = game.position().table.AllCards();
  size_t best = 0;
  double best_worth = -1e9;
  for (size_t i = 0; i < moves.size(); ++i) {
    const Move& m = moves[i];
    double worth = m.kind == MoveKind::kBuild ? GreedyPlayer::kBuildWorth
                   : m.kind == MoveKind::kTrail
                       ? -GreedyPlayer::Worth(rules, CardSet::Of(m.card))
                       : GreedyPlayer::Worth(rules, m.table | m.played()) +
                             (m.table == table ? rules.sweep_points : 0);
    if (worth > best_worth) {
      best = i;
      best_worth = worth;
    }
  }
  return moves[best];
}

TEST(GreedyPlayerTest, MostlyPlaysTheMoveWorthMost) {
  int positions = 0, captures = 0;
  for (uint64_t n = 1; n <= 3; ++n) {
    Game game =
        *Game::Create(RuleSet::Standard(), DeckSource::FromSeed(SeedOf(n)));
    RandomPlayer mover(n);
    while (!game.over()) {
      const std::vector<Move> moves = game.LegalMoves();
      const Move best = Best(game, moves);
      std::map<int, int> picked;  // index into moves -> times chosen
      for (uint64_t seed = 0; seed < 32; ++seed) {
        const Move m = GreedyPlayer(seed).Choose(game);
        const auto it = std::find(moves.begin(), moves.end(), m);
        ASSERT_NE(it, moves.end()) << "not a legal move: " << m.ToString();
        ++picked[it - moves.begin()];
        // Seeded: the same seed chooses the same.
        ASSERT_EQ(GreedyPlayer(seed).Choose(game), m);
      }
      const auto mode = std::max_element(
          picked.begin(), picked.end(),
          [](const auto& a, const auto& b) { return a.second < b.second; });
      ASSERT_EQ(moves[mode->first], best)
          << game.position().ToString() << ": chose "
          << moves[mode->first].ToString() << ", best " << best.ToString();
      EXPECT_GE(mode->second, 22);  // 7/8 of 32, less the random draws
      ++positions;
      captures += best.kind == MoveKind::kCapture;
      game.PlayUnchecked(mover.Choose(game));
    }
  }
  EXPECT_GT(positions, 300);
  EXPECT_GT(captures, 100);
}

TEST(GreedyPlayerTest, PlaysGamesOut) {
  Game game =
      *Game::Create(RuleSet::Standard(), DeckSource::FromSeed(SeedOf(9)));
  GreedyPlayer player(4);
  const int moves = PlayOut(game, player, PlayUntil::kGameEnd);
  EXPECT_TRUE(game.over());
  EXPECT_EQ(moves, game.turn());
  EXPECT_NE(game.result()->reason, GameEndReason::kAborted);
}

}  // namespace
}  // namespace cassino
