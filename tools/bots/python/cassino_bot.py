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
      --address 127.0.0.1:7000 --token SEAT_TOKEN [--game GAME_ID]

Needs python3-grpcio, python3-protobuf, protoc and /usr/bin/grpc_python_plugin
(all Debian packages). The Python stubs are generated from proto/ into
tools/bots/python/_gen on the first run.
"""

import argparse
import os
import queue
import shutil
import subprocess
import sys
import tempfile
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

    metadata = [("authorization", "Bearer " + token)]
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


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--address",
                        default=os.environ.get("CASSINO_ADDRESS", "127.0.0.1:7000"))
    parser.add_argument("--token", default=os.environ.get("CASSINO_TOKEN"))
    parser.add_argument("--game", default=os.environ.get("CASSINO_GAME"),
                        help="the game id (informational: the token names it)")
    args = parser.parse_args()
    if not args.token:
        parser.error("--token (or $CASSINO_TOKEN) is required")

    stub = pb_grpc.RefereeServiceStub(grpc.insecure_channel(args.address))
    for attempt in range(10):  # reconnect if the stream breaks
        try:
            game_id, ended = play_once(stub, args.token)
        except grpc.RpcError as e:
            if e.code() in (grpc.StatusCode.UNAUTHENTICATED,
                            grpc.StatusCode.PERMISSION_DENIED,
                            grpc.StatusCode.NOT_FOUND):
                sys.exit(f"cassino_bot.py: {e.code().name}: {e.details()}")
            print(f"stream failed ({e.code().name}), retrying", file=sys.stderr)
            game_id, ended = args.game, None
        if ended is not None:
            r = ended.result
            print(f"game {game_id} ended: winner side {r.winner} "
                  f"({r.reason}) totals {'-'.join(map(str, r.totals))}: "
                  f"{r.detail}")
            return
        time.sleep(min(0.2 * 2 ** attempt, 5))
    sys.exit("cassino_bot.py: gave up reconnecting")


if __name__ == "__main__":
    main()
