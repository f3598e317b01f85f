// ReadStats: the driver of the three passes (game_table.h, event_scan.h,
// results.h) over a record set, and the small public helpers of stats.h.
// The formatters are in stats_format.cc.

#include "tools/stats/stats.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "recorder/sqlite.h"
#include "rules/rule_set.h"
#include "tools/stats/event_scan.h"
#include "tools/stats/game_table.h"
#include "tools/stats/results.h"

namespace cassino::stats {
namespace {

using internal::GameTable;

// Opens one database of the set read-only and checks it is a recorder
// database this version can read.
absl::StatusOr<recorder::Connection> OpenRecordDatabase(
    const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    return absl::NotFoundError(absl::StrCat(path, ": no such file"));
  }
  absl::StatusOr<recorder::Connection> db =
      recorder::OpenDatabase(path, recorder::OpenMode::kReadOnly);
  if (!db.ok()) return db.status();
  if (absl::Status s = recorder::CheckSchemaNotNewer(db->get(), path);
      !s.ok()) {
    return s;
  }
  for (const char* table : {"games", "seats", "events"}) {
    absl::StatusOr<bool> has = recorder::HasTable(db->get(), table);
    if (!has.ok() || !*has) {
      return absl::FailedPreconditionError(
          absl::StrCat(path,
                       ": not a game record database (no games, seats "
                       "and events tables)"));
    }
  }
  return db;
}

// FailedPrecondition naming a game id held by two databases of the set.
absl::Status CheckIdsUnique(const GameTable& table) {
  if (table.segments().size() < 2) return absl::OkStatus();
  std::unordered_map<std::string_view, size_t> where;
  where.reserve(table.games().size());
  for (size_t s = 0; s < table.segments().size(); ++s) {
    const internal::Segment& seg = table.segments()[s];
    for (size_t k = seg.first; k < seg.last; ++k) {
      auto [it, inserted] = where.emplace(table.games()[k].id, s);
      if (!inserted) {
        return absl::FailedPreconditionError(absl::StrCat(
            "game ", table.games()[k].id, " is in both ",
            table.segments()[it->second].path, " and ", seg.path,
            ": a database listed twice or copied; its games would count "
            "twice"));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace

// ---------------------------------------------------------------------------

absl::StatusOr<int64_t> ParseDate(absl::string_view date) {
  int y = 0, m = 0, d = 0;
  if (date.size() != 10 || date[4] != '-' || date[7] != '-' ||
      !absl::SimpleAtoi(date.substr(0, 4), &y) ||
      !absl::SimpleAtoi(date.substr(5, 2), &m) ||
      !absl::SimpleAtoi(date.substr(8, 2), &d)) {
    return absl::InvalidArgumentError(
        absl::StrCat("bad date '", date, "': expected YYYY-MM-DD"));
  }
  const std::chrono::year_month_day ymd{
      std::chrono::year(y), std::chrono::month(m), std::chrono::day(d)};
  if (!ymd.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("bad date '", date, "': no such day"));
  }
  const std::chrono::sys_days days(ymd);
  return static_cast<int64_t>(days.time_since_epoch().count()) * kDayUs;
}

Proportion Wilson(int64_t successes, int64_t trials, double z) {
  Proportion p;
  p.successes = successes;
  p.trials = trials;
  if (trials <= 0) return p;
  const double n = static_cast<double>(trials);
  const double phat = successes / n;
  const double z2 = z * z;
  const double denom = 1 + z2 / n;
  const double center = (phat + z2 / (2 * n)) / denom;
  const double half =
      z / denom * std::sqrt(phat * (1 - phat) / n + z2 / (4 * n * n));
  p.rate = phat;
  p.low = std::max(0.0, center - half);
  p.high = std::min(1.0, center + half);
  return p;
}

absl::string_view ItemName(int kind) {
  static constexpr absl::string_view kNames[] = {
      "cards", "spades", "big_cassino", "little_cassino", "aces", "sweeps"};
  return kind >= 0 && kind < kItemKinds ? kNames[kind] : "?";
}

absl::StatusOr<Stats> ReadStats(const std::string& path, const Filter& filter,
                                const Options& options) {
  return ReadStats(std::span<const std::string>(&path, 1), filter, options);
}

absl::StatusOr<Stats> ReadStats(std::span<const std::string> paths,
                                const Filter& filter, const Options& options) {
  const auto start = std::chrono::steady_clock::now();
  const bool trace = std::getenv("CASSINO_STATS_TRACE") != nullptr;
  auto phase = [&](const char* name) {
    if (!trace) return;
    std::fprintf(
        stderr, "stats: %-8s %.3f s\n", name,
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count());
  };
  std::optional<RuleSet> wanted_rules;
  if (!filter.rules.empty()) {
    absl::StatusOr<RuleSet> rules = RuleSet::Parse(filter.rules);
    if (!rules.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--rules: ", rules.status().message()));
    }
    wanted_rules = *std::move(rules);
  }
  Stats stats;
  stats.filter = filter;
  stats.move_times = options.move_times;

  // 1. The games and their seats, database by database.
  std::vector<recorder::Connection> dbs;
  GameTable table(filter, std::move(wanted_rules));
  for (const std::string& path : paths) {
    absl::StatusOr<recorder::Connection> db = OpenRecordDatabase(path);
    if (!db.ok()) return db.status();
    if (absl::Status s = table.Read(db->get(), path, &stats.summary); !s.ok()) {
      return s;
    }
    dbs.push_back(*std::move(db));
  }
  if (absl::Status s = CheckIdsUnique(table); !s.ok()) return s;
  {
    std::map<std::string, int64_t> by_rules;  // old and new texts merge
    for (const internal::RulesInfo& r : table.rules()) {
      if (r.games > 0) by_rules[r.canonical] += r.games;
    }
    for (const auto& [rules, count] : by_rules) {
      stats.rule_sets.push_back({rules, count});
    }
    std::stable_sort(stats.rule_sets.begin(), stats.rule_sets.end(),
                     [](const RuleSetCount& a, const RuleSetCount& b) {
                       return a.games > b.games;
                     });
  }
  phase("games");

  // 2. The tallies or events of the finished games.
  internal::Partial total(table.bot_names().size());
  for (size_t d = 0; d < dbs.size(); ++d) {
    if (absl::Status s = internal::ScanSegment(
            dbs[d].get(), table, table.segments()[d], options, &total);
        !s.ok()) {
      return s;
    }
  }
  phase("events");
  stats.summary.bad_events = total.bad_events;
  stats.summary.rounds = total.round_events;
  stats.summary.moves = total.move_events;
  stats.summary.tallied_games = total.tallied_games;

  // 3. Results, duplicate pairs and ratings.
  internal::Summarize(table, total, options, &stats);
  phase("done");
  stats.summary.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  return stats;
}

absl::StatusOr<Format> ParseFormat(absl::string_view name) {
  if (name == "text") return Format::kText;
  if (name == "csv") return Format::kCsv;
  if (name == "json") return Format::kJson;
  if (name == "html") return Format::kHtml;
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown format '", name, "': expected text, csv, json or html"));
}

std::string FormatAs(const Stats& stats, Format format) {
  switch (format) {
    case Format::kText:
      return FormatText(stats);
    case Format::kCsv:
      return FormatCsv(stats);
    case Format::kJson:
      return FormatJson(stats);
    case Format::kHtml:
      return FormatHtml(stats);
  }
  return {};
}

}  // namespace cassino::stats
