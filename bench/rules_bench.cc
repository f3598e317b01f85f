// rules_bench: speed of the rules engine (Google Benchmark).
//
// Benchmarks (all single-threaded, one core):
//   BM_GenerateCorpus      legal-move generation, one position per iteration,
//                          cycling through a corpus of positions collected
//                          from seeded random 2-player games; the time per
//                          iteration is the mean time per position.
//   BM_GenerateHard/<i>    generation on hand-made worst cases: tables of
//                          15, 18, 20 (and 24, capped) loose numeral cards,
//                          with and without builds.
//   BM_ValidateLegal       ValidateMove on every legal move of the corpus.
//   BM_ValidateRandom      ValidateMove on random move identities (mostly
//                          illegal: the refusal path with its message).
//   BM_ShuffledDeck        the seeded shuffle of one round's 52 cards.
//   BM_RandomRounds        complete random 2-player rounds; `rounds/s`.
//   BM_RandomGames         complete random 2-player games; `games/s`.
//
// Extra modes (no benchmarks run):
//   rules_bench --find_worst[=GAMES]
//     Times generation on every position of GAMES seeded random games
//     (default 300), prints the distribution of the time per position
//     (median, p90, p99, max) and the slowest position in position text
//     format, with its move count.
//   rules_bench --play_rounds=N
//     Plays N rounds exactly as BM_RandomRounds does (the same seeds, in
//     the same order) and prints `rounds=N moves=M points=P`, P the points
//     both sides scored in them: a fixed workload, for counting its
//     instructions where the CPU's counters are out of reach (`valgrind
//     --tool=callgrind`; docs/performance.md), and exact figures the
//     tests pin (a function of the rules alone, as a perft count is).
//
// Every corpus is deterministic: game i of the corpus uses the game seed
// BatchGameSeed(kCorpusSeed, i) and the RandomPlayer seeded from it.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "benchmark/benchmark.h"
#include "rules/adjudicator.h"
#include "rules/deal.h"
#include "rules/game.h"
#include "rules/legal_moves.h"
#include "rules/position.h"
#include "tools/playout/random_playout.h"

namespace cassino {
namespace {

// The batch seed of every corpus: the bytes "rules_bench" then zeros.
Seed CorpusSeed() {
  Seed seed{};
  const char tag[] = "rules_bench";
  std::memcpy(seed.data(), tag, sizeof(tag) - 1);
  return seed;
}

// Every position met in `games` seeded random 2-player games (standard
// rules), in play order.
std::vector<Position> CollectPositions(int games) {
  const RuleSet rules = RuleSet::Standard();
  const Seed batch = CorpusSeed();
  std::vector<Position> positions;
  for (int i = 0; i < games; ++i) {
    const Seed seed = BatchGameSeed(batch, static_cast<uint32_t>(i));
    Game game = *Game::Create(rules, DeckSource::FromSeed(seed));
    RandomPlayer player(seed);
    while (!game.over()) {
      positions.push_back(game.position());
      game.PlayUnchecked(player.Choose(game));
    }
  }
  return positions;
}

const std::vector<Position>& Corpus() {
  static const std::vector<Position>* const corpus =
      new std::vector<Position>(CollectPositions(100));
  return *corpus;
}

// Parses a position that the benchmark relies on; aborts if it is invalid.
Position MustParse(const std::string& text) {
  absl::StatusOr<Position> pos = Position::Parse(text);
  if (!pos.ok()) {
    std::fprintf(stderr, "rules_bench: bad position '%s': %s\n", text.c_str(),
                 std::string(pos.status().message()).c_str());
    std::abort();
  }
  return *pos;
}

// Hand-made worst cases: many low cards give many groups of every value.
struct HardCase {
  const char* name;
  const char* position;
};
constexpr HardCase kHardCases[] = {
    {"loose15",
     "table: AS AH AD AC 2S 2H 2D 2C 3S 3H 3D 3C 4S 4H 4D; "
     "hands: 5C 7H 9D TC / ?"},
    {"loose18",
     "table: AS AH AD AC 2S 2H 2D 2C 3S 3H 3D 3C 4S 4H 4D 4C 5S 5H; "
     "hands: 6S 7H 9D TC / ?"},
    {"loose20",
     "table: AS AH AD AC 2S 2H 2D 2C 3S 3H 3D 3C 4S 4H 4D 4C 5S 5H 5D 5C; "
     "hands: 6S 7H 9D TC / ?"},
    {"loose15_builds",
     "table: AS AH AD AC 2S 2H 2D 2C 3S 3H 3D 4S 4H 4D 4C "
     "[5S 3C]=8@1 [5H 5D]=10@0; hands: TC 8D 7C 9S / ?"},
    {"loose18_builds_v3",
     "table: AS AH AD AC 2S 2H 2D 2C 3S 3H 3D 3C 4S 4H 4D 5S 6S 6H "
     "[5H 4C]=9@1; hands: TC 8D 7C 9S / ?; rules: builder_obligation=v3"},
    {"loose24_capped",
     "table: AS AH AD AC 2S 2H 2D 2C 3S 3H 3D 3C 4S 4H 4D 4C 5S 5H 5D 5C "
     "6S 6H 6D 6C; hands: 7S 8H 9D TC / ?"},
};

std::vector<Position> HardPositions() {
  std::vector<Position> out;
  for (const HardCase& h : kHardCases) out.push_back(MustParse(h.position));
  return out;
}

void BM_GenerateCorpus(benchmark::State& state) {
  const std::vector<Position>& corpus = Corpus();
  MoveGenerator gen;
  std::vector<Move> moves;
  size_t i = 0, total_moves = 0;
  for (auto _ : state) {
    gen.Generate(corpus[i], &moves);
    benchmark::DoNotOptimize(moves.data());
    total_moves += moves.size();
    if (++i == corpus.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["positions"] = static_cast<double>(corpus.size());
  state.counters["moves/pos"] = static_cast<double>(total_moves) /
                                std::max<int64_t>(state.iterations(), 1);
}
BENCHMARK(BM_GenerateCorpus);

void BM_GenerateHard(benchmark::State& state) {
  static const std::vector<Position>* const hard =
      new std::vector<Position>(HardPositions());
  const Position& pos = (*hard)[state.range(0)];
  MoveGenerator gen;
  std::vector<Move> moves;
  bool complete = true;
  for (auto _ : state) {
    complete = gen.Generate(pos, &moves);
    benchmark::DoNotOptimize(moves.data());
  }
  state.SetLabel(absl::StrCat(kHardCases[state.range(0)].name,
                              complete ? "" : " (capped)"));
  state.counters["moves"] = static_cast<double>(moves.size());
  state.counters["loose"] = static_cast<double>(pos.table.loose.size());
}
BENCHMARK(BM_GenerateHard)
    ->DenseRange(0, std::size(kHardCases) - 1)
    ->Unit(benchmark::kMicrosecond);

// (position index, move) pairs: every legal move of every corpus position.
struct Candidate {
  uint32_t position;
  Move move;
};

void BM_ValidateLegal(benchmark::State& state) {
  const std::vector<Position>& corpus = Corpus();
  static const std::vector<Candidate>* const candidates = [&] {
    auto* out = new std::vector<Candidate>;
    std::vector<Move> moves;
    MoveGenerator gen;
    for (size_t p = 0; p < corpus.size(); ++p) {
      gen.Generate(corpus[p], &moves);
      for (const Move& m : moves) out->push_back({static_cast<uint32_t>(p), m});
    }
    return out;
  }();
  size_t i = 0;
  for (auto _ : state) {
    const Candidate& c = (*candidates)[i];
    absl::Status s = ValidateMove(corpus[c.position], c.move);
    benchmark::DoNotOptimize(s);
    if (++i == candidates->size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ValidateLegal);

void BM_ValidateRandom(benchmark::State& state) {
  const std::vector<Position>& corpus = Corpus();
  static const std::vector<Candidate>* const candidates = [&] {
    auto* out = new std::vector<Candidate>;
    std::mt19937_64 rng(12345);
    for (size_t p = 0; p < corpus.size(); ++p) {
      const Position& pos = corpus[p];
      const std::vector<Card> hand = pos.hands[pos.to_move].ToVector();
      const std::vector<Card> table = pos.table.AllCards().ToVector();
      CardSet subset;
      for (Card t : table) {
        if (rng() % 3 == 0) subset.insert(t);
      }
      const Card c = hand[rng() % hand.size()];
      const Move m = rng() % 2 ? Move::Capture(c, subset)
                               : Move::Build(c, 1 + rng() % 10, subset);
      out->push_back({static_cast<uint32_t>(p), m});
    }
    return out;
  }();
  size_t i = 0, legal = 0;
  for (auto _ : state) {
    const Candidate& c = (*candidates)[i];
    absl::Status s = ValidateMove(corpus[c.position], c.move);
    legal += s.ok();
    benchmark::DoNotOptimize(s);
    if (++i == candidates->size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["legal%"] =
      100.0 * legal / std::max<int64_t>(state.iterations(), 1);
}
BENCHMARK(BM_ValidateRandom);

// Game seeds, precomputed so that hashing them is not timed.
const std::vector<Seed>& GameSeeds() {
  static const std::vector<Seed>* const seeds = [] {
    auto* out = new std::vector<Seed>;
    const Seed batch = CorpusSeed();
    for (uint32_t i = 0; i < 4096; ++i) out->push_back(BatchGameSeed(batch, i));
    return out;
  }();
  return *seeds;
}

// One iteration: the deck of round 1 of a game, shuffled from its seed (a
// random round deals two: its own, and the next one once it is scored).
void BM_ShuffledDeck(benchmark::State& state) {
  const std::vector<Seed>& seeds = GameSeeds();
  size_t i = 0;
  for (auto _ : state) {
    Deck deck = ShuffledDeck(seeds[i], 1);
    benchmark::DoNotOptimize(deck.data());
    if (++i == seeds.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ShuffledDeck);

// One round of BM_RandomRounds: a new game from `seed`, played with random
// moves until its first round is scored. Returns the moves played; adds
// the points the sides scored to `*points` when given.
int PlayRandomRound(const RuleSet& rules, const Seed& seed,
                    int64_t* points = nullptr) {
  Game game = *Game::Create(rules, DeckSource::FromSeed(seed));
  RandomPlayer player(seed);
  const int moves = PlayRandomly(game, player, PlayUntil::kRoundEnd);
  benchmark::DoNotOptimize(game.totals().data());
  if (points != nullptr) {
    for (int total : game.totals()) *points += total;
  }
  return moves;
}

// One iteration: create a game (deal round 1) and play random moves until
// round 1 has been scored.
void BM_RandomRounds(benchmark::State& state) {
  const RuleSet rules = RuleSet::Standard();
  const std::vector<Seed>& seeds = GameSeeds();
  size_t i = 0;
  int64_t moves = 0;
  for (auto _ : state) {
    moves += PlayRandomRound(rules, seeds[i]);
    if (++i == seeds.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["rounds/s"] = benchmark::Counter(
      static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["moves/s"] = benchmark::Counter(static_cast<double>(moves),
                                                 benchmark::Counter::kIsRate);
}
BENCHMARK(BM_RandomRounds);

// One iteration: a complete random game (to 21, count-out).
void BM_RandomGames(benchmark::State& state) {
  const RuleSet rules = RuleSet::Standard();
  const std::vector<Seed>& seeds = GameSeeds();
  size_t i = 0;
  int64_t rounds = 0, moves = 0;
  for (auto _ : state) {
    Game game = PlayRandomGame(rules, seeds[i]);
    rounds += static_cast<int64_t>(game.rounds().size());
    moves += game.turn();
    if (++i == seeds.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["games/s"] = benchmark::Counter(
      static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["rounds/s"] = benchmark::Counter(static_cast<double>(rounds),
                                                  benchmark::Counter::kIsRate);
  state.counters["moves/s"] = benchmark::Counter(static_cast<double>(moves),
                                                 benchmark::Counter::kIsRate);
}
BENCHMARK(BM_RandomGames)->Unit(benchmark::kMicrosecond);

// The best of `reps` timings of `batch` generations, in ns per generation.
double TimeGeneration(MoveGenerator& gen, const Position& pos,
                      std::vector<Move>& moves, int batch, int reps) {
  double best = 1e300;
  for (int r = 0; r < reps; ++r) {
    const auto start = std::chrono::steady_clock::now();
    for (int b = 0; b < batch; ++b) {
      gen.Generate(pos, &moves);
      benchmark::DoNotOptimize(moves.data());
    }
    const double ns = std::chrono::duration<double, std::nano>(
                          std::chrono::steady_clock::now() - start)
                          .count();
    best = std::min(best, ns / batch);
  }
  return best;
}

// --play_rounds mode: see the file comment.
int PlayRounds(int64_t rounds) {
  const RuleSet rules = RuleSet::Standard();
  const std::vector<Seed>& seeds = GameSeeds();
  int64_t moves = 0, points = 0;
  for (int64_t r = 0; r < rounds; ++r) {
    moves += PlayRandomRound(rules, seeds[r % seeds.size()], &points);
  }
  std::printf("rounds=%lld moves=%lld points=%lld\n",
              static_cast<long long>(rounds), static_cast<long long>(moves),
              static_cast<long long>(points));
  return 0;
}

// --find_worst mode: see the file comment.
int FindWorst(int games) {
  const std::vector<Position> positions = CollectPositions(games);
  MoveGenerator gen;
  std::vector<Move> moves;
  std::vector<double> times;
  times.reserve(positions.size());
  size_t worst = 0;
  size_t max_loose = 0;
  for (size_t p = 0; p < positions.size(); ++p) {
    times.push_back(TimeGeneration(gen, positions[p], moves, 4, 3));
    if (times[p] > times[worst]) worst = p;
    max_loose = std::max<size_t>(max_loose, positions[p].table.loose.size());
  }
  // Re-time the ten slowest more carefully: a single noisy timing must not
  // decide which position is the worst.
  std::vector<size_t> order(positions.size());
  for (size_t p = 0; p < order.size(); ++p) order[p] = p;
  const size_t top = std::min<size_t>(10, order.size());
  std::partial_sort(order.begin(), order.begin() + top, order.end(),
                    [&](size_t a, size_t b) { return times[a] > times[b]; });
  for (size_t k = 0; k < top; ++k) {
    times[order[k]] = TimeGeneration(gen, positions[order[k]], moves, 32, 9);
  }
  worst = *std::max_element(
      order.begin(), order.begin() + top,
      [&](size_t a, size_t b) { return times[a] < times[b]; });
  std::vector<double> sorted = times;
  std::sort(sorted.begin(), sorted.end());
  auto quantile = [&](double q) {
    return sorted[std::min(sorted.size() - 1,
                           static_cast<size_t>(q * (sorted.size() - 1) + 0.5))];
  };
  double sum = 0;
  for (double t : times) sum += t;
  gen.Generate(positions[worst], &moves);
  std::printf("positions %zu from %d seeded random 2-player games\n",
              positions.size(), games);
  std::printf(
      "generation ns/position: median %.0f  mean %.0f  p90 %.0f  "
      "p99 %.0f  max %.0f\n",
      quantile(0.5), sum / times.size(), quantile(0.9), quantile(0.99),
      sorted.back());
  std::printf("largest table: %zu loose cards\n", max_loose);
  std::printf("worst position (%.0f ns, %zu moves):\n%s\n", times[worst],
              moves.size(), positions[worst].ToString().c_str());
  return 0;
}

}  // namespace
}  // namespace cassino

int main(int argc, char** argv) {
  // Our own flags first; everything else goes to Google Benchmark.
  for (int i = 1; i < argc; ++i) {
    const char kRounds[] = "--play_rounds=";
    if (std::strncmp(argv[i], kRounds, sizeof(kRounds) - 1) == 0) {
      const long long rounds = std::atoll(argv[i] + sizeof(kRounds) - 1);
      if (rounds < 1) {
        std::fprintf(stderr, "rules_bench: --play_rounds=N needs N >= 1\n");
        return 2;
      }
      return cassino::PlayRounds(rounds);
    }
    const char kFlag[] = "--find_worst";
    if (std::strncmp(argv[i], kFlag, sizeof(kFlag) - 1) == 0) {
      const char* rest = argv[i] + sizeof(kFlag) - 1;
      int games = 300;
      if (*rest == '=') games = std::atoi(rest + 1);
      if (games < 1) {
        std::fprintf(stderr,
                     "rules_bench: --find_worst=GAMES needs GAMES >= 1\n");
        return 2;
      }
      return cassino::FindWorst(games);
    }
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
