// How much of a game the viewer may show: the one statement of the reveal
// rule (docs/viewer.md, "What is shown").
//
//   public      the table, the moves played, hand sizes, captured counts,
//               clocks, round scores and the result: what every seat sees.
//               No hand, no deck, no seed, and no refused submission's
//               text or reason (it may name a card its seat holds).
//   omniscient  public, plus every hand at every turn, each round's deck
//               and the seed the `end` event revealed.
//
// A game is omniscient only when it has finished AND no game dealt the same
// decks is still unfinished (a duplicate twin running, or a tournament's
// scheduled twin not yet created). A running game is public (its deals are
// in the record but secret to the referee); so is an aborted game (the
// referee keeps its seed secret, and the cards still in hands were never
// shown).
//
// Lifetimes: values.

#ifndef CASSINO_TOOLS_VIEWER_REVEAL_H_
#define CASSINO_TOOLS_VIEWER_REVEAL_H_

#include <string>

#include "absl/strings/string_view.h"
#include "tools/viewer/database.h"

namespace cassino::viewer {

enum class Reveal { kPublic, kOmniscient };

struct RevealDecision {
  Reveal reveal = Reveal::kPublic;
  std::string why;  // for the page: why hands are hidden ('' when shown)
};

// `status` is games.status (running, finished, aborted; anything else is
// treated as running).
RevealDecision DecideReveal(absl::string_view status, const TwinState& twins);

absl::string_view RevealName(Reveal reveal);

}  // namespace cassino::viewer

#endif  // CASSINO_TOOLS_VIEWER_REVEAL_H_
