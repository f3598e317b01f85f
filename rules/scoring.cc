#include "rules/scoring.h"

#include <algorithm>
#include <array>

namespace cassino {
namespace {

constexpr int kMaxSides = 6;

}  // namespace

int UniqueMost(std::span<const int> counts) {
  int best = -1, best_count = -1;
  bool tie = false;
  for (size_t s = 0; s < counts.size(); ++s) {
    if (counts[s] > best_count) {
      best = static_cast<int>(s);
      best_count = counts[s];
      tie = false;
    } else if (counts[s] == best_count) {
      tie = true;
    }
  }
  return tie ? -1 : best;
}

int HolderOf(std::span<const CardSet> piles, Card card) {
  for (size_t s = 0; s < piles.size(); ++s) {
    if (piles[s].contains(card)) return static_cast<int>(s);
  }
  return -1;
}

absl::string_view ScoreItemName(ScoreItemKind kind) {
  switch (kind) {
    case ScoreItemKind::kCards:
      return "cards";
    case ScoreItemKind::kSpades:
      return "spades";
    case ScoreItemKind::kBigCassino:
      return "big_cassino";
    case ScoreItemKind::kLittleCassino:
      return "little_cassino";
    case ScoreItemKind::kAce:
      return "ace";
    case ScoreItemKind::kSweep:
      return "sweep";
    case ScoreItemKind::kAllEleven:
      return "all_eleven";
    case ScoreItemKind::kFace:
      return "face";
    case ScoreItemKind::kDiamonds:
      return "diamonds";
    case ScoreItemKind::kCard:
      return "card";
    case ScoreItemKind::kAllAces:
      return "all_aces";
    case ScoreItemKind::kSpade:
      return "spade";
  }
  return "?";
}

namespace {

// The cards with points of their own.
CardSet PointCards(const Scoring& sc) {
  uint64_t bits = 0;
  for (int i = 0; i < kDeckSize; ++i) {
    bits |= static_cast<uint64_t>(sc.card[i] != 0) << i;
  }
  return CardSet(bits);
}

int BasePoints(const RuleSet& rules, CardSet point_cards) {
  const Scoring& sc = rules.scoring;
  const CardSet pack = rules.Pack();
  const CardSet aces = pack & CardSet::OfRank(kAce);
  const CardSet spades = pack & CardSet::OfSuit(Suit::kSpades);
  int points = sc.most_cards;
  if (!spades.empty()) points += sc.most_spades;
  if (pack.intersects(CardSet::OfSuit(Suit::kDiamonds)))
    points += sc.most_diamonds;
  for (Card c : point_cards& pack) points += sc.card[c.index()];
  points += sc.each_ace * aces.size() + sc.each_spade * spades.size();
  if (!aces.empty()) points += sc.all_aces;
  return points;
}

}  // namespace

int BasePoints(const RuleSet& rules) {
  return BasePoints(rules, PointCards(rules.scoring));
}

RoundScore ScoreRound(const RuleSet& rules, std::span<const CardSet> piles,
                      std::span<const Sweep> sweeps, CardSet scored_in_play) {
  const Scoring& sc = rules.scoring;
  RoundScore score;
  const int sides = static_cast<int>(piles.size());
  score.sides.resize(sides);
  // One allocation for the usual round: cards, spades, the two cassinos,
  // four aces and a few sweeps.
  score.items.reserve(16);
  // Per-side counts; a side is a player (at most 6) or a team.
  std::array<int, kMaxSides> cards_buf{}, spades_buf{}, diamonds_buf{};
  const std::span<int> cards(cards_buf.data(), sides);
  const std::span<int> spades(spades_buf.data(), sides);
  const std::span<int> diamonds(diamonds_buf.data(), sides);
  for (int s = 0; s < sides; ++s) {
    cards[s] = piles[s].size();
    spades[s] = (piles[s] & CardSet::OfSuit(Suit::kSpades)).size();
    diamonds[s] = (piles[s] & CardSet::OfSuit(Suit::kDiamonds)).size();
    score.sides[s].cards = cards[s];
    score.sides[s].spades = spades[s];
    score.sides[s].diamonds = diamonds[s];
  }
  auto add = [&](ScoreItemKind kind, int side, int points, Card card = Card()) {
    score.items.push_back({kind, side, points, card});
    score.sides[side].points += points;
  };
  auto holder = [&](Card c) { return HolderOf(piles, c); };
  // A card scored when captured (score_as_captured) is no item here.
  auto item = [&](Card c) { return !scored_in_play.contains(c); };
  if (sc.most_cards > 0) {
    int s = UniqueMost(cards);
    if (s < 0 && rules.tie_cards == TieCards::kSpades) {
      // Among the sides tied for most cards, strictly the most spades.
      const int most = *std::max_element(cards.begin(), cards.end());
      std::array<int, kMaxSides> tied_spades_buf;
      tied_spades_buf.fill(-1);
      const std::span<int> tied_spades(tied_spades_buf.data(), sides);
      for (int t = 0; t < sides; ++t) {
        if (cards[t] == most) tied_spades[t] = spades[t];
      }
      s = UniqueMost(tied_spades);
    }
    if (s >= 0) add(ScoreItemKind::kCards, s, sc.most_cards);
  }
  if (sc.most_spades > 0) {
    if (int s = UniqueMost(spades); s >= 0) {
      add(ScoreItemKind::kSpades, s, sc.most_spades);
    }
  }
  if (sc.most_diamonds > 0) {
    if (int s = UniqueMost(diamonds); s >= 0) {
      add(ScoreItemKind::kDiamonds, s, sc.most_diamonds);
    }
  }
  if (const int p = sc.card[kBigCassino.index()]; p > 0) {
    if (int s = holder(kBigCassino); s >= 0) {
      score.sides[s].big_cassino = true;
      if (item(kBigCassino)) add(ScoreItemKind::kBigCassino, s, p, kBigCassino);
    }
  }
  if (const int p = sc.card[kLittleCassino.index()]; p > 0) {
    if (int s = holder(kLittleCassino); s >= 0) {
      score.sides[s].little_cassino = true;
      if (item(kLittleCassino)) {
        add(ScoreItemKind::kLittleCassino, s, p, kLittleCassino);
      }
    }
  }
  const CardSet point_cards = PointCards(sc);
  for (Card c : point_cards - CardSet{kBigCassino, kLittleCassino}) {
    if (int s = holder(c); s >= 0 && item(c))
      add(ScoreItemKind::kCard, s, sc.card[c.index()], c);
  }
  for (Suit suit :
       {Suit::kSpades, Suit::kClubs, Suit::kHearts, Suit::kDiamonds}) {
    const Card ace = Card::Of(kAce, suit);
    if (int s = holder(ace); s >= 0) {
      ++score.sides[s].aces;
      if (sc.each_ace > 0 && item(ace)) {
        add(ScoreItemKind::kAce, s, sc.each_ace, ace);
      }
    }
  }
  if (sc.all_aces > 0) {
    const CardSet aces = rules.Pack() & CardSet::OfRank(kAce);
    for (int s = 0; s < sides && !aces.empty(); ++s) {
      if (piles[s].contains(aces)) add(ScoreItemKind::kAllAces, s, sc.all_aces);
    }
  }
  if (sc.each_spade > 0) {
    for (Card c : CardSet::OfSuit(Suit::kSpades)) {
      if (int s = holder(c); s >= 0 && item(c))
        add(ScoreItemKind::kSpade, s, sc.each_spade, c);
    }
  }
  // All the base points to one side (before sweeps are added).
  const int base = BasePoints(rules, point_cards);
  for (int s = 0; s < sides && base > 0; ++s) {
    if (score.sides[s].points == base) score.all_eleven_side = s;
  }
  for (const Sweep& sw : sweeps) {
    ++score.sides[sw.side].sweeps;
    // With sudden_death the sweep was added to the totals when made.
    if (!rules.sudden_death) add(ScoreItemKind::kSweep, sw.side, sw.points);
  }
  if (score.all_eleven_side >= 0 && rules.all_eleven == AllEleven::kBonus) {
    add(ScoreItemKind::kAllEleven, score.all_eleven_side, 1);
  }
  return score;
}

TotalsUpdate AddRoundScore(const RuleSet& rules, std::vector<int> totals,
                           const RoundScore& score) {
  TotalsUpdate u;
  u.totals = std::move(totals);
  if (rules.match == Match::kDealRounds) {
    // No target: the game decides after the last round.
    for (const ScoreItem& item : score.items)
      u.totals[item.side] += item.points;
    return u;
  }
  if (rules.game_end == GameEnd::kCountOut) {
    for (size_t i = 0; i < score.items.size(); ++i) {
      const ScoreItem& item = score.items[i];
      u.totals[item.side] += item.points;
      if (u.totals[item.side] >= rules.target) {
        u.winner = item.side;
        u.winning_item = static_cast<int>(i);
        break;
      }
    }
    return u;
  }
  for (const ScoreItem& item : score.items) u.totals[item.side] += item.points;
  const int best = *std::max_element(u.totals.begin(), u.totals.end());
  if (best >= rules.target &&
      std::count(u.totals.begin(), u.totals.end(), best) == 1) {
    u.winner = static_cast<int>(
        std::find(u.totals.begin(), u.totals.end(), best) - u.totals.begin());
  }
  return u;
}

}  // namespace cassino
