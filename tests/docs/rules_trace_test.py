#!/usr/bin/env python3
"""Checks docs/rules_trace.md, the table from the sources' rule sentences to
rules and tests, against the tree.

Every row of a trace table (columns # | Source | Quote | Rule | Test |
Reading) must name in its Test column at least one test as
`path:Suite.Name` (a gtest TEST, TEST_F or TEST_P in that file) or
`path:function` (a Python test function), unless the column says
`pending #13 item N` (work not landed yet: the row is skipped and listed)
or `no rule` (the sentence states no rule). Every named test must exist.
Row ids must be unique. With --sources DIR (the shared source texts, which
are not in the repository), every quote must also appear, whitespace
normalised, in each source file the row names (not in those marked `~`,
which say the same in other words), and every source file that holds the
quote must be named (issue #23: rows that left out a file).

usage: rules_trace_test.py REPO_ROOT [--sources DIR]
"""
import os
import re
import sys

TEST_REF = re.compile(r"`([\w./-]+\.(?:cc|py)):([A-Za-z_]\w*)(?:\.(\w+))?`")
PENDING = re.compile(r"pending #13 item (\d+)")


def rows(doc_text):
    """(line number, cells) of every data row of the trace tables."""
    out = []
    for n, line in enumerate(doc_text.splitlines(), 1):
        if not line.startswith("| "):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if cells[0] in ("#", "id") or cells[0].startswith(("-", "`")):
            continue  # headers, separators, the table of sources
        out.append((n, cells))
    return out


def test_exists(root, path, suite, name, cache):
    full = os.path.join(root, path)
    if full not in cache:
        try:
            with open(full, encoding="utf-8") as f:
                cache[full] = f.read()
        except OSError:
            cache[full] = None
    text = cache[full]
    if text is None:
        return f"{path}: no such file"
    if path.endswith(".py"):
        ok = re.search(rf"^\s*def {re.escape(suite)}\(", text, re.M)
        return None if ok else f"{path}: no function {suite}"
    if name is None:
        return f"{path}:{suite}: a C++ test is named Suite.Name"
    pattern = rf"\bTEST(?:_F|_P)?\(\s*{re.escape(suite)},\s*{re.escape(name)}\s*\)"
    return None if re.search(pattern, text) else f"{path}: no test {suite}.{name}"


def normalise(text):
    return " ".join(text.replace("\u2019", "'").split())


def main():
    root = sys.argv[1]
    sources = None
    if len(sys.argv) > 3 and sys.argv[2] == "--sources" and sys.argv[3]:
        sources = sys.argv[3]
        if not os.path.isdir(sources):
            print(f"no source directory {sources}: quotes not checked")
            sources = None
    with open(os.path.join(root, "docs/rules_trace.md"), encoding="utf-8") as f:
        table = rows(f.read())
    failures, pending, ids, cache, checked = [], [], set(), {}, 0
    source_texts = {}
    if sources:
        for name in os.listdir(sources):
            if re.match(r"\d{3}_", name):
                with open(os.path.join(sources, name), encoding="utf-8") as f:
                    source_texts[name[:3]] = normalise(f.read())
    for n, cells in table:
        if len(cells) != 6:
            failures.append(f"docs/rules_trace.md:{n}: {len(cells)} cells, not 6")
            continue
        rid, src, quote, rule, tests, reading = cells
        where = f"docs/rules_trace.md:{n} ({rid})"
        if rid in ids:
            failures.append(f"{where}: id used twice")
        ids.add(rid)
        if not rule:
            failures.append(f"{where}: no rule named")
        if sources and quote.startswith("“"):
            pieces = [normalise(p) for p in quote.strip("“”").split("…")]
            for piece in pieces:
                for sid in src.split():  # `~002`: reworded there, not checked
                    if sid in source_texts and piece not in source_texts[sid]:
                        failures.append(f"{where}: quote not in {sid}: {piece!r}")
            named = {sid.lstrip("~") for sid in src.split()}
            for sid, text in sorted(source_texts.items()):
                if sid not in named and all(p in text for p in pieces if p):
                    failures.append(f"{where}: quote also in {sid}, not named")
        if PENDING.search(tests):
            pending.append(f"{rid} (item {PENDING.search(tests).group(1)})")
            continue
        if tests.startswith("no rule"):
            continue
        refs = TEST_REF.findall(tests)
        if not refs:
            failures.append(f"{where}: no test named (`path:Suite.Name`)")
        for path, suite, name in refs:
            checked += 1
            problem = test_exists(root, path, suite, name or None, cache)
            if problem:
                failures.append(f"{where}: {problem}")
    if len(table) < 50:
        failures.append(f"only {len(table)} rows read: is the table format intact?")
    print(f"{len(table)} rows, {checked} test references checked")
    if pending:
        print("pending (skipped): " + ", ".join(pending))
    for f in failures:
        print("FAIL " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
