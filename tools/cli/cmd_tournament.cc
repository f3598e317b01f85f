// cassino tournament: runs a competition between bot programs.

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "tools/cli/commands.h"
#include "tools/tournament/process.h"
#include "tools/tournament/tournament.h"

namespace cassino::cli {
namespace {

namespace fs = std::filesystem;

struct Options {
  std::vector<std::string> bots;
  std::string address;
  std::string admin_token;
  std::string referee;
  std::string db = "cassino.db";
  std::string schedule = "round_robin";
  int games = 2;
  bool duplicate = false;
  int concurrency = 2;
  std::string rules = "standard";
  int64_t per_move_ms = 5000;
  int64_t bank_ms = 30000;
  std::string label;
  std::string seed = std::string(64, '0');
  std::string log_dir;
  bool quiet = false;
};

// The referee binary: --referee, else beside this program's build, else PATH.
std::string FindReferee(const std::string& flag) {
  if (!flag.empty()) return flag;
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    for (const fs::path& candidate : {self.parent_path() / "cassino-referee",
                                      self.parent_path().parent_path() /
                                          "referee/service/cassino-referee"}) {
      if (fs::exists(candidate)) return candidate.string();
    }
  }
  return "cassino-referee";
}

std::string RandomToken() {
  std::random_device rd;
  std::string token;
  for (int i = 0; i < 16; ++i)
    absl::StrAppendFormat(&token, "%04x", rd() & 0xffff);
  return token;
}

int Run(Options opt) {
  tournament::TournamentOptions t;
  for (const std::string& spec : opt.bots) {
    const size_t eq = spec.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size()) {
      std::cerr << "cassino tournament: --bot wants NAME=COMMAND, got '" << spec
                << "'\n";
      return 2;
    }
    t.bots.push_back({spec.substr(0, eq), spec.substr(eq + 1)});
  }
  if (t.bots.size() < 2) {
    std::cerr << "cassino tournament: give at least two --bot NAME=COMMAND\n";
    return 2;
  }
  absl::StatusOr<Seed> seed = ParseSeed(opt.seed);
  if (!seed.ok()) {
    std::cerr << "cassino tournament: --seed: " << seed.status().message()
              << "\n";
    return 2;
  }
  t.seed = *seed;
  t.schedule = opt.schedule == "gauntlet" ? tournament::Schedule::kGauntlet
                                          : tournament::Schedule::kRoundRobin;
  t.games_per_pairing = opt.games;
  t.duplicate = opt.duplicate;
  t.concurrency = opt.concurrency;
  t.rules = opt.rules;
  t.per_move_ms = opt.per_move_ms;
  t.bank_ms = opt.bank_ms;
  t.label = opt.label.empty()
                ? absl::StrCat("tournament-", opt.seed.substr(0, 8))
                : opt.label;
  t.log_dir = opt.log_dir;
  if (!t.log_dir.empty()) fs::create_directories(t.log_dir);

  // Our own referee on the embedded database, unless one is given.
  std::optional<tournament::Process> referee;
  fs::path scratch;
  if (opt.address.empty()) {
    scratch = fs::temp_directory_path() /
              absl::StrCat("cassino-tournament-", getpid());
    fs::create_directories(scratch);
    const std::string token = RandomToken();
    {
      std::ofstream f(scratch / "admin-token");
      f << token << "\n";
    }
    fs::permissions(scratch / "admin-token",
                    fs::perms::owner_read | fs::perms::owner_write);
    const std::string command = absl::StrCat(
        "exec '", FindReferee(opt.referee), "' --listen 127.0.0.1:0 --db '",
        opt.db, "' --admin-token-file '", (scratch / "admin-token").string(),
        "' --port-file '", (scratch / "port").string(), "'");
    absl::StatusOr<tournament::Process> p = tournament::Process::Start(
        command, {}, (scratch / "referee.log").string());
    if (!p.ok()) {
      std::cerr << "cassino tournament: " << p.status().message() << "\n";
      return 1;
    }
    referee.emplace(std::move(*p));
    std::string port;
    for (int i = 0; i < 300 && port.empty(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      std::ifstream f(scratch / "port");
      std::getline(f, port);
      if (referee->Wait(std::chrono::milliseconds(0))) break;
    }
    if (port.empty()) {
      std::ifstream log(scratch / "referee.log");
      std::cerr << "cassino tournament: the referee did not start:\n"
                << log.rdbuf() << "\n";
      return 1;
    }
    opt.address = "127.0.0.1:" + port;
    opt.admin_token = token;
    if (!opt.quiet) {
      std::cerr << "referee on " << opt.address << ", database " << opt.db
                << "\n";
    }
  } else if (opt.admin_token.empty()) {
    if (const char* env = std::getenv("CASSINO_ADMIN_TOKEN")) {
      opt.admin_token = env;
    } else {
      std::cerr << "cassino tournament: --address needs --admin-token or "
                   "$CASSINO_ADMIN_TOKEN\n";
      return 2;
    }
  }
  t.address = opt.address;
  t.admin_token = opt.admin_token;

  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<tournament::TournamentResult> result =
      tournament::RunTournament(
          t, [&](const tournament::GameOutcome& g, int done, int total) {
            if (opt.quiet) return;
            const std::string& a = t.bots[g.spec.bot[0]].name;
            const std::string& b = t.bots[g.spec.bot[1]].name;
            std::string what;
            if (!g.error.empty()) {
              what = "error: " + g.error;
            } else if (g.winner_seat < 0) {
              what = absl::StrCat("no winner (", g.reason, ")");
            } else {
              what = absl::StrCat(t.bots[g.spec.bot[g.winner_seat]].name,
                                  " wins ", g.totals[g.winner_seat], "-",
                                  g.totals[1 - g.winner_seat],
                                  g.reason == "forfeit" ? " by forfeit" : "");
            }
            std::fprintf(stderr, "[%d/%d] %s %s vs %s: %s\n", done, total,
                         g.game_id.c_str(), a.c_str(), b.c_str(), what.c_str());
          });
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  if (referee) {
    kill(referee->pid(), SIGTERM);
    if (!referee->Wait(std::chrono::milliseconds(10000))) referee->Kill();
    std::error_code ec;
    fs::remove_all(scratch, ec);
  }
  if (!result.ok()) {
    std::cerr << "cassino tournament: " << result.status().message() << "\n";
    return 1;
  }
  int errors = 0;
  for (const auto& g : result->games) errors += !g.error.empty();
  std::cout << "tournament " << t.label << ": " << result->games.size()
            << " games in " << absl::StrFormat("%.1f", seconds) << " s"
            << (errors ? absl::StrCat(", ", errors, " could not be played")
                       : "")
            << "\n\n"
            << tournament::FormatStandings(result->standings);
  return errors ? 1 : 0;
}

}  // namespace

void AddTournamentCommand(CLI::App& app, int* exit_code) {
  auto opt = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "tournament",
      "Run a competition between bot programs on a referee.\n\n"
      "Each game is created on the referee and each seat's bot command is "
      "started (with /bin/sh -c) with CASSINO_ADDRESS, CASSINO_GAME, "
      "CASSINO_TOKEN and CASSINO_SEAT in its environment; {address}, {game}, "
      "{token} and {seat} in the command are replaced by the same values. "
      "Without --address a referee is started on --db and stopped at the "
      "end. A bot that crashes or hangs forfeits its own game on time and "
      "nothing else. Prints a line per game and the standings.\n\n"
      "Exit status: 0 when every game was played, 1 otherwise, 2 for usage "
      "errors.\n\n"
      "Example:\n"
      "  cassino tournament --bot greedy='cassino-bot --strategy greedy' \\\n"
      "    --bot random='cassino-bot --strategy random' --games 10 "
      "--duplicate");
  cmd->add_option("--bot", opt->bots,
                  "NAME=COMMAND, once per bot (at least two)")
      ->required();
  cmd->add_option("--schedule", opt->schedule,
                  "round_robin: every pair; gauntlet: the first bot against "
                  "each other")
      ->check(CLI::IsMember({"round_robin", "gauntlet"}))
      ->capture_default_str();
  cmd->add_option("--games", opt->games, "games per pairing")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  cmd->add_flag("--duplicate", opt->duplicate,
                "play games in pairs with the same deals and the seats "
                "swapped");
  cmd->add_option("--concurrency,-j", opt->concurrency, "games at once")
      ->check(CLI::Range(1, 512))
      ->capture_default_str();
  cmd->add_option("--rules", opt->rules, "rule set (two players)")
      ->capture_default_str();
  cmd->add_option("--per-move-ms", opt->per_move_ms, "free time per move")
      ->capture_default_str();
  cmd->add_option("--bank-ms", opt->bank_ms, "overage bank per game (0: none)")
      ->capture_default_str();
  cmd->add_option("--label", opt->label,
                  "label recorded with every game (default tournament-SEED)");
  cmd->add_option("--seed", opt->seed,
                  "tournament seed, 64 hex digits: game i uses "
                  "SHA-256(seed || uint32_be(i))")
      ->capture_default_str();
  cmd->add_option("--address", opt->address,
                  "a running referee, host:port (default: start one)");
  cmd->add_option("--admin-token", opt->admin_token,
                  "its admin token (default $CASSINO_ADMIN_TOKEN)");
  cmd->add_option("--referee", opt->referee,
                  "the cassino-referee binary to start (default: beside "
                  "this program, else on PATH)");
  cmd->add_option("--db", opt->db, "database of the referee started here")
      ->capture_default_str();
  cmd->add_option("--log-dir", opt->log_dir,
                  "keep each bot's output in DIR/GAME-seatN.log");
  cmd->add_flag("--quiet,-q", opt->quiet, "print only the standings");
  cmd->callback([opt, exit_code] { *exit_code = Run(*opt); });
}

}  // namespace cassino::cli
