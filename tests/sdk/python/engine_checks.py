"""The forward model (cassino.engine) against the C++ engine: run by
engine_test.py with the python of a venv the SDK was installed into, and
$CASSINO_ENGINE_CORPUS naming engine_corpus's output (tests/sdk/
engine_corpus.cc: the C++ engine's positions, legal-move lists, moves,
rounds, results and playouts over seeded games of 17 rule sets).
"""

import os
import json
import threading
import unittest

from cassino import engine

with open(os.environ["CASSINO_ENGINE_CORPUS"]) as f:
    CORPUS = json.load(f)

BUILT = ("table: 2C 6H 8D [5S 3H]=8@1; hands: 8C TD 2H 3S / ?; to_move: 0")


def notations(moves):
    return [m.notation for m in moves]


class CorpusTest(unittest.TestCase):

    def test_every_turn_agrees_with_the_engine(self):
        """Game and Position list exactly the C++ engine's legal moves, in
        the referee's order; play and deals reach the same positions;
        rounds and results score the same."""
        turns = 0
        for record in CORPUS:
            with self.subTest(rules=record["rules"], seed=record["seed"]):
                game = engine.Game(record["rules"], record["seed"])
                for t in record["turns"]:
                    self.assertEqual(str(game.position), t["position"])
                    self.assertEqual(notations(game.legal_moves()),
                                     t["moves"])
                    pos = engine.Position.parse(t["position"])
                    self.assertEqual(str(pos), t["position"])
                    self.assertEqual(notations(pos.legal_moves()), t["moves"])
                    pos.play(t["move"])
                    self.assertEqual(str(pos), t["applied"])
                    game.play(t["move"])
                    turns += 1
                self.assertTrue(game.over)
                self.assertEqual(game.legal_moves(), [])
                result = record["result"]
                self.assertEqual(game.result.winner, result["winner"])
                self.assertEqual(game.result.reason, result["reason"])
                self.assertEqual(game.result.totals, result["totals"])
                self.assertEqual([r.score.points for r in game.rounds],
                                 [r["points"] for r in record["rounds"]])
                self.assertEqual([r.totals_after for r in game.rounds],
                                 [r["totals_after"] for r in record["rounds"]])
        self.assertEqual(len(CORPUS), 34)
        self.assertGreater(turns, 3000)

    def test_playouts_are_the_engines(self):
        """Game.playout plays exactly the C++ playouts' moves (random and
        greedy)."""
        for record in CORPUS:
            for p in record["playouts"]:
                with self.subTest(rules=record["rules"], until=p["until"],
                                  policy=p["policy"]):
                    game = engine.Game(record["rules"], record["seed"])
                    self.assertEqual(
                        game.playout(p["seed"], p["until"], p["policy"]),
                        p["moves"])
                    self.assertEqual(game.turn, p["turn"])
                    self.assertEqual(game.totals, p["totals"])
                    self.assertEqual(game.over, p["over"])

    def test_a_playout_stops_where_asked(self):
        game = engine.Game("standard", 7)
        game.play(game.legal_moves()[0])
        self.assertEqual(game.rounds, [])
        moves = game.playout(3)  # to the round's end
        self.assertEqual(len(game.rounds), 1)
        self.assertEqual(moves, game.turn - 1)
        self.assertEqual(game.totals, game.rounds[0].totals_after)
        again = game.copy()
        game.playout(4, until="game")
        self.assertTrue(game.over)
        self.assertEqual(game.playout(4, until="game"), 0)
        # The copy was not touched, and replays the same with the same seed.
        self.assertEqual(len(again.rounds), 1)
        again.playout(4, until="game")
        self.assertEqual((again.turn, again.totals), (game.turn, game.totals))
        with self.assertRaises(ValueError):
            again.playout(1, until="deal")
        with self.assertRaises(ValueError):
            again.playout(1, policy="clever")


class SamplingTest(unittest.TestCase):

    SAMPLED = ("standard", "standard players=3",
               "standard players=4 partnerships=on", "standard draw=on",
               "standard initial_pairs=on", "pluck", "royal")

    def test_samples_agree_with_what_the_seat_saw(self):
        checked = 0
        for record in CORPUS:
            if record["rules"] not in [engine.Game(r).rules
                                       for r in self.SAMPLED]:
                continue
            game = engine.Game(record["rules"], record["seed"])
            players = len(game.hands)
            for n, t in enumerate(record["turns"]):
                if n % 7 == 0:
                    for seat in range(players):
                        self.check_sample(game, seat, n)
                        checked += 1
                game.play(t["move"])
        self.assertGreater(checked, 300)

    def check_sample(self, game, seat, n):
        seen = game.observe(seat)
        sampled = seen.sample(n)
        self.assertEqual(sampled.observe(seat), seen)
        self.assertEqual(sampled.hands[seat], game.hands[seat])
        unseen = set(seen.unseen_cards())
        others = [set(h) for s, h in enumerate(sampled.hands) if s != seat]
        dealt = set().union(*others)
        self.assertLessEqual(dealt, unseen)
        self.assertEqual(len(dealt), sum(len(h) for h in others))
        self.assertEqual(len(unseen), len(dealt) + game.stock_size)
        self.assertEqual([len(h) for h in sampled.hands],
                         [len(h) for h in game.hands])
        # The real hands are among the possible deals.
        real = set().union(*[set(h) for s, h in enumerate(game.hands)
                             if s != seat])
        self.assertLessEqual(real, unseen)
        if game.to_move == seat:
            self.assertEqual(notations(sampled.legal_moves()),
                             notations(game.legal_moves()))
            self.assertEqual(notations(seen.legal_moves()),
                             notations(game.legal_moves()))
        else:
            self.assertEqual(seen.legal_moves(), [])
        # Seeded: the same seed deals the same; others deal differently.
        self.assertEqual(seen.sample(n).hands, sampled.hands)
        # (A seat that controls a build may be dealt the one card that
        # can be its value: take one that controls none.)
        free = [s for s in range(len(game.hands)) if s != seat and
                game.hands[s] and
                all(b.controller != s for b in game.builds)]
        if free and len(unseen) > len(dealt):
            deals = {tuple(seen.sample(n).hands[free[0]]) for n in range(20)}
            self.assertGreater(len(deals), 1)

    def test_a_sampled_game_plays_to_its_end(self):
        game = engine.Game("standard", 11)
        for _ in range(9):
            game.play(game.legal_moves()[-1])
        sampled = game.observe(1).sample(1)
        sampled.playout(2, until="game")
        self.assertTrue(sampled.over)
        self.assertFalse(game.over)

    def test_unsupported_rules_raise(self):
        for rules in ("standard sudden_death=on", "callabra",
                      "standard defaults_cost=2"):
            with self.subTest(rules=rules):
                seen = engine.Game(rules, 1).observe(0)
                with self.assertRaises(engine.UnsupportedRulesError) as e:
                    seen.sample(1)
                self.assertIsInstance(e.exception, NotImplementedError)
                self.assertIn("not supported", str(e.exception))

    def test_from_turn_refuses_what_is_not_a_turn(self):
        with self.assertRaises(TypeError):
            engine.Observation.from_turn(42)


class MoveAndPositionTest(unittest.TestCase):

    def test_illegal_moves_say_why(self):
        pos = engine.Position.parse(BUILT)
        with self.assertRaises(engine.IllegalMoveError) as e:
            pos.play("take 3S 2C")
        self.assertIsInstance(e.exception, ValueError)
        self.assertEqual(str(e.exception), "the cards taken (2C) do not "
                         "split into groups summing to 3")
        self.assertEqual(str(pos), str(engine.Position.parse(BUILT)))
        with self.assertRaises(ValueError) as e:
            pos.play("take the lot")
        self.assertNotIsInstance(e.exception, engine.IllegalMoveError)
        with self.assertRaises(ValueError):
            engine.Position.parse("table: 2C 2C; hands: - / -")

    def test_moves_read_as_the_api_writes_them(self):
        pos = engine.Position.parse(BUILT)
        moves = {m.notation: m for m in pos.legal_moves()}
        take = moves["take 8C 5S 3H 8D"]
        self.assertEqual((take.kind, take.card, take.value, take.table_cards),
                         ("capture", "8C", 0, ("5S", "3H", "8D")))
        build = moves["build 10 2H 8D"]
        self.assertEqual((build.kind, build.value), ("build", 10))
        self.assertEqual(engine.Move.parse("take 8c 8d 3h 5s"), take)
        self.assertEqual(take, "take 8C 5S 3H 8D")
        self.assertEqual(len({take, engine.Move.parse(take.notation)}), 1)
        self.assertEqual(len(moves), 23)

        class SdkMove:  # the SDK's cassino.Move has a notation
            notation = "trail TD"
        after = pos.copy()
        outcome = after.play(SdkMove())
        self.assertEqual((outcome.captured, outcome.sweep), ((), False))
        self.assertIn("TD", after.table)
        self.assertNotIn("TD", pos.table)
        self.assertEqual(after.to_move, 1)

    def test_a_capture_reports_its_cards_and_sweep(self):
        pos = engine.Position.parse("table: 3D 5C; hands: 8S / 9H")
        outcome = pos.play("take 8S 3D 5C")
        self.assertEqual(outcome.captured, ("8S", "3D", "5C"))  # deck order
        self.assertTrue(outcome.sweep)

    def test_a_game_over_refuses_moves(self):
        game = engine.Game("standard", 3)
        game.playout(1, until="game")
        with self.assertRaises(engine.GameOverError):
            game.play("trail 7H")


class ScoringTest(unittest.TestCase):

    def test_score_round_items(self):
        score = engine.score_round(
            "standard", [["TD", "2S", "AS", "AH", "3S", "4S"],
                         ["5H", "6H", "7H"]], [1])
        self.assertEqual(
            [(i.kind, i.side, i.points, i.card) for i in score.items],
            [("cards", 0, 3, ""), ("spades", 0, 1, ""),
             ("big_cassino", 0, 2, ""), ("little_cassino", 0, 1, ""),
             ("ace", 0, 1, "AS"), ("ace", 0, 1, "AH"), ("sweep", 1, 1, "")])
        self.assertEqual(score.points, [9, 1])
        self.assertEqual(score.sides[0].spades, 4)
        with self.assertRaises(ValueError):
            engine.score_round("standard", [["TD"]], [])

    def test_round_score_is_the_piles_so_far(self):
        game = engine.Game("standard", 5)
        while not game.piles[0] and not game.piles[1]:
            game.play(game.legal_moves()[0])
        for _ in range(6):
            game.play(game.legal_moves()[0])
        now = game.round_score()
        same = engine.score_round(game.rules, game.piles, game.sweeps)
        self.assertEqual([(i.kind, i.side, i.points) for i in now.items],
                         [(i.kind, i.side, i.points) for i in same.items])
        self.assertEqual(sum(t.cards for t in now.sides),
                         sum(len(p) for p in game.piles))


class ThreadsTest(unittest.TestCase):

    def test_a_playout_releases_the_gil_and_guards_its_game(self):
        """While one thread's playout runs, this thread runs too (the GIL
        is released) and may not use that Game (RuntimeError); a copy is
        free."""
        saw_guard = False
        for seed in range(10):
            game = engine.Game("standard target=1000", seed)
            other = game.copy()
            thread = threading.Thread(target=game.playout, args=(seed, "game"))
            thread.start()
            while thread.is_alive() and not saw_guard:
                try:
                    game.turn
                except RuntimeError as e:
                    self.assertIn("playout", str(e))
                    saw_guard = True
                other.legal_moves()
            thread.join()
            self.assertTrue(game.over)
            if saw_guard:
                break
        self.assertTrue(saw_guard)


if __name__ == "__main__":
    unittest.main()
