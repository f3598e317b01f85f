#include "recorder/stored_game.h"

#include <utility>

namespace cassino::recorder {

StoredGame FromRecord(const GameRecord& record) {
  StoredGame g;
  const GameHeader& h = record.header;
  g.game_id = h.game_id;
  g.label = h.label;
  g.rules = h.rules;
  g.commitment = h.commitment;
  g.seed = h.seed;
  g.explicit_decks = h.explicit_decks;
  g.per_move_ms = h.clock.per_move_ms;
  g.bank_ms = h.clock.bank_ms;
  g.max_illegal = h.clock.max_illegal;
  g.created_us = h.created_us;
  for (size_t i = 0; i < h.seats.size(); ++i) {
    g.bots.push_back(h.seats[i].bot_name);
    g.seat_numbers.push_back(static_cast<int64_t>(i));
    g.accounts.push_back(h.seats[i].account);
  }
  g.status = std::string(GameStatusName(record.status));
  g.has_summary = false;
  for (const Event& e : record.events) {
    g.events.push_back({e.seq, std::string(EventKindName(e.kind)), e.at_us,
                        e.payload, e.hash});
  }
  return g;
}

absl::StatusOr<GameRecord> ToRecord(const StoredGame& g) {
  GameRecord r;
  GameHeader& h = r.header;
  h.game_id = g.game_id;
  h.label = g.label;
  h.rules = g.rules;
  for (size_t i = 0; i < g.bots.size(); ++i) {
    h.seats.push_back(
        {g.bots[i], "", i < g.accounts.size() ? g.accounts[i] : ""});
  }
  h.commitment = g.commitment;
  h.seed = g.seed;
  h.explicit_decks = g.explicit_decks;
  h.clock = {g.per_move_ms, g.bank_ms, static_cast<int>(g.max_illegal)};
  h.created_us = g.created_us;
  absl::StatusOr<GameStatus> status = ParseGameStatus(g.status);
  if (!status.ok()) return status.status();
  r.status = *status;
  for (const StoredEvent& e : g.events) {
    absl::StatusOr<EventKind> kind = ParseEventKind(e.kind);
    if (!kind.ok()) return kind.status();
    r.events.push_back({e.seq, *kind, e.at_us, e.payload, e.hash});
  }
  return r;
}

}  // namespace cassino::recorder
