// A game as one seat may imagine it: what the seat has seen, and the cards
// it has not seen dealt at random (determinization, for search bots that
// play an imperfect-information game forward: ISMCTS, PIMC).
//
// SampleGame(seen, seed) builds a Game that agrees with everything in the
// observation `seen` of seat s: s's hand, the table and its builds, every
// seat's hand size, the stock size, the round's moves, each side's pile
// this round (the round's captures, plucks and initial pairs), sweeps,
// totals, the rounds so far. The cards s has not seen this round (the pack
// less its hand, the table and every card the round's moves showed) are
// shuffled with `seed` and dealt to the other seats' hands, as many as
// each holds, and the rest become the stock in the shuffled order; a seat
// that controls a build is first dealt a card for each value it controls,
// since the rules make it hold one (the guard of builder_rules.h), which
// the seat can infer. Later
// rounds are dealt from decks shuffled from `seed`. So Observe(sampled, s)
// equals `seen` (the earlier rounds' moves, which an observation does not
// hold, are placeholders in the sampled history), and the sampled game
// plays on under the same rules as the real one.
//
// Supported: Cassino (not Callabra or Tablanette), without the options
// that score during play (sudden_death, score_as_captured, defaults_cost,
// instant_limit); Unimplemented otherwise. InvalidArgument when `seen` is
// inconsistent (more cards than the pack holds, piles that disagree with
// the counts), FailedPrecondition for a game already over.

#ifndef CASSINO_RULES_SAMPLED_GAME_H_
#define CASSINO_RULES_SAMPLED_GAME_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "rules/game.h"
#include "rules/observation.h"

namespace cassino {

// The cards `seen`'s seat has not seen this round: the pack less its hand,
// the table, the initial pairs and every card the round's moves showed.
CardSet UnseenCards(const Observation& seen);

absl::StatusOr<Game> SampleGame(const Observation& seen, uint64_t seed);

}  // namespace cassino

#endif  // CASSINO_RULES_SAMPLED_GAME_H_
