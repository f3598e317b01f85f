"""The Bot shape and the loops that play it over the referee's API.

Write a subclass of Bot with one method, choose(turn) -> move, and hand it
to play_seat (a seat token: one game) or play_lobby (a bot key: every game
the referee offers the account). Both reconnect after a dropped stream or
a referee restart and resume the game where it stands: the referee keeps
each game and sends the seat its situation again on the new stream.
"""

import dataclasses
import queue
import sys
import threading
import time

import grpc

from cassino.errors import RefereeError, from_rpc_error
from cassino.v1 import game_pb2
from cassino.v1 import referee_service_pb2 as pb
from cassino.v1 import referee_service_pb2_grpc as pb_grpc
from cassino.views import Move, RoundHistory, Turn

DEFAULT_ADDRESS = "127.0.0.1:50051"  # the referee's default port

# Refusals that another attempt cannot change.
FATAL = (grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.PERMISSION_DENIED,
         grpc.StatusCode.NOT_FOUND, grpc.StatusCode.INVALID_ARGUMENT,
         grpc.StatusCode.UNIMPLEMENTED)


class Bot:
    """A Cassino bot: override choose(); the other hooks are optional."""

    def choose(self, turn: Turn):
        """Returns the move to play: one of turn.legal_moves (a Move) or its
        notation. Called with the clock running."""
        raise NotImplementedError

    def game_started(self, started: pb.GameStarted) -> None:
        """A game (or a resumed stream of one) begins for this seat."""

    def move_rejected(self, turn: Turn, move: str, reason: str) -> None:
        """The referee refused `move` for `turn` (choose() is asked again
        with the move left out of turn.legal_moves)."""

    def game_ended(self, ended: pb.GameEnded) -> None:
        """The game is over: ended.result has the winner and totals."""


def connect(address: str = DEFAULT_ADDRESS) -> pb_grpc.RefereeServiceStub:
    """A stub on a plaintext channel that reconnects within seconds after a
    referee restart (gRPC's own backoff grows to minutes)."""
    channel = grpc.insecure_channel(
        address, options=[("grpc.max_reconnect_backoff_ms", 2000)])
    return pb_grpc.RefereeServiceStub(channel)


def _notation(choice) -> str:
    if isinstance(choice, Move):
        return choice.notation
    if isinstance(choice, game_pb2.Move):
        return choice.notation
    return str(choice)


def _play_stream(bot, stub, token, mode, log):
    """Plays over one Play stream until the game ends (returns GameEnded) or
    the stream does (returns None). Raises grpc.RpcError from the call."""
    outbox = queue.Queue()  # PlayRequests; None closes our side

    def requests():
        while True:
            request = outbox.get()
            if request is None:
                return
            yield request

    metadata = [("authorization", "Bearer " + token),
                ("cassino-play-mode", mode)]
    history = RoundHistory()
    current = None      # the last YourTurn, history completed
    rejected = set()    # notations refused for current
    pending = -1        # the turn answered, verdict not yet received

    def answer():
        nonlocal pending
        full = Turn.of(current)
        legal = tuple(m for m in full.legal_moves
                      if m.notation not in rejected) or full.legal_moves
        turn = dataclasses.replace(full, legal_moves=legal)
        notation = _notation(bot.choose(turn))
        pending = current.turn
        outbox.put(pb.PlayRequest(turn=current.turn,
                                  move=game_pb2.Move(notation=notation)))

    call = stub.Play(requests(), metadata=metadata)
    try:
        for response in call:
            event = response.WhichOneof("event")
            if event == "game_started":
                bot.game_started(response.game_started)
            elif event == "your_turn":
                t = response.your_turn
                history.complete(t)
                if t.turn == pending:
                    continue  # our answer is in flight: its verdict decides
                if current is None or current.turn != t.turn:
                    rejected = set()
                current = t
                answer()
            elif event == "verdict":
                v = response.verdict
                if v.turn == pending:
                    pending = -1
                if v.accepted:
                    continue
                bot.move_rejected(Turn.of(current) if current else None,
                                  v.move.notation, v.reason)
                log(f"turn {v.turn}: {v.move.notation!r} rejected "
                    f"({v.error_reason or v.code}): {v.reason}")
                if (current is not None and v.code == "INVALID_ARGUMENT"
                        and current.turn == v.turn):
                    rejected.add(v.move.notation)
                    answer()
                else:  # stale: ask for the situation again
                    outbox.put(pb.PlayRequest())
            elif event == "game_ended":
                bot.game_ended(response.game_ended)
                return response.game_ended
        return None
    finally:
        outbox.put(None)
        call.cancel()


def play_seat(bot: Bot, token: str, *, address: str = DEFAULT_ADDRESS,
              stub=None, mode: str = "compact", give_up_after_s: float = 60,
              log=None):
    """Plays the seat of `token` to the end of its game; returns GameEnded.

    Reconnects after a dropped stream or a referee restart for up to
    give_up_after_s seconds without progress. Raises RefereeError for a
    refusal no retry can change (a bad token, an unknown game) or when it
    gives up. mode: "compact" (three messages a move) or "full".
    """
    log = log or (lambda text: print(f"cassino: {text}", file=sys.stderr))
    stub = stub or connect(address)
    last_error = None
    deadline = time.monotonic() + give_up_after_s
    attempt = 0
    while time.monotonic() < deadline:
        try:
            ended = _play_stream(bot, stub, token() if callable(token)
                                 else token, mode, log)
            if ended is not None:
                return ended
            last_error = None
        except grpc.RpcError as e:
            err = from_rpc_error(e)
            if err.code in FATAL:
                raise err from None
            last_error = err
            log(f"stream ended ({err.code.name}); reconnecting")
        attempt += 1
        time.sleep(min(0.1 * 2 ** attempt, 2))
    raise last_error or RefereeError(grpc.StatusCode.DEADLINE_EXCEEDED,
                                     "gave up reconnecting")


def play_lobby(make_bot, key: str, *, address: str = DEFAULT_ADDRESS,
               capacity: int = 1, games: int = 0, mode: str = "compact",
               ladder: str = "", version: str = "", log=None):
    """Lobby mode: plays every seat the referee offers the bot account of
    `key`, each on its own thread with its own make_bot() instance, until
    `games` games have ended (forever if 0). Reconnects to the lobby after
    a referee restart; an offer repeated for a seat being played only
    updates its token. With `ladder` (and this bot's `version`) it joins
    that ladder (docs/ladder.md) and logs what the referee tells it."""
    log = log or (lambda text: print(f"cassino: {text}", file=sys.stderr))
    stub = connect(address)
    lock = threading.Lock()
    tokens, active, done, threads = {}, set(), set(), []
    finished = threading.Event()
    current = [None]

    def player(seat_key):
        try:
            play_seat(make_bot(), lambda: tokens[seat_key], stub=stub,
                      mode=mode, log=log)
            ok = True
        except RefereeError as e:
            log(f"game {seat_key[0]}: {e}")
            ok = False
        with lock:
            active.discard(seat_key)
            if ok:
                done.add(seat_key)
            if games and len(done) >= games:
                finished.set()
                if current[0] is not None:
                    current[0].cancel()

    failures = 0
    metadata = [("authorization", "Bearer " + key)]
    while not finished.is_set():
        call = stub.Lobby(pb.LobbyRequest(capacity=capacity, ladder=ladder,
                                          version=version),
                          metadata=metadata)
        with lock:
            current[0] = call
            # A player may have finished the last game after the loop's check
            # and cancelled the call before this one: cancel this one too.
            if finished.is_set():
                call.cancel()
        try:
            for response in call:
                failures = 0
                if response.WhichOneof("event") == "ladder":
                    n = response.ladder
                    log(f"ladder {n.ladder} (version {n.version}): "
                        f"{pb.LadderNotice.State.Name(n.state)}"
                        f"{': ' + n.reason if n.reason else ''}")
                    continue
                if response.WhichOneof("event") != "offer":
                    continue
                game = response.offer.game
                seat_key = (game.game_id, game.seat)
                with lock:
                    tokens[seat_key] = response.offer.token
                    if seat_key in active or seat_key in done:
                        continue
                    active.add(seat_key)
                t = threading.Thread(target=player, args=(seat_key,))
                t.start()
                threads.append(t)
        except grpc.RpcError as e:
            if finished.is_set():
                break
            err = from_rpc_error(e)
            if err.code in FATAL:
                raise err from None
            log(f"lobby stream ended ({err.code.name}); reconnecting")
        failures += 1
        if failures > 30:
            raise RefereeError(grpc.StatusCode.UNAVAILABLE,
                               "gave up reconnecting to the lobby")
        time.sleep(min(0.1 * 2 ** failures, 2))
    for t in threads:
        t.join()
