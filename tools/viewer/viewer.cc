#include "tools/viewer/viewer.h"

#include <algorithm>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "nlohmann/json.hpp"
#include "rules/rule_set.h"
#include "tools/stats/stats.h"
#include "tools/verify/game_verifier.h"
#include "tools/verify/interchange.h"
#include "tools/viewer/game_view.h"
#include "tools/viewer/page.h"
#include "tools/viewer/reveal.h"

namespace cassino::viewer {

using nlohmann::json;

namespace {

std::string Param(const Params& params, const std::string& key) {
  const auto it = params.find(key);
  return it == params.end() ? std::string() : it->second;
}

// Newest first, as the listing queries order.
bool Newer(const recorder::GameSummary& a, const recorder::GameSummary& b) {
  return a.created_us != b.created_us ? a.created_us > b.created_us
                                      : a.game_id > b.game_id;
}

}  // namespace

absl::StatusOr<GameQuery> ParseGameQuery(const Params& params) {
  GameQuery q;
  q.status = Param(params, "status");
  if (!q.status.empty() && q.status != "running" && q.status != "finished" &&
      q.status != "aborted") {
    return absl::InvalidArgumentError(
        "status: expected running, finished or aborted");
  }
  q.bot = Param(params, "bot");
  q.label = Param(params, "label");
  if (const std::string rules = Param(params, "rules"); !rules.empty()) {
    absl::StatusOr<RuleSet> set = RuleSet::Preset(rules);
    if (!set.ok()) set = RuleSet::Parse(rules);
    if (!set.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("rules: ", set.status().message()));
    }
    q.rules = set->ToString();
  }
  if (const std::string from = Param(params, "from"); !from.empty()) {
    absl::StatusOr<int64_t> us = stats::ParseDate(from);
    if (!us.ok())
      return absl::InvalidArgumentError("from: expected YYYY-MM-DD");
    q.from_us = *us;
  }
  if (const std::string to = Param(params, "to"); !to.empty()) {
    absl::StatusOr<int64_t> us = stats::ParseDate(to);
    if (!us.ok()) return absl::InvalidArgumentError("to: expected YYYY-MM-DD");
    q.to_us = *us + stats::kDayUs;
  }
  if (const std::string after = Param(params, "after"); !after.empty()) {
    // "<created_us>:<game_id>"
    const size_t colon = after.find(':');
    if (colon == std::string::npos ||
        !absl::SimpleAtoi(after.substr(0, colon), &q.after_created_us) ||
        colon + 1 == after.size()) {
      return absl::InvalidArgumentError("after: not a cursor from `next`");
    }
    q.after_id = after.substr(colon + 1);
  }
  if (const std::string limit = Param(params, "limit"); !limit.empty()) {
    if (!absl::SimpleAtoi(limit, &q.limit) || q.limit < 1 || q.limit > 500) {
      return absl::InvalidArgumentError("limit: expected 1 to 500");
    }
  }
  return q;
}

Viewer::Viewer(std::vector<std::unique_ptr<ViewerDatabase>> databases)
    : databases_(std::move(databases)) {}

absl::StatusOr<std::unique_ptr<Viewer>> Viewer::Open(
    const std::vector<std::string>& paths) {
  std::vector<std::unique_ptr<ViewerDatabase>> dbs;
  for (const std::string& path : paths) {
    absl::StatusOr<std::unique_ptr<ViewerDatabase>> db =
        ViewerDatabase::Open(path);
    if (!db.ok()) return db.status();
    dbs.push_back(*std::move(db));
  }
  return std::unique_ptr<Viewer>(new Viewer(std::move(dbs)));
}

std::vector<std::string> Viewer::paths() const {
  std::vector<std::string> out;
  for (const auto& db : databases_) out.push_back(db->path());
  return out;
}

absl::StatusOr<std::string> Viewer::GamesJson(const Params& params) const {
  absl::StatusOr<GameQuery> query = ParseGameQuery(params);
  if (!query.ok()) return query.status();
  std::vector<recorder::GameSummary> merged;
  for (const auto& db : databases_) {
    absl::StatusOr<std::vector<recorder::GameSummary>> games =
        db->ListGames(*query);
    if (!games.ok()) return games.status();
    for (recorder::GameSummary& g : *games) merged.push_back(std::move(g));
  }
  std::sort(merged.begin(), merged.end(), Newer);
  json out = {{"games", json::array()}, {"next", nullptr}};
  const size_t limit = static_cast<size_t>(query->limit);
  for (size_t i = 0; i < merged.size() && i < limit; ++i) {
    out["games"].push_back(ListingJson(merged[i]));
  }
  // A full page may have a successor; its cursor is the last game shown.
  if (merged.size() >= limit) {
    const recorder::GameSummary& last = merged[limit - 1];
    out["next"] = absl::StrCat(last.created_us, ":", last.game_id);
  }
  return DumpJson(out);
}

absl::StatusOr<const ViewerDatabase*> Viewer::FindGame(
    const std::string& id) const {
  for (const auto& db : databases_) {
    absl::StatusOr<ViewerDatabase::Head> head = db->GameHead(id);
    if (head.ok()) return db.get();
    if (!absl::IsNotFound(head.status())) return head.status();
  }
  return absl::NotFoundError(absl::StrCat("no game ", id));
}

absl::StatusOr<std::string> Viewer::GameJson(const std::string& id) const {
  absl::StatusOr<const ViewerDatabase*> db = FindGame(id);
  if (!db.ok()) return db.status();
  absl::StatusOr<recorder::StoredGame> game = (*db)->LoadGame(id);
  if (!game.ok()) return game.status();
  absl::StatusOr<TwinState> twins = (*db)->Twins(*game);
  if (!twins.ok()) return twins.status();
  verify::GameVerifier verifier;
  const std::optional<verify::Failure> verdict = verifier.Verify(*game);
  return DumpJson(
      viewer::GameJson(*game, DecideReveal(game->status, *twins), verdict));
}

absl::StatusOr<std::string> Viewer::GameRecordJson(
    const std::string& id) const {
  absl::StatusOr<const ViewerDatabase*> db = FindGame(id);
  if (!db.ok()) return db.status();
  absl::StatusOr<recorder::StoredGame> game = (*db)->LoadGame(id);
  if (!game.ok()) return game.status();
  absl::StatusOr<TwinState> twins = (*db)->Twins(*game);
  if (!twins.ok()) return twins.status();
  const RevealDecision reveal = DecideReveal(game->status, *twins);
  if (reveal.reveal != Reveal::kOmniscient) {
    return absl::FailedPreconditionError(absl::StrCat(
        "the record is published once every card may be shown: ", reveal.why));
  }
  return absl::StrCat("{\"format\":\"", verify::kExportFormat,
                      "\",\"version\":", verify::kExportVersion,
                      ",\"games\":[\n", verify::GameToJson(*game), "\n]}\n");
}

absl::StatusOr<std::string> Viewer::GamePageHtml(const std::string& id) const {
  absl::StatusOr<std::string> json = GameJson(id);
  if (!json.ok()) return json.status();
  return StandaloneGameHtml(*json);
}

absl::StatusOr<std::string> Viewer::GameHeadJson(const std::string& id) const {
  for (const auto& db : databases_) {
    absl::StatusOr<ViewerDatabase::Head> head = db->GameHead(id);
    if (head.ok()) {
      // now_us: the server's clock, against which a page times the move
      // being thought about (last_event_us is the referee's).
      return DumpJson({{"events", head->events},
                       {"status", head->status},
                       {"now_us", absl::ToUnixMicros(absl::Now())}});
    }
    if (!absl::IsNotFound(head.status())) return head.status();
  }
  return absl::NotFoundError(absl::StrCat("no game ", id));
}

absl::StatusOr<std::string> Viewer::TournamentsJson() const {
  json list = json::array();
  for (const auto& db : databases_) {
    absl::StatusOr<std::vector<TournamentListing>> ts = db->Tournaments();
    if (!ts.ok()) return ts.status();
    for (const TournamentListing& t : *ts) {
      list.push_back({{"name", t.name},
                      {"participants", t.participants},
                      {"format", t.format},
                      {"status", t.status},
                      {"scheduled", t.scheduled},
                      {"created_us", t.created_us},
                      {"ended_us", t.ended_us}});
    }
  }
  return DumpJson({{"tournaments", std::move(list)}});
}

absl::StatusOr<const ViewerDatabase*> Viewer::FindTournament(
    const std::string& name) const {
  for (const auto& db : databases_) {
    absl::StatusOr<TournamentListing> t = db->Tournament(name);
    if (t.ok()) return db.get();
    if (!absl::IsNotFound(t.status())) return t.status();
  }
  return absl::NotFoundError(absl::StrCat("no tournament ", name));
}

absl::StatusOr<std::string> Viewer::TournamentJson(const std::string& name,
                                                   const Params& params) const {
  SchedulePage page;
  if (const std::string after = Param(params, "games_after"); !after.empty()) {
    if (!absl::SimpleAtoi(after, &page.after) || page.after < -1) {
      return absl::InvalidArgumentError(
          "games_after: expected a schedule index");
    }
  }
  if (const std::string limit = Param(params, "games_limit"); !limit.empty()) {
    if (!absl::SimpleAtoi(limit, &page.limit) || page.limit < 1 ||
        page.limit > kMaxSchedulePage) {
      return absl::InvalidArgumentError("games_limit: expected 1 to 500");
    }
  }
  absl::StatusOr<const ViewerDatabase*> db = FindTournament(name);
  if (!db.ok()) return db.status();
  absl::StatusOr<TournamentListing> t = (*db)->Tournament(name);
  if (!t.ok()) return t.status();
  absl::StatusOr<std::vector<ScheduledGame>> schedule = (*db)->Schedule(name);
  if (!schedule.ok()) return schedule.status();
  return DumpJson(viewer::TournamentJson(*t, *schedule, page));
}

absl::StatusOr<std::string> Viewer::TournamentRatingsSvg(
    const std::string& name) const {
  absl::StatusOr<const ViewerDatabase*> db = FindTournament(name);
  if (!db.ok()) return db.status();
  // A tournament spread over several referees has games in several
  // databases: rate them all as one record set.
  std::vector<std::string> paths;
  for (const auto& d : databases_) paths.push_back(d->path());
  stats::Filter filter;
  filter.tournament = name;
  stats::Options options;
  options.threads = 1;
  options.move_times = false;
  absl::StatusOr<stats::Stats> s = stats::ReadStats(paths, filter, options);
  if (!s.ok()) return s.status();
  std::string svg = stats::RatingsChart(*s);
  if (svg.rfind("<svg", 0) == 0) {
    // As an image it has none of the page's style sheet: its text styles.
    svg.insert(svg.find('>') + 1,
               "\n<style>text{font:12px system-ui,sans-serif;fill:#1d2330}"
               ".axis{font-size:11px;fill:#6a7384}</style>");
  } else {
    svg =
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"300\" "
        "height=\"30\"><text x=\"4\" y=\"20\">No rated bots yet.</text>"
        "</svg>\n";
  }
  return svg;
}

}  // namespace cassino::viewer
