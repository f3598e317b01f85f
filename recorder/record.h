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
// The event kinds are create, deal, move, reject, round, forfeit, end and
// abort; recorder/payload.h writes and reads each kind's payload,
// recorder/replay.h replays a record through the engine, and
// recorder/event_pack.h packs an ended game's events into one value.
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
  // A person plays the seat: the create payload's seat carries
  // "human": true (hashed; no table column holds it).
  bool human = false;
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
// The inverse of GameStatusName; InvalidArgument for another name.
absl::StatusOr<GameStatus> ParseGameStatus(absl::string_view name);

struct GameRecord {
  GameHeader header;
  GameStatus status = GameStatus::kRunning;
  std::vector<Event> events;
};

// The hash of an event given the previous hash (raw 32 bytes) — or, for
// event 0, the raw commitment bytes (32 zero bytes with explicit decks).
Digest ChainHash(const Digest& previous, EventKind kind,
                 absl::string_view payload);

// DataLoss naming the first event (its seq) whose stored hash is not the
// chain's, or whose seq is out of order; OK for an intact chain.
absl::Status CheckChain(const GameRecord& record);

}  // namespace cassino::recorder

#endif  // CASSINO_RECORDER_RECORD_H_
