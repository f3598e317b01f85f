// cassino verify DB... [GAME...]: re-adjudicates recorded games.

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "tools/cli/commands.h"
#include "tools/cli/record_args.h"
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
    replayed events, column by column; a running game has none;
  - the signature: an ended game's end or abort event signed by its
    referee's Ed25519 key verifies over the game's chain head
    (docs/record_format.md, *Signatures*). A game recorded without a
    signature (before signatures existed) verifies as unsigned.

SIGNATURES
  --trusted-keys FILE fails every signed game whose key is not in FILE: one
  public key per line (64 hex digits, as the referee prints it at start-up
  and GetRefereeInfo returns it), optionally followed by a note; blank
  lines and lines starting with # are ignored. --require-signed fails every
  ended game that is unsigned (use both to accept only records your
  referees signed). The summary names the key(s) each database's games
  are signed with.

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
  hash chain), then, per database, the keys its games are signed with and
  how many are unsigned:
    <DB>: N games signed by key <public key>
    <DB>: N ended games unsigned
    <DB>: N running games, not signed yet
  then a summary line:
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
  std::string trusted_keys;  // a file; empty: any key
  bool require_signed = false;
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
  vo.signatures.require_signed = opt.require_signed;
  if (!opt.trusted_keys.empty()) {
    absl::StatusOr<std::vector<std::string>> keys =
        verify::ReadTrustedKeys(opt.trusted_keys);
    if (!keys.ok()) {
      std::cerr << "cassino verify: " << keys.status().message() << "\n";
      return 2;
    }
    vo.signatures.trusted_keys = *std::move(keys);
  }
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
  for (const auto& [db, counts] : report->signatures) {
    for (const auto& [key, games] : counts.signed_by) {
      std::cout << db << ": " << games << " games signed by key " << key
                << "\n";
    }
    if (counts.unsigned_games > 0) {
      std::cout << db << ": " << counts.unsigned_games
                << " ended games unsigned\n";
    }
    if (counts.running > 0) {
      std::cout << db << ": " << counts.running
                << " running games, not signed yet\n";
    }
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
  cmd->add_option("--trusted-keys", opt->trusted_keys,
                  "a file of the public keys (one per line) a signed game "
                  "must be signed with");
  cmd->add_flag("--require-signed", opt->require_signed,
                "fail every ended game that is not signed");
  cmd->callback([opt, exit_code] { *exit_code = Run(*opt); });
}

}  // namespace cassino::cli
