"""Installs sdk/python as its README says, for the SDK's tests: a fresh
venv on Debian's python3 with the system site-packages (grpcio, protobuf,
pybind11), then `pip install --no-index --no-build-isolation` of a copy of
the package (pip builds in the folder it is given, so the repository's
stays clean and tests running at once do not share a build folder), with
CASSINO_SOURCE_DIR naming the repository for the stubs and the engine.
"""

import os
import shutil
import subprocess

REPO = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "..",
                                     ".."))


def install_sdk(tmp):
    """Installs the SDK into a venv under `tmp`; returns its python."""
    venv = os.path.join(tmp, "venv")
    subprocess.run(["/usr/bin/python3", "-m", "venv", "--system-site-packages",
                    venv], check=True)
    python = os.path.join(venv, "bin", "python")
    source = os.path.join(tmp, "sdk-python")
    shutil.copytree(os.path.join(REPO, "sdk", "python"), source,
                    ignore=shutil.ignore_patterns("build", "*.egg-info"))
    env = dict(os.environ, CASSINO_SOURCE_DIR=REPO)
    env.setdefault("CASSINO_BUILD_JOBS", "2")
    subprocess.run([python, "-m", "pip", "install", "--quiet", "--no-index",
                    "--no-build-isolation", source],
                   check=True, cwd=tmp, env=env)
    return python
