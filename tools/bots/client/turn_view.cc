#include "tools/bots/client/turn_view.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace cassino::bots {
namespace {

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

void CardsToProto(CardSet cards,
                  google::protobuf::RepeatedPtrField<std::string>* out) {
  for (Card c : cards) out->Add(c.ToString());
}

void TableToProto(const Table& table, v1::Table* out) {
  CardsToProto(table.loose, out->mutable_loose());
  for (const Build& b : table.builds) {
    v1::Build* pb = out->add_builds();
    CardsToProto(b.cards, pb->mutable_cards());
    pb->set_value(b.value);
    pb->set_controller(b.controller);
    pb->set_multiple(b.multiple);
  }
}

void PlayedMoveToProto(const PlayedMove& move, v1::PlayedMove* out) {
  out->set_turn(move.turn);
  out->set_round(move.round);
  out->set_deal(move.deal);
  out->set_seat(move.seat);
  MoveToProto(move.move, out->mutable_move());
  CardsToProto(move.outcome.captured, out->mutable_captured());
  out->set_sweep(move.outcome.sweep);
}

void RoundResultToProto(const RoundResult& round, v1::RoundResult* out) {
  out->set_round(round.round);
  out->set_dealer(round.dealer);
  CardsToProto(round.leftovers, out->mutable_leftovers());
  out->set_leftover_side(round.leftover_side);
  for (const ScoreItem& item : round.score.items) {
    v1::ScoreItem* pi = out->add_items();
    pi->set_kind(std::string(ScoreItemName(item.kind)));
    pi->set_side(item.side);
    pi->set_points(item.points);
    if (item.kind == ScoreItemKind::kAce) pi->set_card(item.card.ToString());
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
}

absl::StatusOr<Card> CardFromProto(const std::string& text) {
  absl::StatusOr<Card> card = Card::Parse(text);
  if (!card.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("bad card \"", text, "\": ", card.status().message()));
  }
  return card;
}

}  // namespace

void MoveToProto(const Move& move, v1::Move* out) {
  out->set_kind(KindToProto(move.kind));
  if (move.kind != MoveKind::kCallOut) out->set_card(move.card.ToString());
  out->set_value(move.value);
  CardsToProto(move.table, out->mutable_table_cards());
  out->set_notation(move.ToString());
}

void GameResultToProto(const GameResult& result, v1::GameResult* out) {
  out->set_winner(result.winner);
  out->set_reason(std::string(GameEndReasonName(result.reason)));
  for (int t : result.totals) out->add_totals(t);
  out->set_forfeiting_seat(result.forfeiting_seat);
  out->set_detail(result.detail);
}

void ObservationToProto(const Observation& obs, v1::Observation* out) {
  out->set_seat(obs.seat);
  out->set_rules(obs.rules.ToString());
  out->set_round(obs.round);
  out->set_deal(obs.deal);
  out->set_dealer(obs.dealer);
  out->set_to_move(obs.to_move);
  out->set_turn(obs.turn);
  CardsToProto(obs.hand, out->mutable_hand());
  TableToProto(obs.table, out->mutable_table());
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
  // As the API documents: only the current round's moves.
  for (const PlayedMove& m : obs.history) {
    if (m.round == obs.round) PlayedMoveToProto(m, out->add_round_history());
  }
  for (const RoundResult& r : obs.rounds) {
    RoundResultToProto(r, out->add_rounds());
  }
}

absl::StatusOr<CardSet> CardsFromProto(
    const google::protobuf::RepeatedPtrField<std::string>& cards) {
  CardSet set;
  for (const std::string& text : cards) {
    absl::StatusOr<Card> c = CardFromProto(text);
    if (!c.ok()) return c.status();
    if (set.contains(*c)) {
      return absl::InvalidArgumentError(absl::StrCat("card ", text, " twice"));
    }
    set.insert(*c);
  }
  return set;
}

absl::StatusOr<Move> MoveFromProto(const v1::Move& move) {
  if (!move.notation().empty()) {
    absl::StatusOr<Move> parsed = Move::Parse(move.notation());
    if (!parsed.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "bad move \"", move.notation(), "\": ", parsed.status().message()));
    }
    return parsed;
  }
  if (move.kind() == v1::MOVE_KIND_CALL_OUT) return Move::CallOut();
  absl::StatusOr<Card> card = CardFromProto(move.card());
  if (!card.ok()) return card.status();
  absl::StatusOr<CardSet> table = CardsFromProto(move.table_cards());
  if (!table.ok()) return table.status();
  switch (move.kind()) {
    case v1::MOVE_KIND_TRAIL:
      return Move::Trail(*card);
    case v1::MOVE_KIND_CAPTURE:
      return Move::Capture(*card, *table);
    case v1::MOVE_KIND_BUILD:
      return Move::Build(*card, move.value(), *table);
    default:
      return absl::InvalidArgumentError("move without kind or notation");
  }
}

absl::StatusOr<TurnView> MakeTurnView(const v1::YourTurn& your_turn) {
  TurnView view;
  const v1::Observation& obs = your_turn.observation();
  view.observation = obs;
  view.seat = obs.seat();
  view.turn = your_turn.turn();
  view.time_left_ms = your_turn.time_left_ms();

  absl::StatusOr<RuleSet> rules = RuleSet::Parse(obs.rules());
  if (!rules.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "bad rules \"", obs.rules(), "\": ", rules.status().message()));
  }
  if (view.seat < 0 || view.seat >= rules->players) {
    return absl::InvalidArgumentError(
        absl::StrCat("seat ", view.seat, " out of range"));
  }
  Position& pos = view.position;
  pos.rules = *rules;
  pos.hands.assign(rules->players, CardSet());
  pos.to_move = view.seat;
  absl::StatusOr<CardSet> hand = CardsFromProto(obs.hand());
  if (!hand.ok()) return hand.status();
  pos.hands[view.seat] = *hand;
  absl::StatusOr<CardSet> loose = CardsFromProto(obs.table().loose());
  if (!loose.ok()) return loose.status();
  pos.table.loose = *loose;
  for (const v1::Build& pb : obs.table().builds()) {
    absl::StatusOr<CardSet> cards = CardsFromProto(pb.cards());
    if (!cards.ok()) return cards.status();
    pos.table.AddBuild(
        Build{*cards, pb.value(), pb.controller(), pb.multiple()});
  }

  CardSet seen = *hand | pos.table.AllCards();
  for (const v1::PlayedMove& pm : obs.round_history()) {
    absl::StatusOr<Move> m = MoveFromProto(pm.move());
    if (!m.ok()) return m.status();
    if (m->kind != MoveKind::kCallOut) seen.insert(m->card);
    seen |= m->table;
    absl::StatusOr<CardSet> captured = CardsFromProto(pm.captured());
    if (!captured.ok()) return captured.status();
    seen |= *captured;
  }
  view.unseen = CardSet::FullDeck() - seen;

  view.legal_moves.reserve(your_turn.legal_moves_size());
  for (const v1::Move& pm : your_turn.legal_moves()) {
    absl::StatusOr<Move> m = MoveFromProto(pm);
    if (!m.ok()) return m.status();
    view.legal_moves.push_back(*m);
  }
  return view;
}

absl::StatusOr<TurnView> MakeLocalTurnView(const Game& game, int seat) {
  v1::YourTurn your_turn;
  your_turn.set_turn(game.turn());
  ObservationToProto(Observe(game, seat), your_turn.mutable_observation());
  for (const Move& m : game.LegalMoves()) {
    MoveToProto(m, your_turn.add_legal_moves());
  }
  return MakeTurnView(your_turn);
}

std::string DescribeResult(const std::string& game_id, int seat, int side,
                           const v1::GameResult& result) {
  std::string outcome = result.winner() < 0       ? "no winner"
                        : result.winner() == side ? "won"
                                                  : "lost";
  return absl::StrCat(
      "game ", game_id, " seat ", seat, ": ", outcome, " (", result.reason(),
      ") totals ", absl::StrJoin(result.totals(), "-"), ": ", result.detail());
}

}  // namespace cassino::bots
