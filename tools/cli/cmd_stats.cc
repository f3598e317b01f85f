// cassino stats DB...: per-bot statistics over the game records of one
// database or of a record set (several referees' databases, or directories
// of them).
// The computation and the formats are in tools/stats/stats.h.

#include <fstream>
#include <iostream>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "competition/sprt.h"
#include "tools/cli/commands.h"
#include "tools/cli/record_args.h"
#include "tools/stats/ladder.h"
#include "tools/stats/sprt_format.h"
#include "tools/stats/sprt_records.h"
#include "tools/stats/stats.h"

namespace cassino::cli {
namespace {

struct Options {
  std::vector<std::string> dbs;  // DB...: files or directories
  std::string tournament;
  std::vector<std::string> bots;
  std::string sprt;
  std::string rules;
  std::string from;
  std::string to;
  std::string format = "text";
  std::string out;
  bool no_move_times = false;
  std::string ladder;
  bool all_versions = false;
};

constexpr const char kFooter[] = R"(DESCRIPTION
  Reads the game records in DB (the referee's SQLite database; it is opened
  read-only and may be in use by a running referee; several databases, or
  directories of *.db files, are one record set: the databases of several
  referees, bots matched by name, duplicate pairs matched across files, and
  a game id held by two databases refused) and prints, per bot:
  games, wins, losses and draws; the win rate with its 95% Wilson interval;
  a Bradley-Terry rating on the Elo scale (mean 1500) with its 95% interval
  (+-1.96 standard errors from the Fisher information); the likelihood of
  superiority (LOS) between every pair; a head-to-head table; the mean
  points per round by item (cards, spades, big_cassino = TD,
  little_cassino = 2S, aces, sweeps); move time p50/p95; rejected
  submissions, forfeits and time forfeits. Also the seat advantage (how
  often the side holding each seat won) and duplicate pairs.

  Only finished games are analysed; running and aborted games are counted.
  In a game with more than two sides the pairwise results and ratings
  follow the finishing order: the winner first, then the other sides by
  final total (equal totals draw), as cassino tournament ranks them. A bot
  that plays on two sides of one game (self-play) is left out of that
  game's results.

  Duplicate pairs: two games with the same decks (same seed commitment, or
  the same explicit decks) and rules, played by the same two bots with the
  sides swapped. The pair goes to the bot that won both games; when they
  split, to the bot with more points over the two games; equal points draw.
  Pairs are reported in their own table; every other table counts games.

SPRT
  --sprt elo0=0,elo1=5,alpha=0.05,beta=0.05 with --bot A --bot B tests
  whether A is stronger than B by elo1 (H1) rather than elo0 (H0) over the
  selected games, as `cassino tournament --sprt` does while it plays:
  pentanomial over their duplicate pairs (games not in a pair left out),
  trinomial over their games when they have no pairs. Prints the verdict
  (H0, H1 or no decision yet), the log-likelihood ratio and its bounds,
  games and pairs, Elo and normalized Elo with 95% intervals, LOS and the
  pair outcomes (LL, LD, WL+DD, WD, WW). model=logistic states elo0/elo1
  in logistic instead of normalized Elo. Formats: text and json.

FILTERS
  --tournament matches the game label exactly. --from and --to are UTC
  dates (YYYY-MM-DD) compared with the game's creation time; both days are
  included (a --to before 1970-01-01 is refused: no game is that old). --bot keeps the games in which that bot holds a seat (their
  opponents are reported too). --rules keeps the games whose rule set
  equals the one given (a preset and options, compared option by option,
  so `standard` matches records of any age). Every report lists the rule
  sets of the games it counts (section rule_sets); ratings mix them, so
  rate one rule set at a time with --rules.

OUTPUT
  text  aligned tables.
  csv   one table per section, each introduced by a '# section' line and a
        header row; sections separated by a blank line. Sections: summary,
        rule_sets, bots, points, conduct, head_to_head, seats, duplicates.
  json  one object: filter, summary, rule_sets, rating_model, bots,
        head_to_head,
        seats, duplicates (keys in a fixed order).
  html  one self-contained page (inline CSS and SVG, no scripts, nothing
        fetched): a ratings chart with error bars, a head-to-head heat map,
        a points-by-item bar chart, and every table.

LADDER
  --ladder NAME prints the ladder's leaderboard recomputed from the
  records alone: every finished game labelled NAME, rated in the order of
  its end (the end event's time, then the game id) with the Weng-Lin
  Plackett-Luce model, each ACCOUNT@VERSION on its own, ordered by
  mu - 3 sigma; then the pairs played. It equals the referee's
  GetLeaderboard (`cassino ladder leaderboard NAME`) once no game of the
  ladder is running. --all-versions lists every version. Formats: text,
  csv (sections leaderboard, pairs) and json.
EXIT STATUS
  0 success; 1 the database could not be read; 2 bad arguments.

EXAMPLES
  cassino stats games.db
  cassino stats games.db --tournament ladder-7 --from 2026-01-01 --format html --out ladder.html
  cassino stats games.db --bot greedy --format csv
  cassino stats games.db --ladder season-1 --all-versions)";

// Writes the report to --out, or standard output; the exit status.
int Write(const Options& opt, const std::string& text) {
  if (opt.out.empty() || opt.out == "-") {
    std::cout << text;
    std::cout.flush();
    return std::cout ? 0 : 1;
  }
  std::ofstream file(opt.out, std::ios::binary | std::ios::trunc);
  file << text;
  file.close();
  if (!file) {
    std::cerr << "cassino stats: cannot write " << opt.out << "\n";
    return 1;
  }
  return 0;
}

int Run(const Options& opt) {
  stats::Filter filter;
  filter.tournament = opt.tournament;
  if (opt.bots.size() > 1 && opt.sprt.empty()) {
    std::cerr << "cassino stats: --bot twice is for --sprt\n";
    return 2;
  }
  if (!opt.sprt.empty() && opt.bots.size() != 2) {
    std::cerr << "cassino stats: --sprt needs --bot A --bot B\n";
    return 2;
  }
  if (!opt.bots.empty()) filter.bot = opt.bots[0];
  filter.rules = opt.rules;
  if (!opt.from.empty()) {
    absl::StatusOr<int64_t> from = stats::ParseDate(opt.from);
    if (!from.ok()) {
      std::cerr << "cassino stats: --from: " << from.status().message() << "\n";
      return 2;
    }
    filter.from_us = *from;
  }
  if (!opt.to.empty()) {
    absl::StatusOr<int64_t> to = stats::ParseDate(opt.to);
    if (!to.ok()) {
      std::cerr << "cassino stats: --to: " << to.status().message() << "\n";
      return 2;
    }
    filter.to_us = *to + stats::kDayUs;  // the whole day
    if (filter.to_us <= 0) {
      // (0 would mean "no limit": every game.)
      std::cerr << "cassino stats: --to " << opt.to
                << ": no game is created before 1970-01-01\n";
      return 2;
    }
  }
  absl::StatusOr<stats::Format> format = stats::ParseFormat(opt.format);
  if (!format.ok()) {
    std::cerr << "cassino stats: " << format.status().message() << "\n";
    return 2;
  }
  absl::StatusOr<competition::SprtParams> sprt;
  if (!opt.sprt.empty()) {
    sprt = competition::ParseSprtParams(opt.sprt);
    if (!sprt.ok()) {
      std::cerr << "cassino stats: --" << sprt.status().message() << "\n";
      return 2;
    }
    if (*format != stats::Format::kText && *format != stats::Format::kJson) {
      std::cerr << "cassino stats: --sprt writes text or json\n";
      return 2;
    }
  }
  RecordArgs args;
  if (absl::Status s = SplitRecordArgs(opt.dbs, &args); !s.ok()) {
    std::cerr << "cassino stats: " << s.message() << "\n";
    return 1;
  }
  if (!args.games.empty()) {
    std::cerr << "cassino stats: " << args.games[0]
              << ": no such file or directory\n";
    return 1;
  }
  if (!opt.ladder.empty()) {
    // The ladder's leaderboard from the records (tools/stats/ladder.h).
    if (!opt.tournament.empty() || !opt.bots.empty() || !opt.sprt.empty() ||
        !opt.rules.empty() || !opt.from.empty() || !opt.to.empty() ||
        *format == stats::Format::kHtml) {
      std::cerr << "cassino stats: --ladder takes no filter (--tournament, "
                   "--bot, --sprt, --rules, --from, --to) and writes text, "
                   "csv or json\n";
      return 2;
    }
    stats::LadderOptions ladder_options;
    ladder_options.all_versions = opt.all_versions;
    ladder_options.details = true;
    absl::StatusOr<stats::LadderStats> ladder =
        stats::ReadLadder(args.databases, opt.ladder, ladder_options);
    if (!ladder.ok()) {
      std::cerr << "cassino stats: " << ladder.status().message() << "\n";
      return 1;
    }
    if (!ladder->row.has_value() && ladder->leaderboard.empty() &&
        ladder->games_running == 0 && ladder->games_aborted == 0) {
      std::cerr << "cassino stats: no ladder '" << opt.ladder
                << "' in these records\n";
      return 1;
    }
    return Write(opt, stats::FormatLadder(*ladder, *format));
  }
  if (opt.all_versions) {
    std::cerr << "cassino stats: --all-versions is for --ladder\n";
    return 2;
  }
  stats::Options options;
  options.move_times = !opt.no_move_times && opt.sprt.empty();
  absl::StatusOr<stats::Stats> result =
      stats::ReadStats(args.databases, filter, options);
  if (!result.ok()) {
    std::cerr << "cassino stats: " << result.status().message() << "\n";
    return 1;
  }
  std::string text;
  if (opt.sprt.empty()) {
    text = stats::FormatAs(*result, *format);
  } else {
    absl::StatusOr<competition::SprtResult> test =
        stats::SprtFromStats(*result, opt.bots[0], opt.bots[1], *sprt);
    if (!test.ok()) {
      std::cerr << "cassino stats: " << test.status().message() << "\n";
      return 1;
    }
    text = *format == stats::Format::kJson
               ? stats::FormatSprtJson(*test, opt.bots[0], opt.bots[1])
               : stats::FormatSprtText(*test, opt.bots[0], opt.bots[1]);
  }
  return Write(opt, text);
}

}  // namespace

void AddStatsCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand(
      "stats",
      "Per-bot statistics over a game record database: results, win rates, "
      "Bradley-Terry ratings with error bars, LOS, head to head, points by "
      "item, seat advantage, move times, forfeits, duplicate pairs.");
  auto opt = std::make_shared<Options>();
  cmd->add_option("DB...", opt->dbs,
                  "the referee's SQLite game record database; several "
                  "databases (or directories of *.db files) are read as one "
                  "record set")
      ->required();
  cmd->add_option("--tournament", opt->tournament,
                  "only games with this label (exact match)");
  cmd->add_option("--bot", opt->bots,
                  "only games in which this bot plays (with --sprt: twice, "
                  "A then B)");
  cmd->add_option("--sprt", opt->sprt,
                  "elo0=E0,elo1=E1,alpha=A,beta=B[,model=normalized|logistic]"
                  ": the SPRT of the first --bot against the second");
  cmd->add_option("--rules", opt->rules,
                  "only games of this rule set (a preset and options, e.g. "
                  "royal or 'standard target=11')");
  cmd->add_option("--from", opt->from,
                  "only games created on or after this UTC date (YYYY-MM-DD)");
  cmd->add_option("--to", opt->to,
                  "only games created on or before this UTC date "
                  "(YYYY-MM-DD)");
  cmd->add_option("--format", opt->format, "text, csv, json or html")
      ->check(CLI::IsMember({"text", "csv", "json", "html"}))
      ->capture_default_str();
  cmd->add_option("--out", opt->out,
                  "write to this file instead of standard output");
  cmd->add_flag("--no-move-times", opt->no_move_times,
                "leave out move counts and times (reading a database "
                "without game tallies, this skips the move events: about 1.5 "
                "times as fast)");
  cmd->add_option("--ladder", opt->ladder,
                  "a ladder's leaderboard (and the pairs played) recomputed "
                  "from the records: the referee's own computation, so it "
                  "equals its leaderboard (docs/ladder.md)");
  cmd->add_flag("--all-versions", opt->all_versions,
                "with --ladder: every rated version, not only each "
                "account's current one");
  cmd->footer(kFooter);
  cmd->callback([=] { *exit_code = Run(*opt); });
}

}  // namespace cassino::cli
