// The seeded shuffle of docs/rules.md, *The seeded shuffle*, reproducible in
// any language.
//
// A game has a 32-byte seed. Its commitment is SHA-256(seed), published when
// the game is created; the seed itself is revealed when the game ends. The
// deck of round r (1-based) is the canonical deck shuffled by Fisher-Yates,
// drawing from the byte stream whose block i is
// SHA-256(seed || uint32_be(r) || uint32_be(i)), read as big-endian uint32
// words, with rejection sampling for uniformity. deck[0] is dealt first.
//
// A smaller pack (docs/rules.md, *The deal*: `pack=40`, `remove=`) is shuffled
// the same way over its n cards: start from the pack's cards in canonical order
// (deck index ascending), then for i from n-1 down to 1, j = uniform(i + 1),
// swap deck[i] and deck[j], reading the same byte stream. For the full pack
// this is exactly the 52-card shuffle above (the test vector of docs/rules.md,
// *The seeded shuffle*).

#ifndef CASSINO_RULES_DEAL_H_
#define CASSINO_RULES_DEAL_H_

#include <array>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "rules/card.h"

namespace cassino {

using Seed = std::array<uint8_t, 32>;
using Digest = std::array<uint8_t, 32>;
// A deck in deal order: deck[0] is the top card.
using Deck = std::vector<Card>;

Digest Sha256(std::span<const uint8_t> bytes);
// SHA-256 of the concatenation of `parts` (without copying them together).
Digest Sha256(std::initializer_list<std::span<const uint8_t>> parts);
// The bytes of a text, as a part to hash; valid while `text` is.
inline std::span<const uint8_t> TextBytes(absl::string_view text) {
  return {reinterpret_cast<const uint8_t*>(text.data()), text.size()};
}
Digest SeedCommitment(const Seed& seed);
// The seed of game `index` of a batch or tournament with seed `batch`:
// SHA-256(batch || uint32_be(index)). Tournaments (the `cassino tournament`
// runner and the referee's own scheduler) and seeded random batches derive
// their games' seeds this way, so an auditor holding the revealed batch seed
// can check every game's commitment.
Seed BatchGameSeed(const Seed& batch, uint32_t index);

// The deck of round `round` (>= 1) for this seed.
Deck ShuffledDeck(const Seed& seed, uint32_t round);
// The same for a pack of fewer cards (see the file comment).
Deck ShuffledDeck(const Seed& seed, uint32_t round, CardSet pack);
// The same into `deck`, reusing its storage (a game deals every round).
void ShuffleDeck(const Seed& seed, uint32_t round, CardSet pack, Deck* deck);
// The 52 cards in canonical order.
Deck CanonicalDeck();
// The cards of `pack` in canonical order.
Deck CanonicalDeck(CardSet pack);

// Lower-case hex, and its parser (exactly 64 hex digits for a seed).
std::string ToHex(std::span<const uint8_t> bytes);
absl::StatusOr<Seed> ParseSeed(absl::string_view hex);

// A deck as space-separated cards, and its parser. Parse checks that the deck
// holds each of the 52 cards (or each card of `pack`) exactly once.
std::string DeckToString(const Deck& deck);
absl::StatusOr<Deck> ParseDeck(absl::string_view text);
absl::StatusOr<Deck> ParseDeck(absl::string_view text, CardSet pack);

}  // namespace cassino

#endif  // CASSINO_RULES_DEAL_H_
