#include "referee/referee_service.h"

#include <deque>
#include <functional>
#include <memory>
#include <optional>

#include "absl/base/thread_annotations.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "proto/convert.h"
#include "recorder/display_text.h"
#include "recorder/recorder.h"
#include "referee/call_metadata.h"
#include "referee/channel.h"
#include "referee/errors.h"
#include "referee/grpc_status.h"
#include "referee/ladder_wire.h"
#include "referee/session_messages.h"
#include "referee/wall_clock.h"
#include "referee/wire_convert.h"

namespace cassino::service {
namespace {

// Reasons an organiser gives (AbortGame, ForfeitSeat, CancelTournament), in
// characters.
constexpr size_t kMaxReason = 256;

grpc::Status TooManyRequests() {
  return GrpcError(grpc::StatusCode::RESOURCE_EXHAUSTED, Reason::kRateLimited,
                   "too many requests from this seat; slow down");
}

// A reply callback that fills a unary call's response and finishes it.
template <typename Response>
auto FinishWith(grpc::ServerUnaryReactor* reactor, Response* response) {
  return
      [reactor, response](const grpc::Status& status, const Response& value) {
        if (status.ok()) *response = value;
        reactor->Finish(WithDetails(status));
      };
}

// A bot's unary call: the token's seat, counted against its rate limit.
grpc::Status AdmitBot(Registry& registry,
                      const grpc::CallbackServerContext& context,
                      const std::string& game_id, SeatAccess* access) {
  grpc::Status status = ToGrpc(registry.AuthorizeSeat(
      BearerToken(context.client_metadata()), game_id, access));
  if (status.ok() && !access->game->Admit(access->seat)) {
    status = TooManyRequests();
  }
  return status;
}

// The message a core event is written as (rendered once per event and
// shared by every stream it goes to: session_messages.h).
std::shared_ptr<const PlayFrame> Render(const SeatEvent& event) {
  return PlayFrameOf(event);
}
std::shared_ptr<const v1::WatchGameResponse> Render(const PublicEvent& event) {
  return WatchMessage(event);
}
std::shared_ptr<const v1::LobbyResponse> Render(const LobbyEvent& event) {
  return std::make_shared<const v1::LobbyResponse>(LobbyResponseOf(event));
}

// A Channel of the core's `Event`s writing to one server stream (bidi or
// server-streaming) as `Message`s. The reactor forwards OnWriteDone here
// and calls Detach() from OnDone; after that the channel drops everything.
// At most `max_queued` messages wait to be written: a client that does not
// read has its stream ended (RESOURCE_EXHAUSTED, LIMIT_REACHED) rather than
// its queue grown.
template <typename Reactor, typename Event, typename Message>
class StreamChannel final : public Channel<Event> {
 public:
  StreamChannel(Reactor* reactor, int max_queued)
      : reactor_(reactor), max_queued_(max_queued) {}

  using Channel<Event>::Send;
  void Send(std::shared_ptr<const Event> event) override {
    if constexpr (std::is_same_v<Event, Message>) {
      Enqueue(std::move(event));
    } else {
      Enqueue(Render(*event));
    }
  }

  // Queues a message the edge made itself.
  void Enqueue(std::shared_ptr<const Message> message) {
    absl::MutexLock lock(&mu_);
    if (reactor_ == nullptr || closing_) return;
    if (static_cast<int>(queue_.size()) >= max_queued_) {
      // Keep the message being written (its buffer is in use), drop the
      // rest, and end the stream once that write is done.
      if (writing_)
        queue_.erase(queue_.begin() + 1, queue_.end());
      else
        queue_.clear();
      closing_ = true;
      status_ =
          GrpcError(grpc::StatusCode::RESOURCE_EXHAUSTED, Reason::kLimitReached,
                    absl::StrCat("the stream's client left ", max_queued_,
                                 " messages unread; the stream is ended"));
      if (!writing_) FinishLocked();
      return;
    }
    queue_.push_back(std::move(message));
  }

  // Messages queued and not yet written.
  int queued() const {
    absl::MutexLock lock(&mu_);
    return static_cast<int>(queue_.size());
  }

  void Flush() override {
    absl::MutexLock lock(&mu_);
    if (reactor_ == nullptr || writing_ || queue_.empty()) return;
    WriteFront();
  }

  void Close(const absl::Status& status) override { Close(ToGrpc(status)); }
  void Close(const grpc::Status& status) {
    absl::MutexLock lock(&mu_);
    if (reactor_ == nullptr || closing_) return;
    closing_ = true;
    status_ = status;
    if (writing_) return;  // finishes once the queue is written
    if (queue_.empty()) {
      FinishLocked();
    } else {
      WriteFront();
    }
  }

  bool open() const override {
    absl::MutexLock lock(&mu_);
    return reactor_ != nullptr && !closing_;
  }

  void OnWriteDone(bool ok) {
    absl::MutexLock lock(&mu_);
    writing_ = false;
    if (reactor_ == nullptr) return;
    queue_.pop_front();
    if (!ok) {
      // The stream is broken (the client went away): stop writing.
      queue_.clear();
      if (!closing_) {
        closing_ = true;
        status_ = grpc::Status(grpc::StatusCode::CANCELLED, "stream broken");
      }
    }
    if (!queue_.empty()) {
      WriteFront();
    } else if (closing_) {
      FinishLocked();
    }
  }

  void Detach() {
    absl::MutexLock lock(&mu_);
    reactor_ = nullptr;
    queue_.clear();
  }

 private:
  // (No write carries the buffer hint: with gRPC 1.51 a hinted write on a
  // server stream occasionally ended the stream under load.)
  void WriteFront() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    writing_ = true;
    reactor_->StartWrite(queue_.front().get());
  }
  void FinishLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    if (finished_) return;
    finished_ = true;
    reactor_->Finish(WithDetails(status_));
  }

  mutable absl::Mutex mu_;
  Reactor* reactor_ ABSL_GUARDED_BY(mu_);
  const int max_queued_;
  // front() is being written while writing_.
  std::deque<std::shared_ptr<const Message>> queue_ ABSL_GUARDED_BY(mu_);
  bool writing_ ABSL_GUARDED_BY(mu_) = false;
  bool closing_ ABSL_GUARDED_BY(mu_) = false;
  bool finished_ ABSL_GUARDED_BY(mu_) = false;
  grpc::Status status_ ABSL_GUARDED_BY(mu_);
};

// A seat's Play stream. It reads raw bytes and parses them itself, so that
// a message that does not decode ends the stream with INVALID_ARGUMENT
// (UNDECODABLE_REQUEST) instead of looking like the bot's half-close, as a
// typed read would (undecodable.h); it writes PlayResponses as the
// PlayFrames session_messages.h renders.
class PlayReactor final
    : public grpc::ServerBidiReactor<grpc::ByteBuffer, grpc::ByteBuffer> {
 public:
  PlayReactor(Registry* registry, grpc::CallbackServerContext* context)
      : recorder_(registry->recorder()),
        channel_(std::make_shared<Channel>(
            this, registry->limits().stream_queue_max)),
        read_pause_(registry->limits().stream_read_pause) {
    absl::Status auth = registry->AuthorizeSeat(
        BearerToken(context->client_metadata()), "", &access_);
    if (!auth.ok()) {
      channel_->Close(auth);
      return;
    }
    absl::StatusOr<PlayMode> mode = PlayModeOf(context->client_metadata());
    if (!mode.ok()) {
      channel_->Close(mode.status());
      return;
    }
    mode_ = *mode;
    access_.game->Connect(access_.seat, channel_, mode_);
    StartRead(&read_buffer_);
  }
  // (Connect flushes what it sends.)

  // StreamChannel's write: one message at a time (the next one only after
  // OnWriteDone), so one buffer serves. The frame's bytes are copied into
  // a slice gRPC owns, as serialising a message would write them.
  void StartWrite(const PlayFrame* frame) {
    grpc::Slice slice(frame->bytes.data(), frame->bytes.size());
    grpc::ByteBuffer buffer(&slice, 1);
    write_buffer_.Swap(&buffer);  // (the previous write is done)
    ServerBidiReactor::StartWrite(&write_buffer_);
  }

  void OnReadDone(bool ok) override {
    // While a single game is in play, the move read here is committed on
    // this thread once this reaction has done the rest (the next read is
    // started), and its verdict leaves from here: no hand-off to the
    // writer thread and back (recorder.h, "Committing on the caller's
    // thread"). Nothing below holds a lock when the scope closes.
    std::optional<recorder::Recorder::CommitHere> commit_here;
    if (recorder_ != nullptr) commit_here.emplace(*recorder_);
    if (!ok) {
      // The bot closed its side (or left): end the call.
      channel_->Close(grpc::Status::OK);
      return;
    }
    // A stream the referee ended (replaced, or its credential revoked)
    // takes no more moves.
    if (!channel_->open()) return;
    request_.Clear();
    if (!grpc::SerializationTraits<v1::PlayRequest>::Deserialize(&read_buffer_,
                                                                 &request_)
             .ok()) {
      channel_->Close(GrpcError(
          grpc::StatusCode::INVALID_ARGUMENT, Reason::kUndecodableRequest,
          "a message does not decode as cassino.v1.PlayRequest (check that "
          "the client's proto files match the referee's cassino/v1)"));
      return;
    }
    if (!access_.game->Admit(access_.seat)) {
      // Flooding: answered, not processed.
      v1::PlayResponse refused;
      v1::MoveVerdict* v = refused.mutable_verdict();
      v->set_turn(request_.turn());
      v->set_accepted(false);
      v->set_reason(TooManyRequests().error_message());
      v->set_code("RESOURCE_EXHAUSTED");
      v->set_error_reason(std::string(ReasonName(Reason::kRateLimited)));
      auto frame = std::make_shared<PlayFrame>();
      refused.SerializeToString(&frame->bytes);
      channel_->Enqueue(std::move(frame));
      channel_->Flush();
    } else if (!request_.has_move()) {
      access_.game->Connect(access_.seat, channel_, mode_);
    } else {
      // The verdict is queued here and flushed by the game together with
      // what the move caused (GameSession::Submit's `origin`).
      access_.game->Submit(
          access_.seat, request_.turn(), convert::SubmissionOf(request_.move()),
          [channel = channel_](const absl::Status& status,
                               const Verdict& answer) {
            Verdict verdict = answer;
            // An error is never an acknowledgement, whatever the verdict
            // says (the session builds it so; this is the edge's check).
            if (!status.ok() && verdict.accepted) {
              verdict.accepted = false;
              verdict.drawn.clear();
              verdict.code = status.code();
              verdict.reason = std::string(status.message());
            }
            channel->Send(SeatEvent{std::move(verdict)});
          },
          channel_);
    }
    ReadNextOrPause();
  }

  void OnWriteDone(bool ok) override {
    channel_->OnWriteDone(ok);
    absl::MutexLock lock(&read_mu_);
    if (read_paused_ && channel_->open() &&
        channel_->queued() <= read_pause_ / 2) {
      read_paused_ = false;
      StartRead(&read_buffer_);
    }
  }
  void OnCancel() override {
    channel_->Close(grpc::Status(grpc::StatusCode::CANCELLED, "cancelled"));
  }
  void OnDone() override {
    channel_->Detach();
    if (access_.game) access_.game->Disconnect(access_.seat, channel_.get());
    delete this;
  }

 private:
  // Reads the next request, unless more than read_pause_ messages wait for
  // the bot to read them: then reading resumes from OnWriteDone once half
  // of them are written (the bot that sends without reading is held back
  // by HTTP/2 flow control, not by the referee's memory).
  void ReadNextOrPause() {
    absl::MutexLock lock(&read_mu_);
    if (channel_->queued() > read_pause_) {
      read_paused_ = true;
    } else {
      StartRead(&read_buffer_);
    }
  }

  using Channel = StreamChannel<PlayReactor, SeatEvent, PlayFrame>;
  recorder::Recorder* const recorder_;  // null in tests without one
  std::shared_ptr<Channel> channel_;
  const int read_pause_;
  absl::Mutex read_mu_;
  bool read_paused_ ABSL_GUARDED_BY(read_mu_) = false;
  SeatAccess access_;
  PlayMode mode_ = PlayMode::kFull;  // the stream's (cassino-play-mode)
  grpc::ByteBuffer read_buffer_;
  grpc::ByteBuffer write_buffer_;
  v1::PlayRequest request_;
};

// Why `reads` refused a read: the referee is stopping (UNAVAILABLE, as
// every call during a stop, so that clients retry against the referee that
// comes back), or too many reads wait already.
grpc::Status ReadRefused(const Executor& reads) {
  if (reads.stopping()) {
    return GrpcError(grpc::StatusCode::UNAVAILABLE, Reason::kShuttingDown,
                     "the referee is shutting down; try again when it is "
                     "back");
  }
  return GrpcError(grpc::StatusCode::RESOURCE_EXHAUSTED, Reason::kLimitReached,
                   "too many reads are waiting; try again in a moment");
}

// A spectator of a game that is not in memory: its record, if it ended and
// its seed may be revealed. The record of an aborted game, or of a game
// whose seed another unfinished game is dealt from (a duplicate twin), is
// withheld (FAILED_PRECONDITION): its deals would give those cards away.
void SendStoredGame(Registry& registry, const std::string& game_id,
                    Channel<PublicEvent>& channel) {
  absl::StatusOr<recorder::GameRecord> record =
      registry.recorder()->Load(game_id);
  if (!record.ok()) {
    channel.Close(
        (absl::IsNotFound(record.status())
             ? NoGame(game_id)
             : Error(absl::StatusCode::kInternal, Reason::kRecordUnavailable,
                     record.status().message())));
    return;
  }
  if (record->status == recorder::GameStatus::kRunning) {
    channel.Close(Error(absl::StatusCode::kUnavailable, Reason::kGameNotLoaded,
                        "the game is not loaded; try again"));
    return;
  }
  if (record->status != recorder::GameStatus::kFinished ||
      registry.seed_holds().HeldByOthers(record->header.seed, game_id)) {
    channel.Close(
        Error(absl::StatusCode::kFailedPrecondition, Reason::kGameOver,
              "the game is over and its record is withheld: it was aborted, or "
              "another running game is dealt from its seed"));
    return;
  }
  for (const recorder::Event& e : record->events) {
    channel.Send(PublicEvent{e});
  }
  channel.Close(absl::OkStatus());
}

class WatchReactor final
    : public grpc::ServerWriteReactor<v1::WatchGameResponse> {
 public:
  WatchReactor(Registry* registry, const v1::WatchGameRequest& request)
      : registry_(registry),
        channel_(std::make_shared<Channel>(
            this, registry->limits().stream_queue_max)) {
    if (!registry->AdmitWatcher()) {
      channel_->Close(GrpcError(
          grpc::StatusCode::RESOURCE_EXHAUSTED, Reason::kLimitReached,
          absl::StrCat("the referee has ", registry->limits().max_watchers,
                       " spectators already; try again later")));
      return;
    }
    admitted_ = true;
    game_ = registry->Find(request.game_id());
    if (game_) {
      if (!game_->Watch(channel_)) {
        // Its place in all is given back before it is told: a refused
        // spectator never holds one (nor keeps another spectator out).
        registry->ReleaseWatcher();
        admitted_ = false;
        channel_->Close(GrpcError(
            grpc::StatusCode::RESOURCE_EXHAUSTED, Reason::kLimitReached,
            absl::StrCat("the game has ",
                         registry->limits().max_watchers_per_game,
                         " spectators already; try again later")));
        game_.reset();
      }
      return;
    }
    // Not in memory: an older game, read from the record off this thread.
    if (!registry->reads().Post(
            [registry, channel = channel_, id = request.game_id()] {
              SendStoredGame(*registry, id, *channel);
            })) {
      channel_->Close(ReadRefused(registry->reads()));
    }
  }

  void OnWriteDone(bool ok) override { channel_->OnWriteDone(ok); }
  void OnCancel() override {
    channel_->Close(grpc::Status(grpc::StatusCode::CANCELLED, "cancelled"));
  }
  void OnDone() override {
    channel_->Detach();
    if (game_) game_->Unwatch(channel_.get());
    if (admitted_) registry_->ReleaseWatcher();
    delete this;
  }

 private:
  using Channel =
      StreamChannel<WatchReactor, PublicEvent, v1::WatchGameResponse>;
  Registry* const registry_;
  std::shared_ptr<Channel> channel_;
  std::shared_ptr<GameSession> game_;
  bool admitted_ = false;  // counted by AdmitWatcher
};

// A bot's Lobby stream: the Lobby sends its events (welcome, offers)
// through a channel that writes each as a LobbyResponse.
class LobbyReactor final : public grpc::ServerWriteReactor<v1::LobbyResponse> {
 public:
  LobbyReactor(Registry* registry, grpc::CallbackServerContext* context,
               const v1::LobbyRequest& request)
      : registry_(registry),
        channel_(std::make_shared<Channel>(
            this, registry->limits().stream_queue_max)) {
    absl::Status status = registry->ConnectLobby(
        BearerToken(context->client_metadata()), request.capacity(), channel_,
        &account_, {request.ladder(), request.version()});
    if (!status.ok()) channel_->Close(status);
  }

  void OnWriteDone(bool ok) override { channel_->OnWriteDone(ok); }
  void OnCancel() override {
    channel_->Close(grpc::Status(grpc::StatusCode::CANCELLED, "cancelled"));
  }
  void OnDone() override {
    channel_->Detach();
    if (!account_.empty()) {
      registry_->lobby().Disconnect(account_, channel_.get());
    }
    delete this;
  }

 private:
  using Channel = StreamChannel<LobbyReactor, LobbyEvent, v1::LobbyResponse>;
  Registry* const registry_;
  std::shared_ptr<Channel> channel_;
  std::string account_;  // set once connected
};

// A reply of Lobby's account calls that fills a response with the account
// (and the key, for the responses that have one) and finishes the call.
template <typename Response>
Lobby::AccountReply AccountReplyTo(grpc::ServerUnaryReactor* reactor,
                                   Response* response) {
  return [reactor, response](absl::StatusOr<AccountChange> change) {
    if (change.ok()) {
      BotAccountToProto(change->account, response->mutable_bot());
      if constexpr (requires { response->set_key(change->key); }) {
        response->set_key(change->key);
      }
    }
    reactor->Finish(ToGrpc(change.status()));
  };
}

// Runs an organiser call: finishes it with the refusal unless the call
// presents the admin token; otherwise hands the reactor to `handle`, which
// must finish it (at once or later). Every admin RPC goes through here.
template <typename Handle>
grpc::ServerUnaryReactor* AsOrganiser(const Registry& registry,
                                      grpc::CallbackServerContext* context,
                                      Handle handle) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  if (absl::Status auth =
          registry.AuthorizeAdmin(BearerToken(context->client_metadata()));
      !auth.ok()) {
    reactor->Finish(ToGrpc(auth));
  } else {
    handle(reactor);
  }
  return reactor;
}

// Runs `read`, which must finish the call, on the registry's read executor
// (a handler never blocks on the database); RESOURCE_EXHAUSTED when too
// many reads wait already, UNAVAILABLE (SHUTTING_DOWN) once the referee
// stops.
template <typename Read>
void OffThread(Registry& registry, grpc::ServerUnaryReactor* reactor,
               Read read) {
  if (!registry.reads().Post(std::move(read))) {
    reactor->Finish(WithDetails(ReadRefused(registry.reads())));
  }
}

}  // namespace

grpc::ServerUnaryReactor* RefereeServiceImpl::RegisterBot(
    grpc::CallbackServerContext* context, const v1::RegisterBotRequest* request,
    v1::RegisterBotResponse* response) {
  return AsOrganiser(*registry_, context, [&](auto* reactor) {
    registry_->lobby().Register(BotRegistrationOf(*request),
                                AccountReplyTo(reactor, response));
  });
}

grpc::ServerUnaryReactor* RefereeServiceImpl::RotateBotKey(
    grpc::CallbackServerContext* context,
    const v1::RotateBotKeyRequest* request,
    v1::RotateBotKeyResponse* response) {
  return AsOrganiser(*registry_, context, [&](auto* reactor) {
    registry_->lobby().Rotate(request->name(),
                              AccountReplyTo(reactor, response));
  });
}

grpc::ServerUnaryReactor* RefereeServiceImpl::RevokeBot(
    grpc::CallbackServerContext* context, const v1::RevokeBotRequest* request,
    v1::RevokeBotResponse* response) {
  return AsOrganiser(*registry_, context, [&](auto* reactor) {
    registry_->lobby().Revoke(request->name(),
                              AccountReplyTo(reactor, response));
  });
}

grpc::ServerUnaryReactor* RefereeServiceImpl::GetBot(
    grpc::CallbackServerContext* context, const v1::GetBotRequest* request,
    v1::GetBotResponse* response) {
  return AsOrganiser(*registry_, context, [&](auto* reactor) {
    absl::StatusOr<BotAccount> bot = registry_->lobby().Get(request->name());
    if (bot.ok()) BotAccountToProto(*bot, response->mutable_bot());
    reactor->Finish(ToGrpc(bot.status()));
  });
}

grpc::ServerUnaryReactor* RefereeServiceImpl::ListBots(
    grpc::CallbackServerContext* context, const v1::ListBotsRequest* request,
    v1::ListBotsResponse* response) {
  return AsOrganiser(*registry_, context, [&](auto* reactor) {
    absl::StatusOr<BotPage> page =
        registry_->lobby().List(BotQueryOf(*request));
    if (page.ok()) BotPageToProto(*page, response);
    reactor->Finish(ToGrpc(page.status()));
  });
}

grpc::ServerWriteReactor<v1::LobbyResponse>* RefereeServiceImpl::Lobby(
    grpc::CallbackServerContext* context, const v1::LobbyRequest* request) {
  return new LobbyReactor(registry_, context, *request);
}

grpc::ServerUnaryReactor* RefereeServiceImpl::CreateGame(
    grpc::CallbackServerContext* context, const v1::CreateGameRequest* request,
    v1::CreateGameResponse* response) {
  return AsOrganiser(*registry_, context, [&](auto* reactor) {
    registry_->CreateGame(
        GameSpecOf(*request),
        [reactor, response](absl::StatusOr<CreatedGame> created) {
          if (created.ok()) CreatedGameToProto(*created, response);
          reactor->Finish(ToGrpc(created.status()));
        });
  });
}

grpc::ServerUnaryReactor* RefereeServiceImpl::GetGame(
    grpc::CallbackServerContext* context, const v1::GetGameRequest* request,
    v1::GetGameResponse* response) {
  return AsOrganiser(*registry_, context, [&](auto* reactor) {
    OffThread(*registry_, reactor,
              [registry = registry_, request, response, reactor] {
                absl::StatusOr<GameInfo> info =
                    registry->GetGame(request->game_id());
                if (info.ok()) InfoToProto(*info, response->mutable_game());
                reactor->Finish(ToGrpc(info.status()));
              });
  });
}

grpc::ServerUnaryReactor* RefereeServiceImpl::ListGames(
    grpc::CallbackServerContext* context, const v1::ListGamesRequest* request,
    v1::ListGamesResponse* response) {
  return AsOrganiser(*registry_, context, [&](auto* reactor) {
    OffThread(*registry_, reactor,
              [registry = registry_, request, response, reactor] {
                absl::StatusOr<GameQuery> query = GameQueryOf(*request);
                if (!query.ok()) {
                  reactor->Finish(ToGrpc(query.status()));
                  return;
                }
                absl::StatusOr<GamePage> page = registry->ListGames(*query);
                if (page.ok()) GamePageToProto(*page, response);
                reactor->Finish(ToGrpc(page.status()));
              });
  });
}

namespace {

// An organiser's end of a running game (AbortGame, ForfeitSeat): the
// reason checked, the game found, then `end` asked to end it with a
// callback that answers the call once the end is on disk (`end` returns
// FailedPrecondition for a game that is over, InvalidArgument naming
// `seat` for a seat it does not have).
template <typename Response>
void EndGameAsOrganiser(
    Registry& registry, grpc::ServerUnaryReactor* reactor,
    const std::string& game_id, const std::string& reason, Response* response,
    const std::function<absl::Status(
        GameSession&, const std::string& reason,
        std::function<void(const absl::Status&, const GameInfo&)> recorded)>&
        end) {
  if (absl::Status s = recorder::CheckDisplayText(reason, "reason", kMaxReason);
      !s.ok()) {
    reactor->Finish(Invalid("reason", s.message()));
    return;
  }
  std::shared_ptr<GameSession> game = registry.Find(game_id);
  if (!game) {
    reactor->Finish(
        GrpcError(grpc::StatusCode::NOT_FOUND, Reason::kGameNotFound,
                  absl::StrCat("no running game ", Quote(game_id))));
    return;
  }
  const absl::Status s = end(
      *game, reason,
      [reactor, response](const absl::Status& recorded, const GameInfo& info) {
        if (!recorded.ok()) {
          reactor->Finish(GrpcError(
              grpc::StatusCode::UNAVAILABLE, Reason::kRecordUnavailable,
              absl::StrCat("the end of the game could not be recorded: ",
                           recorded.message())));
          return;
        }
        InfoToProto(info, response->mutable_game());
        reactor->Finish(grpc::Status::OK);
      });
  if (s.code() == absl::StatusCode::kInvalidArgument) {
    reactor->Finish(Invalid("seat", s.message()));
  } else if (!s.ok()) {
    reactor->Finish(GrpcError(grpc::StatusCode::FAILED_PRECONDITION,
                              Reason::kGameOver, s.message()));
  }
}

}  // namespace

grpc::ServerUnaryReactor* RefereeServiceImpl::AbortGame(
    grpc::CallbackServerContext* context, const v1::AbortGameRequest* request,
    v1::AbortGameResponse* response) {
  return AsOrganiser(*registry_, context, [&](auto* reactor) {
    EndGameAsOrganiser(
        *registry_, reactor, request->game_id(), request->reason(), response,
        [](GameSession& game, const std::string& reason, auto recorded) {
          return game.Abort(
              reason.empty() ? "aborted by the organiser" : reason,
              std::move(recorded));
        });
  });
}

grpc::ServerUnaryReactor* RefereeServiceImpl::ForfeitSeat(
    grpc::CallbackServerContext* context, const v1::ForfeitSeatRequest* request,
    v1::ForfeitSeatResponse* response) {
  return AsOrganiser(*registry_, context, [&](auto* reactor) {
    const int seat = request->seat();
    EndGameAsOrganiser(
        *registry_, reactor, request->game_id(), request->reason(), response,
        [seat](GameSession& game, const std::string& reason, auto recorded) {
          return game.Forfeit(
              seat, "organiser",
              reason.empty() ? "forfeited by the organiser" : reason,
              std::move(recorded));
        });
  });
}

RefereeServiceImpl::RefereeServiceImpl(Registry* registry, Scheduler* scheduler,
                                       Ladders* ladders)
    : registry_(registry), scheduler_(scheduler), ladders_(ladders) {
  // Play reads raw bytes (PlayReactor): its handler replaces the typed one.
  // (The generated service numbers its methods in the proto's order.)
  const int play = v1::PlayRequest::descriptor()
                       ->file()
                       ->FindServiceByName("RefereeService")
                       ->FindMethodByName("Play")
                       ->index();
  MarkMethodRawCallback(
      play, new grpc::internal::CallbackBidiHandler<grpc::ByteBuffer,
                                                    grpc::ByteBuffer>(
                [registry](grpc::CallbackServerContext* context) {
                  return new PlayReactor(registry, context);
                }));
}

// A GetTurn call. With `wait` it may stay parked in its game until the
// seat's turn: when the client cancels it or its deadline passes first,
// OnCancel finishes it and drops it from the game at once, so an abandoned
// call holds nothing (and never holds up a stop).
class GetTurnReactor final : public grpc::ServerUnaryReactor {
 public:
  GetTurnReactor(Registry* registry, grpc::CallbackServerContext* context,
                 const v1::GetTurnRequest* request,
                 v1::GetTurnResponse* response)
      : state_(std::make_shared<State>(this, response)) {
    if (grpc::Status s =
            AdmitBot(*registry, *context, request->game_id(), &access_);
        !s.ok()) {
      State::Answer(state_, s, v1::GetTurnResponse());
      return;
    }
    const uint64_t id = access_.game->GetTurn(
        access_.seat, request->wait(),
        [state = state_](const absl::Status& status, const TurnView& view) {
          State::Answer(
              state, ToGrpc(status),
              status.ok() ? TurnResponseProto(view) : v1::GetTurnResponse());
        });
    absl::MutexLock lock(&state_->mu);
    waiter_ = id;
  }

  void OnCancel() override {
    uint64_t waiter = 0;
    {
      absl::MutexLock lock(&state_->mu);
      waiter = waiter_;
    }
    if (waiter != 0) access_.game->CancelWait(access_.seat, waiter);
    State::Answer(state_,
                  grpc::Status(grpc::StatusCode::CANCELLED, "cancelled"),
                  v1::GetTurnResponse());
  }
  void OnDone() override { delete this; }

 private:
  // Shared with the game's parked reply, which may run on another thread:
  // whichever answers first finishes the call, once.
  struct State {
    State(GetTurnReactor* r, v1::GetTurnResponse* out)
        : reactor(r), response(out) {}
    static void Answer(const std::shared_ptr<State>& state,
                       const grpc::Status& status,
                       const v1::GetTurnResponse& value) {
      {
        absl::MutexLock lock(&state->mu);
        if (state->finished) return;
        state->finished = true;
        if (status.ok()) *state->response = value;
      }
      // Once `finished` is set nobody else finishes, and OnDone (which
      // frees the reactor) comes only after this Finish.
      state->reactor->Finish(WithDetails(status));
    }
    absl::Mutex mu;
    bool finished ABSL_GUARDED_BY(mu) = false;
    GetTurnReactor* const reactor;
    v1::GetTurnResponse* const response;
  };
  std::shared_ptr<State> state_;
  SeatAccess access_;
  uint64_t waiter_ ABSL_GUARDED_BY(state_->mu) = 0;
};

grpc::ServerUnaryReactor* RefereeServiceImpl::GetTurn(
    grpc::CallbackServerContext* context, const v1::GetTurnRequest* request,
    v1::GetTurnResponse* response) {
  return new GetTurnReactor(registry_, context, request, response);
}

grpc::ServerUnaryReactor* RefereeServiceImpl::SubmitMove(
    grpc::CallbackServerContext* context, const v1::SubmitMoveRequest* request,
    v1::SubmitMoveResponse* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  SeatAccess access;
  if (grpc::Status s =
          AdmitBot(*registry_, *context, request->game_id(), &access);
      !s.ok()) {
    reactor->Finish(WithDetails(s));
    return reactor;
  }
  // As in the Play stream: a quiet recorder's commit, and the answer, on
  // this thread as the handler ends.
  std::optional<recorder::Recorder::CommitHere> commit_here;
  if (registry_->recorder() != nullptr) {
    commit_here.emplace(*registry_->recorder());
  }
  access.game->Submit(
      access.seat, request->turn(), convert::SubmissionOf(request->move()),
      [reactor, response](const absl::Status& status, const Verdict& verdict) {
        if (status.ok()) *response = VerdictResponse(verdict);
        reactor->Finish(ToGrpc(status));
      });
  return reactor;
}

// A reply of the scheduler's calls that fills a response's tournament and
// finishes the call.
template <typename Response>
Scheduler::Reply TournamentReplyTo(grpc::ServerUnaryReactor* reactor,
                                   Response* response) {
  return [reactor, response](absl::StatusOr<TournamentInfo> info) {
    if (info.ok()) TournamentInfoToProto(*info, response->mutable_tournament());
    reactor->Finish(ToGrpc(info.status()));
  };
}

grpc::ServerUnaryReactor* RefereeServiceImpl::CreateTournament(
    grpc::CallbackServerContext* context,
    const v1::CreateTournamentRequest* request,
    v1::CreateTournamentResponse* response) {
  return AsOrganiser(*registry_, context, [&](auto* reactor) {
    absl::StatusOr<TournamentSpec> spec = TournamentSpecOf(request->spec());
    if (!spec.ok()) {
      reactor->Finish(ToGrpc(spec.status()));
      return;
    }
    scheduler_->Create(*spec, TournamentReplyTo(reactor, response));
  });
}

grpc::ServerUnaryReactor* RefereeServiceImpl::GetTournament(
    grpc::CallbackServerContext* context,
    const v1::GetTournamentRequest* request,
    v1::GetTournamentResponse* response) {
  return AsOrganiser(*registry_, context, [&](auto* reactor) {
    OffThread(*registry_, reactor,
              [scheduler = scheduler_, request, response, reactor] {
                TournamentReplyTo(reactor,
                                  response)(scheduler->Get(request->name()));
              });
  });
}

grpc::ServerUnaryReactor* RefereeServiceImpl::ListTournaments(
    grpc::CallbackServerContext* context,
    const v1::ListTournamentsRequest* request,
    v1::ListTournamentsResponse* response) {
  return AsOrganiser(*registry_, context, [&](auto* reactor) {
    OffThread(*registry_, reactor, [scheduler = scheduler_, response, reactor] {
      absl::StatusOr<std::vector<TournamentInfo>> list = scheduler->List();
      if (list.ok()) {
        for (const TournamentInfo& info : *list) {
          TournamentInfoToProto(info, response->add_tournaments());
        }
      }
      reactor->Finish(ToGrpc(list.status()));
    });
  });
}

grpc::ServerUnaryReactor* RefereeServiceImpl::CancelTournament(
    grpc::CallbackServerContext* context,
    const v1::CancelTournamentRequest* request,
    v1::CancelTournamentResponse* response) {
  return AsOrganiser(*registry_, context, [&](auto* reactor) {
    if (absl::Status s =
            recorder::CheckDisplayText(request->reason(), "reason", kMaxReason);
        !s.ok()) {
      reactor->Finish(Invalid("reason", s.message()));
      return;
    }
    scheduler_->Cancel(request->name(), request->reason(),
                       TournamentReplyTo(reactor, response));
  });
}

// ---------------------------------------------------------------------------
// Ladders (docs/ladder.md).

namespace {

// A reply of the ladders' calls that fills a response's ladder and finishes
// the call.
template <typename Response>
Ladders::Reply LadderReplyTo(grpc::ServerUnaryReactor* reactor,
                             Response* response) {
  return [reactor, response](absl::StatusOr<LadderInfo> info) {
    if (info.ok()) LadderInfoToProto(*info, response->mutable_ladder());
    reactor->Finish(ToGrpc(info.status()));
  };
}

// The organiser's reason for a pause or a close, checked as the
// tournaments' (INVALID_ARGUMENT naming "reason").
bool ReasonRefused(const std::string& reason,
                   grpc::ServerUnaryReactor* reactor) {
  if (absl::Status s = recorder::CheckDisplayText(reason, "reason", kMaxReason);
      !s.ok()) {
    reactor->Finish(Invalid("reason", s.message()));
    return true;
  }
  return false;
}

}  // namespace

grpc::ServerUnaryReactor* RefereeServiceImpl::CreateLadder(
    grpc::CallbackServerContext* context,
    const v1::CreateLadderRequest* request,
    v1::CreateLadderResponse* response) {
  return AsOrganiser(*registry_, context, [&](auto* reactor) {
    ladders_->Create(LadderSpecOf(request->spec()),
                     LadderReplyTo(reactor, response));
  });
}

grpc::ServerUnaryReactor* RefereeServiceImpl::GetLadder(
    grpc::CallbackServerContext* context, const v1::GetLadderRequest* request,
    v1::GetLadderResponse* response) {
  return AsOrganiser(*registry_, context, [&](auto* reactor) {
    LadderReplyTo(reactor, response)(ladders_->Get(request->name()));
  });
}

grpc::ServerUnaryReactor* RefereeServiceImpl::ListLadders(
    grpc::CallbackServerContext* context,
    const v1::ListLaddersRequest* /*request*/,
    v1::ListLaddersResponse* response) {
  return AsOrganiser(*registry_, context, [&](auto* reactor) {
    for (const LadderInfo& info : ladders_->List()) {
      LadderInfoToProto(info, response->add_ladders());
    }
    reactor->Finish(grpc::Status::OK);
  });
}

grpc::ServerUnaryReactor* RefereeServiceImpl::PauseLadder(
    grpc::CallbackServerContext* context, const v1::PauseLadderRequest* request,
    v1::PauseLadderResponse* response) {
  return AsOrganiser(*registry_, context, [&](auto* reactor) {
    if (ReasonRefused(request->reason(), reactor)) return;
    ladders_->Pause(request->name(), request->reason(),
                    LadderReplyTo(reactor, response));
  });
}

grpc::ServerUnaryReactor* RefereeServiceImpl::ResumeLadder(
    grpc::CallbackServerContext* context,
    const v1::ResumeLadderRequest* request,
    v1::ResumeLadderResponse* response) {
  return AsOrganiser(*registry_, context, [&](auto* reactor) {
    ladders_->Resume(request->name(), LadderReplyTo(reactor, response));
  });
}

grpc::ServerUnaryReactor* RefereeServiceImpl::CloseLadder(
    grpc::CallbackServerContext* context, const v1::CloseLadderRequest* request,
    v1::CloseLadderResponse* response) {
  return AsOrganiser(*registry_, context, [&](auto* reactor) {
    if (ReasonRefused(request->reason(), reactor)) return;
    ladders_->Close(request->name(), request->reason(),
                    LadderReplyTo(reactor, response));
  });
}

// Anyone may read a leaderboard: it is public, like the records it is
// computed from. (From memory: no database read.)
grpc::ServerUnaryReactor* RefereeServiceImpl::GetLeaderboard(
    grpc::CallbackServerContext* context,
    const v1::GetLeaderboardRequest* request,
    v1::GetLeaderboardResponse* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  absl::StatusOr<LeaderboardPage> page =
      ladders_->Leaderboard(LeaderboardQueryOf(*request));
  if (page.ok()) LeaderboardPageToProto(*page, response);
  reactor->Finish(ToGrpc(page.status()));
  return reactor;
}

grpc::ServerWriteReactor<v1::WatchGameResponse>* RefereeServiceImpl::WatchGame(
    grpc::CallbackServerContext* context, const v1::WatchGameRequest* request) {
  return new WatchReactor(registry_, *request);
}

}  // namespace cassino::service
