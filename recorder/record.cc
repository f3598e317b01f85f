#include "recorder/record.h"

#include "absl/strings/str_cat.h"

namespace cassino::recorder {

absl::string_view EventKindName(EventKind kind) {
  switch (kind) {
    case EventKind::kCreate:
      return "create";
    case EventKind::kDeal:
      return "deal";
    case EventKind::kMove:
      return "move";
    case EventKind::kReject:
      return "reject";
    case EventKind::kRound:
      return "round";
    case EventKind::kForfeit:
      return "forfeit";
    case EventKind::kEnd:
      return "end";
    case EventKind::kAbort:
      return "abort";
  }
  return "?";
}

absl::StatusOr<EventKind> ParseEventKind(absl::string_view name) {
  // The most frequent kinds first (a game is mostly moves).
  for (EventKind kind :
       {EventKind::kMove, EventKind::kDeal, EventKind::kRound,
        EventKind::kCreate, EventKind::kReject, EventKind::kForfeit,
        EventKind::kEnd, EventKind::kAbort}) {
    if (name == EventKindName(kind)) return kind;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown event kind '", name, "'"));
}

absl::string_view GameStatusName(GameStatus status) {
  switch (status) {
    case GameStatus::kRunning:
      return "running";
    case GameStatus::kFinished:
      return "finished";
    case GameStatus::kAborted:
      return "aborted";
  }
  return "?";
}

absl::StatusOr<GameStatus> ParseGameStatus(absl::string_view name) {
  for (GameStatus status :
       {GameStatus::kRunning, GameStatus::kFinished, GameStatus::kAborted}) {
    if (name == GameStatusName(status)) return status;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown game status '", name, "'"));
}

Digest ChainHash(const Digest& previous, EventKind kind,
                 absl::string_view payload) {
  const absl::string_view name = EventKindName(kind);
  static constexpr uint8_t kZero[1] = {0};
  return Sha256({previous, TextBytes(name), kZero, TextBytes(payload)});
}

}  // namespace cassino::recorder
