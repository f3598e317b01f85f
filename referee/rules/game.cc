#include "referee/rules/game.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

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

void Game::DealCards() {
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
  // pluck: once per deal, never once the stock is empty.
  position_.plucked = 0;
  position_.stock_empty = stock_size() == 0;
}

std::vector<Move> Game::LegalMoves() const {
  if (over()) return {};
  return cassino::LegalMoves(position_);
}

absl::Status Game::Validate(const Move& move) const {
  if (over()) return absl::FailedPreconditionError("the game is over");
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
      Finish(side, GameEndReason::kCallOut,
             absl::StrCat("seat ", seat, " called out correctly with ", claimed));
    } else {
      Finish(1 - side, GameEndReason::kCallOut,
             absl::StrCat("seat ", seat, " called out with only ", claimed, " of ",
                          rules().target));
    }
    return;
  }
  // defaults_cost: a move that breaks the builder rules costs its points.
  int penalty = 0;
  if (rules().defaults_cost > 0) {
    MoveEffect effect;
    if (AnalyseMove(position_, move, &effect).ok() &&
        effect.broken != BuilderViolation::kNone) {
      penalty = rules().defaults_cost;
    }
  }
  played.outcome = ApplyMove(position_, move);
  played.outcome.penalty = penalty;
  totals_[side] -= penalty;
  // pluck: the plucked card goes to the mover's pile (not a capture).
  if (played.outcome.plucked.valid())
    piles_[side].insert(played.outcome.plucked);
  // A capture, or a trail that took the table (five_spades_sweep).
  if (!played.outcome.captured.empty()) {
    piles_[side] |= played.outcome.captured;
    last_capturer_ = side;
    // With sweeps off an emptied table is no sweep at all.
    played.outcome.sweep = played.outcome.sweep && rules().sweep_points > 0;
    if (played.outcome.sweep) sweeps_.push_back({side, rules().sweep_points});
  }
  history_.push_back(played);
  for (CardSet hand : position_.hands) {
    if (!hand.empty()) return;
  }
  if (deal_ < rules().DealsPerRound()) {
    DealCards();
  } else {
    EndRound();
  }
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
  result.score = ScoreRound(r, piles_, sweeps_);
  result.totals_before = totals_;

  const int eleven = result.score.all_eleven_side;
  if (eleven >= 0 && (r.all_eleven == AllEleven::kWin ||
                      (r.all_eleven == AllEleven::kSkunk && round_ == 1))) {
    for (const ScoreItem& item : result.score.items) totals_[item.side] += item.points;
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
