'use strict';
// The Cassino bot SDK for Node: write choose(turn), the SDK plays it.
//
//   const cassino = require('cassino-sdk');
//   class Greedy extends cassino.Bot {
//     choose(turn) {
//       const captures = turn.legalMoves.filter((m) => m.kind === 'capture');
//       return captures.length ? captures[0] : turn.legalMoves[0];
//     }
//   }
//   cassino.run(new Greedy());
//
// See README.md.

const { Bot, connect, playSeat, playLobby, DEFAULT_ADDRESS } = require('./lib/bot');
const { RefereeError, fromServiceError } = require('./lib/errors');
const { RoundHistory, turnOf } = require('./lib/views');
const { run } = require('./lib/main');
const { v1 } = require('./lib/api');

module.exports = {
  Bot, connect, playSeat, playLobby, run, DEFAULT_ADDRESS,
  RefereeError, fromServiceError, RoundHistory, turnOf,
  // The API's messages and service, as @grpc/proto-loader loads them.
  get api() { return v1(); },
  // The forward model (lib/engine.js), loaded when first used.
  get engine() { return require('./lib/engine'); },
};
