#!/usr/bin/python3
"""The example Python bot (tools/bots/python/cassino_bot.py), slowed down:
it waits SLOW_BOT_MS milliseconds (default 200) before each of its first
SLOW_BOT_MOVES moves (default 12), then plays at full speed. The browser
tests use it so that a live game is still running while the page is
watched. With SLOW_BOT_ILLEGAL=N its first N submissions trail a card it
does not hold (refused by the referee: N at max_illegal forfeits)."""

import os
import sys
import time
import types

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools", "bots", "python"))

import cassino_bot  # noqa: E402

DELAY = int(os.environ.get("SLOW_BOT_MS", "200")) / 1000.0
SLOW_MOVES = int(os.environ.get("SLOW_BOT_MOVES", "12"))
ILLEGAL = int(os.environ.get("SLOW_BOT_ILLEGAL", "0"))
_choose = cassino_bot.choose
_moves = [0]
_illegal = [0]


def slow_choose(your_turn, rejected):
    if _illegal[0] < ILLEGAL:
        seen = set(your_turn.observation.hand) | set(
            your_turn.observation.table.loose)
        for b in your_turn.observation.table.builds:
            seen |= set(b.cards)
        lacking = [r + s for s in "SHDC" for r in "A23456789TJQK"
                   if r + s not in seen and "trail " + r + s not in rejected]
        _illegal[0] += 1
        return types.SimpleNamespace(notation="trail " + lacking[0])
    if _moves[0] < SLOW_MOVES:
        time.sleep(DELAY)
    _moves[0] += 1
    return _choose(your_turn, rejected)


cassino_bot.choose = slow_choose

if __name__ == "__main__":
    cassino_bot.main()
