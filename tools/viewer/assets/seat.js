// A person's seat (/play/GAME, served by `cassino serve --referee`): the
// seat's token is asked for once (or read from the address's #token=...
// and removed from it at once), kept in this tab's sessionStorage and sent
// only in the Authorization header of /api/seat calls, never in a URL.
//
// Everything drawn comes from /api/seat, the referee's own GetTurn answer
// for the seat: its hand face up, the others' as backs, the table, what
// each side captured, the round's moves; on the seat's turn the legal
// moves. A move is chosen by clicking: the card played from the hand, then
// the table cards or builds it takes or builds with; only the legal moves
// consistent with the selection are offered, and the chosen move's notation
// is shown before it is sent. Verdicts and errors are the referee's words.
//
// /play without a game: when the organiser allows challenges (`cassino
// serve --challenge ACCOUNT`), a form to start a game against one of those
// bots; the answer's token goes straight to sessionStorage.
//
// Uses the helpers app.js exports as window.CassinoViewer.
'use strict';
(() => {
  const V = window.CassinoViewer;
  const m = location.pathname.match(/^\/play(?:\/([^/]+))?\/?$/);
  if (!V || !m) return;
  const {h, add, clear, card, cardText, moveView, clock, nav} = V;
  const app = document.getElementById('app');
  if (!m[1]) {
    challengePage();
    return;
  }
  const gameId = decodeURIComponent(m[1]);
  const KEY = 'cassino-seat:' + gameId;
  const POLL_MS = 400;

  let token = sessionStorage.getItem(KEY) || '';
  const fragment = (location.hash || '').match(/^#token=([!-~]+)$/);
  if (fragment) {
    token = fragment[1];
    sessionStorage.setItem(KEY, token);
  }
  if (location.hash && history.replaceState) history.replaceState(null, '', location.pathname);

  let state = null;       // the last /api/seat answer
  let receivedAt = 0;     // Date.now() when it arrived
  let shownKey = '';      // what the board shows, to redraw only on change
  let sel = {card: null, table: new Set(), chosen: null};
  let sending = false;
  let poll = null;
  let ticker = null;
  const els = {};

  async function call(path, init) {
    const res = await fetch(path, Object.assign({cache: 'no-store'}, init || {}, {
      headers: Object.assign({Accept: 'application/json', Authorization: 'Bearer ' + token}, (init && init.headers) || {}),
    }));
    let body = null;
    try {
      body = await res.json();
    } catch (e) {
      body = {error: 'HTTP ' + res.status};
    }
    return {status: res.status, body};
  }

  // ---- The page -----------------------------------------------------------
  function page() {
    els.status = h('span', {class: 'badge', id: 'status'});
    els.score = h('span', {class: 'score', id: 'score'});
    els.login = h('form', {class: 'seat-login', id: 'seat-login', onsubmit: login},
      h('label', null, 'Seat token ', h('input', {type: 'password', id: 'seat-token', autocomplete: 'off', spellcheck: 'false', size: 40})),
      h('button', {type: 'submit', id: 'take-seat'}, 'Take the seat'),
      h('p', {class: 'small'}, 'The organiser gave you this token with the game. It stays in this tab and is sent only to this server, which passes it to the referee.'));
    els.error = h('p', {class: 'error', id: 'seat-error', hidden: true});
    els.board = h('div', {class: 'board seat-board', id: 'seat-board', hidden: true});
    els.choice = h('div', {class: 'seat-choice', id: 'seat-choice', hidden: true});
    els.verdict = h('p', {class: 'verdict', id: 'seat-verdict', hidden: true});
    els.result = h('div', {class: 'result', id: 'seat-result', hidden: true});
    add(clear(app), [nav(), h('main', null,
      h('div', {class: 'game-head'}, h('h1', null, 'Your seat in ', h('code', null, gameId)), els.status, els.score),
      els.login, els.error, els.result, els.verdict, els.board, els.choice)]);
  }

  function showError(text) {
    els.error.hidden = !text;
    els.error.textContent = text || '';
  }

  function login(e) {
    e.preventDefault();
    const input = document.getElementById('seat-token');
    token = input.value.trim();
    input.value = '';
    if (!token) return;
    sessionStorage.setItem(KEY, token);
    refresh();
  }

  function loggedOut(message) {
    token = '';
    sessionStorage.removeItem(KEY);
    els.login.hidden = false;
    els.board.hidden = true;
    els.choice.hidden = true;
    showError(message);
  }

  // ---- Polling ------------------------------------------------------------
  async function refresh() {
    clearTimeout(poll);
    if (!token) {
      els.login.hidden = false;
      return;
    }
    let r;
    try {
      r = await call('/api/seat');
    } catch (err) {
      showError('The viewer cannot be reached: ' + err.message);
      poll = setTimeout(refresh, 2000);
      return;
    }
    if (r.status === 404 && !('accepted' in r.body)) {
      showError('This viewer relays no seats: start it with cassino serve --referee ADDRESS.');
      return;
    }
    if (r.status === 401 || r.status === 403) {
      loggedOut('The referee refused the token: ' + r.body.error);
      return;
    }
    if (r.status !== 200) {
      showError(r.body.error || 'HTTP ' + r.status);
      poll = setTimeout(refresh, 2000);
      return;
    }
    if (r.body.game && r.body.game.game_id !== gameId) {
      loggedOut('That token is for another game (' + r.body.game.game_id + ').');
      return;
    }
    showError('');
    els.login.hidden = true;
    state = r.body;
    receivedAt = Date.now();
    draw();
    const over = state.status !== 'GAME_STATUS_RUNNING';
    // On the seat's turn the board waits for the person; a slower poll
    // still notices a forfeit or an abort.
    if (!over) poll = setTimeout(refresh, state.your_turn ? 3000 : POLL_MS);
  }

  // ---- Drawing ------------------------------------------------------------
  const seatOf = () => state.game.seat;
  const sides = () => Math.max(1, (state.observation.sides || []).length || state.game.bots.length);
  const sideOf = (seat) => seat % sides();
  const bot = (seat) => state.game.bots[seat] || 'seat ' + seat;
  const legal = () => (state.your_turn && state.turn ? state.turn.legal_moves : []);

  function draw() {
    const o = state.observation;
    const key = JSON.stringify([state.status, state.your_turn, o.turn, o.hand, o.table, o.hand_sizes, state.turn ? state.turn.turn : -1]);
    const statusText = {GAME_STATUS_RUNNING: 'running', GAME_STATUS_FINISHED: 'finished', GAME_STATUS_ABORTED: 'aborted'}[state.status] || state.status;
    els.status.textContent = statusText;
    els.status.className = 'badge ' + statusText;
    els.score.textContent = (o.sides || []).map((s) => s.total).join('\u2013');
    if (key === shownKey) return;
    if (shownKey && JSON.parse(shownKey)[6] !== (state.turn ? state.turn.turn : -1)) sel = {card: null, table: new Set(), chosen: null};
    shownKey = key;
    drawBoard();
    drawChoice();
    drawResult();
    clearInterval(ticker);
    ticker = state.your_turn && state.status === 'GAME_STATUS_RUNNING' ? setInterval(tick, 100) : null;
    tick();
  }

  function sidePanel(seat, mine) {
    const o = state.observation;
    const side = sideOf(seat);
    const pub = (o.sides || []).find((s) => s.side === side) || {captured: 0, total: 0, sweeps: 0};
    const toMove = o.to_move === seat && state.status === 'GAME_STATUS_RUNNING';
    const hand = mine
      ? o.hand.map((c) => {
          const playable = legal().some((mv) => mv.card === c);
          const el = card(c, (playable ? 'playable' : '') + (sel.card === c ? ' selected' : ''));
          if (playable) el.addEventListener('click', () => pickCard(c));
          return el;
        })
      : Array.from({length: o.hand_sizes[seat] || 0}, () => card(null));
    return h('div', {class: 'seat' + (toMove ? ' to-move' : '') + (mine ? ' mine' : ''), 'data-seat': seat},
      h('div', {class: 'seat-head'},
        h('span', {class: 'seat-name'}, bot(seat)), mine ? h('span', {class: 'you'}, ' (you)') : null,
        h('span', {class: 'seat-no'}, ' seat ' + seat),
        toMove ? h('span', {class: 'to-move-mark'}, mine ? ' \u25c6 your move' : ' \u25c6 to move') : null),
      h('div', {class: 'seat-body'},
        h('div', {class: 'hand' + (mine ? ' own-hand' : ''), id: mine ? 'own-hand' : null, 'data-seat': seat}, hand.length ? hand : h('span', {class: 'empty'}, 'no cards')),
        h('div', {class: 'seat-stats'},
          h('div', {title: 'cards captured this round'}, h('span', {class: 'pile-icon'}), ' ', h('b', null, pub.captured), ' captured'),
          pub.sweeps ? h('div', null, pub.sweeps + ' sweep' + (pub.sweeps > 1 ? 's' : '')) : null,
          h('div', null, h('b', null, pub.total), ' points'),
          mine ? h('div', {class: 'clock', id: 'seat-clock'}) : null)));
  }

  function drawBoard() {
    const o = state.observation;
    const me = seatOf();
    const n = state.game.bots.length;
    const others = [];
    for (let i = 1; i < n; i++) others.push(sidePanel((me + i) % n, false));
    const wanted = selectableCards();
    const loose = o.table.loose.map((c) => {
      const el = card(c, (wanted.has(c) ? 'selectable' : '') + (sel.table.has(c) ? ' selected' : ''));
      if (wanted.has(c)) el.addEventListener('click', () => pickTable([c]));
      return el;
    });
    const builds = (o.table.builds || []).map((b) => {
      const on = b.cards.every((c) => sel.table.has(c));
      const can = b.cards.some((c) => wanted.has(c));
      return h('div', {class: 'build' + (can ? ' selectable' : '') + (on ? ' selected' : ''), 'data-cards': b.cards.join(' '), 'data-value': b.value,
        onclick: can ? () => pickTable(b.cards) : null},
        h('div', {class: 'pile'}, b.cards.map((c) => card(c))),
        h('div', {class: 'build-label'}, (b.multiple ? 'multiple build ' : 'build ') + b.value, h('br'), 'held by ' + bot(b.controller)));
    });
    const history = o.round_history || [];
    const last = history[history.length - 1];
    clear(els.board);
    els.board.hidden = false;
    els.board.setAttribute('data-your-turn', state.your_turn ? '1' : '0');
    els.board.setAttribute('data-turn', state.turn ? state.turn.turn : o.turn);
    add(els.board, [
      h('div', {class: 'seats top'}, others),
      h('div', {class: 'last-move', id: 'seat-last'}, last ? ['Last move: ', h('b', null, bot(last.seat)), ' ', moveView(last.move.notation)] : 'Round ' + o.round + ': the deal'),
      h('div', {class: 'table', id: 'seat-table'},
        h('div', {class: 'table-info'},
          h('div', null, 'Round ', h('b', null, o.round), ', deal ', o.deal),
          h('div', null, 'dealer: ', bot(o.dealer)),
          h('div', {class: 'stock'}, card(null, 'mini'), ' ', h('b', null, o.stock_size), ' in stock')),
        h('div', {class: 'table-cards'}, loose.length || builds.length ? [loose, builds] : h('span', {class: 'empty'}, 'the table is empty'))),
      h('div', {class: 'seats bottom'}, sidePanel(me, true)),
    ]);
  }

  // ---- Choosing a move ----------------------------------------------------
  const sameSet = (a, b) => a.length === b.size && a.every((c) => b.has(c));
  function candidates() {
    return legal().filter((mv) => mv.card && mv.card === sel.card && [...sel.table].every((c) => mv.table_cards.includes(c)));
  }
  function chosenMove() {
    const all = candidates();
    if (sel.chosen) return all.find((mv) => mv.notation === sel.chosen) || null;
    const exact = all.filter((mv) => sameSet(mv.table_cards, sel.table));
    return exact.length === 1 ? exact[0] : null;
  }
  // The table cards that some move still open to the selection uses.
  function selectableCards() {
    const out = new Set();
    if (!sel.card) return out;
    for (const mv of candidates()) for (const c of mv.table_cards) out.add(c);
    return out;
  }
  function pickCard(c) {
    sel = sel.card === c ? {card: null, table: new Set(), chosen: null} : {card: c, table: new Set(), chosen: null};
    redraw();
  }
  function pickTable(cards) {
    const on = cards.every((c) => sel.table.has(c));
    const next = new Set(sel.table);
    for (const c of cards) (on ? next.delete(c) : next.add(c));
    sel = {card: sel.card, table: next, chosen: null};
    redraw();
  }
  function redraw() {
    drawBoard();
    drawChoice();
    tick();
  }

  function drawChoice() {
    clear(els.choice);
    const running = state.status === 'GAME_STATUS_RUNNING';
    els.choice.hidden = !running;
    if (!running) return;
    if (!state.your_turn) {
      add(els.choice, h('p', {class: 'waiting', id: 'seat-waiting'}, 'Waiting for ', h('b', null, bot(state.observation.to_move)), ' to move\u2026'));
      return;
    }
    const calls = legal().filter((mv) => !mv.card);
    const list = sel.card ? candidates() : [];
    const move = chosenMove();
    add(els.choice, [
      h('p', {class: 'hint'}, !sel.card ? 'Your move: click the card to play from your hand.' :
        'Then click the table cards or builds it takes or builds with (none to trail), or pick a move below.'),
      h('div', {class: 'candidates', id: 'seat-candidates'},
        list.map((mv) => h('button', {type: 'button', class: 'candidate' + (move && move.notation === mv.notation ? ' chosen' : ''), 'data-notation': mv.notation, 'data-table-cards': mv.table_cards.join(' '),
          onclick: () => { sel.chosen = mv.notation; sel.table = new Set(mv.table_cards); redraw(); }}, moveView(mv.notation))),
        calls.map((mv) => h('button', {type: 'button', class: 'candidate', 'data-notation': mv.notation, onclick: () => { sel = {card: null, table: new Set(), chosen: null}; send(mv.notation); }}, mv.notation))),
      h('div', {class: 'preview', id: 'seat-preview', 'data-notation': move ? move.notation : ''},
        move ? ['Move: ', h('code', null, move.notation), ' \u2014 ', moveView(move.notation)] : (sel.card ? (list.length ? list.length + ' legal move' + (list.length > 1 ? 's' : '') + ' with this selection' : 'no legal move uses these cards') : '')),
      h('div', {class: 'actions'},
        h('button', {type: 'button', id: 'seat-send', class: 'primary', disabled: !move || sending, onclick: () => move && send(move.notation)}, 'Play'),
        h('button', {type: 'button', id: 'seat-clear', disabled: !sel.card, onclick: () => { sel = {card: null, table: new Set(), chosen: null}; redraw(); }}, 'Clear'),
        h('span', {class: 'small'}, state.turn.illegal_left + ' refused submission' + (state.turn.illegal_left === 1 ? '' : 's') + ' left before forfeit')),
    ]);
  }

  async function send(notation) {
    if (sending) return;
    sending = true;
    drawChoice();
    let r;
    try {
      r = await call('/api/seat/move', {method: 'POST', headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({turn: state.turn.turn, notation})});
    } catch (err) {
      r = {status: 0, body: {error: 'the viewer cannot be reached: ' + err.message}};
    }
    sending = false;
    const ok = r.status === 200 && r.body.accepted;
    els.verdict.hidden = false;
    els.verdict.className = 'verdict ' + (ok ? 'accepted' : 'refused');
    els.verdict.setAttribute('data-accepted', ok ? '1' : '0');
    clear(els.verdict);
    if (ok) {
      add(els.verdict, ['\u2714 Played ', moveView(r.body.verdict.move.notation), '.']);
    } else {
      add(els.verdict, ['\u2718 Refused: ', r.body.error || ('HTTP ' + r.status), r.body.reason ? h('span', {class: 'small'}, ' (' + r.body.reason + ')') : null]);
    }
    sel = {card: null, table: new Set(), chosen: null};
    shownKey = '';
    refresh();
  }

  // The seat's clock on its turn: the free time for the move, then the
  // bank (the referee's time_left_ms counts both, from when it answered).
  function tick() {
    const el = document.getElementById('seat-clock');
    if (!el || !state) return;
    clear(el);
    if (!state.your_turn || state.status !== 'GAME_STATUS_RUNNING') return;
    const left = Math.max(0, Number(state.turn.time_left_ms) - (Date.now() - receivedAt));
    const bank = Number(state.turn.bank_left_ms);
    const free = Math.max(0, left - bank);
    add(el, [h('div', null, 'move ', h('b', null, clock(free))), h('div', {class: left <= bank ? 'over' : null}, 'bank ', h('b', null, clock(Math.min(bank, left))))]);
  }

  const REASONS = {target: 'reached the target', highest_total: 'highest total', call_out: 'called out', all_eleven: 'took all eleven',
    forfeit: 'forfeit', aborted: 'aborted', deal_rounds: 'all deals played', cleared_table: 'cleared the table', most_cards: 'most cards', draw: 'draw'};
  function drawResult() {
    const over = state.status !== 'GAME_STATUS_RUNNING';
    els.result.hidden = !over;
    if (!over) return;
    const r = (state.ended && state.ended.result) || {winner: -1, reason: 'aborted', totals: [], detail: ''};
    const mine = sideOf(seatOf());
    const names = (side) => state.game.bots.filter((_, i) => sideOf(i) === side).join(' & ');
    clear(els.result);
    add(els.result, [
      h('div', {class: 'result-main', id: 'seat-outcome'}, r.winner < 0 ? (r.reason === 'aborted' ? 'The game was aborted' : 'No winner') : r.winner === mine ? 'You won' : names(r.winner) + ' won',
        ' \u2014 ', REASONS[r.reason] || r.reason, r.totals && r.totals.length ? ' \u00b7 ' + r.totals.join('\u2013') : ''),
      r.detail ? h('div', {class: 'small'}, r.detail) : null,
      h('div', null, h('a', {href: '/game/' + encodeURIComponent(gameId), id: 'seat-replay'}, 'The whole game, every card shown once it may be'), ' (the public viewer)'),
    ]);
    sessionStorage.removeItem(KEY);
  }

  // ---- Challenges -------------------------------------------------------
  async function challengePage() {
    const box = h('div', {id: 'challenge'});
    add(clear(app), [nav(), h('main', null, h('h1', null, 'Play a bot'), box)]);
    let options;
    try {
      const res = await fetch('/api/challenge', {headers: {Accept: 'application/json'}});
      options = await res.json();
      if (!res.ok) throw new Error(options.error || 'HTTP ' + res.status);
    } catch (err) {
      add(box, h('p', {class: 'note'}, 'This viewer offers no challenges (' + err.message + '). To play a seat, ask the organiser for a game and its seat token, then open /play/GAME.'));
      return;
    }
    const name = h('input', {type: 'text', id: 'challenge-name', maxlength: 64, placeholder: 'your name', required: true});
    const bot = h('select', {id: 'challenge-bot'}, options.bots.map((b) => h('option', {value: b}, b)));
    const error = h('p', {class: 'error', id: 'challenge-error', hidden: true});
    async function start(e) {
      e.preventDefault();
      error.hidden = true;
      const res = await fetch('/api/challenge', {method: 'POST', headers: {'Content-Type': 'application/json', Accept: 'application/json'},
        body: JSON.stringify({name: name.value.trim(), bot: bot.value})});
      const body = await res.json().catch(() => ({error: 'HTTP ' + res.status}));
      if (!res.ok) {
        error.textContent = body.error || 'HTTP ' + res.status;
        error.hidden = false;
        return;
      }
      sessionStorage.setItem('cassino-seat:' + body.game_id, body.token);
      location.assign('/play/' + encodeURIComponent(body.game_id));
    }
    add(box, [
      h('p', null, 'Play a game against a bot, your seat marked as a person\u2019s in the record. Rules: ', h('code', null, options.rules),
        '; ', Math.round(options.per_move_ms / 1000) + ' s a move and a ' + Math.round(options.bank_ms / 1000) + ' s bank.'),
      h('form', {class: 'seat-login', id: 'challenge-form', onsubmit: start},
        h('label', null, 'Your name ', name), h('label', null, 'Bot ', bot),
        h('button', {type: 'submit', id: 'challenge-start'}, 'Challenge')),
      error,
    ]);
  }

  page();
  refresh();
})();
