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
//   node cassino_bot.js --address 127.0.0.1:50051 --token SEAT_TOKEN [--game ID]
//
// Lobby mode (a registered bot account): connect once with the bot key and
// play every game the referee offers, up to --capacity at once, each with
// the seat token that came with its offer:
//
//   node cassino_bot.js --address 127.0.0.1:50051 --lobby --key BOT_KEY \
//       [--capacity 4] [--games N]
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
    // The compact mode: three messages a move; the moves others played come
    // in your_turn.since_last (docs/referee.md, Play modes).
    metadata.add('cassino-play-mode', 'compact');
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

const FATAL = [grpc.status.UNAUTHENTICATED, grpc.status.PERMISSION_DENIED,
  grpc.status.NOT_FOUND, grpc.status.INVALID_ARGUMENT];
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

// Plays one seat to the end, reconnecting if the stream breaks. getToken()
// gives the token for each attempt (in lobby mode the lobby may offer a
// newer one). Resolves with GameEnded, or null after giving up.
async function playGame(client, getToken, gameId, lobby) {
  for (let attempt = 0; attempt < 10; attempt++) {
    let ended = null;
    try {
      ended = await playOnce(client, getToken());
    } catch (err) {
      // In lobby mode a refused token may be one the lobby replaced.
      if (FATAL.includes(err.code) &&
          !(lobby && err.code === grpc.status.UNAUTHENTICATED)) {
        console.error(`cassino_bot.js: ${err.message}`);
        return null;
      }
      console.error(`stream failed (${err.message}), retrying`);
    }
    if (ended) {
      const r = ended.result;
      console.log(`game ${gameId} ended: winner side ${r.winner} (${r.reason}) ` +
        `totals ${r.totals.join('-')}: ${r.detail}`);
      return ended;
    }
    await sleep(Math.min(200 * 2 ** attempt, 5000));
  }
  console.error(`cassino_bot.js: game ${gameId}: gave up reconnecting`);
  return null;
}

// Lobby mode: plays every offered seat concurrently. Resolves once
// maxGames games have ended (never if 0); exits on a refused key.
async function runLobby(client, key, capacity, maxGames) {
  const metadata = new grpc.Metadata();
  metadata.add('authorization', `Bearer ${key}`);
  const tokens = new Map();  // "game/seat" -> the newest seat token offered
  const active = new Set();
  const done = new Set();
  const players = [];
  let call = null;
  let finished = false;

  const play = async (seatKey, gameId) => {
    const ended = await playGame(client, () => tokens.get(seatKey), gameId, true);
    active.delete(seatKey);
    if (ended) done.add(seatKey);
    if (maxGames > 0 && done.size >= maxGames) {
      finished = true;
      if (call) call.cancel();
    }
  };

  for (let failures = 0; !finished;) {
    const status = await new Promise((resolve) => {
      call = client.Lobby({ capacity }, metadata);
      call.on('data', (response) => {
        failures = 0;
        if (response.event === 'welcome') {
          const w = response.welcome;
          console.error(`in the lobby as ${w.account}, capacity ${w.capacity}, ` +
            `${w.unfinished_seats} unfinished seat(s)`);
        } else if (response.event === 'offer') {
          const g = response.offer.game;
          const seatKey = `${g.game_id}/${g.seat}`;
          tokens.set(seatKey, response.offer.token);
          if (active.has(seatKey) || done.has(seatKey)) return;  // new token only
          active.add(seatKey);
          players.push(play(seatKey, g.game_id));
        }
      });
      call.on('error', (err) => resolve(err));
      call.on('end', () => resolve(null));
    });
    if (finished) break;
    if (status && FATAL.includes(status.code)) {
      console.error(`cassino_bot.js: lobby: ${status.message}`);
      process.exit(1);
    }
    console.error(`lobby stream ended (${status ? status.message : 'OK'}), reconnecting`);
    if (++failures > 10) {
      console.error('cassino_bot.js: lobby: gave up reconnecting');
      process.exit(1);
    }
    await sleep(Math.min(200 * 2 ** failures, 5000));
  }
  await Promise.all(players);
}

function parseArgs(argv) {
  const args = {
    address: process.env.CASSINO_ADDRESS || '127.0.0.1:50051',
    token: process.env.CASSINO_TOKEN || '',
    game: process.env.CASSINO_GAME || '',
    key: process.env.CASSINO_BOT_KEY || '',
    capacity: '1',
    games: '0',
    lobby: false,
  };
  const usage = () => {
    console.error('usage: node cassino_bot.js --address HOST:PORT ' +
      '(--token TOKEN [--game ID] | --lobby --key KEY [--capacity N] [--games N])');
    process.exit(2);
  };
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i].replace(/^--/, '');
    if (name === 'lobby') {
      args.lobby = true;
      continue;
    }
    if (!(name in args) || i + 1 >= argv.length) usage();
    args[name] = argv[++i];
  }
  return args;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const api = loadApi();
  // gRPC's own reconnection backoff grows to minutes; be back soon after a
  // referee restart.
  const client = new api.RefereeService(args.address, grpc.credentials.createInsecure(),
    { 'grpc.max_reconnect_backoff_ms': 5000 });
  if (args.lobby) {
    if (!args.key) {
      console.error('cassino_bot.js: --lobby needs --key (or $CASSINO_BOT_KEY)');
      process.exit(2);
    }
    await runLobby(client, args.key, Number(args.capacity), Number(args.games));
    client.close();
    return;
  }
  if (!args.token) {
    console.error('cassino_bot.js: --token (or $CASSINO_TOKEN) is required');
    process.exit(2);
  }
  const ended = await playGame(client, () => args.token, args.game, false);
  client.close();
  if (!ended) process.exit(1);
}

main();
