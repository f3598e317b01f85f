// The reference strategies, played against each other in local games driven
// by the rules engine (no network). Views are built with MakeLocalTurnView,
// i.e. through the same API messages a networked bot receives.

#include "tools/bots/strategies.h"

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "gtest/gtest.h"
#include "rules/game.h"
#include "rules/game_moves.h"
#include "tools/bots/client/turn_view.h"
#include "tools/playout/random_playout.h"

namespace cassino::bots {
namespace {

Seed BatchSeed(uint8_t tag) {
  Seed s{};
  s[0] = tag;
  return s;
}

// Plays one game; `players[seat]` chooses for that seat. Every chosen move
// must be in the engine's legal list (checked with EXPECT, so a failing
// test names the move), and the view must agree with the game.
Game PlayLocal(const RuleSet& rules, const Seed& seed,
               const std::vector<Strategy*>& players, int* illegal) {
  Game game = *Game::Create(rules, DeckSource::FromSeed(seed));
  while (!game.over()) {
    const int seat = game.to_move();
    absl::StatusOr<TurnView> view = MakeLocalTurnView(game, seat);
    EXPECT_TRUE(view.ok()) << view.status();
    if (!view.ok()) break;
    const std::vector<Move> legal = game.LegalMoves();
    // The referee's order (by notation), as a networked bot sees it.
    std::vector<Move> in_api_order;
    for (const NotatedMove& m : InNotationOrder(legal)) {
      in_api_order.push_back(m.move);
    }
    EXPECT_EQ(view->legal_moves, in_api_order);
    EXPECT_EQ(view->hand(), game.position().hands[seat]);
    EXPECT_EQ(view->position.table, game.position().table);
    const Move move = players[seat]->Choose(*view);
    if (!game.Validate(move).ok()) {
      ++*illegal;
      ADD_FAILURE() << players[seat]->name() << " chose illegal move "
                    << move.ToString() << " in " << game.position().ToString();
      game.PlayUnchecked(legal.front());
      continue;
    }
    game.PlayUnchecked(move);
  }
  return game;
}

struct MatchStats {
  int games = 0;
  int a_wins = 0;
  int b_wins = 0;
  long a_points = 0;
  long b_points = 0;
  int illegal = 0;
  double a_rate() const { return double(a_wins) / games; }
  std::string Describe(const std::string& a, const std::string& b) const {
    return absl::StrFormat(
        "%s vs %s over %d games: %s won %d (%.1f%%), %s won %d; mean final "
        "totals %.2f vs %.2f",
        a, b, games, a, a_wins, 100 * a_rate(), b, b_wins,
        double(a_points) / games, double(b_points) / games);
  }
};

// `a` and `b` alternate seats: a plays seat 0 in even games.
MatchStats PlayMatch(const RuleSet& rules, Strategy& a, Strategy& b, int games,
                     uint8_t tag) {
  MatchStats stats;
  for (int i = 0; i < games; ++i) {
    const int a_seat = i % 2;
    std::vector<Strategy*> players = a_seat == 0
                                         ? std::vector<Strategy*>{&a, &b}
                                         : std::vector<Strategy*>{&b, &a};
    Game game = PlayLocal(rules, BatchGameSeed(BatchSeed(tag), i), players,
                          &stats.illegal);
    const GameResult& r = *game.result();
    ++stats.games;
    if (r.winner == a_seat) ++stats.a_wins;
    if (r.winner == 1 - a_seat) ++stats.b_wins;
    stats.a_points += r.totals[a_seat];
    stats.b_points += r.totals[1 - a_seat];
  }
  std::printf("%s\n", stats.Describe(a.name(), b.name()).c_str());
  return stats;
}

constexpr int kGames = 300;
constexpr double kMinRate = 0.55;

TEST(StrategiesTest, GreedyBeatsRandom) {
  RandomStrategy random(7);
  GreedyStrategy greedy;
  const MatchStats s =
      PlayMatch(RuleSet::Standard(), greedy, random, kGames, 1);
  EXPECT_EQ(s.illegal, 0);
  EXPECT_GT(s.a_rate(), kMinRate) << s.Describe("greedy", "random");
}

TEST(StrategiesTest, BuilderBeatsGreedy) {
  BuilderStrategy builder;
  GreedyStrategy greedy;
  const MatchStats s =
      PlayMatch(RuleSet::Standard(), builder, greedy, kGames, 2);
  EXPECT_EQ(s.illegal, 0);
  EXPECT_GT(s.a_rate(), kMinRate) << s.Describe("builder", "greedy");
}

TEST(StrategiesTest, BuilderBeatsRandom) {
  BuilderStrategy builder;
  RandomStrategy random(11);
  const MatchStats s = PlayMatch(RuleSet::Standard(), builder, random, 100, 3);
  EXPECT_EQ(s.illegal, 0);
  EXPECT_GT(s.a_rate(), 0.8) << s.Describe("builder", "random");
}

// Every strategy only ever plays legal moves, whatever the rules, and calls
// out only when the call wins.
TEST(StrategiesTest, LegalUnderRuleVariants) {
  const std::vector<std::string> variants = {
      "standard builder_obligation=v2",
      "standard builder_obligation=v3",
      "standard builder_obligation=none own_raise=forbidden",
      "standard builds_in_sums=opponents_single face_capture=all",
      "standard deal=singles sweeps=2 multi_build_absorb=off",
      "standard call_out=on",
      "standard game_end=highest_total all_eleven=bonus target=11",
      "standard players=3",
      "standard players=4",
      "standard players=4 partnerships=on",
  };
  for (const std::string& text : variants) {
    SCOPED_TRACE(text);
    absl::StatusOr<RuleSet> rules = RuleSet::Parse(text);
    ASSERT_TRUE(rules.ok()) << rules.status();
    for (int i = 0; i < 6; ++i) {
      RandomStrategy random(i);
      GreedyStrategy greedy;
      BuilderStrategy builder;
      std::vector<Strategy*> all = {&random, &greedy, &builder};
      std::vector<Strategy*> players;
      for (int s = 0; s < rules->players; ++s) {
        players.push_back(all[(s + i) % all.size()]);
      }
      int illegal = 0;
      Game game =
          PlayLocal(*rules, BatchGameSeed(BatchSeed(9), i), players, &illegal);
      EXPECT_EQ(illegal, 0);
      ASSERT_TRUE(game.over());
      const GameResult& r = *game.result();
      if (r.reason == GameEndReason::kCallOut) {
        // The caller is the seat of the last move; it must have won.
        const int caller = game.history().back().seat;
        EXPECT_EQ(r.winner, rules->SideOf(caller)) << r.detail;
      }
    }
  }
}

TEST(StrategiesTest, MakeStrategyKnowsEveryName) {
  for (const std::string& name : StrategyNames()) {
    std::unique_ptr<Strategy> s = MakeStrategy(name, 1);
    ASSERT_NE(s, nullptr) << name;
    EXPECT_EQ(s->name(), name);
  }
  EXPECT_EQ(MakeStrategy("nonsense", 1), nullptr);
}

// The view reconstructs what the seat may see and nothing else, also with
// the options that move cards out of sight otherwise (plucks, draws, the
// initial pairs).
class TurnViewTest : public ::testing::TestWithParam<const char*> {};

TEST_P(TurnViewTest, LocalViewMatchesObservation) {
  absl::StatusOr<RuleSet> rules = RuleSet::Parse(GetParam());
  ASSERT_TRUE(rules.ok()) << rules.status();
  Game game = *Game::Create(*rules, DeckSource::FromSeed(BatchSeed(4)));
  RandomStrategy random(3);
  for (int step = 0; step < 60 && !game.over(); ++step) {
    const int seat = game.to_move();
    absl::StatusOr<TurnView> view = MakeLocalTurnView(game, seat);
    ASSERT_TRUE(view.ok()) << view.status();
    EXPECT_EQ(view->seat, seat);
    EXPECT_EQ(view->turn, game.turn());
    EXPECT_EQ(view->position.to_move, seat);
    EXPECT_EQ(view->rules(), game.rules());
    for (int s = 0; s < game.rules().players; ++s) {
      if (s != seat) {
        EXPECT_TRUE(view->position.hands[s].empty());
      }
    }
    // Unseen cards: never the own hand or the table; always the other
    // hands and the stock.
    EXPECT_FALSE(view->unseen.intersects(view->hand()));
    EXPECT_FALSE(view->unseen.intersects(game.position().table.AllCards()));
    for (int s = 0; s < game.rules().players; ++s) {
      if (s != seat) {
        EXPECT_TRUE(view->unseen.contains(game.position().hands[s]));
      }
    }
    EXPECT_EQ(view->unseen.size() - game.stock_size(), [&] {
      int n = 0;
      for (int s = 0; s < game.rules().players; ++s) {
        if (s != seat) n += game.position().hands[s].size();
      }
      return n;
    }());
    game.PlayUnchecked(random.Choose(*view));
  }
}

INSTANTIATE_TEST_SUITE_P(Options, TurnViewTest,
                         ::testing::Values("players=2", "players=2 pluck=on",
                                           "players=2 draw=on",
                                           "players=2 initial_pairs=on"));

TEST(TurnViewProtoTest, MoveProtoRoundTrip) {
  for (const char* text :
       {"trail 7H", "take 8C 8H 6D 2C", "build 8 3D 5S 8H 6D 2C", "call"}) {
    const Move m = *Move::Parse(text);
    v1::Move proto;
    convert::ToProto(m, &proto);
    EXPECT_EQ(proto.notation(), m.ToString());
    EXPECT_EQ(*convert::FromProto(proto), m);
    proto.clear_notation();  // the structured fields alone
    EXPECT_EQ(*convert::FromProto(proto), m) << text;
  }
}

}  // namespace
}  // namespace cassino::bots
