// The legal-move lists of seeded random playouts, pinned by checksums.
//
// The referee, the records and `cassino verify` depend on the move lists
// and on their order (a bot answers by index, a record replays by choice),
// so a change made for speed must leave every list exactly as it was. For
// each rule set below, seeded random games (RandomPlayer, the playouts of
// `cassino simulate` and `rules_bench`) are played and every list the
// generator gives is hashed in order, move by move, field by field, with
// the move chosen from it and each game's final totals. The expected values
// were computed by the engine before its speed work (issue #24) and must
// never be edited to make the test pass: a changed checksum is a changed
// move list.
//
// The property tests check that the lists are right (every listed move
// validates, every other identity is refused); this test checks that they
// do not move.

#include <cstdint>
#include <cstring>
#include <ostream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "rules/game.h"
#include "rules/game_moves.h"
#include "tools/playout/random_playout.h"

namespace cassino {
namespace {

// FNV-1a, 64 bits, over bytes fed one at a time.
class Fnv1a {
 public:
  void Add(uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) {
      hash_ ^= (v >> (8 * i)) & 0xff;
      hash_ *= 0x100000001b3ULL;
    }
  }
  void Add(const Move& m) {
    Add(static_cast<uint64_t>(m.kind), 1);
    Add(static_cast<uint64_t>(m.card.index() & 0xff), 1);
    Add(static_cast<uint64_t>(m.value & 0xff), 1);
    Add(static_cast<uint64_t>(m.declared & 0xff), 1);
    Add(static_cast<uint64_t>(m.pluck.index() & 0xff), 1);
    Add(m.pluck_after ? 1 : 0, 1);
    Add(static_cast<uint64_t>(m.second.index() & 0xff), 1);
    Add(m.table.bits(), 8);
  }
  uint64_t value() const { return hash_; }

 private:
  uint64_t hash_ = 0xcbf29ce484222325ULL;
};

// The batch seed `tag` padded with zeros (as rules_bench and the property
// tests make theirs).
Seed TagSeed(const std::string& tag) {
  Seed seed{};
  std::memcpy(seed.data(), tag.data(), std::min(tag.size(), seed.size()));
  return seed;
}

// Plays `games` seeded random games under `rules_text` (at most
// `max_rounds` rounds each) and hashes every move list met, the moves
// chosen and the final totals.
uint64_t PlayoutChecksum(const std::string& rules_text, int games,
                         size_t max_rounds) {
  absl::StatusOr<RuleSet> rules = RuleSet::Parse(rules_text);
  EXPECT_TRUE(rules.ok()) << rules.status();
  if (!rules.ok()) return 0;
  const Seed batch = TagSeed(rules_text.empty() ? "rules_bench" : rules_text);
  Fnv1a hash;
  MoveGenerator gen;
  std::vector<Move> moves;
  for (int i = 0; i < games; ++i) {
    const Seed seed = BatchGameSeed(batch, static_cast<uint32_t>(i));
    Game game = *Game::Create(*rules, DeckSource::FromSeed(seed));
    RandomPlayer player(seed);
    while (!game.over() && game.rounds().size() < max_rounds) {
      // The list as every tool sees it (call-out included), then the
      // playout's choice.
      hash.Add(GenerateGameMoves(game.position(), gen, &moves) ? 1 : 0, 1);
      hash.Add(moves.size(), 4);
      for (const Move& m : moves) hash.Add(m);
      const Move chosen = player.Choose(game);
      hash.Add(chosen);
      game.PlayUnchecked(chosen);
    }
    for (int t : game.totals()) hash.Add(static_cast<uint32_t>(t), 4);
  }
  return hash.value();
}

struct Pinned {
  const char* rules;  // RuleSet text; "" is the standard game
  int games;
  size_t max_rounds;
  uint64_t checksum;
};

void PrintTo(const Pinned& p, std::ostream* os) {
  *os << "'" << p.rules << "', " << p.games << " games";
}

class PlayoutChecksumTest : public ::testing::TestWithParam<Pinned> {};

TEST_P(PlayoutChecksumTest, MoveListsAreUnchanged) {
  const Pinned& p = GetParam();
  const uint64_t actual = PlayoutChecksum(p.rules, p.games, p.max_rounds);
  EXPECT_EQ(actual, p.checksum)
      << "rules '" << p.rules << "': checksum 0x" << std::hex << actual
      << "; a move list or its order changed";
}

constexpr size_t kAllRounds = SIZE_MAX;

// The standard game gets the most games (it is what the benchmarks play);
// every option that shapes the move list gets a batch of its own.
INSTANTIATE_TEST_SUITE_P(
    RuleSets, PlayoutChecksumTest,
    ::testing::Values(
        Pinned{"", 1000, kAllRounds, 0xfcaad3fc313334a5ULL},
        // Round 1 of as many games: rules_bench's BM_RandomRounds.
        Pinned{"", 2000, 1, 0xdd8a500614cd02c8ULL},
        Pinned{"players=3", 200, kAllRounds, 0xcd25596e6ba8b854ULL},
        Pinned{"players=4 partnerships=on", 200, kAllRounds,
               0x370d07a0525a27a5ULL},
        Pinned{"builder_obligation=v2", 200, kAllRounds, 0x502178dbd0fd72d6ULL},
        Pinned{"builder_obligation=v3", 200, kAllRounds, 0x5b5d9000f8d98b61ULL},
        Pinned{"builder_obligation=none", 200, kAllRounds,
               0xb31eccc817e66fc3ULL},
        Pinned{"builds_in_sums=never", 200, kAllRounds, 0xe26af3defb335ab3ULL},
        Pinned{"multi_build_absorb=off", 200, kAllRounds,
               0x1a58e63097cce36eULL},
        Pinned{"own_raise=needs_old_value", 200, kAllRounds,
               0x16c203adff4060cbULL},
        Pinned{"own_raise=forbidden", 200, kAllRounds, 0x270aed324286d627ULL},
        Pinned{"raise_with_table=off", 200, kAllRounds, 0x1720e0b054826c72ULL},
        Pinned{"multiple_builds=off", 200, kAllRounds, 0x845265a8f991f200ULL},
        Pinned{"face_capture=all", 200, kAllRounds, 0x27377fa306028cecULL},
        Pinned{"call_out=on", 200, kAllRounds, 0x8291079c2345a9a4ULL},
        Pinned{"revision=1", 200, kAllRounds, 0x405d9439844af817ULL},
        Pinned{"revision=2", 200, kAllRounds, 0x9f5601f5dd58f216ULL},
        Pinned{"royal", 200, kAllRounds, 0xad3cdee12564ff05ULL},
        Pinned{"buckeye", 200, kAllRounds, 0xcc066661c15b7549ULL},
        Pinned{"dual_ten=on", 200, kAllRounds, 0x1eb10007871ad9b4ULL},
        Pinned{"trailing_royals", 200, kAllRounds, 0x4e182300ce4cf79cULL},
        Pinned{"face_four", 200, kAllRounds, 0x333e8c7f36eceb38ULL},
        Pinned{"five_spades", 200, kAllRounds, 0x94601833e46c55bdULL},
        Pinned{"pluck", 200, kAllRounds, 0x7c840fa331a0618eULL},
        Pinned{"michigan", 200, kAllRounds, 0xf4e08a880aaab89aULL},
        Pinned{"standard defaults_cost=2", 200, kAllRounds,
               0xdd41751db94275f8ULL},
        Pinned{"california", 200, kAllRounds, 0x67e4c12fa15caaa6ULL},
        Pinned{"diamond", 200, kAllRounds, 0x1d040662852245e5ULL},
        Pinned{"callabra", 200, kAllRounds, 0x2b31fa41aefd44cdULL},
        Pinned{"tablanette", 200, kAllRounds, 0x33068959fde47c7bULL}),
    [](const ::testing::TestParamInfo<Pinned>& info) {
      std::string name =
          absl::StrCat(info.param.rules[0] ? info.param.rules : "standard",
                       info.param.max_rounds == 1 ? "_rounds" : "");
      for (char& c : name) {
        if (!isalnum(static_cast<unsigned char>(c))) c = '_';
      }
      return name;
    });

}  // namespace
}  // namespace cassino
