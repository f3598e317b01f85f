'use strict';
// The Bot shape and the loops that play it. Write a subclass of Bot with
// one method, choose(turn) -> move, and hand it to playSeat (a seat token:
// one game) or playLobby (a bot key: every game the referee offers the
// account). Both reconnect after a dropped stream or a referee restart and
// resume the game where it stands.

const grpc = require('@grpc/grpc-js');
const { v1 } = require('./api');
const { RefereeError, fromServiceError, CODE_NAMES } = require('./errors');
const { turnOf, RoundHistory } = require('./views');

const DEFAULT_ADDRESS = '127.0.0.1:50051';  // the referee's default port

// Refusals another attempt cannot change.
const FATAL = [grpc.status.UNAUTHENTICATED, grpc.status.PERMISSION_DENIED,
  grpc.status.NOT_FOUND, grpc.status.INVALID_ARGUMENT,
  grpc.status.UNIMPLEMENTED];

class Bot {
  // Returns the move to play: one of turn.legalMoves, or its notation. May
  // return a Promise. Called with the clock running.
  choose(turn) { throw new Error('Bot.choose is not implemented'); }
  gameStarted(started) {}
  moveRejected(turn, notation, reason) {}
  gameEnded(ended) {}
}

// A RefereeService client that reconnects within seconds after a referee
// restart (gRPC's own backoff grows to minutes).
function connect(address = DEFAULT_ADDRESS) {
  return new (v1().RefereeService)(address, grpc.credentials.createInsecure(),
    { 'grpc.max_reconnect_backoff_ms': 2000 });
}

// Wraps what choose() threw, so that playSeat tells it from a call's error.
class BotFailure {
  constructor(error) { this.error = error; }
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
const notationOf = (choice) =>
  (typeof choice === 'string' ? choice : choice.notation);

// Plays over one Play stream: resolves with GameEnded, or null if the
// stream ended first; rejects with the call's error.
function playStream(bot, client, token, mode, log) {
  return new Promise((resolve, reject) => {
    const metadata = new grpc.Metadata();
    metadata.add('authorization', `Bearer ${token}`);
    metadata.add('cassino-play-mode', mode);
    const call = client.Play(metadata);
    const history = new RoundHistory();
    let current = null;        // the last YourTurn, history completed
    let rejected = new Set();  // notations refused for current
    let pending = -1;          // the turn answered, verdict not yet received
    let ended = null;
    const answer = async () => {
      const t = current;
      let legal = t.legal_moves.filter((m) => !rejected.has(m.notation));
      if (legal.length === 0) legal = t.legal_moves;
      try {
        const notation = notationOf(await bot.choose(turnOf(t, legal)));
        pending = t.turn;
        call.write({ turn: t.turn, move: { notation } });
      } catch (err) {
        // The bot's own failure: not the stream's, so not retried.
        call.cancel();
        reject(new BotFailure(err));
      }
    };
    call.on('data', (response) => {
      switch (response.event) {
        case 'game_started':
          bot.gameStarted(response.game_started);
          break;
        case 'your_turn': {
          const t = response.your_turn;
          history.complete(t);
          if (t.turn === pending) break;  // our answer's verdict decides
          if (!current || current.turn !== t.turn) rejected = new Set();
          current = t;
          answer();
          break;
        }
        case 'verdict': {
          const v = response.verdict;
          if (v.turn === pending) pending = -1;
          if (v.accepted) break;
          bot.moveRejected(current ? turnOf(current) : null, v.move.notation,
            v.reason);
          log(`turn ${v.turn}: '${v.move.notation}' rejected ` +
            `(${v.error_reason || v.code}): ${v.reason}`);
          if (current && v.code === 'INVALID_ARGUMENT' && current.turn === v.turn) {
            rejected.add(v.move.notation);
            answer();
          } else {
            call.write({});  // stale: ask for the situation again
          }
          break;
        }
        case 'game_ended':
          ended = response.game_ended;
          bot.gameEnded(ended);
          call.end();
          break;
        default:  // move_played, round_ended
          break;
      }
    });
    call.on('error', (err) => (ended ? resolve(ended) : reject(err)));
    call.on('end', () => resolve(ended));
  });
}

// Plays the seat of `token` (a string, or a function giving the token for
// each attempt) to the end of its game; resolves with GameEnded. Retries
// what another attempt can fix for up to giveUpAfterMs without progress;
// rejects with a RefereeError at once for what it cannot.
async function playSeat(bot, token, {
  address = DEFAULT_ADDRESS, client = null, mode = 'compact',
  giveUpAfterMs = 60000, log = (text) => console.error(`cassino: ${text}`),
} = {}) {
  client = client || connect(address);
  const deadline = Date.now() + giveUpAfterMs;
  let lastError = null;
  for (let attempt = 1; Date.now() < deadline; attempt++) {
    try {
      const ended = await playStream(bot, client,
        typeof token === 'function' ? token() : token, mode, log);
      if (ended) return ended;
      lastError = null;
    } catch (err) {
      if (err instanceof BotFailure) throw err.error;
      const e = fromServiceError(err);
      if (FATAL.includes(e.code)) throw e;
      lastError = e;
      log(`stream ended (${CODE_NAMES[e.code]}); reconnecting`);
    }
    await sleep(Math.min(100 * 2 ** attempt, 2000));
  }
  throw lastError ||
    new RefereeError(grpc.status.DEADLINE_EXCEEDED, 'gave up reconnecting');
}

// Lobby mode: plays every seat offered to the account of `key`, each with
// its own makeBot(), until `games` games have ended (forever if 0). With
// `ladder` (and this bot's `version`) it joins that ladder
// (docs/ladder.md) and logs what the referee tells it.
async function playLobby(makeBot, key, {
  address = DEFAULT_ADDRESS, capacity = 1, games = 0, mode = 'compact',
  ladder = '', version = '',
  log = (text) => console.error(`cassino: ${text}`),
} = {}) {
  const client = connect(address);
  const metadata = new grpc.Metadata();
  metadata.add('authorization', `Bearer ${key}`);
  const tokens = new Map();
  const active = new Set();
  const done = new Set();
  const players = [];
  let call = null;
  let finished = false;
  const play = async (seatKey) => {
    try {
      await playSeat(makeBot(), () => tokens.get(seatKey), { client, mode, log });
      done.add(seatKey);
    } catch (err) {
      log(`game ${seatKey}: ${err.message}`);
    }
    active.delete(seatKey);
    if (games > 0 && done.size >= games) {
      finished = true;
      if (call) call.cancel();
    }
  };
  for (let failures = 0; !finished;) {
    const error = await new Promise((resolve) => {
      call = client.Lobby({ capacity, ladder, version }, metadata);
      call.on('data', (response) => {
        failures = 0;
        if (response.event === 'ladder') {
          const n = response.ladder;
          log(`ladder ${n.ladder} (version ${n.version}): ${n.state}` +
            (n.reason ? `: ${n.reason}` : ''));
          return;
        }
        if (response.event !== 'offer') return;
        const g = response.offer.game;
        const seatKey = `${g.game_id}/${g.seat}`;
        tokens.set(seatKey, response.offer.token);
        if (active.has(seatKey) || done.has(seatKey)) return;
        active.add(seatKey);
        players.push(play(seatKey));
      });
      call.on('error', resolve);
      call.on('end', () => resolve(null));
    });
    if (finished) break;
    if (error && FATAL.includes(error.code)) throw fromServiceError(error);
    log('lobby stream ended; reconnecting');
    if (++failures > 30) {
      throw new RefereeError(grpc.status.UNAVAILABLE,
        'gave up reconnecting to the lobby');
    }
    await sleep(Math.min(100 * 2 ** failures, 2000));
  }
  await Promise.all(players);
}

module.exports = { Bot, connect, playSeat, playLobby, DEFAULT_ADDRESS };
