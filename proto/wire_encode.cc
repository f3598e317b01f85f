#include "proto/wire_encode.h"

#include <algorithm>
#include <array>

#include "absl/types/span.h"
#include "cassino/v1/game.pb.h"
#include "proto/convert.h"
#include "rules/scoring.h"

namespace cassino::convert {

void WireWriter::Cards(int field, CardSet cards) {
  for (Card c : cards) String(field, c.ToString());
}

void WireWriter::PatchLength(size_t at) {
  const size_t length = out_->size() - at - 1;
  if (length < 0x80) {
    (*out_)[at] = static_cast<char>(length);
    return;
  }
  char bytes[kMaxVarint];
  out_->replace(at, 1, bytes, PutVarint(bytes, length) - bytes);
}

// Each function below writes its message's fields in field-number order,
// with ToProto's conditions (convert.cc), each beside the same setter.

void AppendMove(const Move& move, absl::string_view notation, WireWriter& w) {
  using M = v1::Move;
  w.Int(M::kKindFieldNumber, KindToProto(move.kind));
  if (move.kind != MoveKind::kCallOut) {
    w.String(M::kCardFieldNumber, move.card.ToString());
  }
  w.Int(M::kValueFieldNumber, move.value);
  w.Cards(M::kTableCardsFieldNumber, move.table);
  w.String(M::kNotationFieldNumber, notation);
  if (move.second.valid()) {
    w.String(M::kSecondCardFieldNumber, move.second.ToString());
  }
  w.Int(M::kDeclaredValueFieldNumber, move.declared);
  if (move.has_pluck()) {
    w.String(M::kPluckCardFieldNumber, move.pluck.ToString());
    w.Bool(M::kPluckAfterFieldNumber, move.pluck_after);
  }
}

void AppendTable(const Table& table, WireWriter& w) {
  using T = v1::Table;
  using B = v1::Build;
  w.Cards(T::kLooseFieldNumber, table.loose);
  for (const Build& b : table.builds) {
    w.Message(T::kBuildsFieldNumber, [&] {
      w.Cards(B::kCardsFieldNumber, b.cards);
      w.Int(B::kValueFieldNumber, b.value);
      w.Int(B::kControllerFieldNumber, b.controller);
      w.Bool(B::kMultipleFieldNumber, b.multiple);
    });
  }
}

void AppendPlayedMove(const PlayedMove& move, int viewer, WireWriter& w) {
  using P = v1::PlayedMove;
  w.Int(P::kTurnFieldNumber, move.turn);
  w.Int(P::kRoundFieldNumber, move.round);
  w.Int(P::kDealFieldNumber, move.deal);
  w.Int(P::kSeatFieldNumber, move.seat);
  w.Message(P::kMoveFieldNumber,
            [&] { AppendMove(move.move, move.move.ToString(), w); });
  w.Cards(P::kCapturedFieldNumber, move.outcome.captured);
  w.Bool(P::kSweepFieldNumber, move.outcome.sweep);
  w.Int(P::kPenaltyFieldNumber, move.outcome.penalty);
  if (move.outcome.plucked.valid()) {
    w.String(P::kPluckedFieldNumber, move.outcome.plucked.ToString());
  }
  w.Int(P::kImmediatePointsFieldNumber, move.immediate_points);
  w.Bool(P::kDrewFieldNumber, move.drew);
  if (move.drawn.valid() && SeesDrawnCard(move, viewer)) {
    w.String(P::kDrawnFieldNumber, move.drawn.ToString());
  }
}

void AppendInitialCapture(const InitialCapture& capture, WireWriter& w) {
  using I = v1::InitialCapture;
  w.Cards(I::kCardsFieldNumber, capture.cards);
  w.Int(I::kSideFieldNumber, capture.side);
  w.Bool(I::kSweepFieldNumber, capture.sweep);
}

void AppendRoundResult(const RoundResult& round, WireWriter& w) {
  using R = v1::RoundResult;
  using I = v1::ScoreItem;
  using S = v1::SideTally;
  w.Int(R::kRoundFieldNumber, round.round);
  w.Int(R::kDealerFieldNumber, round.dealer);
  w.Cards(R::kLeftoversFieldNumber, round.leftovers);
  w.Int(R::kLeftoverSideFieldNumber, round.leftover_side);
  for (const ScoreItem& item : round.score.items) {
    w.Message(R::kItemsFieldNumber, [&] {
      w.String(I::kKindFieldNumber, ScoreItemName(item.kind));
      w.Int(I::kSideFieldNumber, item.side);
      w.Int(I::kPointsFieldNumber, item.points);
      if (ScoreItemHasCard(item.kind)) {
        w.String(I::kCardFieldNumber, item.card.ToString());
      }
    });
  }
  for (const SideTally& s : round.score.sides) {
    w.Message(R::kSidesFieldNumber, [&] {
      w.Int(S::kCardsFieldNumber, s.cards);
      w.Int(S::kSpadesFieldNumber, s.spades);
      w.Bool(S::kBigCassinoFieldNumber, s.big_cassino);
      w.Bool(S::kLittleCassinoFieldNumber, s.little_cassino);
      w.Int(S::kAcesFieldNumber, s.aces);
      w.Int(S::kSweepsFieldNumber, s.sweeps);
      w.Int(S::kPointsFieldNumber, s.points);
    });
  }
  w.PackedInts(R::kTotalsBeforeFieldNumber, round.totals_before);
  w.PackedInts(R::kTotalsAfterFieldNumber, round.totals_after);
  if (!round.initial_capture.cards.empty()) {
    w.Message(R::kInitialCaptureFieldNumber,
              [&] { AppendInitialCapture(round.initial_capture, w); });
  }
}

void AppendObservation(const Observation& obs, absl::string_view rules_text,
                       WireWriter& w) {
  using O = v1::Observation;
  using S = v1::SidePublic;
  w.Int(O::kSeatFieldNumber, obs.seat);
  w.String(O::kRulesFieldNumber, rules_text);
  w.Int(O::kRoundFieldNumber, obs.round);
  w.Int(O::kDealFieldNumber, obs.deal);
  w.Int(O::kDealerFieldNumber, obs.dealer);
  w.Int(O::kToMoveFieldNumber, obs.to_move);
  w.Int(O::kTurnFieldNumber, obs.turn);
  w.Cards(O::kHandFieldNumber, obs.hand);
  w.Message(O::kTableFieldNumber, [&] { AppendTable(obs.table, w); });
  w.PackedInts(O::kHandSizesFieldNumber, obs.hand_sizes);
  w.Int(O::kStockSizeFieldNumber, obs.stock_size);
  for (size_t s = 0; s < obs.sides.size(); ++s) {
    w.Message(O::kSidesFieldNumber, [&] {
      w.Int(S::kSideFieldNumber, static_cast<int>(s));
      w.Int(S::kCapturedFieldNumber, obs.sides[s].captured);
      w.Int(S::kSpadesFieldNumber, obs.sides[s].spades);
      w.Int(S::kSweepsFieldNumber, obs.sides[s].sweeps);
      w.Int(S::kTotalFieldNumber, obs.sides[s].total);
    });
  }
  for (const PlayedMove& m : obs.history) {
    w.Message(O::kRoundHistoryFieldNumber,
              [&] { AppendPlayedMove(m, obs.seat, w); });
  }
  for (const RoundResult& r : obs.rounds) {
    w.Message(O::kRoundsFieldNumber, [&] { AppendRoundResult(r, w); });
  }
  if (!obs.initial_capture.cards.empty()) {
    w.Message(O::kInitialCaptureFieldNumber,
              [&] { AppendInitialCapture(obs.initial_capture, w); });
  }
  if (obs.rules.pluck) {
    std::array<bool, 32> plucked{};  // (a bit a seat: at most 32)
    const int players = std::min(obs.rules.players, 32);
    for (int s = 0; s < players; ++s) plucked[s] = (obs.plucked >> s & 1) != 0;
    w.PackedInts(O::kPluckedFieldNumber,
                 absl::MakeConstSpan(plucked.data(), players));
  }
}

}  // namespace cassino::convert
