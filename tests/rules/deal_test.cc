#include "rules/deal.h"

#include <openssl/sha.h>

#include <array>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace cassino {
namespace {

// The test vector of docs/rules.md, *The seeded shuffle*.
TEST(DealTest, SeedTestVector) {
  Seed zero{};
  EXPECT_EQ(ToHex(SeedCommitment(zero)),
            "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925");
  const std::string round1 = DeckToString(ShuffledDeck(zero, 1));
  EXPECT_EQ(round1.substr(0, 35), "6D 8C 2H 9H TC 2C 4C 5S 7H 5D JD 4S");
  EXPECT_EQ(round1.substr(round1.size() - 11), "KH QS KC JS");
  EXPECT_EQ(DeckToString(ShuffledDeck(zero, 2)).substr(0, 11), "TD 2S 7S 4C");
}

// FIPS 180-2 known answers (empty, "abc", the one- and two-block messages
// whose padding needs an extra block, a million 'a').
TEST(DealTest, Sha256KnownAnswers) {
  auto hex = [](absl::string_view text) {
    return ToHex(Sha256(TextBytes(text)));
  };
  EXPECT_EQ(hex(""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(hex("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(
      hex("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
          "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"),
      "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
  EXPECT_EQ(hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

// Every length around the block and padding boundaries, hashed whole and in
// three parts cut anywhere, equals OpenSSL's one-shot SHA256().
TEST(DealTest, Sha256OfPartsEqualsOneShot) {
  std::string text;
  for (int i = 0; i < 300; ++i) text.push_back(static_cast<char>(i * 7 + 3));
  for (size_t n = 0; n <= text.size(); ++n) {
    const std::span<const uint8_t> bytes =
        TextBytes(absl::string_view(text).substr(0, n));
    Digest want;
    SHA256(bytes.data(), bytes.size(), want.data());
    ASSERT_EQ(Sha256(bytes), want) << n;
    for (size_t a = 0; a <= n; a += 13) {
      for (size_t b = a; b <= n; b += 29) {
        ASSERT_EQ(Sha256({bytes.subspan(0, a), bytes.subspan(a, b - a),
                          bytes.subspan(b)}),
                  want)
            << n << " cut at " << a << ", " << b;
      }
    }
  }
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

// The procedure of docs/rules.md, *The seeded shuffle*, written out with
// plain division: the engine's shuffle (which avoids dividing) must give the
// same decks for every pack size.
Deck DocumentedShuffle(const Seed& seed, uint32_t round, CardSet pack) {
  std::vector<uint32_t> words;
  Deck deck = CanonicalDeck(pack);
  uint32_t block = 0;
  size_t next = 0;
  auto read = [&]() {
    if (next == words.size()) {
      std::array<uint8_t, 40> input{};
      std::copy(seed.begin(), seed.end(), input.begin());
      for (int k = 0; k < 4; ++k) {
        input[32 + k] = static_cast<uint8_t>(round >> (24 - 8 * k));
        input[36 + k] = static_cast<uint8_t>(block >> (24 - 8 * k));
      }
      ++block;
      const Digest d = Sha256(input);
      for (int k = 0; k < 32; k += 4) {
        words.push_back(uint32_t{d[k]} << 24 | uint32_t{d[k + 1]} << 16 |
                        uint32_t{d[k + 2]} << 8 | d[k + 3]);
      }
    }
    return words[next++];
  };
  for (int i = static_cast<int>(deck.size()) - 1; i >= 1; --i) {
    const uint64_t n = static_cast<uint64_t>(i) + 1;
    const uint64_t limit = (uint64_t{1} << 32) - ((uint64_t{1} << 32) % n);
    uint32_t w = read();
    while (w >= limit) w = read();
    std::swap(deck[i], deck[w % n]);
  }
  return deck;
}

TEST(DealTest, ShuffleFollowsTheDocumentedProcedure) {
  CardSet no_faces = CardSet::FullDeck();
  for (int r = kJack; r <= kKing; ++r) no_faces -= CardSet::OfRank(r);
  CardSet small = no_faces;
  for (int r = 2; r <= 9; ++r) small -= CardSet::OfRank(r);
  for (const CardSet pack : {CardSet::FullDeck(), no_faces, small}) {
    for (int g = 0; g < 300; ++g) {
      Seed seed{};
      seed[0] = static_cast<uint8_t>(g);
      seed[31] = static_cast<uint8_t>(g >> 8);
      for (uint32_t round = 1; round <= 3; ++round) {
        ASSERT_EQ(ShuffledDeck(seed, round, pack),
                  DocumentedShuffle(seed, round, pack))
            << "seed " << g << ", round " << round << ", " << pack.size()
            << " cards";
      }
    }
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
