// The viewer's ladder pages in a real browser (issue #27, part 6): a real
// referee runs a ladder of three reference bots (`cassino-bot --lobby
// --ladder`, builder, greedy and random), the organiser pauses it once
// enough games are rated and every game has been rated, and headless
// Chromium (Debian's, driven by puppeteer-core) opens `cassino serve`'s
// /ladders and /ladder/NAME over the same database. The page must show
// what the referee says: the leaderboard's versions in the referee's
// order with the same mu ± sigma and games, one chart line per version,
// the recent games (each a link to its game page, which opens) and every
// pair played; and no error in the page.
//
// usage: node ladder_page_test.mjs CASSINO CASSINO_REFEREE CASSINO_BOT
// Exits 77 (skipped) when Chromium or node_modules are missing.

import {execFileSync} from 'node:child_process';
import {join} from 'node:path';
import assert from 'node:assert/strict';
import {BrowserRun, argsOrSkip, waitFor} from './harness.mjs';

const [cassino, referee, bot] = argsOrSkip(3, 'node ladder_page_test.mjs CASSINO CASSINO_REFEREE CASSINO_BOT');
const LADDER = 'lad';
const GAMES = 9;  // rated games before the organiser pauses
const run = new BrowserRun('ladder-page-');

async function main() {
  const db = join(run.tmp, 'ladder.db');
  const {address, tokenFile} = await run.startReferee(referee, db);
  const org = ['--address', address, '--admin-token-file', tokenFile];
  const cli = (...args) => execFileSync(cassino, [...args, ...org]).toString();
  const json = (...args) => JSON.parse(cli(...args, '--format', 'json'));

  // One-round games (to 5 points) keep the ladder quick.
  cli('ladder', 'create', LADDER, '--rules', 'standard target=5', '--per-move-ms', '5000');
  for (const [account, strategy] of [['bld', 'builder'], ['grd', 'greedy'], ['rnd', 'random']]) {
    const {key} = json('bot', 'register', account);
    run.spawn(bot, ['--address', address, '--lobby', '--key', key, '--capacity', '2',
      '--ladder', LADDER, '--version', 'v1', '--strategy', strategy], {stdio: 'ignore'});
  }
  await waitFor(`${GAMES} rated games`, () => Number(json('ladder', 'show', LADDER).ladder.games_rated) >= GAMES, 90000);
  cli('ladder', 'pause', LADDER, '--reason', 'test over');
  const settled = await waitFor('the ladder to settle', () => {
    const l = json('ladder', 'show', LADDER).ladder;
    return l.games_running === 0 && l.games_unrated === 0 && l;
  }, 90000);
  const rated = Number(settled.games_rated);  // (an int64: a string in JSON)
  const board = json('ladder', 'leaderboard', LADDER).entries;
  assert.equal(board.length, 3, JSON.stringify(board));
  console.log(`referee: ${rated} games rated; ` +
    board.map((e) => `${e.bot} ${e.mu.toFixed(2)} ± ${e.sigma.toFixed(2)}`).join(', '));

  const [base] = await run.startAndRead(cassino, ['serve', db, '--listen', '127.0.0.1:0'], /http:\/\/[^\s]+\//);
  await run.launch();
  const page = await run.newPage();

  // /ladders: the ladder, with its status and its games.
  await page.goto(base + 'ladders');
  await page.waitForSelector('#ladders tbody tr');
  const listed = await page.$$eval('#ladders tbody tr', (rows) => rows.map((r) => [...r.cells].map((c) => c.textContent)));
  assert.equal(listed.length, 1, JSON.stringify(listed));
  assert.equal(listed[0][0], LADDER);
  assert.equal(listed[0][1], 'paused');
  assert.equal(listed[0][2], '3');  // versions
  assert.equal(+listed[0][3], rated);  // finished games, all rated

  // /ladder/NAME: the referee's leaderboard, row by row.
  await Promise.all([page.waitForNavigation(), page.click(`#ladders a[href="/ladder/${LADDER}"]`)]);
  await page.waitForSelector('#leaderboard tbody tr');
  const rows = await page.$$eval('#leaderboard tbody tr', (rs) => rs.map((r) => [...r.cells].map((c) => c.textContent)));
  assert.equal(rows.length, board.length);
  rows.forEach((row, i) => {
    const e = board[i];
    assert.equal(row[0], String(e.rank), `row ${i}`);
    assert.equal(row[1], e.account, `row ${i}`);
    assert.equal(row[2], e.version, `row ${i}`);
    assert.equal(row[3], e.conservative.toFixed(2), `row ${i}`);
    assert.equal(row[4], `${e.mu.toFixed(2)} \u00b1 ${e.sigma.toFixed(2)}`, `row ${i}`);
    assert.deepEqual(row.slice(5, 9).map(Number), [e.games, e.wins, e.losses, e.draws], `row ${i}`);
  });
  const meta = await page.$eval('p.meta', (p) => p.textContent);
  assert.match(meta, new RegExp(`${rated} games rated, 0 running`));

  // One chart line per version drawn (all three: the top six are drawn);
  // unticking one takes its line away.
  assert.equal(await page.$$eval('svg.ladder-chart polyline', (ls) => ls.length), 3);
  await page.click(`#leaderboard input[aria-label="chart ${board[2].bot}"]`);
  assert.equal(await page.$$eval('svg.ladder-chart polyline', (ls) => ls.length), 2);

  // Every pair of the three played; the pairs' games add up to the rated.
  const pairs = await page.$$eval('#pairs tbody tr', (rs) => rs.map((r) => [...r.cells].map((c) => c.textContent)));
  assert.equal(pairs.length, 3, JSON.stringify(pairs));
  assert.equal(pairs.reduce((n, p) => n + +p[2], 0), rated);
  for (const p of pairs) assert.equal(+p[2], +p[3] + +p[4] + +p[5], JSON.stringify(p));

  // The recent games: each a finished game between two of the versions;
  // the first opens its game page.
  const recent = await page.$$eval('#recent tbody tr', (rs) => rs.map((r) => ({
    id: r.cells[1].textContent, players: r.cells[2].textContent, href: r.cells[1].querySelector('a').getAttribute('href')})));
  assert.ok(recent.length >= GAMES, JSON.stringify(recent));
  for (const g of recent) assert.match(g.players, /^(bld|grd|rnd)@v1 vs (bld|grd|rnd)@v1$/, JSON.stringify(g));
  await Promise.all([page.waitForNavigation(), page.click(`#recent a[href="${recent[0].href}"]`)]);
  await waitFor('the game page', () => page.evaluate((id) => document.body.textContent.includes(id), recent[0].id));
  console.log(`page: leaderboard of ${rows.length} equals the referee's; ${pairs.length} pairs; ` +
    `${recent.length} recent games; game ${recent[0].id} opens`);
  assert.deepEqual(run.errors, [], 'errors in the page');
}

await run.finish(main);
