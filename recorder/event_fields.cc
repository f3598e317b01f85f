#include "recorder/event_fields.h"

namespace cassino::recorder {

absl::Status EventFields::Read(EventKind kind, absl::string_view payload) {
  switch (kind) {
    case EventKind::kCreate:
      return absl::OkStatus();
    case EventKind::kDeal:
      return ParseDealPayload(payload, &deal);
    case EventKind::kMove:
      return ParseMovePayload(payload, &move);
    case EventKind::kReject:
      return ParseRejectPayload(payload, &reject);
    case EventKind::kRound:
      return ParseRoundPayload(payload, &round);
    case EventKind::kForfeit:
      return ParseForfeitPayload(payload, &forfeit);
    case EventKind::kEnd:
      return ParseEndPayload(payload, &end);
    case EventKind::kAbort:
      return ParseAbortPayload(payload, &abort);
  }
  return absl::OkStatus();
}

}  // namespace cassino::recorder
