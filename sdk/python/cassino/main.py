"""run(bot): the command line every SDK bot gets."""

import argparse
import copy
import faulthandler
import os
import signal
import sys

from cassino.bot import DEFAULT_ADDRESS, Bot, play_lobby, play_seat
from cassino.errors import RefereeError


def run(bot, argv=None):
    """Parses the command line and plays: a seat token (--token or
    $CASSINO_TOKEN) plays one game; --lobby with a bot key (--key or
    $CASSINO_BOT_KEY) plays every game offered. Exits 1 on a refusal or
    when reconnecting failed. `bot` is a Bot, or a function making one; in
    lobby mode each game gets its own (a deep copy of a Bot given).
    `kill -USR1` prints every thread's stack to stderr; the bot goes on."""
    parser = argparse.ArgumentParser(description="A Cassino bot.")
    parser.add_argument("--address", default=os.environ.get(
        "CASSINO_ADDRESS", DEFAULT_ADDRESS),
        help=f"the referee (default {DEFAULT_ADDRESS} or $CASSINO_ADDRESS)")
    parser.add_argument("--token", default=os.environ.get("CASSINO_TOKEN"),
                        help="a seat token (or $CASSINO_TOKEN)")
    parser.add_argument("--lobby", action="store_true",
                        help="play every game offered to the account of --key")
    parser.add_argument("--key", default=os.environ.get("CASSINO_BOT_KEY"),
                        help="the bot key, lobby mode (or $CASSINO_BOT_KEY)")
    parser.add_argument("--capacity", type=int, default=1,
                        help="lobby mode: games played at once")
    parser.add_argument("--games", type=int, default=0,
                        help="lobby mode: stop after this many (0: never)")
    parser.add_argument("--ladder", default="",
                        help="lobby mode: join this ladder (docs/ladder.md)")
    parser.add_argument("--version", default="",
                        help="with --ladder: this bot's version")
    parser.add_argument("--play-mode", choices=("compact", "full"),
                        default="compact",
                        help="compact: three messages a move (default)")
    args = parser.parse_args(argv)
    if hasattr(signal, "SIGUSR1"):  # where a bot that does not exit waits
        faulthandler.register(signal.SIGUSR1, all_threads=True)
    if isinstance(bot, Bot):
        single, make = bot, (lambda: copy.deepcopy(bot))
    else:  # a factory
        single, make = None, bot
    try:
        if args.lobby:
            if not args.key:
                parser.error("--lobby needs --key (or $CASSINO_BOT_KEY)")
            if args.ladder and not args.version:
                parser.error("--ladder needs --version")
            play_lobby(make, args.key, address=args.address,
                       capacity=args.capacity, games=args.games,
                       mode=args.play_mode, ladder=args.ladder,
                       version=args.version)
            return
        if not args.token:
            parser.error("--token (or $CASSINO_TOKEN) is required")
        ended = play_seat(single or make(), args.token, address=args.address,
                          mode=args.play_mode)
        r = ended.result
        print(f"game ended: winner side {r.winner} ({r.reason}), totals "
              f"{'-'.join(map(str, r.totals))}")
    except RefereeError as e:
        sys.exit(f"cassino: {e}")
