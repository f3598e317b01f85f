'use strict';
// What a seat is sent, as plain read-only objects (camelCase). Cards are
// two-character strings ("7H", "TD", "AS"); each view keeps its message in
// `proto`.

const KINDS = {
  MOVE_KIND_TRAIL: 'trail', MOVE_KIND_CAPTURE: 'capture',
  MOVE_KIND_BUILD: 'build', MOVE_KIND_CALL_OUT: 'call_out',
};

const moveOf = (m) => Object.freeze({
  notation: m.notation, kind: KINDS[m.kind] || 'unspecified', card: m.card,
  value: m.value, tableCards: Object.freeze([...m.table_cards]), proto: m,
});

const playedOf = (p) => Object.freeze({
  turn: p.turn, round: p.round, deal: p.deal, seat: p.seat,
  move: moveOf(p.move), captured: Object.freeze([...p.captured]),
  sweep: p.sweep, proto: p,
});

// A YourTurn (its round history complete) as a Turn.
function turnOf(t, legalMoves = t.legal_moves) {
  const o = t.observation;
  return Object.freeze({
    turn: t.turn, seat: o.seat, rules: o.rules, round: o.round,
    deal: o.deal, dealer: o.dealer,
    hand: Object.freeze([...o.hand]),
    table: Object.freeze([...(o.table ? o.table.loose : [])]),
    builds: Object.freeze((o.table ? o.table.builds : []).map((b) =>
      Object.freeze({ cards: [...b.cards], value: b.value,
        controller: b.controller, multiple: b.multiple }))),
    handSizes: Object.freeze([...o.hand_sizes]), stockSize: o.stock_size,
    sides: Object.freeze(o.sides.map((s) => Object.freeze({
      side: s.side, captured: s.captured, spades: s.spades,
      sweeps: s.sweeps, total: s.total }))),
    history: Object.freeze(o.round_history.map(playedOf)),
    legalMoves: Object.freeze(legalMoves.map(moveOf)),
    timeLeftMs: t.time_left_ms, bankLeftMs: t.bank_left_ms,
    illegalLeft: t.illegal_left, proto: t,
  });
}

// Keeps the round's moves from a compact stream's YourTurns: only a
// stream's first carries observation.round_history; later ones set
// round_history_omitted and carry the moves since in since_last (the
// referee's YourTurn documentation). complete() puts the history back.
class RoundHistory {
  constructor() { this.moves = []; }

  complete(t) {
    const o = t.observation;
    if (!t.round_history_omitted) {
      this.moves = [...o.round_history];
      return;
    }
    this.moves = [...this.moves, ...t.since_last]
      .filter((m) => m.round === o.round);
    o.round_history = [...this.moves];
    t.round_history_omitted = false;
  }
}

module.exports = { turnOf, moveOf, RoundHistory };
