"""The Python SDK (sdk/python) installed as a user installs it, playing
against a real referee, and its forward model reading the referee's turns.

    sdk_test.py REFEREE_BIN CASSINO_BIN

Installs the package into a fresh venv (Debian's grpcio and protobuf from
the system site-packages, nothing from an index), then, with that venv's
python, plays a two-player game of two SDK bots, one seat in each Play
mode, restarting the referee (SIGKILL, same database) in the middle; both
bots must see every turn's whole round history, finish the game and agree
on its result, which `cassino verify` then re-adjudicates. At every turn
each bot also reads the turn into the forward model
(engine.Observation.from_turn): its legal moves and a sample's must be
the turn's, and the sample must show the seat exactly what it saw. It also checks
that a refused move reads as a RefereeError with its ErrorInfo reason and
BadRequest field, and that a bad token is refused at once.
"""

import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
import unittest

from install import install_sdk

REFEREE, CASSINO = sys.argv[1], sys.argv[2]
ADMIN = "sdk-test-admin-token"

# Runs inside the venv: argv = address, db dir, referee binary.
GAME_SCRIPT = textwrap.dedent(r'''
    import os, signal, subprocess, sys, threading, time
    import grpc
    import cassino
    from cassino import engine
    from cassino.v1 import game_pb2, referee_service_pb2 as pb

    address, restart_file = sys.argv[1], sys.argv[2]
    stub = cassino.connect(address)
    admin = [("authorization", "Bearer sdk-test-admin-token")]
    game = stub.CreateGame(pb.CreateGameRequest(
        rules="standard", seed="%s" % ("5" * 64),
        seats=[pb.SeatSpec(bot_name="sdk-a"), pb.SeatSpec(bot_name="sdk-b")]),
        metadata=admin)

    class Checking(cassino.Bot):
        """Greedy; checks the history it is given against GetTurn's."""
        def __init__(self, token):
            self.token = token
            self.turns = 0
            self.longest = 0
            self.ended = None
        def choose(self, turn):
            # The history the SDK gives is the one GetTurn (always whole)
            # shows.
            whole = stub.GetTurn(pb.GetTurnRequest(), metadata=[
                ("authorization", "Bearer " + self.token)])
            assert [m.proto for m in turn.history] == list(
                whole.turn.observation.round_history), turn.turn
            self.longest = max(self.longest, len(turn.history))
            # The forward model reads the referee's own turn (both Play
            # modes): the same legal moves, and a sample that agrees with
            # everything the seat has seen.
            seen = engine.Observation.from_turn(turn)
            listed = [m.notation for m in turn.legal_moves]
            assert [m.notation for m in seen.legal_moves()] == listed
            sampled = seen.sample(turn.turn)
            assert sampled.observe(turn.seat) == seen, turn.turn
            assert [m.notation for m in sampled.legal_moves()] == listed
            assert len(seen.history) == len(turn.history)
            self.turns += 1
            if self.turns == 20 and turn.seat == 0:
                open(restart_file, "w").close()  # ask for a restart
                time.sleep(1.5)
            captures = [m for m in turn.legal_moves if m.kind == "capture"]
            return max(captures, key=lambda m: len(m.table_cards),
                       default=turn.legal_moves[0])
        def game_ended(self, ended):
            self.ended = ended

    bots = [Checking(game.tokens[0].token), Checking(game.tokens[1].token)]
    results = [None, None]
    def seat(i, mode):
        results[i] = cassino.play_seat(bots[i], game.tokens[i].token,
                                       stub=stub, mode=mode)
    threads = [threading.Thread(target=seat, args=(0, "compact")),
               threading.Thread(target=seat, args=(1, "full"))]
    for t in threads: t.start()
    for t in threads: t.join()
    assert results[0] is not None and results[1] is not None, results
    assert results[0].result == results[1].result
    assert bots[0].ended is not None
    # Seat 0 (compact) saw its history grow through the round (a round of
    # two players is 48 moves).
    assert bots[0].longest >= 46, bots[0].longest
    print("RESULT", game.game_id, results[0].result.reason,
          "-".join(map(str, results[0].result.totals)),
          bots[0].turns + bots[1].turns)
''')

ERRORS_SCRIPT = textwrap.dedent(r'''
    import sys
    import grpc
    import cassino
    from cassino import engine
    from cassino.v1 import game_pb2, referee_service_pb2 as pb

    stub = cassino.connect(sys.argv[1])
    admin = [("authorization", "Bearer sdk-test-admin-token")]
    game = stub.CreateGame(pb.CreateGameRequest(
        rules="standard",
        seats=[pb.SeatSpec(bot_name="a"), pb.SeatSpec(bot_name="b")]),
        metadata=admin)
    token = game.tokens[0].token
    try:
        stub.SubmitMove(pb.SubmitMoveRequest(
            turn=0, move=game_pb2.Move(notation="take XX")),
            metadata=[("authorization", "Bearer " + token)])
        print("NO ERROR")
    except grpc.RpcError as e:
        err = cassino.from_rpc_error(e)
        print("ERROR", err.code.name, err.reason,
              ",".join(f for f, _ in err.field_violations))
    try:
        cassino.play_seat(cassino.Bot(), "not-a-token", stub=stub)
    except cassino.RefereeError as e:
        print("REFUSED", e.code.name, e.reason)
''')


def free_port():
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class SdkTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="cassino-sdk-test-")
        cls.python = install_sdk(cls.tmp.name)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def start_referee(self, db, port):
        env = dict(os.environ, CASSINO_ADMIN_TOKEN=ADMIN)
        log_path = db + ".log"
        with open(log_path, "ab") as log:
            proc = subprocess.Popen(
                [REFEREE, "--listen", f"127.0.0.1:{port}", "--db", db],
                env=env, stdout=subprocess.DEVNULL, stderr=log)
        deadline = time.monotonic() + 20
        import socket
        while time.monotonic() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    return proc
            time.sleep(0.05)
        proc.kill()
        with open(log_path) as log:
            self.fail("the referee did not start: " + log.read())

    def test_plays_a_game_across_a_restart_in_both_modes(self):
        db = os.path.join(self.tmp.name, "game.db")
        port = free_port()
        restart_file = os.path.join(self.tmp.name, "restart")
        referee = self.start_referee(db, port)
        bots = subprocess.Popen(
            [self.python, "-c", GAME_SCRIPT, f"127.0.0.1:{port}",
             restart_file], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            cwd=self.tmp.name)
        restarted = False
        try:
            deadline = time.monotonic() + 120
            while bots.poll() is None and time.monotonic() < deadline:
                if not restarted and os.path.exists(restart_file):
                    referee.send_signal(signal.SIGKILL)
                    referee.wait()
                    referee = self.start_referee(db, port)
                    restarted = True
                time.sleep(0.05)
            out, err = bots.communicate(timeout=5)
        finally:
            if bots.poll() is None:
                bots.kill()
            referee.terminate()
            referee.wait()
        self.assertTrue(restarted, "the game ended before the restart")
        self.assertEqual(bots.returncode, 0, err.decode())
        result = [line for line in out.decode().splitlines()
                  if line.startswith("RESULT ")]
        self.assertEqual(len(result), 1, out.decode() + err.decode())
        _, game_id, reason, totals, turns = result[0].split()
        self.assertEqual(reason, "target")  # played to the target score
        self.assertGreater(int(turns), 48)  # more than one round
        # The stream broke: the bots reconnected (logged) and went on.
        self.assertIn("reconnecting", err.decode())
        verify = subprocess.run([CASSINO, "verify", "--quiet", db],
                                capture_output=True, text=True)
        self.assertEqual(verify.returncode, 0, verify.stdout + verify.stderr)

    def test_errors_carry_their_details(self):
        db = os.path.join(self.tmp.name, "errors.db")
        port = free_port()
        referee = self.start_referee(db, port)
        try:
            out = subprocess.run(
                [self.python, "-c", ERRORS_SCRIPT, f"127.0.0.1:{port}"],
                capture_output=True, text=True, timeout=60,
                cwd=self.tmp.name)
        finally:
            referee.terminate()
            referee.wait()
        self.assertEqual(out.returncode, 0, out.stderr)
        lines = out.stdout.splitlines()
        self.assertIn("ERROR INVALID_ARGUMENT MALFORMED_MOVE move.notation",
                      lines, out.stdout)
        self.assertIn("REFUSED UNAUTHENTICATED UNKNOWN_TOKEN", lines,
                      out.stdout)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
