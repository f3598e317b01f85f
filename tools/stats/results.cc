// From games and counts to the tables of Stats.

#include "tools/stats/results.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "competition/bradley_terry.h"
#include "competition/finishing_order.h"

namespace cassino::stats::internal {
namespace {

// What the per-game pass accumulates, indexed by interned bot.
struct Tables {
  explicit Tables(size_t n)
      : bots(n),
        seen(n, false),
        h2h(n, std::vector<HeadToHead>(n)),
        pair_wins(n, std::vector<double>(n, 0)) {}
  std::vector<BotStats> bots;
  std::vector<bool> seen;  // holds a seat in some finished game
  std::vector<std::vector<HeadToHead>> h2h;
  std::vector<std::vector<double>> pair_wins;  // draws count half
  std::vector<DuplicateResult> duplicates;     // a, b: interned, a < b
};

// One pairwise result between every bot of side `a` and every bot of side
// `b`: `score` is a's share (1 won, 0.5 drew, 0 lost).
void AddSidePair(const GameInfo& g, int a, int b, double score, Tables* t) {
  for (int m = 0; m < g.members; ++m) {
    if (g.member_side[m] != a) continue;
    for (int o = 0; o < g.members; ++o) {
      if (g.member_side[o] != b) continue;
      const int x = g.member_bot[m], y = g.member_bot[o];
      if (x == y) continue;
      if (score == 0.5) {
        ++t->h2h[x][y].draws;
        ++t->h2h[y][x].draws;
        t->pair_wins[x][y] += 0.5;
        t->pair_wins[y][x] += 0.5;
      } else {
        const int w = score > 0.5 ? x : y, l = score > 0.5 ? y : x;
        ++t->h2h[w][l].wins;
        ++t->h2h[l][w].losses;
        t->pair_wins[w][l] += 1;
      }
    }
  }
}

// The pairwise results of a game (stats.h): by the finishing order
// (finishing_order.h) when the final totals are known, which for two sides
// is the game's win / loss / draw; without totals, the winning side beats
// every other side and a game without a winner is a draw between all.
void AddPairwise(const GameInfo& g, Tables* t) {
  if (g.have_totals && g.sides > 2) {
    const std::vector<int> totals(g.totals.begin(), g.totals.begin() + g.sides);
    for (const competition::PairwiseResult& r :
         competition::PairwiseResults(g.winner, totals)) {
      AddSidePair(g, r.a, r.b, r.score, t);
    }
    return;
  }
  for (int a = 0; a < g.sides; ++a) {
    for (int b = a + 1; b < g.sides; ++b) {
      if (g.winner < 0) {
        AddSidePair(g, a, b, 0.5, t);
      } else if (g.winner == a || g.winner == b) {
        AddSidePair(g, a, b, g.winner == a ? 1 : 0, t);
      }
    }
  }
}

// Results per game: per bot, pairwise, per seat.
void TallyResults(const std::vector<GameInfo>& games, Tables* t,
                  std::vector<SeatStats>* seats) {
  std::map<std::tuple<int, int, int>, std::pair<int64_t, int64_t>> seat_tally;
  for (const GameInfo& g : games) {
    for (int s = 0; s < g.players; ++s) t->seen[g.seat_bot[s]] = true;
    for (int i = 0; i < g.self_players; ++i) ++t->bots[g.self_bot[i]].self_play;
    for (int m = 0; m < g.members; ++m) {
      BotStats& b = t->bots[g.member_bot[m]];
      ++b.games;
      if (g.winner < 0) {
        ++b.draws;
      } else if (g.winner == g.member_side[m]) {
        ++b.wins;
      } else {
        ++b.losses;
      }
    }
    AddPairwise(g, t);
    for (int s = 0; s < g.players; ++s) {
      auto& tally = seat_tally[{g.players, g.sides, s}];
      ++tally.first;
      const int side = g.sides == g.players ? s : s % 2;
      if (g.winner >= 0 && g.winner == side) ++tally.second;
    }
  }
  for (const auto& [key, tally] : seat_tally) {
    SeatStats s;
    std::tie(s.players, s.sides, s.seat) = key;
    s.win_rate = Wilson(tally.second, tally.first);
    s.expected = 1.0 / s.sides;
    seats->push_back(s);
  }
}

int SideOfBot(const GameInfo& g, int bot) {
  return g.member_bot[0] == bot ? g.member_side[0] : g.member_side[1];
}

// Scores one duplicate pair (games h and g, bots lo < hi) into the tables.
void ScorePair(const GameInfo& h, const GameInfo& g, int lo, int hi,
               std::vector<std::vector<int64_t>>* dup_index, Tables* t) {
  int lo_wins = 0, hi_wins = 0;
  int lo_half_points = 0;  // 2 a win, 1 no winner
  int64_t lo_points = 0, hi_points = 0;
  for (const GameInfo* x : {&h, &g}) {
    const int ls = SideOfBot(*x, lo), hs = SideOfBot(*x, hi);
    lo_wins += x->winner == ls;
    hi_wins += x->winner == hs;
    lo_half_points += x->winner == ls ? 2 : x->winner < 0 ? 1 : 0;
    lo_points += x->totals[ls];
    hi_points += x->totals[hs];
  }
  int result;  // +1 lo, -1 hi, 0 draw
  if (lo_wins == 2) {
    result = 1;
  } else if (hi_wins == 2) {
    result = -1;
  } else {
    result = lo_points > hi_points ? 1 : lo_points < hi_points ? -1 : 0;
  }
  int64_t& index = (*dup_index)[lo][hi];
  if (index < 0) {
    index = static_cast<int64_t>(t->duplicates.size());
    t->duplicates.push_back({lo, hi});
  }
  DuplicateResult& d = t->duplicates[index];
  BotStats& a = t->bots[lo];
  BotStats& b = t->bots[hi];
  ++d.pairs;
  ++d.penta[lo_half_points];
  ++a.dup_pairs;
  ++b.dup_pairs;
  if (result > 0) {
    ++d.a_wins;
    ++a.dup_wins;
    ++b.dup_losses;
  } else if (result < 0) {
    ++d.b_wins;
    ++b.dup_wins;
    ++a.dup_losses;
  } else {
    ++d.draws;
    ++a.dup_draws;
    ++b.dup_draws;
  }
}

// Duplicate pairs: games grouped by decks, rules and the two bots, paired
// in (created_us, game_id) order with the sides swapped.
void MatchDuplicatePairs(const std::vector<GameInfo>& games, Tables* t) {
  const size_t nbots = t->bots.size();
  std::vector<std::vector<int64_t>> dup_index(nbots,
                                              std::vector<int64_t>(nbots, -1));
  struct Candidate {
    int64_t created_us;
    size_t game;
  };
  std::unordered_map<std::string, std::vector<Candidate>> groups;
  for (size_t k = 0; k < games.size(); ++k) {
    const GameInfo& g = games[k];
    if (g.sides != 2 || g.members != 2 || g.self_players != 0 ||
        !g.have_totals || g.deck_key.empty() || g.deck_key == "decks:") {
      continue;
    }
    // Exactly one distinct bot per side: members are distinct bots on
    // single sides; two members on two sides means one each.
    if (g.member_side[0] == g.member_side[1]) continue;
    const int lo = std::min(g.member_bot[0], g.member_bot[1]);
    const int hi = std::max(g.member_bot[0], g.member_bot[1]);
    std::string key =
        absl::StrCat(g.deck_key, "\x1f", g.rules, "\x1f", lo, ",", hi);
    groups[key].push_back({g.created_us, k});
  }
  for (auto& [key, list] : groups) {
    if (list.size() < 2) continue;
    std::sort(list.begin(), list.end(),
              [&](const Candidate& a, const Candidate& b) {
                return std::tie(a.created_us, games[a.game].id) <
                       std::tie(b.created_us, games[b.game].id);
              });
    const GameInfo& first = games[list[0].game];
    const int lo = std::min(first.member_bot[0], first.member_bot[1]);
    const int hi = std::max(first.member_bot[0], first.member_bot[1]);
    // Unpaired games by which side `lo` held.
    std::vector<size_t> waiting[2];
    std::vector<size_t> head(2, 0);
    for (const Candidate& c : list) {
      const GameInfo& g = games[c.game];
      const int orient = SideOfBot(g, lo);
      const int other = 1 - orient;
      if (head[other] < waiting[other].size()) {
        const GameInfo& h = games[waiting[other][head[other]++]];
        ScorePair(h, g, lo, hi, &dup_index, t);
      } else {
        waiting[orient].push_back(c.game);
      }
    }
  }
}

// Per-bot figures from the scan's counts.
void AddCounts(const Partial& total, Tables* t) {
  for (size_t b = 0; b < t->bots.size(); ++b) {
    BotStats& s = t->bots[b];
    s.win_rate = Wilson(s.wins, s.games);
    s.rounds = total.rounds[b];
    if (s.rounds > 0) {
      for (int k = 0; k < kItemKinds; ++k) {
        s.points_per_round[k] =
            static_cast<double>(total.points[b][k]) / s.rounds;
      }
      s.total_per_round =
          static_cast<double>(total.points[b][kItemKinds]) / s.rounds;
    }
    s.forfeits = total.forfeits[b];
    s.timeouts = total.timeouts[b];
    s.rejects = total.rejects[b];
    s.moves = total.move_ms[b].total();
    s.move_p50_ms = total.move_ms[b].Percentile(0.50);
    s.move_p95_ms = total.move_ms[b].Percentile(0.95);
  }
}

// The ratings of the bots that played, then every table in rating order
// (highest first, then name).
void RateAndOrder(Tables& t, const Options& options, Stats* stats) {
  const size_t nbots = t.bots.size();
  std::vector<int> keep;
  for (size_t b = 0; b < nbots; ++b) {
    if (t.seen[b]) keep.push_back(static_cast<int>(b));
  }
  std::vector<std::vector<double>> w(keep.size(),
                                     std::vector<double>(keep.size(), 0));
  for (size_t i = 0; i < keep.size(); ++i) {
    for (size_t j = 0; j < keep.size(); ++j) {
      w[i][j] = t.pair_wins[keep[i]][keep[j]];
    }
  }
  const competition::Ratings ratings =
      competition::FitBradleyTerry(w, options.prior_draws);
  stats->rating_iterations = ratings.iterations;
  stats->rating_converged = ratings.converged;
  for (size_t i = 0; i < keep.size(); ++i) {
    t.bots[keep[i]].rating = ratings.elo[i];
    t.bots[keep[i]].rating_se = ratings.se[i];
  }
  std::vector<size_t> order(keep.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const BotStats& x = t.bots[keep[a]];
    const BotStats& y = t.bots[keep[b]];
    if (x.rating != y.rating) return x.rating > y.rating;
    return x.name < y.name;
  });
  std::vector<int> new_index(nbots, -1);
  for (size_t r = 0; r < order.size(); ++r) {
    new_index[keep[order[r]]] = static_cast<int>(r);
    stats->bots.push_back(std::move(t.bots[keep[order[r]]]));
  }
  const size_t m = order.size();
  stats->head_to_head.assign(m, std::vector<HeadToHead>(m));
  stats->los.assign(m, std::vector<double>(m, 0.5));
  for (size_t a = 0; a < m; ++a) {
    for (size_t b = 0; b < m; ++b) {
      stats->head_to_head[a][b] = t.h2h[keep[order[a]]][keep[order[b]]];
      stats->los[a][b] = ratings.los[order[a]][order[b]];
    }
  }
  for (DuplicateResult d : t.duplicates) {
    int a = new_index[d.a], b = new_index[d.b];
    if (a > b) {
      std::swap(a, b);
      std::swap(d.a_wins, d.b_wins);
      std::reverse(d.penta.begin(), d.penta.end());
    }
    d.a = a;
    d.b = b;
    stats->duplicates.push_back(d);
  }
  std::sort(stats->duplicates.begin(), stats->duplicates.end(),
            [](const DuplicateResult& x, const DuplicateResult& y) {
              return std::tie(x.a, x.b) < std::tie(y.a, y.b);
            });
}

}  // namespace

void Summarize(const GameTable& table, const Partial& total,
               const Options& options, Stats* stats) {
  Tables t(table.bot_names().size());
  for (size_t b = 0; b < t.bots.size(); ++b) {
    t.bots[b].name = table.bot_names()[b];
  }
  TallyResults(table.games(), &t, &stats->seats);
  MatchDuplicatePairs(table.games(), &t);
  for (const DuplicateResult& d : t.duplicates) {
    stats->summary.duplicate_pairs += d.pairs;
  }
  AddCounts(total, &t);
  RateAndOrder(t, options, stats);
}

}  // namespace cassino::stats::internal
