// What the browser tests of tests/viewer/ share: the skip rule (exit 77
// without Chromium or node_modules), polling, the processes a test starts
// and stops, headless Chromium with the page's errors collected, and the
// PASS/FAIL ending that always cleans up.

import {spawn} from 'node:child_process';
import {existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// The command line's arguments after the script: exits 2 with `usage`
// when fewer than `count` are given, 77 (skipped) when Chromium or
// node_modules are missing.
export function argsOrSkip(count, usage) {
  const args = process.argv.slice(2);
  if (args.length < count || args.slice(0, count).some((a) => !a)) {
    console.error('usage: ' + usage);
    process.exit(2);
  }
  if (!existsSync(CHROMIUM) || !existsSync(join(HERE, 'node_modules', 'puppeteer-core'))) {
    console.log(`SKIPPED: needs ${CHROMIUM} and tests/viewer/node_modules (npm install)`);
    process.exit(77);
  }
  return args;
}

// Polls `fn` every `every` ms until it returns something truthy, which it
// returns; throws after `ms`.
export async function waitFor(what, fn, ms = 30000, every = 100) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out waiting for ' + what);
    await sleep(every);
  }
}

const RANK = {A: 'A', T: '10', J: 'J', Q: 'Q', K: 'K'};
const SUIT = {S: '\u2660', H: '\u2665', D: '\u2666', C: '\u2663'};
const SUIT_NAME = {S: 'spades', H: 'hearts', D: 'diamonds', C: 'clubs'};

// Whether `text` shows card `c` (e.g. "TD") in any form the pages use.
export function showsCard(text, c) {
  const rank = RANK[c[0]] || c[0];
  return [
    new RegExp(`(^|[^A-Za-z0-9])${c}($|[^A-Za-z0-9])`),
    new RegExp(`(^|[^0-9A-Za-z])${rank}${SUIT[c[1]]}`),
    new RegExp(`${rank} of ${SUIT_NAME[c[1]]}`),
  ].some((re) => re.test(text));
}

// One test's run: a temporary directory, the processes it starts (stopped
// at the end), the browser and the errors its pages report.
export class BrowserRun {
  constructor(prefix) {
    this.tmp = mkdtempSync(join(tmpdir(), prefix));
    this.children = [];
    this.errors = [];
    this.browser = null;
  }

  // Starts a process that is stopped (SIGTERM) at the end.
  spawn(cmd, args, options) {
    const child = spawn(cmd, args, options);
    this.children.push(child);
    return child;
  }

  // Starts the referee `binary` on a fresh port over the database `db` with
  // an admin token in a file; resolves with its address and the token
  // file, once it listens.
  async startReferee(binary, db) {
    const tokenFile = join(this.tmp, 'admin.token');
    writeFileSync(tokenFile, 'browser-test-admin-token\n');
    const portFile = join(this.tmp, 'port');
    this.spawn(binary, ['--db', db, '--listen', '127.0.0.1:0', '--port-file', portFile,
      '--admin-token-file', tokenFile], {stdio: ['ignore', 'ignore', 'inherit']});
    const port = await waitFor('the referee', () => existsSync(portFile) && readFileSync(portFile, 'utf8').trim());
    return {address: `127.0.0.1:${port}`, tokenFile};
  }

  // Starts `cmd` and resolves with the first match of `re` in its stdout.
  startAndRead(cmd, args, re) {
    const child = this.spawn(cmd, args, {stdio: ['ignore', 'pipe', 'inherit']});
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

  // Headless Chromium (puppeteer-core).
  async launch() {
    const {default: puppeteer} = await import('puppeteer-core');
    this.browser = await puppeteer.launch({
      executablePath: CHROMIUM, headless: true, protocolTimeout: 120000,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    });
    return this.browser;
  }

  // A page of 1280 x 900 whose uncaught exceptions and console errors
  // (but those `ignore` matches) go to this.errors.
  async newPage(ignore = null) {
    const page = await this.browser.newPage();
    await page.setViewport({width: 1280, height: 900});
    page.on('pageerror', (e) => this.errors.push(String(e)));
    page.on('console', (m) => {
      if (m.type() === 'error' && !(ignore && ignore.test(m.text()))) this.errors.push(m.text());
    });
    return page;
  }

  // Runs `main`, prints PASS or FAIL (with the pages' errors), and always
  // closes the browser, stops the processes and removes the directory.
  async finish(main) {
    try {
      await main();
      console.log('PASS');
    } catch (e) {
      console.error('FAIL:', e && e.stack ? e.stack : e);
      if (this.errors.length) console.error('page errors:', this.errors.join('\n'));
      process.exitCode = 1;
    } finally {
      if (this.browser) await this.browser.close();
      for (const c of this.children) if (c.exitCode === null) c.kill('SIGTERM');
      await sleep(200);
      rmSync(this.tmp, {recursive: true, force: true});
    }
  }
}
