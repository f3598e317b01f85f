"""The Cassino bot SDK: write choose(turn), the SDK plays it.

    import cassino

    class Greedy(cassino.Bot):
        def choose(self, turn):
            captures = [m for m in turn.legal_moves if m.kind == "capture"]
            return max(captures, key=lambda m: len(m.table_cards),
                       default=turn.legal_moves[0])

    cassino.run(Greedy())   # --token / --lobby --key, see run()

See README.md beside this package.
"""

from cassino.bot import (DEFAULT_ADDRESS, Bot, connect, play_lobby,
                         play_seat)
from cassino.errors import RefereeError, from_rpc_error
from cassino.main import run
from cassino.views import (Build, Move, PlayedMove, RoundHistory, Side,
                           Turn)

__all__ = ["Bot", "Build", "DEFAULT_ADDRESS", "Move", "PlayedMove",
           "RefereeError", "RoundHistory", "Side", "Turn", "connect",
           "from_rpc_error", "play_lobby", "play_seat", "run"]
