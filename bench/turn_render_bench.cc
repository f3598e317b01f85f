// turn_render_bench: what rendering a YourTurn for a Play stream costs
// (Google Benchmark, one thread), the two ways session_messages.h can:
//
//   BM_YourTurnEventCopy    the baseline: a SeatEvent made from the turn (a
//                           copy of it), as each of the others makes one.
//   BM_YourTurnAsMessage    PlayMessage: the cassino.v1 message on an arena,
//                           serialised to a string, then freed (what the
//                           Play stream did before PlayFrame).
//   BM_YourTurnAsFrame      PlayFrameOf: the bytes written straight from
//                           the event (proto/wire_encode.h), then freed.
//
// The corpus: every turn of 50 seeded random 2-player games of the standard
// game as a compact stream is sent it (the round's history left out, the
// two moves since the seat's last turn in since_last). Each iteration
// renders one turn, cycling through the corpus; bytes/s is the frames'
// size. Subtract the baseline's time from the others' to compare them.

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "referee/session_events.h"
#include "referee/session_messages.h"
#include "rules/deal.h"
#include "rules/game.h"
#include "rules/observation.h"

namespace cassino::service {
namespace {

std::vector<YourTurnEvent> CollectTurns(int games) {
  const RuleSet rules = RuleSet::Standard();
  const auto rules_text = std::make_shared<const std::string>(rules.ToString());
  Seed batch{};
  batch[0] = 0x42;
  std::vector<YourTurnEvent> turns;
  for (int i = 0; i < games; ++i) {
    const Seed seed = BatchGameSeed(batch, static_cast<uint32_t>(i));
    Game game = *Game::Create(rules, DeckSource::FromSeed(seed));
    std::mt19937_64 rng(static_cast<uint64_t>(i));
    while (!game.over()) {
      YourTurnEvent t = TurnOf(game, HistoryScope::kNone, rules_text);
      t.time_left_ms = 4000 + static_cast<int64_t>(rng() % 1000);
      t.bank_left_ms = 60000;
      t.deadline_unix_ms = 1800000000000 + t.turn;
      t.illegal_left = 3;
      const std::vector<PlayedMove>& history = game.history();
      const size_t n = std::min<size_t>(history.size(), 2);
      t.since_last.assign(history.end() - n, history.end());
      turns.push_back(std::move(t));
      const std::vector<Move> legal = game.LegalMoves();
      game.PlayUnchecked(legal[rng() % legal.size()]);
    }
  }
  return turns;
}

const std::vector<YourTurnEvent>& Turns() {
  static const std::vector<YourTurnEvent>* const turns =
      new std::vector<YourTurnEvent>(CollectTurns(50));
  return *turns;
}

void BM_YourTurnEventCopy(benchmark::State& state) {
  const std::vector<YourTurnEvent>& turns = Turns();
  size_t i = 0;
  for (auto _ : state) {
    SeatEvent event(turns[i]);
    benchmark::DoNotOptimize(&event);
    if (++i == turns.size()) i = 0;
  }
}
BENCHMARK(BM_YourTurnEventCopy);

void BM_YourTurnAsMessage(benchmark::State& state) {
  const std::vector<YourTurnEvent>& turns = Turns();
  size_t i = 0;
  int64_t bytes = 0;
  for (auto _ : state) {
    SeatEvent event(turns[i]);
    std::string out;
    PlayMessage(event)->SerializeToString(&out);
    bytes += static_cast<int64_t>(out.size());
    if (++i == turns.size()) i = 0;
  }
  state.SetBytesProcessed(bytes);
}
BENCHMARK(BM_YourTurnAsMessage);

void BM_YourTurnAsFrame(benchmark::State& state) {
  const std::vector<YourTurnEvent>& turns = Turns();
  size_t i = 0;
  int64_t bytes = 0;
  for (auto _ : state) {
    SeatEvent event(turns[i]);
    bytes += static_cast<int64_t>(PlayFrameOf(event)->bytes.size());
    if (++i == turns.size()) i = 0;
  }
  state.SetBytesProcessed(bytes);
}
BENCHMARK(BM_YourTurnAsFrame);

}  // namespace
}  // namespace cassino::service

BENCHMARK_MAIN();
