#!/usr/bin/env node
// A minimal Cassino bot: copy it and replace choose() with your own policy.
//
// It plays one seat over the referee's Play stream:
//
//   referee -> GameStarted   (first, on every connection)
//   referee -> YourTurn      (our turn: observation, legal moves, turn number)
//   bot     -> PlayRequest   (the turn number and one move)
//   referee -> MoveVerdict   (accepted, or rejected with a reason)
//   referee -> MovePlayed / RoundResult / GameEnded (then the stream closes)
//
// Policy: the capture that takes the most table cards, else the first legal
// move that is not a call-out.
//
//   npm install            # once, in this folder
//   node cassino_bot.js --address 127.0.0.1:7000 --token SEAT_TOKEN [--game ID]
//
// The .proto files are loaded at run time from ../../../proto.

'use strict';

const path = require('path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');

const PROTO_DIR = path.join(__dirname, '..', '..', '..', 'proto');

function loadApi() {
  const definition = protoLoader.loadSync(
    path.join(PROTO_DIR, 'cassino', 'v1', 'referee_service.proto'), {
      includeDirs: [PROTO_DIR],
      keepCase: true,   // field names as in the .proto (legal_moves, ...)
      enums: String,    // enum values as names ('MOVE_KIND_CAPTURE')
      longs: Number,
      defaults: true,   // unset fields read as 0 / '' / []
      oneofs: true,     // response.event names the oneof case
    });
  return grpc.loadPackageDefinition(definition).cassino.v1;
}

// Returns the move to play, one of yourTurn.legal_moves. `rejected` holds
// the notations the referee already refused for this turn.
function choose(yourTurn, rejected) {
  let moves = yourTurn.legal_moves.filter(
    (m) => !rejected.has(m.notation) && m.kind !== 'MOVE_KIND_CALL_OUT');
  if (moves.length === 0) moves = yourTurn.legal_moves;
  const captures = moves.filter((m) => m.kind === 'MOVE_KIND_CAPTURE');
  if (captures.length > 0) {
    return captures.reduce(
      (best, m) => (m.table_cards.length > best.table_cards.length ? m : best));
  }
  return moves[0];
}

// Plays over one Play stream. Resolves with GameEnded, or null if the
// stream ended before the game did; rejects on a gRPC error.
function playOnce(client, token) {
  return new Promise((resolve, reject) => {
    const metadata = new grpc.Metadata();
    metadata.add('authorization', `Bearer ${token}`);
    const call = client.Play(metadata);
    let turn = null;           // the last YourTurn
    let rejected = new Set();  // moves refused for that turn
    let ended = null;
    const send = (move) =>
      call.write({ turn: turn.turn, move: { notation: move.notation } });

    call.on('data', (response) => {
      switch (response.event) {
        case 'game_started': {
          const g = response.game_started;
          console.error(`game ${g.game_id}: seat ${g.seat}, rules: ${g.rules}`);
          break;
        }
        case 'your_turn':
          if (!turn || turn.turn !== response.your_turn.turn) rejected = new Set();
          turn = response.your_turn;
          send(choose(turn, rejected));
          break;
        case 'verdict': {
          const v = response.verdict;
          if (v.accepted) break;
          console.error(`rejected ${v.move.notation}: ${v.reason}`);
          if (turn && v.code === 'INVALID_ARGUMENT') {
            rejected.add(v.move.notation);
            send(choose(turn, rejected));
          } else {
            call.write({});  // stale: ask the referee to resend the situation
          }
          break;
        }
        case 'game_ended':
          ended = response.game_ended;
          call.end();
          break;
        default:  // move_played, round_ended: nothing to do
          break;
      }
    });
    call.on('error', (err) => (ended ? resolve(ended) : reject(err)));
    call.on('end', () => resolve(ended));
  });
}

function parseArgs(argv) {
  const args = {
    address: process.env.CASSINO_ADDRESS || '127.0.0.1:7000',
    token: process.env.CASSINO_TOKEN || '',
    game: process.env.CASSINO_GAME || '',
  };
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i].replace(/^--/, '');
    if (!(name in args) || i + 1 >= argv.length) {
      console.error('usage: node cassino_bot.js --address HOST:PORT --token TOKEN [--game ID]');
      process.exit(2);
    }
    args[name] = argv[i + 1];
  }
  return args;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (!args.token) {
    console.error('cassino_bot.js: --token (or $CASSINO_TOKEN) is required');
    process.exit(2);
  }
  const api = loadApi();
  const client = new api.RefereeService(args.address, grpc.credentials.createInsecure());
  const fatal = [grpc.status.UNAUTHENTICATED, grpc.status.PERMISSION_DENIED,
    grpc.status.NOT_FOUND];
  for (let attempt = 0; attempt < 10; attempt++) {  // reconnect if the stream breaks
    let ended = null;
    try {
      ended = await playOnce(client, args.token);
    } catch (err) {
      if (fatal.includes(err.code)) {
        console.error(`cassino_bot.js: ${err.message}`);
        process.exit(1);
      }
      console.error(`stream failed (${err.message}), retrying`);
    }
    if (ended) {
      const r = ended.result;
      console.log(`game ${args.game} ended: winner side ${r.winner} (${r.reason}) ` +
        `totals ${r.totals.join('-')}: ${r.detail}`);
      client.close();
      return;
    }
    await new Promise((done) => setTimeout(done, Math.min(200 * 2 ** attempt, 5000)));
  }
  console.error('cassino_bot.js: gave up reconnecting');
  process.exit(1);
}

main();
