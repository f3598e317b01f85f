'use strict';
// run(bot): the command line every SDK bot gets.

const { parseArgs } = require('util');
const { DEFAULT_ADDRESS, Bot, playSeat, playLobby } = require('./bot');

// Plays from the command line: --token (or $CASSINO_TOKEN) plays one
// game; --lobby --key (or $CASSINO_BOT_KEY) plays every game offered.
// `bot` is a Bot, or a function making one (lobby mode makes one a game;
// given a Bot, it makes a new one of its class). Exits 1 on a refusal.
async function run(bot, argv = process.argv.slice(2)) {
  const { values } = parseArgs({ args: argv, options: {
    address: { type: 'string', default: process.env.CASSINO_ADDRESS || DEFAULT_ADDRESS },
    token: { type: 'string', default: process.env.CASSINO_TOKEN },
    lobby: { type: 'boolean', default: false },
    key: { type: 'string', default: process.env.CASSINO_BOT_KEY },
    capacity: { type: 'string', default: '1' },
    games: { type: 'string', default: '0' },
    ladder: { type: 'string', default: '' },
    version: { type: 'string', default: '' },
    'play-mode': { type: 'string', default: 'compact' },
    help: { type: 'boolean', default: false },
  } });
  if (values.help) {
    console.log('options: --address HOST:PORT (default ' + DEFAULT_ADDRESS +
      ') --token T | --lobby --key K [--capacity N] [--games N] ' +
      '[--ladder NAME --version V] ' +
      '[--play-mode compact|full]');
    return;
  }
  const make = bot instanceof Bot ? () => new bot.constructor() : bot;
  const single = bot instanceof Bot ? bot : null;
  const mode = values['play-mode'];
  try {
    if (!['compact', 'full'].includes(mode)) throw new Error(`--play-mode: '${mode}'`);
    if (values.lobby) {
      if (!values.key) throw new Error('--lobby needs --key (or $CASSINO_BOT_KEY)');
      if (values.ladder && !values.version) throw new Error('--ladder needs --version');
      await playLobby(make, values.key, { address: values.address, mode,
        capacity: Number(values.capacity), games: Number(values.games),
        ladder: values.ladder, version: values.version });
      return;
    }
    if (!values.token) throw new Error('--token (or $CASSINO_TOKEN) is required');
    const ended = await playSeat(single || make(), values.token,
      { address: values.address, mode });
    const r = ended.result;
    console.log(`game ended: winner side ${r.winner} (${r.reason}), ` +
      `totals ${r.totals.join('-')}`);
  } catch (err) {
    console.error(`cassino: ${err.message}`);
    process.exit(1);
  }
}

module.exports = { run };
