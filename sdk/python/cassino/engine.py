"""The forward model: the referee's own rules engine, in C++, for bots that
look ahead.

    from cassino import engine

    obs = engine.Observation.from_turn(turn)     # what your seat has seen
    game = obs.sample(seed=1)                    # the unseen cards dealt
    for move in game.legal_moves():              # the referee's order
        g = game.copy()
        g.play(move)
        g.playout(seed=2, until="round")         # random moves, in C++
        print(move, g.totals)

Because this is the referee's engine (compiled from the repository's
rules/ when the package is installed), a simulation never disagrees with
the referee: the same legal moves, in the same order and notation, the
same deals and scoring. Classes:

- Position: the engine's position text (Position.parse), its legal
  moves, a move applied (no deals or scoring).
- Game: a whole game (deals, rounds, scoring, the end) from a rule set
  and a seed, or sampled from an Observation; legal_moves, play,
  playout (random moves in C++, the GIL released), copy, observe.
- Observation: what one seat may see, from a cassino.Turn (from_turn) or
  a Game (Game.observe); unseen_cards, sample (determinization).
- score_round(rules, piles, sweeps): a round's score.

Errors: IllegalMoveError (a ValueError) carries the engine's reason;
UnsupportedRulesError (a NotImplementedError) for what the engine does
not sample (Callabra, Tablanette, options that score during play);
GameOverError (a RuntimeError); ValueError for text that does not parse.

See README.md beside this package (The forward model).
"""

from cassino._engine import (Build, Game, GameOverError, GameResult,
                             IllegalMoveError, Move, Observation, Outcome,
                             PlayedMove, Position, RoundResult, RoundScore,
                             ScoreItem, SidePublic, SideTally,
                             UnsupportedRulesError, score_round)

__all__ = ["Build", "Game", "GameOverError", "GameResult",
           "IllegalMoveError", "Move", "Observation", "Outcome",
           "PlayedMove", "Position", "RoundResult", "RoundScore",
           "ScoreItem", "SidePublic", "SideTally", "UnsupportedRulesError",
           "score_round"]
