#include "referee/rules/game.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "referee/rules/callabra.h"
#include "referee/rules/tablanette.h"

namespace cassino {

absl::string_view GameEndReasonName(GameEndReason reason) {
  switch (reason) {
    case GameEndReason::kTarget:
      return "target";
    case GameEndReason::kHighestTotal:
      return "highest_total";
    case GameEndReason::kCallOut:
      return "call_out";
    case GameEndReason::kAllEleven:
      return "all_eleven";
    case GameEndReason::kForfeit:
      return "forfeit";
    case GameEndReason::kAborted:
      return "aborted";
    case GameEndReason::kClearedTable:
      return "cleared_table";
    case GameEndReason::kMostCards:
      return "most_cards";
    case GameEndReason::kDraw:
      return "draw";
  }
  return "?";
}

Deck DeckSource::DeckFor(int round) const {
  if (is_explicit()) return decks[(round - 1) % decks.size()];
  return ShuffledDeck(*seed, static_cast<uint32_t>(round));
}

absl::StatusOr<Game> Game::Create(const RuleSet& rules, DeckSource decks) {
  if (absl::Status s = rules.Validate(); !s.ok()) return s;
  if (!decks.is_explicit() && !decks.seed.has_value()) {
    return absl::InvalidArgumentError("a game needs a seed or explicit decks");
  }
  for (size_t i = 0; i < decks.decks.size(); ++i) {
    CardSet seen;
    for (Card c : decks.decks[i]) {
      if (!c.valid() || seen.contains(c)) {
        return absl::InvalidArgumentError(
            absl::StrCat("explicit deck ", i + 1, " repeats or lacks a card"));
      }
      seen.insert(c);
    }
    if (seen != CardSet::FullDeck()) {
      return absl::InvalidArgumentError(
          absl::StrCat("explicit deck ", i + 1, " does not hold all 52 cards"));
    }
  }
  Game game;
  game.decks_ = std::move(decks);
  game.position_.rules = rules;
  game.position_.hands.assign(rules.players, CardSet());
  game.totals_.assign(rules.Sides(), 0);
  game.StartRound();
  return game;
}

void Game::StartRound() {
  const int n = rules().players;
  ++round_;
  deal_ = 0;
  dealer_ = (n - 1 + (round_ - 1)) % n;
  deck_ = decks_.DeckFor(round_);
  deck_pos_ = 0;
  piles_.assign(rules().Sides(), CardSet());
  sweeps_.clear();
  last_capturer_ = -1;
  position_.table = Table();
  DealCards();
}

void Game::DealRelatedGame() {
  const int n = rules().players;
  const bool tablanette = rules().game == GameKind::kTablanette;
  const bool first = deal_ == 0;
  ++deal_;
  const int packet = tablanette ? 3 : 1;
  const int passes = tablanette ? 2 : callabra::kHandSize;
  const int end = static_cast<int>(deck_.size());
  for (int pass = 0; pass < passes; ++pass) {
    for (int k = 1; k <= n; ++k) {
      const int seat = (dealer_ + k) % n;
      for (int i = 0; i < packet && deck_pos_ < end; ++i) {
        position_.hands[seat].insert(deck_[deck_pos_++]);
      }
    }
  }
  if (first) {
    const int table = tablanette ? 4 : callabra::kTableDeal;
    for (int i = 0; i < table; ++i) {
      position_.table.loose.insert(deck_[deck_pos_++]);
    }
  }
  position_.to_move = (dealer_ + 1) % n;
}

void Game::DealCards() {
  if (rules().game != GameKind::kCassino) {
    DealRelatedGame();
    return;
  }
  const RuleSet& r = rules();
  const int n = r.players;
  const bool first = deal_ == 0;
  ++deal_;
  const int packet = r.deal == DealStyle::kTwos ? 2 : 1;
  const int passes = RuleSet::kHandSize / packet;
  auto take = [&](int count) {
    CardSet cards;
    for (int i = 0; i < count; ++i) cards.insert(deck_[deck_pos_++]);
    return cards;
  };
  for (int pass = 0; pass < passes; ++pass) {
    for (int k = 1; k <= n; ++k) {
      const int seat = (dealer_ + k) % n;
      if (first && seat == dealer_) position_.table.loose |= take(packet);
      position_.hands[seat] |= take(packet);
    }
  }
  position_.to_move = (dealer_ + 1) % n;
}

std::vector<Move> Game::LegalMoves() const {
  if (over()) return {};
  switch (rules().game) {
    case GameKind::kCallabra:
      return callabra::LegalMoves(position_);
    case GameKind::kTablanette:
      return tablanette::LegalMoves(position_);
    case GameKind::kCassino:
      break;
  }
  return cassino::LegalMoves(position_);
}

absl::Status Game::Validate(const Move& move) const {
  if (over()) return absl::FailedPreconditionError("the game is over");
  switch (rules().game) {
    case GameKind::kCallabra:
      return callabra::ValidateMove(position_, move);
    case GameKind::kTablanette:
      return tablanette::ValidateMove(position_, move);
    case GameKind::kCassino:
      break;
  }
  if (move.second.valid()) {
    return absl::InvalidArgumentError(
        "only Callabra plays two hand cards in one move");
  }
  return ValidateMove(position_, move);
}

absl::Status Game::Play(const Move& move) {
  if (absl::Status s = Validate(move); !s.ok()) return s;
  PlayUnchecked(move);
  return absl::OkStatus();
}

int Game::EarnedThisRound(int side) const {
  const CardSet pile = piles_[side];
  int points = 0;
  for (Suit s : {Suit::kSpades, Suit::kHearts, Suit::kDiamonds, Suit::kClubs}) {
    points += pile.contains(Card::Of(kAce, s));
  }
  if (pile.contains(kBigCassino)) points += 2;
  if (pile.contains(kLittleCassino)) points += 1;
  for (const Sweep& sw : sweeps_) {
    if (sw.side == side) points += sw.points;
  }
  // More than half of the cards, or of the spades, can no longer be beaten.
  if (pile.size() >= 27) points += 3;
  if ((pile & CardSet::OfSuit(Suit::kSpades)).size() >= 7) points += 1;
  return points;
}

void Game::PlayUnchecked(const Move& move) {
  const int seat = position_.to_move;
  const int side = rules().SideOf(seat);
  PlayedMove played{turn(), round_, deal_, seat, move, {}};
  if (move.kind == MoveKind::kCallOut) {
    history_.push_back(played);
    const int earned = EarnedThisRound(side);
    const int claimed = totals_[side] + earned;
    if (claimed >= rules().target) {
      Finish(
          side, GameEndReason::kCallOut,
          absl::StrCat("seat ", seat, " called out correctly with ", claimed));
    } else {
      Finish(1 - side, GameEndReason::kCallOut,
             absl::StrCat("seat ", seat, " called out with only ", claimed,
                          " of ", rules().target));
    }
    return;
  }
  const GameKind kind = rules().game;
  switch (kind) {
    case GameKind::kCallabra:
      played.outcome = callabra::ApplyMove(position_, move);
      break;
    case GameKind::kTablanette:
      played.outcome = tablanette::ApplyMove(position_, move);
      break;
    case GameKind::kCassino:
      played.outcome = ApplyMove(position_, move);
      break;
  }
  bool hands_empty = true;
  for (CardSet hand : position_.hands)
    hands_empty = hands_empty && hand.empty();
  if (move.kind == MoveKind::kCapture) {
    piles_[side] |= played.outcome.captured;
    last_capturer_ = side;
    // With sweeps off an emptied table is no sweep at all; in Tablanette
    // the round's very last card sweeps nothing.
    played.outcome.sweep = played.outcome.sweep && rules().sweep_points > 0 &&
                           !(kind == GameKind::kTablanette && hands_empty &&
                             deal_ == rules().DealsPerRound());
    if (played.outcome.sweep && kind == GameKind::kCallabra) {
      history_.push_back(played);
      for (int s = 0; s < rules().Sides(); ++s) totals_[s] = piles_[s].size();
      Finish(side, GameEndReason::kClearedTable,
             absl::StrCat("seat ", seat, " cleared the table"));
      return;
    }
    if (played.outcome.sweep) sweeps_.push_back({side, rules().sweep_points});
  }
  history_.push_back(played);
  if (!hands_empty) {
    // Callabra passes over a player whose hand is empty.
    while (position_.hands[position_.to_move].empty()) {
      position_.to_move = (position_.to_move + 1) % rules().players;
    }
    return;
  }
  AfterHandsEmpty();
}

void Game::AfterHandsEmpty() {
  if (rules().game == GameKind::kCallabra) {
    if (stock_size() > 0) {
      DealCards();
    } else {
      FinishCallabra();
    }
    return;
  }
  if (deal_ < rules().DealsPerRound()) {
    DealCards();
  } else {
    EndRound();
  }
}

void Game::FinishCallabra() {
  std::vector<int> cards(rules().Sides());
  for (int s = 0; s < rules().Sides(); ++s) {
    cards[s] = piles_[s].size();
    totals_[s] = cards[s];
  }
  const int winner = UniqueMost(cards);
  if (winner < 0) {
    Finish(-1, GameEndReason::kDraw, "the stock ran out; most cards is a tie");
    return;
  }
  Finish(winner, GameEndReason::kMostCards,
         absl::StrCat("the stock ran out; side ", winner, " captured ",
                      cards[winner], " cards"));
}

void Game::EndRound() {
  const RuleSet& r = rules();
  RoundResult result;
  result.round = round_;
  result.dealer = dealer_;
  result.leftovers = position_.table.AllCards();
  result.leftover_side = last_capturer_;
  result.builds_left = static_cast<int>(position_.table.builds.size());
  if (last_capturer_ >= 0) piles_[last_capturer_] |= result.leftovers;
  position_.table = Table();
  result.score = r.game == GameKind::kTablanette
                     ? tablanette::ScoreRound(piles_, sweeps_)
                     : ScoreRound(r, piles_, sweeps_);
  result.totals_before = totals_;

  const int eleven = result.score.all_eleven_side;
  if (eleven >= 0 && (r.all_eleven == AllEleven::kWin ||
                      (r.all_eleven == AllEleven::kSkunk && round_ == 1))) {
    for (const ScoreItem& item : result.score.items)
      totals_[item.side] += item.points;
    result.totals_after = totals_;
    rounds_.push_back(std::move(result));
    Finish(eleven, GameEndReason::kAllEleven,
           absl::StrCat("side ", eleven, " took all 11 base points"));
    return;
  }
  TotalsUpdate update = AddRoundScore(r, totals_, result.score);
  totals_ = update.totals;
  result.totals_after = totals_;
  if (update.winner < 0) {
    rounds_.push_back(std::move(result));
    StartRound();
    return;
  }
  std::string detail;
  if (update.winning_item >= 0) {
    const ScoreItem& item = result.score.items[update.winning_item];
    detail = absl::StrCat("side ", item.side, " reached ", totals_[item.side],
                          " at ", ScoreItemName(item.kind),
                          item.kind == ScoreItemKind::kAce
                              ? absl::StrCat(" ", item.card.ToString())
                              : "");
  } else {
    detail = absl::StrCat("side ", update.winner, " has the highest total, ",
                          totals_[update.winner]);
  }
  rounds_.push_back(std::move(result));
  Finish(update.winner,
         r.game_end == GameEnd::kCountOut ? GameEndReason::kTarget
                                          : GameEndReason::kHighestTotal,
         std::move(detail));
}

void Game::Finish(int winner, GameEndReason reason, std::string detail) {
  result_ = GameResult{winner, reason, totals_, -1, std::move(detail)};
}

void Game::Forfeit(int seat, std::string detail) {
  if (over()) return;
  const int loser = rules().SideOf(seat);
  int winner = -1;
  for (int s = 0; s < rules().Sides(); ++s) {
    if (s == loser) continue;
    if (winner < 0 || totals_[s] > totals_[winner]) winner = s;
  }
  Finish(winner, GameEndReason::kForfeit, std::move(detail));
  result_->forfeiting_seat = seat;
}

void Game::Abort(std::string detail) {
  if (over()) return;
  Finish(-1, GameEndReason::kAborted, std::move(detail));
}

}  // namespace cassino
