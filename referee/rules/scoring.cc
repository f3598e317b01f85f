#include "referee/rules/scoring.h"

#include <algorithm>

namespace cassino {
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
  }
  return "?";
}

RoundScore ScoreRound(const RuleSet& rules, std::span<const CardSet> piles,
                      std::span<const Sweep> sweeps) {
  RoundScore score;
  const int sides = static_cast<int>(piles.size());
  score.sides.resize(sides);
  std::vector<int> cards(sides), spades(sides);
  for (int s = 0; s < sides; ++s) {
    cards[s] = piles[s].size();
    spades[s] = (piles[s] & CardSet::OfSuit(Suit::kSpades)).size();
    score.sides[s].cards = cards[s];
    score.sides[s].spades = spades[s];
  }
  auto add = [&](ScoreItemKind kind, int side, int points, Card card = Card()) {
    score.items.push_back({kind, side, points, card});
    score.sides[side].points += points;
  };
  auto holder = [&](Card c) { return HolderOf(piles, c); };
  if (int s = UniqueMost(cards); s >= 0) add(ScoreItemKind::kCards, s, 3);
  if (int s = UniqueMost(spades); s >= 0) add(ScoreItemKind::kSpades, s, 1);
  if (int s = holder(kBigCassino); s >= 0) {
    score.sides[s].big_cassino = true;
    add(ScoreItemKind::kBigCassino, s, 2, kBigCassino);
  }
  if (int s = holder(kLittleCassino); s >= 0) {
    score.sides[s].little_cassino = true;
    add(ScoreItemKind::kLittleCassino, s, 1, kLittleCassino);
  }
  for (Card ace : kAceCountOutOrder) {
    if (int s = holder(ace); s >= 0) {
      ++score.sides[s].aces;
      add(ScoreItemKind::kAce, s, 1, ace);
    }
  }
  // All eleven base points to one side (before sweeps are added).
  for (int s = 0; s < sides; ++s) {
    if (score.sides[s].points == kBasePoints) score.all_eleven_side = s;
  }
  for (const Sweep& sw : sweeps) {
    ++score.sides[sw.side].sweeps;
    add(ScoreItemKind::kSweep, sw.side, sw.points);
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
