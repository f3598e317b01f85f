// cassino tournament: runs a competition between bot programs.

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "competition/sprt.h"
#include "grpcpp/grpcpp.h"
#include "recorder/display_text.h"
#include "rules/deal.h"
#include "rules/rule_set.h"
#include "tools/cli/build_paths.h"
#include "tools/cli/commands.h"
#include "tools/cli/organiser.h"
#include "tools/stats/sprt_format.h"
#include "tools/stats/sprt_records.h"
#include "tools/stats/stats.h"
#include "tools/tournament/process.h"
#include "tools/tournament/progress.h"
#include "tools/tournament/remote.h"
#include "tools/tournament/sprt_match.h"
#include "tools/tournament/tournament.h"

namespace cassino::cli {
namespace {

namespace fs = std::filesystem;
namespace v1 = ::cassino::v1;

struct Options {
  std::vector<std::string> bots;
  std::vector<std::string> accounts;  // a tournament the referee schedules
  std::string name;                   // its name
  std::string follow;                 // follow this one only
  bool detach = false;
  int64_t grace_ms = 0;
  bool seed_given = false;
  std::string address;
  std::string admin_token;
  std::string admin_token_file;
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
  std::string seed;  // --seed; drawn at random when not given
  std::string log_dir;
  bool quiet = false;
  std::string sprt;  // SPRT parameters; empty: a fixed schedule
  int max_pairs = 10000;
  int64_t retry_ms = 600000;
};

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

// Event lines and, on a terminal, a live status line on standard error.
tournament::ProgressLine MakeProgress() {
  return tournament::ProgressLine(stderr, isatty(fileno(stderr)) != 0);
}

// The pair's two results from A's side, e.g. "WL" or "DW".
std::string PairLetters(const tournament::PairOutcome& p) {
  std::string out;
  for (int g = 0; g < 2; ++g) {
    const int half = tournament::HalfPoints(p.games[g], g);
    out += half == 2 ? 'W' : half == 1 ? 'D' : 'L';
  }
  return out;
}

// --sprt: plays duplicate pairs of bots[0] against bots[1] until the test
// decides (tools/tournament/sprt_match.h), resuming from the games already
// recorded under the label in `db` (empty: nothing to resume from).
int RunSprt(const Options& opt, const tournament::TournamentOptions& t,
            const competition::SprtParams& params, const std::string& db) {
  tournament::SprtMatchOptions m;
  m.tournament = t;
  m.params = params;
  m.max_pairs = opt.max_pairs;
  const std::string& a = t.bots[0].name;
  const std::string& b = t.bots[1].name;
  if (!db.empty() && fs::exists(db)) {
    stats::Filter filter;
    filter.tournament = t.label;
    stats::Options read;
    read.move_times = false;
    absl::StatusOr<stats::Stats> before = stats::ReadStats(db, filter, read);
    if (!before.ok()) {
      std::cerr << "cassino tournament: resuming from " << db << ": "
                << before.status().message() << "\n";
      return 1;
    }
    m.resumed = stats::PairsBetween(*before, a, b);
    m.first_pair = static_cast<int>((before->summary.games + 1) / 2);
    if (m.first_pair > 0 && !opt.quiet) {
      int64_t counted = 0;
      for (int64_t n : m.resumed) counted += n;
      std::cerr << "resuming " << t.label << ": " << counted
                << " pairs counted, from pair " << m.first_pair << "\n";
    }
  }
  const auto start = std::chrono::steady_clock::now();
  tournament::ProgressLine progress = MakeProgress();
  int pairs_done = 0;
  absl::StatusOr<tournament::SprtMatchResult> result =
      tournament::RunSprtMatch(m, [&](const tournament::PairOutcome& p,
                                      const competition::SprtResult& now) {
        ++pairs_done;
        if (opt.quiet) return;
        std::string line = absl::StrFormat(
            "[pair %d] %s vs %s: %s", p.pair, a, b,
            p.counted ? PairLetters(p) : std::string("not counted"));
        for (const tournament::GameOutcome& g : p.games) {
          if (!g.error.empty()) absl::StrAppend(&line, " (", g.error, ")");
        }
        absl::StrAppendFormat(&line, "; LLR %.2f (%.2f, %.2f)", now.llr,
                              now.lower, now.upper);
        progress.Event(line);
        for (const tournament::GameOutcome& g : p.games) {
          for (const std::string& exit : tournament::DescribeExits(g, t.bots)) {
            progress.Event(exit);
          }
        }
        progress.Status(tournament::SprtProgress(
            now.llr, now.lower, now.upper, pairs_done, SecondsSince(start)));
      });
  progress.Finish();
  if (!result.ok()) {
    std::cerr << "cassino tournament: " << result.status().message() << "\n";
    return 1;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  int errors = 0;
  for (const auto& g : result->games) errors += !g.error.empty();
  const char* ended = result->verdict == competition::Verdict::kAcceptH1
                          ? "H1 accepted"
                      : result->verdict == competition::Verdict::kAcceptH0
                          ? "H0 accepted"
                          : "no decision (pair cap)";
  std::cout << "sprt " << t.label << ": " << ended << " after "
            << result->pairs_started << " pairs in "
            << absl::StrFormat("%.1f", seconds) << " s"
            << (m.first_pair > 0
                    ? absl::StrCat(" (resumed at pair ", m.first_pair, ")")
                    : "")
            << (result->pairs_uncounted
                    ? absl::StrCat(", ", result->pairs_uncounted,
                                   " pairs not counted")
                    : "")
            << (errors
                    ? absl::StrCat(", ", errors, " games could not be played")
                    : "")
            << "; seed " << opt.seed << "\n\n"
            << stats::FormatSprtText(result->sprt, a, b) << "\n"
            << tournament::FormatStandings(result->standings);
  return errors ? 1 : 0;
}

// The referee binary: --referee, else beside this program's build, else PATH.
std::string FindReferee(const std::string& flag) {
  if (!flag.empty()) return flag;
  return BesideThisProgram({"cassino-referee", "../referee/cassino-referee"},
                           "cassino-referee");
}

// FailedPrecondition when a game labelled t.label is recorded on one of
// t.addresses (a referee that cannot be asked is not checked here: the run
// reports it).
absl::Status CheckLabelUnused(const tournament::TournamentOptions& t) {
  for (const std::string& address : t.addresses) {
    auto stub = v1::RefereeService::NewStub(
        grpc::CreateChannel(address, grpc::InsecureChannelCredentials()));
    v1::ListGamesRequest req;
    req.set_label(t.label);
    req.set_page_size(1);
    v1::ListGamesResponse resp;
    const grpc::Status s = stub->ListGames(
        tournament::AdminContext(t.admin_token, 10000).get(), req, &resp);
    if (s.ok() && resp.games_size() > 0) {
      return absl::FailedPreconditionError(absl::StrCat(
          "the label '", recorder::EscapeDisplay(t.label),
          "' already has games on the referee at ", address,
          ": a new run would merge with them in standings and statistics; "
          "give another --label (or --db)"));
    }
  }
  return absl::OkStatus();
}

std::string RandomToken() {
  std::random_device rd;
  std::string token;
  for (int i = 0; i < 16; ++i)
    absl::StrAppendFormat(&token, "%04x", rd() & 0xffff);
  return token;
}

// The organiser token for a running referee: --admin-token, else
// --admin-token-file or $CASSINO_ADMIN_TOKEN as the organiser's commands
// read them (organiser.h); empty (after an error message) if none is given.
std::string AdminToken(const Options& opt) {
  if (!opt.admin_token.empty()) return opt.admin_token;
  OrganiserFlags flags;
  flags.token_file = opt.admin_token_file;
  absl::StatusOr<std::string> token = ReadAdminToken(flags);
  if (!token.ok()) {
    std::cerr << "cassino tournament: --address: " << token.status().message()
              << "\n";
    return "";
  }
  return *token;
}

// A's half points in one game of a referee's tournament: 2 a win, 1 no
// winner, 0 a loss (A's seat found by name).
int AccountHalfPoints(const v1::TournamentGame& game, const std::string& a) {
  int seat = -1;
  for (int s = 0; s < game.bots_size(); ++s) {
    if (game.bots(s) == a) seat = s;
  }
  const int winner = game.result().winner();
  if (winner >= 0 && winner == seat) return 2;
  return winner < 0 ? 1 : 0;
}

// --sprt with --account (or --follow): follows the referee's
// two-participant duplicate tournament `name`, evaluating the SPRT over its
// pairs (games 2m and 2m+1) as they end, and cancels the tournament when
// the test first crosses a bound; games already running play on and count.
// Following again (--follow NAME --sprt ...) recounts the pairs already
// played, so an interrupted run resumes.
int FollowSprt(const Options& opt, tournament::RemoteTournament& remote,
               const std::string& name, const competition::SprtParams& params) {
  absl::StatusOr<v1::TournamentInfo> first = remote.Get(name);
  if (!first.ok()) {
    std::cerr << "cassino tournament: " << first.status().message() << "\n";
    return 1;
  }
  if (first->spec().participants_size() != 2 || !first->spec().duplicate()) {
    std::cerr << "cassino tournament: --sprt follows a duplicate tournament "
                 "of two accounts; '"
              << name << "' is not one\n";
    return 2;
  }
  const std::string a = first->spec().participants(0);
  const std::string b = first->spec().participants(1);
  const auto start = std::chrono::steady_clock::now();
  tournament::ProgressLine progress = MakeProgress();
  std::map<int, v1::TournamentGame> ended;
  competition::Pentanomial counts{};
  int pairs = 0, uncounted = 0;
  competition::Verdict verdict = competition::Verdict::kContinue;
  std::string cancel_error;
  absl::StatusOr<v1::TournamentInfo> info = remote.Follow(
      name,
      [&](const v1::TournamentGame& g, int, int) {
        ended[g.index()] = g;
        const int pair = g.index() / 2;
        auto g0 = ended.find(2 * pair);
        auto g1 = ended.find(2 * pair + 1);
        if (g0 == ended.end() || g1 == ended.end()) return;
        ++pairs;
        const bool counted = g0->second.status() == v1::GAME_STATUS_FINISHED &&
                             g1->second.status() == v1::GAME_STATUS_FINISHED;
        std::string letters;
        int half = 0;
        for (const auto* game : {&g0->second, &g1->second}) {
          const int h = AccountHalfPoints(*game, a);
          half += h;
          letters += h == 2 ? 'W' : h == 1 ? 'D' : 'L';
        }
        if (counted) {
          ++counts[half];
        } else {
          ++uncounted;
        }
        const competition::SprtResult now =
            competition::EvaluatePairs(params, counts);
        if (now.verdict != competition::Verdict::kContinue &&
            verdict == competition::Verdict::kContinue) {
          verdict = now.verdict;
          const absl::Status cancelled = remote.Cancel(
              name,
              absl::StrCat(
                  "sprt: ",
                  verdict == competition::Verdict::kAcceptH1 ? "H1" : "H0",
                  " accepted"));
          // FAILED_PRECONDITION: already over (e.g. the last pair).
          if (!cancelled.ok() &&
              cancelled.code() != absl::StatusCode::kFailedPrecondition) {
            cancel_error = std::string(cancelled.message());
          }
        }
        if (opt.quiet) return;
        progress.Event(absl::StrFormat(
            "[pair %d] %s vs %s: %s; LLR %.2f (%.2f, %.2f)", pair, a, b,
            counted ? letters : std::string("not counted"), now.llr, now.lower,
            now.upper));
        progress.Status(tournament::SprtProgress(now.llr, now.lower, now.upper,
                                                 pairs, SecondsSince(start)));
      },
      500, 60000, /*until_settled=*/true);
  progress.Finish();
  if (!info.ok()) {
    std::cerr << "cassino tournament: " << info.status().message() << "\n";
    return 1;
  }
  if (!cancel_error.empty()) {
    std::cerr << "cassino tournament: could not cancel " << name << ": "
              << cancel_error << "\n";
  }
  const bool cancelled = info->status() == v1::TOURNAMENT_STATUS_CANCELLED;
  const char* what = verdict == competition::Verdict::kAcceptH1 ? "H1 accepted"
                     : verdict == competition::Verdict::kAcceptH0
                         ? "H0 accepted"
                     : cancelled ? "no decision (tournament cancelled)"
                                 : "no decision (pair cap)";
  std::cout
      << "sprt " << name << ": " << what << " after " << pairs << " pairs in "
      << absl::StrFormat("%.1f", SecondsSince(start)) << " s"
      << (uncounted ? absl::StrCat(", ", uncounted, " pairs not counted") : "")
      << (cancelled && verdict != competition::Verdict::kContinue
              ? "; tournament cancelled"
              : "")
      << "\n\n"
      << stats::FormatSprtText(competition::EvaluatePairs(params, counts), a, b)
      << "\n"
      << tournament::FormatStandings(tournament::StandingsFromProto(*info));
  return 0;
}

// The tournament the referee is asked to schedule (--account, and
// `tournament create`). With `sprt`: a duplicate tournament of
// 2 x --max-pairs games, the pair cap at most 500 pairs (the referee's limit
// of 1000 games per pairing).
v1::TournamentSpec SpecOf(const Options& opt, bool sprt) {
  v1::TournamentSpec spec;
  spec.set_name(opt.name);
  for (const std::string& a : opt.accounts) spec.add_participants(a);
  spec.set_format(opt.schedule == "gauntlet"
                      ? v1::TOURNAMENT_FORMAT_GAUNTLET
                      : v1::TOURNAMENT_FORMAT_ROUND_ROBIN);
  spec.set_games_per_pairing(sprt ? 2 * std::min(opt.max_pairs, 500)
                                  : opt.games);
  spec.set_duplicate(sprt || opt.duplicate);
  spec.set_rules(opt.rules);
  spec.mutable_clock()->set_per_move_ms(opt.per_move_ms);
  spec.mutable_clock()->set_bank_ms(
      std::max<int64_t>(opt.bank_ms, 0));  // 0: none
  spec.set_max_concurrent_games(opt.concurrency);
  if (opt.seed_given) spec.set_seed(opt.seed);
  spec.set_grace_ms(opt.grace_ms);
  return spec;
}

// --account / --follow: a tournament scheduled by the referee at --address.
// Creates it (unless following one), then follows it to its end, printing a
// line per ended game and the referee's standings; with `sprt`, FollowSprt.
int RunOnReferee(const Options& opt, const competition::SprtParams* sprt) {
  if (opt.address.empty()) {
    std::cerr << "cassino tournament: --account and --follow need --address "
                 "(a running referee whose bots connect to its lobby)\n";
    return 2;
  }
  const std::string token = AdminToken(opt);
  if (token.empty()) return 2;
  tournament::RemoteTournament remote(opt.address, token);
  std::string name = opt.follow;
  if (name.empty()) {
    if (opt.name.empty()) {
      std::cerr << "cassino tournament: --account needs --name\n";
      return 2;
    }
    name = opt.name;
    absl::StatusOr<v1::TournamentInfo> created =
        remote.Create(SpecOf(opt, sprt != nullptr));
    if (!created.ok()) {
      std::cerr << "cassino tournament: " << created.status().message() << "\n";
      return 1;
    }
    std::cout << "tournament " << name << " created on " << opt.address << ": "
              << created->games_total() << " games, seed commitment "
              << created->seed_commitment() << "\n";
    std::cout.flush();
    if (opt.detach) return 0;
  }
  if (sprt != nullptr) return FollowSprt(opt, remote, name, *sprt);
  const auto start = std::chrono::steady_clock::now();
  tournament::ProgressLine progress = MakeProgress();
  absl::StatusOr<v1::TournamentInfo> info = remote.Follow(
      name, [&](const v1::TournamentGame& g, int ended, int total) {
        if (opt.quiet) return;
        progress.Event(absl::StrFormat("[%d/%d] %s", ended, total,
                                       tournament::DescribeGame(g)));
        progress.Status(
            tournament::GamesProgress(ended, total, SecondsSince(start)));
      });
  progress.Finish();
  if (!info.ok()) {
    std::cerr << "cassino tournament: " << info.status().message() << "\n";
    return 1;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  const bool cancelled = info->status() == v1::TOURNAMENT_STATUS_CANCELLED;
  std::cout << "tournament " << name << (cancelled ? " cancelled" : "") << ": "
            << info->games_finished() << " games finished"
            << (info->games_aborted()
                    ? absl::StrCat(", ", info->games_aborted(), " aborted")
                    : "")
            << (cancelled
                    ? absl::StrCat(", ", info->games_pending(), " never played")
                    : "")
            << " (followed for " << absl::StrFormat("%.1f", seconds)
            << " s); seed " << info->spec().seed() << "\n\n"
            << tournament::FormatStandings(
                   tournament::StandingsFromProto(*info));
  return cancelled ? 1 : 0;
}

int Run(Options opt) {
  const int modes =
      !opt.bots.empty() + !opt.accounts.empty() + !opt.follow.empty();
  if (modes != 1) {
    std::cerr << "cassino tournament: give either --bot NAME=COMMAND (bots "
                 "launched here), or --account NAME (bots connected to the "
                 "referee's lobby), or --follow NAME\n";
    return 2;
  }
  if (!opt.bots.empty() && (!opt.name.empty() || opt.detach)) {
    std::cerr << "cassino tournament: --name and --detach are for --account\n";
    return 2;
  }
  absl::StatusOr<competition::SprtParams> sprt;
  if (!opt.sprt.empty()) {
    sprt = competition::ParseSprtParams(opt.sprt);
    if (!sprt.ok()) {
      std::cerr << "cassino tournament: --" << sprt.status().message() << "\n";
      return 2;
    }
    if (opt.bots.size() != 2 && opt.accounts.size() != 2 &&
        opt.follow.empty()) {
      std::cerr << "cassino tournament: --sprt plays two --bot NAME=COMMAND "
                   "(or two --account NAME) against each other\n";
      return 2;
    }

    absl::StatusOr<RuleSet> rules = RuleSet::Parse(opt.rules);
    if (rules.ok() && rules->players != 2) {
      std::cerr
          << "cassino tournament: --sprt plays two-player games (duplicate "
             "pairs); the rules '"
          << opt.rules << "' seat " << rules->players << " players\n";
      return 2;
    }
    if (opt.address.find(',') != std::string::npos) {
      std::cerr << "cassino tournament: --sprt runs on one referee; --address "
                   "names several\n";
      return 2;
    }
  }
  if (opt.bots.empty() && opt.address.find(',') != std::string::npos) {
    std::cerr << "cassino tournament: --account and --follow take one referee "
                 "--address\n";
    return 2;
  }
  if (!opt.accounts.empty() || !opt.follow.empty()) {
    return RunOnReferee(opt, opt.sprt.empty() ? nullptr : &*sprt);
  }
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
  if (!opt.seed_given) {
    // A fresh seed for every run (printed), so that a run never repeats an
    // earlier one's deals or label by accident.
    std::random_device rd;
    Seed drawn;
    for (uint8_t& b : drawn) b = static_cast<uint8_t>(rd());
    opt.seed = ToHex(drawn);
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
      referee->StderrTail();  // an exited referee's stderr is all logged
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
  } else {
    opt.admin_token = AdminToken(opt);
    if (opt.admin_token.empty()) return 2;
  }
  for (absl::string_view a :
       absl::StrSplit(opt.address, ',', absl::SkipWhitespace())) {
    t.addresses.emplace_back(a);
  }
  if (t.addresses.empty()) {
    std::cerr << "cassino tournament: --address names no referee\n";
    return 2;
  }
  t.admin_token = opt.admin_token;
  t.referee_retry_ms = opt.retry_ms;
  // Our own referee is stopped (and its scratch files removed) on every
  // way out from here.
  auto stop_referee = [&] {
    if (!referee) return;
    kill(referee->pid(), SIGTERM);
    if (!referee->Wait(std::chrono::milliseconds(10000))) referee->Kill();
    referee.reset();
    std::error_code ec;
    fs::remove_all(scratch, ec);
  };
  if (!opt.quiet) {
    std::cerr << "tournament " << t.label << ", seed " << opt.seed << "\n";
  }
  // A label already used would merge this run's games with the earlier
  // ones in every standings and statistics. Only an SPRT match resumes
  // under its label, from the database of the referee it starts.
  if (opt.sprt.empty() || !referee) {
    if (absl::Status unused = CheckLabelUnused(t); !unused.ok()) {
      std::cerr << "cassino tournament: " << unused.message() << "\n";
      stop_referee();
      return 2;
    }
  }

  if (sprt.ok() && !opt.sprt.empty()) {
    const int code = RunSprt(opt, t, *sprt, referee ? opt.db : "");
    stop_referee();
    return code;
  }
  const auto start = std::chrono::steady_clock::now();
  tournament::ProgressLine progress = MakeProgress();
  t.notice = [&](const std::string& line) {
    if (!opt.quiet) progress.Event(line);
  };
  absl::StatusOr<tournament::TournamentResult> result =
      tournament::RunTournament(t, [&](const tournament::GameOutcome& g,
                                       int done, int total) {
        if (opt.quiet) return;
        progress.Event(absl::StrFormat(
            "[%d/%d] %s%s", done, total, tournament::DescribeGame(g, t.bots),
            t.addresses.size() > 1 && !g.address.empty()
                ? absl::StrCat(" [", g.address, "]")
                : ""));
        for (const std::string& exit : tournament::DescribeExits(g, t.bots)) {
          progress.Event(exit);
        }
        progress.Status(
            tournament::GamesProgress(done, total, SecondsSince(start)));
      });
  progress.Finish();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  stop_referee();
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
            << "; seed " << opt.seed << "\n\n"
            << tournament::FormatStandings(result->standings, result->ratings);
  return errors ? 1 : 0;
}

// The flags of a tournament's schedule and clock, shared by the runner and
// `tournament create`.
void AddScheduleFlags(CLI::App* cmd, Options* opt) {
  cmd->add_option("--grace-ms", opt->grace_ms,
                  "with --account: how long a due game waits for a bot not "
                  "connected to the lobby before it forfeits (0: the "
                  "referee's default, 60000)")
      ->check(CLI::Range(int64_t{0}, int64_t{86400000}));
  cmd->add_option("--schedule", opt->schedule,
                  "round_robin: every pair; gauntlet: the first bot against "
                  "each other")
      ->check(CLI::IsMember({"round_robin", "gauntlet"}))
      ->capture_default_str();
  cmd->add_option("--games", opt->games,
                  "games per pairing (multiplayer: per table, or per partner "
                  "split)")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  cmd->add_flag("--duplicate", opt->duplicate,
                "play games in pairs with the same deals and the seats "
                "swapped");
  cmd->add_option("--concurrency,-j", opt->concurrency,
                  "games at once on each referee (with --account: the "
                  "referee's max_concurrent_games)")
      ->check(CLI::Range(1, 512))
      ->capture_default_str();
  cmd->add_option("--rules", opt->rules,
                  "rule set: 2 to 6 players, or 4 in partnerships (--sprt "
                  "and --account: two players)")
      ->capture_default_str();
  cmd->add_option("--per-move-ms", opt->per_move_ms, "free time per move")
      ->capture_default_str();
  cmd->add_option("--bank-ms", opt->bank_ms, "overage bank per game (0: none)")
      ->capture_default_str();
}

// ---------------------------------------------------------------------
// tournament create|show|list|cancel: the referee's tournaments over the
// organiser API (docs/cli.md, *The organiser's commands*).

struct AdminOptions {
  OrganiserFlags flags;
  Options spec;  // create: the name, accounts, schedule and clock
  CLI::Option* seed = nullptr;
  std::string reason;
};

const char* TournamentStatusText(v1::TournamentStatus status) {
  switch (status) {
    case v1::TOURNAMENT_STATUS_RUNNING:
      return "running";
    case v1::TOURNAMENT_STATUS_FINISHED:
      return "finished";
    case v1::TOURNAMENT_STATUS_CANCELLED:
      return "cancelled";
    default:
      return "-";
  }
}

std::string GamesText(const v1::TournamentInfo& t) {
  return absl::StrCat(t.games_finished(), " finished, ", t.games_running(),
                      " running, ", t.games_pending(), " pending, ",
                      t.games_aborted(), " aborted, of ", t.games_total());
}

// A tournament as text: its facts, its standings and, when it has them,
// its games.
std::string TournamentText(const v1::TournamentInfo& t) {
  const v1::TournamentSpec& spec = t.spec();
  std::string out = FormatFields(
      {{"tournament", spec.name()},
       {"status", TournamentStatusText(t.status())},
       {"participants", absl::StrJoin(spec.participants(), ", ")},
       {"format",
        absl::StrCat(spec.format() == v1::TOURNAMENT_FORMAT_GAUNTLET
                         ? "gauntlet"
                         : "round robin",
                     ", ", spec.games_per_pairing(), " games per pairing",
                     spec.duplicate() ? ", duplicate" : "")},
       {"rules", spec.rules()},
       {"clock", absl::StrCat(spec.clock().per_move_ms(), " ms a move, bank ",
                              spec.clock().bank_ms(), " ms")},
       {"at once", absl::StrCat(spec.max_concurrent_games(), " games")},
       {"grace", absl::StrCat(spec.grace_ms(), " ms")},
       {"games", GamesText(t)},
       {"created", FormatUnixMs(t.created_unix_ms())},
       {"ended", FormatUnixMs(t.ended_unix_ms())},
       {"seed commitment", t.seed_commitment()},
       {"seed",
        spec.seed().empty() ? "(secret until it is over)" : spec.seed()}});
  // (FormatStandings escapes nothing: the names are account names, checked
  // by the referee, but escaped here all the same.)
  absl::StrAppend(&out, "\n",
                  recorder::EscapeDisplay(tournament::FormatStandings(
                      tournament::StandingsFromProto(t))));
  if (t.games_size() > 0) {
    std::vector<std::vector<std::string>> rows;
    for (const v1::TournamentGame& g : t.games()) {
      const bool over = g.status() == v1::GAME_STATUS_FINISHED ||
                        g.status() == v1::GAME_STATUS_ABORTED;
      rows.push_back(
          {absl::StrCat(g.index()), absl::StrJoin(g.bots(), " vs "),
           g.game_id().empty() ? "-" : g.game_id(),
           g.game_id().empty() ? "pending" : GameStatusText(g.status()),
           ResultText(g.result(), over)});
    }
    absl::StrAppend(
        &out, "\n",
        FormatTable({"#", "seats", "game", "status", "result"}, rows));
  }
  return out;
}

using Stub = v1::RefereeService::Stub;

int AdminCreate(const AdminOptions& o) {
  Options spec = o.spec;
  spec.seed_given = o.seed->count() > 0;
  v1::CreateTournamentRequest req;
  *req.mutable_spec() = SpecOf(spec, /*sprt=*/false);
  return Call<v1::CreateTournamentRequest, v1::CreateTournamentResponse>(
      o.flags, "cassino tournament create", &Stub::CreateTournament, req,
      [](const Organiser&, const v1::CreateTournamentResponse& r) {
        return TournamentText(r.tournament());
      });
}

int AdminShow(const AdminOptions& o) {
  v1::GetTournamentRequest req;
  req.set_name(o.spec.name);
  return Call<v1::GetTournamentRequest, v1::GetTournamentResponse>(
      o.flags, "cassino tournament show", &Stub::GetTournament, req,
      [](const Organiser&, const v1::GetTournamentResponse& r) {
        return TournamentText(r.tournament());
      });
}

int AdminList(const AdminOptions& o) {
  return Call<v1::ListTournamentsRequest, v1::ListTournamentsResponse>(
      o.flags, "cassino tournament list", &Stub::ListTournaments,
      v1::ListTournamentsRequest(),
      [](const Organiser&, const v1::ListTournamentsResponse& r) {
        std::vector<std::vector<std::string>> rows;
        for (const v1::TournamentInfo& t : r.tournaments()) {
          rows.push_back({t.spec().name(), TournamentStatusText(t.status()),
                          absl::StrCat(t.games_finished() + t.games_aborted(),
                                       "/", t.games_total()),
                          absl::StrCat(t.games_running()),
                          absl::StrJoin(t.spec().participants(), ","),
                          FormatUnixMs(t.created_unix_ms())});
        }
        return FormatTable(
            {"name", "status", "ended", "running", "participants", "created"},
            rows);
      });
}

int AdminCancel(const AdminOptions& o) {
  v1::CancelTournamentRequest req;
  req.set_name(o.spec.name);
  req.set_reason(o.reason);
  return Call<v1::CancelTournamentRequest, v1::CancelTournamentResponse>(
      o.flags, "cassino tournament cancel", &Stub::CancelTournament, req,
      [](const Organiser&, const v1::CancelTournamentResponse& r) {
        return TournamentText(r.tournament());
      });
}

// Adds create, show, list and cancel under `tournament` (the runner's own
// flags stay on `tournament` itself).
void AddTournamentAdminCommands(CLI::App* cmd, int* exit_code) {
  auto o = std::make_shared<AdminOptions>();
  CLI::App* create = cmd->add_subcommand(
      "create",
      absl::StrCat(
          "create a tournament the referee schedules among registered bot "
          "accounts (as --account ... --detach does) and print it",
          " ", kOrganiserHelp));
  AddOrganiserFlags(create, &o->flags);
  create
      ->add_option("NAME", o->spec.name,
                   "the tournament's name (also its games' label)")
      ->required();
  create
      ->add_option("--account", o->spec.accounts,
                   "a participant's bot account, once each (at least two; "
                   "a gauntlet's first is the challenger)")
      ->required();
  AddScheduleFlags(create, &o->spec);
  o->seed = create->add_option(
      "--seed", o->spec.seed,
      "the tournament seed, 64 hex digits (default: drawn by the referee, "
      "revealed when it is over)");
  create->callback([o, exit_code] { *exit_code = AdminCreate(*o); });

  CLI::App* show = cmd->add_subcommand(
      "show", absl::StrCat("one tournament: its facts, standings and games ",
                           kOrganiserHelp));
  AddOrganiserFlags(show, &o->flags);
  show->add_option("NAME", o->spec.name, "the tournament's name")->required();
  show->callback([o, exit_code] { *exit_code = AdminShow(*o); });

  CLI::App* list = cmd->add_subcommand(
      "list", absl::StrCat("every tournament of the referee, newest first ",
                           kOrganiserHelp));
  AddOrganiserFlags(list, &o->flags);
  list->callback([o, exit_code] { *exit_code = AdminList(*o); });

  CLI::App* cancel = cmd->add_subcommand(
      "cancel",
      absl::StrCat(
          "cancel a tournament: no further game starts; running games play on "
          "and count",
          " ", kOrganiserHelp));
  AddOrganiserFlags(cancel, &o->flags);
  cancel->add_option("NAME", o->spec.name, "the tournament's name")->required();
  cancel->add_option("--reason", o->reason, "why (recorded)");
  cancel->callback([o, exit_code] { *exit_code = AdminCancel(*o); });
}

}  // namespace

void AddTournamentCommand(CLI::App& app, int* exit_code) {
  auto opt = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "tournament",
      "Run a competition between bots on a referee.\n\n"
      "Bots launched here (--bot): each game is created on the referee and "
      "each seat's bot command is started (with /bin/sh -c) with "
      "CASSINO_ADDRESS, CASSINO_GAME, CASSINO_TOKEN and CASSINO_SEAT in its "
      "environment; {address}, {game}, {token} and {seat} in the command are "
      "replaced by the same values. Without --address a referee is started "
      "on --db and stopped at the end. A bot process that ends before its "
      "game does forfeits that game at once, and its last lines on stderr "
      "are shown (at most " +
          std::to_string(tournament::kStderrTailLines) +
          "); a bot that hangs forfeits on time; nothing else is "
          "affected.\n\n"
          "Multiplayer (--bot, rules for 3 to 6 players or 4 in partnerships): "
          "a table is P distinct bots (round robin: every P-subset of the "
          "bots; "
          "gauntlet: the first bot with every (P-1)-subset of the others); "
          "with "
          "partnerships each table plays its three partner splits. Each table "
          "(or split) plays --games games, rounded up to a multiple of P, "
          "rotating the seats so that every bot holds every seat equally often "
          "(partners stay opposite); with --duplicate each rotation of P games "
          "shares one deal. Standings count wins, losses and draws by side; "
          "the "
          "rating column is pairwise Bradley-Terry over the finishing order "
          "(docs/tournaments.md).\n\n"
          "Several referees (--address A:PORT,B:PORT,...): the games are "
          "spread "
          "over them, -j at once on each, all with one --admin-token; each "
          "referee records its games in its own database. A referee that "
          "cannot "
          "be reached is retried (after 1 s, doubling to 30 s) while the "
          "others "
          "play on, and given up after --retry-ms unreachable; a game whose "
          "referee restarts while it runs is followed again when it is "
          "back.\n\n"
          "Bots connected to a running referee (--account, with --address and "
          "--name): the tournament is created on the referee, which schedules "
          "it itself: it seats the registered bot accounts through their lobby "
          "as they are connected and free, forfeits a bot absent for longer "
          "than --grace-ms, and continues the schedule after a restart. This "
          "command then follows it (--follow NAME follows one created "
          "earlier; --detach only creates it); following rides out a restart "
          "of the referee (it retries for a minute).\n\n"
          "Prints a line per game as it ends and the standings.\n\n"
          "Subcommands (organiser, over the API; see each one's --help): "
          "`cassino tournament create NAME --account A --account B ...`, "
          "`show NAME`, `list` and `cancel NAME` manage the tournaments the "
          "referee schedules itself, with the admin token from "
          "--admin-token-file or $CASSINO_ADMIN_TOKEN.\n\n"
          "SPRT (--sprt, two --bot): plays duplicate pairs (one deal, the "
          "seats "
          "swapped) of the first bot against the second until the generalized "
          "SPRT over the pairs (pentanomial model) accepts H0 (the first bot "
          "is "
          "not stronger by elo1) or H1, or --max-pairs is reached; prints a "
          "line per pair with the LLR, then the verdict, the LLR and its "
          "bounds, "
          "games and pairs, Elo and normalized Elo with 95% intervals, LOS and "
          "the pair outcomes. A run interrupted and started again with the "
          "same "
          "--db, --label and --seed resumes: the pairs recorded count and play "
          "goes on with the next deal. `cassino stats DB --sprt ... --bot A "
          "--bot B --tournament LABEL` recomputes the test from the records. "
          "With two --account (and --address, --name) the SPRT runs on the "
          "referee: a duplicate tournament of the two accounts, followed pair "
          "by pair and cancelled when the test decides (games already running "
          "finish and count); --follow NAME --sprt ... resumes following "
          "it.\n\n"
          "Exit status: 0 when every game was played (or, with --detach, the "
          "tournament was created; with --sprt, whatever the verdict), 1 "
          "otherwise (including a cancelled "
          "tournament), 2 for usage errors.\n\n"
          "Examples:\n"
          "  cassino tournament --bot greedy='cassino-bot --strategy greedy' "
          "\\\n"
          "    --bot random='cassino-bot --strategy random' --games 10 "
          "--duplicate\n"
          "  cassino tournament --rules 'standard players=4 partnerships=on' "
          "\\\n"
          "    --bot a=... --bot b=... --bot c=... --bot d=... --address "
          "r1:50051,r2:50051\n"
          "  cassino tournament --address ref:50051 --name autumn --account "
          "alpha "
          "\\\n"
          "    --account beta --account gamma --games 4 -j 6");
  cmd->add_option("--bot", opt->bots,
                  "NAME=COMMAND, once per bot (at least two) to launch here");
  cmd->add_option("--account", opt->accounts,
                  "a registered bot account, once per participant (at least "
                  "two): a tournament the referee at --address schedules "
                  "through its lobby");
  cmd->add_option("--name", opt->name,
                  "with --account: the tournament's name (unique on the "
                  "referee; also its games' label)");
  cmd->add_option("--follow", opt->follow,
                  "follow the referee's tournament NAME to its end");
  cmd->add_flag("--detach", opt->detach,
                "with --account: create the tournament and exit");
  AddScheduleFlags(cmd, opt.get());
  cmd->add_option("--label", opt->label,
                  "with --bot: label recorded with every game (default "
                  "tournament- and the seed's first 8 digits); a label "
                  "that already has games on the referee is refused, "
                  "except to resume an --sprt match from --db");
  CLI::Option* seed =
      cmd->add_option("--seed", opt->seed,
                      "tournament seed, 64 hex digits: game i uses "
                      "SHA-256(seed || uint32_be(i)) (default: drawn at "
                      "random and printed; with --account: drawn by the "
                      "referee, revealed at the end)");
  cmd->add_option("--address", opt->address,
                  "a running referee, host:port (default: start one); with "
                  "--bot, several separated by commas");
  cmd->add_option("--retry-ms", opt->retry_ms,
                  "with --bot and --address: give a referee up once it has "
                  "been unreachable this long in a row")
      ->check(CLI::Range(int64_t{0}, int64_t{86400000}))
      ->capture_default_str();
  cmd->add_option("--admin-token", opt->admin_token,
                  "its admin token (visible to other users in the process "
                  "list: prefer --admin-token-file or $CASSINO_ADMIN_TOKEN)");
  cmd->add_option("--admin-token-file", opt->admin_token_file,
                  "a file holding its admin token, as the referee's own "
                  "--admin-token-file (default $CASSINO_ADMIN_TOKEN)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--referee", opt->referee,
                  "the cassino-referee binary to start (default: beside "
                  "this program, else on PATH)");
  cmd->add_option("--db", opt->db, "database of the referee started here")
      ->capture_default_str();
  cmd->add_option("--log-dir", opt->log_dir,
                  "keep each bot's output in DIR/GAME-seatN.log");
  cmd->add_flag("--quiet,-q", opt->quiet, "print only the standings");
  cmd->add_option("--sprt", opt->sprt,
                  "elo0=E0,elo1=E1,alpha=A,beta=B[,model=normalized|logistic]"
                  ": play duplicate pairs of the first --bot against the "
                  "second until the SPRT accepts H0 or H1");
  cmd->add_option("--max-pairs", opt->max_pairs,
                  "with --sprt: stop after this many pairs (resumed ones "
                  "included) without a decision (with --account: at most "
                  "500)")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  AddTournamentAdminCommands(cmd, exit_code);
  cmd->callback([cmd, opt, seed, exit_code] {
    // `tournament create|show|list|cancel` ran instead of the runner; its
    // flags belong to the runner only.
    if (!cmd->get_subcommands().empty()) {
      for (const CLI::Option* option : cmd->get_options()) {
        if (option->count() > 0 && option->get_name() != "--help") {
          std::cerr << "cassino tournament: " << option->get_name()
                    << " is a flag of the runner; give the subcommand's "
                       "flags after it\n";
          *exit_code = 2;
          return;
        }
      }
      return;
    }
    opt->seed_given = seed->count() > 0;
    *exit_code = Run(*opt);
  });
}

}  // namespace cassino::cli
