// The seeded shuffle of RULES.md §2, reproducible in any language.
//
// A game has a 32-byte seed. Its commitment is SHA-256(seed), published when
// the game is created; the seed itself is revealed when the game ends. The
// deck of round r (1-based) is the canonical deck shuffled by Fisher-Yates,
// drawing from the byte stream whose block i is
// SHA-256(seed || uint32_be(r) || uint32_be(i)), read as big-endian uint32
// words, with rejection sampling for uniformity. deck[0] is dealt first.

#ifndef CASSINO_REFEREE_RULES_DEAL_H_
#define CASSINO_REFEREE_RULES_DEAL_H_

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/status/statusor.h"
#include "referee/rules/card.h"

namespace cassino {

using Seed = std::array<uint8_t, 32>;
using Digest = std::array<uint8_t, 32>;
// A deck in deal order: deck[0] is the top card.
using Deck = std::vector<Card>;

Digest Sha256(std::span<const uint8_t> bytes);
Digest SeedCommitment(const Seed& seed);

// The deck of round `round` (>= 1) for this seed.
Deck ShuffledDeck(const Seed& seed, uint32_t round);
// The 52 cards in canonical order.
Deck CanonicalDeck();

// Lower-case hex, and its parser (exactly 64 hex digits for a seed).
std::string ToHex(std::span<const uint8_t> bytes);
absl::StatusOr<Seed> ParseSeed(absl::string_view hex);

// A deck as space-separated cards, and its parser. Parse checks that the deck
// holds each of the 52 cards exactly once.
std::string DeckToString(const Deck& deck);
absl::StatusOr<Deck> ParseDeck(absl::string_view text);

}  // namespace cassino

#endif  // CASSINO_REFEREE_RULES_DEAL_H_
