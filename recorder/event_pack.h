// Event packs: an ended game's whole event chain as one value.
//
// While a game runs, each event is one row of `events`, written (and
// acknowledged) as it happens. When the game ends, the referee moves the
// game's rows into one `event_packs` row (schema version 5) and deletes the
// rows, in the transaction that writes the `end` or `abort` event; or,
// while the recorder is quiet, in a transaction of the writer thread's
// just after it, so that the ending move's acknowledgement does not wait
// for the pack (a game whose end committed but whose pack did not keeps
// its rows, a complete record too). Nothing
// is recomputed on the way: a pack holds exactly the stored kind, time,
// payload bytes and hash of every event, so the hash chain (record.h) is
// the same chain. A reader then fetches one row per game instead of ~180,
// which is most of what reading a record costs (docs/performance.md).
//
// The encoding (docs/record_format.md, "Event packs", is the normative
// text for other implementations):
//
//   pack    = version event*          version: one byte, 1
//   event   = kind at_us length payload hash
//   kind    : 1 byte, the EventKind in declaration order: 0 create, 1 deal,
//             2 move, 3 reject, 4 round, 5 forfeit, 6 end, 7 abort
//   at_us   : 8 bytes, little-endian two's complement
//   length  : 4 bytes, little-endian unsigned: the payload's byte count
//   payload : `length` bytes, the JSON text exactly as hashed
//   hash    : 32 bytes, the raw chain hash (events.hash is its hex)
//
// Events appear in seq order and seq is implicit: the i-th event (from 0)
// has seq i. The pack ends exactly after the last event's hash.
//
// Lifetimes: the reader's views point into the pack it was given, which
// must outlive them. Nothing here touches SQLite.

#ifndef CASSINO_RECORDER_EVENT_PACK_H_
#define CASSINO_RECORDER_EVENT_PACK_H_

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "recorder/record.h"
#include "rules/deal.h"

namespace cassino::recorder {

inline constexpr uint8_t kEventPackVersion = 1;

// Appends one event to `pack`, first writing the version byte if `pack` is
// empty. Payloads longer than 4 GiB - 1 bytes cannot be packed (the referee
// never writes one); InvalidArgument.
absl::Status AppendPackedEvent(EventKind kind, int64_t at_us,
                               absl::string_view payload, const Digest& hash,
                               std::string* pack);

// The pack of `events`, which must be numbered 0, 1, ... with hex hashes
// (InvalidArgument naming the event otherwise).
absl::StatusOr<std::string> PackEvents(std::span<const Event> events);

// One event read from a pack; views into the pack.
struct PackedEvent {
  int64_t seq = 0;
  EventKind kind = EventKind::kCreate;
  int64_t at_us = 0;
  absl::string_view payload;
  absl::string_view hash;  // 32 raw bytes
};

// Reads a pack event by event. Next() returns false at the end of the pack
// or at the first defect; status() then tells which (OK at the end,
// DataLoss naming the event's seq and byte offset on a defect).
class EventPackReader {
 public:
  explicit EventPackReader(absl::string_view pack);

  bool Next(PackedEvent* event);
  const absl::Status& status() const { return status_; }

 private:
  absl::string_view pack_;
  size_t offset_ = 0;
  int64_t seq_ = 0;
  absl::Status status_;
};

// Every event of a pack as record events (hex hashes); DataLoss as the
// reader reports it.
absl::StatusOr<std::vector<Event>> UnpackEvents(absl::string_view pack);

}  // namespace cassino::recorder

#endif  // CASSINO_RECORDER_EVENT_PACK_H_
