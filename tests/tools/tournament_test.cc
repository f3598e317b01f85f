// `cassino tournament` end to end: it starts its own referee on a temporary
// database and runs real bot processes.

#include <sys/wait.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <random>
#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "recorder/recorder.h"

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
  // their game against each other normally. (1.5 s a move: the crasher's
  // games end on time, and sanitizer-built bots on a busy machine still
  // move well within it.)
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

}  // namespace
