#include "referee/session_messages.h"

#include <memory>
#include <string>
#include <utility>

#include "google/protobuf/arena.h"
#include "proto/convert.h"
#include "proto/wire_encode.h"

namespace cassino::service {
namespace {

using convert::ToProto;

void Fill(const GameStartedEvent& e, v1::GameStarted* m) {
  m->set_game_id(e.game_id);
  m->set_seat(e.seat);
  m->set_rules(e.rules);
  for (const std::string& b : e.bots) m->add_bots(b);
  m->set_seed_commitment(e.seed_commitment);
  ClockToProto(e.clock, m->mutable_clock());
  m->set_label(e.label);
}

}  // namespace

void GameStartedToProto(const GameStartedEvent& e, v1::GameStarted* m) {
  Fill(e, m);
}

namespace {

void Fill(const DealEvent& e, v1::DealInfo* d) {
  d->set_round(e.round);
  d->set_deal(e.deal);
  ToProto(e.table, d->mutable_table());
  d->set_stock_size(e.stock_size);
  if (e.initial_capture) {
    ToProto(*e.initial_capture, d->mutable_initial_capture());
  }
}

void Fill(const MovePlayedEvent& e, v1::PlayedMove* m) {
  ToProto(e.move, e.viewer, m);
}

void Fill(const GameEndedEvent& e, v1::GameEnded* m) {
  if (e.result) ToProto(*e.result, m->mutable_result());
  m->set_seed(e.seed);
}

// The observation, with the rules text a session made once when it has one.
void FillObservation(const Observation& o,
                     const std::shared_ptr<const std::string>& rules_text,
                     v1::Observation* out) {
  if (rules_text) {
    ToProto(o, *rules_text, out);
  } else {
    ToProto(o, out);
  }
}

void Fill(const YourTurnEvent& e, v1::YourTurn* t) {
  t->set_turn(e.turn);
  FillObservation(e.observation, e.rules_text, t->mutable_observation());
  t->mutable_legal_moves()->Reserve(static_cast<int>(e.legal_moves.size()));
  for (size_t i = 0; i < e.legal_moves.size(); ++i) {
    ToProto(e.legal_moves[i], e.legal_notations[i], t->add_legal_moves());
  }
  t->set_time_left_ms(e.time_left_ms);
  t->set_bank_left_ms(e.bank_left_ms);
  t->set_deadline_unix_ms(e.deadline_unix_ms);
  t->set_illegal_left(e.illegal_left);
  for (const PlayedMove& m : e.since_last) {
    ToProto(m, e.observation.seat, t->add_since_last());
  }
  t->set_round_history_omitted(e.round_history_omitted);
}

void Fill(const recorder::Event& ev, v1::RecordEvent* re) {
  re->set_seq(ev.seq);
  re->set_kind(std::string(recorder::EventKindName(ev.kind)));
  re->set_at_unix_us(ev.at_us);
  re->set_payload(ev.payload);
  re->set_hash(ev.hash);
}

// A submission's fields as they came (the inverse of convert::SubmissionOf).
void Fill(const Submission& s, v1::Move* m) {
  m->set_notation(s.notation);
  m->set_kind(static_cast<v1::MoveKind>(s.kind));
  m->set_card(s.card);
  m->set_value(s.value);
  for (const std::string& c : s.table_cards) m->add_table_cards(c);
  m->set_second_card(s.second_card);
  m->set_declared_value(s.declared_value);
  m->set_pluck_card(s.pluck_card);
  m->set_pluck_after(s.pluck_after);
}

void Fill(const Verdict& v, v1::MoveVerdict* m) {
  m->set_turn(v.turn);
  m->set_accepted(v.accepted);
  if (const Move* played = std::get_if<Move>(&v.move)) {
    ToProto(*played, m->mutable_move());
  } else {
    Fill(std::get<Submission>(v.move), m->mutable_move());
  }
  m->set_reason(v.reason);
  m->set_code(std::string(
      convert::StatusCodeName(static_cast<grpc::StatusCode>(v.code))));
  m->set_illegal_left(v.illegal_left);
  m->set_drawn(v.drawn);
  m->set_error_reason(v.error_reason);
}

}  // namespace

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

void ClockToProto(const recorder::TimeControl& clock, v1::Clock* out) {
  out->set_per_move_ms(clock.per_move_ms);
  out->set_bank_ms(clock.bank_ms);
  out->set_max_illegal(clock.max_illegal);
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

std::shared_ptr<const v1::PlayResponse> PlayMessage(const SeatEvent& event) {
  // On an arena the message's shared_ptr owns: the strings and sub-messages
  // are bump-allocated and freed at once.
  auto arena = std::make_shared<google::protobuf::Arena>();
  auto* p =
      google::protobuf::Arena::CreateMessage<v1::PlayResponse>(arena.get());
  std::visit(
      [p](const auto& e) {
        using E = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<E, GameStartedEvent>) {
          Fill(e, p->mutable_game_started());
        } else if constexpr (std::is_same_v<E, YourTurnEvent>) {
          Fill(e, p->mutable_your_turn());
        } else if constexpr (std::is_same_v<E, Verdict>) {
          Fill(e, p->mutable_verdict());
        } else if constexpr (std::is_same_v<E, MovePlayedEvent>) {
          Fill(e, p->mutable_move_played());
        } else if constexpr (std::is_same_v<E, RoundEndedEvent>) {
          ToProto(e.result, p->mutable_round_ended());
        } else {
          static_assert(std::is_same_v<E, GameEndedEvent>);
          Fill(e, p->mutable_game_ended());
        }
      },
      event.event);
  return std::shared_ptr<const v1::PlayResponse>(arena, p);
}

namespace {

// PlayResponse{your_turn: Fill(e)}, serialised, written without the
// messages (proto/wire_encode.h): each field as Fill(YourTurnEvent) sets
// it, in field-number order.
void AppendYourTurnResponse(const YourTurnEvent& e, std::string* out) {
  using T = v1::YourTurn;
  convert::WireWriter w(out);
  w.Message(v1::PlayResponse::kYourTurnFieldNumber, [&] {
    w.Int(T::kTurnFieldNumber, e.turn);
    w.Message(T::kObservationFieldNumber, [&] {
      if (e.rules_text) {
        convert::AppendObservation(e.observation, *e.rules_text, w);
      } else {
        convert::AppendObservation(e.observation,
                                   e.observation.rules.ToString(), w);
      }
    });
    for (size_t i = 0; i < e.legal_moves.size(); ++i) {
      w.Message(T::kLegalMovesFieldNumber, [&] {
        convert::AppendMove(e.legal_moves[i], e.legal_notations[i], w);
      });
    }
    w.Int(T::kTimeLeftMsFieldNumber, e.time_left_ms);
    w.Int(T::kBankLeftMsFieldNumber, e.bank_left_ms);
    w.Int(T::kDeadlineUnixMsFieldNumber, e.deadline_unix_ms);
    w.Int(T::kIllegalLeftFieldNumber, e.illegal_left);
    for (const PlayedMove& m : e.since_last) {
      w.Message(T::kSinceLastFieldNumber,
                [&] { convert::AppendPlayedMove(m, e.observation.seat, w); });
    }
    w.Bool(T::kRoundHistoryOmittedFieldNumber, e.round_history_omitted);
  });
}

}  // namespace

std::shared_ptr<const PlayFrame> PlayFrameOf(const SeatEvent& event) {
  return event.rendered.Get<PlayFrame>([&event] {
    auto frame = std::make_shared<PlayFrame>();
    if (const auto* turn = std::get_if<YourTurnEvent>(&event.event)) {
      // (Most turns take under 2 KB: one allocation.)
      frame->bytes.reserve(2048);
      AppendYourTurnResponse(*turn, &frame->bytes);
    } else {
      PlayMessage(event)->SerializeToString(&frame->bytes);
    }
    return std::shared_ptr<const void>(std::move(frame));
  });
}

std::shared_ptr<const v1::WatchGameResponse> WatchMessage(
    const PublicEvent& event) {
  return event.rendered.Get<v1::WatchGameResponse>([&event] {
    auto w = std::make_shared<v1::WatchGameResponse>();
    std::visit(
        [&w](const auto& e) {
          using E = std::decay_t<decltype(e)>;
          if constexpr (std::is_same_v<E, GameStartedEvent>) {
            Fill(e, w->mutable_game_started());
          } else if constexpr (std::is_same_v<E, DealEvent>) {
            Fill(e, w->mutable_deal());
          } else if constexpr (std::is_same_v<E, MovePlayedEvent>) {
            Fill(e, w->mutable_move_played());
          } else if constexpr (std::is_same_v<E, RoundEndedEvent>) {
            ToProto(e.result, w->mutable_round_ended());
          } else if constexpr (std::is_same_v<E, GameEndedEvent>) {
            Fill(e, w->mutable_game_ended());
          } else {
            static_assert(std::is_same_v<E, recorder::Event>);
            Fill(e, w->mutable_record());
          }
        },
        event.event);
    return std::shared_ptr<const void>(std::move(w));
  });
}

v1::SubmitMoveResponse VerdictResponse(const Verdict& verdict) {
  v1::SubmitMoveResponse r;
  Fill(verdict, r.mutable_verdict());
  r.set_next_to_move(verdict.next_to_move);
  r.set_status(ProtoStatus(verdict.status));
  return r;
}

v1::GetTurnResponse TurnResponseProto(const TurnView& view) {
  v1::GetTurnResponse r;
  r.set_status(ProtoStatus(view.status));
  r.set_your_turn(view.your_turn.has_value());
  if (view.your_turn) Fill(*view.your_turn, r.mutable_turn());
  FillObservation(view.observation,
                  view.your_turn ? view.your_turn->rules_text : nullptr,
                  r.mutable_observation());
  if (view.ended) Fill(*view.ended, r.mutable_ended());
  Fill(view.game, r.mutable_game());
  return r;
}

}  // namespace cassino::service
