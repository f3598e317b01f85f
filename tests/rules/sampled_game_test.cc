// SampleGame (rules/sampled_game.h): a game built from a seat's
// observation, the unseen cards dealt at random, agrees with everything
// the seat has seen (its observation of the sampled game is the one it was
// built from), deals exactly the unseen cards, lists the same legal moves
// when the seat is to move, and plays on to the end. Over seeded random
// games of several rule sets, at every turn, for every seat.

#include "rules/sampled_game.h"

#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "rules/game.h"
#include "rules/observation.h"
#include "tests/rules/test_util.h"

namespace cassino {
namespace {

using ::cassino::testing::Rules;
using ::cassino::testing::SeedOf;

class SampledGameTest : public ::testing::TestWithParam<std::string> {};

TEST_P(SampledGameTest, AgreesWithWhatTheSeatSawAndPlaysOn) {
  const RuleSet rules = Rules(GetParam());
  std::mt19937_64 rng(7);
  int checked = 0;
  for (uint64_t game_no = 0; game_no < 30; ++game_no) {
    absl::StatusOr<Game> g =
        Game::Create(rules, DeckSource::FromSeed(SeedOf(game_no + 1)));
    ASSERT_TRUE(g.ok()) << g.status();
    while (!g->over()) {
      for (int seat = 0; seat < rules.players; ++seat) {
        const Observation seen = Observe(*g, seat);
        absl::StatusOr<Game> sampled = SampleGame(seen, rng());
        ASSERT_TRUE(sampled.ok())
            << sampled.status() << " at turn " << g->turn();
        ASSERT_EQ(Observe(*sampled, seat), seen) << "turn " << g->turn();
        // The other hands and the stock hold exactly the unseen cards, as
        // many in each hand as in the real game.
        CardSet hidden;
        for (int s = 0; s < rules.players; ++s) {
          if (s == seat) continue;
          EXPECT_EQ(sampled->position().hands[s].size(),
                    g->position().hands[s].size());
          hidden |= sampled->position().hands[s];
        }
        for (int i = sampled->deck().size() - sampled->stock_size();
             i < static_cast<int>(sampled->deck().size()); ++i) {
          hidden.insert(sampled->deck()[i]);
        }
        CardSet real_hidden;
        for (int s = 0; s < rules.players; ++s) {
          if (s != seat) real_hidden |= g->position().hands[s];
        }
        for (int i = g->deck().size() - g->stock_size();
             i < static_cast<int>(g->deck().size()); ++i) {
          real_hidden.insert(g->deck()[i]);
        }
        EXPECT_EQ(hidden, UnseenCards(seen));
        EXPECT_EQ(hidden, real_hidden);
        if (seat == g->to_move()) {
          EXPECT_EQ(sampled->LegalMoves(), g->LegalMoves());
        }
        ++checked;
      }
      // Now and then, play the sampled game of the seat to move to its end.
      if (g->turn() % 17 == 0) {
        absl::StatusOr<Game> sampled =
            SampleGame(Observe(*g, g->to_move()), rng());
        ASSERT_TRUE(sampled.ok());
        while (!sampled->over()) {
          const std::vector<Move> moves = sampled->LegalMoves();
          ASSERT_FALSE(moves.empty())
              << "turn " << sampled->turn() << " round " << sampled->round()
              << " deal " << sampled->deal() << " stock "
              << sampled->stock_size() << " position "
              << sampled->position().ToString();
          ASSERT_TRUE(sampled->Play(moves[rng() % moves.size()]).ok());
        }
        EXPECT_TRUE(sampled->result().has_value());
      }
      const std::vector<Move> moves = g->LegalMoves();
      ASSERT_FALSE(moves.empty());
      ASSERT_TRUE(g->Play(moves[rng() % moves.size()]).ok());
    }
  }
  EXPECT_GT(checked, 5000);
}

INSTANTIATE_TEST_SUITE_P(
    Rules, SampledGameTest,
    ::testing::Values("", "players=3", "players=4 partnerships=on",
                      "initial_pairs=on", "draw=on", "pluck=on",
                      "builder_obligation=v2 builds_in_sums=never",
                      "builder_obligation=v3", "face_capture=any",
                      "multiple_builds=on", "card_values=royal ace_high=on",
                      "dual_ten=on", "royal", "california"),
    [](const ::testing::TestParamInfo<std::string>& info) {
      return "rules" + std::to_string(info.index);
    });

TEST(SampledGameTest, DifferentSeedsDealDifferently) {
  absl::StatusOr<Game> g =
      Game::Create(RuleSet::Standard(), DeckSource::FromSeed(SeedOf(3)));
  ASSERT_TRUE(g.ok());
  const Observation seen = Observe(*g, 0);
  absl::StatusOr<Game> a = SampleGame(seen, 1);
  absl::StatusOr<Game> b = SampleGame(seen, 2);
  absl::StatusOr<Game> a_again = SampleGame(seen, 1);
  ASSERT_TRUE(a.ok() && b.ok() && a_again.ok());
  EXPECT_NE(a->position().hands[1], b->position().hands[1]);
  EXPECT_EQ(a->position().hands[1], a_again->position().hands[1]);
  EXPECT_EQ(a->deck(), a_again->deck());
}

TEST(SampledGameTest, RefusesWhatItCannotSample) {
  absl::StatusOr<Game> g =
      Game::Create(Rules("sudden_death=on"), DeckSource::FromSeed(SeedOf(1)));
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ(SampleGame(Observe(*g, 0), 1).status().code(),
            absl::StatusCode::kUnimplemented);
  absl::StatusOr<Game> standard =
      Game::Create(RuleSet::Standard(), DeckSource::FromSeed(SeedOf(1)));
  ASSERT_TRUE(standard.ok());
  Observation bad = Observe(*standard, 0);
  bad.stock_size += 1;  // more hidden cards than there are
  EXPECT_EQ(SampleGame(bad, 1).status().code(),
            absl::StatusCode::kInvalidArgument);
  Observation lying = Observe(*standard, 0);
  lying.sides[1].captured = 3;  // a pile the round's moves do not explain
  EXPECT_EQ(SampleGame(lying, 1).status().code(),
            absl::StatusCode::kInvalidArgument);
}

// SeenPosition (rules/observation.h): the seat's own hand, the others
// empty; the seat's legal moves when it is to move.
TEST(SeenPositionTest, IsThePositionLessTheOtherHands) {
  absl::StatusOr<Game> g =
      Game::Create(Rules("players=3"), DeckSource::FromSeed(SeedOf(4)));
  ASSERT_TRUE(g.ok()) << g.status();
  for (int seat = 0; seat < 3; ++seat) {
    const Position seen = SeenPosition(Observe(*g, seat));
    Position expected = g->position();
    for (int s = 0; s < 3; ++s) {
      if (s != seat) expected.hands[s] = CardSet();
    }
    EXPECT_EQ(seen, expected) << "seat " << seat;
    if (seat == g->to_move()) {
      EXPECT_EQ(LegalMoves(seen), g->LegalMoves());
    }
  }
}

}  // namespace
}  // namespace cassino
