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

absl::Status CheckChain(const GameRecord& record) {
  Digest previous{};
  if (!record.header.commitment.empty()) {
    absl::StatusOr<Seed> commitment = ParseSeed(record.header.commitment);
    if (!commitment.ok()) {
      return absl::DataLossError("the seed commitment is not 64 hex digits");
    }
    previous = *commitment;
  }
  for (size_t i = 0; i < record.events.size(); ++i) {
    const Event& e = record.events[i];
    if (e.seq != static_cast<int64_t>(i)) {
      return absl::DataLossError(absl::StrCat("event ", i, " has seq ", e.seq));
    }
    previous = ChainHash(previous, e.kind, e.payload);
    if (ToHex(previous) != e.hash) {
      return absl::DataLossError(
          absl::StrCat("event ", e.seq, " (", EventKindName(e.kind),
                       "): its stored hash is not the chain's"));
    }
  }
  return absl::OkStatus();
}

}  // namespace cassino::recorder
