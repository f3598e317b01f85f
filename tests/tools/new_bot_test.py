"""`cassino new-bot`: each starter kit, written into a fresh folder (its
path with a space and a quote), plays its bot against the reference bot
with its one command, the records verify, and bad requests are refused.

    new_bot_test.py CASSINO_BIN EXAMPLE_BOT_BIN

The node kit is skipped without node or sdk/node/node_modules. The C++
kit builds its bot with CMake against the client library this build
exports (skipped in a sanitizer build). The C++ client library's example
bot (tools/bots/example_bot.cc) plays under `cassino tournament --bot` as
it is.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

REPO = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
CASSINO, EXAMPLE_BOT = sys.argv[1], sys.argv[2]


class NewBotTest(unittest.TestCase):

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="cassino new-bot ")
        self.addCleanup(shutil.rmtree, self.tmp, True)

    def new_bot(self, *args):
        return subprocess.run([CASSINO, "new-bot", *args],
                              capture_output=True, text=True)

    def play(self, lang, name):
        kit = os.path.join(self.tmp, f"o'kit {lang}")
        made = self.new_bot("--lang", lang, "--name", name, kit)
        self.assertEqual(made.returncode, 0, made.stderr)
        for f in ("play.sh", "README.md"):
            self.assertTrue(os.path.exists(os.path.join(kit, f)), f)
        played = subprocess.run([os.path.join(kit, "play.sh"), "2"],
                                capture_output=True, text=True, timeout=240,
                                cwd=self.tmp)
        self.assertEqual(played.returncode, 0, played.stdout + played.stderr)
        # The standings: the kit's bot played both games, forfeiting none.
        row = [line for line in played.stdout.splitlines()
               if re.match(rf"^\d+\s+{name}\s", line)]
        self.assertEqual(len(row), 1, played.stdout)
        games, won, lost, drawn, forfeits = row[0].split()[2:7]
        self.assertEqual((games, forfeits), ("2", "0"), row[0])
        verify = subprocess.run(
            [CASSINO, "verify", "--quiet", os.path.join(kit, "games.db")],
            capture_output=True, text=True)
        self.assertEqual(verify.returncode, 0, verify.stdout + verify.stderr)
        # Again: the SDK is set up already, and the games add up.
        again = subprocess.run([os.path.join(kit, "play.sh"), "2"],
                               capture_output=True, text=True, timeout=240)
        self.assertEqual(again.returncode, 0, again.stderr)

    def test_python_kit_plays(self):
        self.play("python", "pybot")

    def test_node_kit_plays(self):
        if shutil.which("node") is None or not os.path.isdir(
                os.path.join(REPO, "sdk", "node", "node_modules")):
            self.skipTest("node or sdk/node/node_modules is missing")
        self.play("node", "Node_bot")

    def test_cpp_kit_plays(self):
        # (A sanitizer build's libraries cannot be linked by another
        # compiler: its exported config refuses them, and CMake says so.)
        if os.environ.get("CASSINO_SANITIZED"):
            self.skipTest("a sanitizer build: the C++ kit needs a plain one")
        self.play("cpp", "cppbot")

    def test_cpp_example_bot_plays(self):
        bot = os.path.join(os.path.dirname(EXAMPLE_BOT), "cassino-bot")
        played = subprocess.run(
            [CASSINO, "tournament", "--db", os.path.join(self.tmp, "ex.db"),
             "--bot", f"example='{EXAMPLE_BOT}'",
             "--bot", f"greedy='{bot}' --strategy greedy -q",
             "--games", "2", "--duplicate"],
            capture_output=True, text=True, timeout=240)
        self.assertEqual(played.returncode, 0, played.stdout + played.stderr)
        row = [line for line in played.stdout.splitlines()
               if re.match(r"^\d+\s+example\s", line)]
        self.assertEqual(len(row), 1, played.stdout)
        self.assertEqual(row[0].split()[2:7:4], ["2", "0"], row[0])

    def test_refusals(self):
        self.assertEqual(self.new_bot("--lang", "rust",
                                      os.path.join(self.tmp, "a")).returncode,
                         2)
        self.assertEqual(self.new_bot("--lang", "python", "--name", "a b",
                                      os.path.join(self.tmp, "b")).returncode,
                         2)
        full = os.path.join(self.tmp, "full")
        os.makedirs(full)
        open(os.path.join(full, "keep.txt"), "w").close()
        refused = self.new_bot("--lang", "python", full)
        self.assertEqual(refused.returncode, 2)
        self.assertIn("not empty", refused.stderr)
        self.assertEqual(os.listdir(full), ["keep.txt"])


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
