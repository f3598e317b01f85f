#include "tools/bots/client/turn_view.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "rules/game_moves.h"

namespace cassino::bots {
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
  absl::StatusOr<CardSet> hand = convert::CardsFromProto(obs.hand());
  if (!hand.ok()) return hand.status();
  pos.hands[view.seat] = *hand;
  absl::StatusOr<CardSet> loose = convert::CardsFromProto(obs.table().loose());
  if (!loose.ok()) return loose.status();
  pos.table.loose = *loose;
  for (const v1::Build& pb : obs.table().builds()) {
    absl::StatusOr<CardSet> cards = convert::CardsFromProto(pb.cards());
    if (!cards.ok()) return cards.status();
    pos.table.AddBuild(
        Build{*cards, pb.value(), pb.controller(), pb.multiple()});
  }

  CardSet seen = *hand | pos.table.AllCards();
  // Option initial_pairs: the pairs taken from the round's first table.
  absl::StatusOr<CardSet> initial =
      convert::CardsFromProto(obs.initial_capture().cards());
  if (!initial.ok()) return initial.status();
  seen |= *initial;
  for (const v1::PlayedMove& pm : obs.round_history()) {
    absl::StatusOr<Move> m = convert::FromProto(pm.move());
    if (!m.ok()) return m.status();
    if (m->kind != MoveKind::kCallOut) seen.insert(m->card);
    seen |= m->table;
    absl::StatusOr<CardSet> captured = convert::CardsFromProto(pm.captured());
    if (!captured.ok()) return captured.status();
    seen |= *captured;
    // Option pluck: the card plucked into the mover's pile (public). (A
    // card the seat drew is in its hand, or was played since.)
    if (!pm.plucked().empty()) {
      absl::StatusOr<Card> c = Card::Parse(pm.plucked());
      if (!c.ok()) return c.status();
      seen.insert(*c);
    }
  }
  view.unseen = CardSet::FullDeck() - seen;

  view.legal_moves.reserve(your_turn.legal_moves_size());
  for (const v1::Move& pm : your_turn.legal_moves()) {
    absl::StatusOr<Move> m = convert::FromProto(pm);
    if (!m.ok()) return m.status();
    view.legal_moves.push_back(*m);
  }
  return view;
}

absl::StatusOr<TurnView> MakeLocalTurnView(const Game& game, int seat) {
  v1::YourTurn your_turn;
  your_turn.set_turn(game.turn());
  convert::ToProto(Observe(game, seat), your_turn.mutable_observation());
  // In the referee's order (by notation), so a strategy tested here sees
  // the list it sees in a real game.
  for (const NotatedMove& m : InNotationOrder(game.LegalMoves())) {
    convert::ToProto(m.move, your_turn.add_legal_moves());
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
