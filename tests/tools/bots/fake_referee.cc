#include "tests/tools/bots/fake_referee.h"

#include <chrono>

#include "absl/strings/str_cat.h"
#include "tools/bots/client/turn_view.h"

namespace cassino::bots::testing {
namespace {

Seed SeedOf(uint8_t byte) {
  Seed s{};
  s.fill(byte);
  return s;
}

}  // namespace

FakeReferee::FakeReferee(FakeOptions options)
    : options_(options),
      game_(*Game::Create(RuleSet::Standard(),
                          DeckSource::FromSeed(SeedOf(options.seed_byte)))) {
  grpc::ServerBuilder builder;
  builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(),
                           &port_);
  builder.RegisterService(this);
  server_ = builder.BuildAndStart();
}

FakeReferee::~FakeReferee() {
  server_->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(2));
}

bool FakeReferee::WaitOver(int seconds) {
  std::unique_lock<std::mutex> lock(mu_);
  return cv_.wait_for(lock, std::chrono::seconds(seconds),
                      [&] { return game_.over(); });
}

Game FakeReferee::game() {
  std::lock_guard<std::mutex> lock(mu_);
  return game_;
}

int FakeReferee::SeatOf(grpc::ServerContext* ctx) const {
  const auto& md = ctx->client_metadata();
  auto it = md.find("authorization");
  if (it == md.end()) return -1;
  const std::string value(it->second.data(), it->second.size());
  for (int s = 0; s < 2; ++s) {
    if (value == absl::StrCat("Bearer ", kTokens[s])) return s;
  }
  return -1;
}

v1::GameStarted FakeReferee::Started(int seat) const {
  v1::GameStarted g;
  g.set_game_id(kGameId);
  g.set_seat(seat);
  g.set_rules(RuleSet::Standard().ToString());
  g.add_bots("seat0");
  g.add_bots("seat1");
  return g;
}

v1::YourTurn FakeReferee::TurnFor(int seat) const {
  v1::YourTurn t;
  t.set_turn(game_.turn());
  convert::ToProto(Observe(game_, seat), t.mutable_observation());
  for (const Move& m : game_.LegalMoves()) {
    convert::ToProto(m, t.add_legal_moves());
  }
  t.set_time_left_ms(5000);
  t.set_illegal_left(3);
  return t;
}

v1::GameEnded FakeReferee::Ended() const {
  v1::GameEnded e;
  convert::ToProto(*game_.result(), e.mutable_result());
  return e;
}

grpc::StatusCode FakeReferee::Submit(int seat, int turn, const v1::Move& move,
                                     v1::MoveVerdict* verdict) {
  std::lock_guard<std::mutex> lock(mu_);
  verdict->set_turn(turn);
  *verdict->mutable_move() = move;
  verdict->set_illegal_left(3);
  grpc::StatusCode code = grpc::StatusCode::OK;
  std::string reason;
  absl::StatusOr<Move> parsed = convert::FromProto(move);
  if (game_.over() || game_.to_move() != seat) {
    code = grpc::StatusCode::FAILED_PRECONDITION;
    reason = "not your turn";
  } else if (turn != game_.turn()) {
    code = grpc::StatusCode::ABORTED;
    reason = "stale turn";
  } else if (!parsed.ok()) {
    code = grpc::StatusCode::INVALID_ARGUMENT;
    reason = std::string(parsed.status().message());
  } else if (turn == options_.reject_turn && !rejected_once_) {
    rejected_once_ = true;
    code = grpc::StatusCode::INVALID_ARGUMENT;
    reason = "injected rejection";
  } else if (absl::Status s = game_.Validate(*parsed); !s.ok()) {
    code = grpc::StatusCode::INVALID_ARGUMENT;
    reason = std::string(s.message());
  }
  verdict->set_code(std::string(convert::StatusCodeName(code)));
  if (code != grpc::StatusCode::OK) {
    verdict->set_reason(reason);
    return code;
  }
  game_.PlayUnchecked(*parsed);
  verdict->set_accepted(true);
  convert::ToProto(*parsed, verdict->mutable_move());
  cv_.notify_all();
  return code;
}

grpc::Status FakeReferee::Play(
    grpc::ServerContext* ctx,
    grpc::ServerReaderWriter<v1::PlayResponse, v1::PlayRequest>* stream) {
  const int seat = SeatOf(ctx);
  if (seat < 0) return {grpc::StatusCode::UNAUTHENTICATED, "bad token"};
  v1::PlayResponse started;
  *started.mutable_game_started() = Started(seat);
  stream->Write(started);
  while (true) {
    v1::PlayResponse out;
    {
      std::unique_lock<std::mutex> lock(mu_);
      while (!game_.over() && game_.to_move() != seat) {
        if (ctx->IsCancelled()) return grpc::Status::CANCELLED;
        cv_.wait_for(lock, std::chrono::milliseconds(50));
      }
      if (game_.over()) {
        *out.mutable_game_ended() = Ended();
        lock.unlock();
        stream->Write(out);
        return grpc::Status::OK;
      }
      if (game_.turn() >= options_.drop_turn && options_.drop_turn >= 0 &&
          !dropped_once_) {
        dropped_once_ = true;
        return {grpc::StatusCode::UNAVAILABLE, "injected drop"};
      }
      *out.mutable_your_turn() = TurnFor(seat);
    }
    stream->Write(out);
    // Answers until one is accepted or a resync is asked for.
    while (true) {
      v1::PlayRequest req;
      if (!stream->Read(&req)) return grpc::Status::OK;
      if (!req.has_move()) {
        stream->Write(started);
        break;  // YourTurn is sent again above
      }
      v1::PlayResponse verdict;
      const grpc::StatusCode code =
          Submit(seat, req.turn(), req.move(), verdict.mutable_verdict());
      stream->Write(verdict);
      if (code == grpc::StatusCode::OK) break;
    }
  }
}

grpc::Status FakeReferee::GetTurn(grpc::ServerContext* ctx,
                                  const v1::GetTurnRequest* req,
                                  v1::GetTurnResponse* resp) {
  const int seat = SeatOf(ctx);
  if (seat < 0) return {grpc::StatusCode::UNAUTHENTICATED, "bad token"};
  if (req->game_id() != kGameId) {
    return {grpc::StatusCode::PERMISSION_DENIED, "another game"};
  }
  std::unique_lock<std::mutex> lock(mu_);
  if (req->wait()) {
    while (!game_.over() && game_.to_move() != seat) {
      if (ctx->IsCancelled()) return grpc::Status::CANCELLED;
      cv_.wait_for(lock, std::chrono::milliseconds(50));
    }
  }
  *resp->mutable_game() = Started(seat);
  convert::ToProto(Observe(game_, seat), resp->mutable_observation());
  if (game_.over()) {
    resp->set_status(v1::GAME_STATUS_FINISHED);
    *resp->mutable_ended() = Ended();
    return grpc::Status::OK;
  }
  resp->set_status(v1::GAME_STATUS_RUNNING);
  if (game_.to_move() == seat) {
    resp->set_your_turn(true);
    *resp->mutable_turn() = TurnFor(seat);
  }
  return grpc::Status::OK;
}

grpc::Status FakeReferee::SubmitMove(grpc::ServerContext* ctx,
                                     const v1::SubmitMoveRequest* req,
                                     v1::SubmitMoveResponse* resp) {
  const int seat = SeatOf(ctx);
  if (seat < 0) return {grpc::StatusCode::UNAUTHENTICATED, "bad token"};
  if (req->game_id() != kGameId) {
    return {grpc::StatusCode::PERMISSION_DENIED, "another game"};
  }
  v1::MoveVerdict verdict;
  const grpc::StatusCode code =
      Submit(seat, req->turn(), req->move(), &verdict);
  if (code != grpc::StatusCode::OK) return {code, verdict.reason()};
  std::lock_guard<std::mutex> lock(mu_);
  *resp->mutable_verdict() = verdict;
  resp->set_next_to_move(game_.over() ? -1 : game_.to_move());
  resp->set_status(game_.over() ? v1::GAME_STATUS_FINISHED
                                : v1::GAME_STATUS_RUNNING);
  return grpc::Status::OK;
}

}  // namespace cassino::bots::testing
