// The JSON views behind the viewer's pages (documented field by field in
// docs/viewer.md): a game listing, one game replayed turn by turn, and a
// tournament with its schedule, standings and crosstable.
//
// A game view is built from the stored record by replaying it through the
// rules engine (recorder/replay.h) and re-adjudicating it (tools/verify's
// GameVerifier) for the "verified" badge. What it contains is decided by
// reveal.h and nothing else: in the public view no position has a hand, no
// deck and no seed appears, and a verification failure is reported without
// the values it compared (which may be cards or a seed).
//
// Every string from the record (bot names, labels, moves, reasons) is
// attacker-controlled: the JSON escapes it, and DumpJson's output is safe
// inside an HTML <script> element.
//
// Lifetimes: values; nothing is kept between calls.

#ifndef CASSINO_TOOLS_VIEWER_GAME_VIEW_H_
#define CASSINO_TOOLS_VIEWER_GAME_VIEW_H_

#include <optional>
#include <string>
#include <vector>

#include "nlohmann/json.hpp"
#include "recorder/standings.h"
#include "recorder/stored_game.h"
#include "tools/verify/game_verifier.h"
#include "tools/viewer/database.h"
#include "tools/viewer/reveal.h"

namespace cassino::viewer {

// Compact JSON text with `<`, `>`, `&` and U+2028/U+2029 escaped as \uXXXX
// (so it may be inlined in HTML) and invalid UTF-8 replaced by U+FFFD.
std::string DumpJson(const nlohmann::json& value);

nlohmann::json ListingJson(const recorder::GameSummary& game);

// The whole game: header, result, verification, and `positions`, one per
// turn (positions[k] is the board after k accepted moves). `verdict` is
// GameVerifier's answer for `game`.
nlohmann::json GameJson(const recorder::StoredGame& game,
                        const RevealDecision& reveal,
                        const std::optional<verify::Failure>& verdict);

// Which games of a tournament's schedule an answer lists: those with an
// index above `after`, at most `limit` (1 .. kMaxSchedulePage).
struct SchedulePage {
  int after = -1;
  int limit = 100;
};
inline constexpr int kMaxSchedulePage = 500;

// A tournament: its row, one page of its schedule (game ids, seats,
// results; `games_next` the `after` of the next page or null,
// `games_total` the schedule's length), the standings
// (recorder/standings.h, as `cassino stats --tournament` counts) and the
// crosstable: crosstable[i][j] = {wins, losses, draws} of participant i
// against participant j over finished games. Standings and crosstable
// count the whole schedule whatever the page.
nlohmann::json TournamentJson(const TournamentListing& tournament,
                              const std::vector<ScheduledGame>& schedule,
                              const SchedulePage& page = {});

}  // namespace cassino::viewer

#endif  // CASSINO_TOOLS_VIEWER_GAME_VIEW_H_
