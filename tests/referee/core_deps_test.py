#!/usr/bin/env python3
"""Checks that the referee's core builds without gRPC and protobuf.

The core (cassino_referee_core: games, clocks, records) speaks the game's
domain; only the gRPC edge (cassino_service) knows the wire. For each of
the core's sources this asks the compiler, with the core's own compile
command from compile_commands.json, for every header the source includes,
directly or not (-MM), and fails if one of them is a gRPC or protobuf
header or a generated message (*.pb.h). A sanity case checks that the same
probe does see gRPC in an edge source.

usage: core_deps_test.py COMPILE_COMMANDS_JSON EDGE_SOURCE CORE_SOURCE...
"""
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

WIRE = re.compile(r"(^|/)(grpcpp?|grpc|google/protobuf)/|\.pb\.h$")


def headers(entry):
    """Every header the entry's source includes, transitively."""
    args = entry.get("arguments") or shlex.split(entry["command"])
    probe = []
    skip = False
    for a in args:
        if skip:
            skip = False
            continue
        if a in ("-o", "-MF", "-MT", "-MQ"):
            skip = True
            continue
        if a in ("-MD", "-MMD", "-c"):
            continue
        probe.append(a)
    probe += ["-M", "-MG"]
    out = subprocess.run(probe, cwd=entry["directory"], capture_output=True,
                         text=True, check=True).stdout
    deps = out.replace("\\\n", " ").split(":", 1)[1].split()
    return [d for d in deps if d.endswith((".h", ".hpp", ".inc"))]


def main():
    db = json.loads(Path(sys.argv[1]).read_text())
    by_file = {str(Path(e["directory"], e["file"]).resolve()): e for e in db}
    edge, core = sys.argv[2], sys.argv[3:]
    failures = []
    if not core:
        failures.append("no core sources given")

    def entry_of(source):
        e = by_file.get(str(Path(source).resolve()))
        if e is None:
            failures.append(f"{source}: not in {sys.argv[1]}")
        return e

    e = entry_of(edge)
    if e is not None and not any(WIRE.search(h) for h in headers(e)):
        failures.append(f"the probe sees no gRPC header in {edge}")
    for source in core:
        # (A source may be listed by several targets: the core's entry is
        # the one whose output is in the core's object directory.)
        matches = [x for x in db
                   if str(Path(x["directory"], x["file"]).resolve()) ==
                   str(Path(source).resolve()) and
                   "cassino_referee_core" in x.get("output", x["command"])]
        if not matches:
            failures.append(f"{source}: no compile command of the core")
            continue
        wire = [h for h in headers(matches[0]) if WIRE.search(h)]
        if wire:
            failures.append(f"{source} includes wire headers: "
                            + ", ".join(sorted(set(wire))[:5]))
    for f in failures:
        print("FAIL:", f)
    print(f"{len(core)} core sources checked; {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
