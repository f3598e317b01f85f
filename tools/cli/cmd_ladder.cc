// cassino ladder create|list|show|pause|resume|close|leaderboard: ladders
// over the organiser API (docs/ladder.md; docs/cli.md, *cassino ladder*).

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "tools/cli/commands.h"
#include "tools/cli/organiser.h"

namespace cassino::cli {
namespace {

using Stub = v1::RefereeService::Stub;

std::string StatusText(v1::LadderStatus s) {
  switch (s) {
    case v1::LADDER_STATUS_OPEN:
      return "open";
    case v1::LADDER_STATUS_PAUSED:
      return "paused";
    case v1::LADDER_STATUS_CLOSED:
      return "closed";
    default:
      return "?";
  }
}

std::string LadderFields(const v1::LadderInfo& l) {
  const v1::LadderSpec& s = l.spec();
  const v1::LadderSettings& t = s.settings();
  return FormatFields(
      {{"name", s.name()},
       {"status", l.reason().empty()
                      ? StatusText(l.status())
                      : absl::StrCat(StatusText(l.status()), ": ", l.reason())},
       {"rules", s.rules()},
       {"clock", absl::StrCat(s.clock().per_move_ms(), " ms a move, ",
                              s.clock().bank_ms(), " ms bank, ",
                              s.clock().max_illegal(), " illegal")},
       {"duplicate", s.duplicate() ? "yes" : "no"},
       {"created", FormatUnixMs(l.created_unix_ms())},
       {"changed", FormatUnixMs(l.changed_unix_ms())},
       {"bots connected", absl::StrCat(l.bots_connected())},
       {"games running", absl::StrCat(l.games_running())},
       {"games rated", absl::StrCat(l.games_rated())},
       {"games unrated", absl::StrCat(l.games_unrated())},
       {"versions", absl::StrCat(l.versions())},
       {"on probation", absl::StrCat(l.on_probation())},
       {"settings",
        absl::StrCat(t.max_concurrent_games(), " games at once, ",
                     t.max_games_per_bot(), " per bot; per ",
                     t.period_ms() / 1000, " s: ", t.max_pair_games(),
                     " per pair, ", t.max_bot_games(), " per bot; ",
                     t.provisional_games(), " provisional games; probation ",
                     "after ", t.probation_faults(), " faults, ",
                     t.probation_ms() / 1000, " s")}});
}

struct LadderOptions {
  OrganiserFlags flags;
  std::string name;
  std::string rules;
  int64_t per_move_ms = 0;
  int64_t bank_ms = -2;  // -2: not given
  int max_illegal = 0;
  bool duplicate = false;
  v1::LadderSettings settings;
  std::string reason;
  bool all_versions = false;
  int limit = 0;
};

int Create(const LadderOptions& o) {
  v1::CreateLadderRequest req;
  v1::LadderSpec* spec = req.mutable_spec();
  spec->set_name(o.name);
  spec->set_rules(o.rules);
  if (o.per_move_ms != 0) spec->mutable_clock()->set_per_move_ms(o.per_move_ms);
  if (o.bank_ms != -2) spec->mutable_clock()->set_bank_ms(o.bank_ms);
  if (o.max_illegal != 0) spec->mutable_clock()->set_max_illegal(o.max_illegal);
  spec->set_duplicate(o.duplicate);
  *spec->mutable_settings() = o.settings;
  return Call<v1::CreateLadderRequest, v1::CreateLadderResponse>(
      o.flags, "cassino ladder create", &Stub::CreateLadder, req,
      [](const Organiser&, const v1::CreateLadderResponse& r) {
        return absl::StrCat(
            LadderFields(r.ladder()),
            "\nbots join it with: cassino-bot --lobby --key KEY --ladder ",
            r.ladder().spec().name(), " --version VERSION\n");
      });
}

int List(const LadderOptions& o) {
  return Call<v1::ListLaddersRequest, v1::ListLaddersResponse>(
      o.flags, "cassino ladder list", &Stub::ListLadders,
      v1::ListLaddersRequest(),
      [](const Organiser&, const v1::ListLaddersResponse& r) {
        std::vector<std::vector<std::string>> rows;
        for (const v1::LadderInfo& l : r.ladders()) {
          rows.push_back({l.spec().name(), StatusText(l.status()),
                          absl::StrCat(l.bots_connected()),
                          absl::StrCat(l.games_running()),
                          absl::StrCat(l.games_rated()), l.spec().rules()});
        }
        return FormatTable(
            {"name", "status", "bots", "running", "rated", "rules"}, rows);
      });
}

int Show(const LadderOptions& o) {
  v1::GetLadderRequest req;
  req.set_name(o.name);
  return Call<v1::GetLadderRequest, v1::GetLadderResponse>(
      o.flags, "cassino ladder show", &Stub::GetLadder, req,
      [](const Organiser&, const v1::GetLadderResponse& r) {
        return LadderFields(r.ladder());
      });
}

int Pause(const LadderOptions& o) {
  v1::PauseLadderRequest req;
  req.set_name(o.name);
  req.set_reason(o.reason);
  return Call<v1::PauseLadderRequest, v1::PauseLadderResponse>(
      o.flags, "cassino ladder pause", &Stub::PauseLadder, req,
      [](const Organiser&, const v1::PauseLadderResponse& r) {
        return LadderFields(r.ladder());
      });
}

int Resume(const LadderOptions& o) {
  v1::ResumeLadderRequest req;
  req.set_name(o.name);
  return Call<v1::ResumeLadderRequest, v1::ResumeLadderResponse>(
      o.flags, "cassino ladder resume", &Stub::ResumeLadder, req,
      [](const Organiser&, const v1::ResumeLadderResponse& r) {
        return LadderFields(r.ladder());
      });
}

int Close(const LadderOptions& o) {
  v1::CloseLadderRequest req;
  req.set_name(o.name);
  req.set_reason(o.reason);
  return Call<v1::CloseLadderRequest, v1::CloseLadderResponse>(
      o.flags, "cassino ladder close", &Stub::CloseLadder, req,
      [](const Organiser&, const v1::CloseLadderResponse& r) {
        return LadderFields(r.ladder());
      });
}

// Every page (or the first --limit rows).
int Leaderboard(const LadderOptions& o) {
  auto org = Organiser::Connect(o.flags, "cassino ladder leaderboard");
  if (!org) return Organiser::kUsage;
  v1::GetLeaderboardResponse all;
  std::string page;
  do {
    v1::GetLeaderboardRequest req;
    req.set_ladder(o.name);
    req.set_all_versions(o.all_versions);
    req.set_page_size(1000);
    req.set_page_token(page);
    v1::GetLeaderboardResponse resp;
    const grpc::Status s =
        org->stub().GetLeaderboard(org->Context().get(), req, &resp);
    if (!s.ok()) return org->Fail(s);
    for (const v1::LeaderboardEntry& e : resp.entries()) {
      if (o.limit > 0 && all.entries_size() >= o.limit) break;
      *all.add_entries() = e;
    }
    all.set_total_entries(resp.total_entries());
    all.set_games_rated(resp.games_rated());
    page = resp.next_page_token();
  } while (!page.empty() && (o.limit == 0 || all.entries_size() < o.limit));
  if (org->json()) return org->PrintJson(all);
  std::vector<std::vector<std::string>> rows;
  for (const v1::LeaderboardEntry& e : all.entries()) {
    std::string notes;
    if (e.provisional()) notes += "provisional ";
    if (!e.current()) notes += "old-version ";
    if (e.on_probation()) notes += "probation ";
    if (e.connected()) notes += "connected";
    rows.push_back({absl::StrCat(e.rank()), e.bot(),
                    absl::StrFormat("%.2f", e.conservative()),
                    absl::StrFormat("%.2f ± %.2f", e.mu(), e.sigma()),
                    absl::StrCat(e.games()),
                    absl::StrCat(e.wins(), "-", e.losses(), "-", e.draws()),
                    notes});
  }
  std::cout << FormatTable({"rank", "bot", "mu-3σ", "rating", "games", "w-l-d",
                            "notes"},
                           rows)
            << all.games_rated() << " games rated; " << all.total_entries()
            << " rows\n";
  return Organiser::kOk;
}

}  // namespace

void AddLadderCommand(CLI::App& app, int* exit_code) {
  CLI::App* cmd = app.add_subcommand(
      "ladder",
      absl::StrCat("Ladders on a running referee (organiser; docs/ladder.md): "
                   "create, list, show, pause, resume, close, leaderboard. ",
                   kOrganiserHelp));
  cmd->require_subcommand(1);
  auto o = std::make_shared<LadderOptions>();
  struct Sub {
    const char* name;
    const char* help;
    int (*run)(const LadderOptions&);
  };
  for (const Sub& sub : {
           Sub{"create",
               "create a ladder; it opens at once and bots join it from the "
               "lobby (--ladder NAME --version V)",
               Create},
           Sub{"list", "every ladder", List},
           Sub{"show", "one ladder", Show},
           Sub{"pause", "start no new game until resumed", Pause},
           Sub{"resume", "open a paused ladder again", Resume},
           Sub{"close", "close a ladder for good (running games play on)",
               Close},
           Sub{"leaderboard",
               "the leaderboard: rank, conservative rating (mu - 3 sigma), "
               "rating ± deviation, games (the referee's; `cassino stats DB "
               "--ladder NAME` recomputes it from the records)",
               Leaderboard},
       }) {
    CLI::App* c = cmd->add_subcommand(sub.name, sub.help);
    AddOrganiserFlags(c, &o->flags);
    if (sub.run != List) {
      c->add_option("NAME", o->name, "the ladder's name")->required();
    }
    if (sub.run == Create) {
      c->add_option("--rules", o->rules,
                    "the rule set (as `cassino rules`); default standard");
      c->add_option("--per-move-ms", o->per_move_ms, "free time per move");
      c->add_option("--bank-ms", o->bank_ms, "the overage bank per game");
      c->add_option("--max-illegal", o->max_illegal,
                    "rejected submissions before a forfeit");
      c->add_flag("--duplicate", o->duplicate,
                  "games in pairs sharing one deal, seats swapped (two "
                  "players)");
      // (0 or absent: the referee's default, as the API says.)
      c->add_option_function<int>(
          "--max-concurrent-games",
          [o](int v) { o->settings.set_max_concurrent_games(v); },
          "the ladder's games at once (default 16)");
      c->add_option_function<int>(
          "--max-games-per-bot",
          [o](int v) { o->settings.set_max_games_per_bot(v); },
          "one bot's games at once (default 4)");
      c->add_option_function<int64_t>(
          "--period-ms", [o](int64_t v) { o->settings.set_period_ms(v); },
          "the window of the pair and bot caps (default an hour)");
      c->add_option_function<int>(
          "--max-pair-games", [o](int v) { o->settings.set_max_pair_games(v); },
          "games of one pair per period (default 20)");
      c->add_option_function<int>(
          "--max-bot-games", [o](int v) { o->settings.set_max_bot_games(v); },
          "games one bot starts per period (default 240)");
      c->add_option_function<int>(
          "--provisional-games",
          [o](int v) { o->settings.set_provisional_games(v); },
          "rated games before a version is placed (default 10)");
      c->add_option_function<int>(
          "--probation-faults",
          [o](int v) { o->settings.set_probation_faults(v); },
          "faults in a row that put a bot on probation (default 3)");
      c->add_option_function<int64_t>(
          "--probation-ms", [o](int64_t v) { o->settings.set_probation_ms(v); },
          "a first probation's length (default 10 minutes)");
    }
    if (sub.run == Pause || sub.run == Close) {
      c->add_option("--reason", o->reason, "why (recorded, told to the bots)");
    }
    if (sub.run == Leaderboard) {
      c->add_flag("--all-versions", o->all_versions,
                  "every rated version, not only each account's current one");
      c->add_option("--limit", o->limit, "at most this many rows");
    }
    c->callback([o, run = sub.run, exit_code] { *exit_code = run(*o); });
  }
}

}  // namespace cassino::cli
