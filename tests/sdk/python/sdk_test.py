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
BadRequest field, that a bad token is refused at once, and that two SDK
bots in ladder mode (play_lobby with ladder and version) are told they
joined and are rated as ACCOUNT@VERSION, as `cassino stats --ladder` agrees.
And that a bot run by cassino.run prints every thread's stack on SIGUSR1
and goes on.
"""

import json
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


# Runs inside the venv: argv = address, then per bot ACCOUNT=KEY. Each bot
# joins ladder "lad" with version "sdk1" through play_lobby and plays 2
# games; the notices it is told are printed, a whole line at a time (the
# two bots' threads share stdout).
LADDER_SCRIPT = textwrap.dedent(r'''
    import sys, threading
    import cassino

    address, bots = sys.argv[1], [a.split("=", 1) for a in sys.argv[2:]]
    printing = threading.Lock()

    def say(line):
        with printing:
            print(line, flush=True)

    class First(cassino.Bot):
        def choose(self, turn):
            return turn.legal_moves[0]

    def run(account, key):
        cassino.play_lobby(First, key, address=address, games=2,
                           ladder="lad", version="sdk1",
                           log=lambda text: say(f"LOG {account} {text}"))
    threads = [threading.Thread(target=run, args=b) for b in bots]
    for t in threads: t.start()
    for t in threads: t.join()
    print("DONE")
''')

# A bot run by cassino.run in lobby mode; argv = address (nothing listens).
STUCK_SCRIPT = textwrap.dedent(r'''
    import sys
    import cassino

    class First(cassino.Bot):
        def choose(self, turn):
            return turn.legal_moves[0]

    cassino.run(First(), ["--lobby", "--key", "k", "--address", sys.argv[1]])
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

    def test_joins_a_ladder_with_a_version(self):
        db = os.path.join(self.tmp.name, "ladder.db")
        port = free_port()
        referee = self.start_referee(db, port)
        env = dict(os.environ, CASSINO_ADMIN_TOKEN=ADMIN,
                   CASSINO_ADDRESS=f"127.0.0.1:{port}")

        def cli(*args):
            out = subprocess.run([CASSINO, *args], capture_output=True,
                                 text=True, env=env, timeout=30)
            self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
            return out.stdout

        try:
            keys = []
            for account in ("pya", "pyb"):
                key = json.loads(cli("bot", "register", account, "--format",
                                     "json"))["key"]
                keys.append(f"{account}={key}")
            cli("ladder", "create", "lad", "--per-move-ms", "5000")
            out = subprocess.run(
                [self.python, "-c", LADDER_SCRIPT, f"127.0.0.1:{port}",
                 *keys], capture_output=True, text=True, timeout=120,
                cwd=self.tmp.name)
            self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
            self.assertIn("DONE", out.stdout.splitlines())
            # Each was told it is in the ladder, with its version.
            for account in ("pya", "pyb"):
                self.assertIn(
                    f"LOG {account} ladder lad (version sdk1): STATE_ACTIVE",
                    out.stdout.splitlines(), out.stdout)
            cli("ladder", "pause", "lad", "--reason", "test over")
            for _ in range(300):  # its running games play out and are rated
                shown = json.loads(cli("ladder", "show", "lad", "--format",
                                       "json"))["ladder"]
                if shown["games_running"] == 0 and shown["games_unrated"] == 0:
                    break
                time.sleep(0.1)
            board = json.loads(cli("ladder", "leaderboard", "lad",
                                   "--format", "json"))["entries"]
        finally:
            referee.terminate()
            referee.wait()
        # Rated as ACCOUNT@VERSION, both the same games (each other's only
        # opponent), and cassino stats agrees from the records.
        self.assertEqual(sorted(e["bot"] for e in board),
                         ["pya@sdk1", "pyb@sdk1"])
        self.assertGreaterEqual(board[0]["games"], 2)
        self.assertEqual(board[0]["games"], board[1]["games"])
        stats = json.loads(subprocess.run(
            [CASSINO, "stats", db, "--ladder", "lad", "--format", "json"],
            capture_output=True, text=True, check=True).stdout)["leaderboard"]
        self.assertEqual([(e["bot"], e["mu"], e["sigma"], e["games"])
                          for e in stats],
                         [(e["bot"], e["mu"], e["sigma"], e["games"])
                          for e in board])

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

    def test_prints_its_threads_on_sigusr1(self):
        # Nothing listens on the port: the lobby loop keeps reconnecting.
        bot = subprocess.Popen(
            [self.python, "-c", STUCK_SCRIPT, f"127.0.0.1:{free_port()}"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
            cwd=self.tmp.name)
        lines = []
        try:
            # run() registers the handler before the first reconnection.
            for line in bot.stderr:
                lines.append(line)
                if "reconnecting" in line:
                    break
            self.assertIn("reconnecting", "".join(lines))
            bot.send_signal(signal.SIGUSR1)
            for line in bot.stderr:
                lines.append(line)
                if "in play_lobby" in line:
                    break
            text = "".join(lines)
            self.assertIn("most recent call first", text)
            self.assertIn("in play_lobby", text)
            self.assertIsNone(bot.poll(), "the bot exited: " + text)
        finally:
            bot.kill()
            bot.wait()
            bot.stderr.close()


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
