#include "tools/stats/ladder.h"

#include <algorithm>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "competition/finishing_order.h"
#include "nlohmann/json.hpp"
#include "recorder/ladder_reader.h"
#include "recorder/ladder_record.h"
#include "tools/stats/table_format.h"

namespace cassino::stats {
namespace {

std::string StatusName(recorder::GameStatus s) {
  switch (s) {
    case recorder::GameStatus::kRunning:
      return "running";
    case recorder::GameStatus::kFinished:
      return "finished";
    case recorder::GameStatus::kAborted:
      return "aborted";
  }
  return "running";
}

std::string Num(double v) { return absl::StrFormat("%.6f", v); }

}  // namespace

absl::StatusOr<LadderStats> ReadLadder(
    const std::vector<std::string>& databases, const std::string& ladder,
    const LadderOptions& options) {
  absl::StatusOr<recorder::LadderRecords> records =
      recorder::ReadLadderRecords(databases, ladder);
  if (!records.ok()) return records.status();
  LadderStats out;
  out.ladder = ladder;
  out.row = records->ladder;
  if (out.row.has_value()) {
    const nlohmann::json settings = nlohmann::json::parse(
        out.row->settings, nullptr, /*allow_exceptions=*/false);
    if (settings.is_object() && settings.contains("provisional_games") &&
        settings["provisional_games"].is_number_integer()) {
      out.provisional_games = settings["provisional_games"].get<int>();
    }
  }
  competition::LadderTable table(out.model, options.details);
  std::map<std::pair<std::string, std::string>, LadderPair> pairs;
  for (const recorder::GameSummary& g : records->games) {
    out.games_running += g.status == recorder::GameStatus::kRunning;
    out.games_aborted += g.status == recorder::GameStatus::kAborted;
    std::optional<competition::LadderGame> rated = recorder::LadderGameOf(g);
    if (!rated.has_value()) continue;
    if (table.Add(*rated) != competition::LadderTable::Added::kApplied) {
      continue;
    }
    if (!options.details) continue;
    const std::vector<int> ranks =
        competition::OutcomeRanks(rated->winner, rated->totals);
    for (size_t i = 0; i < rated->sides.size(); ++i) {
      for (size_t j = i + 1; j < rated->sides.size(); ++j) {
        for (const std::string& x : rated->sides[i]) {
          for (const std::string& y : rated->sides[j]) {
            const bool swap = y < x;
            LadderPair& p =
                pairs[swap ? std::make_pair(y, x) : std::make_pair(x, y)];
            p.a = swap ? y : x;
            p.b = swap ? x : y;
            ++p.games;
            const int rx = ranks[i], ry = ranks[j];
            if (rx == ry) {
              ++p.draws;
            } else if ((rx < ry) != swap) {
              ++p.a_wins;
            } else {
              ++p.b_wins;
            }
          }
        }
      }
    }
  }
  out.leaderboard = table.Leaderboard(options.all_versions);
  out.games_rated = table.games();
  if (options.details) {
    out.history = table.history();
    for (auto& [key, p] : pairs) out.pairs.push_back(p);
    std::vector<const recorder::GameSummary*> recent;
    for (const recorder::GameSummary& g : records->games) recent.push_back(&g);
    std::sort(
        recent.begin(), recent.end(),
        [](const recorder::GameSummary* a, const recorder::GameSummary* b) {
          return std::make_pair(a->created_us, a->game_id) >
                 std::make_pair(b->created_us, b->game_id);
        });
    for (const recorder::GameSummary* g : recent) {
      if (static_cast<int>(out.recent.size()) >= options.recent) break;
      out.recent.push_back({g->game_id, g->bots, StatusName(g->status),
                            g->winner, g->end_reason, g->totals, g->created_us,
                            g->finished_us});
    }
    out.health = records->bots;
  }
  return out;
}

nlohmann::json StandingJson(const competition::Standing& e,
                            int provisional_games) {
  return {{"rank", e.rank},
          {"bot", e.bot},
          {"account", e.account},
          {"version", e.version},
          {"mu", e.rating.mu},
          {"sigma", e.rating.sigma},
          {"conservative", e.conservative},
          {"games", e.games},
          {"wins", e.wins},
          {"losses", e.losses},
          {"draws", e.draws},
          {"provisional", e.games < provisional_games},
          {"current", e.current},
          {"last_game_us", e.last_game_us}};
}

nlohmann::json PairJson(const LadderPair& p) {
  return {{"a", p.a},           {"b", p.b},           {"games", p.games},
          {"a_wins", p.a_wins}, {"b_wins", p.b_wins}, {"draws", p.draws}};
}

std::string FormatLadder(const LadderStats& s, Format format) {
  Table board{
      "leaderboard",
      absl::StrCat("Ladder ", s.ladder, ": ", s.games_rated, " games rated (",
                   s.games_running, " running, ", s.games_aborted,
                   " aborted); ordered by mu - 3 sigma"),
      {"rank", "bot", "conservative", "mu", "sigma", "games", "wins", "losses",
       "draws", "provisional", "current"},
      2,
      {}};
  for (const competition::Standing& e : s.leaderboard) {
    board.rows.push_back({absl::StrCat(e.rank), e.bot, Num(e.conservative),
                          Num(e.rating.mu), Num(e.rating.sigma),
                          absl::StrCat(e.games), absl::StrCat(e.wins),
                          absl::StrCat(e.losses), absl::StrCat(e.draws),
                          e.games < s.provisional_games ? "yes" : "no",
                          e.current ? "yes" : "no"});
  }
  Table pairs{"pairs",
              "Pairs played",
              {"a", "b", "games", "a_wins", "b_wins", "draws"},
              2,
              {}};
  for (const LadderPair& p : s.pairs) {
    pairs.rows.push_back({p.a, p.b, absl::StrCat(p.games),
                          absl::StrCat(p.a_wins), absl::StrCat(p.b_wins),
                          absl::StrCat(p.draws)});
  }
  switch (format) {
    case Format::kCsv: {
      std::string out = RenderCsv(board);
      if (!s.pairs.empty()) out += "\n" + RenderCsv(pairs);
      return out;
    }
    case Format::kJson: {
      nlohmann::json j;
      j["ladder"] = s.ladder;
      j["rating_model"] = {{"model", "Weng-Lin Plackett-Luce"},
                           {"mu", s.model.mu},
                           {"sigma", s.model.sigma},
                           {"beta", s.model.beta},
                           {"kappa", s.model.kappa},
                           {"tau", s.model.tau},
                           {"order", "mu - 3 sigma"}};
      j["games_rated"] = s.games_rated;
      j["games_running"] = s.games_running;
      j["games_aborted"] = s.games_aborted;
      nlohmann::json rows = nlohmann::json::array();
      for (const competition::Standing& e : s.leaderboard) {
        rows.push_back(StandingJson(e, s.provisional_games));
      }
      j["leaderboard"] = std::move(rows);
      nlohmann::json prs = nlohmann::json::array();
      for (const LadderPair& p : s.pairs) prs.push_back(PairJson(p));
      j["pairs"] = std::move(prs);
      return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) +
             "\n";
    }
    default: {
      std::string out = RenderText(board);
      if (!s.pairs.empty()) out += "\n" + RenderText(pairs);
      return out;
    }
  }
}

}  // namespace cassino::stats
