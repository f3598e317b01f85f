// cassino game create|show|abort: games over the organiser API (docs/cli.md,
// *The organiser's commands*).

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "rules/rule_set.h"
#include "tools/cli/commands.h"
#include "tools/cli/organiser.h"

namespace cassino::cli {
namespace {

struct GameOptions {
  OrganiserFlags flags;
  std::vector<std::string> seats;  // NAME, or @ACCOUNT
  std::vector<int> human;          // seats a person plays
  std::string rules = "standard";
  // -1: the referee's default.
  int64_t per_move_ms = -1;
  int64_t bank_ms = -1;
  int max_illegal = -1;
  std::string seed;
  std::string label;
  std::string game_id;
  std::string reason;
};

std::string ClockText(const v1::Clock& c) {
  return absl::StrCat(c.per_move_ms(), " ms a move, bank ", c.bank_ms(),
                      " ms, ", c.max_illegal(), " illegal submissions");
}

int Create(const GameOptions& o) {
  v1::CreateGameRequest req;
  req.set_rules(o.rules);
  std::vector<std::string> seats = o.seats;
  if (seats.empty()) {
    // A quick test game: as many seats as the rules seat, named by number.
    absl::StatusOr<RuleSet> rules = RuleSet::Parse(o.rules);
    if (!rules.ok()) {
      std::cerr << "cassino game create: --rules: " << rules.status().message()
                << "\n";
      return Organiser::kUsage;
    }
    for (int i = 0; i < rules->players; ++i) {
      seats.push_back(absl::StrCat("seat", i));
    }
  }
  for (const std::string& seat : seats) {
    v1::SeatSpec* s = req.add_seats();
    if (!seat.empty() && seat[0] == '@') {
      s->set_account(seat.substr(1));
    } else {
      s->set_bot_name(seat);
    }
  }
  for (const int seat : o.human) {
    if (seat >= req.seats_size()) {
      std::cerr << "cassino game create: --human " << seat << ": the game has "
                << req.seats_size() << " seats\n";
      return Organiser::kUsage;
    }
    req.mutable_seats(seat)->set_human(true);
  }
  if (o.per_move_ms >= 0) req.mutable_clock()->set_per_move_ms(o.per_move_ms);
  if (o.bank_ms >= 0) req.mutable_clock()->set_bank_ms(o.bank_ms);
  if (o.max_illegal >= 0) req.mutable_clock()->set_max_illegal(o.max_illegal);
  req.set_seed(o.seed);
  req.set_label(o.label);
  return Call<v1::CreateGameRequest, v1::CreateGameResponse>(
      o.flags, "cassino game create", &v1::RefereeService::Stub::CreateGame,
      req, [](const Organiser& org, const v1::CreateGameResponse& r) {
        std::vector<std::vector<std::string>> rows;
        for (const v1::SeatToken& t : r.tokens()) {
          rows.push_back({absl::StrCat(t.seat()), t.bot_name(),
                          t.account().empty()
                              ? t.token()
                              : absl::StrCat("(account ", t.account(),
                                             ": offered through its lobby)")});
        }
        return absl::StrCat(
            FormatFields({{"game", r.game_id()},
                          {"rules", r.rules()},
                          {"clock", ClockText(r.clock())},
                          {"seed commitment", r.seed_commitment()}}),
            "\n", FormatTable({"seat", "bot", "token (shown only now)"}, rows),
            "\nplay a seat with: cassino-bot --address ", org.address(),
            " --token TOKEN\n", "or in a browser: cassino serve DB --referee ",
            org.address(), ", then open /play/", r.game_id(),
            " and enter the token\n");
      });
}

std::string GameFields(const v1::GameInfo& g) {
  const bool over = g.status() == v1::GAME_STATUS_FINISHED ||
                    g.status() == v1::GAME_STATUS_ABORTED;
  std::vector<std::string> seats;
  for (int i = 0; i < g.bots_size(); ++i) {
    const std::string account = i < g.accounts_size() ? g.accounts(i) : "";
    seats.push_back(absl::StrCat(i, " ", g.bots(i),
                                 account.empty() ? "" : " (account ", account,
                                 account.empty() ? "" : ")"));
  }
  return FormatFields(
      {{"game", g.game_id()},
       {"status", GameStatusText(g.status())},
       {"label", g.label().empty() ? "-" : g.label()},
       {"seats", absl::StrJoin(seats, ", ")},
       {"rules", g.rules()},
       {"clock", ClockText(g.clock())},
       {"created", FormatUnixMs(g.created_unix_ms())},
       {"round", absl::StrCat(g.round())},
       {"turn", absl::StrCat(g.turn())},
       {"to move", g.to_move() < 0 ? "-" : absl::StrCat("seat ", g.to_move())},
       {"totals", absl::StrJoin(g.totals(), "-")},
       {"result", ResultText(g.result(), over)},
       {"detail",
        over && !g.result().detail().empty() ? g.result().detail() : "-"},
       {"seed commitment", g.seed_commitment()},
       {"seed", g.seed().empty() ? "(secret)" : g.seed()}});
}

int Show(const GameOptions& o) {
  v1::GetGameRequest req;
  req.set_game_id(o.game_id);
  return Call<v1::GetGameRequest, v1::GetGameResponse>(
      o.flags, "cassino game show", &v1::RefereeService::Stub::GetGame, req,
      [](const Organiser&, const v1::GetGameResponse& r) {
        return GameFields(r.game());
      });
}

int Abort(const GameOptions& o) {
  v1::AbortGameRequest req;
  req.set_game_id(o.game_id);
  req.set_reason(o.reason);
  return Call<v1::AbortGameRequest, v1::AbortGameResponse>(
      o.flags, "cassino game abort", &v1::RefereeService::Stub::AbortGame, req,
      [](const Organiser&, const v1::AbortGameResponse& r) {
        return GameFields(r.game());
      });
}

}  // namespace

void AddGameCommand(CLI::App& app, int* exit_code) {
  CLI::App* cmd = app.add_subcommand(
      "game",
      absl::StrCat("Games on a running referee (organiser): create (a quick "
                   "test game: prints the seat tokens), show, abort. ",
                   kOrganiserHelp));
  cmd->require_subcommand(1);
  auto o = std::make_shared<GameOptions>();

  CLI::App* create = cmd->add_subcommand(
      "create",
      "create a game and print its seat tokens (shown only once): SEAT... "
      "are bot names, or @ACCOUNT for a seat a registered bot account plays "
      "through its lobby (no token); none: one seat per player of the rules, "
      "named seat0, seat1, ...");
  AddOrganiserFlags(create, &o->flags);
  create->add_option("SEAT", o->seats, "NAME or @ACCOUNT, seat 0 first");
  create->add_option("--rules", o->rules, "the rule set")
      ->capture_default_str();
  create
      ->add_option("--per-move-ms", o->per_move_ms,
                   "free time per move (default: the referee's, 5000)")
      ->check(CLI::Range(int64_t{1}, int64_t{3600000}));
  create
      ->add_option("--bank-ms", o->bank_ms,
                   "overage bank per game; 0: none (default: the "
                   "referee's, 30000)")
      ->check(CLI::Range(int64_t{0}, int64_t{86400000}));
  create
      ->add_option("--max-illegal", o->max_illegal,
                   "rejected submissions a seat may make, the last "
                   "forfeiting (default: the referee's, 3)")
      ->check(CLI::Range(1, 1000));
  create->add_option("--seed", o->seed,
                     "the seed, 64 hex digits (default: drawn by the referee)");
  create->add_option("--label", o->label, "a label grouping games");
  create
      ->add_option("--human", o->human,
                   "a seat a person plays (in a browser, through cassino "
                   "serve --referee); the record marks it; repeatable")
      ->check(CLI::Range(0, 5));
  create->callback([o, exit_code] { *exit_code = Create(*o); });

  CLI::App* show = cmd->add_subcommand(
      "show", "one game: status, seats, score, result (public facts only)");
  AddOrganiserFlags(show, &o->flags);
  show->add_option("GAME", o->game_id, "the game's id")->required();
  show->callback([o, exit_code] { *exit_code = Show(*o); });

  CLI::App* abort = cmd->add_subcommand(
      "abort", "abort a running game: nobody wins; recorded with --reason");
  AddOrganiserFlags(abort, &o->flags);
  abort->add_option("GAME", o->game_id, "the game's id")->required();
  abort->add_option("--reason", o->reason,
                    "why (recorded; default \"aborted by the organiser\")");
  abort->callback([o, exit_code] { *exit_code = Abort(*o); });
}

}  // namespace cassino::cli
