#include "proto/convert.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"

namespace cassino::convert {

v1::MoveKind KindToProto(MoveKind kind) {
  switch (kind) {
    case MoveKind::kTrail:
      return v1::MOVE_KIND_TRAIL;
    case MoveKind::kCapture:
      return v1::MOVE_KIND_CAPTURE;
    case MoveKind::kBuild:
      return v1::MOVE_KIND_BUILD;
    case MoveKind::kCallOut:
      return v1::MOVE_KIND_CALL_OUT;
  }
  return v1::MOVE_KIND_UNSPECIFIED;
}

absl::string_view StatusCodeName(grpc::StatusCode code) {
  switch (code) {
    case grpc::StatusCode::OK:
      return "OK";
    case grpc::StatusCode::CANCELLED:
      return "CANCELLED";
    case grpc::StatusCode::UNKNOWN:
      return "UNKNOWN";
    case grpc::StatusCode::INVALID_ARGUMENT:
      return "INVALID_ARGUMENT";
    case grpc::StatusCode::DEADLINE_EXCEEDED:
      return "DEADLINE_EXCEEDED";
    case grpc::StatusCode::NOT_FOUND:
      return "NOT_FOUND";
    case grpc::StatusCode::ALREADY_EXISTS:
      return "ALREADY_EXISTS";
    case grpc::StatusCode::PERMISSION_DENIED:
      return "PERMISSION_DENIED";
    case grpc::StatusCode::RESOURCE_EXHAUSTED:
      return "RESOURCE_EXHAUSTED";
    case grpc::StatusCode::FAILED_PRECONDITION:
      return "FAILED_PRECONDITION";
    case grpc::StatusCode::ABORTED:
      return "ABORTED";
    case grpc::StatusCode::OUT_OF_RANGE:
      return "OUT_OF_RANGE";
    case grpc::StatusCode::UNIMPLEMENTED:
      return "UNIMPLEMENTED";
    case grpc::StatusCode::INTERNAL:
      return "INTERNAL";
    case grpc::StatusCode::UNAVAILABLE:
      return "UNAVAILABLE";
    case grpc::StatusCode::DATA_LOSS:
      return "DATA_LOSS";
    case grpc::StatusCode::UNAUTHENTICATED:
      return "UNAUTHENTICATED";
    default:
      return "UNKNOWN";
  }
}

absl::StatusOr<CardSet> CardsFromProto(
    const google::protobuf::RepeatedPtrField<std::string>& cards) {
  CardSet set;
  for (const std::string& text : cards) {
    absl::StatusOr<Card> c = Card::Parse(text);
    if (!c.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "card \"", text.substr(0, 8), "\": ", c.status().message()));
    }
    if (set.contains(*c)) {
      return absl::InvalidArgumentError(absl::StrCat(text, " is listed twice"));
    }
    set.insert(*c);
  }
  return set;
}

void CardsToProto(CardSet cards,
                  google::protobuf::RepeatedPtrField<std::string>* out) {
  out->Reserve(out->size() + cards.size());
  for (Card c : cards) out->Add(c.ToString());
}

void ToProto(const Move& move, v1::Move* out) {
  ToProto(move, move.ToString(), out);
}

void ToProto(const Move& move, std::string notation, v1::Move* out) {
  out->set_kind(KindToProto(move.kind));
  if (move.kind != MoveKind::kCallOut) out->set_card(move.card.ToString());
  out->set_value(move.value);
  CardsToProto(move.table, out->mutable_table_cards());
  out->set_notation(std::move(notation));
  if (move.second.valid()) out->set_second_card(move.second.ToString());
  out->set_declared_value(move.declared);
  if (move.has_pluck()) {
    out->set_pluck_card(move.pluck.ToString());
    out->set_pluck_after(move.pluck_after);
  }
}

void ToProto(const Table& table, v1::Table* out) {
  CardsToProto(table.loose, out->mutable_loose());
  for (const Build& b : table.builds) {
    v1::Build* pb = out->add_builds();
    CardsToProto(b.cards, pb->mutable_cards());
    pb->set_value(b.value);
    pb->set_controller(b.controller);
    pb->set_multiple(b.multiple);
  }
}

void ToProto(const PlayedMove& move, int viewer, v1::PlayedMove* out) {
  out->set_turn(move.turn);
  out->set_round(move.round);
  out->set_deal(move.deal);
  out->set_seat(move.seat);
  ToProto(move.move, out->mutable_move());
  CardsToProto(move.outcome.captured, out->mutable_captured());
  out->set_sweep(move.outcome.sweep);
  out->set_penalty(move.outcome.penalty);
  if (move.outcome.plucked.valid()) {
    out->set_plucked(move.outcome.plucked.ToString());
  }
  out->set_immediate_points(move.immediate_points);
  out->set_drew(move.drew);
  if (move.drawn.valid() && SeesDrawnCard(move, viewer)) {
    out->set_drawn(move.drawn.ToString());
  }
}

void ToProto(const InitialCapture& capture, v1::InitialCapture* out) {
  CardsToProto(capture.cards, out->mutable_cards());
  out->set_side(capture.side);
  out->set_sweep(capture.sweep);
}

void ToProto(const RoundResult& round, v1::RoundResult* out) {
  out->set_round(round.round);
  out->set_dealer(round.dealer);
  CardsToProto(round.leftovers, out->mutable_leftovers());
  out->set_leftover_side(round.leftover_side);
  for (const ScoreItem& item : round.score.items) {
    v1::ScoreItem* pi = out->add_items();
    pi->set_kind(std::string(ScoreItemName(item.kind)));
    pi->set_side(item.side);
    pi->set_points(item.points);
    if (ScoreItemHasCard(item.kind)) pi->set_card(item.card.ToString());
  }
  for (const SideTally& s : round.score.sides) {
    v1::SideTally* ps = out->add_sides();
    ps->set_cards(s.cards);
    ps->set_spades(s.spades);
    ps->set_big_cassino(s.big_cassino);
    ps->set_little_cassino(s.little_cassino);
    ps->set_aces(s.aces);
    ps->set_sweeps(s.sweeps);
    ps->set_points(s.points);
  }
  for (int t : round.totals_before) out->add_totals_before(t);
  for (int t : round.totals_after) out->add_totals_after(t);
  if (!round.initial_capture.cards.empty()) {
    ToProto(round.initial_capture, out->mutable_initial_capture());
  }
}

void ToProto(const GameResult& result, v1::GameResult* out) {
  out->set_winner(result.winner);
  out->set_reason(std::string(GameEndReasonName(result.reason)));
  for (int t : result.totals) out->add_totals(t);
  out->set_forfeiting_seat(result.forfeiting_seat);
  out->set_detail(result.detail);
}

void ToProto(const Observation& obs, v1::Observation* out) {
  ToProto(obs, obs.rules.ToString(), out);
}

void ToProto(const Observation& obs, absl::string_view rules_text,
             v1::Observation* out) {
  out->set_seat(obs.seat);
  out->set_rules(rules_text.data(), rules_text.size());
  out->set_round(obs.round);
  out->set_deal(obs.deal);
  out->set_dealer(obs.dealer);
  out->set_to_move(obs.to_move);
  out->set_turn(obs.turn);
  CardsToProto(obs.hand, out->mutable_hand());
  ToProto(obs.table, out->mutable_table());
  for (int n : obs.hand_sizes) out->add_hand_sizes(n);
  out->set_stock_size(obs.stock_size);
  for (size_t s = 0; s < obs.sides.size(); ++s) {
    v1::SidePublic* ps = out->add_sides();
    ps->set_side(static_cast<int>(s));
    ps->set_captured(obs.sides[s].captured);
    ps->set_spades(obs.sides[s].spades);
    ps->set_sweeps(obs.sides[s].sweeps);
    ps->set_total(obs.sides[s].total);
  }
  out->mutable_round_history()->Reserve(static_cast<int>(obs.history.size()));
  for (const PlayedMove& m : obs.history) {
    ToProto(m, obs.seat, out->add_round_history());
  }
  for (const RoundResult& r : obs.rounds) ToProto(r, out->add_rounds());
  if (!obs.initial_capture.cards.empty()) {
    ToProto(obs.initial_capture, out->mutable_initial_capture());
  }
  if (obs.rules.pluck) {
    for (int s = 0; s < obs.rules.players; ++s) {
      out->add_plucked((obs.plucked >> s & 1) != 0);
    }
  }
}

Submission SubmissionOf(const v1::Move& move) {
  // Each field cut one unit past its limit as it is copied (what
  // ClipSubmission does to a Submission): a huge field is never copied
  // whole, and Interpret refuses the cut one as the whole.
  auto cut = [](const std::string& s, size_t limit) {
    return s.substr(0, limit + 1);
  };
  Submission s;
  s.notation = cut(move.notation(), kMaxNotation);
  s.kind = move.kind();
  s.card = cut(move.card(), kMaxCardField);
  s.value = move.value();
  const int n =
      std::min(move.table_cards_size(), static_cast<int>(kMaxTableCards) + 1);
  s.table_cards.reserve(n);
  for (int i = 0; i < n; ++i) {
    s.table_cards.push_back(cut(move.table_cards(i), kMaxCardField));
  }
  s.second_card = cut(move.second_card(), kMaxCardField);
  s.declared_value = move.declared_value();
  s.pluck_card = cut(move.pluck_card(), kMaxCardField);
  s.pluck_after = move.pluck_after();
  return s;
}

absl::StatusOr<Move> FromProto(const v1::Move& move) {
  // (Sizes first: a huge list is not copied.)
  if (move.table_cards_size() > static_cast<int>(kMaxTableCards)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "move.table_cards lists more than ", kMaxTableCards, " cards"));
  }
  return Interpret(SubmissionOf(move));
}

}  // namespace cassino::convert
