"""sampler: a search bot on the forward model (cassino.engine) — determinized
Monte Carlo (perfect-information Monte Carlo, PIMC).

On each turn, until its time budget is spent:
  1. deal the cards this seat has not seen at random, consistently with
     everything it has seen (Observation.sample);
  2. in that deal, play each legal move and then random moves to the end
     of the round (Game.playout, in C++), all moves from the same deal and
     the same playout seed (common random numbers: the moves are compared
     on equal terms);
  3. score each move by the round's points its side gained less the mean
     of the other sides' (and a bonus or malus when the game ends in it).
It plays the move with the best mean score. A call-out is made exactly
when it certainly wins (earned_this_round + total reaches the target).
For rules the engine does not sample (Callabra, Tablanette, the options
that score during play) it plays the capture that takes the most cards.

    .venv/bin/python sampler_bot.py --token $TOKEN [--budget-ms 100]
    cassino tournament --bot sampler='.venv/bin/python sampler_bot.py' ...

Options besides the SDK's (cassino.run): --budget-ms (thinking time per
move, default 100; never more than a quarter of the clock left),
--seed (the bot's own random numbers, default from the game).
"""

import argparse
import random
import sys
import time

import cassino
from cassino import engine

# Score of a game won (or lost) within a simulation, in round points.
WIN = 20.0


class Sampler(cassino.Bot):

    def __init__(self, budget_ms=100, seed=None, policy="greedy"):
        self.budget_ms = budget_ms
        self.policy = policy
        self.seed = seed
        self.rng = None
        self.unsupported = False
        self.searched = self.deals = self.playouts = 0

    def choose(self, turn):
        moves = turn.legal_moves
        if self.rng is None:
            self.rng = random.Random(self.seed)  # None: the system's
        if self.unsupported:
            return fallback(moves)
        seen = engine.Observation.from_turn(turn)
        players = len(turn.hand_sizes)
        side_of = ((lambda s: s % 2) if len(turn.sides) < players
                   else (lambda s: s))
        side = side_of(turn.seat)
        try:
            probe = seen.sample(0)
        except engine.UnsupportedRulesError as e:
            print(f"sampler: {e}; playing greedily", file=sys.stderr)
            self.unsupported = True
            return fallback(moves)
        calls = [m for m in moves if m.kind == "call_out"]
        if calls:
            target = rule(turn.rules, "target", 21)
            if probe.totals[side] + probe.earned_this_round(side) >= target:
                return calls[0]
            moves = tuple(m for m in moves if m.kind != "call_out")
        if len(moves) == 1:
            return moves[0]
        return self.search(turn, seen, moves, side, side_of)

    def search(self, turn, seen, moves, side, side_of):
        budget = min(self.budget_ms, turn.time_left_ms / 4) / 1000
        deadline = time.monotonic() + budget
        candidates = [engine.Move.parse(m.notation) for m in moves]
        scores = [0.0] * len(candidates)
        samples = 0
        while samples < 4 or time.monotonic() < deadline:
            seed = self.rng.getrandbits(63)
            deal = seen.sample(seed)
            before = deal.totals
            for i, move in enumerate(candidates):
                game = deal.copy()
                game.play(move)
                game.playout(seed, "round", self.policy)
                scores[i] += value(game, before, side, side_of)
            samples += 1
        self.searched += 1
        self.deals += samples
        self.playouts += samples * len(candidates)
        best = max(range(len(moves)), key=scores.__getitem__)
        return moves[best]

    def game_ended(self, ended):
        print(f"sampler: game over; {self.searched} moves searched, "
              f"{self.deals} deals, {self.playouts} playouts",
              file=sys.stderr)


def value(game, before, side, side_of):
    """The round's points `side` gained less the mean of the others'."""
    gained = [after - was for after, was in zip(game.totals, before)]
    others = [g for s, g in enumerate(gained) if s != side]
    score = gained[side] - sum(others) / len(others)
    if game.over and game.result.winner >= 0:
        score += WIN if game.result.winner == side else -WIN
    return score


def fallback(moves):
    """The capture that takes the most cards, else the first move."""
    captures = [m for m in moves if m.kind == "capture"]
    return max(captures, key=lambda m: len(m.table_cards),
               default=next((m for m in moves if m.kind != "call_out"),
                            moves[0]))


def rule(rules, option, default):
    """An integer option of a rule set's text."""
    for word in rules.split():
        if word.startswith(option + "="):
            return int(word.split("=", 1)[1])
    return default


def main(argv=None):
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--budget-ms", type=float, default=100)
    parser.add_argument("--seed", type=int)
    parser.add_argument("--policy", choices=("greedy", "random"),
                        default="greedy")
    ours, rest = parser.parse_known_args(argv)
    cassino.run(Sampler(ours.budget_ms, ours.seed, ours.policy), rest)


if __name__ == "__main__":
    main()
