#!/usr/bin/python3
"""Measures `cassino serve` under the abuses of issue #26 (a program, not a
test: tests/tools/viewer_abuse_test.cc asserts the bounds). Prints one line
per measurement.

    viewer_abuse.py make-db SOURCE.db GAME OUT.db [--copies 5000] [--label big]
        copies the games and seats rows of GAME 5000 times under a new
        label (a large label shown as a tournament; the copies have no
        events, which the tournament page does not read)
    viewer_abuse.py probe URL [--label big] [--game ID]
        runs every measurement against a running `cassino serve`

Every request goes to the URL given (a loopback address); loops are
bounded in count and time.
"""

import argparse
import json
import socket
import sqlite3
import sys
import threading
import time
import urllib.parse


def make_db(args):
    src = sqlite3.connect(args.source)
    out = sqlite3.connect(args.out)
    src.backup(out)
    src.close()
    game = out.execute("SELECT * FROM games WHERE game_id = ?",
                       [args.game]).fetchone()
    cols = [d[0] for d in out.execute("SELECT * FROM games LIMIT 0").description]
    seats = out.execute("SELECT * FROM seats WHERE game_id = ?",
                        [args.game]).fetchall()
    seat_cols = [d[0] for d in
                 out.execute("SELECT * FROM seats LIMIT 0").description]
    with out:
        for i in range(args.copies):
            row = dict(zip(cols, game))
            row.update(game_id="%s-%05d" % (args.label, i), label=args.label,
                       created_us=1_800_000_000_000_000 + i)
            out.execute("INSERT INTO games (%s) VALUES (%s)" %
                        (", ".join(row), ", ".join("?" * len(row))),
                        list(row.values()))
            for seat in seats:
                srow = dict(zip(seat_cols, seat))
                srow["game_id"] = row["game_id"]
                out.execute("INSERT INTO seats (%s) VALUES (%s)" %
                            (", ".join(srow), ", ".join("?" * len(srow))),
                            list(srow.values()))
    out.close()
    print("wrote %s: %d copies of %s labelled %s" %
          (args.out, args.copies, args.game, args.label))


def split(url):
    u = urllib.parse.urlsplit(url)
    return u.hostname, u.port or 80


def request(host, port, path, headers=None, timeout=30.0):
    """One GET; returns (status, body bytes, seconds) or (None, b'', s)."""
    start = time.monotonic()
    try:
        s = socket.create_connection((host, port), timeout=timeout)
    except OSError:
        return None, b"", time.monotonic() - start
    s.settimeout(timeout)
    head = "GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n" % (path, host)
    for k, v in (headers or {}).items():
        head += "%s: %s\r\n" % (k, v)
    data = b""
    try:
        s.sendall((head + "\r\n").encode())
        while True:
            chunk = s.recv(1 << 16)
            if not chunk:
                break
            data += chunk
    except OSError:
        pass
    finally:
        s.close()
    elapsed = time.monotonic() - start
    if not data.startswith(b"HTTP/1."):
        return None, b"", elapsed
    status = int(data.split(b" ", 2)[1])
    return status, data[data.find(b"\r\n\r\n") + 4:], elapsed


def probe_ranges(host, port, path, n):
    status, full, _ = request(host, port, path)
    rng = "bytes=" + ",".join(["0-"] * n)
    req_bytes = len("GET %s HTTP/1.1\r\nRange: %s\r\n\r\n" % (path, rng))
    status_r, body, t = request(host, port, path, {"Range": rng})
    print("range: %s with %d ranges (a %d-byte request): status %s, %d bytes "
          "back (the body is %d bytes), %.2f s" %
          (path, n, req_bytes, status_r, len(body), len(full), t))


def hold(host, port, n, trickle, stop):
    """Opens n connections; with `trickle` each sends one byte of a request
    head every `trickle` seconds, else nothing. Returns the sockets."""
    socks = []
    for _ in range(n):
        try:
            s = socket.create_connection((host, port), timeout=5)
            socks.append(s)
        except OSError:
            break

    def drip():
        text = b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 4000
        i = 0
        while not stop.is_set() and i < len(text):
            for s in socks:
                try:
                    s.send(text[i:i + 1])
                except OSError:
                    pass
            i += 1
            stop.wait(trickle)

    if trickle:
        threading.Thread(target=drip, daemon=True).start()
    return socks


def closed_count(socks):
    n = 0
    for s in socks:
        s.setblocking(False)
        try:
            if s.recv(4096) == b"":
                n += 1
        except BlockingIOError:
            pass
        except OSError:
            n += 1
    return n


def probe_held(host, port, n, trickle, what, wait_s=15):
    stop = threading.Event()
    opened = time.monotonic()
    socks = hold(host, port, n, trickle, stop)
    time.sleep(2.5)
    status, _, t = request(host, port, "/api/games?limit=1", timeout=30)
    print("%s: %d connections held open; a well-behaved request: status %s "
          "after %.2f s" % (what, len(socks), status, t))
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline and closed_count(socks) < len(socks):
        time.sleep(0.25)
    print("%s: %d of %d closed by the server %.1f s after they opened" %
          (what, closed_count(socks), len(socks), time.monotonic() - opened))
    stop.set()
    for s in socks:
        s.close()


def probe(args):
    host, port = split(args.url)
    probe_ranges(host, port, "/assets/app.js", 15)
    if args.label:
        probe_ranges(host, port, "/api/tournaments/" + args.label, 15)
    status, body, t = request(host, port, "/api/games?to=1969-12-31")
    games = len(json.loads(body).get("games", [])) if status == 200 else "-"
    print("dates: /api/games?to=1969-12-31: status %s, %s games" % (status, games))
    if args.label:
        status, body, t = request(host, port, "/api/tournaments/" + args.label)
        j = json.loads(body) if status == 200 else {}
        print("label: /api/tournaments/%s: status %s, %d bytes, %.3f s, %d "
              "schedule rows, standings over %s games" %
              (args.label, status, len(body), t, len(j.get("games", [])),
               sum(s["games"] for s in j.get("standings", [])) // 2))
    probe_held(host, port, 16, 2.0, "slow headers (1 byte / 2 s)")
    probe_held(host, port, 64, 0, "idle connections")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("make-db")
    m.add_argument("source")
    m.add_argument("game")
    m.add_argument("out")
    m.add_argument("--copies", type=int, default=5000)
    m.add_argument("--label", default="big")
    q = sub.add_parser("probe")
    q.add_argument("url")
    q.add_argument("--label", default="big")
    args = p.parse_args()
    make_db(args) if args.cmd == "make-db" else probe(args)


if __name__ == "__main__":
    sys.exit(main())
