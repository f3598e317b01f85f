// Runs the built `cassino` binary (path from CASSINO_CLI_PATH) and checks
// what it prints and its exit status.

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace cassino {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using ::testing::StartsWith;

struct Result {
  int exit_code = -1;
  std::string out;
  std::string err;
};

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Quotes one argument for /bin/sh.
std::string Quote(const std::string& arg) {
  std::string out = "'";
  for (char c : arg) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

// Runs `cassino args...`, capturing stdout, stderr and the exit status.
Result RunCli(const std::vector<std::string>& args) {
  const std::string dir = ::testing::TempDir();
  const std::string tag = std::to_string(getpid());
  const std::string out_path = dir + "/cli_test_out_" + tag;
  const std::string err_path = dir + "/cli_test_err_" + tag;
  std::string cmd = Quote(CASSINO_CLI_PATH);
  for (const std::string& a : args) cmd += " " + Quote(a);
  cmd += " >" + Quote(out_path) + " 2>" + Quote(err_path);
  const int status = std::system(cmd.c_str());
  Result r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = ReadFile(out_path);
  r.err = ReadFile(err_path);
  std::remove(out_path.c_str());
  std::remove(err_path.c_str());
  return r;
}

std::vector<std::string> Lines(const std::string& text) {
  return absl::StrSplit(text, '\n', absl::SkipEmpty());
}

constexpr char kZeroSeed[] =
    "0000000000000000000000000000000000000000000000000000000000000000";

TEST(CliMoves, WorkedExample1PrintsTheNineMovesSorted) {
  const Result r = RunCli({"moves", "table: 2C KH 6D 5S 8H; hands: 3D 8C / ?"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, IsEmpty());
  // docs/rules.md, *Worked examples*, example 1, sorted as strings.
  EXPECT_THAT(
      Lines(r.out),
      ElementsAre("build 8 3D 5S", "build 8 3D 5S 6D 2C", "build 8 3D 5S 8H",
                  "build 8 3D 5S 8H 6D 2C", "take 8C 6D 2C", "take 8C 8H",
                  "take 8C 8H 6D 2C", "trail 3D", "trail 8C"));
}

TEST(CliMoves, CountOnly) {
  const Result r =
      RunCli({"moves", "--count", "table: 2C KH 6D 5S 8H; hands: 3D 8C / ?"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "9\n");
}

TEST(CliMoves, BadPositionFailsWithAMessage) {
  const Result r = RunCli({"moves", "table: 2C 2C; hands: 3D"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_THAT(r.out, IsEmpty());
  EXPECT_THAT(r.err, HasSubstr("2C is on the table twice"));
}

// The moves are those of the rule set's game (docs/rules.md, *Related
// games*): Callabra's pair capture, Tablanette's jack taking the table.
TEST(CliMoves, CallabraListsItsOwnMoves) {
  const Result r = RunCli(
      {"moves", "table: 8D 3D 4C; hands: 3S 5H KD / ?; rules: callabra"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(Lines(r.out), ElementsAre("take 3S 3D", "take 3S+5H 8D",
                                        "trail 3S", "trail 5H", "trail KD"));
}

TEST(CliMoves, TablanettesJackTakesTheTable) {
  const Result r =
      RunCli({"moves", "table: 9S 2H KD; hands: JC 5C / ?; rules: tablanette"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(Lines(r.out),
              ElementsAre("take JC 9S 2H KD", "trail 5C", "trail JC"));
}

TEST(CliMoves, RefusesACardThePackRemoves) {
  const Result r =
      RunCli({"moves", "table: 5C 2H; hands: 7D / ?; rules: five_players"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.out, IsEmpty());
  EXPECT_THAT(r.err, HasSubstr("2H is not in the pack of these rules"));
}

TEST(CliMoves, MissingPositionFails) {
  const Result r = RunCli({"moves"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_THAT(r.err, Not(IsEmpty()));
}

TEST(CliDeal, ZeroSeedGivesTheTestVector) {
  const Result r = RunCli({"deal", "--seed", kZeroSeed, "--round", "1"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "commitment "
            "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925\n"
            "round 1 6D 8C 2H 9H TC 2C 4C 5S 7H 5D JD 4S 4D QD JC 7D 5C 6C 9C "
            "AC 3H AD TD QC 3C 6S TH 9S 7C 3D 8H 8D 6H TS AH AS 7S 3S KS 5H "
            "9D JH 8S 2D 4H 2S QH KD KH QS KC JS\n");
}

TEST(CliDeal, Round2) {
  const Result r = RunCli({"deal", "--seed", kZeroSeed, "--round", "2"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(Lines(r.out).at(1), StartsWith("round 2 TD 2S 7S 4C "));
}

TEST(CliDeal, BadSeedFailsWithAMessage) {
  const Result r = RunCli({"deal", "--seed", "xyz"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_THAT(r.out, IsEmpty());
  EXPECT_THAT(r.err, Not(IsEmpty()));
}

TEST(CliSimulate, PrintsTotals) {
  const Result r = RunCli({"simulate", "--games", "20"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> lines = Lines(r.out);
  ASSERT_GE(lines.size(), 7u) << r.out;
  EXPECT_THAT(lines[0], StartsWith("rules: game=cassino players=2 "));
  EXPECT_EQ(lines[1], std::string("batch seed: ") + kZeroSeed);
  EXPECT_THAT(lines[2], StartsWith("games 20, rounds "));
  EXPECT_THAT(lines[3], StartsWith("side "));
  // One row per side; the wins add up to the games.
  int wins = 0;
  for (int side = 0; side < 2; ++side) {
    std::istringstream row(lines[4 + side]);
    int s = -1, w = -1;
    row >> s >> w;
    EXPECT_EQ(s, side);
    wins += w;
  }
  EXPECT_EQ(wins, 20);
  EXPECT_THAT(lines.back(), HasSubstr("rounds/s"));
}

TEST(CliSimulate, SameSeedSameTotals) {
  const Result a = RunCli({"simulate", "--games", "20", "--players", "3"});
  const Result b = RunCli({"simulate", "--games", "20", "--players", "3"});
  ASSERT_EQ(a.exit_code, 0) << a.err;
  const std::vector<std::string> la = Lines(a.out), lb = Lines(b.out);
  ASSERT_EQ(la.size(), lb.size());
  // Everything but the last line (the timing) is deterministic.
  for (size_t i = 0; i + 1 < la.size(); ++i) EXPECT_EQ(la[i], lb[i]);
}

TEST(CliSimulate, BadOptionsFail) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"simulate", "--players", "5"},
        std::vector<std::string>{"simulate", "--rules", "standard target=x"},
        std::vector<std::string>{"simulate", "--seed", "00"}}) {
    const Result r = RunCli(args);
    EXPECT_NE(r.exit_code, 0) << args.back();
    EXPECT_THAT(r.err, Not(IsEmpty())) << args.back();
  }
}

// The rule set decides the number of players; california plays six and
// five_players five (docs/rules.md, *Presets*).
TEST(CliSimulate, PlaysTheRuleSetsPlayers) {
  for (const auto& [rules, players] : std::vector<std::pair<std::string, int>>{
           {"california players=6", 6}, {"five_players", 5}}) {
    const Result r = RunCli({"simulate", "--games", "3", "--rules", rules});
    ASSERT_EQ(r.exit_code, 0) << rules << ": " << r.err;
    const std::vector<std::string> lines = Lines(r.out);
    ASSERT_GE(lines.size(), 4u + players) << r.out;
    EXPECT_THAT(lines[0],
                HasSubstr(" players=" + std::to_string(players) + " "));
    // One row per side, sides 0 .. players - 1, and no more.
    for (int side = 0; side < players; ++side) {
      std::istringstream row(lines[4 + side]);
      int s = -1;
      row >> s;
      EXPECT_EQ(s, side) << lines[4 + side];
    }
    EXPECT_THAT(lines[4 + players],
                ::testing::AnyOf(StartsWith("games without a winner"),
                                 HasSubstr("rounds/s")));
  }
}

// --players overrides the rule set's players=, and the rule set validates
// it: six players deal from 52 cards, five do not.
TEST(CliSimulate, PlayersIsAnOverrideTheRuleSetValidates) {
  const Result six = RunCli({"simulate", "--games", "2", "--players", "6"});
  ASSERT_EQ(six.exit_code, 0) << six.err;
  EXPECT_THAT(Lines(six.out).at(0), HasSubstr(" players=6 "));
  const Result five = RunCli({"simulate", "--games", "2", "--players", "5"});
  EXPECT_EQ(five.exit_code, 2);
  EXPECT_THAT(five.err, HasSubstr("to each of 5 players"));
}

TEST(CliRules, ListsEveryOptionWithItsDefault) {
  const Result r = RunCli({"rules"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("builder_obligation\n    values:  v1, v2, v3, "
                               "none\n    default: v1\n"));
  // Each preset with what it is and the options it sets.
  EXPECT_THAT(r.out, HasSubstr("\ndiamond\n    40 cards, 3 each;"));
  EXPECT_THAT(r.out, HasSubstr("    sets: pack=40 hand_size=3 "));
  EXPECT_THAT(r.out, HasSubstr("\nstandard\n"));
}

TEST(CliRules, PrintsARuleSetInFull) {
  const Result r =
      RunCli({"rules", "standard target=11 builder_obligation=v2"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr(" builder_obligation=v2 "));
  EXPECT_THAT(r.out, HasSubstr(" target=11 "));
}

TEST(CliRules, BadRuleSetFails) {
  const Result r = RunCli({"rules", "standard target=x"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("target"));
}

TEST(Cli, UnknownCommandFails) {
  const Result r = RunCli({"frobnicate"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_THAT(r.err, Not(IsEmpty()));
}

}  // namespace
}  // namespace cassino
