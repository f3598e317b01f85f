"""Typed, read-only views of what the referee sends a seat.

Cards are two-character strings as the API writes them ("7H", "TD", "AS").
Each view keeps the message it was made from in `proto`, for anything not
copied here.
"""

from dataclasses import dataclass

from cassino.v1 import game_pb2, referee_service_pb2

KINDS = {
    game_pb2.MOVE_KIND_TRAIL: "trail",
    game_pb2.MOVE_KIND_CAPTURE: "capture",
    game_pb2.MOVE_KIND_BUILD: "build",
    game_pb2.MOVE_KIND_CALL_OUT: "call_out",
}


@dataclass(frozen=True)
class Move:
    notation: str        # canonical: "take 8C 8H", "build 8 3D 5S", "trail 7H"
    kind: str            # "trail", "capture", "build" or "call_out"
    card: str            # the card played ("" for a call-out)
    value: int           # a build's value after the move; 0 otherwise
    table_cards: tuple   # the table cards taken or used
    proto: game_pb2.Move

    @staticmethod
    def of(m: game_pb2.Move) -> "Move":
        return Move(m.notation, KINDS.get(m.kind, "unspecified"), m.card,
                    m.value, tuple(m.table_cards), m)


@dataclass(frozen=True)
class Build:
    cards: tuple
    value: int
    controller: int  # the seat that controls it
    multiple: bool


@dataclass(frozen=True)
class Side:
    side: int
    captured: int  # cards taken this round
    spades: int
    sweeps: int
    total: int     # the game total before this round


@dataclass(frozen=True)
class PlayedMove:
    turn: int
    round: int
    deal: int
    seat: int
    move: Move
    captured: tuple  # for captures: the played card and every card taken
    sweep: bool
    proto: game_pb2.PlayedMove

    @staticmethod
    def of(m: game_pb2.PlayedMove) -> "PlayedMove":
        return PlayedMove(m.turn, m.round, m.deal, m.seat, Move.of(m.move),
                          tuple(m.captured), m.sweep, m)


@dataclass(frozen=True)
class Turn:
    """It is your turn: what you may see, and every legal move."""

    turn: int            # the turn number your answer carries
    seat: int
    rules: str           # the complete rule set, as option=value words
    round: int
    deal: int
    dealer: int
    hand: tuple
    table: tuple         # loose cards
    builds: tuple        # Build, with their controllers
    hand_sizes: tuple    # every seat's number of cards in hand
    stock_size: int
    sides: tuple         # Side, per side: captured counts and totals
    history: tuple       # PlayedMove: this round's moves, oldest first
    legal_moves: tuple   # Move, in canonical notation order
    time_left_ms: int    # for this move, bank included
    bank_left_ms: int
    illegal_left: int    # rejected submissions left before forfeiting
    proto: referee_service_pb2.YourTurn

    @staticmethod
    def of(t: referee_service_pb2.YourTurn) -> "Turn":
        o = t.observation
        return Turn(
            turn=t.turn, seat=o.seat, rules=o.rules, round=o.round,
            deal=o.deal, dealer=o.dealer, hand=tuple(o.hand),
            table=tuple(o.table.loose),
            builds=tuple(Build(tuple(b.cards), b.value, b.controller,
                               b.multiple) for b in o.table.builds),
            hand_sizes=tuple(o.hand_sizes), stock_size=o.stock_size,
            sides=tuple(Side(s.side, s.captured, s.spades, s.sweeps, s.total)
                        for s in o.sides),
            history=tuple(PlayedMove.of(m) for m in o.round_history),
            legal_moves=tuple(Move.of(m) for m in t.legal_moves),
            time_left_ms=t.time_left_ms, bank_left_ms=t.bank_left_ms,
            illegal_left=t.illegal_left, proto=t)

    def move(self, notation: str) -> Move:
        """The legal move with this notation (KeyError if none)."""
        for m in self.legal_moves:
            if m.notation == notation:
                return m
        raise KeyError(notation)


class RoundHistory:
    """Keeps the round's moves from a compact stream's YourTurns.

    In the compact play mode only a stream's first YourTurn carries
    observation.round_history; later ones set round_history_omitted and
    carry the moves since the previous one in since_last (the referee's
    YourTurn documentation). complete() puts the history back, so a Turn
    reads the same in both modes.
    """

    def __init__(self):
        self._moves = []

    def complete(self, t: referee_service_pb2.YourTurn) -> None:
        obs = t.observation
        if not t.round_history_omitted:
            self._moves = list(obs.round_history)
            return
        self._moves.extend(t.since_last)
        self._moves = [m for m in self._moves if m.round == obs.round]
        del obs.round_history[:]
        obs.round_history.extend(self._moves)
        t.round_history_omitted = False
