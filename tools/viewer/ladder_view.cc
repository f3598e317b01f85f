#include "tools/viewer/ladder_view.h"

#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"
#include "recorder/ladder_reader.h"
#include "tools/stats/ladder.h"
#include "tools/viewer/game_view.h"

namespace cassino::viewer {

using Json = nlohmann::json;

absl::StatusOr<std::string> LaddersJson(const std::vector<std::string>& paths) {
  std::set<std::string> names;
  for (const std::string& path : paths) {
    absl::StatusOr<std::vector<std::string>> some = recorder::LadderNames(path);
    if (!some.ok()) return some.status();
    names.insert(some->begin(), some->end());
  }
  Json list = Json::array();
  for (const std::string& name : names) {
    absl::StatusOr<recorder::LadderRecords> r =
        recorder::ReadLadderRecords(paths, name);
    if (!r.ok()) return r.status();
    Json l = {{"name", name}};
    if (r->ladder.has_value()) {
      l["status"] = r->ladder->status;
      l["rules"] = r->ladder->rules;
      l["duplicate"] = r->ladder->duplicate;
      l["created_us"] = r->ladder->created_us;
    }
    int finished = 0;
    std::set<std::string> bots;
    for (const auto& g : r->games) {
      finished += g.status == recorder::GameStatus::kFinished;
      bots.insert(g.bots.begin(), g.bots.end());
    }
    l["games"] = r->games.size();
    l["finished"] = finished;
    l["versions"] = bots.size();
    list.push_back(std::move(l));
  }
  return DumpJson({{"ladders", std::move(list)}});
}

std::vector<size_t> KeptHistoryPoints(size_t n, size_t max) {
  std::vector<size_t> kept;
  if (n <= max) {
    for (size_t i = 0; i < n; ++i) kept.push_back(i);
    return kept;
  }
  // i * (n - 1) / (max - 1), rounded: 0 first, n - 1 last, and strictly
  // increasing since n - 1 > max - 1.
  for (size_t i = 0; i < max; ++i) {
    kept.push_back((i * (n - 1) + (max - 1) / 2) / (max - 1));
  }
  return kept;
}

absl::StatusOr<std::string> LadderJson(const std::vector<std::string>& paths,
                                       const std::string& name) {
  stats::LadderOptions options;
  options.all_versions = true;
  options.details = true;
  absl::StatusOr<stats::LadderStats> s =
      stats::ReadLadder(paths, name, options);
  if (!s.ok()) return s.status();
  if (!s->row.has_value() && s->leaderboard.empty() && s->recent.empty()) {
    return absl::NotFoundError(absl::StrCat("no ladder '", name, "'"));
  }
  std::map<std::string, const recorder::LadderBotRow*> health;
  for (const recorder::LadderBotRow& b : s->health) health[b.account] = &b;
  Json j = {{"name", name},
            {"games_rated", s->games_rated},
            {"games_running", s->games_running},
            {"games_aborted", s->games_aborted},
            {"provisional_games", s->provisional_games},
            {"model",
             {{"name", "Weng-Lin Plackett-Luce"},
              {"mu", s->model.mu},
              {"sigma", s->model.sigma},
              {"beta", s->model.beta},
              {"k", s->model.k}}}};
  if (s->row.has_value()) {
    j["status"] = s->row->status;
    j["reason"] = s->row->reason;
    j["rules"] = s->row->rules;
    j["duplicate"] = s->row->duplicate;
    j["created_us"] = s->row->created_us;
    j["per_move_ms"] = s->row->clock.per_move_ms;
  }
  Json board = Json::array();
  for (const competition::Standing& e : s->leaderboard) {
    Json row = stats::StandingJson(e, s->provisional_games);
    auto h = health.find(e.account);
    row["on_probation"] = h != health.end() && h->second->probation_us != 0;
    row["probation_reason"] =
        h != health.end() ? h->second->reason : std::string();
    board.push_back(std::move(row));
  }
  j["leaderboard"] = std::move(board);
  Json history = Json::object();
  for (const auto& [bot, points] : s->history) {
    Json list = Json::array();
    for (const size_t i : KeptHistoryPoints(points.size(), kMaxHistoryPoints)) {
      const competition::HistoryPoint& p = points[i];
      list.push_back({p.finished_us, p.rating.mu, p.rating.sigma});
    }
    history[bot] = std::move(list);
  }
  j["history"] = std::move(history);
  Json recent = Json::array();
  for (const stats::LadderGameRow& g : s->recent) {
    recent.push_back({{"game_id", g.game_id},
                      {"bots", g.bots},
                      {"status", g.status},
                      {"winner", g.winner},
                      {"end_reason", g.end_reason},
                      {"totals", g.totals},
                      {"created_us", g.created_us},
                      {"finished_us", g.finished_us}});
  }
  j["recent"] = std::move(recent);
  Json pairs = Json::array();
  for (const stats::LadderPair& p : s->pairs)
    pairs.push_back(stats::PairJson(p));
  j["pairs"] = std::move(pairs);
  return DumpJson(j);
}

}  // namespace cassino::viewer
