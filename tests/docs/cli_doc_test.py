#!/usr/bin/env python3
"""Checks docs/cli.md against the `cassino` binary's own --help.

Every subcommand the binary lists must have a section in docs/cli.md (a
`## cassino NAME` heading; one heading may cover several, as in
`## cassino export and cassino import`), every section must name a real
subcommand, and every long option a subcommand's --help lists must be
mentioned in its section. So the manual cannot silently fall behind the
program.

usage: cli_doc_test.py CASSINO_BINARY DOCS_CLI_MD
"""
import re
import subprocess
import sys


def run_help(binary, *args):
    out = subprocess.run([binary, *args, "--help"], capture_output=True,
                         text=True, check=True)
    return out.stdout


def subcommands(binary):
    text = run_help(binary)
    names, in_list = [], False
    for line in text.splitlines():
        if line.startswith("Subcommands:"):
            in_list = True
            continue
        m = re.match(r"^  ([a-z][a-z0-9-]*)\s", line)
        if in_list and m:
            names.append(m.group(1))
    return names


def options(binary, sub):
    """The long options of `cassino SUB --help` (its Options: section)."""
    text = run_help(binary, sub)
    opts, in_opts = set(), False
    for line in text.splitlines():
        if re.match(r"^[A-Z][A-Za-z ]*:$", line):
            in_opts = line.startswith("Options")
            continue
        if in_opts:
            m = re.match(r"^  (?:-\w,)?(--[a-z][a-z0-9-]*)", line)
            if m and m.group(1) != "--help":
                opts.add(m.group(1))
    return opts


def sections(doc):
    """{subcommand: section text} from the `## cassino ...` headings."""
    result, current, body = {}, [], []
    for line in doc.splitlines():
        if line.startswith("## "):
            for name in current:
                result[name] = "\n".join(body)
            current = re.findall(r"cassino ([a-z][a-z0-9-]*)", line)
            body = []
        else:
            body.append(line)
    for name in current:
        result[name] = "\n".join(body)
    return result


def main():
    binary, doc_path = sys.argv[1], sys.argv[2]
    doc = sections(open(doc_path, encoding="utf-8").read())
    subs = subcommands(binary)
    failures = []
    if not subs:
        failures.append("`cassino --help` lists no subcommand")
    for sub in subs:
        if sub not in doc:
            failures.append(f"cassino {sub}: no '## cassino {sub}' section")
            continue
        for opt in sorted(options(binary, sub)):
            if not re.search(re.escape(opt) + r"(?![a-z0-9-])", doc[sub]):
                failures.append(f"cassino {sub}: option {opt} is not documented")
    for name in doc:
        if name not in subs:
            failures.append(f"docs/cli.md documents 'cassino {name}', "
                            "which the binary does not have")
    for f in failures:
        print("FAIL", f)
    checked = len(subs)
    print(f"{checked - len({f.split(':')[0] for f in failures})} passed, "
          f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
