#!/usr/bin/python3
"""A minimal Cassino bot: copy it and replace choose() with your own policy.

It plays one seat over the referee's Play stream:

  referee -> GameStarted          (first, on every connection)
  referee -> YourTurn             (whenever it is our turn: the observation,
                                   every legal move, the turn number)
  bot     -> PlayRequest          (the turn number and one move)
  referee -> MoveVerdict          (accepted, or rejected with a reason)
  referee -> MovePlayed / RoundResult / GameEnded (then the stream closes)

Policy: the capture that takes the most table cards, else the first legal
move that is not a call-out.

Run (Debian's grpc lives in /usr/bin/python3, not in other interpreters):

  /usr/bin/python3 tools/bots/python/cassino_bot.py \
      --address 127.0.0.1:50051 --token SEAT_TOKEN [--game GAME_ID]

Lobby mode (a registered bot account): connect once with the bot key and
play every game the referee offers, up to --capacity at once, each on its
own thread with the seat token that came with the offer:

  /usr/bin/python3 tools/bots/python/cassino_bot.py \
      --address 127.0.0.1:50051 --lobby --key BOT_KEY [--capacity 4] [--games N]

`kill -USR1 <pid>` prints every thread's stack to stderr and the bot goes
on: how to see where a bot that does not exit is waiting.

Needs python3-grpcio, python3-protobuf, protoc and /usr/bin/grpc_python_plugin
(all Debian packages). The Python stubs are generated from proto/ into
tools/bots/python/_gen on the first run.
"""

import argparse
import faulthandler
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PROTO_DIR = os.path.join(HERE, "..", "..", "..", "proto")
GEN_DIR = os.path.join(HERE, "_gen")


def generate_stubs():
    """Compiles the .proto files into GEN_DIR unless they are up to date."""
    protos = [os.path.join(PROTO_DIR, "cassino", "v1", name)
              for name in ("game.proto", "referee_service.proto")]
    stamp = os.path.join(GEN_DIR, "cassino", "v1",
                         "referee_service_pb2_grpc.py")
    if os.path.exists(stamp) and any(
            os.path.getmtime(p) > os.path.getmtime(stamp) for p in protos):
        shutil.rmtree(GEN_DIR, ignore_errors=True)  # stale: regenerate
    if not os.path.exists(stamp):
        # Generate into a temporary folder first so that two bots starting
        # at once never see half-written files.
        tmp = tempfile.mkdtemp(prefix="_gen.", dir=HERE)
        subprocess.run(
            ["protoc", "--proto_path=" + PROTO_DIR, "--python_out=" + tmp,
             "--plugin=protoc-gen-grpc_python=/usr/bin/grpc_python_plugin",
             "--grpc_python_out=" + tmp] + protos,
            check=True)
        try:
            os.rename(tmp, GEN_DIR)
        except OSError:  # another bot got there first
            shutil.rmtree(tmp, ignore_errors=True)
    sys.path.insert(0, GEN_DIR)


generate_stubs()
import grpc  # noqa: E402  (Debian's python3-grpcio)
from cassino.v1 import game_pb2  # noqa: E402
from cassino.v1 import referee_service_pb2 as pb  # noqa: E402
from cassino.v1 import referee_service_pb2_grpc as pb_grpc  # noqa: E402


def choose(your_turn, rejected):
    """Returns the move to play: a Move message from your_turn.legal_moves.

    your_turn.observation holds the hand, the table (loose cards and builds)
    and the public history; `rejected` lists notations the referee already
    refused for this turn (should never happen with legal_moves).
    """
    moves = [m for m in your_turn.legal_moves
             if m.notation not in rejected
             and m.kind != game_pb2.MOVE_KIND_CALL_OUT]
    if not moves:  # only a call-out left (or everything was refused)
        moves = list(your_turn.legal_moves)
    captures = [m for m in moves if m.kind == game_pb2.MOVE_KIND_CAPTURE]
    if captures:
        return max(captures, key=lambda m: len(m.table_cards))
    return moves[0]


def play_once(stub, token):
    """Plays over one Play stream.

    Returns (game id, GameEnded), or (game id, None) if the stream ended
    before the game did.
    """
    outbox = queue.Queue()  # PlayRequests to send; None closes our side

    def requests():
        while True:
            request = outbox.get()
            if request is None:
                return
            yield request

    # The compact mode: three messages a move; the moves others played come
    # in YourTurn.since_last (docs/referee.md, Play modes).
    metadata = [("authorization", "Bearer " + token),
                ("cassino-play-mode", "compact")]
    game_id = ""
    turn = None       # the last YourTurn
    rejected = set()  # moves refused for that turn
    for response in stub.Play(requests(), metadata=metadata):
        event = response.WhichOneof("event")
        if event == "game_started":
            started = response.game_started
            game_id = started.game_id
            print(f"game {started.game_id}: seat {started.seat}, "
                  f"rules: {started.rules}", file=sys.stderr)
        elif event == "your_turn":
            if turn is None or turn.turn != response.your_turn.turn:
                rejected = set()
            turn = response.your_turn
            move = choose(turn, rejected)
            outbox.put(pb.PlayRequest(turn=turn.turn,
                                      move=game_pb2.Move(notation=move.notation)))
        elif event == "verdict" and not response.verdict.accepted:
            verdict = response.verdict
            print(f"rejected {verdict.move.notation}: {verdict.reason}",
                  file=sys.stderr)
            if turn is not None and verdict.code == "INVALID_ARGUMENT":
                rejected.add(verdict.move.notation)
                move = choose(turn, rejected)
                outbox.put(pb.PlayRequest(
                    turn=turn.turn, move=game_pb2.Move(notation=move.notation)))
            else:  # stale: ask the referee to resend the situation
                outbox.put(pb.PlayRequest())
        elif event == "game_ended":
            outbox.put(None)
            return game_id, response.game_ended
    outbox.put(None)
    return game_id, None


FATAL = (grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.PERMISSION_DENIED,
         grpc.StatusCode.NOT_FOUND, grpc.StatusCode.INVALID_ARGUMENT)


def play_game(stub, get_token, game_id, lobby=False):
    """Plays one seat to the end, reconnecting if the stream breaks.

    get_token() gives the seat token for each attempt (in lobby mode the
    lobby may offer a newer one). Returns GameEnded, or None after giving up
    (the reason is printed).
    """
    for attempt in range(10):
        try:
            started_id, ended = play_once(stub, get_token())
            game_id = started_id or game_id
        except grpc.RpcError as e:
            # In lobby mode a refused token may be one the lobby replaced:
            # the next attempt uses the newest.
            if e.code() in FATAL and not (
                    lobby and e.code() == grpc.StatusCode.UNAUTHENTICATED):
                print(f"cassino_bot.py: {e.code().name}: {e.details()}",
                      file=sys.stderr)
                return None
            print(f"stream failed ({e.code().name}), retrying",
                  file=sys.stderr)
            ended = None
        if ended is not None:
            r = ended.result
            print(f"game {game_id} ended: winner side {r.winner} "
                  f"({r.reason}) totals {'-'.join(map(str, r.totals))}: "
                  f"{r.detail}", flush=True)
            return ended
        time.sleep(min(0.2 * 2 ** attempt, 5))
    print(f"cassino_bot.py: game {game_id}: gave up reconnecting",
          file=sys.stderr)
    return None


def run_lobby(stub, key, capacity, max_games):
    """Lobby mode: plays every offered seat on its own thread.

    Returns after max_games games have ended (never if 0); exits on a key
    the referee refuses.
    """
    metadata = [("authorization", "Bearer " + key)]
    lock = threading.Lock()
    tokens = {}      # (game id, seat) -> the newest seat token offered
    active = set()   # seats being played
    done = set()     # seats whose game ended
    threads = []
    finished = threading.Event()
    current = [None]  # the open Lobby call

    def player(seat_key):
        ended = play_game(stub, lambda: tokens[seat_key], seat_key[0],
                          lobby=True)
        with lock:
            active.discard(seat_key)
            if ended is not None:
                done.add(seat_key)
            if max_games and len(done) >= max_games:
                finished.set()
                if current[0] is not None:
                    current[0].cancel()

    failures = 0
    while not finished.is_set():
        call = stub.Lobby(pb.LobbyRequest(capacity=capacity),
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
                event = response.WhichOneof("event")
                if event == "welcome":
                    w = response.welcome
                    print(f"in the lobby as {w.account}, capacity "
                          f"{w.capacity}, {w.unfinished_seats} unfinished "
                          f"seat(s)", file=sys.stderr)
                elif event == "offer":
                    game = response.offer.game
                    seat_key = (game.game_id, game.seat)
                    with lock:
                        tokens[seat_key] = response.offer.token
                        if seat_key in active or seat_key in done:
                            continue  # the player picks the new token up
                        active.add(seat_key)
                    t = threading.Thread(target=player, args=(seat_key,))
                    t.start()
                    threads.append(t)
        except grpc.RpcError as e:
            if finished.is_set():
                break
            if e.code() in FATAL:
                sys.exit(f"cassino_bot.py: lobby: {e.code().name}: "
                         f"{e.details()}")
            print(f"lobby stream failed ({e.code().name}), reconnecting",
                  file=sys.stderr)
        failures += 1
        if failures > 10:
            sys.exit("cassino_bot.py: lobby: gave up reconnecting")
        time.sleep(min(0.2 * 2 ** failures, 5))
    for t in threads:
        t.join()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--address",
                        default=os.environ.get("CASSINO_ADDRESS", "127.0.0.1:50051"))
    parser.add_argument("--token", default=os.environ.get("CASSINO_TOKEN"))
    parser.add_argument("--game", default=os.environ.get("CASSINO_GAME"),
                        help="the game id (informational: the token names it)")
    parser.add_argument("--lobby", action="store_true",
                        help="lobby mode: play every game offered to the bot "
                             "account of --key")
    parser.add_argument("--key", default=os.environ.get("CASSINO_BOT_KEY"),
                        help="the bot key (lobby mode; or $CASSINO_BOT_KEY)")
    parser.add_argument("--capacity", type=int, default=1,
                        help="lobby mode: games played at once")
    parser.add_argument("--games", type=int, default=0,
                        help="lobby mode: exit after this many games ended "
                             "(0: never)")
    args = parser.parse_args()
    if hasattr(signal, "SIGUSR1"):  # every thread's stack on kill -USR1
        faulthandler.register(signal.SIGUSR1, all_threads=True)

    # gRPC's own reconnection backoff grows to minutes; be back soon after a
    # referee restart.
    channel = grpc.insecure_channel(
        args.address, options=[("grpc.max_reconnect_backoff_ms", 5000)])
    stub = pb_grpc.RefereeServiceStub(channel)
    if args.lobby:
        if not args.key:
            parser.error("--lobby needs --key (or $CASSINO_BOT_KEY)")
        run_lobby(stub, args.key, args.capacity, args.games)
        return
    if not args.token:
        parser.error("--token (or $CASSINO_TOKEN) is required")
    if play_game(stub, lambda: args.token, args.game) is None:
        sys.exit(1)


if __name__ == "__main__":
    main()
