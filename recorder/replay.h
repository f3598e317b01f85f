// The record and the rules engine: the events a game's changes produce,
// in the order the referee records them (ConsequenceEvents), and a record
// replayed into engine state (Replay), which the referee uses to resume a
// game after a restart and `cassino replay` to show one.
//
// Lifetimes: values; nothing here touches SQLite.

#ifndef CASSINO_RECORDER_REPLAY_H_
#define CASSINO_RECORDER_REPLAY_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "recorder/record.h"
#include "rules/deal.h"
#include "rules/game.h"
#include "rules/rule_set.h"

namespace cassino::recorder {

// An event the referee is about to record: its kind and payload, before
// the recorder gives it a seq, a time and a hash.
struct EventDraft {
  EventKind kind = EventKind::kCreate;
  std::string payload;
  friend bool operator==(const EventDraft&, const EventDraft&) = default;
};

// The events that follow a change of `game`'s state (a move, a forfeit), in
// the order the referee records them: the `round` result of every round
// completed since the game had `rounds_before` results, then `end` if the
// game is over (revealing `seed_hex`), else the next round's `deal` if the
// round is no longer `round_before`. The one statement of that order, for
// the referee and for every tool and test that writes records as it does.
std::vector<EventDraft> ConsequenceEvents(const Game& game,
                                          size_t rounds_before,
                                          int round_before,
                                          absl::string_view seed_hex);

// The header's rules and decks as the engine wants them. Explicit decks
// hold exactly the cards of the rules' pack (RuleSet::Pack).
absl::StatusOr<RuleSet> HeaderRules(const GameHeader& header);
absl::StatusOr<DeckSource> HeaderDecks(const GameHeader& header);

// A record replayed into engine state: used by the referee to resume and by
// tools. Per-seat clock and illegal-submission counts are reconstructed from
// the events: only accepted moves charge the bank (time beyond per_move_ms).
struct ReplayedGame {
  Game game;
  std::vector<int64_t> bank_left_ms;  // per seat
  std::vector<int> illegal_count;     // per seat
  int64_t last_event_us = 0;          // when the current turn began
};

// Called after each event has been replayed (event 0, `create`, included)
// with the state it left; the state lives only for the call.
using ReplayObserver =
    std::function<void(const Event& event, const ReplayedGame& state)>;

// Rebuilds the game by playing every recorded move through the engine.
// Fails, naming the event, if a recorded move is illegal or events disagree.
// (`cassino verify` checks far more; this is what resuming needs.) With an
// observer, also shows it every intermediate state (the web viewer's
// positions per turn).
absl::StatusOr<ReplayedGame> Replay(const GameRecord& record,
                                    const ReplayObserver& observer = nullptr);

}  // namespace cassino::recorder

#endif  // CASSINO_RECORDER_REPLAY_H_
