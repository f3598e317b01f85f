"""forward_model_bench: the Python forward model's speed (cassino.engine,
sdk/python) against the native engine, per move.

    .venv/bin/python bench/forward_model_bench.py \
        [--rules-bench build/bench/rules_bench] [--seconds 3] [--repeat 3]

Run it with the python of a venv the SDK is installed into (sdk/python/
README.md). One core, standard rules, 2 players. Each mode plays random
2-player rounds: a new game (round 1 dealt from a seed), random legal
moves until round 1 is scored, as rules_bench's BM_RandomRounds does:

  native      rules_bench --benchmark_filter=BM_RandomRounds (the C++
              loop, tools/playout's PlayRandomly), when --rules-bench is
              given; its moves/s as Google Benchmark reports them.
  playout     Game(rules, seed).playout(seed): the same C++ loop through
              the binding, one call a round.
  python      a Python loop: Game(rules, seed), then legal_moves() and
              play(random choice) for each move (the referee's order and
              notation, each move validated).
  sampled     what a search bot does per simulation: Observation.sample()
              of seat 0's first turn, play one legal move, playout() to
              the round's end.

Rates are per second of CPU time (the thread's), as Google Benchmark's
rate counters are, so that other jobs on a shared machine slow the
figures less. The modes alternate, --repeat times each, for --seconds
each; it prints
every run's moves/s and ns/move, and per mode the best run and its ratio
to native's best (the aim of issue #25: the binding under 2x native per
move). A benchmark is a program, never a timed test (docs/performance.md).
"""

import argparse
import json
import random
import subprocess
import sys
import time

from cassino import engine

RULES = "standard"


def timed(step, seconds):
    """Calls step(i) for i = 0, 1, ... for about `seconds` of this
    thread's CPU time; returns (moves, CPU seconds) with moves the sum of
    step's returns."""
    moves, i = 0, 0
    start = time.thread_time()
    deadline = start + seconds
    while True:
        for _ in range(64):
            moves += step(i)
            i += 1
        now = time.thread_time()
        if now >= deadline:
            return moves, now - start


def playout_step(i):
    game = engine.Game(RULES, i)
    return game.playout(i)


def python_step_maker():
    rng = random.Random(1)

    def step(i):
        game = engine.Game(RULES, i)
        played = 0
        while not game.rounds:
            moves = game.legal_moves()
            game.play(moves[rng.randrange(len(moves))])
            played += 1
        return played
    return step


def sampled_step_maker():
    seen = [engine.Game(RULES, s).observe(0) for s in range(256)]

    def step(i):
        obs = seen[i % len(seen)]
        game = obs.sample(i)
        moves = game.legal_moves()
        game.play(moves[i % len(moves)])
        return 1 + game.playout(i)
    return step


def native(rules_bench, seconds):
    out = subprocess.run(
        [rules_bench, "--benchmark_filter=BM_RandomRounds$",
         f"--benchmark_min_time={seconds}", "--benchmark_format=json"],
        check=True, capture_output=True, text=True).stdout
    return json.loads(out)["benchmarks"][0]["moves/s"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules-bench", help="build/bench/rules_bench, to "
                    "measure native BM_RandomRounds alongside")
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()

    modes = {"playout": playout_step, "python": python_step_maker(),
             "sampled": sampled_step_maker()}
    best = {}
    for run in range(args.repeat):
        if args.rules_bench:
            rate = native(args.rules_bench, args.seconds)
            best["native"] = max(best.get("native", 0), rate)
            print(f"run {run + 1} native   {rate:12,.0f} moves/s "
                  f"{1e9 / rate:8.1f} ns/move", flush=True)
        for name, step in modes.items():
            moves, elapsed = timed(step, args.seconds)
            rate = moves / elapsed
            best[name] = max(best.get(name, 0), rate)
            print(f"run {run + 1} {name:8} {rate:12,.0f} moves/s "
                  f"{1e9 / rate:8.1f} ns/move", flush=True)
    print("best:")
    for name, rate in best.items():
        ratio = (f"  {best['native'] / rate:5.2f}x native per move"
                 if "native" in best else "")
        print(f"  {name:8} {rate:12,.0f} moves/s {1e9 / rate:8.1f} ns/move"
              f"{ratio}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
