'use strict';
// The forward model: the referee's own rules engine (C++), for bots that
// look ahead. The same shape as the Python SDK's cassino.engine:
//
//   const { engine } = require('cassino-sdk');
//   const seen = engine.Observation.fromTurn(turn);  // what your seat saw
//   const game = seen.sample(1);                      // the unseen cards dealt
//   for (const move of game.legalMoves()) {           // the referee's order
//     const g = game.copy();
//     g.play(move);
//     g.playout(2, 'round', 'greedy');                // moves in C++
//     console.log(move.notation, g.totals);
//   }
//
// The addon, cassino_engine.node, is built by the repository's CMake build
// (target cassino_engine_node, into build/sdk/node/); it is found at
// $CASSINO_ENGINE_NODE, else in $CASSINO_BUILD_DIR/sdk/node/, else in the
// build/ folder of the repository this package is in. See README.md
// (The forward model).

const fs = require('fs');
const path = require('path');

// A move the rules refuse: `message` is the engine's reason.
class IllegalMoveError extends Error {
  constructor(message) { super(message); this.name = 'IllegalMoveError'; }
}
// What the engine does not do: sampling Callabra, Tablanette or the
// options that score during play.
class UnsupportedRulesError extends Error {
  constructor(message) { super(message); this.name = 'UnsupportedRulesError'; }
}
// A move in a game that is over.
class GameOverError extends Error {
  constructor(message) { super(message); this.name = 'GameOverError'; }
}

function addonPath() {
  if (process.env.CASSINO_ENGINE_NODE) return process.env.CASSINO_ENGINE_NODE;
  const build = process.env.CASSINO_BUILD_DIR ||
    path.join(fs.realpathSync(path.join(__dirname, '..')), '..', '..', 'build');
  return path.join(build, 'sdk', 'node', 'cassino_engine.node');
}

let native = null;

function load() {
  if (native) return native;
  const file = addonPath();
  if (!fs.existsSync(file)) {
    throw new Error(`cassino-sdk: the forward model ${file} is missing: build ` +
      'it (cmake --build build --target cassino_engine_node), or set ' +
      'CASSINO_ENGINE_NODE or CASSINO_BUILD_DIR');
  }
  native = require(file);
  native.setErrorClasses(IllegalMoveError, UnsupportedRulesError, GameOverError);
  // Observation.fromTurn: from the SDK's Turn, a YourTurn or an
  // Observation message (as the SDK holds them: @grpc/proto-loader with
  // keepCase), through their JSON.
  native.Observation.fromTurn = (turn) => {
    let o = turn && turn.proto ? turn.proto : turn;
    if (o && o.observation) {
      if (o.round_history_omitted) {
        throw new Error('this YourTurn omits the round\'s history (compact ' +
          'mode): complete it with RoundHistory first (the SDK\'s Turn is)');
      }
      o = o.observation;
    }
    if (!o || !Array.isArray(o.hand_sizes)) {
      throw new TypeError('fromTurn takes a Turn, a YourTurn or an ' +
        'Observation message');
    }
    return native.Observation.fromJson(JSON.stringify(o));
  };
  return native;
}

module.exports = {
  IllegalMoveError, UnsupportedRulesError, GameOverError,
  get Game() { return load().Game; },
  get Position() { return load().Position; },
  get Observation() { return load().Observation; },
  scoreRound: (rules, piles, sweeps = []) => load().scoreRound(rules, piles, sweeps),
  load,
};
