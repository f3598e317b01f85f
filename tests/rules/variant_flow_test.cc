// The game-flow options of docs/rules.md (*Turns*, *End of the game*), as short
// scripted games: `draw`, `initial_pairs`, `sudden_death` and
// `match=deal_rounds` (presets draw, initial_pairs, california). Decks are the
// canonical deck with a few cards moved; with 2 players and deal=twos seat 0
// gets d0 d1 d6 d7, the table d2 d3 d8 d9 and seat 1 d4 d5 d10 d11
// (docs/rules.md, *The deal*).

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "rules/game.h"
#include "rules/observation.h"
#include "tests/rules/test_util.h"

namespace cassino {
namespace {

using ::testing::HasSubstr;

using ::cassino::testing::Rules;

// The canonical deck with each listed card swapped into its position, in
// order (a later card must not come from an earlier listed position).
Deck DeckWith(const std::vector<std::pair<int, std::string>>& placed) {
  Deck deck = CanonicalDeck();
  for (const auto& [pos, name] : placed) {
    const Card c = *Card::Parse(name);
    auto it = std::find(deck.begin(), deck.end(), c);
    std::iter_swap(it, deck.begin() + pos);
  }
  return deck;
}

Game NewGame(const std::string& rules, const Deck& deck) {
  absl::StatusOr<Game> g =
      Game::Create(Rules(rules), DeckSource::Explicit({deck}));
  EXPECT_TRUE(g.ok()) << g.status();
  return *std::move(g);
}

std::vector<std::string> SortedMoves(const Game& g) {
  std::vector<std::string> out;
  for (const Move& m : g.LegalMoves()) out.push_back(m.ToString());
  std::sort(out.begin(), out.end());
  return out;
}

void Play(Game& g, const std::string& move) {
  absl::StatusOr<Move> m = Move::Parse(move);
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_TRUE(g.Play(*m).ok()) << move << " in " << g.position().ToString();
}

// draw: one deal; after each play the mover draws the top of the stock.
TEST(VariantFlowTest, DrawRefillsAfterEachPlay) {
  Game g = NewGame("draw", CanonicalDeck());
  EXPECT_EQ(g.position().hands[0].ToString(), "AS 2S 7S 8S");
  EXPECT_EQ(g.position().table.ToString(), "3S 4S 9S TS");
  EXPECT_EQ(g.position().hands[1].ToString(), "5S 6S JS QS");
  EXPECT_EQ(g.stock_size(), 40);
  Play(g, "take 7S 3S 4S");
  // Seat 0 drew d12 = KS.
  EXPECT_EQ(g.history().back().drawn, *Card::Parse("KS"));
  EXPECT_TRUE(g.history().back().drew);
  EXPECT_EQ(g.position().hands[0].ToString(), "AS 2S 8S KS");
  EXPECT_EQ(g.piles()[0].ToString(), "3S 4S 7S");
  EXPECT_EQ(g.stock_size(), 39);
  EXPECT_EQ(SortedMoves(g), (std::vector<std::string>{"trail 5S", "trail 6S",
                                                      "trail JS", "trail QS"}));
  Play(g, "trail 5S");  // draws d13 = AH
  EXPECT_EQ(g.position().hands[1].ToString(), "6S JS QS AH");
  EXPECT_EQ(g.position().table.ToString(), "5S 9S TS");
  // Each seat sees its own drawn card only.
  const Observation seat0 = Observe(g, 0), seat1 = Observe(g, 1);
  EXPECT_EQ(seat0.history[0].drawn, *Card::Parse("KS"));
  EXPECT_FALSE(seat0.history[1].drawn.valid());
  EXPECT_TRUE(seat0.history[1].drew);
  EXPECT_FALSE(seat1.history[0].drawn.valid());
  EXPECT_EQ(seat1.history[1].drawn, *Card::Parse("AH"));
  // The round is one deal of 48 plays; hands stay at 4 while the stock lasts.
  int plays = 2;
  while (g.round() == 1) {
    EXPECT_EQ(g.deal(), 1);
    if (g.stock_size() > 0) {
      EXPECT_EQ(g.position().hands[g.to_move()].size(), 4);
    }
    ASSERT_TRUE(g.Play(g.LegalMoves().front()).ok());
    ++plays;
  }
  EXPECT_EQ(plays, 48);
  const RoundResult& r = g.rounds()[0];
  EXPECT_EQ(r.score.sides[0].cards + r.score.sides[1].cards, kDeckSize);
}

// initial_pairs, one pair: table 5H 5D 9C KS; seat 0 takes 5H 5D before
// moving. Without the option seat 0 could build 7 on either five.
TEST(VariantFlowTest, InitialPairsOnePair) {
  const Deck deck = DeckWith({{2, "5H"}, {3, "5D"}, {8, "9C"}, {9, "KS"}});
  Game standard = NewGame("standard", deck);
  EXPECT_EQ(standard.position().table.ToString(), "KS 5H 5D 9C");
  EXPECT_EQ(
      SortedMoves(standard),
      (std::vector<std::string>{"build 7 2S 5D", "build 7 2S 5H", "trail 2S",
                                "trail 7S", "trail 8S", "trail AS"}));
  Game g = NewGame("initial_pairs", deck);
  EXPECT_EQ(g.position().hands[0].ToString(), "AS 2S 7S 8S");
  EXPECT_EQ(g.position().table.ToString(), "KS 9C");
  EXPECT_EQ(g.initial_capture(),
            (InitialCapture{*CardSet::Parse("5H 5D"), 0, false}));
  EXPECT_EQ(g.piles()[0].ToString(), "5H 5D");
  EXPECT_EQ(Observe(g, 1).initial_capture, g.initial_capture());
  EXPECT_EQ(Observe(g, 1).sides[0].captured, 2);
  EXPECT_EQ(g.last_capturer(), 0);
  EXPECT_TRUE(g.sweeps().empty());
  EXPECT_EQ(g.to_move(), 0);
  EXPECT_EQ(SortedMoves(g), (std::vector<std::string>{"trail 2S", "trail 7S",
                                                      "trail 8S", "trail AS"}));
}

// Three of a kind: the pair with the lowest deck indices (7H 7D) goes;
// 7C stays and seat 0 may take it or build on it.
TEST(VariantFlowTest, InitialPairsThreeOfAKind) {
  const Deck deck = DeckWith({{2, "7H"}, {3, "7D"}, {8, "7C"}, {9, "KS"}});
  Game g = NewGame("initial_pairs", deck);
  EXPECT_EQ(g.initial_capture().cards.ToString(), "7H 7D");
  EXPECT_EQ(g.position().table.ToString(), "KS 7C");
  EXPECT_EQ(SortedMoves(g),
            (std::vector<std::string>{"build 8 AS 7C", "take 7S 7C", "trail 2S",
                                      "trail 7S", "trail 8S", "trail AS"}));
}

// Two pairs (or four of a kind) empty the table: a sweep. With
// sudden_death and target 1 that ends the game before the first move.
TEST(VariantFlowTest, InitialPairsThatEmptyTheTableAreASweep) {
  const Deck two_pairs = DeckWith({{2, "4H"}, {3, "4C"}, {8, "QH"}, {9, "QD"}});
  Game g = NewGame("initial_pairs", two_pairs);
  EXPECT_EQ(g.initial_capture(),
            (InitialCapture{*CardSet::Parse("4H QH QD 4C"), 0, true}));
  EXPECT_TRUE(g.position().table.empty());
  EXPECT_EQ(g.sweeps(), (std::vector<Sweep>{{0, 1}}));
  EXPECT_EQ(SortedMoves(g), (std::vector<std::string>{"trail 2S", "trail 7S",
                                                      "trail 8S", "trail AS"}));
  while (g.round() == 1) ASSERT_TRUE(g.Play(g.LegalMoves().front()).ok());
  const RoundResult& r = g.rounds()[0];
  EXPECT_TRUE(r.initial_capture.sweep);
  EXPECT_EQ(r.score.items.back().kind, ScoreItemKind::kSweep);
  EXPECT_GE(r.score.sides[0].sweeps, 1);

  const Deck four = DeckWith({{2, "9H"}, {3, "9D"}, {8, "9C"}, {9, "9S"}});
  EXPECT_EQ(NewGame("initial_pairs", four).initial_capture().cards.size(), 4);
  // With sweeps off an emptied table is no sweep.
  EXPECT_FALSE(
      NewGame("initial_pairs sweeps=off", four).initial_capture().sweep);

  Game sudden = NewGame("initial_pairs sudden_death=on target=1", two_pairs);
  ASSERT_TRUE(sudden.over());
  EXPECT_EQ(sudden.result()->winner, 0);
  EXPECT_EQ(sudden.result()->reason, GameEndReason::kTarget);
  EXPECT_EQ(sudden.totals(), (std::vector<int>{1, 0}));
}

// sudden_death: seat 0 sweeps AS 2S 3S 4S with TS on the first move.
TEST(VariantFlowTest, SuddenDeathScoresSweepsWhenMade) {
  const Deck deck = DeckWith({{2, "AS"}, {3, "2S"}, {8, "3S"}, {9, "4S"}});
  ASSERT_EQ(NewGame("standard", deck).position().hands[0].ToString(),
            "7S 8S 9S TS");
  // Without sudden_death the sweep waits for the round's end.
  Game plain = NewGame("standard", deck);
  Play(plain, "take TS AS 2S 3S 4S");
  EXPECT_TRUE(plain.history().back().outcome.sweep);
  EXPECT_EQ(plain.history().back().immediate_points, 0);
  EXPECT_EQ(plain.totals(), (std::vector<int>{0, 0}));

  Game sd = NewGame("standard sudden_death=on sweeps=2", deck);
  Play(sd, "take TS AS 2S 3S 4S");
  EXPECT_EQ(sd.history().back().immediate_points, 2);
  EXPECT_EQ(sd.totals(), (std::vector<int>{2, 0}));
  while (sd.round() == 1) ASSERT_TRUE(sd.Play(sd.LegalMoves().front()).ok());
  const RoundResult& r = sd.rounds()[0];
  EXPECT_EQ(r.totals_before, (std::vector<int>{0, 0}));
  EXPECT_EQ(r.in_play[0], 2 * r.score.sides[0].sweeps);
  for (const ScoreItem& item : r.score.items) {
    EXPECT_NE(item.kind, ScoreItemKind::kSweep);
  }
  for (int s = 0; s < 2; ++s) {
    EXPECT_EQ(r.totals_after[s],
              r.totals_before[s] + r.in_play[s] + r.score.sides[s].points);
  }

  Game ends = NewGame("standard sudden_death=on target=1", deck);
  Play(ends, "take TS AS 2S 3S 4S");
  ASSERT_TRUE(ends.over());
  EXPECT_EQ(ends.result()->winner, 0);
  EXPECT_EQ(ends.result()->reason, GameEndReason::kTarget);
  EXPECT_THAT(ends.result()->detail, HasSubstr("sudden death"));
  EXPECT_TRUE(ends.rounds().empty());
}

// match=deal_rounds (california): each player deals twice, then the highest
// total wins; nobody ever capturing gives 0-0, a draw.
TEST(VariantFlowTest, CaliforniaDealRoundsDraw) {
  const RuleSet california = Rules("california");
  EXPECT_EQ(california.deal, DealStyle::kSingles);
  EXPECT_EQ(california.sweep_points, 0);
  EXPECT_EQ(california.MatchRounds(), 4);
  for (int players : {2, 6}) {
    Game g =
        NewGame(absl::StrCat("california players=", players), CanonicalDeck());
    std::vector<int> dealt(players, 0);
    int round = 0;
    while (!g.over()) {
      if (g.round() != round) {
        round = g.round();
        ++dealt[g.dealer()];
      }
      ASSERT_TRUE(
          g.Play(Move::Trail(g.position().hands[g.to_move()].first())).ok());
    }
    EXPECT_EQ(dealt, std::vector<int>(players, 2));
    EXPECT_EQ(g.rounds().size(), static_cast<size_t>(2 * players));
    EXPECT_EQ(g.result()->reason, GameEndReason::kDealRounds);
    EXPECT_TRUE(g.result()->draw);
    EXPECT_EQ(g.result()->winner, -1);
    EXPECT_EQ(g.totals(), std::vector<int>(players, 0));
  }
}

TEST(VariantFlowTest, CaliforniaDealRoundsHighestTotalWins) {
  // Seeded games; capture whenever possible, else the first move. A target
  // of 1 does not end the game early.
  int wins = 0;
  for (uint8_t n = 0; n < 8; ++n) {
    Seed seed{};
    seed[0] = n;
    absl::StatusOr<Game> g =
        Game::Create(Rules("california target=1"), DeckSource::FromSeed(seed));
    ASSERT_TRUE(g.ok());
    while (!g->over()) {
      const std::vector<Move> moves = g->LegalMoves();
      auto capture = std::find_if(
          moves.begin(), moves.end(),
          [](const Move& m) { return m.kind == MoveKind::kCapture; });
      ASSERT_TRUE(
          g->Play(capture != moves.end() ? *capture : moves.front()).ok());
    }
    EXPECT_EQ(g->rounds().size(), 4u);
    const std::vector<int>& t = g->totals();
    if (g->result()->draw) {
      EXPECT_EQ(t[0], t[1]);
      continue;
    }
    ++wins;
    const int w = g->result()->winner;
    EXPECT_GT(t[w], t[1 - w]);
    EXPECT_THAT(g->result()->detail, HasSubstr("highest total after 4 rounds"));
  }
  EXPECT_GT(wins, 0);
  EXPECT_THAT(RuleSet::Parse("california sudden_death=on").status().message(),
              HasSubstr("no target"));
}

}  // namespace
}  // namespace cassino
