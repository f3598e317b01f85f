// A person plays a whole game against a bot in the browser (issue #26,
// part 1): headless Chromium (Debian's) driven by puppeteer-core clicks
// through /play/GAME of `cassino serve --referee`, against a real referee
// and the reference bot `cassino-bot --strategy greedy`. Each move is
// chosen by clicks only: the card played from the hand, then the table
// cards or builds of one of the moves offered; the test checks that every
// move offered is consistent with the selection and that the preview
// shows the move's notation before it is sent. One refused submission is
// sent on purpose and its verdict read in words. Afterwards the record
// verifies with `cassino verify`, marks seat 0 as human, and no snapshot
// of the page held a card of the bot's hand; the token never appears in a
// URL or the page. Then a challenge: /play creates a game against a bot
// account on its lobby (`--challenge`), the first move is played, and a
// second challenge beyond --max-challenges is refused.
//
// usage: node human_seat_test.mjs CASSINO CASSINO_REFEREE CASSINO_BOT
// Exits 77 (skipped) when Chromium or node_modules are missing.
// VIEWER_SCREENSHOTS=DIR also writes docs/images/viewer-seat.png there.

import {spawn, execFileSync} from 'node:child_process';
import {existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';
import assert from 'node:assert/strict';

const HERE = dirname(fileURLToPath(import.meta.url));
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const [cassino, referee, bot] = process.argv.slice(2);
if (!bot) {
  console.error('usage: node human_seat_test.mjs CASSINO CASSINO_REFEREE CASSINO_BOT');
  process.exit(2);
}
if (!existsSync(CHROMIUM) || !existsSync(join(HERE, 'node_modules', 'puppeteer-core'))) {
  console.log(`SKIPPED: needs ${CHROMIUM} and tests/viewer/node_modules (npm install)`);
  process.exit(77);
}
const {default: puppeteer} = await import('puppeteer-core');

const RANK = {A: 'A', T: '10', J: 'J', Q: 'Q', K: 'K'};
const SUIT = {S: '\u2660', H: '\u2665', D: '\u2666', C: '\u2663'};
const SUIT_NAME = {S: 'spades', H: 'hearts', D: 'diamonds', C: 'clubs'};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const children = [];
const tmp = mkdtempSync(join(tmpdir(), 'human-seat-'));
let browser = null;
const errors = [];

function showsCard(text, c) {
  const rank = RANK[c[0]] || c[0];
  return [
    new RegExp(`(^|[^A-Za-z0-9])${c}($|[^A-Za-z0-9])`),
    new RegExp(`(^|[^0-9A-Za-z])${rank}${SUIT[c[1]]}`),
    new RegExp(`${rank} of ${SUIT_NAME[c[1]]}`),
  ].some((re) => re.test(text));
}

async function waitFor(what, fn, ms = 30000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out waiting for ' + what);
    await sleep(50);
  }
}

// Starts `cmd` and resolves with the first match of `re` in its stdout.
function startAndRead(cmd, args, re) {
  const child = spawn(cmd, args, {stdio: ['ignore', 'pipe', 'inherit']});
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(re);
      if (m) resolve(m);
    });
    child.on('exit', (code) => reject(new Error(`${cmd} exited (${code}) before printing ${re}`)));
  });
}

// Plays one move by clicks: the first playable card, then the table cards
// of the move offered with the most of them; checks what is offered on the
// way and the preview before sending. Returns the move's notation.
async function playMove(page, moves) {
  // Click the first playable card; read the moves offered.
  const played = await page.$eval('#own-hand .playable', (e) => e.getAttribute('data-card'));
  await page.click(`#own-hand [data-card="${played}"]`);
  const offered = await page.$$eval('#seat-candidates button[data-table-cards]', (bs) => bs.map((b) => ({n: b.getAttribute('data-notation'), t: b.getAttribute('data-table-cards')})));
  assert.ok(offered.length > 0, 'no move offered for a playable card');
  for (const o of offered) assert.match(o.n, new RegExp(`(^| )${played}`), `offered ${o.n} after clicking ${played}`);
  // The move with the most table cards, chosen by clicking them.
  const pick = offered.reduce((a, b) => (b.t.split(' ').filter((x) => x).length > a.t.split(' ').filter((x) => x).length ? b : a));
  const cards = pick.t.split(' ').filter((x) => x);
  const clicked = new Set();
  for (const c of cards) {
    if (clicked.has(c)) continue;
    const loose = await page.$(`#seat-table .table-cards > svg[data-card="${c}"]`);
    if (loose) {
      await loose.click();
      clicked.add(c);
    } else {
      const build = await page.$$eval('#seat-table .build', (bs, x) => bs.findIndex((b) => b.getAttribute('data-cards').split(' ').includes(x)), c);
      assert.ok(build >= 0, `table card ${c} of ${pick.n} not on the table`);
      const cardsOfBuild = await page.$$eval('#seat-table .build', (bs, i) => bs[i].getAttribute('data-cards').split(' '), build);
      await (await page.$$('#seat-table .build'))[build].click();
      for (const x of cardsOfBuild) clicked.add(x);
    }
    // Every move still offered holds every card selected so far.
    const still = await page.$$eval('#seat-candidates button[data-table-cards]', (bs) => bs.map((b) => b.getAttribute('data-table-cards').split(' ')));
    for (const t of still) for (const x of clicked) assert.ok(t.includes(x), `a move offered lacks the selected ${x}`);
  }
  let preview = await page.$eval('#seat-preview', (e) => e.getAttribute('data-notation'));
  if (preview !== pick.n) {
    // Two moves use the same cards (a take and a build): pick it.
    await page.click(`#seat-candidates button[data-notation="${pick.n}"]`);
    preview = await page.$eval('#seat-preview', (e) => e.getAttribute('data-notation'));
  }
  assert.equal(preview, pick.n);
  assert.match(await page.$eval('#seat-preview code', (e) => e.textContent), new RegExp(`^${pick.n}$`));
  if (moves === 4 && process.env.VIEWER_SCREENSHOTS) {
    await page.screenshot({path: join(process.env.VIEWER_SCREENSHOTS, 'viewer-seat.png')});
  }
  await page.evaluate(() => document.getElementById('seat-verdict').removeAttribute('data-accepted'));
  await page.click('#seat-send');
  await waitFor('the verdict', () => page.evaluate(() => {
    const v = document.getElementById('seat-verdict');
    return v && !v.hidden && v.getAttribute('data-accepted') !== null && !document.querySelector('#seat-send:not([disabled])');
  }));
  const verdict = await page.$eval('#seat-verdict', (e) => ({ok: e.getAttribute('data-accepted'), text: e.textContent}));
  assert.equal(verdict.ok, '1', 'refused: ' + verdict.text);
  return pick.n;
}

async function main() {
  const db = join(tmp, 'games.db');
  const tokenFile = join(tmp, 'admin.token');
  writeFileSync(tokenFile, 'human-seat-test-admin-token\n');
  const portFile = join(tmp, 'port');
  children.push(spawn(referee, ['--db', db, '--listen', '127.0.0.1:0', '--port-file', portFile,
    '--admin-token-file', tokenFile], {stdio: ['ignore', 'ignore', 'inherit']}));
  const port = await waitFor('the referee', () => existsSync(portFile) && readFileSync(portFile, 'utf8').trim());
  const address = `127.0.0.1:${port}`;
  // A game to 5 points (one round), seat 0 a person's.
  const created = JSON.parse(execFileSync(cassino, ['game', 'create', '--address', address,
    '--admin-token-file', tokenFile, '--format', 'json', '--human', '0', '--rules', 'standard target=5',
    '--per-move-ms', '120000', 'person', 'greedy']).toString());
  const id = created.game_id;
  const token = created.tokens[0].token;
  children.push(spawn(bot, ['--address', address, '--token', created.tokens[1].token, '--strategy', 'greedy'],
    {stdio: ['ignore', 'ignore', 'inherit']}));
  // A bot account a person may challenge from /play, on its lobby.
  const registered = JSON.parse(execFileSync(cassino, ['bot', 'register', 'lobby-greedy', '--address', address,
    '--admin-token-file', tokenFile, '--format', 'json']).toString());
  children.push(spawn(bot, ['--address', address, '--lobby', '--key', registered.key, '--strategy', 'greedy'],
    {stdio: ['ignore', 'ignore', 'inherit']}));
  const [base] = await startAndRead(cassino, ['serve', db, '--listen', '127.0.0.1:0', '--referee', address,
    '--challenge', 'lobby-greedy', '--admin-token-file', tokenFile, '--challenge-rules', 'standard target=5',
    '--max-challenges', '1'], /http:\/\/[^\s]+\//);

  browser = await puppeteer.launch({
    executablePath: CHROMIUM, headless: true, protocolTimeout: 120000,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  const page = await browser.newPage();
  await page.setViewport({width: 1280, height: 900});
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error' && !/409|Conflict/.test(m.text())) errors.push(m.text()); });
  const urls = [];
  page.on('request', (r) => urls.push(r.url()));

  // The plain viewer's pages stay read-only: no seat call without a token.
  assert.equal((await fetch(base + 'api/seat')).status, 401);
  assert.equal((await fetch(base + 'api/games', {method: 'POST', body: 'x'})).status >= 400, true);

  await page.goto(base + 'play/' + encodeURIComponent(id));
  await page.waitForSelector('#seat-token');
  await page.type('#seat-token', token);
  await page.click('#take-seat');
  await page.waitForSelector('#seat-board:not([hidden])');
  assert.equal(await page.$eval('#seat-login', (e) => getComputedStyle(e).display), 'none');

  const snapshots = [];
  let moves = 0;
  let refusedShown = false;
  for (let guard = 0; guard < 400; guard++) {
    const where = await waitFor('my turn or the end', () => page.evaluate(() => {
      const result = document.getElementById('seat-result');
      if (result && !result.hidden) return 'over';
      const board = document.getElementById('seat-board');
      return board && board.getAttribute('data-your-turn') === '1' && document.querySelector('#own-hand .playable') ? 'turn' : null;
    }), 60000);
    if (where === 'over') break;
    const turn = +(await page.$eval('#seat-board', (e) => e.getAttribute('data-turn')));
    snapshots.push({turn, html: await page.evaluate(() => document.documentElement.outerHTML)});
    if (!refusedShown) {
      // One refused submission on purpose, through the relay, then its
      // verdict in words on the page after a real one.
      const r = await page.evaluate(async (t) => {
        const res = await fetch('/api/seat/move', {method: 'POST', headers: {'Content-Type': 'application/json',
          Authorization: 'Bearer ' + sessionStorage.getItem(Object.keys(sessionStorage)[0])}, body: JSON.stringify({turn: t, notation: 'trail ZZ'})});
        return {status: res.status, body: await res.json()};
      }, turn);
      assert.equal(r.status, 409);
      assert.equal(r.body.accepted, false);
      assert.match(r.body.error, /not a card/);
      assert.equal(r.body.reason, 'MALFORMED_MOVE');
      refusedShown = true;
    }
    await playMove(page, moves);
    moves++;
    await waitFor('the next turn', () => page.evaluate((t) => {
      const b = document.getElementById('seat-board');
      const r = document.getElementById('seat-result');
      return (r && !r.hidden) || (b && +b.getAttribute('data-turn') !== t);
    }, turn));
  }
  const outcome = await page.$eval('#seat-outcome', (e) => e.textContent);
  console.log(`played ${moves} moves by clicks; the page says: ${outcome}`);
  assert.ok(moves >= 10, 'the game was too short to count: ' + moves);
  if (process.env.VIEWER_SCREENSHOTS) {
    await page.screenshot({path: join(process.env.VIEWER_SCREENSHOTS, 'viewer-seat-end.png')});
  }

  // The record: verifies, and marks seat 0 as a person's.
  const verify = execFileSync(cassino, ['verify', db]).toString();
  assert.match(verify, /verified 1 games?: 1 ok, 0 failed/);
  const game = await (await fetch(base + 'api/games/' + encodeURIComponent(id))).json();
  assert.equal(game.status, 'finished');
  assert.equal(game.seats[0].human, true);
  assert.equal(game.seats[1].human, undefined);
  assert.equal(game.view, 'omniscient');
  console.log('record: verifies; seat 0 marked human');

  // Nothing the seat may not see: no snapshot shows a card of the bot's
  // hand at that turn.
  for (const s of snapshots) {
    const hidden = game.positions[s.turn].hands[1];
    const html = s.html.split(game.rules).join('');
    for (const c of hidden) assert.ok(!showsCard(html, c), `turn ${s.turn}: the bot's ${c} on the page`);
  }
  console.log(`hidden cards: none of the bot's in ${snapshots.length} snapshots`);

  // A challenge from /play: the organiser allows lobby-greedy. The game is
  // created with the person marked human and the bot through its lobby.
  await page.goto(base + 'play');
  await page.waitForSelector('#challenge-form');
  await page.type('#challenge-name', 'Ada');
  await page.select('#challenge-bot', 'lobby-greedy');
  await Promise.all([page.waitForNavigation(), page.click('#challenge-start')]);
  const challenged = decodeURIComponent(new URL(page.url()).pathname.split('/')[2]);
  await waitFor('the challenge\'s first turn', () => page.evaluate(() => {
    const b = document.getElementById('seat-board');
    return b && b.getAttribute('data-your-turn') === '1' && document.querySelector('#own-hand .playable');
  }));
  const first = await playMove(page, -1);
  const c = await (await fetch(base + 'api/games/' + encodeURIComponent(challenged))).json();
  assert.equal(c.seats[0].bot, 'Ada');
  assert.equal(c.seats[0].human, true);
  assert.equal(c.seats[1].account, 'lobby-greedy');
  assert.equal(c.label, 'challenges');
  assert.equal(c.positions[1].move.text, first);
  // --max-challenges 1: a second one while it runs is refused in words.
  const again = await fetch(base + 'api/challenge', {method: 'POST', body: JSON.stringify({name: 'Bob', bot: 'lobby-greedy'})});
  assert.equal(again.status, 429);
  assert.match((await again.json()).error, /1 challenges are running/);
  console.log(`challenge: game ${challenged} against lobby-greedy, first move ${first} by clicks; a second refused`);

  // The token: in no URL, not in the page.
  for (const u of urls) assert.ok(!u.includes(token), 'the token in a URL: ' + u);
  assert.ok(!(await page.evaluate(() => document.documentElement.outerHTML)).includes(token));
  assert.deepEqual(errors, [], 'errors in the page');
}

try {
  await main();
  console.log('PASS');
} catch (e) {
  console.error('FAIL:', e && e.stack ? e.stack : e);
  if (errors.length) console.error('page errors:', errors.join('\n'));
  process.exitCode = 1;
} finally {
  if (browser) await browser.close();
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  await sleep(200);
  rmSync(tmp, {recursive: true, force: true});
}
