#include "tools/bots/strategies.h"

#include <algorithm>
#include <array>

#include "rules/adjudicator.h"

namespace cassino::bots {
namespace {

const v1::SidePublic* SideInfo(const TurnView& view, int side) {
  for (const v1::SidePublic& s : view.observation.sides()) {
    if (s.side() == side) return &s;
  }
  return nullptr;
}

// P(a uniformly random h-subset of n cards misses all k given cards).
double ProbMissesAll(int n, int k, int h) {
  if (h <= 0 || k <= 0) return 1.0;
  if (n - k < h) return 0.0;
  double p = 1.0;
  for (int i = 0; i < h; ++i) p *= double(n - k - i) / double(n - i);
  return p;
}

// E[max g] over a uniformly random h-subset of the n gains (0 if h == 0).
double ExpectedMax(std::vector<double> gains, int h) {
  const int n = static_cast<int>(gains.size());
  h = std::min(h, n);
  if (h <= 0) return 0.0;
  std::sort(gains.begin(), gains.end(), std::greater<double>());
  // p_i = P(gains[i] is the best card held): the first i are missed and
  // card i is held.
  double p = double(h) / n;
  double e = 0.0;
  for (int i = 0; i < n && p > 0.0; ++i) {
    e += p * gains[i];
    if (n - 1 - i <= 0) break;
    p *= double(n - i - h) / double(n - 1 - i);
  }
  return e;
}

// Cards of `set` that match card `c` for capturing: same rank for face
// cards (no value), same value for numerals.
CardSet SameCaptureClass(const RuleSet& rules, CardSet set, Card c) {
  CardSet out;
  const int value = rules.CardValue(c);
  for (Card d : set) {
    if (value == 0 ? d.rank() == c.rank() : rules.CardValue(d) == value) {
      out.insert(d);
    }
  }
  return out;
}

}  // namespace

CardWeights CardWeights::For(const RuleSet& rules) {
  CardWeights w;
  w.sweep = rules.sweep_points;
  return w;
}

CardWeights CardWeights::Adaptive(const TurnView& view) {
  CardWeights w = For(view.rules());
  for (const v1::SidePublic& s : view.observation.sides()) {
    if (s.captured() > kDeckSize / 2) w.card = 0;
    if (s.spades() > kRanks / 2) w.spade = 0;
  }
  return w;
}

double CardWeights::Value(Card c) const {
  double v = card;
  if (c.suit() == Suit::kSpades) v += spade;
  if (c == kBigCassino) v += big_cassino;
  if (c == kLittleCassino) v += little_cassino;
  if (c.rank() == kAce) v += ace;
  return v;
}

double CardWeights::Value(CardSet cards) const {
  double v = 0;
  for (Card c : cards) v += Value(c);
  return v;
}

bool CallOutWins(const TurnView& view) {
  const RuleSet& rules = view.rules();
  if (!rules.call_out) return false;
  const int side = view.side();
  const v1::SidePublic* info = SideInfo(view, side);
  if (info == nullptr) return false;
  CardSet pile;
  for (const v1::PlayedMove& pm : view.observation.round_history()) {
    if (rules.SideOf(pm.seat()) != side ||
        pm.move().kind() != v1::MOVE_KIND_CAPTURE) {
      continue;
    }
    absl::StatusOr<CardSet> captured = convert::CardsFromProto(pm.captured());
    if (captured.ok()) pile |= *captured;
  }
  int earned = (pile & CardSet::OfRank(kAce)).size();
  if (pile.contains(kBigCassino)) earned += 2;
  if (pile.contains(kLittleCassino)) earned += 1;
  earned += info->sweeps() * rules.sweep_points;
  if (info->captured() >= 27) earned += 3;
  if (info->spades() >= 7) earned += 1;
  return info->total() + earned >= rules.target;
}

std::vector<Move> CandidateMoves(const TurnView& view) {
  std::vector<Move> out;
  const bool call = CallOutWins(view);
  for (const Move& m : view.legal_moves) {
    if ((m.kind == MoveKind::kCallOut) == call) out.push_back(m);
  }
  if (out.empty()) out = view.legal_moves;
  return out;
}

// ---------------------------------------------------------------- random

Move RandomStrategy::Choose(const TurnView& view) {
  const std::vector<Move> moves = CandidateMoves(view);
  std::uniform_int_distribution<size_t> pick(0, moves.size() - 1);
  return moves[pick(rng_)];
}

// ---------------------------------------------------------------- greedy

Move GreedyStrategy::Choose(const TurnView& view) {
  const std::vector<Move> moves = CandidateMoves(view);
  const CardWeights w = CardWeights::For(view.rules());
  const CardSet table = view.position.table.AllCards();
  // Tiers: capture 2, build 1, trail 0; within a tier the higher score.
  int best_tier = -1;
  double best_score = 0;
  const Move* best = &moves.front();
  for (const Move& m : moves) {
    int tier = 0;
    double score = 0;
    switch (m.kind) {
      case MoveKind::kCallOut:
        return m;  // only a candidate when it wins
      case MoveKind::kCapture:
        tier = 2;
        score = w.Value(m.table | CardSet::Of(m.card)) +
                (m.table == table ? w.sweep : 0);
        break;
      case MoveKind::kBuild:
        tier = 1;
        score = w.Value(m.table | CardSet::Of(m.card));
        break;
      case MoveKind::kTrail:
        tier = 0;
        score = -w.Value(m.card);
        break;
    }
    if (tier > best_tier || (tier == best_tier && score > best_score)) {
      best_tier = tier;
      best_score = score;
      best = &m;
    }
  }
  return *best;
}

// --------------------------------------------------------------- builder

double BuilderStrategy::BestCapture(const RuleSet& rules, const Table& table,
                                    int mover, Card card,
                                    const CardWeights& w) {
  // A hypothetical position in which `mover` holds only `card`. Builds are
  // handed to another seat and the obligation is lifted so that the guard
  // and obligations (which depend on the unknown rest of the hand) do not
  // hide captures the real hand could make.
  Position h;
  h.rules = rules;
  h.rules.builder_obligation = BuilderObligation::kNone;
  h.table = table;
  const int other = (mover + 1) % rules.players;
  for (Build& b : h.table.builds) b.controller = other;
  h.hands.assign(rules.players, CardSet());
  h.hands[mover] = CardSet::Of(card);
  h.to_move = mover;
  generator_.Generate(h, &scratch_);
  const CardSet all = table.AllCards();
  double best = -1;
  for (const Move& m : scratch_) {
    if (m.kind != MoveKind::kCapture) continue;
    const double v =
        w.Value(m.table | CardSet::Of(card)) + (m.table == all ? w.sweep : 0);
    best = std::max(best, v);
  }
  return best;
}

double BuilderStrategy::Score(const TurnView& view, const Move& move) {
  if (move.kind == MoveKind::kCallOut) return 1e9;
  const RuleSet& rules = view.rules();
  const int me = view.seat;
  const int my_side = view.side();
  const CardWeights w = CardWeights::Adaptive(view);
  const v1::Observation& obs = view.observation;

  Position p = view.position;
  const MoveOutcome outcome = ApplyMove(p, move);
  double score = 0;
  if (move.kind == MoveKind::kCapture) {
    score += w.Value(outcome.captured);
    if (outcome.sweep && rules.sweep_points > 0) score += w.sweep;
  }

  const CardSet rest = p.hands[me];
  auto hand_size = [&](int seat) {
    return seat < obs.hand_sizes_size() ? obs.hand_sizes(seat) : 0;
  };
  bool others_empty = true;
  for (int s = 0; s < rules.players; ++s) {
    if (s != me && hand_size(s) > 0) others_empty = false;
  }
  // The round's last move: the table goes to the last capturer.
  if (obs.stock_size() == 0 && rest.empty() && others_empty) {
    int last_side = -1;
    if (move.kind == MoveKind::kCapture) {
      last_side = my_side;
    } else {
      for (const v1::PlayedMove& pm : obs.round_history()) {
        if (pm.move().kind() == v1::MOVE_KIND_CAPTURE) {
          last_side = rules.SideOf(pm.seat());
        }
      }
    }
    const double left = w.Value(p.table.AllCards());
    if (last_side == my_side) score += left;
    if (last_side >= 0 && last_side != my_side) score -= left;
    return score;
  }

  // The next player's best reply, their hand being a random subset of the
  // unseen cards.
  const int next = p.to_move;
  int h = hand_size(next);
  double reply_weight = 1.0;
  if (h == 0 && obs.stock_size() > 0) {
    h = RuleSet::kHandSize;  // a new deal comes first
    reply_weight = 0.8;
  }
  const CardSet unseen = view.unseen;
  const int n = unseen.size();
  if (rules.SideOf(next) != my_side && h > 0 && n > 0) {
    // Best table gain per rank (one representative card each), then per
    // card by adding the card's own value.
    std::array<double, kRanks + 1> by_rank;
    by_rank.fill(-2);  // not computed yet
    std::vector<double> gains;
    gains.reserve(n);
    for (Card c : unseen) {
      double& base = by_rank[c.rank()];
      if (base == -2) {
        const double best = BestCapture(rules, p.table, next, c, w);
        base = best < 0 ? -1 : best - w.Value(c);
      }
      gains.push_back(base < 0 ? 0 : base + w.Value(c));
    }
    double reply = ExpectedMax(gains, h);
    // A build the next player controls: they hold its value.
    for (const Build& b : p.table.builds) {
      if (b.controller != next) continue;
      for (Card c : unseen) {
        if (rules.CardValue(c) != b.value) continue;
        reply = std::max(reply, BestCapture(rules, p.table, next, c, w));
        break;
      }
    }
    score -= reply_weight * reply;
  }

  // The follow-up: our own best capture next turn, if it survives.
  double follow = 0;
  for (Card c : rest) {
    const double best = BestCapture(rules, p.table, me, c, w);
    if (best <= 0) continue;
    const int k = SameCaptureClass(rules, unseen, c).size();
    const double survive = ProbMissesAll(n, k, h);
    follow = std::max(follow, survive * best);
  }
  score += 0.7 * follow;

  // Point cards left loose can be taken by anyone later in the deal.
  if (move.kind == MoveKind::kTrail) {
    score -= 0.5 * (w.Value(move.card) - w.card);
  }
  return score;
}

Move BuilderStrategy::Choose(const TurnView& view) {
  const std::vector<Move> moves = CandidateMoves(view);
  if (moves.size() == 1) return moves.front();
  const Move* best = &moves.front();
  double best_score = -1e18;
  for (const Move& m : moves) {
    const double s = Score(view, m);
    if (s > best_score) {
      best_score = s;
      best = &m;
    }
  }
  return *best;
}

// ------------------------------------------------------------- registry

std::unique_ptr<Strategy> MakeStrategy(absl::string_view name, uint64_t seed) {
  if (name == "random") return std::make_unique<RandomStrategy>(seed);
  if (name == "greedy") return std::make_unique<GreedyStrategy>();
  if (name == "builder") return std::make_unique<BuilderStrategy>();
  return nullptr;
}

std::vector<std::string> StrategyNames() {
  return {"random", "greedy", "builder"};
}

}  // namespace cassino::bots
