// cassino simulate: seeded random games with the rules engine, and totals.

#include <chrono>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "rules/game.h"
#include "tools/cli/commands.h"
#include "tools/playout/random_playout.h"

namespace cassino::cli {
namespace {

struct Options {
  std::string seed = std::string(64, '0');
  int games = 100;
  std::optional<int> players;  // unset: the rule set's own
  std::string rules = "standard";
};

int Run(const Options& opt) {
  absl::StatusOr<Seed> seed = ParseSeed(opt.seed);
  if (!seed.ok()) {
    std::cerr << "cassino simulate: " << seed.status().message() << "\n";
    return 2;
  }
  // An explicit --players is the last option word, so the rule set
  // validates it like any other (a count the pack cannot deal is refused).
  absl::StatusOr<RuleSet> rules = RuleSet::Parse(
      !opt.players ? opt.rules
                   : absl::StrCat(opt.rules, " players=", *opt.players));
  if (!rules.ok()) {
    std::cerr << "cassino simulate: " << rules.status().message() << "\n";
    return 2;
  }
  const int sides = rules->Sides();
  std::vector<long> wins(sides), points(sides), sweeps(sides);
  long rounds = 0, moves = 0, no_winner = 0;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < opt.games; ++i) {
    Game game = PlayRandomGame(*rules, BatchGameSeed(*seed, i));
    moves += game.turn();
    for (const RoundResult& r : game.rounds()) {
      ++rounds;
      for (int s = 0; s < sides; ++s) {
        points[s] += r.score.sides[s].points;
        sweeps[s] += r.score.sides[s].sweeps;
      }
    }
    if (game.result()->winner >= 0) {
      ++wins[game.result()->winner];
    } else {
      ++no_winner;
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  std::cout << "rules: " << rules->ToString() << "\n";
  std::cout << "batch seed: " << opt.seed << "\n";
  std::printf("games %d, rounds %ld, moves %ld, %.2f rounds per game\n",
              opt.games, rounds, moves,
              rounds / static_cast<double>(std::max(opt.games, 1)));
  std::printf("%-8s %8s %8s %14s %14s\n", "side", "wins", "win%",
              "points/round", "sweeps/round");
  for (int s = 0; s < sides; ++s) {
    std::printf("%-8d %8ld %7.1f%% %14.3f %14.3f\n", s, wins[s],
                100.0 * wins[s] / std::max(opt.games, 1),
                points[s] / static_cast<double>(std::max(rounds, 1L)),
                sweeps[s] / static_cast<double>(std::max(rounds, 1L)));
  }
  if (no_winner) std::printf("games without a winner: %ld\n", no_winner);
  std::printf("%.3f s, %.0f rounds/s, %.0f moves/s\n", seconds,
              rounds / seconds, moves / seconds);
  return 0;
}

}  // namespace

void AddSimulateCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand(
      "simulate",
      "Play seeded random games (uniformly random legal moves) and print the "
      "totals. Game i uses the seed SHA-256(seed || uint32_be(i)).");
  auto opt = std::make_shared<Options>();
  cmd->add_option("--seed", opt->seed, "batch seed: 64 hex digits")
      ->capture_default_str();
  cmd->add_option("--games", opt->games, "number of games")
      ->check(CLI::Range(1, 100000000))
      ->capture_default_str();
  cmd->add_option("--players", opt->players,
                  "number of players; overrides the rule set's players= "
                  "(default: the rule set's own, 2 for standard)");
  cmd->add_option("--rules", opt->rules,
                  "rule set: a preset and option=value words, e.g. "
                  "'standard partnerships=on builder_obligation=v2'")
      ->capture_default_str();
  cmd->callback([=] { *exit_code = Run(*opt); });
}

}  // namespace cassino::cli
