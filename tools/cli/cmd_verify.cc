// cassino verify DB... [GAME...]: re-adjudicates recorded games.

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "tools/cli/commands.h"
#include "tools/verify/verifier.h"

namespace cassino::cli {
namespace {

constexpr char kDescription[] =
    R"doc(Re-adjudicate recorded games, independently of what the referee stored.

For each game (every game of the databases when none is named) verify:
  - the hash chain: every stored hash equals SHA-256 recomputed from the
    stored payload bytes (event 0 chained from the seed commitment, or 32
    zero bytes for explicit decks), with no missing or reordered events;
  - the header: the games/seats rows equal the hashed create event;
  - the seed: a finished game's end event reveals a seed whose SHA-256 is
    the commitment;
  - the deals: every deal event's deck is the deck the seed gives (or the
    explicit deck; docs/rules.md, *The seeded shuffle*);
  - the play, replayed with the rules engine: every move was legal and made
    by the seat to move at its turn; every rejected submission that parses
    as a move is indeed illegal; forfeits follow the rules; every round
    result and the end result equal what the engine computes;
  - the summary columns (status, winner, end_reason, totals, finished_us)
    agree with the end or abort event;
  - the game's tally (game_tallies, schema version 2: the derived figures
    `cassino stats` reads), when there is one, equals the tally of the
    replayed events, column by column; a running game has none.

SEVERAL DATABASES
  Several files, or a directory (its *.db, *.sqlite and *.sqlite3 files), are
  one record set, e.g. the databases of several referees of one
  competition: every game of each is verified, and a game id found in two
  databases fails.

OUTPUT
  One line per failing game, naming its first discrepancy:
    FAIL <game> round R turn T (event seq S): <what>: expected <x>, recorded <y>
  ("(games row)" instead of an event when the discrepancy is in a column;
  no round and turn for a fault found before the replay, such as a broken
  hash chain), then a summary line:
    verified N games: K ok, F failed[; M other faults (above)]
  where the other faults belong to no game verified (a database that
  cannot be read past some game, a game id in two databases).
  A progress bar goes to stderr when it is a terminal and there are more
  than 200 games.

EXIT STATUS
  0  every game verifies
  1  at least one game fails (or the database is corrupt part-way)
  2  usage error, or the database cannot be opened or is not a record
     database)doc";

struct Options {
  std::vector<std::string> args;  // DB... [GAME...]
  int threads = 2;
  bool quiet = false;
};

int Run(const Options& opt) {
  RecordArgs args;
  if (absl::Status s = SplitRecordArgs(opt.args, &args); !s.ok()) {
    std::cerr << "cassino verify: " << s.message() << "\n";
    return 2;
  }
  verify::VerifyOptions vo;
  vo.games = args.games;
  vo.threads = opt.threads;
  const bool tty = isatty(STDERR_FILENO) == 1 && !opt.quiet;
  const auto start = std::chrono::steady_clock::now();
  bool drew = false;
  if (tty) {
    vo.progress = [&](int64_t done, int64_t total) {
      if (total <= 200) return;
      const int width = 40;
      const int filled =
          static_cast<int>(width * done / std::max<int64_t>(1, total));
      const double secs = std::chrono::duration<double>(
                              std::chrono::steady_clock::now() - start)
                              .count();
      std::fprintf(stderr, "\r[%-*s] %lld/%lld games, %.0f games/s", width,
                   std::string(std::min(filled, width), '#').c_str(),
                   static_cast<long long>(done), static_cast<long long>(total),
                   secs > 0 ? done / secs : 0.0);
      std::fflush(stderr);
      drew = true;
    };
  }
  absl::StatusOr<verify::VerifyReport> report =
      verify::VerifyRecordSet(args.databases, vo);
  if (drew) std::fprintf(stderr, "\n");
  if (!report.ok()) {
    std::cerr << "cassino verify: " << report.status().message() << "\n";
    return 2;
  }
  for (const verify::Failure& f : report->failures) {
    std::cout << f.ToString() << "\n";
  }
  const int64_t failed = report->games - report->ok;
  // Faults of no game verified (a database that cannot be read past some
  // game, a game id in two databases) are counted apart, so that the
  // summary never reads as clean when the exit status is 1.
  const int64_t other = static_cast<int64_t>(report->failures.size()) - failed;
  std::cout << "verified " << report->games << " games: " << report->ok
            << " ok, " << failed << " failed";
  if (other > 0) {
    std::cout << "; " << other << " other fault" << (other == 1 ? "" : "s")
              << " (above)";
  }
  std::cout << "\n";
  return report->failures.empty() ? 0 : 1;
}

}  // namespace

void AddVerifyCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand("verify", kDescription);
  auto opt = std::make_shared<Options>();
  cmd->add_option("DB... [GAME...]", opt->args,
                  "record databases (SQLite files, or directories of them), "
                  "then the game ids to verify (default: every game)")
      ->required();
  cmd->add_option("--threads", opt->threads, "verifying threads (default 2)")
      ->check(CLI::Range(1, 64));
  cmd->add_flag("--quiet", opt->quiet, "no progress bar");
  cmd->callback([opt, exit_code] { *exit_code = Run(*opt); });
}

}  // namespace cassino::cli
