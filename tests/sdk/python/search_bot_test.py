"""The example search bot (sdk/python/examples/sampler_bot.py, on the
forward model) plays under `cassino tournament --bot` as it is.

    search_bot_test.py CASSINO_BIN CASSINO_BOT_BIN

Installs the SDK as its README says (install.py), then plays two games
(a duplicate pair, a fixed seed) of the sampler, thinking 20 ms a move,
against `cassino-bot --strategy builder`: both games must be played with
no forfeit, the record must verify, and the sampler's log must show that
it searched (deals and playouts) on its moves. Its strength is measured
by an SPRT (sdk/python/examples/README.md), never here.
"""

import glob
import os
import re
import subprocess
import sys
import tempfile
import unittest

from install import REPO, install_sdk

CASSINO, CASSINO_BOT = sys.argv[1], sys.argv[2]
BOT = os.path.join(REPO, "sdk", "python", "examples", "sampler_bot.py")


class SearchBotTest(unittest.TestCase):

    def test_sampler_plays_builder(self):
        with tempfile.TemporaryDirectory(prefix="cassino-sampler-") as tmp:
            python = install_sdk(tmp)
            logs = os.path.join(tmp, "logs")
            os.makedirs(logs)
            db = os.path.join(tmp, "games.db")
            played = subprocess.run(
                [CASSINO, "tournament", "--db", db, "--log-dir", logs,
                 "--seed", "5" * 64,
                 "--bot", f"sampler={python} {BOT} --budget-ms 20",
                 "--bot", f"builder={CASSINO_BOT} --strategy builder -q",
                 "--games", "2", "--duplicate"],
                capture_output=True, text=True, timeout=400, cwd=tmp)
            self.assertEqual(played.returncode, 0,
                             played.stdout + played.stderr)
            row = [line for line in played.stdout.splitlines()
                   if re.match(r"^\d+\s+sampler\s", line)]
            self.assertEqual(len(row), 1, played.stdout)
            games, won, lost, drawn, forfeits = row[0].split()[2:7]
            self.assertEqual((games, forfeits), ("2", "0"), row[0])
            verify = subprocess.run([CASSINO, "verify", "--quiet", db],
                                    capture_output=True, text=True)
            self.assertEqual(verify.returncode, 0,
                             verify.stdout + verify.stderr)
            searched = []
            for path in glob.glob(os.path.join(logs, "*")):
                with open(path, errors="replace") as f:
                    searched += re.findall(
                        r"sampler: game over; (\d+) moves searched, (\d+) "
                        r"deals, (\d+) playouts", f.read())
            self.assertEqual(len(searched), 2, os.listdir(logs))
            for moves, deals, playouts in searched:
                self.assertGreater(int(moves), 10)
                self.assertGreaterEqual(int(deals), 4 * int(moves))
                self.assertGreater(int(playouts), int(deals))


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
