"""The Python forward model (sdk/python's cassino.engine) agrees with the
C++ engine.

    engine_test.py ENGINE_CORPUS_BIN

Installs the SDK as its README says (install.py: a fresh venv, pip
offline, the engine compiled from the repository), writes the C++
engine's corpus (tests/sdk/engine_corpus.cc) and runs engine_checks.py
with the venv's python against it. Then runs bench/forward_model_bench.py
for a moment, so that the shipped benchmark cannot rot (its figures are
not checked: a benchmark is never a timed test).
"""

import os
import subprocess
import sys
import tempfile

from install import install_sdk

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.join(HERE, "..", "..", "..", "bench", "forward_model_bench.py")


def main():
    corpus_bin = sys.argv[1]
    with tempfile.TemporaryDirectory(prefix="cassino-engine-test-") as tmp:
        python = install_sdk(tmp)
        corpus = os.path.join(tmp, "corpus.json")
        with open(corpus, "w") as out:
            subprocess.run([corpus_bin], stdout=out, check=True)
        env = dict(os.environ, CASSINO_ENGINE_CORPUS=corpus)
        # Run from the temporary folder: `cassino` must be the installed
        # package, not a folder of the repository.
        checks = subprocess.run(
            [python, os.path.join(HERE, "engine_checks.py"), "-v"],
            cwd=tmp, env=env)
        if checks.returncode != 0:
            return checks.returncode
        bench = subprocess.run(
            [python, BENCH, "--seconds", "0.05", "--repeat", "1"], cwd=tmp,
            capture_output=True, text=True)
        print(bench.stdout, bench.stderr)
        if bench.returncode != 0 or "python" not in bench.stdout:
            print("forward_model_bench failed", file=sys.stderr)
            return 1
        return 0


if __name__ == "__main__":
    sys.exit(main())
