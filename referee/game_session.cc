#include "referee/game_session.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "google/protobuf/arena.h"
#include "proto/convert.h"
#include "recorder/submission_text.h"
#include "referee/errors.h"
#include "referee/session_messages.h"
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

}  // namespace
namespace {

using convert::FromProto;
using convert::kSpectator;
using convert::ToProto;
using recorder::EventKind;

int64_t MillisBetween(GameSession::SteadyClock::time_point from,
                      GameSession::SteadyClock::time_point to) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(to - from)
      .count();
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
  seat_limits_.assign(n, TokenBucket(deps_.seat_rate));
  turn_waiters_.resize(n);
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
  v1::WatchGameResponse started;
  *started.mutable_game_started() = s->GameStartedMessage(-1);
  s->LogPublic(std::move(started));
  s->LogPublic(DealInfoEvent(s->game_));
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
  absl::StatusOr<recorder::ReplayedGame> replayed = recorder::Replay(record);
  if (!replayed.ok()) return replayed.status();
  std::shared_ptr<GameSession> s(
      new GameSession(deps, record.header, std::move(replayed->game)));
  absl::MutexLock lock(&s->mu_);
  s->RestoreLocked(record, *replayed);
  return s;
}

void GameSession::RestoreLocked(const recorder::GameRecord& record,
                                const recorder::ReplayedGame& replayed) {
  const Game& g = game_;

  // The public log as it was, so that spectators see the whole game.
  v1::WatchGameResponse started;
  *started.mutable_game_started() = GameStartedMessage(-1);
  LogPublic(std::move(started));
  // The deals, moves and round results as the live game published them.
  for (v1::WatchGameResponse& e : PublicHistory(g)) LogPublic(std::move(e));

  if (g.over()) {
    v1::WatchGameResponse e;
    *e.mutable_game_ended() = GameEndedMessage();
    LogPublic(std::move(e));
  }
  ContinueFromRecordLocked(record, replayed);
}

void GameSession::ContinueFromRecordLocked(
    const recorder::GameRecord& record,
    const recorder::ReplayedGame& replayed) {
  bank_left_ms_ = replayed.bank_left_ms;
  illegal_ = replayed.illegal_count;
  const Game& g = game_;
  durable_turns_ = g.turn();
  deadline_.reset();
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
    batch.push_back({e.kind, now_us, std::move(e.payload)});
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
  deadline_.reset();  // no clock runs while the game cannot be recorded
  // Resubmissions waiting for a commit that failed: it will not come.
  for (auto& [turn, ack] : durable_waiters_) ack(status);
  durable_waiters_.clear();
  for (int seat = 0; seat < players(); ++seat) {
    for (TurnWaiter& w : turn_waiters_[seat]) {
      w.reply(Error(absl::StatusCode::kUnavailable, Reason::kRecordUnavailable,
                    "the game's record could not be written: " + *broken_),
              v1::GetTurnResponse());
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

void GameSession::AppendConsequences(
    size_t rounds_before, int round_before, std::vector<PendingEvent>* events,
    std::vector<v1::WatchGameResponse>* public_events) {
  std::vector<PendingEvent> record = recorder::ConsequenceEvents(
      game_, rounds_before, round_before, RevealableSeed());
  events->insert(events->end(), std::make_move_iterator(record.begin()),
                 std::make_move_iterator(record.end()));
  // What the seats and spectators see of them: each round's result and the
  // end (a deal reaches each seat as its own hand).
  for (size_t r = rounds_before; r < game_.rounds().size(); ++r) {
    v1::WatchGameResponse e;
    ToProto(game_.rounds()[r], e.mutable_round_ended());
    public_events->push_back(std::move(e));
  }
  if (game_.over()) {
    v1::WatchGameResponse e;
    *e.mutable_game_ended() = GameEndedMessage();
    public_events->push_back(std::move(e));
  }
}

void GameSession::Broadcast(std::vector<v1::WatchGameResponse> events,
                            const v1::PlayedMove* mover_view) {
  for (v1::WatchGameResponse& e : events) {
    auto p = std::make_shared<v1::PlayResponse>();
    std::shared_ptr<const v1::PlayResponse> mover_copy;
    switch (e.event_case()) {
      case v1::WatchGameResponse::kMovePlayed:
        *p->mutable_move_played() = e.move_played();
        if (mover_view != nullptr &&
            mover_view->turn() == e.move_played().turn()) {
          auto copy = std::make_shared<v1::PlayResponse>();
          *copy->mutable_move_played() = *mover_view;
          mover_copy = std::move(copy);
        }
        break;
      case v1::WatchGameResponse::kRoundEnded:
        *p->mutable_round_ended() = e.round_ended();
        break;
      case v1::WatchGameResponse::kGameEnded:
        *p->mutable_game_ended() = e.game_ended();
        break;
      default:
        break;
    }
    if (p->event_case() != v1::PlayResponse::EVENT_NOT_SET) {
      const std::shared_ptr<const v1::PlayResponse> shared = std::move(p);
      for (size_t seat = 0; seat < seat_channels_.size(); ++seat) {
        const auto& ch = seat_channels_[seat];
        if (!ch) continue;
        ch->Send(mover_copy && static_cast<int>(seat) == mover_view->seat()
                     ? mover_copy
                     : shared);
      }
    }
    auto shared = std::make_shared<const v1::WatchGameResponse>(std::move(e));
    for (const auto& w : watchers_) w->Send(shared);
    public_log_.push_back(std::move(shared));
  }
}

void GameSession::LogPublic(v1::WatchGameResponse event) {
  public_log_.push_back(
      std::make_shared<const v1::WatchGameResponse>(std::move(event)));
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
  deps_.timer->Schedule(deadline, [weak, turn, deadline] {
    if (std::shared_ptr<GameSession> s = weak.lock()) {
      s->OnDeadline(turn, deadline);
    }
  });
  if (seat_channels_[seat]) {
    // Built on an arena that the message's shared_ptr owns: the hundred or
    // so strings and sub-messages of an observation (the round's history,
    // every legal move) are bump-allocated and freed at once when the last
    // stream has sent it (docs/performance.md).
    auto arena = std::make_shared<google::protobuf::Arena>();
    auto* p =
        google::protobuf::Arena::CreateMessage<v1::PlayResponse>(arena.get());
    FillYourTurn(p->mutable_your_turn());
    seat_channels_[seat]->Send(
        std::shared_ptr<const v1::PlayResponse>(arena, p));
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
  auto send =
      [](const std::vector<std::shared_ptr<const v1::WatchGameResponse>>&
             record,
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
      self->final_record_ = std::make_shared<
          std::vector<std::shared_ptr<const v1::WatchGameResponse>>>(
          RecordEvents(*record));
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

void GameSession::OnDeadline(int turn, SteadyClock::time_point deadline) {
  absl::MutexLock lock(&mu_);
  if (game_.over() || game_.turn() != turn || deadline_ != deadline) return;
  const int seat = game_.to_move();
  const int64_t bank = std::max<int64_t>(0, bank_left_ms_[seat]);
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
  deadline_.reset();
  std::vector<PendingEvent> events;
  events.push_back(
      {EventKind::kForfeit, recorder::ForfeitPayload(seat, reason, detail)});
  std::vector<v1::WatchGameResponse> public_events;
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

void GameSession::Submit(int seat, int turn, const v1::Move& submitted,
                         SubmitReply reply,
                         std::shared_ptr<PlayChannel> origin) {
  absl::MutexLock lock(&mu_);
  // What the reply queues on the submitting stream goes out at the end of
  // this call for answers given at once; answers given after a commit are
  // flushed there with everything else the move caused (FlushAll), which
  // reaches the origin as long as it is the seat's current stream.
  FlushOnReturn flush_now{origin.get()};
  const SteadyClock::time_point now = deps_.timer->Now();
  // 1. Is this a submission for the turn in play, by its seat, in time?
  if (AnswerOutOfPlay(seat, turn, submitted, now, reply)) return;
  // 2. Adjudicate: decode the move and ask the engine.
  const int64_t elapsed_ms = MillisBetween(turn_started_, now);
  absl::StatusOr<Move> move = FromProto(submitted);
  absl::Status legal = move.ok() ? game_.Validate(*move) : move.status();
  // 3. Record, then publish (from the commit callback).
  if (!legal.ok()) {
    RejectSubmission(seat, turn, submitted, legal, /*malformed=*/!move.ok(),
                     elapsed_ms, std::move(reply));
    return;
  }
  AcceptMove(seat, turn, *move, now, elapsed_ms, std::move(reply));
}

void GameSession::Refuse(int seat, int turn, const v1::Move& submitted,
                         const absl::Status& error,
                         const SubmitReply& reply) const {
  const absl::StatusCode code = static_cast<absl::StatusCode>(error.code());
  const std::string message(error.message());
  v1::SubmitMoveResponse r = Answer(game_, turn, submitted, code, message,
                                    IllegalLeft(seat), NextToMove(game_));
  r.mutable_verdict()->set_error_reason(ReasonOf(error));
  reply(error, r);
}

bool GameSession::AnswerOutOfPlay(int seat, int turn, const v1::Move& submitted,
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
                                     const v1::Move& submitted,
                                     SubmitReply reply) {
  // The same move again gets the same verdict, once it is on disk.
  const PlayedMove& played = game_.history()[turn];
  absl::StatusOr<Move> move = FromProto(submitted);
  if (move.ok() && played.seat == seat && played.move == *move) {
    v1::SubmitMoveResponse r =
        Answer(game_, turn, MoveProto(played.move), absl::StatusCode::kOk, "",
               IllegalLeft(seat),
               turn + 1 < game_.turn() ? game_.history()[turn + 1].seat
                                       : NextToMove(game_));
    SetDrawn(played, seat, r.mutable_verdict());
    auto ack = [reply = std::move(reply), r, turn,
                seat](const absl::Status& status) {
      if (status.ok()) {
        reply(absl::OkStatus(), r);
      } else {
        reply(Error(absl::StatusCode::kUnavailable, Reason::kRecordUnavailable,
                    absl::StrCat("the move could not be recorded: ",
                                 status.message())),
              UnrecordedAnswer(turn, r.verdict().move(), status, seat));
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
                                   const v1::Move& submitted,
                                   const absl::Status& why, bool malformed,
                                   int64_t elapsed_ms, SubmitReply reply) {
  ++illegal_[seat];
  const int left = IllegalLeft(seat);
  std::string reason(why.message());
  std::vector<PendingEvent> events;
  events.push_back(
      {EventKind::kReject,
       recorder::RejectPayload(
           turn, seat,
           recorder::SubmissionText(convert::SubmissionOf(submitted)), reason,
           elapsed_ms)});
  std::vector<v1::WatchGameResponse> public_events;
  if (left == 0) {
    const std::string detail = absl::StrCat(
        "seat ", seat, " made ", illegal_[seat], " illegal submissions");
    game_.Forfeit(seat, detail);
    deadline_.reset();
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
  v1::SubmitMoveResponse r =
      Answer(game_, turn, submitted, absl::StatusCode::kInvalidArgument, reason,
             left, NextToMove(game_));
  const Reason kind = malformed ? Reason::kMalformedMove : Reason::kIllegalMove;
  r.mutable_verdict()->set_error_reason(std::string(ReasonName(kind)));
  const std::string left_text = absl::StrCat(left);
  absl::Status error =
      left == 0 ? Error(absl::StatusCode::kInvalidArgument, kind, reason,
                        {{"illegal_submissions_left", left_text},
                         {"forfeited", "true"}})
                : Error(absl::StatusCode::kInvalidArgument, kind, reason,
                        {{"illegal_submissions_left", left_text}});
  if (malformed)
    error = BadField(error, MoveField(why.message()), why.message());
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
                    UnrecordedAnswer(r.verdict().turn(), r.verdict().move(), st,
                                     r.next_to_move()));
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
  deadline_.reset();
  turn_started_ = now;
  const PlayedMove& played = game_.history().back();

  std::vector<PendingEvent> events;
  events.push_back(
      {EventKind::kMove, recorder::MovePayload(played, elapsed_ms)});
  std::vector<v1::WatchGameResponse> public_events(1);
  ToProto(played, kSpectator, public_events[0].mutable_move_played());
  // draw=on: the mover's own copy names the card it drew.
  std::optional<v1::PlayedMove> mover_view;
  if (played.drawn.valid()) {
    mover_view.emplace();
    ToProto(played, played.seat, &*mover_view);
  }
  AppendConsequences(rounds_before, round_before, &events, &public_events);
  if (!game_.over() && game_.round() == round_before &&
      game_.history().size() >= 1 && game_.deal() != played.deal) {
    public_events.push_back(DealInfoEvent(game_));
  } else if (!game_.over() && game_.round() != round_before) {
    public_events.push_back(DealInfoEvent(game_));
  }

  v1::SubmitMoveResponse r =
      Answer(game_, turn, MoveProto(played.move), absl::StatusCode::kOk, "",
             IllegalLeft(seat), NextToMove(game_));
  SetDrawn(played, seat, r.mutable_verdict());
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
                    UnrecordedAnswer(r.verdict().turn(), r.verdict().move(), st,
                                     seat));
              return;
            }
            reply(absl::OkStatus(), r);
            Broadcast(public_events, mover_view ? &*mover_view : nullptr);
          });
}

int GameSession::IllegalLeft(int seat) const {
  return std::max(0, header_.clock.max_illegal - illegal_[seat]);
}

void GameSession::Connect(int seat, std::shared_ptr<PlayChannel> channel) {
  absl::MutexLock lock(&mu_);
  if (stopped_) {
    channel->Close(*stopped_);
    return;
  }
  if (seat_channels_[seat] && seat_channels_[seat] != channel) {
    seat_channels_[seat]->Close(Error(absl::StatusCode::kAborted,
                                      Reason::kStreamReplaced,
                                      "replaced by a newer connection"));
  }
  v1::PlayResponse started;
  *started.mutable_game_started() = GameStartedMessage(seat);
  channel->Send(started);
  if (game_.over() && end_published_) {
    v1::PlayResponse ended;
    *ended.mutable_game_ended() = GameEndedMessage();
    channel->Send(ended);
    channel->Close(absl::OkStatus());
    seat_channels_[seat].reset();
    return;
  }
  if (MyTurnIsLive(seat)) {
    v1::PlayResponse turn;
    *turn.mutable_your_turn() = YourTurnMessage();
    channel->Send(turn);
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
  if (stopped_) {
    reply(*stopped_, v1::GetTurnResponse());
    return 0;
  }
  if (broken_) {
    reply(Error(absl::StatusCode::kUnavailable, Reason::kRecordUnavailable,
                "the game's record could not be written: " + *broken_),
          v1::GetTurnResponse());
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
        v1::GetTurnResponse());
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
  deadline_.reset();
  for (int seat = 0; seat < players(); ++seat) {
    for (TurnWaiter& w : turn_waiters_[seat]) {
      w.reply(status, v1::GetTurnResponse());
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

absl::Status GameSession::Abort(const std::string& reason) {
  absl::MutexLock lock(&mu_);
  if (game_.over()) {
    return absl::FailedPreconditionError("the game is already over");
  }
  game_.Abort(reason);
  deadline_.reset();
  std::vector<v1::WatchGameResponse> public_events(1);
  *public_events[0].mutable_game_ended() = GameEndedMessage();
  RecordThenPublish(
      {{EventKind::kAbort, recorder::AbortPayload(reason)}},
      [this, public_events = std::move(public_events)](const absl::Status& st)
          ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
            if (st.ok()) Broadcast(public_events);
          });
  return absl::OkStatus();
}

absl::Status GameSession::Forfeit(int seat, const std::string& reason,
                                  const std::string& detail) {
  absl::MutexLock lock(&mu_);
  if (game_.over()) {
    return absl::FailedPreconditionError("the game is already over");
  }
  if (seat < 0 || seat >= players()) {
    return absl::InvalidArgumentError("no such seat");
  }
  ForfeitLocked(seat, reason, detail, [](const absl::Status&) {});
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
                    r.totals, r.forfeiting_seat, r.detail};
    info.seed = RevealableSeed();
  }
  info.seed_commitment = header_.commitment;
  info.created_us = header_.created_us;
  info.clock = header_.clock;
  return info;
}

v1::GameStarted GameSession::GameStartedMessage(int seat) const {
  v1::GameStarted m;
  m.set_game_id(header_.game_id);
  m.set_seat(seat);
  m.set_rules(header_.rules);
  for (const recorder::SeatInfo& s : header_.seats) m.add_bots(s.bot_name);
  m.set_seed_commitment(header_.commitment);
  ClockToProto(header_.clock, m.mutable_clock());
  m.set_label(header_.label);
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

v1::YourTurn GameSession::YourTurnMessage() const {
  v1::YourTurn t;
  FillYourTurn(&t);
  return t;
}

void GameSession::FillYourTurn(v1::YourTurn* out) const {
  const int seat = game_.to_move();
  v1::YourTurn& t = *out;
  t.set_turn(game_.turn());
  ToProto(Observe(game_, seat), t.mutable_observation());
  std::vector<Move> moves = game_.LegalMoves();
  std::vector<std::pair<std::string, const Move*>> sorted;
  sorted.reserve(moves.size());
  for (const Move& m : moves) sorted.emplace_back(m.ToString(), &m);
  std::sort(sorted.begin(), sorted.end());
  for (const auto& [text, m] : sorted) ToProto(*m, t.add_legal_moves());
  const SteadyClock::time_point now = deps_.timer->Now();
  t.set_time_left_ms(TimeLeftMs(now));
  // The bank as it stands now: this turn's time beyond the free per-move
  // allowance is already spent from it.
  const int64_t over = std::max<int64_t>(
      0, MillisBetween(turn_started_, now) - header_.clock.per_move_ms);
  t.set_bank_left_ms(std::max<int64_t>(0, bank_left_ms_[seat] - over));
  t.set_deadline_unix_ms(deadline_unix_ms_);
  t.set_illegal_left(std::max(0, header_.clock.max_illegal - illegal_[seat]));
}

v1::GameEnded GameSession::GameEndedMessage() const {
  v1::GameEnded e;
  if (game_.result()) ToProto(*game_.result(), e.mutable_result());
  e.set_seed(RevealableSeed());
  return e;
}

std::string GameSession::RevealableSeed() const {
  if (StatusOf(game_) != v1::GAME_STATUS_FINISHED) return "";
  if (deps_.seeds != nullptr &&
      deps_.seeds->HeldByOthers(header_.seed, header_.game_id)) {
    return "";
  }
  return header_.seed;
}

v1::GetTurnResponse GameSession::TurnResponse(int seat) const {
  v1::GetTurnResponse r;
  r.set_status(StatusOf(game_));
  r.set_your_turn(MyTurnIsLive(seat));
  if (r.your_turn()) *r.mutable_turn() = YourTurnMessage();
  ToProto(Observe(game_, seat), r.mutable_observation());
  if (game_.over()) *r.mutable_ended() = GameEndedMessage();
  *r.mutable_game() = GameStartedMessage(seat);
  return r;
}

}  // namespace cassino::service
