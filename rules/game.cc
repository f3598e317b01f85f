#include "rules/game.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "rules/callabra.h"
#include "rules/game_moves.h"
#include "rules/tablanette.h"

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
    case GameEndReason::kDealRounds:
      return "deal_rounds";
  }
  return "?";
}

Deck DeckSource::DeckFor(int round) const {
  return DeckFor(round, CardSet::FullDeck());
}

Deck DeckSource::DeckFor(int round, CardSet pack) const {
  Deck deck;
  FillDeck(round, pack, &deck);
  return deck;
}

void DeckSource::FillDeck(int round, CardSet pack, Deck* deck) const {
  if (is_explicit()) {
    *deck = decks[(round - 1) % decks.size()];
  } else {
    ShuffleDeck(*seed, static_cast<uint32_t>(round), pack, deck);
  }
}

absl::StatusOr<Game> Game::Create(const RuleSet& rules, DeckSource decks) {
  if (absl::Status s = rules.Validate(); !s.ok()) return s;
  if (!decks.is_explicit() && !decks.seed.has_value()) {
    return absl::InvalidArgumentError("a game needs a seed or explicit decks");
  }
  const CardSet pack = rules.Pack();
  for (size_t i = 0; i < decks.decks.size(); ++i) {
    CardSet seen;
    for (Card c : decks.decks[i]) {
      if (!c.valid() || seen.contains(c)) {
        return absl::InvalidArgumentError(
            absl::StrCat("explicit deck ", i + 1, " repeats or lacks a card"));
      }
      seen.insert(c);
    }
    if (seen != pack) {
      return absl::InvalidArgumentError(
          absl::StrCat("explicit deck ", i + 1, " does not hold exactly the ",
                       pack.size(), " cards of the pack"));
    }
  }
  Game game;
  game.decks_ = std::move(decks);
  game.position_.rules = rules;
  game.position_.hands.assign(rules.players, CardSet());
  game.totals_.assign(rules.Sides(), 0);
  // A standard round has 48 moves: no reallocation in round 1.
  game.history_.reserve(64);
  game.deck_.reserve(kDeckSize);
  game.StartRound();
  return game;
}

void Game::StartRound() {
  const int n = rules().players;
  ++round_;
  deal_ = 0;
  dealer_ = (n - 1 + (round_ - 1)) % n;
  decks_.FillDeck(round_, rules().Pack(), &deck_);
  deck_pos_ = 0;
  piles_.assign(rules().Sides(), CardSet());
  sweeps_.clear();
  last_capturer_ = -1;
  initial_capture_ = InitialCapture();
  round_start_totals_ = totals_;
  in_play_.assign(rules().Sides(), 0);
  against_.assign(rules().Sides(), 0);
  scored_in_play_ = CardSet();
  ClearTable();
  DealCards();
  if (rules().initial_pairs) TakeInitialPairs();
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

namespace {

// The cards each player gets per pass of the deal.
int DealPacket(DealStyle style) {
  switch (style) {
    case DealStyle::kSingles:
      return 1;
    case DealStyle::kTwos:
      return 2;
    case DealStyle::kThrees:
      return 3;
    case DealStyle::kFours:
      return 4;
  }
  return 2;
}

}  // namespace

void Game::DealCards() {
  if (rules().game != GameKind::kCassino) {
    DealRelatedGame();
    return;
  }
  const RuleSet& r = rules();
  const int n = r.players;
  const bool first = deal_ == 0;
  ++deal_;
  const int size =
      r.hand_size + (deal_ == r.DealsPerRound() ? r.last_deal_extra : 0);
  const int packet = DealPacket(r.deal);
  int table_owed = first ? RuleSet::kTableDeal : 0;
  auto take = [&](int count) {
    CardSet cards;
    for (int i = 0; i < count; ++i) cards.insert(deck_[deck_pos_++]);
    return cards;
  };
  for (int dealt = 0; dealt < size; dealt += packet) {
    const int k = std::min(packet, size - dealt);
    for (int i = 1; i <= n; ++i) {
      const int seat = (dealer_ + i) % n;
      if (seat == dealer_ && table_owed > 0) {
        const int t = std::min(k, table_owed);
        position_.table.loose |= take(t);
        table_owed -= t;
      }
      position_.hands[seat] |= take(k);
    }
  }
  if (table_owed > 0) position_.table.loose |= take(table_owed);
  position_.to_move = (dealer_ + 1) % n;
  // pluck: once per deal, never once the stock is empty.
  position_.plucked = 0;
  position_.stock_empty = stock_size() == 0;
}

void Game::TakeInitialPairs() {
  const CardSet table = position_.table.loose;
  CardSet taken;
  for (int rank = kAce; rank <= kKing; ++rank) {
    CardSet same = table & CardSet::OfRank(rank);
    if (same.size() < 2) continue;
    if (same.size() == 3) {
      // The pair with the lowest deck indices.
      const Card low = same.first();
      same.erase(low);
      same = CardSet::Of(low) | CardSet::Of(same.first());
    }
    taken |= same;
  }
  if (taken.empty()) return;
  const int side = rules().SideOf(position_.to_move);
  position_.table.loose -= taken;
  piles_[side] |= taken;
  last_capturer_ = side;
  initial_capture_.cards = taken;
  initial_capture_.side = side;
  if (position_.table.empty() && rules().sweep_points > 0) {
    initial_capture_.sweep = true;
    int immediate = 0;
    if (AddSweep(side, &immediate)) {
      Finish(side, GameEndReason::kTarget,
             absl::StrCat("side ", side, " reached ", totals_[side],
                          " with a sweep of initial pairs (sudden death)"));
    }
  }
}

bool Game::AddSweep(int side, int* immediate_points) {
  const int points = rules().sweep_points;
  sweeps_.push_back({side, points});
  if (!rules().sudden_death) return false;
  // An instant score against every other side.
  for (int s = 0; s < rules().Sides(); ++s) against_[s] += s != side;
  totals_[side] += points;
  in_play_[side] += points;
  *immediate_points = points;
  return totals_[side] >= rules().target;
}

std::vector<Move> Game::LegalMoves() const {
  if (over()) return {};
  return GameLegalMoves(position_);
}

absl::Status Game::Validate(const Move& move) const {
  if (over()) return absl::FailedPreconditionError("the game is over");
  return ValidateGameMove(position_, move);
}

absl::Status Game::Play(const Move& move) {
  if (absl::Status s = Validate(move); !s.ok()) return s;
  PlayUnchecked(move);
  if (over() && result_->reason == GameEndReason::kAborted &&
      turn() >= kMaxMoves) {
    return absl::ResourceExhaustedError(result_->detail);
  }
  return absl::OkStatus();
}

void Game::PlayUnchecked(const Move& move) {
  PlayMove(move);
  if (!over() && turn() >= kMaxMoves) {
    Finish(-1, GameEndReason::kAborted,
           absl::StrCat("the game did not end within ", kMaxMoves,
                        " moves (its rules may never reach an end)"));
  }
}

int Game::GiveUpPoints(int side, int points) {
  ++against_[side];
  if (rules().revision < 2) {
    totals_[side] -= points;
    in_play_[side] -= points;
    return -1;
  }
  // Revision 3: the points go to one side, the next in play order (the
  // only other side with two sides), so a default hands out exactly the
  // points it costs and two sides never reach the target together through
  // it. Revision 2 gave them to every other side.
  const int next = (side + 1) % rules().Sides();
  int winner = -1;
  for (int s = 0; s < rules().Sides(); ++s) {
    if (s == side || (rules().revision >= 3 && s != next)) continue;
    totals_[s] += points;
    in_play_[s] += points;
    if (rules().sudden_death && totals_[s] >= rules().target &&
        (winner < 0 || totals_[s] > totals_[winner])) {
      winner = s;
    }
  }
  return winner;
}

bool Game::ScoreCaptured(int side, CardSet captured, int* immediate_points) {
  const Scoring& sc = rules().scoring;
  int points = 0;
  for (Card c : captured) {
    const int p = sc.card[c.index()] + sc.each_ace * (c.rank() == kAce) +
                  sc.each_spade * (c.suit() == Suit::kSpades);
    if (p == 0) continue;
    points += p;
    scored_in_play_.insert(c);
  }
  totals_[side] += points;
  in_play_[side] += points;
  *immediate_points += points;
  return points > 0 && rules().match == Match::kTarget &&
         totals_[side] >= rules().target;
}

bool Game::InstantLimitReached() const {
  const int limit = rules().instant_limit;
  if (limit == 0) return false;
  return std::any_of(against_.begin(), against_.end(),
                     [limit](int n) { return n >= limit; });
}

int Game::EarnedThisRound(int side) const {
  const RuleSet& r = rules();
  const Scoring& sc = r.scoring;
  const CardSet pile = piles_[side];
  const CardSet pack = r.Pack();
  int points = 0;
  for (Card c : pile) points += sc.card[c.index()];
  const CardSet aces = pack & CardSet::OfRank(kAce);
  points += sc.each_ace * (pile & aces).size();
  if (!aces.empty() && pile.contains(aces)) points += sc.all_aces;
  const CardSet spades = pack & CardSet::OfSuit(Suit::kSpades);
  const CardSet diamonds = pack & CardSet::OfSuit(Suit::kDiamonds);
  points += sc.each_spade * (pile & spades).size();
  for (const Sweep& sw : sweeps_) {
    if (sw.side == side && !r.sudden_death) points += sw.points;
  }
  // More than half of the cards, spades or diamonds can no longer be beaten
  // (call_out is for 2 players); with tie_cards=spades, half the cards and
  // more than half the spades neither.
  const int my_spades = (pile & spades).size();
  const bool spades_won = 2 * my_spades > spades.size();
  if (2 * pile.size() > pack.size() ||
      (r.tie_cards == TieCards::kSpades && 2 * pile.size() == pack.size() &&
       spades_won)) {
    points += sc.most_cards;
  }
  if (spades_won) points += sc.most_spades;
  if (2 * (pile & diamonds).size() > diamonds.size()) {
    points += sc.most_diamonds;
  }
  return points;
}

void Game::PlayMove(const Move& move) {
  const int seat = position_.to_move;
  const int side = rules().SideOf(seat);
  // Recorded at once and completed in place (nothing below reads the
  // history before the move is complete).
  PlayedMove& played = history_.emplace_back(
      PlayedMove{turn(), round_, deal_, seat, move, {}, Card(), false, 0});
  if (move.kind == MoveKind::kCallOut) {
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
  // defaults_cost: a move that breaks the builder rules costs its points.
  int penalty = 0;
  if (kind == GameKind::kCassino && rules().defaults_cost > 0) {
    MoveEffect effect;
    if (AnalyseMove(position_, move, &effect).ok() &&
        effect.broken != BuilderViolation::kNone) {
      penalty = rules().defaults_cost;
    }
  }
  ApplyGameMove(position_, move, &played.outcome);
  played.outcome.penalty = penalty;
  const int default_winner = penalty > 0 ? GiveUpPoints(side, penalty) : -1;
  // pluck: the plucked card goes to the mover's pile (not a capture).
  if (played.outcome.plucked.valid()) {
    piles_[side].insert(played.outcome.plucked);
  }
  auto hands_empty = [&] {
    for (CardSet hand : position_.hands) {
      if (!hand.empty()) return false;
    }
    return true;
  };
  bool won = false;
  // A capture, or a trail that took the table (five_spades_sweep).
  if (!played.outcome.captured.empty()) {
    piles_[side] |= played.outcome.captured;
    last_capturer_ = side;
    // With sweeps off an emptied table is no sweep at all; in Tablanette
    // the round's very last card sweeps nothing.
    const bool cleared = played.outcome.sweep;
    played.outcome.sweep = played.outcome.sweep && rules().sweep_points > 0 &&
                           !(kind == GameKind::kTablanette && hands_empty() &&
                             deal_ == rules().DealsPerRound());
    // Callabra ends when a player clears the table, whatever the sweeps
    // score (revision 3; revision 2 ended it only when sweeps scored).
    if (kind == GameKind::kCallabra &&
        (played.outcome.sweep || (cleared && rules().revision >= 3))) {
      for (int s = 0; s < rules().Sides(); ++s) totals_[s] = piles_[s].size();
      Finish(side, GameEndReason::kClearedTable,
             absl::StrCat("seat ", seat, " cleared the table"));
      return;
    }
    if (played.outcome.sweep) won = AddSweep(side, &played.immediate_points);
    if (rules().score_as_captured) {
      won = ScoreCaptured(side, played.outcome.captured,
                          &played.immediate_points) ||
            won;
    }
  }
  if (rules().draw && deck_pos_ < static_cast<int>(deck_.size())) {
    played.drawn = deck_[deck_pos_++];
    played.drew = true;
    position_.hands[seat].insert(played.drawn);
    position_.stock_empty = stock_size() == 0;  // pluck's "last deal"
  }
  if (won) {
    Finish(side, GameEndReason::kTarget,
           absl::StrCat("side ", side, " reached ", totals_[side],
                        played.outcome.sweep && rules().sudden_death
                            ? " with a sweep (sudden death)"
                            : " with a capture (score_as_captured)"));
    return;
  }
  if (default_winner >= 0) {
    Finish(default_winner, GameEndReason::kTarget,
           absl::StrCat("side ", default_winner, " reached ",
                        totals_[default_winner], " with a default by seat ",
                        seat, " (sudden death)"));
    return;
  }
  if (InstantLimitReached()) {
    EndRound();
    return;
  }
  if (!hands_empty()) {
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
    result_->draw = true;
    return;
  }
  Finish(winner, GameEndReason::kMostCards,
         absl::StrCat("the stock ran out; side ", winner, " captured ",
                      cards[winner], " cards"));
}

void Game::ClearTable() {
  // (Keeps the builds' capacity: the next round makes builds again.)
  position_.table.loose = CardSet();
  position_.table.builds.clear();
}

void Game::EndRound() {
  const RuleSet& r = rules();
  // A game to 21 takes three or four rounds; a game still in its first
  // round reserves nothing.
  if (rounds_.empty()) rounds_.reserve(4);
  RoundResult result;
  result.round = round_;
  result.dealer = dealer_;
  result.leftovers = position_.table.AllCards();
  result.leftover_side = last_capturer_;
  result.builds_left = static_cast<int>(position_.table.builds.size());
  // instant_limit may end a round before its cards are all played.
  for (CardSet& hand : position_.hands) {
    result.unplayed |= hand;
    hand = CardSet();
  }
  for (int i = deck_pos_; i < static_cast<int>(deck_.size()); ++i) {
    result.unplayed.insert(deck_[i]);
  }
  deck_pos_ = static_cast<int>(deck_.size());
  result.ended_early = !result.unplayed.empty();
  if (last_capturer_ >= 0) piles_[last_capturer_] |= result.leftovers;
  ClearTable();
  result.score = r.game == GameKind::kTablanette
                     ? tablanette::ScoreRound(piles_, sweeps_)
                     : ScoreRound(r, piles_, sweeps_, scored_in_play_);
  result.totals_before = round_start_totals_;
  result.initial_capture = initial_capture_;
  result.in_play = in_play_;

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
  TotalsUpdate update = AddRoundScore(r, std::move(totals_), result.score);
  totals_ = std::move(update.totals);
  result.totals_after = totals_;
  if (r.match == Match::kDealRounds && round_ >= r.MatchRounds()) {
    rounds_.push_back(std::move(result));
    const int best = *std::max_element(totals_.begin(), totals_.end());
    if (std::count(totals_.begin(), totals_.end(), best) > 1) {
      Finish(-1, GameEndReason::kDealRounds,
             absl::StrCat("a draw after ", round_, " rounds: highest total ",
                          best, " shared"));
      result_->draw = true;
      return;
    }
    const int winner = static_cast<int>(
        std::find(totals_.begin(), totals_.end(), best) - totals_.begin());
    Finish(winner, GameEndReason::kDealRounds,
           absl::StrCat("side ", winner, " has the highest total after ",
                        round_, " rounds, ", best));
    return;
  }
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
  result_ = GameResult{winner, reason, totals_, -1, std::move(detail), false};
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
