"""events_insert_bench: the CPU an `events` row costs SQLite, at each
schema version given, with the recorder's own statement and settings.

    python3 bench/events_insert_bench.py [--versions 7,8] [--rows 40000]
        [--games 16] [--batch 8] [--repeat 3] [--schemas DIR]

For each version N in --versions, a database is made in a temporary
directory by applying the shipped migrations schemas/001..N in order (the
files the referee embeds). Then, as the recorder writes a running game's
events (recorder/recorder_open.cc, recorder_writer.cc): WAL,
synchronous=NORMAL, foreign_keys=ON, checkpoints as the referee's default, one prepared
`INSERT INTO events (game_id, seq, kind, at_us, payload, hash)` a row,
--batch rows a transaction, round robin over --games games (16 games make
transactions of about 8 moves, as at 16 games in referee_ratios). Each row
is a `move` with a payload and a hash of the referee's usual sizes.

It prints every run's CPU (this process's, so other jobs on the machine
matter less) in microseconds a row, the versions alternating --repeat
times, then each version's median. Python's own cost a row is the same in
every version, so the differences between versions are SQLite's. It was
written for schema version 7, whose `kind` check is comparisons instead of
an IN list (docs/performance.md, "The events table's kind check"), and
measured version 8's rowid table against it ("The events table as a rowid
table"). A
benchmark is a program, never a timed test: CI runs it briefly
(`events_insert_bench_smoke`) so that it cannot rot.
"""

import argparse
import glob
import os
import sqlite3
import statistics
import sys
import tempfile
import time

INSERT = ("INSERT INTO events (game_id, seq, kind, at_us, payload, hash) "
          "VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
# A move's payload as the referee writes it (recorder/payload.cc) and a hash.
PAYLOAD = ('{"elapsed_ms":412,"move":"take 7H 3C 4D","round":2,'
           '"seat":1,"turn":17}')
HASH = "5f" * 32


def migrations(schemas, version):
    files = sorted(glob.glob(os.path.join(schemas, "[0-9][0-9][0-9]_*.sql")))
    chosen = [f for f in files if int(os.path.basename(f)[:3]) <= version]
    if len(chosen) != version:
        sys.exit(f"schema version {version}: found {len(chosen)} files")
    return chosen


def make_database(path, schemas, version, games):
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute("PRAGMA foreign_keys=ON")
    # Checkpoints every 1,000 pages, as the referee's default
    # --checkpoint-pages (it makes them on a thread of its own). Without
    # them the WAL grows through the run, and finding a page in it costs
    # more the longer it is.
    db.execute("PRAGMA wal_autocheckpoint=1000")
    for f in migrations(schemas, version):
        with open(f, encoding="utf-8") as sql:
            db.executescript("BEGIN;" + sql.read() + "COMMIT;")
    db.execute(f"PRAGMA user_version={version}")
    ids = [f"bench-{version}-{g:04d}" for g in range(games)]
    for i, game_id in enumerate(ids):
        db.execute(
            "INSERT INTO games (game_id, rules, per_move_ms, bank_ms, "
            "max_illegal, created_us) VALUES (?1, 'players=2', 1000, 5000, "
            "3, ?2)", (game_id, i))
    return db, ids


def run(directory, schemas, version, args, attempt):
    path = os.path.join(directory, f"v{version}-{attempt}.db")
    db, ids = make_database(path, schemas, version, args.games)
    seq = [0] * len(ids)
    written = 0
    start = time.process_time()
    while written < args.rows:
        db.execute("BEGIN")
        for _ in range(args.batch):
            g = written % len(ids)
            db.execute(INSERT, (ids[g], seq[g], "move", written, PAYLOAD, HASH))
            seq[g] += 1
            written += 1
        db.execute("COMMIT")
    cpu = time.process_time() - start
    db.close()
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)
    return cpu / written * 1e6


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--versions", default="7,8",
                        help="schema versions to compare (default 7,8)")
    parser.add_argument("--rows", type=int, default=40000,
                        help="rows a run (default 40000)")
    parser.add_argument("--games", type=int, default=16,
                        help="games the rows go round (default 16)")
    parser.add_argument("--batch", type=int, default=8,
                        help="rows a transaction (default 8)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs of each version, alternated (default 3)")
    parser.add_argument("--schemas", default=os.path.join(here, "..",
                                                          "schemas"),
                        help="the migrations' directory (default: the tree's)")
    args = parser.parse_args()
    try:
        versions = [int(v) for v in args.versions.split(",")]
    except ValueError:
        sys.exit(f"--versions: not a list of numbers: {args.versions!r}")
    if (args.rows < 1 or args.games < 1 or args.batch < 1 or args.repeat < 1
            or any(v < 1 for v in versions)):
        sys.exit("--rows, --games, --batch, --repeat and the versions are "
                 "positive")
    print(f"events_insert_bench: {args.rows} rows a run, {args.games} games, "
          f"{args.batch} rows a transaction, SQLite {sqlite3.sqlite_version}")
    results = {v: [] for v in versions}
    with tempfile.TemporaryDirectory(prefix="events_insert_bench.") as tmp:
        for attempt in range(args.repeat):
            line = []
            for v in versions:
                us = run(tmp, args.schemas, v, args, attempt)
                results[v].append(us)
                line.append(f"version {v}: {us:.2f} us/row")
            print(f"run {attempt + 1}: " + ", ".join(line))
    for v in versions:
        print(f"version {v}: median {statistics.median(results[v]):.2f} "
              f"us/row of CPU")


if __name__ == "__main__":
    main()
