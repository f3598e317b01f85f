#include "referee/rules/deal.h"

#include "gtest/gtest.h"

namespace cassino {
namespace {

// The test vector of RULES.md §2.
TEST(DealTest, SeedTestVector) {
  Seed zero{};
  EXPECT_EQ(ToHex(SeedCommitment(zero)),
            "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925");
  const std::string round1 = DeckToString(ShuffledDeck(zero, 1));
  EXPECT_EQ(round1.substr(0, 35), "6D 8C 2H 9H TC 2C 4C 5S 7H 5D JD 4S");
  EXPECT_EQ(round1.substr(round1.size() - 11), "KH QS KC JS");
  EXPECT_EQ(DeckToString(ShuffledDeck(zero, 2)).substr(0, 11), "TD 2S 7S 4C");
}

TEST(DealTest, EveryDeckIsAPermutation) {
  Seed seed{};
  for (int r = 1; r <= 50; ++r) {
    seed[0] = static_cast<uint8_t>(r);
    Deck d = ShuffledDeck(seed, r);
    CardSet all;
    for (Card c : d) all.insert(c);
    EXPECT_EQ(all, CardSet::FullDeck());
    EXPECT_EQ(d.size(), 52u);
  }
}

TEST(DealTest, SeedHexRoundTripAndErrors) {
  const std::string hex(64, 'a');
  absl::StatusOr<Seed> s = ParseSeed(hex);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(ToHex(*s), hex);
  EXPECT_FALSE(ParseSeed("abc").ok());
  EXPECT_FALSE(ParseSeed(std::string(64, 'g')).ok());
}

TEST(DealTest, ParseDeckNeedsAll52Once) {
  Deck canonical = CanonicalDeck();
  absl::StatusOr<Deck> d = ParseDeck(DeckToString(canonical));
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(*d, canonical);
  EXPECT_FALSE(ParseDeck("AS 2S").ok());
  std::string twice = DeckToString(canonical);
  twice.replace(0, 2, "2S");
  EXPECT_FALSE(ParseDeck(twice).ok());
}

}  // namespace
}  // namespace cassino
