'use strict';
// The Node forward model (sdk/node/lib/engine.js and its addon,
// cassino_engine.node) agrees with the C++ engine:
//
//   CASSINO_ENGINE_NODE=build/sdk/node/cassino_engine.node \
//     node engine_test.js ENGINE_CORPUS_BIN
//
// Replays engine_corpus's games (tests/sdk/engine_corpus.cc: 34 seeded
// games of 17 rule sets) through Game and Position: every turn's position,
// legal moves (exactly, in the referee's order), the position a move makes,
// the rounds, the result and the playouts; then sampling, errors and
// scoring, as tests/sdk/python/engine_checks.py does for Python.

const assert = require('assert');
const { execFileSync } = require('child_process');
const path = require('path');

const engine = require(path.join(__dirname, '..', '..', '..', 'sdk', 'node',
  'lib', 'engine.js'));

const corpus = JSON.parse(execFileSync(process.argv[2], { maxBuffer: 1 << 28 }));
const notations = (moves) => moves.map((m) => m.notation);
const BUILT = 'table: 2C 6H 8D [5S 3H]=8@1; hands: 8C TD 2H 3S / ?; to_move: 0';

function replaysTheCorpus() {
  let turns = 0;
  for (const record of corpus) {
    const game = new engine.Game(record.rules, record.seed);
    for (const t of record.turns) {
      assert.strictEqual(game.position.toString(), t.position);
      assert.deepStrictEqual(notations(game.legalMoves()), t.moves);
      const pos = engine.Position.parse(t.position);
      assert.deepStrictEqual(notations(pos.legalMoves()), t.moves);
      pos.play(t.move);
      assert.strictEqual(pos.toString(), t.applied);
      game.play(t.move);
      turns++;
    }
    assert(game.over);
    assert.deepStrictEqual(game.legalMoves(), []);
    const { winner, reason, totals } = game.result;
    assert.deepStrictEqual({ winner, reason, totals }, record.result);
    assert.deepStrictEqual(game.rounds.map((r) => r.score.points),
      record.rounds.map((r) => r.points));
    assert.deepStrictEqual(game.rounds.map((r) => r.totalsAfter),
      record.rounds.map((r) => r.totals_after));
    for (const p of record.playouts) {
      const fresh = new engine.Game(record.rules, record.seed);
      assert.strictEqual(fresh.playout(p.seed, p.until, p.policy), p.moves);
      assert.deepStrictEqual([fresh.turn, fresh.totals, fresh.over],
        [p.turn, p.totals, p.over]);
    }
  }
  assert.strictEqual(corpus.length, 34);
  assert(turns > 3000, `${turns} turns`);
  return turns;
}

function samplesAgreeWithWhatTheSeatSaw() {
  let checked = 0;
  for (const rules of ['standard', 'standard players=4 partnerships=on',
    'standard draw=on', 'pluck']) {
    const game = new engine.Game(rules, 3);
    while (!game.over && game.rounds.length === 0) {
      for (let seat = 0; seat < game.hands.length; seat++) {
        const seen = game.observe(seat);
        const sampled = seen.sample(game.turn);
        assert(sampled.observe(seat).equals(seen), `${rules} turn ${game.turn}`);
        assert.deepStrictEqual(sampled.hands[seat], game.hands[seat]);
        const unseen = new Set(seen.unseenCards());
        const dealt = sampled.hands.filter((h, s) => s !== seat).flat();
        assert(dealt.every((c) => unseen.has(c)));
        assert.strictEqual(unseen.size, dealt.length + game.stockSize);
        if (game.toMove === seat) {
          assert.deepStrictEqual(notations(sampled.legalMoves()),
            notations(game.legalMoves()));
          assert.deepStrictEqual(notations(seen.legalMoves()),
            notations(game.legalMoves()));
        }
        assert.deepStrictEqual(seen.sample(game.turn).hands, sampled.hands);
        checked++;
      }
      game.play(game.legalMoves()[0]);
    }
  }
  assert(checked > 150, `${checked} samples`);
  const seen = new engine.Game('standard sudden_death=on', 1).observe(0);
  assert.throws(() => seen.sample(1), (e) =>
    e instanceof engine.UnsupportedRulesError && /not supported/.test(e.message));
  return checked;
}

function movesPositionsAndErrors() {
  const pos = engine.Position.parse(BUILT);
  assert.throws(() => pos.play('take 3S 2C'), (e) =>
    e instanceof engine.IllegalMoveError &&
    e.message === 'the cards taken (2C) do not split into groups summing to 3');
  assert.strictEqual(pos.toString(), engine.Position.parse(BUILT).toString());
  assert.throws(() => pos.play('take the lot'), (e) =>
    e.code === 'INVALID_ARGUMENT' && !(e instanceof engine.IllegalMoveError));
  assert.throws(() => pos.play(42), TypeError);
  const take = pos.legalMoves().find((m) => m.notation === 'take 8C 5S 3H 8D');
  assert.deepStrictEqual({ ...take, tableCards: [...take.tableCards] },
    { notation: 'take 8C 5S 3H 8D', kind: 'capture', card: '8C', value: 0,
      tableCards: ['5S', '3H', '8D'] });
  const after = pos.copy();
  const outcome = after.play({ notation: 'trail TD' });  // an SDK Move
  assert.deepStrictEqual([outcome.captured, outcome.sweep], [[], false]);
  assert(after.table.includes('TD') && !pos.table.includes('TD'));
  const sweep = engine.Position.parse('table: 3D 5C; hands: 8S / 9H');
  assert.deepStrictEqual(sweep.play('take 8S 3D 5C'),
    { captured: ['8S', '3D', '5C'], sweep: true, plucked: '', penalty: 0 });
  const over = new engine.Game('standard', 3);
  over.playout(1, 'game');
  assert.throws(() => over.play('trail 7H'), engine.GameOverError);
  assert.throws(() => over.playout(1, 'deal'), /until/);
  assert.throws(() => engine.Observation.fromTurn(42), TypeError);
  const score = engine.scoreRound('standard',
    [['TD', '2S', 'AS', 'AH', '3S', '4S'], ['5H', '6H', '7H']], [1]);
  assert.deepStrictEqual(score.items.map((i) => [i.kind, i.side, i.points, i.card]),
    [['cards', 0, 3, ''], ['spades', 0, 1, ''], ['big_cassino', 0, 2, ''],
      ['little_cassino', 0, 1, ''], ['ace', 0, 1, 'AS'], ['ace', 0, 1, 'AH'],
      ['sweep', 1, 1, '']]);
  assert.deepStrictEqual(score.points, [9, 1]);
  // Seeds: a record's hex seed and a BigInt deal as the number does.
  assert.deepStrictEqual(new engine.Game('standard', 5n).hands,
    new engine.Game('standard', 5).hands);
  assert.deepStrictEqual(
    new engine.Game('standard', `${'0'.repeat(15)}5${'0'.repeat(48)}`).hands,
    new engine.Game('standard', 5).hands);
}

const turns = replaysTheCorpus();
const samples = samplesAgreeWithWhatTheSeatSaw();
movesPositionsAndErrors();
console.log(`ok: ${turns} corpus turns agree with the C++ engine; ` +
  `${samples} samples agree with what their seat saw; errors and scoring`);
