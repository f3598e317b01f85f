// Browser tests of the web viewer: headless Chromium (Debian's) driven by
// puppeteer-core, against `cassino serve` over a database a real referee is
// writing (`cassino tournament` with two slowed-down Python bots).
//
//   1. live: a running game's page advances by itself while the bots play,
//      and no card hidden at the turn shown (any hand, the stock) appears in
//      the DOM or the JSON (checked afterwards against the finished game's
//      omniscient view);
//   2. replay: after pressing → (and the next button) K times the board
//      shows exactly the cards of position K;
//   3. the self-contained page of `cassino replay --format html` does the
//      same from a file, with no network request at all;
//   4. the pages carry the Content-Security-Policy and render hostile text
//      as text;
//   5. what spectators expect (issue #26): a finished game opens at its
//      result and #turn=N at turn N (the address follows the steps), one
//      count of turns, the played card set apart, a narrow screen keeps the
//      board in view while stepping, W–L–D in stats' order, `standard` in
//      the rules column, the downloads, the TV page following a live game
//      with its clock ticking, and a game lost by illegal submissions
//      showing them with their reasons.
//
// usage: node viewer_browser_test.mjs CASSINO_BINARY
// (CASSINO_REFEREE=PATH: the referee `cassino tournament` starts, if not
// the one beside the binary.)
// Exits 77 (skipped) when Chromium or node_modules are missing.
// VIEWER_SCREENSHOTS=DIR also writes the documentation's screenshots there;
// VIEWER_DEV_ASSETS=DIR serves the page's assets from DIR (trying changes
// to tools/viewer/assets without rebuilding; the standalone page still uses
// the binary's).

import {spawn, execFileSync} from 'node:child_process';
import {existsSync, readFileSync, writeFileSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';
import assert from 'node:assert/strict';
import {BrowserRun, argsOrSkip, showsCard, sleep, waitFor} from './harness.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const [cassino] = argsOrSkip(1, 'node viewer_browser_test.mjs CASSINO_BINARY');
const run = new BrowserRun('viewer-browser-');
const errors = run.errors;  // the main page's errors
let base = null;  // the server's URL, ending in /

// The cards hidden at position `p` of a finished game's omniscient view:
// every hand, and the round's cards not dealt yet.
function hiddenCards(game, p) {
  const hidden = new Set(p.hands.flat());
  const deck = game.decks.find((d) => d.round === p.round).deck.split(' ');
  for (const c of deck.slice(deck.length - p.stock)) hidden.add(c);
  return hidden;
}

async function boardCards(page) {
  return page.evaluate(() => {
    const cards = (sel) => [...document.querySelectorAll(sel)].map((e) => e.getAttribute('data-card')).sort();
    const hands = [...document.querySelectorAll('.hand[data-seat]')].map((h) => ({
      seat: +h.getAttribute('data-seat'),
      cards: [...h.querySelectorAll('[data-card]')].map((e) => e.getAttribute('data-card')).sort(),
    }));
    return {
      k: +document.getElementById('turn-label').getAttribute('data-k'),
      table: cards('#table .table-cards [data-card]'),
      hands: hands.sort((a, b) => a.seat - b.seat).map((h) => h.cards),
    };
  });
}

function expectedBoard(game, k) {
  const p = game.positions[k];
  return {
    k,
    table: [...p.table.loose, ...p.table.builds.flatMap((b) => b.cards)].sort(),
    hands: p.hands.map((h) => [...h].sort()),
  };
}

async function main() {
  const db = join(run.tmp, 'games.db');
  const bot = `/usr/bin/python3 ${join(HERE, 'slow_bot.py')}`;
  const env = {...process.env, SLOW_BOT_MS: '300', SLOW_BOT_MOVES: '20'};
  const tournament = spawn(cassino, [
    'tournament', '--db', db, '--bot', `alpha=${bot}`, '--bot', `beta=${bot}`,
    // The screenshots want a fuller tournament.
    ...(process.env.VIEWER_SCREENSHOTS ? ['--bot', `gamma=${bot}`, '--bot', `delta=${bot}`] : []),
    '--games', '1', '--label', 'browser-cup', '--concurrency', process.env.VIEWER_SCREENSHOTS ? '3' : '1',
    '--seed', '00000000000000000000000000000000000000000000000000000000000000b5', '-q',
    ...(process.env.CASSINO_REFEREE ? ['--referee', process.env.CASSINO_REFEREE] : []),
  ], {env, stdio: ['ignore', 'pipe', 'inherit']});
  run.children.push(tournament);
  const tournamentDone = new Promise((resolve) => tournament.on('exit', resolve));

  // The server, once the referee has created the database.
  await waitFor('cassino serve', async () => {
    if (!existsSync(db)) return false;
    const serve = spawn(cassino, ['serve', db, '--listen', '127.0.0.1:0'], {stdio: ['ignore', 'pipe', 'inherit']});
    const url = await new Promise((resolve) => {
      let out = '';
      serve.stdout.on('data', (d) => {
        out += d;
        const m = out.match(/http:\/\/[^\s]+\//);
        if (m) resolve(m[0]);
      });
      serve.on('exit', () => resolve(null));
    });
    if (!url) return false;
    run.children.push(serve);
    base = url;
    return true;
  });
  const api = async (path) => (await fetch(base + path)).json();
  const apiText = async (path) => (await fetch(base + path)).text();
  const running = await waitFor('a running game', async () => {
    const j = await api('api/games?status=running');
    return j.games.length ? j.games[0] : null;
  });
  const id = running.game_id;

  const browser = await run.launch();
  const page = await browser.newPage();
  await page.setViewport({width: 1280, height: 900});
  if (process.env.VIEWER_DEV_ASSETS) await serveAssetsFrom(page, process.env.VIEWER_DEV_ASSETS);
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });

  // The TV page, watched while the game runs (checked after the live part).
  const tv = await browser.newPage();
  await tv.setViewport({width: 1280, height: 900});
  if (process.env.VIEWER_DEV_ASSETS) await serveAssetsFrom(tv, process.env.VIEWER_DEV_ASSETS);
  tv.on('pageerror', (e) => errors.push('tv: ' + String(e)));
  await tv.goto(base + 'tv');
  const tvCell = `.tv-cell[data-game="${id}"]`;
  await tv.waitForSelector(tvCell + ' #last-move');
  const tvFirst = await tv.$eval(tvCell + ' #last-move', (e) => e.textContent);

  // 1. Live.
  const response = await page.goto(base + 'game/' + encodeURIComponent(id));
  assert.match(response.headers()['content-security-policy'] || '', /script-src 'self'/);
  assert.equal(response.headers()['x-content-type-options'], 'nosniff');
  await page.waitForSelector('#turn-label').catch(async (e) => {
    throw new Error(e.message + '; the page holds: ' + (await page.evaluate(() => document.body.innerText)).slice(0, 500));
  });
  const snapshots = [];
  let lastK = -1;
  for (let i = 0; i < 4; i++) {
    const snap = await waitFor('the live page to advance', () => page.evaluate(() => {
      const label = document.getElementById('turn-label');
      return {
        k: +label.getAttribute('data-k'),
        status: document.getElementById('status').textContent,
        html: document.documentElement.outerHTML,
        cards: [...document.querySelectorAll('[data-card]')].map((e) => e.getAttribute('data-card')),
      };
    }).then((s) => (s.k > lastK ? s : null)), 10000);
    const json = await apiText('api/games/' + encodeURIComponent(id));
    if (snap.status !== 'running') break;
    snapshots.push({...snap, json});
    lastK = snap.k;
  }
  assert.ok(snapshots.length >= 3, `the live page advanced only ${snapshots.length} times while the game ran`);
  // The clock of the seat to move ticks (when the game is still running).
  const clock1 = await page.evaluate(() => (document.getElementById('move-clock') || {}).textContent);
  await sleep(250);
  const clock2 = await page.evaluate(() => (document.getElementById('move-clock') || {}).textContent);
  const stillRunning = await page.evaluate(() => document.getElementById('status').textContent === 'running');
  if (stillRunning && clock1 && clock2) {
    assert.notEqual(clock1, clock2, 'the move clock does not tick');
    console.log(`live: the move clock ticks (${clock1} -> ${clock2})`);
  }
  if (process.env.VIEWER_SCREENSHOTS) {
    await tv.screenshot({path: join(process.env.VIEWER_SCREENSHOTS, 'viewer-tv.png')});
    await page.screenshot({path: join(process.env.VIEWER_SCREENSHOTS, 'viewer-live.png')});
  }
  const tvNow = await tv.$eval(tvCell + ' #last-move', (e) => e.textContent);
  assert.notEqual(tvNow, tvFirst, 'the TV page did not follow the game');
  console.log(`tv: followed the game from "${tvFirst}" to "${tvNow}"`);
  await tv.close();
  assert.ok(snapshots[snapshots.length - 1].k > snapshots[0].k);
  console.log(`live: the page followed turns ${snapshots.map((s) => s.k).join(', ')}`);

  await tournamentDone;
  // A game lost by illegal submissions: bad trails cards it lacks 3 times.
  const illegal = spawn(cassino, [
    'tournament', '--db', db,
    '--bot', `bad=/usr/bin/env SLOW_BOT_ILLEGAL=3 SLOW_BOT_MOVES=0 ${bot}`,
    '--bot', `good=/usr/bin/env SLOW_BOT_MOVES=0 ${bot}`,
    '--games', '1', '--label', 'illegal-cup', '--concurrency', '1', '-q',
    ...(process.env.CASSINO_REFEREE ? ['--referee', process.env.CASSINO_REFEREE] : []),
  ], {stdio: ['ignore', 'ignore', 'inherit']});
  run.children.push(illegal);
  const illegalDone = new Promise((resolve) => illegal.on('exit', resolve));
  const game = await api('api/games/' + encodeURIComponent(id));
  assert.equal(game.status, 'finished');
  assert.equal(game.view, 'omniscient');
  for (const s of snapshots) {
    const hidden = hiddenCards(game, game.positions[s.k]);
    assert.ok(hidden.size > 10);
    // The whole document but the rule set's text (a tooltip naming TD, 2S).
    const html = s.html.split(game.rules).join('');
    assert.ok(html.includes('id="table"'));
    for (const c of hidden) {
      assert.ok(!s.cards.includes(c), `turn ${s.k}: hidden card ${c} drawn on the live page`);
      assert.ok(!showsCard(html, c), `turn ${s.k}: hidden card ${c} in the live page's DOM`);
    }
    // The JSON was fetched a moment later: check it at its own last turn
    // (all of it but the rule set's text, which names TD and 2S).
    const live = JSON.parse(s.json);
    assert.equal(live.view, 'public');
    const kj = live.positions.length - 1;
    delete live.rules;
    const text = JSON.stringify(live);
    for (const c of hiddenCards(game, game.positions[kj])) {
      assert.ok(!showsCard(text, c), `turn ${kj}: hidden card ${c} in the live JSON`);
    }
  }
  console.log(`live: no hidden card in ${snapshots.length} snapshots of the DOM and the JSON`);
  // The live page turned into the finished game by itself.
  await waitFor('the page to show the end', () => page.evaluate(() => document.getElementById('status').textContent === 'finished'));

  // 2. Replay. A finished game opens at its result; #turn=N at turn N.
  await page.goto(base + 'game/' + encodeURIComponent(id));
  await page.waitForSelector('#turn-label');
  const endK = game.positions.length - 1;
  assert.deepEqual(await boardCards(page), expectedBoard(game, endK));
  assert.equal(await page.$eval('#result', (e) => e.hidden), false);
  assert.equal(await page.$eval('#turn-label', (e) => e.textContent), `turn ${endK} / ${endK}`);
  await page.goto(base + 'game/' + encodeURIComponent(id) + '#turn=0');
  await page.waitForSelector('#turn-label');
  assert.deepEqual(await boardCards(page), expectedBoard(game, 0));
  const K = 9;
  for (let i = 0; i < K; i++) await page.keyboard.press('ArrowRight');
  assert.deepEqual(await boardCards(page), expectedBoard(game, K));
  for (let i = 0; i < 3; i++) await page.click('#next');
  assert.deepEqual(await boardCards(page), expectedBoard(game, K + 3));
  await page.keyboard.press('ArrowLeft');
  assert.deepEqual(await boardCards(page), expectedBoard(game, K + 2));
  assert.equal(await page.evaluate(() => location.hash), `#turn=${K + 2}`);
  // One count: the label, the last move and the move list agree.
  assert.equal(await page.$eval('#turn-label', (e) => e.textContent), `turn ${K + 2} / ${endK}`);
  assert.match(await page.$eval('#last-move', (e) => e.textContent), new RegExp(`^Turn ${K + 2}: `));
  assert.equal(await page.$eval('#moves li.current', (e) => e.value), K + 2);
  // The played card is set apart from the cards it takes.
  const mv = game.positions[K + 2].move.text;
  const played = mv.split(' ')[mv.startsWith('build') ? 2 : 1];
  const shownPlayed = await page.$eval('#last-move .played', (e) => e.textContent);
  assert.ok(showsCard(shownPlayed, played), `the played card ${played} of "${mv}" is not set apart: "${shownPlayed}"`);
  const verified = await page.$eval('#verified', (e) => e.textContent);
  assert.match(verified, /verified/);
  assert.doesNotMatch(verified, /failed/);
  assert.equal(await page.$eval('#rules', (e) => e.textContent), 'standard');
  console.log(`replay: opens at the result (turn ${endK}); #turn=0, then ${K}, ${K + 3}, ${K + 2} match; one count; played card ${played} apart`);

  // Downloads: the record (as cassino export writes it) and the page.
  const recordHref = await page.$eval('#download-record', (e) => e.getAttribute('href'));
  const record = await (await fetch(base + recordHref.slice(1))).json();
  assert.equal(record.format, 'cassino-record');
  assert.equal(record.games[0].game_id, id);
  const pageHref = await page.$eval('#download-page', (e) => e.getAttribute('href'));
  const standalone = await fetch(base + pageHref.slice(1));
  assert.match(standalone.headers.get('content-disposition') || '', /attachment/);
  assert.match(await standalone.text(), /id="game-data"/);
  console.log('downloads: the record and the self-contained page');

  // A 420 px wide screen: stepping keeps the board where it is.
  await page.setViewport({width: 420, height: 800});
  await page.goto(base + 'game/' + encodeURIComponent(id) + '#turn=0');
  await page.waitForSelector('#turn-label');
  for (let i = 0; i < 43; i++) await page.keyboard.press('ArrowRight');
  assert.equal((await boardCards(page)).k, 43);
  assert.equal(await page.evaluate(() => window.scrollY), 0, 'stepping scrolled the page');
  await page.setViewport({width: 1280, height: 900});
  console.log('narrow: 43 steps at 420 px, scrollY stays 0');

  // The tournament: W–L–D in `cassino stats`' order.
  await page.goto(base + 'tournament/browser-cup');
  await page.waitForSelector('#standings');
  const heads = await page.$$eval('#standings th', (ths) => ths.map((t) => t.textContent));
  assert.deepEqual(heads.slice(3, 6), ['won', 'lost', 'drawn']);
  const t = await api('api/tournaments/browser-cup');
  const c = t.crosstable[0][1];
  const cell = await page.$eval('#crosstable tbody tr:nth-child(1) td:nth-child(3)', (e) => e.textContent);
  assert.equal(cell, `${c.wins}\u2013${c.losses}\u2013${c.draws}`);
  console.log(`tournament: standings won/lost/drawn, crosstable cell ${cell}`);

  // 3. The self-contained file: no network at all.
  const file = join(run.tmp, 'game.html');
  execFileSync(cassino, ['replay', db, id, '--format', 'html', '--out', file]);
  const offline = await browser.newPage();
  const requests = [];
  offline.on('request', (r) => requests.push(r.url()));
  const offlineErrors = [];
  offline.on('pageerror', (e) => offlineErrors.push(String(e)));
  offline.on('console', (m) => { if (m.type() === 'error') offlineErrors.push(m.text()); });
  await offline.goto('file://' + file + '#turn=0');
  await offline.waitForSelector('#turn-label');
  for (let i = 0; i < K; i++) await offline.keyboard.press('ArrowRight');
  assert.deepEqual(await boardCards(offline), expectedBoard(game, K));
  assert.deepEqual(requests.map((u) => u.replace(/#.*$/, '')), ['file://' + file], 'the standalone page made requests');
  assert.deepEqual(offlineErrors, []);
  console.log('standalone: the board matches, no request besides the file');

  // 4. Hostile text is text: a page whose game data names a bot
  // "<img src=x onerror=...>" runs nothing.
  const evil = JSON.parse(JSON.stringify(game));
  evil.seats[0].bot = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';
  evil.label = '</script><script>window.__pwned=3</script>';
  const evilFile = join(run.tmp, 'evil.html');
  const html = execFileSync(cassino, ['replay', db, id, '--format', 'html']).toString();
  // Inline the altered data as the server would write it (DumpJson escapes
  // < > & as \u003c \u003e \u0026).
  const escaped = JSON.stringify(evil).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
  writeFileSync(evilFile, html.replace(/(<script type="application\/json" id="game-data">)[^<]*(<\/script>)/, (_, a, b) => a + escaped + b));
  await offline.goto('file://' + evilFile);
  await offline.waitForSelector('#turn-label');
  assert.equal(await offline.evaluate(() => window.__pwned), undefined);
  const shown = await offline.$eval('.seat[data-seat="0"] .seat-name', (e) => e.textContent);
  assert.equal(shown, evil.seats[0].bot);
  console.log('hostile names render as text');
  await offline.close();

  // 6. The game lost by illegal submissions shows them with their reasons.
  await illegalDone;
  const lost = (await api('api/games?label=illegal-cup')).games[0];
  assert.equal(lost.end_reason, 'forfeit');
  await page.goto(base + 'game/' + encodeURIComponent(lost.game_id));
  await page.waitForSelector('#turn-label');
  const refused = await page.$$eval('#moves li.rej-line', (li) => li.map((e) => e.textContent));
  assert.equal(refused.length, 3, 'refused submissions listed: ' + JSON.stringify(refused));
  for (const r of refused) assert.match(r, /refused: .+/);
  assert.match(await page.$eval('.seat[data-seat="0"] .refused-count', (e) => e.textContent), /^3 refused/);
  console.log('illegal: the 3 refused submissions are listed with their reasons: ' + refused[0]);

  if (process.env.VIEWER_SCREENSHOTS) await screenshots(page, id, game, lost.game_id);
  assert.deepEqual(errors, [], 'errors in the page');
}

// For trying page changes without rebuilding: answers /assets/NAME from
// DIR instead of the binary's embedded copy.
async function serveAssetsFrom(page, dir) {
  await page.setRequestInterception(true);
  page.on('request', (r) => {
    const m = new URL(r.url()).pathname.match(/^\/assets\/([A-Za-z0-9_.-]+)$/);
    if (!m) return r.continue();
    const type = m[1].endsWith('.js') ? 'text/javascript' : m[1].endsWith('.css') ? 'text/css' : 'image/svg+xml';
    r.respond({status: 200, contentType: type, body: readFileSync(join(dir, m[1]))});
  });
}

async function screenshots(page, id, game, illegalId) {
  const dir = process.env.VIEWER_SCREENSHOTS;
  await page.bringToFront();  // a background tab may never paint
  await page.goto(base + '');
  await page.waitForSelector('#games table');
  await sleep(500);
  await page.screenshot({path: join(dir, 'viewer-home.png')});
  const k = game.positions.findIndex((p, i) => i > 20 && p.table.builds.length > 0);
  await page.goto(base + 'game/' + encodeURIComponent(id) + '#turn=' + (k > 0 ? k : 21));
  await page.waitForSelector('#turn-label');
  await page.screenshot({path: join(dir, 'viewer-game.png')});
  await page.goto(base + 'game/' + encodeURIComponent(id));
  await page.waitForSelector('#result');
  await page.screenshot({path: join(dir, 'viewer-result.png')});
  await page.goto(base + 'game/' + encodeURIComponent(illegalId));
  await page.waitForSelector('#moves li.rej-line');
  await page.screenshot({path: join(dir, 'viewer-refused.png')});
  await page.setViewport({width: 420, height: 800});
  await page.goto(base + 'game/' + encodeURIComponent(id) + '#turn=0');
  await page.waitForSelector('#turn-label');
  for (let i = 0; i < 43; i++) await page.keyboard.press('ArrowRight');
  await page.screenshot({path: join(dir, 'viewer-narrow.png')});
  await page.setViewport({width: 1280, height: 900});
  await page.goto(base + 'tournament/browser-cup');
  await page.waitForSelector('#standings');
  await sleep(800);
  await page.screenshot({path: join(dir, 'viewer-tournament.png'), fullPage: true});
  console.log('screenshots written to ' + dir);
}

await run.finish(main);
