#include "competition/matchmaking.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

namespace cassino::competition {

MatchHistory::Pair MatchHistory::PairOf(const std::string& a,
                                        const std::string& b) {
  return a < b ? Pair{a, b} : Pair{b, a};
}

void MatchHistory::Started(int64_t at_us,
                           const std::vector<std::string>& accounts,
                           const std::vector<std::string>& bots) {
  Start start{at_us, accounts, bots.empty() ? accounts : bots};
  for (const std::string& a : start.accounts) {
    ++bot_games_[a];
    int64_t& last = last_started_[a];
    last = std::max(last, at_us);
  }
  const std::vector<std::string>& b = start.bots;
  for (size_t i = 0; i < b.size(); ++i) {
    for (size_t j = i + 1; j < b.size(); ++j) {
      if (b[i] == b[j]) continue;
      const Pair p = PairOf(b[i], b[j]);
      ++pair_games_[p];
      ++met_[p];
    }
  }
  started_.push_back(std::move(start));
}

void MatchHistory::Expire(int64_t now_us) {
  while (!started_.empty() && started_.front().at_us <= now_us - period_us_) {
    const Start& s = started_.front();
    for (const std::string& a : s.accounts) {
      if (--bot_games_[a] <= 0) bot_games_.erase(a);
    }
    const std::vector<std::string>& b = s.bots;
    for (size_t i = 0; i < b.size(); ++i) {
      for (size_t j = i + 1; j < b.size(); ++j) {
        if (b[i] == b[j]) continue;
        const Pair p = PairOf(b[i], b[j]);
        if (--pair_games_[p] <= 0) pair_games_.erase(p);
      }
    }
    started_.pop_front();
  }
}

int MatchHistory::BotGames(const std::string& account) const {
  auto it = bot_games_.find(account);
  return it == bot_games_.end() ? 0 : it->second;
}

int MatchHistory::PairGames(const std::string& a, const std::string& b) const {
  auto it = pair_games_.find(PairOf(a, b));
  return it == pair_games_.end() ? 0 : it->second;
}

bool MatchHistory::Met(const std::string& a, const std::string& b) const {
  return met_.contains(PairOf(a, b));
}

int64_t MatchHistory::LastStarted(const std::string& account) const {
  auto it = last_started_.find(account);
  return it == last_started_.end() ? 0 : it->second;
}

namespace {

// The n-th point of a low-discrepancy sequence in [0, 1).
double Spread(int n) {
  const double x = 0.5 + n * 0.6180339887498949;
  return x - std::floor(x);
}

// The q-quantile of `values` (sorted), by nearest rank.
double Quantile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  size_t i = static_cast<size_t>(q * static_cast<double>(sorted.size()));
  return sorted[std::min(i, sorted.size() - 1)];
}

// Rating distances beyond this many betas are all equally far: such pairs
// meet when closer ones are saturated or when they have never met.
constexpr double kFar = 3.0;

}  // namespace

std::vector<Match> MakeMatches(const MatchSettings& settings,
                               const RatingModel& model,
                               std::vector<Candidate> candidates,
                               const MatchHistory& history, int max_matches) {
  std::vector<Match> out;
  const int players = std::max(2, settings.players);
  // One candidate per account (the caller gives one; keep the first).
  {
    std::set<std::string> accounts;
    std::erase_if(candidates, [&](const Candidate& c) {
      return c.free_slots <= 0 ||
             history.BotGames(c.account) >= settings.max_bot_games ||
             !accounts.insert(c.account).second;
    });
  }
  std::sort(candidates.begin(), candidates.end(),
            [&](const Candidate& a, const Candidate& b) {
              const int ga = history.BotGames(a.account);
              const int gb = history.BotGames(b.account);
              if (ga != gb) return ga < gb;
              const int64_t la = history.LastStarted(a.account);
              const int64_t lb = history.LastStarted(b.account);
              if (la != lb) return la < lb;
              return a.account < b.account;
            });
  const double beta = model.beta > 0 ? model.beta : 1.0;
  const double pair_cap = std::max(1, settings.max_pair_games);
  std::vector<bool> used(candidates.size(), false);

  int busiest = 0;
  for (const Candidate& c : candidates) {
    busiest = std::max(busiest, history.BotGames(c.account));
  }
  auto pair_cost = [&](const Candidate& a, const Candidate& b) {
    double cost = 2.0 * history.PairGames(a.bot, b.bot) / pair_cap;
    if (!history.Met(a.bot, b.bot)) cost -= 1.5;
    return cost;
  };
  // The busier of two otherwise equal opponents gives way.
  auto load_cost = [&](const Candidate& c) {
    return 0.5 * history.BotGames(c.account) / (1.0 + busiest);
  };
  auto allowed = [&](const Candidate& a, const Candidate& b) {
    return a.account != b.account &&
           history.PairGames(a.bot, b.bot) < settings.max_pair_games;
  };

  for (size_t ai = 0; ai < candidates.size(); ++ai) {
    if (static_cast<int>(out.size()) >= max_matches) break;
    if (used[ai]) continue;
    const Candidate& anchor = candidates[ai];
    // Where the anchor aims: its own mean, or for a provisional anchor a
    // point of the others' spread.
    double target = anchor.rating.mu;
    const bool provisional = anchor.rated_games < settings.provisional_games;
    if (provisional) {
      std::vector<double> means;
      for (size_t j = 0; j < candidates.size(); ++j) {
        if (j != ai) means.push_back(candidates[j].rating.mu);
      }
      std::sort(means.begin(), means.end());
      target = Quantile(means, Spread(anchor.rated_games));
    }
    std::vector<size_t> group{ai};
    double group_mu = anchor.rating.mu;
    while (static_cast<int>(group.size()) < players) {
      size_t best = candidates.size();
      double best_cost = std::numeric_limits<double>::infinity();
      for (size_t j = 0; j < candidates.size(); ++j) {
        if (used[j] || std::find(group.begin(), group.end(), j) != group.end())
          continue;
        const Candidate& c = candidates[j];
        bool ok = true;
        double cost = 0;
        for (size_t g : group) {
          if (!allowed(candidates[g], c)) {
            ok = false;
            break;
          }
          cost += pair_cost(candidates[g], c);
        }
        if (!ok) continue;
        const double aim =
            provisional ? target : group_mu / static_cast<double>(group.size());
        cost +=
            std::min(std::abs(c.rating.mu - aim) / beta, kFar) + load_cost(c);
        if (cost < best_cost ||
            (best != candidates.size() && cost == best_cost &&
             c.account < candidates[best].account)) {
          best = j;
          best_cost = cost;
        }
      }
      if (best == candidates.size()) break;
      group.push_back(best);
      group_mu += candidates[best].rating.mu;
    }
    if (static_cast<int>(group.size()) < players) continue;
    for (size_t g : group) used[g] = true;

    std::vector<size_t> seats;
    if (players == 2) {
      const Candidate& a = candidates[group[0]];
      const Candidate& b = candidates[group[1]];
      seats = b.seat_balance < a.seat_balance
                  ? std::vector<size_t>{group[1], group[0]}
                  : std::vector<size_t>{group[0], group[1]};
    } else if (settings.partnerships && players == 4) {
      // The anchor with each possible partner; the closest split.
      size_t partner = group[1];
      double best = std::numeric_limits<double>::infinity();
      for (size_t p = 1; p < 4; ++p) {
        double a = 0, b = 0;
        for (size_t g = 0; g < 4; ++g) {
          (g == 0 || g == p ? a : b) += candidates[group[g]].rating.mu;
        }
        if (std::abs(a - b) < best) {
          best = std::abs(a - b);
          partner = group[p];
        }
      }
      std::vector<size_t> others;
      for (size_t g : group) {
        if (g != group[0] && g != partner) others.push_back(g);
      }
      seats = {group[0], others[0], partner, others[1]};
    } else {
      seats = group;
      std::sort(seats.begin(), seats.end(), [&](size_t x, size_t y) {
        return candidates[x].account < candidates[y].account;
      });
      const int shift = history.BotGames(anchor.account) % players;
      std::rotate(seats.begin(), seats.begin() + shift, seats.end());
    }
    Match m;
    for (size_t s : seats) {
      m.seats.push_back(candidates[s].bot);
      m.accounts.push_back(candidates[s].account);
    }
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace cassino::competition
