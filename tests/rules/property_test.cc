// Invariants over seeded random complete games.
//
// The configurations are the cross product of {2, 3, 4 players, 4 in
// partnerships} and {v1, v2, v3, none}; each of the 16 gets 2,500 games
// games, so each player configuration and each builder obligation is
// covered by 4 * 2,500 = 10,000 games. At every step:
//   - every card is accounted for exactly once (hands, table, piles, stock);
//   - every enumerated move validates, and applying it keeps the invariants;
//   - random move identities that are not enumerated are rejected;
// at every round end: no build is left (except under `none`), and the round
// points equal 11 + sweep points minus the points of tied categories; and
// every game ends.
//
// The presets of the deal, scoring and flow variants (docs/rules.md, *Presets*)
// get the same checks over 2,000 games each (PresetPropertyTest): the pack's
// cards are all accounted for, enumerated moves validate, games end, and a
// round's points (items plus points scored during play) equal the preset's
// base points (BasePoints) plus sweeps, less the items nobody won.
// The same checks run over 2,000 games of each move-level variant preset
// (docs/rules.md, *Move-level variants*); random identities then also declare
// card values.
// Natural builds with the played card alone (revision 2) are listed, and
// validated, in every configuration with multiple builds; revision 1 (the
// reading of older records) gets its own configuration and lists none.

#include <algorithm>
#include <cstdlib>
#include <random>
#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "rules/game.h"
#include "tests/rules/property_util.h"
#include "tools/playout/random_playout.h"

namespace cassino {
namespace {

using ::cassino::testing::ExpectAllCardsAccounted;
using ::cassino::testing::ExpectMovesMatchValidation;
using ::cassino::testing::GamesPerConfig;

struct Config {
  const char* players;
  const char* obligation;
};

class PropertyTest : public ::testing::TestWithParam<Config> {};

// A round's points add up: the items plus the points scored during play
// equal the base points and the sweeps, less what nobody won (a tie, aces
// split under all_aces, cards nobody captured). Penalties (defaults_cost)
// given up during the round are left out: `history` holds the moves. Cards
// nobody played (a round ended by instant_limit) score nobody.
void ExpectRoundPointsAddUp(const RuleSet& rules, const RoundResult& r,
                            const std::vector<PlayedMove>& history) {
  const Scoring& sc = rules.scoring;
  int points = 0, sweeps = 0, bonus = 0;
  for (const PlayedMove& m : history) {
    if (m.round != r.round) continue;
    // Revision 1 took a penalty from the mover; revision 2 gives it to each
    // other side, revision 3 to the next side only.
    points += rules.revision < 2   ? m.outcome.penalty
              : rules.revision < 3 ? -m.outcome.penalty * (rules.Sides() - 1)
                                   : -m.outcome.penalty;
  }
  for (const SideTally& s : r.score.sides) {
    points += s.points;
    sweeps += s.sweeps;
  }
  for (int p : r.in_play) points += p;
  bool won[4] = {false, false, false, false};  // cards, spades, diamonds, aces
  for (const ScoreItem& it : r.score.items) {
    won[0] |= it.kind == ScoreItemKind::kCards;
    won[1] |= it.kind == ScoreItemKind::kSpades;
    won[2] |= it.kind == ScoreItemKind::kDiamonds;
    won[3] |= it.kind == ScoreItemKind::kAllAces;
    if (it.kind == ScoreItemKind::kAllEleven) bonus += it.points;
  }
  int expected = BasePoints(rules) + sweeps * rules.sweep_points + bonus;
  const CardSet pack = rules.Pack();
  expected -= won[0] ? 0 : sc.most_cards;
  if (pack.intersects(CardSet::OfSuit(Suit::kSpades))) {
    expected -= won[1] ? 0 : sc.most_spades;
  }
  if (pack.intersects(CardSet::OfSuit(Suit::kDiamonds))) {
    expected -= won[2] ? 0 : sc.most_diamonds;
  }
  expected -= won[3] ? 0 : sc.all_aces;
  const CardSet unowned =
      r.unplayed | (r.leftover_side < 0 ? r.leftovers : CardSet());
  for (Card c : unowned) {
    expected -= sc.card[c.index()] + sc.each_ace * (c.rank() == kAce) +
                sc.each_spade * (c.suit() == Suit::kSpades);
  }
  EXPECT_EQ(points, expected)
      << "round " << r.round << " of " << rules.ToString();
  // Every card of the pack was taken (or left to nobody).
  int cards = 0;
  for (const SideTally& s : r.score.sides) cards += s.cards;
  EXPECT_EQ(cards + (r.leftover_side < 0 ? r.leftovers.size() : 0) +
                r.unplayed.size(),
            pack.size());
}

// A random identity: a hand card, a kind, a value and a subset of the table.
Move RandomIdentity(const Game& g, std::mt19937_64& rng) {
  const std::vector<Card> hand = g.position().hands[g.to_move()].ToVector();
  const std::vector<Card> table = g.position().table.AllCards().ToVector();
  const RuleSet& rules = g.rules();
  const Card c = hand[rng() % hand.size()];
  CardSet subset;
  for (Card t : table) {
    if (rng() % 3 == 0) subset.insert(t);
  }
  // A flexible card sometimes declares its other value.
  const int declared = rng() % 2 ? rules.AltValue(c) : 0;
  Move m;
  switch (rng() % 3) {
    case 0:
      m = rng() % 4 == 0 ? Move::Trail(c) : Move::Capture(c, subset, declared);
      break;
    case 1:
      m = Move::Capture(c, subset, declared);
      break;
    default:
      m = Move::Build(c, 1 + rng() % rules.MaxBuild(), subset, declared);
  }
  // pluck: sometimes with a random table card plucked before or after.
  if (rules.pluck && !table.empty() && rng() % 3 == 0) {
    m = m.WithPluck(table[rng() % table.size()], rng() % 2 == 0);
  }
  return m;
}

// Plays `games` seeded random games under `rules` and checks the invariants
// of the file comment; `tag` names the batch (its seed). Under defaults_cost
// with revision 1 random players lose points faster than they score, so a
// game need not end: there each game stops after its first two rounds.
// From revision 2 every game must end.
void CheckRandomGames(const RuleSet& rules_in, const std::string& tag,
                      int games) {
  const size_t max_rounds =
      rules_in.defaults_cost > 0 && rules_in.revision < 2 ? 2 : SIZE_MAX;
  const RuleSet* rules = &rules_in;
  Seed batch{};
  for (size_t i = 0; i < tag.size() && i < batch.size(); ++i) batch[i] = tag[i];

  MoveGenerator gen;
  std::vector<Move> moves;
  std::mt19937_64 rng(7);
  long positions = 0, rejected = 0, natural = 0;
  for (int n = 0; n < games; ++n) {
    const Seed seed = BatchGameSeed(batch, n);
    Game g = *Game::Create(*rules, DeckSource::FromSeed(seed));
    RandomPlayer player(seed);
    size_t rounds_seen = 0;
    int steps = 0;
    while (!g.over() && g.rounds().size() < max_rounds) {
      ASSERT_LT(++steps, 5000) << "game does not end";
      ASSERT_TRUE(gen.Generate(g.position(), &moves));
      ASSERT_FALSE(moves.empty()) << g.position().ToString();
      ++positions;
      for (const Move& m : moves) {
        // A natural build with the played card alone (revision 2): the
        // played card's value, onto loose cards only.
        natural += m.kind == MoveKind::kBuild && m.declared == 0 &&
                   m.value == rules->CardValue(m.card) &&
                   g.position().table.loose.contains(m.table);
      }
      // Every enumerated move validates (checked on a sample of positions
      // in full, on the others for the chosen move only, to keep it fast).
      ASSERT_NO_FATAL_FAILURE(ExpectMovesMatchValidation(
          g, moves, positions % 4 == 0,
          [&rng](const Game& game) { return RandomIdentity(game, rng); },
          &rejected));
      const Move chosen = player.Choose(g);
      ASSERT_TRUE(g.Play(chosen).ok()) << chosen.ToString();
      ExpectAllCardsAccounted(g);
      if (g.rounds().size() > rounds_seen) {
        rounds_seen = g.rounds().size();
        const RoundResult& r = g.rounds().back();
        if (rules->builder_obligation != BuilderObligation::kNone &&
            rules->defaults_cost == 0) {
          EXPECT_EQ(r.builds_left, 0) << "round " << r.round;
        }
        int points = 0, sweep_points = 0, tied = 0;
        for (const SideTally& s : r.score.sides) points += s.points;
        for (const ScoreItem& it : r.score.items) {
          if (it.kind == ScoreItemKind::kSweep) sweep_points += it.points;
        }
        bool cards_scored = false, spades_scored = false;
        for (const ScoreItem& it : r.score.items) {
          cards_scored |= it.kind == ScoreItemKind::kCards;
          spades_scored |= it.kind == ScoreItemKind::kSpades;
        }
        tied += cards_scored ? 0 : 3;
        tied += spades_scored ? 0 : 1;
        // Cards nobody captured (no capture all round) score nobody either.
        int unowned_points = 0;
        if (r.leftover_side < 0) {
          for (Card c : r.leftovers) {
            unowned_points += (c == kBigCassino) * 2 + (c == kLittleCassino) +
                              (c.rank() == kAce);
          }
        }
        if (!rules->sudden_death) {
          EXPECT_EQ(points, kBasePoints + sweep_points - tied - unowned_points);
        }
        ExpectRoundPointsAddUp(*rules, r, g.history());
      }
    }
  }
  EXPECT_GT(positions, games * 40L);
  EXPECT_GT(rejected, 0);
  // The games reach natural builds wherever the rules have them.
  if (rules->NaturalBuilds()) {
    EXPECT_GT(natural, 0);
  } else {
    EXPECT_EQ(natural, 0);
  }
}

// The playouts' generator gives std::mt19937_64's sequence, far beyond one
// state's 312 words, so that seeded batches replay as they always have.
TEST(PlayoutPropertyTest, Mt19937_64MatchesStd) {
  for (uint64_t seed : {uint64_t{0}, uint64_t{5489},
                        uint64_t{0x0123456789abcdef}, ~uint64_t{0}}) {
    std::mt19937_64 expected(seed);
    Mt19937_64 actual(seed);
    for (int i = 0; i < 2000; ++i) {
      ASSERT_EQ(actual(), expected()) << "seed " << seed << ", word " << i;
    }
  }
}

TEST_P(PropertyTest, RandomGamesKeepInvariants) {
  const Config cfg = GetParam();
  absl::StatusOr<RuleSet> rules = RuleSet::Parse(
      absl::StrCat(cfg.players, " builder_obligation=", cfg.obligation));
  ASSERT_TRUE(rules.ok()) << rules.status();
  CheckRandomGames(*rules, absl::StrCat(cfg.players, cfg.obligation),
                   GamesPerConfig());
}

// The move-level variant presets, 2,000 games each.
class MovePresetPropertyTest : public ::testing::TestWithParam<const char*> {};

TEST_P(MovePresetPropertyTest, RandomGamesKeepInvariants) {
  absl::StatusOr<RuleSet> rules = RuleSet::Parse(GetParam());
  ASSERT_TRUE(rules.ok()) << rules.status();
  CheckRandomGames(*rules, absl::StrCat("preset ", GetParam()),
                   GamesPerConfig(2000));
}

INSTANTIATE_TEST_SUITE_P(
    MovePresets, MovePresetPropertyTest,
    ::testing::Values("royal", "buckeye", "trailing_royals", "face_four",
                      "five_spades", "pluck", "standard defaults_cost=2",
                      "standard revision=1", "michigan revision=1", "michigan"),
    [](const ::testing::TestParamInfo<const char*>& info) {
      std::string name = info.param;
      for (char& c : name) {
        if (!isalnum(static_cast<unsigned char>(c))) c = '_';
      }
      return name;
    });

INSTANTIATE_TEST_SUITE_P(
    AllConfigs, PropertyTest,
    ::testing::Values(Config{"players=2", "v1"}, Config{"players=2", "v2"},
                      Config{"players=2", "v3"}, Config{"players=2", "none"},
                      Config{"players=3", "v1"}, Config{"players=3", "v2"},
                      Config{"players=3", "v3"}, Config{"players=3", "none"},
                      Config{"players=4", "v1"}, Config{"players=4", "v2"},
                      Config{"players=4", "v3"}, Config{"players=4", "none"},
                      Config{"players=4 partnerships=on", "v1"},
                      Config{"players=4 partnerships=on", "v2"},
                      Config{"players=4 partnerships=on", "v3"},
                      Config{"players=4 partnerships=on", "none"}),
    [](const ::testing::TestParamInfo<Config>& info) {
      std::string name =
          absl::StrCat(info.param.players, "_", info.param.obligation);
      for (char& c : name) {
        if (!isalnum(static_cast<unsigned char>(c))) c = '_';
      }
      return name;
    });

// The deal, scoring and flow presets (docs/rules.md, *Presets*), 2,000 games
// each.
struct PresetConfig {
  const char* rules;
  int base_points;  // the preset's documented round total
};

class PresetPropertyTest : public ::testing::TestWithParam<PresetConfig> {};

TEST_P(PresetPropertyTest, RandomGamesKeepInvariants) {
  const PresetConfig cfg = GetParam();
  absl::StatusOr<RuleSet> rules = RuleSet::Parse(cfg.rules);
  ASSERT_TRUE(rules.ok()) << rules.status();
  EXPECT_EQ(BasePoints(*rules), cfg.base_points);
  Seed batch{};
  const std::string tag = absl::StrCat("preset ", cfg.rules);
  for (size_t i = 0; i < tag.size() && i < batch.size(); ++i) batch[i] = tag[i];

  MoveGenerator gen;
  std::vector<Move> moves;
  long positions = 0, rounds = 0, sweeps = 0, initial = 0, drawn = 0;
  const int games = std::max(GamesPerConfig() * 4 / 5, 1);  // 2,000
  for (int n = 0; n < games; ++n) {
    const Seed seed = BatchGameSeed(batch, n);
    Game g = *Game::Create(*rules, DeckSource::FromSeed(seed));
    ExpectAllCardsAccounted(g);
    RandomPlayer player(seed);
    size_t rounds_seen = 0;
    int steps = 0;
    while (!g.over()) {
      ASSERT_LT(++steps, 5000) << "game does not end";
      ASSERT_TRUE(gen.Generate(g.position(), &moves));
      ASSERT_FALSE(moves.empty()) << g.position().ToString();
      ++positions;
      if (positions % 4 == 0) {
        for (const Move& m : moves) {
          ASSERT_TRUE(g.Validate(m).ok())
              << m.ToString() << " in " << g.position().ToString();
        }
      }
      const int stock = g.stock_size();
      const Move chosen = player.Choose(g);
      ASSERT_TRUE(g.Play(chosen).ok()) << chosen.ToString();
      ExpectAllCardsAccounted(g);
      const PlayedMove& played = g.history().back();
      if (rules->draw) {
        // The mover drew exactly when the stock had a card.
        EXPECT_EQ(played.drew, stock > 0);
        drawn += played.drew;
      } else {
        EXPECT_FALSE(played.drew);
      }
      if (g.rounds().size() > rounds_seen) {
        rounds_seen = g.rounds().size();
        ++rounds;
        const RoundResult& r = g.rounds().back();
        EXPECT_EQ(r.builds_left, 0) << "round " << r.round;
        ExpectRoundPointsAddUp(*rules, r, g.history());
        for (const SideTally& s : r.score.sides) sweeps += s.sweeps;
        initial += !r.initial_capture.cards.empty();
        if (!rules->initial_pairs) {
          EXPECT_TRUE(r.initial_capture.cards.empty());
        }
      }
    }
    if (rules->match == Match::kDealRounds) {
      EXPECT_EQ(g.rounds().size(), static_cast<size_t>(rules->MatchRounds()));
      EXPECT_EQ(g.result()->reason, GameEndReason::kDealRounds);
      EXPECT_EQ(g.result()->draw, g.result()->winner < 0);
    }
  }
  EXPECT_GT(positions, games * 20L);
  EXPECT_GT(rounds, games);
  if (rules->sweep_points > 0) {
    EXPECT_GT(sweeps, 0);
  }
  if (rules->initial_pairs) {
    EXPECT_GT(initial, 0);
  }
  if (rules->draw) {
    EXPECT_GT(drawn, 0);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Presets, PresetPropertyTest,
    ::testing::Values(PresetConfig{"portuguese", 11},
                      PresetConfig{"portuguese players=4 partnerships=on", 11},
                      PresetConfig{"spade", 25}, PresetConfig{"diamond", 5},
                      PresetConfig{"diamond players=3", 5},
                      PresetConfig{"five_players", 11},
                      PresetConfig{"draw", 11},
                      PresetConfig{"draw players=3", 11},
                      PresetConfig{"initial_pairs", 11},
                      PresetConfig{"standard score_as_captured=on", 11},
                      PresetConfig{"standard deal=threes players=3", 11},
                      PresetConfig{"california", 11},
                      PresetConfig{"california players=6", 11},
                      PresetConfig{"standard sweeps=2 sudden_death=on", 11}),
    [](const ::testing::TestParamInfo<PresetConfig>& info) {
      std::string name = info.param.rules;
      for (char& c : name) {
        if (!isalnum(static_cast<unsigned char>(c))) c = '_';
      }
      return name;
    });

}  // namespace
}  // namespace cassino
