// The game record: what the referee writes for every game, and what `cassino
// verify`, `replay`, `stats` and the referee's own resume read back.
//
// A record is a header (the game's fixed facts) plus a sequence of events.
// Each event is stored as a kind and a JSON payload; the payload bytes, as
// stored, are what the hash chain covers, so another implementation verifies
// a record by hashing the stored bytes, never by re-serialising (see
// docs/record_format.md):
//
//   hash[0] = SHA-256(commitment_bytes || "create" || 0x00 || payload[0])
//   hash[i] = SHA-256(hash[i-1] || kind[i] || 0x00 || payload[i])
//
// where commitment_bytes is the 32-byte seed commitment. Event 0 is always
// `create`, whose payload is the header as JSON (without the seed, which is
// revealed only by the `end` event, and without token hashes).
//
// Event kinds and payload fields (all JSON objects, keys sorted):
//   create   the header (see GameHeader)
//   deal     round, deck ("6D 8C ..." in deal order)
//   move     turn, round, seat, move (canonical notation), elapsed_ms
//   reject   turn, seat, submitted (as received), reason, elapsed_ms
//   round    round, dealer, leftovers, leftover_side, builds_left,
//            all_eleven_side, items [{kind, side, points, card?}],
//            sides [{cards, spades, points, ...}], totals_before, totals_after
//   forfeit  seat, reason ("time", "illegal", ...), detail
//   end      winner (side, -1 none), reason, totals, forfeiting_seat, detail,
//            seed (hex; empty for explicit decks)
//   abort    detail
//
// Lifetimes: records are values; nothing here touches SQLite.

#ifndef CASSINO_RECORDER_RECORD_H_
#define CASSINO_RECORDER_RECORD_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "rules/deal.h"
#include "rules/game.h"

namespace cassino::recorder {

// A game's time control. Every seat has the same.
struct TimeControl {
  int64_t per_move_ms = 5000;  // free time for each move
  int64_t bank_ms = 30000;     // overage bank, spent when a move is slower
  int max_illegal = 3;         // rejected submissions before a forfeit
  friend bool operator==(const TimeControl&, const TimeControl&) = default;
};

struct SeatInfo {
  std::string bot_name;
  std::string token_hash;  // hex SHA-256 of the seat's token; never exported
  // The bot account playing the seat (seats.account); empty for a seat
  // played by a plain seat token. Not part of the hashed create payload.
  std::string account{};
  friend bool operator==(const SeatInfo&, const SeatInfo&) = default;
};

// The fixed facts of a game, written when it is created.
struct GameHeader {
  std::string game_id;
  std::string rules;  // RuleSet::ToString(), every option
  std::vector<SeatInfo> seats;
  std::string commitment;  // hex SHA-256(seed); empty with explicit decks
  std::string seed;        // hex; secret until the game ends
  std::vector<std::string> explicit_decks;  // DeckToString each; may be empty
  TimeControl clock;
  std::string label;       // match or tournament label; may be empty
  int64_t created_us = 0;  // Unix time, microseconds
  friend bool operator==(const GameHeader&, const GameHeader&) = default;
};

enum class EventKind {
  kCreate,
  kDeal,
  kMove,
  kReject,
  kRound,
  kForfeit,
  kEnd,
  kAbort
};
absl::string_view EventKindName(EventKind kind);
absl::StatusOr<EventKind> ParseEventKind(absl::string_view name);

// One stored event. `payload` is the JSON text exactly as stored.
struct Event {
  int64_t seq = 0;  // 0-based within the game
  EventKind kind = EventKind::kCreate;
  int64_t at_us = 0;  // Unix time, microseconds
  std::string payload;
  std::string hash;  // hex; computed by the recorder when appended
  friend bool operator==(const Event&, const Event&) = default;
};

// Where a game stands in the database.
enum class GameStatus { kRunning, kFinished, kAborted };
absl::string_view GameStatusName(GameStatus status);

struct GameRecord {
  GameHeader header;
  GameStatus status = GameStatus::kRunning;
  std::vector<Event> events;
};

// The hash of an event given the previous hash (raw 32 bytes) — or, for
// event 0, the raw commitment bytes (32 zero bytes with explicit decks).
Digest ChainHash(const Digest& previous, EventKind kind,
                 absl::string_view payload);

// Builders of event payloads, used by the referee. Each returns the JSON text.
std::string CreatePayload(const GameHeader& header);
std::string DealPayload(int round, const Deck& deck);
std::string MovePayload(const PlayedMove& move, int64_t elapsed_ms);
std::string RejectPayload(int turn, int seat, absl::string_view submitted,
                          absl::string_view reason, int64_t elapsed_ms);
std::string RoundPayload(const RoundResult& round);
std::string ForfeitPayload(int seat, absl::string_view reason,
                           absl::string_view detail);
std::string EndPayload(const GameResult& result, absl::string_view seed_hex);
std::string AbortPayload(absl::string_view detail);

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

// The header's rules and decks as the engine wants them.
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

// Rebuilds the game by playing every recorded move through the engine.
// Fails, naming the event, if a recorded move is illegal or events disagree.
// (`cassino verify` checks far more; this is what resuming needs.)
absl::StatusOr<ReplayedGame> Replay(const GameRecord& record);

}  // namespace cassino::recorder

#endif  // CASSINO_RECORDER_RECORD_H_
