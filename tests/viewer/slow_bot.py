#!/usr/bin/python3
"""The example Python bot (tools/bots/python/cassino_bot.py), slowed down:
it waits SLOW_BOT_MS milliseconds (default 200) before each of its first
SLOW_BOT_MOVES moves (default 12), then plays at full speed. The browser
tests use it so that a live game is still running while the page is
watched."""

import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools", "bots", "python"))

import cassino_bot  # noqa: E402

DELAY = int(os.environ.get("SLOW_BOT_MS", "200")) / 1000.0
SLOW_MOVES = int(os.environ.get("SLOW_BOT_MOVES", "12"))
_choose = cassino_bot.choose
_moves = [0]


def slow_choose(your_turn, rejected):
    if _moves[0] < SLOW_MOVES:
        time.sleep(DELAY)
    _moves[0] += 1
    return _choose(your_turn, rejected)


cassino_bot.choose = slow_choose

if __name__ == "__main__":
    cassino_bot.main()
