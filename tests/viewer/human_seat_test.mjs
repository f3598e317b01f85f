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

import {execFileSync} from 'node:child_process';
import {join} from 'node:path';
import assert from 'node:assert/strict';
import {BrowserRun, argsOrSkip, showsCard, waitFor} from './harness.mjs';

const [cassino, referee, bot] = argsOrSkip(3, 'node human_seat_test.mjs CASSINO CASSINO_REFEREE CASSINO_BOT');
const run = new BrowserRun('human-seat-');

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
  const db = join(run.tmp, 'games.db');
  const {address, tokenFile} = await run.startReferee(referee, db);
  // A game to 5 points (one round), seat 0 a person's.
  const created = JSON.parse(execFileSync(cassino, ['game', 'create', '--address', address,
    '--admin-token-file', tokenFile, '--format', 'json', '--human', '0', '--rules', 'standard target=5',
    '--per-move-ms', '120000', 'person', 'greedy']).toString());
  const id = created.game_id;
  const token = created.tokens[0].token;
  run.spawn(bot, ['--address', address, '--token', created.tokens[1].token, '--strategy', 'greedy'],
    {stdio: ['ignore', 'ignore', 'inherit']});
  // A bot account a person may challenge from /play, on its lobby.
  const registered = JSON.parse(execFileSync(cassino, ['bot', 'register', 'lobby-greedy', '--address', address,
    '--admin-token-file', tokenFile, '--format', 'json']).toString());
  run.spawn(bot, ['--address', address, '--lobby', '--key', registered.key, '--strategy', 'greedy'],
    {stdio: ['ignore', 'ignore', 'inherit']});
  const [base] = await run.startAndRead(cassino, ['serve', db, '--listen', '127.0.0.1:0', '--referee', address,
    '--challenge', 'lobby-greedy', '--admin-token-file', tokenFile, '--challenge-rules', 'standard target=5',
    '--max-challenges', '1'], /http:\/\/[^\s]+\//);

  await run.launch();
  const page = await run.newPage(/409|Conflict/);  // (the refusal sent on purpose)
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
  assert.deepEqual(run.errors, [], 'errors in the page');
}

await run.finish(main);
