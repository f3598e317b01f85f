'use strict';
// The Node SDK (sdk/node) installed as a user installs it, playing against
// a real referee:
//
//   node sdk_test.js REFEREE_BIN CASSINO_BIN
//
// `npm install`s the package into a fresh project (offline: npm links the
// folder, whose own node_modules scripts/lib.sh installed), then plays a
// two-player game of two SDK bots, one seat in each Play mode, restarting
// the referee (SIGKILL, same database) in the middle; both bots must see
// every turn's whole round history, finish, and agree on the result, which
// `cassino verify` re-adjudicates. A malformed move and a bad token must
// read as RefereeErrors with their details. Two bots in ladder mode
// (playLobby with ladder and version) must be told they joined and be
// rated as ACCOUNT@VERSION, as `cassino stats --ladder` agrees. Exits 77 (skipped) without
// sdk/node/node_modules. With $CASSINO_ENGINE_NODE (the forward model's
// addon) each bot also reads every turn into the forward model
// (engine.Observation.fromTurn) and checks its legal moves and a sample.

const assert = require('assert');
const { spawn, execFileSync, spawnSync } = require('child_process');
const fs = require('fs');
const net = require('net');
const os = require('os');
const path = require('path');

const REPO = path.resolve(__dirname, '..', '..', '..');
const [REFEREE, CASSINO] = process.argv.slice(2);
const ADMIN = 'sdk-test-admin-token';

if (!fs.existsSync(path.join(REPO, 'sdk', 'node', 'node_modules'))) {
  console.error('skipped: sdk/node/node_modules is missing (npm install there)');
  process.exit(77);
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cassino-node-sdk-'));
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

function freePort() {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

// The referees started, stopped if the test fails (they would outlive it).
const referees = new Set();

async function startReferee(db, port) {
  const log = fs.openSync(`${db}.log`, 'a');
  const proc = spawn(REFEREE, ['--listen', `127.0.0.1:${port}`, '--db', db], {
    env: { ...process.env, CASSINO_ADMIN_TOKEN: ADMIN },
    stdio: ['ignore', 'ignore', log],
  });
  referees.add(proc);
  proc.on('exit', () => referees.delete(proc));
  for (let i = 0; i < 400; i++) {
    const up = await new Promise((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => { s.end(); resolve(true); });
      s.on('error', () => resolve(false));
    });
    if (up) return proc;
    await sleep(50);
  }
  proc.kill('SIGKILL');
  throw new Error(`the referee did not start: ${fs.readFileSync(`${db}.log`)}`);
}

const stopped = (proc) => new Promise((resolve) => {
  if (proc.exitCode !== null || proc.signalCode !== null) resolve();
  else proc.on('exit', resolve);
});

async function main() {
  // Installed as the README says.
  execFileSync('npm', ['init', '-y'], { cwd: tmp, stdio: 'ignore' });
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund',
    '--silent', path.join(REPO, 'sdk', 'node')], { cwd: tmp, stdio: 'inherit' });
  const cassino = require(path.join(tmp, 'node_modules', 'cassino-sdk'));
  const grpc = require(path.join(REPO, 'sdk', 'node', 'node_modules', '@grpc', 'grpc-js'));
  // The forward model, when the addon was built (CMake sets the variable).
  const engine = process.env.CASSINO_ENGINE_NODE ? cassino.engine : null;

  const db = path.join(tmp, 'game.db');
  const port = await freePort();
  let referee = await startReferee(db, port);
  const address = `127.0.0.1:${port}`;
  const client = cassino.connect(address);
  const admin = new grpc.Metadata();
  admin.add('authorization', `Bearer ${ADMIN}`);
  const call = (method, request, metadata) => new Promise((resolve, reject) =>
    client[method](request, metadata, (err, response) =>
      (err ? reject(err) : resolve(response))));

  // 1. Two bots, one per mode, through a restart.
  const game = await call('CreateGame', { rules: 'standard', seed: '7'.repeat(64),
    seats: [{ bot_name: 'node-a' }, { bot_name: 'node-b' }] }, admin);
  let restarted = false;
  const logs = [];
  class Checking extends cassino.Bot {
    constructor(token) { super(); this.token = token; this.turns = 0; }
    async choose(turn) {
      // The history the SDK gives is the one GetTurn (always whole) shows.
      const md = new grpc.Metadata();
      md.add('authorization', `Bearer ${this.token}`);
      const whole = await call('GetTurn', {}, md);
      assert.deepStrictEqual(turn.history.map((m) => m.proto),
        whole.turn.observation.round_history, `turn ${turn.turn}`);
      this.longest = Math.max(this.longest || 0, turn.history.length);
      if (engine) {
        // The forward model reads the referee's own turn (both Play
        // modes): the same legal moves, and a sample that shows the seat
        // what it saw.
        const seen = engine.Observation.fromTurn(turn);
        const listed = turn.legalMoves.map((m) => m.notation);
        assert.deepStrictEqual(seen.legalMoves().map((m) => m.notation), listed);
        const sampled = seen.sample(turn.turn);
        assert(sampled.observe(turn.seat).equals(seen), `turn ${turn.turn}`);
        assert.deepStrictEqual(sampled.legalMoves().map((m) => m.notation), listed);
        this.sampled = (this.sampled || 0) + 1;
      }
      this.turns++;
      if (this.turns === 20 && turn.seat === 0 && !restarted) {
        restarted = true;
        referee.kill('SIGKILL');
        await stopped(referee);
        referee = await startReferee(db, port);
      }
      const captures = turn.legalMoves.filter((m) => m.kind === 'capture');
      return captures.length
        ? captures.reduce((a, b) => (b.tableCards.length > a.tableCards.length ? b : a))
        : turn.legalMoves[0];
    }
  }
  const bots = [new Checking(game.tokens[0].token),
    new Checking(game.tokens[1].token)];
  const log = (text) => logs.push(text);
  const results = await Promise.all([
    cassino.playSeat(bots[0], game.tokens[0].token, { client, mode: 'compact', log }),
    cassino.playSeat(bots[1], game.tokens[1].token, { client, mode: 'full', log }),
  ]);
  assert(restarted, 'the game ended before the restart');
  assert.deepStrictEqual(results[0].result, results[1].result);
  assert.strictEqual(results[0].result.reason, 'target');
  assert(bots[0].turns + bots[1].turns > 48, 'more than a round');
  // Seat 0 (compact) saw its history grow through the round: a 2-player
  // round is 48 moves, the seat's last turn of it sees 46 or 47.
  assert(bots[0].longest >= 46, `longest history ${bots[0].longest}`);
  assert(logs.some((l) => l.includes('reconnecting')), logs.join('\n'));
  if (engine) assert.strictEqual(bots[0].sampled + bots[1].sampled, bots[0].turns + bots[1].turns);

  // 2. Errors with their details.
  const other = await call('CreateGame', { rules: 'standard',
    seats: [{ bot_name: 'a' }, { bot_name: 'b' }] }, admin);
  const seat = new grpc.Metadata();
  seat.add('authorization', `Bearer ${other.tokens[0].token}`);
  const refused = await call('SubmitMove', { turn: 0, move: { notation: 'take XX' } },
    seat).then(() => null, (err) => cassino.fromServiceError(err));
  assert(refused instanceof cassino.RefereeError);
  assert.strictEqual(refused.codeName, 'INVALID_ARGUMENT');
  assert.strictEqual(refused.reason, 'MALFORMED_MOVE');
  assert.deepStrictEqual(refused.fieldViolations.map((v) => v.field), ['move.notation']);
  const badToken = await cassino.playSeat(new cassino.Bot(), 'not-a-token',
    { client, log }).then(() => null, (err) => err);
  assert(badToken instanceof cassino.RefereeError, String(badToken));
  assert.strictEqual(badToken.codeName, 'UNAUTHENTICATED');
  assert.strictEqual(badToken.reason, 'UNKNOWN_TOKEN');

  // 3. Ladder mode: two bots join a ladder with a version through
  // playLobby, are told so, and are rated as ACCOUNT@VERSION, as
  // `cassino stats --ladder` recomputes from the records.
  const env = { ...process.env, CASSINO_ADMIN_TOKEN: ADMIN, CASSINO_ADDRESS: address };
  const cli = (...args) => execFileSync(CASSINO, args, { env, encoding: 'utf8' });
  const keys = {};
  for (const account of ['nodea', 'nodeb']) {
    keys[account] = JSON.parse(cli('bot', 'register', account, '--format', 'json')).key;
  }
  cli('ladder', 'create', 'lad', '--per-move-ms', '5000');
  class First extends cassino.Bot {
    choose(turn) { return turn.legalMoves[0]; }
  }
  const told = [];
  await Promise.all(Object.entries(keys).map(([account, key]) =>
    cassino.playLobby(() => new First(), key, { address, games: 2, ladder: 'lad',
      version: 'sdk1', log: (text) => told.push(`${account} ${text}`) })));
  for (const account of Object.keys(keys)) {
    assert(told.includes(`${account} ladder lad (version sdk1): STATE_ACTIVE`),
      told.join('\n'));
  }
  cli('ladder', 'pause', 'lad', '--reason', 'test over');
  for (let i = 0; i < 300; i++) {  // its running games play out and are rated
    const shown = JSON.parse(cli('ladder', 'show', 'lad', '--format', 'json')).ladder;
    if (shown.games_running === 0 && shown.games_unrated === 0) break;
    await sleep(100);
  }
  const board = JSON.parse(cli('ladder', 'leaderboard', 'lad', '--format', 'json')).entries;
  assert.deepStrictEqual(board.map((e) => e.bot).sort(), ['nodea@sdk1', 'nodeb@sdk1']);
  assert(board[0].games >= 2, JSON.stringify(board));
  assert.strictEqual(board[0].games, board[1].games);
  const stats = JSON.parse(execFileSync(CASSINO, ['stats', db, '--ladder', 'lad',
    '--format', 'json'], { encoding: 'utf8' })).leaderboard;
  const key = (e) => [e.bot, e.mu, e.sigma, e.games];
  assert.deepStrictEqual(stats.map(key), board.map(key));

  client.close();
  referee.kill('SIGTERM');
  await stopped(referee);
  const verify = spawnSync(CASSINO, ['verify', '--quiet', db], { encoding: 'utf8' });
  assert.strictEqual(verify.status, 0, verify.stdout + verify.stderr);
  console.log(`ok: ${bots[0].turns + bots[1].turns} turns across a restart; ` +
    'errors decoded; a ladder rated the versions; the records verify');
}

main().then(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
  process.exit(0);
}, (err) => {
  console.error(err);
  for (const proc of referees) proc.kill('SIGKILL');
  process.exit(1);
});
