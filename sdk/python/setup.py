"""Builds the cassino package:

- its gRPC stubs, generated from the repository's proto/ files (and
  google.rpc's status and error details from Debian's
  golang-github-gogo-googleapis-dev), so the stubs always match the
  referee they were built beside (needs protoc and grpc_python_plugin:
  protobuf-compiler, protobuf-compiler-grpc);
- its forward model, cassino._engine: the referee's rules engine
  (the sources of the CMake libraries cassino_rules and cassino_playout,
  read from rules/ and tools/CMakeLists.txt so the lists never drift)
  compiled with the pybind11 binding in
  sdk/python/engine/ (pybind11-dev, python3-pybind11, python3-dev,
  libabsl-dev, libssl-dev, pkg-config). The engine is compiled here, from
  the repository's sources, rather than taken from a CMake build tree: a
  fresh clone installs with pip alone, and the engine is always the one
  beside the package. Compiling takes a minute or two of CPU, in parallel
  ($CASSINO_BUILD_JOBS jobs, default every core) and through ccache when
  it is installed (again: seconds).

$CASSINO_SOURCE_DIR names the repository when this folder is built from a
copy (default: two levels up); $CASSINO_PROTO_DIR its proto/ folder.
"""

import os
import re
import shutil
import subprocess
import tempfile

from pybind11.setup_helpers import ParallelCompile, Pybind11Extension
from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_DIR = os.path.abspath(os.environ.get("CASSINO_SOURCE_DIR") or
                             os.path.join(HERE, "..", ".."))
PROTO_DIR = os.environ.get("CASSINO_PROTO_DIR") or os.path.join(SOURCE_DIR,
                                                                 "proto")
GOOGLE_RPC_DIR = "/usr/share/gocode/src/github.com/gogo/googleapis"
PLUGIN = shutil.which("grpc_python_plugin") or "/usr/bin/grpc_python_plugin"
# The libraries the engine links (as rules/CMakeLists.txt names them).
PKG_CONFIG_MODULES = ["absl_status", "absl_statusor", "absl_strings",
                      "absl_str_format", "absl_flat_hash_map",
                      "absl_inlined_vector", "libcrypto"]


def need(path, package):
    if not os.path.exists(path):
        raise SystemExit(f"cassino-sdk: {path} is missing (build from the "
                         f"repository, or set CASSINO_SOURCE_DIR; apt-get "
                         f"install {package})")


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
        need(os.path.join(PROTO_DIR, "cassino", "v1", "game.proto"),
             "protobuf-compiler")
        need(os.path.join(GOOGLE_RPC_DIR, "google", "rpc", "status.proto"),
             "golang-github-gogo-googleapis-dev")
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


def library_sources(folder, library):
    """The sources of a CMake library, as folder/CMakeLists.txt lists them
    (relative to that folder)."""
    cmake = os.path.join(SOURCE_DIR, folder, "CMakeLists.txt")
    need(cmake, f"the repository's {folder}/")
    with open(cmake) as f:
        match = re.search(r"add_library\(" + library + r"\s+([^)]*)\)",
                          f.read())
    if not match:
        raise SystemExit(f"cassino-sdk: no add_library({library} ...) in "
                         f"{cmake}")
    return [os.path.join(SOURCE_DIR, folder, name)
            for name in match.group(1).split()]


def headers(*folders):
    out = []
    for folder in folders:
        path = os.path.join(SOURCE_DIR, folder)
        out += [os.path.join(path, f) for f in sorted(os.listdir(path))
                if f.endswith(".h")]
    return out


def pkg_config(flag):
    try:
        out = subprocess.run(["pkg-config", flag] + PKG_CONFIG_MODULES,
                             check=True, capture_output=True, text=True)
    except (OSError, subprocess.CalledProcessError) as e:
        raise SystemExit("cassino-sdk: pkg-config cannot find abseil and "
                         "OpenSSL (apt-get install pkg-config libabsl-dev "
                         f"libssl-dev): {e}")
    return out.stdout.split()


def engine_sources():
    binding = os.path.join(SOURCE_DIR, "sdk", "python", "engine")
    return (library_sources("rules", "cassino_rules") +
            library_sources("tools", "cassino_playout") +
            [os.path.join(binding, f) for f in sorted(os.listdir(binding))
             if f.endswith(".cc")])


class BuildEngine(build_ext):
    """build_ext with the engine's sources (absolute paths, outside this
    folder, which setup() itself may not name), through ccache when it is
    on the PATH."""

    def build_extension(self, ext):
        if ext.name != "cassino._engine":
            return super().build_extension(ext)
        named = ext.sources, ext.depends
        ext.sources = engine_sources()
        ext.depends = headers("rules", "tools/playout", "sdk/python/engine")
        try:
            super().build_extension(ext)
        finally:  # the later manifest (egg_info) sees what setup() named
            ext.sources, ext.depends = named

    def build_extensions(self):
        # A venv's include folder (distutils adds it; it is empty or
        # missing) would make each venv's command lines differ, and ccache
        # miss.
        def holds_files(folder):
            return any(files for _, _, files in os.walk(folder))
        self.compiler.include_dirs = [d for d in self.compiler.include_dirs
                                      if holds_files(d)]
        ccache = shutil.which("ccache")
        compiler = self.compiler.compiler_so
        if ccache and os.path.basename(compiler[0]) != "ccache":
            self.compiler.compiler_so = [ccache] + compiler
        super().build_extensions()


# (The sources are set by BuildEngine; the one named here is the module's.)
ENGINE = Pybind11Extension(
    "cassino._engine", ["engine/module.cc"], cxx_std=20,
    include_dirs=[SOURCE_DIR],
    extra_compile_args=["-O2", "-g0", "-DNDEBUG"] + pkg_config("--cflags"),
    extra_link_args=pkg_config("--libs"))

ParallelCompile("CASSINO_BUILD_JOBS", default=0).install()
setup(cmdclass={"build_py": BuildWithStubs, "build_ext": BuildEngine},
      ext_modules=[ENGINE])
