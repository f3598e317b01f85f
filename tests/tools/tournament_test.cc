// `cassino tournament` end to end: it starts its own referee on a temporary
// database and runs real bot processes.

#include "tools/tournament/tournament.h"

#include <sys/wait.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "recorder/recorder.h"
#include "recorder/standings.h"
#include "tests/child_process.h"

namespace {

namespace fs = std::filesystem;

struct ShellRun {
  int exit_code = -1;
  std::string output;
};

ShellRun Shell(const std::string& command) {
  ShellRun run;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return run;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof(buffer), pipe)) > 0) {
    run.output.append(buffer, n);
  }
  const int status = pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

fs::path TempDir() {
  fs::path dir = fs::temp_directory_path() /
                 absl::StrCat("cassino_tournament_", std::random_device{}());
  fs::create_directories(dir);
  return dir;
}

std::string Bot(const std::string& strategy) {
  return absl::StrCat(strategy, "='", CASSINO_BOT_PATH, " --strategy ",
                      strategy, " -q'");
}

// The finished games labelled `label` in the databases.
std::vector<cassino::recorder::GameSummary> Games(
    const std::vector<std::string>& dbs, const std::string& label) {
  std::vector<cassino::recorder::GameSummary> out;
  for (const std::string& db : dbs) {
    auto recorder = cassino::recorder::Recorder::Open(
        db, cassino::recorder::Durability::kNormal);
    EXPECT_TRUE(recorder.ok()) << recorder.status();
    if (!recorder.ok()) return out;
    cassino::recorder::ListFilter filter;
    filter.label = label;
    auto games = (*recorder)->List(filter);
    EXPECT_TRUE(games.ok());
    if (games.ok()) out.insert(out.end(), games->begin(), games->end());
  }
  return out;
}

// The standings of the games labelled `label` over the databases, counted
// from the records as the referee and `cassino stats --tournament` count
// them (recorder/standings.h), formatted as `cassino tournament` prints
// them; every line of it must be in `output` (which adds a rating column).
void ExpectStandingsFromRecords(const std::vector<std::string>& dbs,
                                const std::string& label,
                                const std::vector<std::string>& bots,
                                const std::string& output) {
  std::vector<cassino::recorder::StandingGame> games;
  for (const std::string& db : dbs) {
    auto recorder = cassino::recorder::Recorder::Open(
        db, cassino::recorder::Durability::kNormal);
    ASSERT_TRUE(recorder.ok()) << recorder.status();
    auto forfeits = (*recorder)->ForfeitsByLabel(label);
    ASSERT_TRUE(forfeits.ok());
    for (const auto& g : Games({db}, label)) {
      if (g.status != cassino::recorder::GameStatus::kFinished) continue;
      cassino::recorder::StandingGame sg;
      sg.bots = g.bots;
      if (auto it = forfeits->find(g.game_id); it != forfeits->end()) {
        sg.forfeits = it->second;
      }
      sg.winner = g.winner;
      sg.totals = g.totals;
      games.push_back(sg);
    }
  }
  const std::string table = cassino::tournament::FormatStandings(
      cassino::recorder::ComputeStandings(bots, games));
  for (absl::string_view line : absl::StrSplit(table, '\n')) {
    if (line.empty()) continue;
    // The header and each row, up to the rating column.
    std::string row(line);
    while (!row.empty() && row.back() == ' ') row.pop_back();
    EXPECT_NE(output.find(row), std::string::npos)
        << "missing standings row '" << row << "' in\n"
        << output;
  }
}

// Each bot's printed standings row holds the games, wins, losses and draws
// `cassino stats DBS --tournament LABEL` counts over the databases (DBS:
// one or more paths, space separated) and, with `ratings`, its rating
// (rounded alike). Ratings agree for two-sided games (two players, or
// partnerships), where the finishing order is the win / loss / draw that
// stats rates.
void ExpectStatsAgree(const std::string& dbs, const std::string& label,
                      const std::string& output, bool ratings = true) {
  const ShellRun stats =
      Shell(absl::StrCat(CASSINO_CLI_PATH, " stats ", dbs, " --tournament ",
                         label, " --format json 2>/dev/null"));
  ASSERT_EQ(stats.exit_code, 0) << stats.output;
  const nlohmann::json doc = nlohmann::json::parse(stats.output);
  ASSERT_FALSE(doc["bots"].empty());
  for (const auto& bot : doc["bots"]) {
    const std::string name = bot["name"];
    const std::string rating =
        absl::StrFormat("%.0f ±%.0f", bot["rating"].get<double>(),
                        1.96 * bot["rating_se"].get<double>());
    const size_t table = output.find("rank bot ");
    ASSERT_NE(table, std::string::npos) << output;
    const size_t row = output.find(absl::StrCat(" ", name, " "), table);
    ASSERT_NE(row, std::string::npos) << name;
    const std::string line = output.substr(row, output.find('\n', row) - row);
    const std::string counts =
        absl::StrFormat("%-20s %6d %5d %5d %5d", name, bot["games"].get<int>(),
                        bot["wins"].get<int>(), bot["losses"].get<int>(),
                        bot["draws"].get<int>());
    EXPECT_NE(line.find(counts), std::string::npos)
        << "stats says " << counts << "; printed: " << line;
    if (!ratings) continue;
    EXPECT_NE(line.find(rating), std::string::npos)
        << name << ": stats says " << rating << "; printed: " << line;
  }
}

std::string MultiBot(const std::string& name, const std::string& strategy) {
  return absl::StrCat(name, "='", CASSINO_BOT_PATH, " --strategy ", strategy,
                      " -q'");
}

TEST(TournamentTest, RoundRobinWithDuplicateDeals) {
  const fs::path dir = TempDir();
  const ShellRun run = Shell(absl::StrCat(
      CASSINO_CLI_PATH, " tournament --db ", (dir / "t.db").string(), " --bot ",
      Bot("greedy"), " --bot ", Bot("random"), " --bot ", Bot("builder"),
      " --games 2 --duplicate -j 3 --label unit"));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("tournament unit: 6 games"), std::string::npos)
      << run.output;
  for (const char* bot : {"greedy", "random", "builder"}) {
    EXPECT_NE(run.output.find(bot), std::string::npos) << run.output;
  }
  // Every game is recorded, finished, under the tournament's label, and
  // duplicate pairs share their deals.
  auto recorder = cassino::recorder::Recorder::Open(
      (dir / "t.db").string(), cassino::recorder::Durability::kNormal);
  ASSERT_TRUE(recorder.ok()) << recorder.status();
  cassino::recorder::ListFilter filter;
  filter.label = "unit";
  auto games = (*recorder)->List(filter);
  ASSERT_TRUE(games.ok());
  ASSERT_EQ(games->size(), 6u);
  std::map<std::string, int> commitments;
  for (const auto& g : *games) {
    EXPECT_EQ(g.status, cassino::recorder::GameStatus::kFinished);
    EXPECT_NE(g.end_reason, "forfeit") << g.game_id;
    auto record = (*recorder)->Load(g.game_id);
    ASSERT_TRUE(record.ok());
    ++commitments[record->header.commitment];
  }
  EXPECT_EQ(commitments.size(), 3u);
  for (const auto& [c, n] : commitments) EXPECT_EQ(n, 2) << c;
  recorder->reset();
  ExpectStatsAgree((dir / "t.db").string(), "unit", run.output);
  fs::remove_all(dir);
}

TEST(TournamentTest, ACrashingBotLosesOnlyItsOwnGames) {
  const fs::path dir = TempDir();
  const ShellRun run = Shell(absl::StrCat(
      CASSINO_CLI_PATH, " tournament --db ", (dir / "t.db").string(),
      " --bot crasher='exit 3' --bot ", Bot("greedy"), " --bot ", Bot("random"),
      " --games 2 -j 3 --per-move-ms 1500 --bank-ms 0 --label crash"));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  // crasher: 4 games, 4 losses, all by forfeit; greedy and random play
  // their game against each other normally. (The crasher's games end as
  // its process exits, AnExitingBotForfeitsAtOnceAndItsStderrIsShown; 1.5
  // s a move, which sanitizer-built bots on a busy machine still move well
  // within, would end them on time otherwise.)
  EXPECT_NE(run.output.find("crasher                   4     0     4     0"
                            "        4"),
            std::string::npos)
      << run.output;
  auto recorder = cassino::recorder::Recorder::Open(
      (dir / "t.db").string(), cassino::recorder::Durability::kNormal);
  ASSERT_TRUE(recorder.ok());
  cassino::recorder::ListFilter filter;
  filter.label = "crash";
  auto games = (*recorder)->List(filter);
  ASSERT_TRUE(games.ok());
  int forfeits = 0, normal = 0;
  for (const auto& g : *games) {
    const bool crasher_seated =
        g.bots[0] == "crasher" || g.bots[1] == "crasher";
    if (crasher_seated) {
      EXPECT_EQ(g.end_reason, "forfeit");
      ++forfeits;
    } else {
      EXPECT_NE(g.end_reason, "forfeit");
      ++normal;
    }
  }
  EXPECT_EQ(forfeits, 4);
  EXPECT_EQ(normal, 2);
  fs::remove_all(dir);
}

// A bot process that exits before its game has ended forfeits it at once
// (ForfeitSeat), not when its clock runs out: with a 60 s clock two such
// games end in seconds. Its last kStderrTailLines lines on stderr are
// shown, each cut to kStderrTailLineBytes bytes, escaped; the other bot,
// which exits after the end, is not reported.
TEST(TournamentTest, AnExitingBotForfeitsAtOnceAndItsStderrIsShown) {
  const fs::path dir = TempDir();
  const std::string db = (dir / "t.db").string();
  // 25 lines on stderr: "line 1" ... "line 24", then a 600-byte line with
  // an escape character.
  const std::string script = (dir / "crash.sh").string();
  {
    std::ofstream f(script);
    f << "for i in $(seq 1 24); do echo \"line $i\" >&2; done\n"
      << "printf '\\033[31m%0600d\\n' 0 >&2\n"
      << "echo 'on stdout'\n"
      << "exit 3\n";
  }
  const auto start = std::chrono::steady_clock::now();
  const ShellRun run = Shell(absl::StrCat(
      CASSINO_CLI_PATH, " tournament --db ", db, " --bot crasher='sh ", script,
      "' --bot ", Bot("greedy"),
      " --games 2 -j 2 --per-move-ms 60000 --bank-ms 0 --label exits"));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_LT(seconds, 30) << run.output;
  EXPECT_NE(run.output.find("crasher                   2     0     2     0"
                            "        2"),
            std::string::npos)
      << run.output;
  for (int seat : {0, 1}) {
    EXPECT_NE(run.output.find(absl::StrCat(
                  "  seat ", seat,
                  " (crasher) exited with status 3 before the end: it "
                  "forfeits; its last lines on stderr:")),
              std::string::npos)
        << run.output;
  }
  // The tail: lines 6 to 24 and the long line (20 lines), twice.
  EXPECT_EQ(run.output.find("    | line 5\n"), std::string::npos) << run.output;
  size_t shown = 0;
  for (size_t at = run.output.find("    | line 6\n"); at != std::string::npos;
       at = run.output.find("    | line 6\n", at + 1)) {
    ++shown;
  }
  EXPECT_EQ(shown, 2u) << run.output;
  const std::string cut =
      absl::StrCat("    | \\x1B[31m", std::string(512 - 5, '0'), "...\n");
  EXPECT_NE(run.output.find(cut), std::string::npos) << run.output;
  EXPECT_EQ(run.output.find("on stdout"), std::string::npos) << run.output;
  EXPECT_EQ(run.output.find("(greedy) "), std::string::npos) << run.output;
  // The records: each game ended by the crasher's forfeit.
  const auto games = Games({db}, "exits");
  EXPECT_EQ(games.size(), 2u);
  auto recorder = cassino::recorder::Recorder::Open(
      db, cassino::recorder::Durability::kNormal);
  ASSERT_TRUE(recorder.ok());
  for (const auto& g : games) {
    EXPECT_EQ(g.end_reason, "forfeit") << g.game_id;
    auto record = (*recorder)->Load(g.game_id);
    ASSERT_TRUE(record.ok());
    bool organiser = false;
    for (const auto& e : record->events) {
      organiser |=
          e.payload.find("\"reason\":\"organiser\"") != std::string::npos;
    }
    EXPECT_TRUE(organiser) << g.game_id;
  }
  fs::remove_all(dir);
}

// The seed printed at the end of a run ("...; seed HEX"); "" if none.
std::string PrintedSeed(const std::string& output) {
  const size_t at = output.find("; seed ");
  if (at == std::string::npos) return "";
  return output.substr(at + 7, 64);
}

// Without --seed each run draws its own seed and prints it, and the default
// label follows from it: two runs on one database neither repeat the deals
// nor merge. A label that already has games in the database is refused
// (exit 2, nothing played); --seed gives the deals again under a new label.
TEST(TournamentTest, SeedsAreDrawnAndALabelInUseIsRefused) {
  const fs::path dir = TempDir();
  const std::string db = (dir / "t.db").string();
  const std::string base =
      absl::StrCat(CASSINO_CLI_PATH, " tournament --db ", db, " --bot ",
                   Bot("greedy"), " --bot ", Bot("random"), " --games 2");
  const ShellRun first = Shell(base);
  const ShellRun second = Shell(base);
  ASSERT_EQ(first.exit_code, 0) << first.output;
  ASSERT_EQ(second.exit_code, 0) << second.output;
  const std::string seed1 = PrintedSeed(first.output);
  const std::string seed2 = PrintedSeed(second.output);
  ASSERT_EQ(seed1.size(), 64u) << first.output;
  ASSERT_EQ(seed2.size(), 64u) << second.output;
  EXPECT_NE(seed1, seed2);
  EXPECT_NE(first.output.find("tournament tournament-" + seed1.substr(0, 8) +
                              ": 2 games"),
            std::string::npos)
      << first.output;
  EXPECT_EQ(Games({db}, "tournament-" + seed1.substr(0, 8)).size(), 2u);
  EXPECT_EQ(Games({db}, "tournament-" + seed2.substr(0, 8)).size(), 2u);

  // The first run's label again: refused before any game.
  const ShellRun reused =
      Shell(absl::StrCat(base, " --label tournament-", seed1.substr(0, 8)));
  EXPECT_EQ(reused.exit_code, 2) << reused.output;
  EXPECT_NE(reused.output.find("already has games"), std::string::npos)
      << reused.output;
  EXPECT_EQ(Games({db}, "tournament-" + seed1.substr(0, 8)).size(), 2u);

  // The first run's seed under a new label: the same deals.
  const ShellRun replay =
      Shell(absl::StrCat(base, " --seed ", seed1, " --label replay"));
  ASSERT_EQ(replay.exit_code, 0) << replay.output;
  EXPECT_EQ(PrintedSeed(replay.output), seed1);
  auto commitments = [&](const std::string& label) {
    std::set<std::string> out;
    auto recorder = cassino::recorder::Recorder::Open(
        db, cassino::recorder::Durability::kNormal);
    EXPECT_TRUE(recorder.ok());
    if (!recorder.ok()) return out;
    for (const auto& g : Games({db}, label)) {
      auto record = (*recorder)->Load(g.game_id);
      if (record.ok()) out.insert(record->header.commitment);
    }
    return out;
  };
  const auto replayed = commitments("replay");
  EXPECT_EQ(replayed.size(), 2u);
  EXPECT_EQ(replayed, commitments("tournament-" + seed1.substr(0, 8)));
  fs::remove_all(dir);
}

// The figure after `key` in `text` ("LLR      3.02 (..." -> 3.02); NaN if
// absent.
double FigureAfter(const std::string& text, const std::string& key) {
  const size_t at = text.rfind(key);
  if (at == std::string::npos) return std::nan("");
  return std::strtod(text.c_str() + at + key.size(), nullptr);
}

// An SPRT match: the strong builder against the random bot reaches H1
// within a few pairs; interrupted (here: capped) and started again with the
// same label, it resumes from the recorded pairs; and `cassino stats
// --sprt` recomputes the same LLR from the database.
TEST(TournamentTest, SprtStrongBotAcceptsH1AndResumes) {
  const fs::path dir = TempDir();
  const std::string db = (dir / "t.db").string();
  const std::string sprt = "elo0=0,elo1=150,alpha=0.05,beta=0.05";
  const std::string common = absl::StrCat(
      CASSINO_CLI_PATH, " tournament --db ", db, " --bot ", Bot("builder"),
      " --bot ", Bot("random"), " --sprt ", sprt, " -j 2 --label sprt");
  const ShellRun first = Shell(common + " --max-pairs 2");
  ASSERT_EQ(first.exit_code, 0) << first.output;
  EXPECT_NE(first.output.find("no decision (pair cap) after 2 pairs"),
            std::string::npos)
      << first.output;
  const ShellRun second = Shell(common + " --max-pairs 30");
  ASSERT_EQ(second.exit_code, 0) << second.output;
  EXPECT_NE(second.output.find("resuming sprt: 2 pairs counted, from pair 2"),
            std::string::npos)
      << second.output;
  EXPECT_NE(second.output.find("sprt sprt: H1 accepted"), std::string::npos)
      << second.output;
  const double llr = FigureAfter(second.output, "LLR      ");
  const double upper = std::log(0.95 / 0.05);
  EXPECT_GE(llr, upper - 0.005) << second.output;

  const ShellRun audit =
      Shell(absl::StrCat(CASSINO_CLI_PATH, " stats ", db, " --sprt ", sprt,
                         " --bot builder --bot random --tournament sprt"));
  ASSERT_EQ(audit.exit_code, 0) << audit.output;
  EXPECT_NEAR(FigureAfter(audit.output, "LLR      "), llr, 0.005)
      << audit.output;
  EXPECT_NE(audit.output.find("H1 accepted"), std::string::npos)
      << audit.output;
  fs::remove_all(dir);
}

// A bot against itself (two names, one deterministic program): every pair
// is the same deal played the same way from both seats, so it splits; the
// test never accepts H1.
TEST(TournamentTest, SprtBotAgainstItselfDoesNotAcceptH1) {
  const fs::path dir = TempDir();
  for (const char* seed : {"01", "02"}) {
    const ShellRun run = Shell(absl::StrCat(
        CASSINO_CLI_PATH, " tournament --db ", (dir / "t.db").string(),
        " --bot a='", CASSINO_BOT_PATH, " --strategy greedy -q' --bot b='",
        CASSINO_BOT_PATH, " --strategy greedy -q' --sprt elo0=0,elo1=150 ",
        "--max-pairs 6 -j 2 --seed ", std::string(62, '0'), seed,
        " --label self", seed));
    ASSERT_EQ(run.exit_code, 0) << run.output;
    EXPECT_EQ(run.output.find("H1 accepted"), std::string::npos) << run.output;
    EXPECT_NE(run.output.find("LL 0, LD 0, WL+DD 6, WD 0, WW 0"),
              std::string::npos)
        << run.output;
    EXPECT_LT(FigureAfter(run.output, "LLR      "), 0) << run.output;
  }
  fs::remove_all(dir);
}

// A 4-player partnership tournament of four bots through a real referee:
// one table, its three partner splits, each rotated through the four seats
// (12 games); the records show every bot at every seat three times and
// every pair of bots partners in four games, and the standings add up to
// the records.
TEST(TournamentTest, PartnershipTournamentRotatesSeatsAndPartners) {
  const fs::path dir = TempDir();
  const std::string db = (dir / "t.db").string();
  const std::vector<std::string> bots = {"builder", "greedy", "random",
                                         "greedy2"};
  const ShellRun run = Shell(absl::StrCat(
      CASSINO_CLI_PATH, " tournament --db ", db, " --bot ",
      MultiBot("builder", "builder"), " --bot ", MultiBot("greedy", "greedy"),
      " --bot ", MultiBot("random", "random"), " --bot ",
      MultiBot("greedy2", "greedy"),
      " --rules 'standard players=4 partnerships=on target=5' --games 1 -j 3 "
      "--label teams"));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("tournament teams: 12 games"), std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("rating"), std::string::npos) << run.output;
  const auto games = Games({db}, "teams");
  ASSERT_EQ(games.size(), 12u);
  std::map<std::pair<std::string, int>, int> seats;
  std::map<std::pair<std::string, std::string>, int> partners;
  int wins = 0;
  for (const auto& g : games) {
    EXPECT_EQ(g.status, cassino::recorder::GameStatus::kFinished);
    ASSERT_EQ(g.bots.size(), 4u);
    ASSERT_EQ(g.totals.size(), 2u);  // two sides
    for (int s = 0; s < 4; ++s) ++seats[{g.bots[s], s}];
    for (int s = 0; s < 2; ++s) {
      ++partners[std::minmax(g.bots[s], g.bots[s + 2])];
    }
    if (g.winner >= 0) wins += 2;
  }
  EXPECT_EQ(seats.size(), 16u);
  for (const auto& [key, n] : seats) EXPECT_EQ(n, 3) << key.first;
  EXPECT_EQ(partners.size(), 6u);
  for (const auto& [pair, n] : partners) EXPECT_EQ(n, 4) << pair.first;
  ExpectStandingsFromRecords({db}, "teams", bots, run.output);
  ExpectStatsAgree(db, "teams", run.output);
  // Each game with a winner gives two bots a win.
  int printed_wins = 0;
  for (const std::string& b : bots) {
    const size_t at = run.output.find(absl::StrCat(" ", b, " "),
                                      run.output.find("rank bot "));
    ASSERT_NE(at, std::string::npos);
    int games_played = 0, won = 0;
    ASSERT_EQ(std::sscanf(run.output.c_str() + at + b.size() + 2, "%d %d",
                          &games_played, &won),
              2);
    EXPECT_EQ(games_played, 12);
    printed_wins += won;
  }
  EXPECT_EQ(printed_wins, wins);
  fs::remove_all(dir);
}

// A 3-player duplicate tournament of four bots: four tables of three, each
// deal rotated through the three seats (12 games, 4 deals).
TEST(TournamentTest, ThreePlayerDuplicateRotatesEachDealThroughTheSeats) {
  const fs::path dir = TempDir();
  const std::string db = (dir / "t.db").string();
  const std::vector<std::string> bots = {"builder", "greedy", "random",
                                         "greedy2"};
  const ShellRun run = Shell(absl::StrCat(
      CASSINO_CLI_PATH, " tournament --db ", db, " --bot ",
      MultiBot("builder", "builder"), " --bot ", MultiBot("greedy", "greedy"),
      " --bot ", MultiBot("random", "random"), " --bot ",
      MultiBot("greedy2", "greedy"),
      " --rules 'standard players=3 target=5' --games 1 --duplicate -j 3 "
      "--label three"));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("tournament three: 12 games"), std::string::npos)
      << run.output;
  auto recorder = cassino::recorder::Recorder::Open(
      db, cassino::recorder::Durability::kNormal);
  ASSERT_TRUE(recorder.ok());
  const auto games = Games({db}, "three");
  ASSERT_EQ(games.size(), 12u);
  // Per deal (commitment): three games, one table, each bot at each seat.
  std::map<std::string, std::set<std::pair<std::string, int>>> by_deal;
  std::map<std::pair<std::string, int>, int> seats;
  for (const auto& g : games) {
    EXPECT_EQ(g.status, cassino::recorder::GameStatus::kFinished);
    ASSERT_EQ(g.bots.size(), 3u);
    ASSERT_EQ(g.totals.size(), 3u);
    auto record = (*recorder)->Load(g.game_id);
    ASSERT_TRUE(record.ok());
    for (int s = 0; s < 3; ++s) {
      by_deal[record->header.commitment].insert({g.bots[s], s});
      ++seats[{g.bots[s], s}];
    }
  }
  EXPECT_EQ(by_deal.size(), 4u);
  for (const auto& [deal, held] : by_deal) EXPECT_EQ(held.size(), 9u);
  // Each bot is at three of the four tables: three times at each seat.
  EXPECT_EQ(seats.size(), 12u);
  for (const auto& [key, n] : seats) EXPECT_EQ(n, 3) << key.first;
  recorder->reset();
  ExpectStandingsFromRecords({db}, "three", bots, run.output);
  // Ratings too: both rate three-sided games by the finishing order.
  ExpectStatsAgree(db, "three", run.output);
  fs::remove_all(dir);
}

TEST(TournamentTest, SprtRefusesMultiplayerRules) {
  const ShellRun run = Shell(absl::StrCat(
      CASSINO_CLI_PATH, " tournament --bot ", Bot("greedy"), " --bot ",
      Bot("random"), " --sprt elo0=0,elo1=5 --rules 'standard players=3'"));
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("--sprt plays two-player games"), std::string::npos)
      << run.output;
}

TEST(TournamentTest, TooFewBotsForTheSeatsIsAnError) {
  const fs::path dir = TempDir();
  const ShellRun run = Shell(absl::StrCat(
      CASSINO_CLI_PATH, " tournament --db ", (dir / "t.db").string(), " --bot ",
      Bot("greedy"), " --bot ", Bot("random"),
      " --rules 'standard players=4 partnerships=on'"));
  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_NE(run.output.find("the rules seat 4 players: a tournament needs at "
                            "least 4 bots, got 2"),
            std::string::npos)
      << run.output;
  fs::remove_all(dir);
}

TEST(TournamentTest, AScheduleTooLargeIsRefusedBeforeItIsMade) {
  std::string bots;
  for (int i = 0; i < 60; ++i) absl::StrAppend(&bots, " --bot b", i, "=true");
  const ShellRun run = Shell(absl::StrCat(
      CASSINO_CLI_PATH, " tournament --address 127.0.0.1:1 --admin-token t",
      bots, " --rules 'standard players=6' --games 1"));
  EXPECT_EQ(run.exit_code, 1) << run.output;
  // C(60, 6) tables of 6 games.
  EXPECT_NE(run.output.find("the schedule would have 300383160 games (at "
                            "most 100000)"),
            std::string::npos)
      << run.output;
}

// A referee started by the test on its own database; stopped on
// destruction.
struct TestReferee {
  pid_t pid = -1;
  std::string address;
  std::string db;

  TestReferee(const fs::path& dir, const std::string& name,
              const std::string& token_file, int port = 0) {
    db = (dir / (name + ".db")).string();
    const fs::path port_file = dir / (name + ".port");
    fs::remove(port_file);
    pid = cassino::testing::Spawn(
        {CASSINO_REFEREE_PATH, "--listen", absl::StrCat("127.0.0.1:", port),
         "--db", db, "--admin-token-file", token_file, "--port-file",
         port_file.string()},
        dir / (name + ".log"));
    for (int i = 0; i < 600 && pid > 0; ++i) {
      const std::string text = cassino::testing::ReadText(port_file);
      if (!text.empty() && text.back() == '\n') {
        address = "127.0.0.1:" + text.substr(0, text.size() - 1);
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  ~TestReferee() { Stop(); }
  void Stop() {
    if (pid <= 0) return;
    kill(pid, SIGTERM);
    int status = 0;
    if (!cassino::testing::WaitFor(pid, std::chrono::milliseconds(20000),
                                   &status)) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
    }
    pid = -1;
  }
};

// A tournament across two referees started here, each with its own
// database, plus an address where no referee listens (given up after
// --retry-ms, its games played on the others): every game is in exactly
// one database, the union verifies, and the printed standings are those
// the two records give.
TEST(TournamentTest, AcrossTwoRefereesEveryGameOnce) {
  const fs::path dir = TempDir();
  const std::string token_file = (dir / "token").string();
  {
    std::ofstream f(token_file);
    f << "across-referees-token\n";
  }
  fs::permissions(token_file, fs::perms::owner_read | fs::perms::owner_write);
  TestReferee a(dir, "a", token_file);
  TestReferee b(dir, "b", token_file);
  ASSERT_FALSE(a.address.empty()) << cassino::testing::Tail(dir / "a.log");
  ASSERT_FALSE(b.address.empty()) << cassino::testing::Tail(dir / "b.log");
  int dead_port = 0;
  ASSERT_TRUE(cassino::testing::TryBind(0, &dead_port));
  const std::vector<std::string> bots = {"greedy", "random", "builder"};
  const ShellRun run = Shell(
      absl::StrCat(CASSINO_CLI_PATH, " tournament --address ", a.address, ",",
                   b.address, ",127.0.0.1:", dead_port,
                   " --admin-token across-referees-token --retry-ms 1 --bot ",
                   Bot("greedy"), " --bot ", Bot("random"), " --bot ",
                   Bot("builder"), " --games 4 -j 2 --label across"));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("tournament across: 12 games"), std::string::npos)
      << run.output;
  a.Stop();
  b.Stop();
  const auto in_a = Games({a.db}, "across");
  const auto in_b = Games({b.db}, "across");
  EXPECT_EQ(in_a.size() + in_b.size(), 12u);
  // Both referees played (-j 2 each: neither can hold all 12 at once).
  EXPECT_GT(in_a.size(), 0u);
  EXPECT_GT(in_b.size(), 0u);
  std::set<std::string> ids;
  for (const auto* set : {&in_a, &in_b}) {
    for (const auto& g : *set) {
      EXPECT_TRUE(ids.insert(g.game_id).second) << g.game_id;
      EXPECT_EQ(g.status, cassino::recorder::GameStatus::kFinished);
      // The progress line names the referee that played the game.
      EXPECT_NE(run.output.find(g.game_id), std::string::npos) << g.game_id;
    }
  }
  // The lines naming each referee: as many as its database holds games.
  auto lines_naming = [&](const std::string& address) {
    size_t n = 0;
    for (size_t at = 0;
         (at = run.output.find("[" + address + "]", at)) != std::string::npos;
         ++at) {
      ++n;
    }
    return n;
  };
  EXPECT_EQ(lines_naming(a.address), in_a.size()) << run.output;
  EXPECT_EQ(lines_naming(b.address), in_b.size()) << run.output;
  // The address without a referee played nothing. (Whether it was tried
  // before the others had taken every game depends on timing: the given-up
  // path is checked on its own below.)
  EXPECT_EQ(run.output.find(absl::StrCat("[127.0.0.1:", dead_port, "]")),
            std::string::npos)
      << run.output;
  ExpectStandingsFromRecords({a.db, b.db}, "across", bots, run.output);
  // `cassino stats` over both databases as one record set: the same
  // standings and ratings.
  ExpectStatsAgree(absl::StrCat(a.db, " ", b.db), "across", run.output);
  const ShellRun verify =
      Shell(absl::StrCat(CASSINO_CLI_PATH, " verify ", a.db, " ", b.db));
  EXPECT_EQ(verify.exit_code, 0) << verify.output;
  fs::remove_all(dir);
}

// Only an address where no referee listens, given up at its first failure
// (--retry-ms 0): every game is reported as not played, exit status 1.
TEST(TournamentTest, AnUnreachableRefereeIsGivenUp) {
  int dead_port = 0;
  ASSERT_TRUE(cassino::testing::TryBind(0, &dead_port));
  const ShellRun run = Shell(absl::StrCat(
      CASSINO_CLI_PATH, " tournament --address 127.0.0.1:", dead_port,
      " --admin-token t --retry-ms 0 --bot ", Bot("greedy"), " --bot ",
      Bot("random"), " --games 2 --label gone"));
  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_NE(run.output.find(
                absl::StrCat("referee 127.0.0.1:", dead_port, " given up")),
            std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("error: no referee could be reached"),
            std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("2 games in"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("2 could not be played"), std::string::npos)
      << run.output;
}

// A referee that goes down while its game runs only delays that game: the
// runner watches it again once the referee is back on the same port and
// database (it resumes the game), and the game ends and counts. The bots
// wait for a file before connecting, so the game is certainly running,
// with no move played, when the referee stops.
TEST(TournamentTest, ARefereeRestartOnlyDelaysItsGame) {
  const fs::path dir = TempDir();
  const std::string token_file = (dir / "token").string();
  {
    std::ofstream f(token_file);
    f << "restart-token\n";
  }
  fs::permissions(token_file, fs::perms::owner_read | fs::perms::owner_write);
  const int port = cassino::testing::PickFreePort(std::random_device{}());
  ASSERT_NE(port, 0);
  auto referee = std::make_unique<TestReferee>(dir, "r", token_file, port);
  ASSERT_FALSE(referee->address.empty())
      << cassino::testing::Tail(dir / "r.log");
  const fs::path go = dir / "go";
  const fs::path logs = dir / "bots";
  fs::create_directories(logs);
  auto gated = [&](const std::string& name, const std::string& strategy) {
    return absl::StrCat(name, "=while [ ! -f ", go.string(),
                        " ]; do sleep 0.05; done; exec ", CASSINO_BOT_PATH,
                        " --strategy ", strategy, " -q");
  };
  const pid_t runner = cassino::testing::Spawn(
      {CASSINO_CLI_PATH, "tournament", "--address", referee->address,
       "--admin-token", "restart-token", "--bot", gated("greedy", "greedy"),
       "--bot", gated("random", "random"), "--games", "1", "--per-move-ms",
       "60000", "--log-dir", logs.string(), "--label", "restart"},
      dir / "runner.log");
  ASSERT_GT(runner, 0);
  // The game is created (its bots' logs appear), then the referee stops.
  bool started = false;
  for (int i = 0; i < 600 && !started; ++i) {
    started = !fs::is_empty(logs);
    if (!started) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ASSERT_TRUE(started) << cassino::testing::Tail(dir / "runner.log");
  referee->Stop();
  referee = std::make_unique<TestReferee>(dir, "r", token_file, port);
  ASSERT_FALSE(referee->address.empty())
      << cassino::testing::Tail(dir / "r.log");
  std::ofstream(go.string()) << "go\n";
  int status = 0;
  ASSERT_TRUE(cassino::testing::WaitFor(
      runner, std::chrono::milliseconds(120000), &status))
      << cassino::testing::Tail(dir / "runner.log");
  const std::string out = cassino::testing::ReadText(dir / "runner.log");
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << out;
  EXPECT_NE(out.find("tournament restart: 1 games"), std::string::npos) << out;
  EXPECT_EQ(out.find("could not be played"), std::string::npos) << out;
  referee->Stop();
  const auto games = Games({referee->db}, "restart");
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(games[0].status, cassino::recorder::GameStatus::kFinished);
  EXPECT_NE(games[0].end_reason, "forfeit");
  fs::remove_all(dir);
}

}  // namespace
