#!/usr/bin/env python3
"""Checks the referee's public lists against their one source.

- The error reasons: referee/errors.cc (ReasonName) is the one list;
  every reason it names must be listed in the API's header comment
  (proto/cassino/v1/referee_service.proto) and in docs/referee.md, and
  neither may name a reason the referee does not send.
- The options: every long option `cassino-referee --help` lists must be in
  docs/referee.md.

usage: referee_doc_test.py REPO_ROOT CASSINO_REFEREE_BINARY
"""
import re
import subprocess
import sys
from pathlib import Path


def main():
    root, binary = Path(sys.argv[1]), sys.argv[2]
    failures = []
    source = (root / "referee/errors.cc").read_text()
    reasons = set(re.findall(r'return "([A-Z_]+)";', source)) - {"UNKNOWN"}
    if len(reasons) < 20:
        failures.append(f"found only {len(reasons)} reasons in errors.cc")
    proto = (root / "proto/cassino/v1/referee_service.proto").read_text()
    # The comment's list: from "one of" to "or else".
    m = re.search(r"one of (.*?)or else", proto, re.S)
    listed = set(re.findall(r"\b[A-Z][A-Z_]{3,}\b", m.group(1))) if m else set()
    docs = (root / "docs/referee.md").read_text()
    in_docs = set(re.findall(r"`([A-Z][A-Z_]{3,})`", docs))
    for r in sorted(reasons - listed):
        failures.append(f"reason {r} is not in referee_service.proto's list")
    for r in sorted(listed - reasons):
        failures.append(f"referee_service.proto lists {r}, never sent")
    for r in sorted(reasons - in_docs):
        failures.append(f"reason {r} is not in docs/referee.md")
    help_text = subprocess.run([binary, "--help"], capture_output=True,
                               text=True, check=True).stdout
    for option in sorted(set(re.findall(r"(--[a-z][a-z0-9-]+)", help_text))):
        if option == "--help":
            continue
        if not re.search(r"`[^`\n]*" + re.escape(option) + r"\b", docs):
            failures.append(f"option {option} is not in docs/referee.md")
    for f in failures:
        print("FAIL:", f)
    print(f"{len(reasons)} reasons and the options of cassino-referee checked")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
