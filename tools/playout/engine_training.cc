// engine_training: the workload that trains the rules engine's
// profile-guided build (CMake option CASSINO_ENGINE_PROFILE;
// docs/performance.md, *The profile-guided engine*), and a check that any build
// of the engine plays exactly as the reference does.
//
//   engine_training [--games N]
//
// Plays N seeded random games (default 10000) under the standard rules and
// N/100 (at least 1) under every other preset. Each game is played as the
// forward model's playouts play, round by round with uniformly random
// legal moves (PlayRandomly), then replayed as the referee and `cassino
// verify` do: each move validated on a game of the same deal, played, and
// written in notation. Game i of preset P uses the game seed
// BatchGameSeed(<the bytes "engine_training/P">, i).
//
// Prints one line per preset, in the order of RuleSet::PresetNames():
//
//   <preset> games=<n> rounds=<n> moves=<n> digest=<16 hex digits>
//
// where the digest is the 64-bit FNV-1a hash of every move's notation, each
// followed by a newline, over the preset's games in order. The output is a
// function of the rules alone: a profile-guided, sanitized or differently
// compiled engine must print the same lines (tests/tools/engine_training.out
// pins them for --games 2000). Exits 1 if a move fails validation or the
// replay ends with other totals.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "rules/deal.h"
#include "rules/game.h"
#include "rules/game_moves.h"
#include "rules/rule_set.h"
#include "tools/playout/random_playout.h"

namespace cassino {
namespace {

// 64-bit FNV-1a (a regression digest, not a security one).
class Fnv1a64 {
 public:
  void Add(const std::string& bytes) {
    for (unsigned char c : bytes) hash_ = (hash_ ^ c) * 0x100000001b3ULL;
  }
  uint64_t value() const { return hash_; }

 private:
  uint64_t hash_ = 0xcbf29ce484222325ULL;
};

struct PresetRun {
  int games = 0;
  int64_t rounds = 0;
  int64_t moves = 0;
  Fnv1a64 digest;
  bool ok = true;
};

PresetRun Train(const std::string& preset, const RuleSet& rules, int games) {
  Seed batch{};
  const std::string tag = "engine_training/" + preset;
  std::memcpy(batch.data(), tag.data(), std::min(tag.size(), batch.size()));
  PresetRun run;
  for (int i = 0; i < games; ++i) {
    const Seed seed = BatchGameSeed(batch, static_cast<uint32_t>(i));
    const DeckSource decks = DeckSource::FromSeed(seed);
    // The forward model's playouts: round by round.
    Game game = *Game::Create(rules, decks);
    RandomPlayer player(seed);
    while (!game.over()) PlayRandomly(game, player, PlayUntil::kRoundEnd);
    // The referee's and `cassino verify`'s part: each move validated and
    // played on a game of the same deal, and written in notation.
    Game replay = *Game::Create(rules, decks);
    for (const PlayedMove& played : game.history()) {
      if (absl::Status s = replay.Play(played.move); !s.ok()) {
        std::fprintf(stderr, "%s game %d turn %d: %s refused: %s\n",
                     preset.c_str(), i, replay.turn(),
                     played.move.ToString().c_str(),
                     std::string(s.message()).c_str());
        run.ok = false;
        return run;
      }
      run.digest.Add(played.move.ToString());
      run.digest.Add("\n");
    }
    if (replay.totals() != game.totals() || !replay.over()) {
      std::fprintf(stderr, "%s game %d: the replay ends differently\n",
                   preset.c_str(), i);
      run.ok = false;
      return run;
    }
    ++run.games;
    run.rounds += static_cast<int64_t>(game.rounds().size());
    run.moves += game.turn();
  }
  return run;
}

int Main(int argc, char** argv) {
  int games = 10000;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--games") == 0 && i + 1 < argc &&
        absl::SimpleAtoi(argv[i + 1], &games) && games > 0) {
      ++i;
      continue;
    }
    std::fprintf(stderr, "usage: engine_training [--games N]  (N > 0)\n");
    return 2;
  }
  bool ok = true;
  for (const std::string& preset : RuleSet::PresetNames()) {
    const RuleSet rules = *RuleSet::Preset(preset);
    const int n = preset == "standard" ? games : std::max(1, games / 100);
    const PresetRun run = Train(preset, rules, n);
    ok = ok && run.ok;
    std::printf("%s games=%d rounds=%lld moves=%lld digest=%016llx\n",
                preset.c_str(), run.games, static_cast<long long>(run.rounds),
                static_cast<long long>(run.moves),
                static_cast<unsigned long long>(run.digest.value()));
  }
  return ok ? 0 : 1;
}

}  // namespace
}  // namespace cassino

int main(int argc, char** argv) { return cassino::Main(argc, argv); }
