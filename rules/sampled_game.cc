#include "rules/sampled_game.h"

#include <algorithm>
#include <random>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "rules/builder_rules.h"
#include "rules/deal.h"

namespace cassino {

CardSet UnseenCards(const Observation& seen) {
  CardSet shown =
      seen.hand | seen.table.AllCards() | seen.initial_capture.cards;
  for (const PlayedMove& m : seen.history) {
    if (m.move.kind != MoveKind::kCallOut) shown.insert(m.move.card);
    if (m.move.second.valid()) shown.insert(m.move.second);
    shown |= m.move.table | m.outcome.captured;
    if (m.outcome.plucked.valid()) shown.insert(m.outcome.plucked);
    if (m.drawn.valid()) shown.insert(m.drawn);
  }
  return seen.rules.Pack() - shown;
}

absl::StatusOr<Game> SampleGame(const Observation& seen, uint64_t seed) {
  const RuleSet& r = seen.rules;
  if (r.game != GameKind::kCassino || r.sudden_death || r.score_as_captured ||
      r.defaults_cost > 0 || r.instant_limit > 0) {
    return absl::UnimplementedError(
        "SampleGame: Callabra, Tablanette and the options that score during "
        "play (sudden_death, score_as_captured, defaults_cost, "
        "instant_limit) are not supported");
  }
  if (seen.result.has_value()) {
    return absl::FailedPreconditionError("SampleGame: the game is over");
  }
  const int n = r.players;
  const int sides = r.Sides();
  if (seen.seat < 0 || seen.seat >= n ||
      static_cast<int>(seen.hand_sizes.size()) != n ||
      static_cast<int>(seen.sides.size()) != sides ||
      seen.hand_sizes[seen.seat] != static_cast<int>(seen.hand.size())) {
    return absl::InvalidArgumentError(
        "SampleGame: the observation's seat, hand sizes or sides do not "
        "match its rules");
  }
  // The unseen cards, shuffled: the other hands, then the stock.
  const CardSet unseen = UnseenCards(seen);
  int hidden = seen.stock_size;
  for (int s = 0; s < n; ++s) hidden += s == seen.seat ? 0 : seen.hand_sizes[s];
  if (static_cast<int>(unseen.size()) != hidden) {
    return absl::InvalidArgumentError(absl::StrCat(
        "SampleGame: ", unseen.size(), " cards unseen, but the other hands ",
        "and the stock hold ", hidden));
  }
  std::vector<Card> pool;
  pool.reserve(unseen.size());
  for (Card c : unseen) pool.push_back(c);
  std::mt19937_64 rng(seed);
  std::shuffle(pool.begin(), pool.end(), rng);
  // What the seat can infer: a seat that controls builds holds a card for
  // each value it controls, one card a value (the guard, builder_rules.h).
  // Those cards are dealt first, each the first fitting one of the shuffled
  // pool.
  std::vector<CardSet> hands(n);
  hands[seen.seat] = seen.hand;
  for (int s = 0; s < n; ++s) {
    if (s == seen.seat) continue;
    std::vector<const Build*> values;  // one build per distinct value
    for (const Build& b : seen.table.builds) {
      if (b.controller != s) continue;
      const bool again =
          std::any_of(values.begin(), values.end(),
                      [&b](const Build* v) { return v->value == b.value; });
      if (!again) values.push_back(&b);
    }
    for (const Build* b : values) {
      auto fit = std::find_if(pool.begin(), pool.end(), [&](Card c) {
        return HoldsFor(r, CardSet::Of(c), *b);
      });
      if (fit == pool.end() ||
          static_cast<int>(hands[s].size()) >= seen.hand_sizes[s]) {
        return absl::InvalidArgumentError(absl::StrCat(
            "SampleGame: seat ", s, " controls a build of ", b->value,
            " but no unseen card can be the one it must hold"));
      }
      hands[s].insert(*fit);
      pool.erase(fit);
    }
  }

  Game g;
  Seed later{};  // the decks of the rounds after this one
  for (uint8_t& b : later) b = static_cast<uint8_t>(rng());
  g.decks_ = DeckSource::FromSeed(later);
  g.position_.rules = r;
  size_t next = 0;
  for (int s = 0; s < n; ++s) {
    while (static_cast<int>(hands[s].size()) < seen.hand_sizes[s]) {
      hands[s].insert(pool[next++]);
    }
  }
  g.position_.hands = std::move(hands);
  const std::vector<Card> stock(pool.begin() + next, pool.end());
  g.position_.table = seen.table;
  g.position_.to_move = seen.to_move;
  g.position_.plucked = seen.plucked;
  g.position_.stock_empty = stock.empty();
  g.round_ = seen.round;
  g.deal_ = seen.deal;
  g.dealer_ = seen.dealer;
  // The round's deck: what was dealt (in no particular order), then the
  // stock in its sampled order.
  CardSet dealt = r.Pack();
  for (Card c : stock) dealt.erase(c);
  g.deck_.clear();
  for (Card c : dealt) g.deck_.push_back(c);
  g.deck_.insert(g.deck_.end(), stock.begin(), stock.end());
  g.deck_pos_ = static_cast<int>(g.deck_.size() - stock.size());

  // This round's piles, sweeps and last capturer, from its moves.
  g.piles_.assign(sides, CardSet());
  g.last_capturer_ = -1;
  if (!seen.initial_capture.cards.empty()) {
    const int side = seen.initial_capture.side;
    if (side < 0 || side >= sides) {
      return absl::InvalidArgumentError(
          "SampleGame: initial pairs without a side");
    }
    g.piles_[side] |= seen.initial_capture.cards;
    g.last_capturer_ = side;
    if (seen.initial_capture.sweep) g.sweeps_.push_back({side, r.sweep_points});
  }
  for (const PlayedMove& m : seen.history) {
    if (m.seat < 0 || m.seat >= n || m.round != seen.round) {
      return absl::InvalidArgumentError(
          "SampleGame: a move of the round's history has a bad seat or round");
    }
    const int side = r.SideOf(m.seat);
    if (m.outcome.plucked.valid()) g.piles_[side].insert(m.outcome.plucked);
    if (!m.outcome.captured.empty()) {
      g.piles_[side] |= m.outcome.captured;
      g.last_capturer_ = side;
    }
    if (m.outcome.sweep) g.sweeps_.push_back({side, r.sweep_points});
  }
  g.totals_.resize(sides);
  for (int s = 0; s < sides; ++s) {
    const SidePublic& p = seen.sides[s];
    const CardSet spades = g.piles_[s] & CardSet::OfSuit(Suit::kSpades);
    int sweeps = 0;
    for (const Sweep& sw : g.sweeps_) sweeps += sw.side == s;
    if (static_cast<int>(g.piles_[s].size()) != p.captured ||
        static_cast<int>(spades.size()) != p.spades || sweeps != p.sweeps) {
      return absl::InvalidArgumentError(absl::StrCat(
          "SampleGame: side ", s, "'s pile from the round's moves (",
          g.piles_[s].size(), " cards, ", spades.size(), " spades, ", sweeps,
          " sweeps) disagrees with the observation (", p.captured, ", ",
          p.spades, ", ", p.sweeps, ")"));
    }
    g.totals_[s] = p.total;
  }
  g.initial_capture_ = seen.initial_capture;
  // (Without the options that score during play, totals do not move
  // within a round.)
  g.round_start_totals_ = g.totals_;
  g.in_play_.assign(sides, 0);
  g.against_.assign(sides, 0);
  g.scored_in_play_ = CardSet();
  // The earlier rounds' moves are not in an observation: placeholders
  // (round 0) keep the game's move count.
  const int earlier = seen.turn - static_cast<int>(seen.history.size());
  if (earlier < 0) {
    return absl::InvalidArgumentError(
        "SampleGame: more moves this round than in the game");
  }
  g.history_.assign(earlier, PlayedMove());
  g.history_.insert(g.history_.end(), seen.history.begin(), seen.history.end());
  g.rounds_ = seen.rounds;
  return g;
}

}  // namespace cassino
