#include "recorder/standings.h"

#include <algorithm>
#include <map>
#include <set>

namespace cassino::recorder {

std::vector<Standing> ComputeStandings(
    const std::vector<std::string>& participants,
    const std::vector<StandingGame>& games) {
  std::map<std::string, Standing> by_bot;
  for (const std::string& p : participants) by_bot[p].bot = p;
  for (const StandingGame& g : games) {
    const int sides = static_cast<int>(g.totals.size());
    // Side of seat s: s in two-player games (the only tournament games);
    // seat mod sides in general, as the engine seats partnerships.
    auto side_of = [&](size_t seat) {
      return sides > 0 ? static_cast<int>(seat) % sides : 0;
    };
    std::map<std::string, std::set<int>> sides_of;
    for (size_t seat = 0; seat < g.bots.size(); ++seat) {
      sides_of[g.bots[seat]].insert(side_of(seat));
    }
    for (size_t seat = 0; seat < g.bots.size(); ++seat) {
      Standing& s = by_bot[g.bots[seat]];
      s.bot = g.bots[seat];
      if (seat < g.forfeits.size()) s.forfeits += g.forfeits[seat];
    }
    for (const auto& [bot, bot_sides] : sides_of) {
      if (bot_sides.size() != 1) continue;  // self-play counts for nobody
      const int side = *bot_sides.begin();
      Standing& s = by_bot[bot];
      ++s.games;
      if (g.winner < 0) {
        ++s.draws;
      } else if (g.winner == side) {
        ++s.wins;
      } else {
        ++s.losses;
      }
      for (int k = 0; k < sides; ++k) {
        (k == side ? s.points_for : s.points_against) += g.totals[k];
      }
    }
  }
  std::vector<Standing> out;
  for (auto& [bot, s] : by_bot) {
    s.score = s.wins + s.draws / 2.0;
    out.push_back(s);
  }
  auto diff = [](const Standing& s) { return s.points_for - s.points_against; };
  std::sort(out.begin(), out.end(), [&](const Standing& a, const Standing& b) {
    if (a.score != b.score) return a.score > b.score;
    if (diff(a) != diff(b)) return diff(a) > diff(b);
    return a.bot < b.bot;
  });
  for (size_t i = 0; i < out.size(); ++i) {
    const bool tied = i > 0 && out[i].score == out[i - 1].score &&
                      diff(out[i]) == diff(out[i - 1]);
    out[i].rank = tied ? out[i - 1].rank : static_cast<int>(i) + 1;
  }
  return out;
}

absl::StatusOr<std::vector<Standing>> TournamentStandings(
    const Recorder& recorder, const std::string& label,
    const std::vector<std::string>& participants,
    const std::vector<GameSummary>& summaries) {
  absl::StatusOr<std::map<std::string, std::vector<int>>> forfeits =
      recorder.ForfeitsByLabel(label);
  if (!forfeits.ok()) return forfeits.status();
  std::vector<StandingGame> games;
  games.reserve(summaries.size());
  for (const GameSummary& summary : summaries) {
    if (summary.status != GameStatus::kFinished) continue;
    StandingGame g;
    g.bots = summary.bots;
    if (auto it = forfeits->find(summary.game_id); it != forfeits->end()) {
      g.forfeits = it->second;
    }
    g.winner = summary.winner;
    g.totals = summary.totals;
    games.push_back(std::move(g));
  }
  return ComputeStandings(participants, games);
}

}  // namespace cassino::recorder
