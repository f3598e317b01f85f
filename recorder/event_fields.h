// The payload of any event, read into the fields of its kind: for readers
// that walk a game's events in order (`cassino replay`, the web viewer)
// and keep one set of buffers for the whole walk. The formats and readers
// are payload.h's.
//
// Lifetimes: a value; Read reuses the members' buffers.

#ifndef CASSINO_RECORDER_EVENT_FIELDS_H_
#define CASSINO_RECORDER_EVENT_FIELDS_H_

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "recorder/payload.h"
#include "recorder/record.h"

namespace cassino::recorder {

struct EventFields {
  DealFields deal;
  MoveFields move;
  RejectFields reject;
  RoundFields round;
  ForfeitFields forfeit;
  EndFields end;
  AbortFields abort;

  // Reads `payload` into the member of `kind` with that kind's reader
  // (`create` reads nothing here: ParseCreatePayload fills a header).
  absl::Status Read(EventKind kind, absl::string_view payload);
};

}  // namespace cassino::recorder

#endif  // CASSINO_RECORDER_EVENT_FIELDS_H_
