"""Builds the cassino package with its gRPC stubs generated from the
repository's proto/ files (and google.rpc's status and error details from
Debian's golang-github-gogo-googleapis-dev), so the stubs always match the
referee they were built beside. Needs protoc and grpc_python_plugin
(protobuf-compiler, protobuf-compiler-grpc)."""

import os
import shutil
import subprocess
import tempfile

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
# The repository's proto/ (or $CASSINO_PROTO_DIR, for a copy of this
# folder built elsewhere).
PROTO_DIR = os.environ.get("CASSINO_PROTO_DIR") or os.path.normpath(
    os.path.join(HERE, "..", "..", "proto"))
GOOGLE_RPC_DIR = "/usr/share/gocode/src/github.com/gogo/googleapis"
PLUGIN = shutil.which("grpc_python_plugin") or "/usr/bin/grpc_python_plugin"


def protoc(proto_path, out, files, grpc=False):
    cmd = ["protoc", "--proto_path=" + proto_path, "--python_out=" + out]
    if grpc:
        cmd += ["--plugin=protoc-gen-grpc_python=" + PLUGIN,
                "--grpc_python_out=" + out]
    subprocess.run(cmd + files, check=True)


class BuildWithStubs(build_py):
    """build_py, then the generated modules into the built package."""

    def run(self):
        super().run()
        for need in (os.path.join(PROTO_DIR, "cassino", "v1", "game.proto"),
                     os.path.join(GOOGLE_RPC_DIR, "google", "rpc",
                                  "status.proto")):
            if not os.path.exists(need):
                raise SystemExit(f"cassino-sdk: {need} is missing (build from "
                                 "the repository; apt-get install "
                                 "golang-github-gogo-googleapis-dev)")
        package = os.path.join(self.build_lib, "cassino")
        # cassino.v1: the API's messages and the RefereeService stub.
        protoc(PROTO_DIR, self.build_lib,
               ["cassino/v1/game.proto", "cassino/v1/referee_service.proto"],
               grpc=True)
        open(os.path.join(package, "v1", "__init__.py"), "w").close()
        # cassino._rpc: google.rpc.Status and its error details (only this
        # package imports them).
        with tempfile.TemporaryDirectory() as tmp:
            protoc(GOOGLE_RPC_DIR, tmp, ["google/rpc/status.proto",
                                         "google/rpc/error_details.proto"])
            rpc = os.path.join(package, "_rpc")
            os.makedirs(rpc, exist_ok=True)
            open(os.path.join(rpc, "__init__.py"), "w").close()
            for name in ("status_pb2.py", "error_details_pb2.py"):
                shutil.copy(os.path.join(tmp, "google", "rpc", name), rpc)


setup(cmdclass={"build_py": BuildWithStubs})
