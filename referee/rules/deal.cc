#include "referee/rules/deal.h"

// The low-level SHA256_* functions are deprecated in OpenSSL 3.0; see
// HashSha256.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace cassino {
namespace {

// Copies n <= 64 bytes in 8-byte words (a call to memcpy, or the byte loop
// the compiler makes of a short memcpy, costs more than the hashing of a
// short part saves).
inline void CopyShort(uint8_t* to, const uint8_t* from, size_t n) {
  if (n >= 8) {
    uint64_t w;
    for (size_t i = 0; i + 8 < n; i += 8) {
      std::memcpy(&w, from + i, 8);
      std::memcpy(to + i, &w, 8);
    }
    std::memcpy(&w, from + n - 8, 8);  // the last 8, overlapping
    std::memcpy(to + n - 8, &w, 8);
  } else if (n >= 4) {  // the first and last 4, overlapping
    uint32_t a, b;
    std::memcpy(&a, from, 4);
    std::memcpy(&b, from + n - 4, 4);
    std::memcpy(to, &a, 4);
    std::memcpy(to + n - 4, &b, 4);
  } else {
    for (size_t i = 0; i < n; ++i) to[i] = from[i];
  }
}

// `v` with its bytes in big-endian order (stored byte by byte, GCC 12 does
// not merge the stores into one).
uint32_t BigEndian(uint32_t v) {
  if constexpr (std::endian::native == std::endian::little) {
    return __builtin_bswap32(v);
  }
  return v;
}
uint64_t BigEndian(uint64_t v) {
  if constexpr (std::endian::native == std::endian::little) {
    return __builtin_bswap64(v);
  }
  return v;
}

// SHA-256 of the concatenation of `parts` into `out` (32 bytes), through
// OpenSSL's low-level block function (SHA256_Transform: the same block code,
// with the CPU's SHA instructions, as the EVP interface) with the message
// padding (FIPS 180-4 §5.1.1) done here. EVP's set-up costs about 600
// instructions per hash (EVP_DigestInit_ex on OpenSSL 3), and
// SHA256_Update/Final about 100 more than this per short message (a call
// per part, the final clean-up of the context); `cassino verify` hashes
// every event (callgrind counts). The functions are
// deprecated in OpenSSL 3.0 but present (Debian 12); SHA256_CTX's `h` is the
// public chaining state. The known-answer tests pin the output.
void HashSha256(std::initializer_list<std::span<const uint8_t>> parts,
                uint8_t* out) {
  constexpr size_t kBlock = 64;
  SHA256_CTX ctx;
  SHA256_Init(&ctx);
  alignas(8) uint8_t block[kBlock];
  size_t fill = 0;  // bytes of `block` in use
  uint64_t total = 0;
  for (std::span<const uint8_t> part : parts) {
    const uint8_t* p = part.data();
    size_t n = part.size();
    total += n;
    if (fill > 0) {
      const size_t take = std::min(n, kBlock - fill);
      CopyShort(block + fill, p, take);
      fill += take;
      if (fill < kBlock) continue;
      SHA256_Transform(&ctx, block);
      p += take;
      n -= take;
      fill = 0;
    }
    for (; n >= kBlock; p += kBlock, n -= kBlock) SHA256_Transform(&ctx, p);
    CopyShort(block, p, n);
    fill = n;
  }
  // Padding: 0x80, zeros, then the length in bits as a big-endian uint64.
  block[fill++] = 0x80;
  if (fill > kBlock - 8) {
    std::memset(block + fill, 0, kBlock - fill);
    SHA256_Transform(&ctx, block);
    fill = 0;
  }
  std::memset(block + fill, 0, kBlock - 8 - fill);
  const uint64_t bits = BigEndian(total * 8);
  std::memcpy(block + kBlock - 8, &bits, 8);
  SHA256_Transform(&ctx, block);
#pragma GCC unroll 8
  for (int i = 0; i < 8; ++i) {
    const uint32_t h = BigEndian(uint32_t{ctx.h[i]});
    std::memcpy(out + 4 * i, &h, 4);
  }
}

// The shuffle's byte stream for one round, consumed as uint32 words.
class WordStream {
 public:
  WordStream(const Seed& seed, uint32_t round) {
    std::copy(seed.begin(), seed.end(), input_.begin());
    PutBigEndian(round, &input_[32]);
  }

  uint32_t Next() {
    if (offset_ == block_.size()) Refill();
    uint32_t w = (uint32_t{block_[offset_]} << 24) |
                 (uint32_t{block_[offset_ + 1]} << 16) |
                 (uint32_t{block_[offset_ + 2]} << 8) | block_[offset_ + 3];
    offset_ += 4;
    return w;
  }

  // uniform(n) of RULES.md §2.
  uint32_t Uniform(uint32_t n) {
    // 2^32 - (2^32 mod n), computed in 64 bits.
    const uint64_t limit = (uint64_t{1} << 32) - ((uint64_t{1} << 32) % n);
    for (;;) {
      uint32_t w = Next();
      if (w < limit) return w % n;
    }
  }

 private:
  static void PutBigEndian(uint32_t v, uint8_t* out) {
    out[0] = v >> 24;
    out[1] = v >> 16;
    out[2] = v >> 8;
    out[3] = v;
  }
  void Refill() {
    PutBigEndian(block_index_++, &input_[36]);
    HashSha256({input_}, block_.data());
    offset_ = 0;
  }

  std::array<uint8_t, 40> input_{};  // seed || round || block index
  std::array<uint8_t, 32> block_{};
  size_t offset_ = 32;  // empty: the first Next() refills
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
  Deck deck = CanonicalDeck(pack);
  WordStream stream(seed, round);
  for (int i = static_cast<int>(deck.size()) - 1; i >= 1; --i) {
    uint32_t j = stream.Uniform(static_cast<uint32_t>(i + 1));
    std::swap(deck[i], deck[j]);
  }
  return deck;
}

std::string ToHex(std::span<const uint8_t> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (uint8_t b : bytes) {
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 15]);
  }
  return out;
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
