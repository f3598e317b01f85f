#include "tools/bots/client/bot_client.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "tools/bots/client/round_history.h"

namespace cassino::bots {
namespace {

absl::Status FromGrpc(const grpc::Status& s) {
  return absl::Status(static_cast<absl::StatusCode>(s.error_code()),
                      s.error_message());
}

std::chrono::system_clock::time_point DeadlineIn(std::chrono::milliseconds ms) {
  return std::chrono::system_clock::now() + ms;
}

}  // namespace

bool IsRetryable(grpc::StatusCode code) {
  switch (code) {
    case grpc::StatusCode::UNAUTHENTICATED:
    case grpc::StatusCode::PERMISSION_DENIED:
    case grpc::StatusCode::NOT_FOUND:
    case grpc::StatusCode::INVALID_ARGUMENT:
    case grpc::StatusCode::UNIMPLEMENTED:
      return false;
    default:
      return true;
  }
}

std::string BotResult::Describe() const {
  return DescribeResult(game_id, seat, side, ended.result());
}

absl::StatusOr<std::shared_ptr<grpc::Channel>> MakeChannel(
    const BotOptions& options) {
  // gRPC's own reconnection backoff grows to minutes; a bot wants to be
  // back soon after a referee restart.
  grpc::ChannelArguments args;
  args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS,
              static_cast<int>(options.max_backoff.count()));
  if (options.tls_ca_file.empty()) {
    return grpc::CreateCustomChannel(options.address,
                                     grpc::InsecureChannelCredentials(), args);
  }
  std::ifstream in(options.tls_ca_file);
  if (!in) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot read TLS CA file ", options.tls_ca_file));
  }
  std::stringstream pem;
  pem << in.rdbuf();
  grpc::SslCredentialsOptions ssl;
  ssl.pem_root_certs = pem.str();
  return grpc::CreateCustomChannel(options.address, grpc::SslCredentials(ssl),
                                   args);
}

BotClient::BotClient(BotOptions options, Strategy* strategy)
    : options_(std::move(options)), strategy_(strategy), rng_(options_.seed) {
  absl::StatusOr<std::shared_ptr<grpc::Channel>> channel =
      MakeChannel(options_);
  if (channel.ok()) {
    channel_ = *std::move(channel);
    stub_ = v1::RefereeService::NewStub(channel_);
  } else {
    Log(std::string(channel.status().message()));
  }
}

BotClient::BotClient(std::shared_ptr<grpc::Channel> channel, BotOptions options,
                     Strategy* strategy)
    : options_(std::move(options)),
      strategy_(strategy),
      channel_(std::move(channel)),
      stub_(v1::RefereeService::NewStub(channel_)),
      rng_(options_.seed) {}

void BotClient::Log(const std::string& line) const {
  if (options_.log != nullptr) *options_.log << "[bot] " << line << std::endl;
}

void BotClient::LogPlayed(const v1::PlayedMove& m) {
  Log(absl::StrCat("seat ", m.seat(), " played ", m.move().notation(),
                   m.sweep() ? " (sweep)" : ""));
}

void BotClient::SetAuth(grpc::ClientContext* ctx) const {
  ctx->AddMetadata("authorization", "Bearer " + options_.token);
}

void BotClient::Backoff(int attempt) {
  const int shift = std::min(attempt, 16);
  const auto base = std::min<std::chrono::milliseconds::rep>(
      options_.max_backoff.count(), options_.initial_backoff.count() << shift);
  // Full jitter in [base/2, base].
  std::uniform_int_distribution<long> jitter(base / 2, std::max<long>(base, 1));
  std::this_thread::sleep_for(std::chrono::milliseconds(jitter(rng_)));
}

void BotClient::NoteGame(const v1::GameStarted& started) {
  if (!options_.game_id.empty() && started.game_id() != options_.game_id) {
    Log(absl::StrCat("warning: the token is for game ", started.game_id(),
                     ", not ", options_.game_id));
  }
  if (result_.seat < 0) {
    Log(absl::StrCat("playing game ", started.game_id(), " seat ",
                     started.seat(), " rules: ", started.rules()));
  }
  result_.game_id = started.game_id();
  result_.seat = started.seat();
  result_.rules = started.rules();
  absl::StatusOr<RuleSet> rules = RuleSet::Parse(started.rules());
  result_.side = rules.ok() ? rules->SideOf(started.seat()) : started.seat();
}

void BotClient::NoteRejected(int turn, const v1::Move& move) {
  if (turn != rejected_turn_) {
    rejected_turn_ = turn;
    rejected_.clear();
  }
  rejected_.push_back(move.notation());
}

v1::Move BotClient::ChooseMove(const v1::YourTurn& your_turn) {
  if (your_turn.turn() != rejected_turn_) {
    rejected_turn_ = your_turn.turn();
    rejected_.clear();
  }
  absl::StatusOr<TurnView> view = MakeTurnView(your_turn);
  if (!view.ok() || view->legal_moves.empty()) {
    // Cannot interpret the turn: send the referee's first move back as is.
    Log(absl::StrCat("cannot read the turn (",
                     view.ok() ? "no legal moves" : view.status().ToString(),
                     "); playing the first legal move"));
    return your_turn.legal_moves_size() > 0 ? your_turn.legal_moves(0)
                                            : v1::Move();
  }
  // Drop moves already rejected for this turn.
  std::vector<Move> allowed;
  for (const Move& m : view->legal_moves) {
    if (std::find(rejected_.begin(), rejected_.end(), m.ToString()) ==
        rejected_.end()) {
      allowed.push_back(m);
    }
  }
  if (allowed.empty()) allowed = view->legal_moves;
  view->legal_moves = allowed;
  Move chosen = strategy_->Choose(*view);
  if (std::find(allowed.begin(), allowed.end(), chosen) == allowed.end()) {
    Log(absl::StrCat("strategy ", strategy_->name(), " chose \"",
                     chosen.ToString(), "\", not a legal move; playing \"",
                     allowed.front().ToString(), "\""));
    chosen = allowed.front();
  }
  v1::Move out;
  convert::ToProto(chosen, &out);
  return out;
}

BotClient::Attempt BotClient::PlayStreamOnce(absl::Status* status) {
  grpc::ClientContext ctx;
  SetAuth(&ctx);
  ctx.AddMetadata("cassino-play-mode", options_.compact ? "compact" : "full");
  std::unique_ptr<grpc::ClientReaderWriter<v1::PlayRequest, v1::PlayResponse>>
      stream = stub_->Play(&ctx);
  int pending_turn = -1;  // submitted, verdict not yet received
  v1::Move pending_move;
  v1::YourTurn current;  // the last YourTurn
  bool has_current = false;
  bool received = false;
  RoundHistory history;
  auto submit = [&](const v1::YourTurn& turn) {
    v1::PlayRequest req;
    req.set_turn(turn.turn());
    *req.mutable_move() = ChooseMove(turn);
    pending_turn = turn.turn();
    pending_move = req.move();
    if (options_.verbose) {
      Log(absl::StrCat("turn ", turn.turn(), ": ", req.move().notation()));
    }
    stream->Write(req);  // a failure shows up as the end of Read()
  };

  v1::PlayResponse resp;
  while (stream->Read(&resp)) {
    if (!received) {
      received = true;
      retries_reset_ = true;
    }
    switch (resp.event_case()) {
      case v1::PlayResponse::kGameStarted:
        NoteGame(resp.game_started());
        break;
      case v1::PlayResponse::kYourTurn:
        if (options_.verbose) {
          for (const v1::PlayedMove& m : resp.your_turn().since_last()) {
            LogPlayed(m);
          }
        }
        // (Compact mode: the round's history put back, kept from every
        // YourTurn, a repeat's included.)
        history.Complete(resp.mutable_your_turn());
        // A repeat of the turn we answered (e.g. resent after a rejection)
        // while our next answer is in flight: the verdict decides.
        if (resp.your_turn().turn() == pending_turn) break;
        current = resp.your_turn();
        has_current = true;
        submit(current);
        break;
      case v1::PlayResponse::kVerdict: {
        const v1::MoveVerdict& v = resp.verdict();
        if (v.turn() == pending_turn) pending_turn = -1;
        if (v.accepted()) {
          ++result_.moves;
          break;
        }
        ++result_.rejected;
        Log(absl::StrCat("turn ", v.turn(), ": \"", v.move().notation(),
                         "\" rejected (", v.code(), "): ", v.reason(), "; ",
                         v.illegal_left(), " illegal submissions left"));
        if (v.code() == "INVALID_ARGUMENT" && has_current &&
            current.turn() == v.turn()) {
          NoteRejected(v.turn(), pending_move.notation().empty()
                                     ? v.move()
                                     : pending_move);
          submit(current);
        } else {
          // Stale or out of turn: ask for the current situation.
          stream->Write(v1::PlayRequest());
        }
        break;
      }
      case v1::PlayResponse::kMovePlayed:
        if (options_.verbose) LogPlayed(resp.move_played());
        break;
      case v1::PlayResponse::kRoundEnded:
        if (options_.verbose) {
          const v1::RoundResult& r = resp.round_ended();
          std::string totals;
          for (int t : r.totals_after()) absl::StrAppend(&totals, " ", t);
          Log(absl::StrCat("round ", r.round(), " ended; totals", totals));
        }
        break;
      case v1::PlayResponse::kGameEnded:
        result_.ended = resp.game_ended();
        ended_ = true;
        stream->WritesDone();
        break;
      default:
        break;
    }
  }
  grpc::Status st = stream->Finish();
  if (ended_) return Attempt::kEnded;
  if (st.ok()) {
    *status = absl::UnavailableError("the Play stream ended before GameEnded");
    return Attempt::kRetry;
  }
  *status = FromGrpc(st);
  if (st.error_code() == grpc::StatusCode::FAILED_PRECONDITION &&
      FetchEnded()) {
    return Attempt::kEnded;
  }
  return IsRetryable(st.error_code()) ? Attempt::kRetry : Attempt::kFatal;
}

bool BotClient::FetchEnded() {
  const std::string game_id =
      result_.game_id.empty() ? options_.game_id : result_.game_id;
  if (game_id.empty()) return false;
  grpc::ClientContext ctx;
  SetAuth(&ctx);
  ctx.set_deadline(DeadlineIn(options_.submit_deadline));
  v1::GetTurnRequest req;
  req.set_game_id(game_id);
  v1::GetTurnResponse resp;
  if (!stub_->GetTurn(&ctx, req, &resp).ok()) return false;
  if (resp.has_game()) NoteGame(resp.game());
  if (!resp.has_ended()) return false;
  result_.ended = resp.ended();
  ended_ = true;
  return true;
}

BotClient::Attempt BotClient::UnaryStepOnce(absl::Status* status) {
  v1::GetTurnResponse turn;
  {
    grpc::ClientContext ctx;
    SetAuth(&ctx);
    ctx.set_deadline(DeadlineIn(options_.wait_deadline));
    v1::GetTurnRequest req;
    req.set_game_id(options_.game_id);
    req.set_wait(true);
    grpc::Status st = stub_->GetTurn(&ctx, req, &turn);
    if (st.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED) {
      retries_reset_ = true;  // a long wait is not a failure
      return Attempt::kRetry;
    }
    if (!st.ok()) {
      *status = FromGrpc(st);
      return IsRetryable(st.error_code()) ? Attempt::kRetry : Attempt::kFatal;
    }
  }
  retries_reset_ = true;
  if (turn.has_game()) NoteGame(turn.game());
  if (turn.has_ended() || turn.status() == v1::GAME_STATUS_FINISHED ||
      turn.status() == v1::GAME_STATUS_ABORTED) {
    result_.ended = turn.ended();
    ended_ = true;
    return Attempt::kEnded;
  }
  if (!turn.your_turn()) {
    // wait=true should not return early; do not spin if it does.
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    *status = absl::OkStatus();
    return Attempt::kRetry;
  }

  v1::SubmitMoveRequest req;
  req.set_game_id(options_.game_id);
  req.set_turn(turn.turn().turn());
  *req.mutable_move() = ChooseMove(turn.turn());
  if (options_.verbose) {
    Log(absl::StrCat("turn ", req.turn(), ": ", req.move().notation()));
  }
  grpc::ClientContext ctx;
  SetAuth(&ctx);
  ctx.set_deadline(DeadlineIn(options_.submit_deadline));
  v1::SubmitMoveResponse resp;
  grpc::Status st = stub_->SubmitMove(&ctx, req, &resp);
  if (st.ok()) {
    ++result_.moves;
    return Attempt::kRetry;  // next GetTurn
  }
  switch (st.error_code()) {
    case grpc::StatusCode::INVALID_ARGUMENT:
      // An illegal move: remember it and ask again.
      ++result_.rejected;
      Log(absl::StrCat("turn ", req.turn(), ": \"", req.move().notation(),
                       "\" rejected: ", st.error_message()));
      NoteRejected(req.turn(), req.move());
      return Attempt::kRetry;
    case grpc::StatusCode::ABORTED:
    case grpc::StatusCode::FAILED_PRECONDITION:
      // Stale or out of turn (or the game just ended): GetTurn tells.
      ++result_.rejected;
      Log(absl::StrCat("turn ", req.turn(), ": submission refused (",
                       static_cast<int>(st.error_code()),
                       "): ", st.error_message()));
      return Attempt::kRetry;
    default:
      *status = FromGrpc(st);
      return IsRetryable(st.error_code()) ? Attempt::kRetry : Attempt::kFatal;
  }
}

absl::StatusOr<BotResult> BotClient::Run() {
  if (stub_ == nullptr) {
    return absl::InvalidArgumentError("no channel (see the log)");
  }
  if (options_.unary && options_.game_id.empty()) {
    return absl::InvalidArgumentError("unary mode needs the game id");
  }
  int failures = 0;
  while (true) {
    absl::Status status;
    retries_reset_ = false;
    const Attempt a =
        options_.unary ? UnaryStepOnce(&status) : PlayStreamOnce(&status);
    if (a == Attempt::kEnded) return result_;
    if (a == Attempt::kFatal) return status;
    if (retries_reset_) failures = 0;
    if (status.ok()) continue;  // a normal step of the unary loop
    ++result_.reconnects;
    if (++failures > options_.max_retries) {
      return absl::UnavailableError(
          absl::StrCat("giving up after ", options_.max_retries,
                       " retries; last error: ", status.ToString()));
    }
    Log(absl::StrCat("retrying (", failures, "/", options_.max_retries,
                     ") after: ", status.ToString()));
    Backoff(failures - 1);
  }
}

}  // namespace cassino::bots
