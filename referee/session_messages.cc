#include "referee/session_messages.h"

#include <utility>

#include "absl/strings/match.h"
#include "proto/convert.h"
#include "referee/errors.h"
#include "referee/grpc_status.h"
#include "referee/wall_clock.h"
#include "rules/observation.h"

namespace cassino::service {

using convert::StatusCodeName;
using convert::ToProto;

v1::GameStatus StatusOf(const Game& game) {
  if (!game.over()) return v1::GAME_STATUS_RUNNING;
  return game.result()->reason == GameEndReason::kAborted
             ? v1::GAME_STATUS_ABORTED
             : v1::GAME_STATUS_FINISHED;
}

v1::WatchGameResponse DealInfoEvent(const Game& game) {
  v1::WatchGameResponse e;
  v1::DealInfo* d = e.mutable_deal();
  d->set_round(game.round());
  d->set_deal(game.deal());
  ToProto(game.position().table, d->mutable_table());
  d->set_stock_size(game.stock_size());
  if (game.deal() == 1 && !game.initial_capture().cards.empty()) {
    ToProto(game.initial_capture(), d->mutable_initial_capture());
  }
  return e;
}

std::vector<v1::WatchGameResponse> PublicHistory(const Game& game) {
  std::vector<v1::WatchGameResponse> out;
  absl::StatusOr<Game> replay = Game::Create(game.rules(), game.decks());
  if (!replay.ok()) return out;  // (it was created from these once)
  Game& g = *replay;
  out.push_back(DealInfoEvent(g));
  for (const PlayedMove& m : game.history()) {
    const size_t rounds_before = g.rounds().size();
    const int round_before = g.round();
    const int deal_before = g.deal();
    g.PlayUnchecked(m.move);
    v1::WatchGameResponse played;
    ToProto(m, convert::kSpectator, played.mutable_move_played());
    out.push_back(std::move(played));
    for (size_t r = rounds_before; r < g.rounds().size(); ++r) {
      v1::WatchGameResponse e;
      ToProto(g.rounds()[r], e.mutable_round_ended());
      out.push_back(std::move(e));
    }
    if (!g.over() && (g.round() != round_before || g.deal() != deal_before)) {
      out.push_back(DealInfoEvent(g));
    }
  }
  // Rounds scored after the last move (a forfeit ends the round too).
  for (size_t r = g.rounds().size(); r < game.rounds().size(); ++r) {
    v1::WatchGameResponse e;
    ToProto(game.rounds()[r], e.mutable_round_ended());
    out.push_back(std::move(e));
  }
  return out;
}

int NextToMove(const Game& game) { return game.over() ? -1 : game.to_move(); }

v1::SubmitMoveResponse Answer(const Game& game, int turn, v1::Move move,
                              absl::StatusCode code, std::string reason,
                              int illegal_left, int next_to_move) {
  v1::SubmitMoveResponse r;
  v1::MoveVerdict* v = r.mutable_verdict();
  v->set_turn(turn);
  v->set_accepted(code == absl::StatusCode::kOk);
  *v->mutable_move() = std::move(move);
  v->set_reason(std::move(reason));
  v->set_code(std::string(StatusCodeName(static_cast<grpc::StatusCode>(code))));
  v->set_illegal_left(illegal_left);
  r.set_next_to_move(next_to_move);
  r.set_status(StatusOf(game));
  return r;
}

v1::SubmitMoveResponse UnrecordedAnswer(int turn, v1::Move move,
                                        const absl::Status& why, int to_move) {
  v1::SubmitMoveResponse r;
  v1::MoveVerdict* v = r.mutable_verdict();
  v->set_turn(turn);
  v->set_accepted(false);
  *v->mutable_move() = std::move(move);
  v->set_reason(absl::StrCat("not recorded, so not played: ", why.message()));
  v->set_code(std::string(StatusCodeName(grpc::StatusCode::UNAVAILABLE)));
  v->set_error_reason(std::string(ReasonName(Reason::kRecordUnavailable)));
  r.set_next_to_move(to_move);
  r.set_status(v1::GAME_STATUS_RUNNING);
  return r;
}

void SetDrawn(const PlayedMove& played, int seat, v1::MoveVerdict* verdict) {
  if (played.drawn.valid() && SeesDrawnCard(played, seat)) {
    verdict->set_drawn(played.drawn.ToString());
  }
}

v1::Move MoveProto(const Move& move) {
  v1::Move out;
  ToProto(move, &out);
  return out;
}

std::string MoveField(absl::string_view message) {
  if (!absl::StartsWith(message, "move.")) return "move";
  return std::string(message.substr(0, message.find_first_of(" :")));
}

void ClockToProto(const recorder::TimeControl& clock, v1::Clock* out) {
  out->set_per_move_ms(clock.per_move_ms);
  out->set_bank_ms(clock.bank_ms);
  out->set_max_illegal(clock.max_illegal);
}

std::vector<std::shared_ptr<const v1::WatchGameResponse>> RecordEvents(
    const recorder::GameRecord& record) {
  std::vector<std::shared_ptr<const v1::WatchGameResponse>> out;
  out.reserve(record.events.size());
  for (const recorder::Event& ev : record.events) {
    auto e = std::make_shared<v1::WatchGameResponse>();
    v1::RecordEvent* re = e->mutable_record();
    re->set_seq(ev.seq);
    re->set_kind(std::string(recorder::EventKindName(ev.kind)));
    re->set_at_unix_us(ev.at_us);
    re->set_payload(ev.payload);
    re->set_hash(ev.hash);
    out.push_back(std::move(e));
  }
  return out;
}

v1::GameStatus ProtoStatus(recorder::GameStatus s) {
  switch (s) {
    case recorder::GameStatus::kRunning:
      return v1::GAME_STATUS_RUNNING;
    case recorder::GameStatus::kFinished:
      return v1::GAME_STATUS_FINISHED;
    case recorder::GameStatus::kAborted:
      return v1::GAME_STATUS_ABORTED;
  }
  return v1::GAME_STATUS_UNSPECIFIED;
}

void InfoToProto(const GameInfo& info, v1::GameInfo* out) {
  out->set_game_id(info.game_id);
  out->set_label(info.label);
  out->set_rules(info.rules);
  for (const std::string& b : info.bots) out->add_bots(b);
  for (const std::string& a : info.accounts) out->add_accounts(a);
  out->set_status(ProtoStatus(info.status));
  out->set_turn(info.turn);
  out->set_round(info.round);
  out->set_to_move(info.to_move);
  for (int t : info.totals) out->add_totals(t);
  if (info.outcome) {
    v1::GameResult* r = out->mutable_result();
    r->set_winner(info.outcome->winner);
    r->set_reason(info.outcome->reason);
    for (int t : info.outcome->totals) r->add_totals(t);
    r->set_forfeiting_seat(info.outcome->forfeiting_seat);
    r->set_detail(info.outcome->detail);
  }
  out->set_seed_commitment(info.seed_commitment);
  out->set_seed(info.seed);
  out->set_created_unix_ms(info.created_us / 1000);
  if (info.clock) ClockToProto(*info.clock, out->mutable_clock());
}

}  // namespace cassino::service
