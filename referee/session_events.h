// What a game session tells the outside world, in the engine's own terms:
// the events a seat's Play stream and a spectator's stream are sent, the
// verdict on a submission, and a seat's situation (GetTurn). The session
// (the core) builds them; the gRPC edge (session_messages.h) renders them
// as cassino.v1 messages. Every event is built from what the receiver may
// see: a seat's events from its Observation (rules/observation.h), public
// events from public facts only, so rendering can add nothing secret.
//
// An event sent to many streams (a move played, a deal) is built once and
// shared (shared_ptr<const ...>); its `rendered` slot lets the edge keep
// its rendering of it, so that it too is made once, not once per stream.

#ifndef CASSINO_REFEREE_SESSION_EVENTS_H_
#define CASSINO_REFEREE_SESSION_EVENTS_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "recorder/record.h"
#include "recorder/recorder.h"
#include "rules/game.h"
#include "rules/observation.h"
#include "rules/submission.h"

namespace cassino::service {

// A slot where a renderer keeps what it made of a shared value (the edge:
// its cassino.v1 message), made by the first stream that needs it.
class RenderSlot {
 public:
  RenderSlot() = default;
  RenderSlot(const RenderSlot&) {}  // a copy is rendered afresh
  RenderSlot& operator=(const RenderSlot&) { return *this; }

  // The value kept, made by `make` the first time. Every caller must ask
  // for the same type T.
  template <typename T, typename Make>
  std::shared_ptr<const T> Get(Make make) const {
    absl::MutexLock lock(&mu_);
    if (!value_) value_ = make();
    return std::static_pointer_cast<const T>(value_);
  }

 private:
  mutable absl::Mutex mu_;
  mutable std::shared_ptr<const void> value_ ABSL_GUARDED_BY(mu_);
};

// The game's static facts as `seat` (-1: a spectator) is told them.
struct GameStartedEvent {
  std::string game_id;
  int seat = -1;
  std::string rules;
  std::vector<std::string> bots;  // per seat
  std::string seed_commitment;
  recorder::TimeControl clock;
  std::string label;
};

// A deal was made: the table, the stock left, and on a round's first deal
// what was taken from the table (initial_pairs).
struct DealEvent {
  int round = 0;
  int deal = 0;
  Table table;
  int stock_size = 0;
  std::optional<InitialCapture> initial_capture;
};

// A move was played, as `viewer` may see it (-1: public; the mover's own
// copy names the card it drew, draw=on).
struct MovePlayedEvent {
  PlayedMove move;
  int viewer = -1;
};

struct RoundEndedEvent {
  RoundResult result;
};

// The game ended; `seed` only once it may be revealed.
struct GameEndedEvent {
  std::optional<GameResult> result;
  std::string seed;
};

// What a seat's Play stream is sent of the moves (docs/referee.md, *Play
// modes*): kFull sends every move played to every seat as it happens;
// kCompact sends none, the verdict naming the mover's own and each
// YourTurn carrying those played since the seat's previous one.
enum class PlayMode { kFull, kCompact };

// The seat to move is asked for its move.
struct YourTurnEvent {
  int turn = 0;
  Observation observation;
  // observation.rules.ToString(), made once for the game's turns (null:
  // made when rendered).
  std::shared_ptr<const std::string> rules_text;
  std::vector<Move> legal_moves;  // in canonical notation order
  // legal_notations[i] is legal_moves[i].ToString(), made once (always as
  // many as legal_moves: GameSession::YourTurn fills both).
  std::vector<std::string> legal_notations;
  int64_t time_left_ms = 0;
  int64_t bank_left_ms = 0;
  int64_t deadline_unix_ms = 0;
  int illegal_left = 0;
  // kCompact streams: the moves played since the seat's previous YourTurn
  // on the stream, as it may see them (its own drawn card included).
  std::vector<PlayedMove> since_last;
  // kCompact streams after their first YourTurn: observation.history was
  // left out (the seat keeps it from since_last).
  bool round_history_omitted = false;
};

// The answer to a submission.
struct Verdict {
  int turn = 0;
  bool accepted = false;
  // The move as played (accepted), else as submitted.
  std::variant<Move, Submission> move;
  std::string reason;  // empty when accepted
  absl::StatusCode code = absl::StatusCode::kOk;
  int illegal_left = 0;
  std::string drawn;         // draw=on: the card the mover drew, to it only
  std::string error_reason;  // ReasonName; empty when accepted
  int next_to_move = -1;     // -1 once the game is over
  recorder::GameStatus status = recorder::GameStatus::kRunning;
};

// A seat's situation (GetTurn).
struct TurnView {
  recorder::GameStatus status = recorder::GameStatus::kRunning;
  std::optional<YourTurnEvent> your_turn;  // when it is the seat's turn
  Observation observation;
  std::optional<GameEndedEvent> ended;  // once the game is over
  GameStartedEvent game;
};

// One thing a seat's Play stream is sent.
struct SeatEvent {
  using Variant =
      std::variant<GameStartedEvent, YourTurnEvent, Verdict, MovePlayedEvent,
                   RoundEndedEvent, GameEndedEvent>;
  template <typename E>
  requires std::is_constructible_v<Variant, E&&> SeatEvent(E&& e)
      : event(std::forward<E>(e)) {}  // NOLINT: implicit

  Variant event;
  RenderSlot rendered;
};

// One thing a spectator is sent: the live events, or once the game has
// ended and its seed may be shown, each event of its record.
struct PublicEvent {
  using Variant =
      std::variant<GameStartedEvent, DealEvent, MovePlayedEvent,
                   RoundEndedEvent, GameEndedEvent, recorder::Event>;
  template <typename E>
  requires std::is_constructible_v<Variant, E&&> PublicEvent(E&& e)
      : event(std::forward<E>(e)) {}  // NOLINT: implicit

  Variant event;
  RenderSlot rendered;
};

// The public event of the deal just made in `game`.
DealEvent DealOf(const Game& game);

// The turn of the seat to move in `game`, as its stream is told it, less
// the clock fields (time_left_ms, bank_left_ms, deadline_unix_ms,
// illegal_left: the session's) and since_last (the stream's): the
// observation with `history`'s scope, `rules_text` (which must be
// game.rules().ToString(), or null), and the legal moves in notation order.
YourTurnEvent TurnOf(const Game& game, HistoryScope history,
                     std::shared_ptr<const std::string> rules_text);

// The public events of a game from its first deal on, as the live game
// published them (each deal, each move played as the public sees it, each
// round's result, in order; not the GameStarted before them nor the
// GameEnded after), built while its record is replayed, so that a resumed
// game's spectators see what the live ones saw without a second replay.
// Observe is given every replayed event with the state it left, in order,
// the record's `create` first (recorder::ReplayObserver).
class PublicHistoryBuilder {
 public:
  void Observe(const recorder::Event& event, const Game& state);
  std::vector<PublicEvent> Take() { return std::move(events_); }

 private:
  bool started_ = false;
  size_t rounds_ = 0;  // rounds scored so far
  int round_ = 0;
  int deal_ = 0;
  std::vector<PublicEvent> events_;
};

}  // namespace cassino::service

#endif  // CASSINO_REFEREE_SESSION_EVENTS_H_
