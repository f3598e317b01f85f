#include "rules/deal.h"

// The low-level SHA256_* functions are deprecated in OpenSSL 3.0; see
// HashSha256.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>

#include <algorithm>
#include <array>
#include <utility>

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
// verify's instructions more; not worth a hand-written part of SHA-256.)
void HashSha256(std::initializer_list<std::span<const uint8_t>> parts,
                uint8_t* out) {
  SHA256_CTX ctx;
  SHA256_Init(&ctx);
  for (std::span<const uint8_t> part : parts) {
    if (!part.empty()) SHA256_Update(&ctx, part.data(), part.size());
  }
  SHA256_Final(out, &ctx);
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

  // uniform(n) of docs/rules.md, *The seeded shuffle*.
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
