// Invariants over seeded random complete games of the related games
// (Callabra, Tablanette), 2,000 games per configuration (fewer under the
// sanitizers, CASSINO_PROPERTY_GAMES). At every step:
//   - every card is accounted for exactly once (hands, table, piles, stock);
//   - the legal moves are distinct, each validates (on a sample of
//     positions in full), and random move identities validate exactly when
//     they are listed;
// Tablanette: every round's points are 22 + sweeps (19 + sweeps on a tie
// for cards) minus what nobody took; Callabra: the game ends by a cleared
// table or with stock and hands empty, and the totals are the cards taken;
// every game ends. (Random Callabra play seldom clears the table; the
// cleared-table win is pinned by a scripted game in related_games_test.)

#include <cstdlib>
#include <random>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "rules/game.h"
#include "rules/tablanette.h"
#include "tests/rules/property_util.h"
#include "tools/playout/random_playout.h"

namespace cassino {
namespace {

using ::cassino::testing::ExpectAllCardsAccounted;
using ::cassino::testing::ExpectMovesMatchValidation;
using ::cassino::testing::GamesPerConfig;

// A random identity: one or two hand cards, a kind, a subset of the table.
Move RandomIdentity(const Game& g, std::mt19937_64& rng) {
  const std::vector<Card> hand = g.position().hands[g.to_move()].ToVector();
  const std::vector<Card> table = g.position().table.AllCards().ToVector();
  const Card c = hand[rng() % hand.size()];
  CardSet subset;
  for (Card t : table) {
    if (rng() % 3 == 0) subset.insert(t);
  }
  switch (rng() % 4) {
    case 0:
      return Move::Trail(c);
    case 1:
      if (hand.size() > 1 && !table.empty()) {
        const Card d = hand[rng() % hand.size()];
        if (d != c) return Move::PairCapture(c, d, table[rng() % table.size()]);
      }
      return Move::Capture(c, subset);
    case 2:
      return Move::Capture(c, subset);
    default:
      return Move::Build(c, 1 + rng() % 10, subset);
  }
}

class RelatedGamePropertyTest : public ::testing::TestWithParam<const char*> {};

TEST_P(RelatedGamePropertyTest, RandomGamesKeepInvariants) {
  absl::StatusOr<RuleSet> rules = RuleSet::Parse(GetParam());
  ASSERT_TRUE(rules.ok()) << rules.status();
  Seed batch{};
  const std::string tag = GetParam();
  for (size_t i = 0; i < tag.size() && i < batch.size(); ++i) batch[i] = tag[i];
  std::mt19937_64 rng(11);
  long positions = 0, rejected = 0, pair_captures = 0, sweeps = 0;
  int wins = 0, draws = 0;
  const int games = GamesPerConfig(2000);
  for (int n = 0; n < games; ++n) {
    const Seed seed = BatchGameSeed(batch, n);
    Game g = *Game::Create(*rules, DeckSource::FromSeed(seed));
    RandomPlayer player(seed);
    size_t rounds_seen = 0;
    int steps = 0;
    while (!g.over()) {
      ASSERT_LT(++steps, 5000) << "game does not end";
      const std::vector<Move> moves = g.LegalMoves();
      ASSERT_FALSE(moves.empty()) << g.position().ToString();
      ASSERT_FALSE(g.position().hands[g.to_move()].empty());
      ++positions;
      ASSERT_NO_FATAL_FAILURE(ExpectMovesMatchValidation(
          g, moves, positions % 4 == 0,
          [&rng](const Game& game) { return RandomIdentity(game, rng); },
          &rejected));
      const Move chosen = player.Choose(g);
      pair_captures += chosen.second.valid();
      ASSERT_TRUE(g.Play(chosen).ok()) << chosen.ToString();
      sweeps += g.history().back().outcome.sweep;
      ExpectAllCardsAccounted(g);
      if (g.rounds().size() > rounds_seen) {
        rounds_seen = g.rounds().size();
        const RoundResult& r = g.rounds().back();
        int points = 0, sweep_points = 0;
        bool cards_scored = false;
        for (const SideTally& s : r.score.sides) points += s.points;
        for (const ScoreItem& it : r.score.items) {
          if (it.kind == ScoreItemKind::kSweep) sweep_points += it.points;
          cards_scored |= it.kind == ScoreItemKind::kCards;
        }
        int unowned = 0;
        if (r.leftover_side < 0) {
          for (Card c : r.leftovers) {
            unowned += (c == kBigCassino) * 2 + (c == kLittleCassino) +
                       (c.rank() == kAce) + c.is_face();
          }
        }
        EXPECT_EQ(points, tablanette::kRoundPoints + sweep_points -
                              (cards_scored ? 0 : 3) - unowned);
      }
    }
    const GameResult& result = *g.result();
    if (rules->game == GameKind::kCallabra) {
      EXPECT_TRUE(g.rounds().empty());
      int taken = 0;
      for (int s = 0; s < rules->Sides(); ++s) {
        EXPECT_EQ(result.totals[s], g.piles()[s].size());
        taken += g.piles()[s].size();
      }
      if (result.reason == GameEndReason::kClearedTable) {
        EXPECT_TRUE(g.position().table.empty());
      } else {
        EXPECT_EQ(g.stock_size(), 0);
        for (CardSet h : g.position().hands) EXPECT_TRUE(h.empty());
        EXPECT_EQ(taken + g.position().table.loose.size(), kDeckSize);
        EXPECT_TRUE(result.reason == GameEndReason::kMostCards ||
                    result.reason == GameEndReason::kDraw);
      }
    } else {
      EXPECT_EQ(result.reason, GameEndReason::kTarget);
      EXPECT_GE(result.totals[result.winner], rules->target);
    }
    wins += result.winner >= 0;
    draws += result.reason == GameEndReason::kDraw;
  }
  EXPECT_GT(rejected, 0);
  EXPECT_GT(wins, 0);
  if (rules->game == GameKind::kCallabra) {
    EXPECT_GT(pair_captures, 0);
  } else {
    EXPECT_GT(sweeps, 0);
  }
  std::cout << GetParam() << ": " << games << " games, " << positions
            << " positions, " << sweeps << " sweeps, " << draws << " draws\n";
}

INSTANTIATE_TEST_SUITE_P(
    Games, RelatedGamePropertyTest,
    ::testing::Values("callabra players=2", "callabra players=3",
                      "callabra players=4", "tablanette players=2",
                      "tablanette players=4",
                      "tablanette players=4 partnerships=on"),
    [](const ::testing::TestParamInfo<const char*>& info) {
      std::string name = info.param;
      for (char& c : name) {
        if (!isalnum(static_cast<unsigned char>(c))) c = '_';
      }
      return name;
    });

}  // namespace
}  // namespace cassino
