#include "referee/game_session.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "recorder/submission_text.h"
#include "referee/errors.h"
#include "referee/wall_clock.h"
#include "rules/observation.h"

namespace cassino::service {
namespace {

recorder::GameStatus RecordStatusOf(const Game& game) {
  if (!game.over()) return recorder::GameStatus::kRunning;
  return game.result()->reason == GameEndReason::kAborted
             ? recorder::GameStatus::kAborted
             : recorder::GameStatus::kFinished;
}

using recorder::EventKind;

int NextToMove(const Game& game) { return game.over() ? -1 : game.to_move(); }

int64_t MillisBetween(GameSession::SteadyClock::time_point from,
                      GameSession::SteadyClock::time_point to) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(to - from)
      .count();
}

// The verdict on a submission whose record write failed: not accepted
// (UNAVAILABLE, RECORD_UNAVAILABLE), the game still running with `to_move`
// to move; it names nothing the move would have revealed (no card drawn).
Verdict Unrecorded(Verdict v, const absl::Status& why, int to_move) {
  v.accepted = false;
  v.reason = absl::StrCat("not recorded, so not played: ", why.message());
  v.code = absl::StatusCode::kUnavailable;
  v.error_reason = std::string(ReasonName(Reason::kRecordUnavailable));
  v.drawn.clear();
  v.next_to_move = to_move;
  v.status = recorder::GameStatus::kRunning;
  return v;
}

// Flushes a stream, if any, when it goes out of scope.
struct FlushOnReturn {
  GameSession::PlayChannel* channel;
  ~FlushOnReturn() {
    if (channel) channel->Flush();
  }
};

}  // namespace

GameSession::GameSession(SessionDeps deps, recorder::GameHeader header,
                         Game game)
    : deps_(deps), header_(std::move(header)), game_(std::move(game)) {
  const int n = players();
  bank_left_ms_.assign(n, header_.clock.bank_ms);
  illegal_.assign(n, 0);
  seat_channels_.resize(n);
  seat_modes_.assign(n, PlayMode::kFull);
  told_moves_.assign(n, 0);
  told_round_history_.assign(n, false);
  seat_limits_.assign(n, TokenBucket(deps_.seat_rate));
  turn_waiters_.resize(n);
  shown_up_.assign(n, false);
  turn_started_ = deps_.timer->Now();
  if (deps_.seeds != nullptr && !game_.over()) {
    deps_.seeds->Hold(header_.seed, header_.game_id);
  }
}

std::shared_ptr<GameSession> GameSession::Create(SessionDeps deps,
                                                 recorder::GameHeader header,
                                                 Game game,
                                                 CreatedCallback done) {
  std::shared_ptr<GameSession> s(
      new GameSession(deps, std::move(header), std::move(game)));
  absl::MutexLock lock(&s->mu_);
  s->LogPublic({s->GameStarted(-1)});
  s->LogPublic({DealOf(s->game_)});
  // The recorder runs callbacks in order: the header's before the deal's.
  // A header it refuses (e.g. a tournament's label) fails the deal too, with
  // a vaguer reason; `done` gets the header's.
  auto created = std::make_shared<absl::Status>();
  deps.recorder->CreateGame(s->header_,
                            [created](absl::Status st) { *created = st; });
  s->RecordThenPublish(
      {{EventKind::kDeal,
        recorder::DealPayload(s->game_.round(), s->game_.deck())}},
      [session = s.get(), created,
       done = std::move(done)](const absl::Status& status) {
        // RecordThenPublish keeps the session alive until this has run.
        done(created->ok() ? status : *created, session->shared_from_this());
      });
  return s;
}

absl::StatusOr<std::shared_ptr<GameSession>> GameSession::Resume(
    SessionDeps deps, const recorder::GameRecord& record) {
  // A stored hash changed by hand would otherwise go unnoticed until verify.
  if (absl::Status s = recorder::CheckChain(record); !s.ok()) return s;
  // One replay: the engine state, and the public log as it was published.
  PublicHistoryBuilder history;
  absl::StatusOr<recorder::ReplayedGame> replayed = recorder::Replay(
      record,
      [&history](const recorder::Event& e, const recorder::ReplayedGame& st) {
        history.Observe(e, st.game);
      });
  if (!replayed.ok()) return replayed.status();
  std::shared_ptr<GameSession> s(
      new GameSession(deps, record.header, std::move(replayed->game)));
  absl::MutexLock lock(&s->mu_);
  s->RestoreLocked(record, *replayed, history.Take());
  return s;
}

void GameSession::RestoreLocked(const recorder::GameRecord& record,
                                const recorder::ReplayedGame& replayed,
                                std::vector<PublicEvent> history) {
  const Game& g = game_;
  // A seat that submitted anything (a move or a refused submission) had
  // its bot connected; the others have not shown up yet, as far as the
  // record tells.
  for (const PlayedMove& m : g.history()) shown_up_[m.seat] = true;
  for (int seat = 0; seat < players(); ++seat) {
    if (replayed.illegal_count[seat] > 0) shown_up_[seat] = true;
  }

  // The public log as it was, so that spectators see the whole game.
  LogPublic({GameStarted(-1)});
  // The deals, moves and round results as the live game published them.
  for (PublicEvent& e : history) LogPublic(std::move(e));
  if (g.over()) LogPublic({GameEnded()});
  ContinueFromRecordLocked(record, replayed);
}

void GameSession::ContinueFromRecordLocked(
    const recorder::GameRecord& record,
    const recorder::ReplayedGame& replayed) {
  bank_left_ms_ = replayed.bank_left_ms;
  illegal_ = replayed.illegal_count;
  const Game& g = game_;
  durable_turns_ = g.turn();
  ClearDeadlineLocked();
  // A move and what it caused (a round's result, the next deal, the end)
  // commit together, but a game's creation and its first deal are two
  // writes, so a crash between them leaves the deal out: write whatever the
  // engine says is missing.
  int deals = 0, rounds = 0;
  bool ended = false;
  for (const recorder::Event& e : record.events) {
    deals += e.kind == EventKind::kDeal;
    rounds += e.kind == EventKind::kRound;
    ended |= e.kind == EventKind::kEnd || e.kind == EventKind::kAbort;
  }
  std::vector<PendingEvent> missing;
  for (size_t r = rounds; r < g.rounds().size(); ++r) {
    missing.push_back(
        {EventKind::kRound, recorder::RoundPayload(g.rounds()[r])});
  }
  if (!g.over() && deals < g.round()) {
    missing.push_back(
        {EventKind::kDeal, recorder::DealPayload(g.round(), g.deck())});
  }
  if (g.over() && !ended) {
    missing.push_back(
        {EventKind::kEnd, recorder::EndPayload(*g.result(), RevealableSeed())});
  }
  if (!missing.empty()) {
    RecordThenPublish(std::move(missing), [](const absl::Status&) {});
  } else {
    StartTurnOrFinish();
  }
}

void GameSession::RecordThenPublish(
    std::vector<PendingEvent> events,
    std::function<void(const absl::Status&)> publish) {
  ++pending_;
  const int turns_after = game_.turn();
  const int64_t now_us = UnixMicros();
  std::vector<recorder::Recorder::NewEvent> batch;
  batch.reserve(events.size());
  for (PendingEvent& e : events) {
    // (Every payload here comes from recorder/payload.h's builders.)
    batch.push_back({e.kind, now_us, std::move(e.payload), /*built=*/true});
  }
  // One write: the events commit together or not at all.
  deps_.recorder->Append(
      header_.game_id, std::move(batch),
      [self = shared_from_this(), turns_after,
       publish = std::move(publish)](absl::Status status) {
        absl::MutexLock lock(&self->mu_);
        --self->pending_;
        if (status.ok()) {
          self->durable_turns_ = std::max(self->durable_turns_, turns_after);
        }
        publish(status);
        if (!status.ok()) self->BreakLocked(status);
        auto& waiters = self->durable_waiters_;
        for (auto it = waiters.begin(); it != waiters.end();) {
          if (it->first < self->durable_turns_) {
            it->second(absl::OkStatus());
            it = waiters.erase(it);
          } else {
            ++it;
          }
        }
        if (status.ok() && !self->broken_) self->StartTurnOrFinish();
        self->FlushAll();
      });
}

void GameSession::BreakLocked(const absl::Status& status) {
  const bool first = !broken_.has_value();
  if (first) broken_ = std::string(status.message());
  ClearDeadlineLocked();  // no clock runs while the game cannot be recorded
  // Resubmissions waiting for a commit that failed: it will not come.
  for (auto& [turn, ack] : durable_waiters_) ack(status);
  durable_waiters_.clear();
  for (int seat = 0; seat < players(); ++seat) {
    for (TurnWaiter& w : turn_waiters_[seat]) {
      w.reply(Error(absl::StatusCode::kUnavailable, Reason::kRecordUnavailable,
                    "the game's record could not be written: " + *broken_),
              TurnView());
    }
    turn_waiters_[seat].clear();
  }
  if (first && deps_.on_broken) deps_.on_broken(header_.game_id);
}

bool GameSession::broken() const {
  absl::MutexLock lock(&mu_);
  return broken_.has_value();
}

absl::Status GameSession::Recover(const recorder::GameRecord& record) {
  absl::MutexLock lock(&mu_);
  if (!broken_) return absl::OkStatus();
  if (pending_ > 0) {
    return absl::UnavailableError("a record write of the game is pending");
  }
  absl::StatusOr<recorder::ReplayedGame> replayed = recorder::Replay(record);
  if (!replayed.ok()) return replayed.status();
  game_ = std::move(replayed->game);
  broken_.reset();
  timed_out_.reset();
  // The public log and the spectators saw only what was committed, so they
  // need nothing; the seats are sent the turn in force again.
  ContinueFromRecordLocked(record, *replayed);
  FlushAll();
  return absl::OkStatus();
}

void GameSession::AppendConsequences(size_t rounds_before, int round_before,
                                     std::vector<PendingEvent>* events,
                                     std::vector<PublicEvent>* public_events) {
  std::vector<PendingEvent> record = recorder::ConsequenceEvents(
      game_, rounds_before, round_before, RevealableSeed());
  events->insert(events->end(), std::make_move_iterator(record.begin()),
                 std::make_move_iterator(record.end()));
  // What the seats and spectators see of them: each round's result and the
  // end (a deal reaches each seat as its own hand).
  for (size_t r = rounds_before; r < game_.rounds().size(); ++r) {
    public_events->push_back({RoundEndedEvent{game_.rounds()[r]}});
  }
  if (game_.over()) public_events->push_back({GameEnded()});
}

void GameSession::Broadcast(std::vector<PublicEvent> events,
                            const PlayedMove* mover_view) {
  for (PublicEvent& e : events) {
    // What the seats are sent of it: a move played, a round's result, the
    // end (a deal reaches each seat as its own hand, in YourTurn).
    std::shared_ptr<const SeatEvent> for_seats, for_mover;
    if (const auto* played = std::get_if<MovePlayedEvent>(&e.event)) {
      for_seats = std::make_shared<const SeatEvent>(SeatEvent{*played});
      if (mover_view != nullptr && mover_view->turn == played->move.turn) {
        for_mover = std::make_shared<const SeatEvent>(
            SeatEvent{MovePlayedEvent{*mover_view, mover_view->seat}});
      }
    } else if (const auto* round = std::get_if<RoundEndedEvent>(&e.event)) {
      for_seats = std::make_shared<const SeatEvent>(SeatEvent{*round});
    } else if (const auto* ended = std::get_if<GameEndedEvent>(&e.event)) {
      for_seats = std::make_shared<const SeatEvent>(SeatEvent{*ended});
    }
    if (for_seats) {
      const bool a_move = std::holds_alternative<MovePlayedEvent>(e.event);
      for (size_t seat = 0; seat < seat_channels_.size(); ++seat) {
        const auto& ch = seat_channels_[seat];
        if (!ch) continue;
        // (A compact stream learns of moves from its verdicts and turns.)
        if (a_move && seat_modes_[seat] == PlayMode::kCompact) continue;
        ch->Send(for_mover && static_cast<int>(seat) == mover_view->seat
                     ? for_mover
                     : for_seats);
      }
    }
    auto shared = std::make_shared<const PublicEvent>(std::move(e));
    for (const auto& w : watchers_) w->Send(shared);
    public_log_.push_back(std::move(shared));
  }
}

void GameSession::LogPublic(PublicEvent event) {
  public_log_.push_back(std::make_shared<const PublicEvent>(std::move(event)));
}

void GameSession::StartTurnOrFinish() {
  if (pending_ > 0) return;
  if (game_.over()) {
    if (end_published_) return;
    end_published_ = true;
    if (deps_.seeds != nullptr) {
      deps_.seeds->Release(header_.seed, header_.game_id);
    }
    if (deps_.on_finished) deps_.on_finished(header_.game_id);
    for (auto& ch : seat_channels_) {
      if (ch) ch->Close(absl::OkStatus());
      ch.reset();
    }
    for (int seat = 0; seat < players(); ++seat) {
      for (TurnWaiter& w : turn_waiters_[seat]) {
        w.reply(absl::OkStatus(), TurnResponse(seat));
      }
      turn_waiters_[seat].clear();
    }
    SendFinalRecord(std::move(watchers_));
    watchers_.clear();
    return;
  }
  if (deadline_.has_value()) return;  // this turn's clock already runs
  const SteadyClock::time_point now = deps_.timer->Now();
  turn_started_ = now;
  const int seat = game_.to_move();
  const SteadyClock::time_point deadline =
      now +
      std::chrono::milliseconds(header_.clock.per_move_ms +
                                std::max<int64_t>(0, bank_left_ms_[seat]));
  deadline_ = deadline;
  deadline_unix_ms_ = UnixMicros() / 1000 + MillisBetween(now, deadline);
  std::weak_ptr<GameSession> weak = weak_from_this();
  const int turn = game_.turn();
  deadline_timer_ = deps_.timer->Schedule(deadline, [weak, turn, deadline] {
    if (std::shared_ptr<GameSession> s = weak.lock()) {
      s->OnDeadline(turn, deadline);
    }
  });
  if (seat_channels_[seat]) {
    seat_channels_[seat]->Send(std::make_shared<const SeatEvent>(StreamTurn()));
  }
  for (TurnWaiter& w : turn_waiters_[seat]) {
    w.reply(absl::OkStatus(), TurnResponse(seat));
  }
  turn_waiters_[seat].clear();
}

void GameSession::SendFinalRecord(
    std::vector<std::shared_ptr<WatchChannel>> channels) {
  if (channels.empty()) return;
  if (RevealableSeed().empty()) {
    for (const auto& c : channels) c->Close(absl::OkStatus());
    return;
  }
  auto send = [](const std::vector<std::shared_ptr<const PublicEvent>>& record,
                 const std::vector<std::shared_ptr<WatchChannel>>& to) {
    for (const auto& c : to) {
      for (const auto& e : record) c->Send(e);
      c->Close(absl::OkStatus());
    }
  };
  if (final_record_) {
    send(*final_record_, channels);
    return;
  }
  // Read once, off the lock; the spectators wait for it.
  auto read = [self = shared_from_this(), channels, send] {
    absl::StatusOr<recorder::GameRecord> record =
        self->deps_.recorder->Load(self->header_.game_id);
    absl::MutexLock lock(&self->mu_);
    if (!record.ok()) {
      for (const auto& c : channels) {
        c->Close(Error(absl::StatusCode::kInternal, Reason::kRecordUnavailable,
                       record.status().message()));
      }
      return;
    }
    if (!self->final_record_) {
      auto events =
          std::make_shared<std::vector<std::shared_ptr<const PublicEvent>>>();
      events->reserve(record->events.size());
      for (const recorder::Event& e : record->events) {
        events->push_back(std::make_shared<const PublicEvent>(PublicEvent{e}));
      }
      self->final_record_ = std::move(events);
    }
    send(*self->final_record_, channels);
  };
  if (deps_.reads == nullptr || !deps_.reads->Post(read)) {
    for (const auto& c : channels) {
      c->Close(Error(absl::StatusCode::kUnavailable, Reason::kRecordUnavailable,
                     "the game's record cannot be read now; watch it "
                     "again in a moment"));
    }
  }
}

void GameSession::FlushAll(PlayChannel* extra) {
  for (const auto& ch : seat_channels_) {
    if (ch) ch->Flush();
  }
  for (const auto& w : watchers_) w->Flush();
  if (extra != nullptr) extra->Flush();
}

void GameSession::ClearDeadlineLocked() {
  if (deadline_timer_) deps_.timer->Cancel(*deadline_timer_);
  deadline_timer_.reset();
  deadline_.reset();
}

void GameSession::OnDeadline(int turn, SteadyClock::time_point deadline) {
  absl::MutexLock lock(&mu_);
  if (game_.over() || game_.turn() != turn || deadline_ != deadline) return;
  const int seat = game_.to_move();
  const int64_t bank = std::max<int64_t>(0, bank_left_ms_[seat]);
  if (std::none_of(shown_up_.begin(), shown_up_.end(),
                   [](bool b) { return b; })) {
    // Nobody was there: no seat is credited or debited (issue #27).
    AbortLocked(absl::StrCat("no seat's bot connected before seat ", seat,
                             "'s clock ran out on turn ", turn),
                nullptr);
    return;
  }
  timed_out_ = std::make_pair(seat, turn);
  ForfeitLocked(
      seat, "time",
      absl::StrCat("seat ", seat, " ran out of time on turn ", turn, " (",
                   header_.clock.per_move_ms, " ms per move",
                   bank > 0 ? absl::StrCat(" and its ", bank, " ms bank") : "",
                   " used up)"),
      [](const absl::Status&) {});
}

void GameSession::ForfeitLocked(int seat, const std::string& reason,
                                const std::string& detail,
                                std::function<void(const absl::Status&)> then) {
  game_.Forfeit(seat, detail);
  forfeit_reason_ = reason;
  ClearDeadlineLocked();
  std::vector<PendingEvent> events;
  events.push_back(
      {EventKind::kForfeit, recorder::ForfeitPayload(seat, reason, detail)});
  std::vector<PublicEvent> public_events;
  AppendConsequences(game_.rounds().size(), game_.round(), &events,
                     &public_events);
  RecordThenPublish(
      std::move(events),
      [this, then = std::move(then), public_events = std::move(public_events)](
          const absl::Status& status) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
        then(status);
        if (status.ok()) Broadcast(public_events);
      });
}

void GameSession::Submit(int seat, int turn, const Submission& submitted,
                         SubmitReply reply,
                         std::shared_ptr<PlayChannel> origin) {
  absl::MutexLock lock(&mu_);
  // What the reply queues on the submitting stream goes out at the end of
  // this call for answers given at once; answers given after a commit are
  // flushed there with everything else the move caused (FlushAll), which
  // reaches the origin as long as it is the seat's current stream.
  FlushOnReturn flush_now{origin.get()};
  shown_up_[seat] = true;
  const SteadyClock::time_point now = deps_.timer->Now();
  // 1. Is this a submission for the turn in play, by its seat, in time?
  if (AnswerOutOfPlay(seat, turn, submitted, now, reply)) return;
  // 2. Adjudicate: decode the move and ask the engine.
  const int64_t elapsed_ms = MillisBetween(turn_started_, now);
  absl::StatusOr<Move> move = Interpret(submitted);
  absl::Status legal = move.ok() ? game_.Validate(*move) : move.status();
  // 3. Record, then publish (from the commit callback).
  if (!legal.ok()) {
    RejectSubmission(seat, turn, submitted, legal, /*malformed=*/!move.ok(),
                     elapsed_ms, std::move(reply));
    return;
  }
  AcceptMove(seat, turn, *move, now, elapsed_ms, std::move(reply));
}

void GameSession::Refuse(int seat, int turn, const Submission& submitted,
                         const absl::Status& error,
                         const SubmitReply& reply) const {
  Verdict v =
      VerdictOf(turn, submitted, error.code(), std::string(error.message()),
                IllegalLeft(seat), NextToMove(game_));
  v.error_reason = ReasonOf(error);
  reply(error, v);
}

Verdict GameSession::VerdictOf(int turn, std::variant<Move, Submission> move,
                               absl::StatusCode code, std::string reason,
                               int illegal_left, int next_to_move) const {
  Verdict v;
  v.turn = turn;
  v.accepted = code == absl::StatusCode::kOk;
  v.move = std::move(move);
  v.reason = std::move(reason);
  v.code = code;
  v.illegal_left = illegal_left;
  v.next_to_move = next_to_move;
  v.status = RecordStatusOf(game_);
  return v;
}

bool GameSession::AnswerOutOfPlay(int seat, int turn,
                                  const Submission& submitted,
                                  SteadyClock::time_point now,
                                  SubmitReply& reply) {
  auto refuse = [&](absl::Status error) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    Refuse(seat, turn, submitted, error, reply);
    return true;
  };
  const std::string current = absl::StrCat(game_.turn());
  if (stopped_) {
    return refuse(Error(absl::StatusCode::kUnavailable, Reason::kShuttingDown,
                        "the referee is shutting down; submit again to the "
                        "referee that resumes the game"));
  }
  if (broken_) {
    return refuse(Error(absl::StatusCode::kUnavailable,
                        Reason::kRecordUnavailable,
                        "the game's record could not be written: " + *broken_));
  }
  if (turn < 0) {
    return refuse(Error(absl::StatusCode::kFailedPrecondition,
                        Reason::kWrongTurn,
                        absl::StrCat("turn ", turn, " is not a turn"),
                        {{"current_turn", current}}));
  }
  if (turn < game_.turn()) {
    AnswerResubmission(seat, turn, submitted, std::move(reply));
    return true;
  }
  if (game_.over()) {
    if (timed_out_ == std::make_pair(seat, turn)) {
      return refuse(Error(absl::StatusCode::kFailedPrecondition,
                          Reason::kTimeExpired,
                          "your time ran out; you forfeited the game"));
    }
    return refuse(Error(absl::StatusCode::kFailedPrecondition,
                        Reason::kGameOver, "the game is over"));
  }
  if (turn > game_.turn()) {
    return refuse(Error(
        absl::StatusCode::kFailedPrecondition, Reason::kWrongTurn,
        absl::StrCat("turn ", turn, " has not begun; the current turn is ",
                     game_.turn()),
        {{"current_turn", current}}));
  }
  if (game_.to_move() != seat) {
    return refuse(Error(absl::StatusCode::kFailedPrecondition,
                        Reason::kNotYourTurn,
                        absl::StrCat("it is not your turn: seat ",
                                     game_.to_move(), " is to move"),
                        {{"to_move", absl::StrCat(game_.to_move())}}));
  }
  if (deadline_.has_value() && now >= *deadline_) {
    // The timer has not fired yet, but the time is up all the same.
    timed_out_ = std::make_pair(seat, turn);
    ForfeitLocked(seat, "time",
                  absl::StrCat("seat ", seat, " ran out of time on turn ", turn,
                               " (the move came after ",
                               MillisBetween(turn_started_, now), " ms)"),
                  [](const absl::Status&) {});
    return refuse(Error(absl::StatusCode::kFailedPrecondition,
                        Reason::kTimeExpired,
                        "your time ran out; you forfeit the game"));
  }
  return false;
}

void GameSession::AnswerResubmission(int seat, int turn,
                                     const Submission& submitted,
                                     SubmitReply reply) {
  // The same move again gets the same verdict, once it is on disk.
  const PlayedMove& played = game_.history()[turn];
  absl::StatusOr<Move> move = Interpret(submitted);
  if (move.ok() && played.seat == seat && played.move == *move) {
    Verdict r = VerdictOf(
        turn, played.move, absl::StatusCode::kOk, "", IllegalLeft(seat),
        turn + 1 < game_.turn() ? game_.history()[turn + 1].seat
                                : NextToMove(game_));
    if (played.drawn.valid() && SeesDrawnCard(played, seat)) {
      r.drawn = played.drawn.ToString();
    }
    auto ack = [reply = std::move(reply), r, seat](const absl::Status& status) {
      if (status.ok()) {
        reply(absl::OkStatus(), r);
      } else {
        reply(Error(absl::StatusCode::kUnavailable, Reason::kRecordUnavailable,
                    absl::StrCat("the move could not be recorded: ",
                                 status.message())),
              Unrecorded(r, status, seat));
      }
    };
    if (turn < durable_turns_) {
      ack(absl::OkStatus());
    } else {
      durable_waiters_.emplace_back(turn, std::move(ack));
    }
    return;
  }
  Refuse(seat, turn, submitted,
         Error(absl::StatusCode::kAborted, Reason::kTurnAlreadyPlayed,
               absl::StrCat("turn ", turn, " was already played: seat ",
                            played.seat, " played ", played.move.ToString()),
               {{"current_turn", absl::StrCat(game_.turn())}}),
         reply);
}

void GameSession::RejectSubmission(int seat, int turn,
                                   const Submission& submitted,
                                   const absl::Status& why, bool malformed,
                                   int64_t elapsed_ms, SubmitReply reply) {
  ++illegal_[seat];
  const int left = IllegalLeft(seat);
  std::string reason(why.message());
  std::vector<PendingEvent> events;
  events.push_back(
      {EventKind::kReject,
       recorder::RejectPayload(turn, seat, recorder::SubmissionText(submitted),
                               reason, elapsed_ms)});
  std::vector<PublicEvent> public_events;
  if (left == 0) {
    const std::string detail = absl::StrCat(
        "seat ", seat, " made ", illegal_[seat], " illegal submissions");
    game_.Forfeit(seat, detail);
    ClearDeadlineLocked();
    events.push_back({EventKind::kForfeit,
                      recorder::ForfeitPayload(seat, "illegal", detail)});
    AppendConsequences(game_.rounds().size(), game_.round(), &events,
                       &public_events);
    absl::StrAppend(&reason,
                    "; that was your last allowed illegal "
                    "submission: you forfeit the game");
  } else {
    absl::StrAppend(&reason, " (", left, " illegal submission",
                    left == 1 ? "" : "s", " left before forfeit)");
  }
  Verdict r = VerdictOf(turn, submitted, absl::StatusCode::kInvalidArgument,
                        reason, left, NextToMove(game_));
  const Reason kind = malformed ? Reason::kMalformedMove : Reason::kIllegalMove;
  r.error_reason = std::string(ReasonName(kind));
  const std::string left_text = absl::StrCat(left);
  absl::Status error =
      left == 0 ? Error(absl::StatusCode::kInvalidArgument, kind, reason,
                        {{"illegal_submissions_left", left_text},
                         {"forfeited", "true"}})
                : Error(absl::StatusCode::kInvalidArgument, kind, reason,
                        {{"illegal_submissions_left", left_text}});
  if (malformed) {
    error = BadField(error, SubmissionErrorField(why), why.message());
  }
  RecordThenPublish(
      std::move(events),
      [this, reply = std::move(reply), r, status = error,
       public_events = std::move(public_events)](const absl::Status& st)
          ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
            if (!st.ok()) {
              reply(Error(absl::StatusCode::kUnavailable,
                          Reason::kRecordUnavailable,
                          absl::StrCat("the submission could not be "
                                       "recorded: ",
                                       st.message())),
                    Unrecorded(r, st, r.next_to_move));
              return;
            }
            reply(status, r);
            Broadcast(public_events);
          });
}

void GameSession::AcceptMove(int seat, int turn, const Move& move,
                             SteadyClock::time_point now, int64_t elapsed_ms,
                             SubmitReply reply) {
  // Charge the time beyond the free allowance to the bank.
  const int64_t over = elapsed_ms - header_.clock.per_move_ms;
  if (over > 0) bank_left_ms_[seat] -= over;
  const size_t rounds_before = game_.rounds().size();
  const int round_before = game_.round();
  game_.PlayUnchecked(move);
  ClearDeadlineLocked();
  turn_started_ = now;
  const PlayedMove& played = game_.history().back();

  std::vector<PendingEvent> events;
  events.push_back(
      {EventKind::kMove, recorder::MovePayload(played, elapsed_ms)});
  std::vector<PublicEvent> public_events;
  public_events.push_back({MovePlayedEvent{played, /*viewer=*/-1}});
  // draw=on: the mover's own copy names the card it drew.
  std::optional<PlayedMove> mover_view;
  if (played.drawn.valid()) mover_view = played;
  AppendConsequences(rounds_before, round_before, &events, &public_events);
  // A new deal (or round) after the move: its table, for spectators.
  if (!game_.over() &&
      (game_.round() != round_before || game_.deal() != played.deal)) {
    public_events.push_back({DealOf(game_)});
  }

  Verdict r = VerdictOf(turn, played.move, absl::StatusCode::kOk, "",
                        IllegalLeft(seat), NextToMove(game_));
  if (played.drawn.valid() && SeesDrawnCard(played, seat)) {
    r.drawn = played.drawn.ToString();
  }
  RecordThenPublish(
      std::move(events),
      [this, reply = std::move(reply), r, seat,
       public_events = std::move(public_events),
       mover_view = std::move(mover_view)](const absl::Status& st)
          ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
            if (!st.ok()) {
              // Never acknowledged: the verdict says the move was not
              // played, and names no card drawn.
              reply(Error(absl::StatusCode::kUnavailable,
                          Reason::kRecordUnavailable,
                          absl::StrCat("the move could not be recorded: ",
                                       st.message())),
                    Unrecorded(r, st, seat));
              return;
            }
            reply(absl::OkStatus(), r);
            Broadcast(public_events, mover_view ? &*mover_view : nullptr);
          });
}

int GameSession::IllegalLeft(int seat) const {
  return std::max(0, header_.clock.max_illegal - illegal_[seat]);
}

void GameSession::Connect(int seat, std::shared_ptr<PlayChannel> channel,
                          PlayMode mode) {
  absl::MutexLock lock(&mu_);
  if (stopped_) {
    channel->Close(*stopped_);
    return;
  }
  shown_up_[seat] = true;
  if (seat_channels_[seat] && seat_channels_[seat] != channel) {
    seat_channels_[seat]->Close(Error(absl::StatusCode::kAborted,
                                      Reason::kStreamReplaced,
                                      "replaced by a newer connection"));
  }
  seat_modes_[seat] = mode;
  // (What came before is in the observation.)
  told_moves_[seat] = game_.history().size();
  told_round_history_[seat] = false;
  channel->Send(SeatEvent{GameStarted(seat)});
  if (game_.over() && end_published_) {
    channel->Send(SeatEvent{GameEnded()});
    channel->Close(absl::OkStatus());
    seat_channels_[seat].reset();
    return;
  }
  if (MyTurnIsLive(seat)) {
    channel->Send(StreamTurn());
  }
  channel->Flush();
  seat_channels_[seat] = std::move(channel);
}

void GameSession::Disconnect(int seat, const PlayChannel* channel) {
  absl::MutexLock lock(&mu_);
  if (seat_channels_[seat].get() == channel) seat_channels_[seat].reset();
}

void GameSession::CloseSeat(int seat, const absl::Status& status) {
  absl::MutexLock lock(&mu_);
  if (seat < 0 || seat >= players() || !seat_channels_[seat]) return;
  seat_channels_[seat]->Close(status);
  seat_channels_[seat].reset();
}

uint64_t GameSession::GetTurn(int seat, bool wait, TurnReply reply) {
  absl::MutexLock lock(&mu_);
  shown_up_[seat] = true;
  if (stopped_) {
    reply(*stopped_, TurnView());
    return 0;
  }
  if (broken_) {
    reply(Error(absl::StatusCode::kUnavailable, Reason::kRecordUnavailable,
                "the game's record could not be written: " + *broken_),
          TurnView());
    return 0;
  }
  const bool settled = (game_.over() && end_published_) || MyTurnIsLive(seat);
  if (!wait || settled) {
    reply(absl::OkStatus(), TurnResponse(seat));
    return 0;
  }
  if (static_cast<int>(turn_waiters_[seat].size()) >=
      deps_.max_waiters_per_seat) {
    reply(
        Error(absl::StatusCode::kResourceExhausted, Reason::kLimitReached,
              absl::StrCat("this seat already has ", deps_.max_waiters_per_seat,
                           " GetTurn(wait) calls waiting")),
        TurnView());
    return 0;
  }
  const uint64_t id = next_waiter_id_++;
  turn_waiters_[seat].push_back({id, std::move(reply)});
  return id;
}

void GameSession::CancelWait(int seat, uint64_t id) {
  absl::MutexLock lock(&mu_);
  if (seat < 0 || seat >= players()) return;
  std::erase_if(turn_waiters_[seat],
                [id](const TurnWaiter& w) { return w.id == id; });
}

int GameSession::ParkedWaits(int seat) const {
  absl::MutexLock lock(&mu_);
  return static_cast<int>(turn_waiters_[seat].size());
}

bool GameSession::Watch(std::shared_ptr<WatchChannel> channel) {
  absl::MutexLock lock(&mu_);
  if (stopped_) {
    channel->Close(*stopped_);
    return true;
  }
  if (!end_published_ &&
      static_cast<int>(watchers_.size()) >= deps_.max_watchers) {
    return false;
  }
  for (const auto& e : public_log_) channel->Send(e);
  if (end_published_) {
    channel->Flush();
    SendFinalRecord({std::move(channel)});
    return true;
  }
  channel->Flush();
  watchers_.push_back(std::move(channel));
  return true;
}

void GameSession::Stop(const absl::Status& status) {
  absl::MutexLock lock(&mu_);
  if (stopped_) return;
  stopped_ = status;
  ClearDeadlineLocked();
  for (int seat = 0; seat < players(); ++seat) {
    for (TurnWaiter& w : turn_waiters_[seat]) {
      w.reply(status, TurnView());
    }
    turn_waiters_[seat].clear();
    if (seat_channels_[seat]) seat_channels_[seat]->Close(status);
    seat_channels_[seat].reset();
  }
  for (const auto& w : watchers_) w->Close(status);
  watchers_.clear();
}

void GameSession::Unwatch(const WatchChannel* channel) {
  absl::MutexLock lock(&mu_);
  watchers_.erase(
      std::remove_if(watchers_.begin(), watchers_.end(),
                     [channel](const auto& w) { return w.get() == channel; }),
      watchers_.end());
}

absl::Status GameSession::Abort(
    const std::string& reason,
    std::function<void(const absl::Status&, const GameInfo&)> recorded) {
  absl::MutexLock lock(&mu_);
  if (game_.over()) {
    return absl::FailedPreconditionError("the game is already over");
  }
  AbortLocked(reason, std::move(recorded));
  return absl::OkStatus();
}

void GameSession::AbortLocked(
    const std::string& reason,
    std::function<void(const absl::Status&, const GameInfo&)> recorded) {
  game_.Abort(reason);
  ClearDeadlineLocked();
  std::vector<PublicEvent> public_events;
  public_events.push_back({GameEnded()});
  RecordThenPublish({{EventKind::kAbort, recorder::AbortPayload(reason)}},
                    [this, public_events = std::move(public_events),
                     recorded = std::move(recorded)](const absl::Status& st)
                        ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
                          if (st.ok()) {
                            Broadcast(public_events);
                            // The end published (streams closed, the seed no
                            // longer held) before the organiser is answered.
                            StartTurnOrFinish();
                          }
                          if (recorded) recorded(st, InfoLocked());
                        });
}

absl::Status GameSession::Forfeit(
    int seat, const std::string& reason, const std::string& detail,
    std::function<void(const absl::Status&, const GameInfo&)> recorded) {
  absl::MutexLock lock(&mu_);
  if (game_.over()) {
    return absl::FailedPreconditionError("the game is already over");
  }
  if (seat < 0 || seat >= players()) {
    return absl::InvalidArgumentError(
        absl::StrCat("no seat ", seat, ": the game has ", players()));
  }
  ForfeitLocked(seat, reason, detail,
                [this, recorded = std::move(recorded)](const absl::Status& st)
                    ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
                      if (recorded) recorded(st, InfoLocked());
                    });
  return absl::OkStatus();
}

bool GameSession::Admit(int seat) {
  absl::MutexLock lock(&mu_);
  return seat_limits_[seat].Admit();
}

bool GameSession::over() const {
  absl::MutexLock lock(&mu_);
  return game_.over();
}

GameInfo GameSession::Info() const {
  absl::MutexLock lock(&mu_);
  return InfoLocked();
}

GameInfo GameSession::InfoLocked() const {
  GameInfo info;
  info.game_id = header_.game_id;
  info.label = header_.label;
  info.rules = header_.rules;
  for (const recorder::SeatInfo& s : header_.seats) {
    info.bots.push_back(s.bot_name);
    info.accounts.push_back(s.account);
  }
  info.status = RecordStatusOf(game_);
  info.turn = game_.turn();
  info.round = game_.round();
  info.to_move = game_.over() ? -1 : game_.to_move();
  info.totals = game_.totals();
  if (game_.over()) {
    const GameResult& r = *game_.result();
    info.outcome =
        GameOutcome{r.winner, std::string(GameEndReasonName(r.reason)),
                    r.totals, r.forfeiting_seat,
                    r.detail, forfeit_reason_};
    info.seed = RevealableSeed();
  }
  info.seed_commitment = header_.commitment;
  info.created_us = header_.created_us;
  info.clock = header_.clock;
  info.shown_up = shown_up_;
  return info;
}

GameStartedEvent GameSession::GameStarted(int seat) const {
  GameStartedEvent m;
  m.game_id = header_.game_id;
  m.seat = seat;
  m.rules = header_.rules;
  for (const recorder::SeatInfo& s : header_.seats)
    m.bots.push_back(s.bot_name);
  m.seed_commitment = header_.commitment;
  m.clock = header_.clock;
  m.label = header_.label;
  return m;
}

bool GameSession::MyTurnIsLive(int seat) const {
  return !game_.over() && game_.to_move() == seat && deadline_.has_value() &&
         pending_ == 0;
}

int64_t GameSession::TimeLeftMs(SteadyClock::time_point now) const {
  if (!deadline_) return 0;
  return std::max<int64_t>(0, MillisBetween(now, *deadline_));
}

YourTurnEvent GameSession::YourTurn(HistoryScope history) const {
  const int seat = game_.to_move();
  if (!rules_text_) {
    rules_text_ = std::make_shared<const std::string>(game_.rules().ToString());
  }
  YourTurnEvent t = TurnOf(game_, history, rules_text_);
  const SteadyClock::time_point now = deps_.timer->Now();
  t.time_left_ms = TimeLeftMs(now);
  // The bank as it stands now: this turn's time beyond the free per-move
  // allowance is already spent from it.
  const int64_t over = std::max<int64_t>(
      0, MillisBetween(turn_started_, now) - header_.clock.per_move_ms);
  t.bank_left_ms = std::max<int64_t>(0, bank_left_ms_[seat] - over);
  t.deadline_unix_ms = deadline_unix_ms_;
  t.illegal_left = std::max(0, header_.clock.max_illegal - illegal_[seat]);
  return t;
}

SeatEvent GameSession::StreamTurn() {
  const int seat = game_.to_move();
  const bool compact = seat_modes_[seat] == PlayMode::kCompact;
  // A compact stream keeps the round's history from its first YourTurn's
  // and each one's since_last.
  YourTurnEvent t =
      YourTurn(compact && told_round_history_[seat] ? HistoryScope::kNone
                                                    : HistoryScope::kRound);
  told_round_history_[seat] = true;
  if (compact) {
    const std::vector<PlayedMove>& history = game_.history();
    t.since_last.assign(
        history.begin() + std::min(told_moves_[seat], history.size()),
        history.end());
    told_moves_[seat] = history.size();
  }
  return SeatEvent{std::move(t)};
}

GameEndedEvent GameSession::GameEnded() const {
  GameEndedEvent e;
  e.result = game_.result();
  e.seed = RevealableSeed();
  return e;
}

std::string GameSession::RevealableSeed() const {
  if (RecordStatusOf(game_) != recorder::GameStatus::kFinished) return "";
  if (deps_.seeds != nullptr &&
      deps_.seeds->HeldByOthers(header_.seed, header_.game_id)) {
    return "";
  }
  return header_.seed;
}

TurnView GameSession::TurnResponse(int seat) const {
  TurnView r;
  r.status = RecordStatusOf(game_);
  if (MyTurnIsLive(seat)) {
    r.your_turn = YourTurn();
    r.observation = r.your_turn->observation;  // (the same seat's, now)
  } else {
    r.observation = Observe(game_, seat);
  }
  if (game_.over()) r.ended = GameEnded();
  r.game = GameStarted(seat);
  return r;
}

}  // namespace cassino::service
