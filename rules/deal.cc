#include "rules/deal.h"

// The low-level SHA256_* functions are deprecated in OpenSSL 3.0; see
// HashSha256.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>

#include <algorithm>
#include <array>
#include <utility>

#include "absl/numeric/int128.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace cassino {
namespace {

// SHA-256 of the concatenation of `parts` into `out` (32 bytes), through
// OpenSSL's low-level SHA-256: the same block function (with the CPU's SHA
// instructions) as the EVP interface, without EVP's set-up of about 600
// instructions per hash (EVP_DigestInit_ex on OpenSSL 3, counted with
// callgrind), which is as much as hashing a short event payload and is paid
// once per event by `cassino verify`. The functions are deprecated in
// OpenSSL 3.0 but present (Debian 12); the known-answer tests pin the output.
// (Padding the message here and calling SHA256_Transform saves about 2% of
// verify's instructions more; not worth it for messages of any length. The
// shuffle's WordStream does it: its message is always one block.)
void HashSha256(std::initializer_list<std::span<const uint8_t>> parts,
                uint8_t* out) {
  SHA256_CTX ctx;
  SHA256_Init(&ctx);
  for (std::span<const uint8_t> part : parts) {
    if (!part.empty()) SHA256_Update(&ctx, part.data(), part.size());
  }
  SHA256_Final(out, &ctx);
}

// For each n up to a deck's size: 2^32 mod n, and the multiplier that gives
// w mod n for any 32-bit w without dividing (Lemire, Kaser and Kurz,
// "Faster remainder by direct computation", 2019: exact for 32-bit w and n).
// A division is the slowest step of the shuffle's loop.
struct Remainder {
  uint32_t wrap = 0;  // 2^32 mod n
  uint64_t m = 0;     // floor((2^64 - 1) / n) + 1
  static constexpr Remainder For(uint32_t n) {
    return {static_cast<uint32_t>((uint64_t{1} << 32) % n),
            ~uint64_t{0} / n + 1};
  }
  uint32_t Mod(uint32_t w, uint32_t n) const {
    return static_cast<uint32_t>(absl::Uint128High64(absl::uint128(m * w) * n));
  }
};
constexpr std::array<Remainder, kDeckSize + 1> Remainders() {
  std::array<Remainder, kDeckSize + 1> table{};
  for (uint32_t n = 1; n <= static_cast<uint32_t>(kDeckSize); ++n) {
    table[n] = Remainder::For(n);
  }
  return table;
}
constexpr std::array<Remainder, kDeckSize + 1> kRemainders = Remainders();

// The shuffle's byte stream for one round, consumed as uint32 words: block
// k is SHA-256(seed || round || k), and word i of a block is its bytes
// 4i..4i+3 read big-endian, which is word i of SHA-256's final state.
//
// The 40-byte message fits one SHA-256 block once padded, so each block is
// one call of the compression function on a block padded here once (only
// the index changes), and the words are read straight from the state: no
// SHA256_Update/Final buffering and no byte shuffling. The result is the
// same as HashSha256 (deal_test pins the shuffle against the documented
// procedure).
class WordStream {
 public:
  WordStream(const Seed& seed, uint32_t round) {
    std::copy(seed.begin(), seed.end(), block_.begin());
    PutBigEndian(round, &block_[32]);
    block_[40] = 0x80;  // padding: a one bit, zeros, the length in bits
    PutBigEndian(kMessageBytes * 8, &block_[60]);
  }

  uint32_t Next() {
    if (word_ == kWords) Refill();
    return state_.h[word_++];
  }

  // uniform(n) of docs/rules.md, *The seeded shuffle*: the first word w
  // below 2^32 - (2^32 mod n), taken mod n. For a pack's sizes, without a
  // division (see Remainders).
  uint32_t Uniform(uint32_t n) {
    const Remainder r =
        n < kRemainders.size() ? kRemainders[n] : Remainder::For(n);
    for (;;) {
      // w < 2^32 - t, i.e. w <= 2^32 - 1 - t.
      const uint32_t w = Next();
      if (w <= ~r.wrap) return r.Mod(w, n);
    }
  }

 private:
  static constexpr uint32_t kMessageBytes = 40;  // seed || round || index
  static constexpr int kWords = 8;               // 32-bit words in a digest
  static void PutBigEndian(uint32_t v, uint8_t* out) {
    out[0] = v >> 24;
    out[1] = v >> 16;
    out[2] = v >> 8;
    out[3] = v;
  }
  void Refill() {
    PutBigEndian(block_index_++, &block_[36]);
    SHA256_Init(&state_);
    SHA256_Transform(&state_, block_.data());
    word_ = 0;
  }

  // The padded message: seed || round || block index || 0x80 || zeros ||
  // the message's length in bits (64-bit big-endian).
  std::array<uint8_t, SHA256_CBLOCK> block_{};
  SHA256_CTX state_;
  int word_ = kWords;  // empty: the first Next() refills
  uint32_t block_index_ = 0;
};

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

Digest Sha256(std::span<const uint8_t> bytes) {
  Digest d;
  HashSha256({bytes}, d.data());
  return d;
}

Digest Sha256(std::initializer_list<std::span<const uint8_t>> parts) {
  Digest d;
  HashSha256(parts, d.data());
  return d;
}

Digest SeedCommitment(const Seed& seed) { return Sha256(seed); }

Seed BatchGameSeed(const Seed& batch, uint32_t index) {
  std::array<uint8_t, 36> input;
  std::copy(batch.begin(), batch.end(), input.begin());
  input[32] = index >> 24;
  input[33] = index >> 16;
  input[34] = index >> 8;
  input[35] = index;
  return Sha256(input);
}

Deck CanonicalDeck() { return CanonicalDeck(CardSet::FullDeck()); }

Deck CanonicalDeck(CardSet pack) {
  Deck deck;
  deck.reserve(pack.size());
  for (Card c : pack) deck.push_back(c);
  return deck;
}

Deck ShuffledDeck(const Seed& seed, uint32_t round) {
  return ShuffledDeck(seed, round, CardSet::FullDeck());
}

Deck ShuffledDeck(const Seed& seed, uint32_t round, CardSet pack) {
  Deck deck;
  ShuffleDeck(seed, round, pack, &deck);
  return deck;
}

void ShuffleDeck(const Seed& seed, uint32_t round, CardSet pack, Deck* deck) {
  deck->clear();
  deck->reserve(pack.size());
  for (Card c : pack) deck->push_back(c);  // canonical order
  WordStream stream(seed, round);
  for (int i = static_cast<int>(deck->size()) - 1; i >= 1; --i) {
    uint32_t j = stream.Uniform(static_cast<uint32_t>(i + 1));
    std::swap((*deck)[i], (*deck)[j]);
  }
}

std::string ToHex(std::span<const uint8_t> bytes) {
  return absl::BytesToHexString(absl::string_view(
      reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

absl::StatusOr<Seed> ParseSeed(absl::string_view hex) {
  Seed seed;
  if (hex.size() != 2 * seed.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "a seed is 64 hex digits (32 bytes); got ", hex.size(), " characters"));
  }
  for (size_t i = 0; i < seed.size(); ++i) {
    int hi = HexDigit(hex[2 * i]), lo = HexDigit(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("seed: '", hex.substr(2 * i, 2), "' is not hex"));
    }
    seed[i] = static_cast<uint8_t>(hi * 16 + lo);
  }
  return seed;
}

std::string DeckToString(const Deck& deck) {
  // Written in place (`cassino verify` prints every deal's deck).
  if (deck.empty()) return "";
  std::string out(3 * deck.size() - 1, ' ');
  for (size_t i = 0; i < deck.size(); ++i) {
    const Card c = deck[i];
    out[3 * i] = c.valid() ? RankChar(c.rank()) : '?';
    out[3 * i + 1] = c.valid() ? SuitChar(c.suit()) : '?';
  }
  return out;
}

absl::StatusOr<Deck> ParseDeck(absl::string_view text) {
  return ParseDeck(text, CardSet::FullDeck());
}

absl::StatusOr<Deck> ParseDeck(absl::string_view text, CardSet pack) {
  Deck deck;
  CardSet seen;
  for (absl::string_view token :
       absl::StrSplit(text, absl::ByAnyChar(" ,\t"), absl::SkipEmpty())) {
    absl::StatusOr<Card> card = Card::Parse(token);
    if (!card.ok()) return card.status();
    if (seen.contains(*card)) {
      return absl::InvalidArgumentError(
          absl::StrCat("deck: ", card->ToString(), " appears twice"));
    }
    if (!pack.contains(*card)) {
      return absl::InvalidArgumentError(
          absl::StrCat("deck: ", card->ToString(), " is not in the pack"));
    }
    seen.insert(*card);
    deck.push_back(*card);
  }
  if (seen != pack) {
    return absl::InvalidArgumentError(
        absl::StrCat("deck: has ", deck.size(), " cards; a deck holds all ",
                     pack.size(), " cards of the pack once"));
  }
  return deck;
}

}  // namespace cassino
