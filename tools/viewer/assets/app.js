// The Cassino viewer's page script (served by `cassino serve`, inlined by
// `cassino replay --format html`). Dependency-free. It draws every page from
// the JSON endpoints (docs/viewer.md) with DOM calls only: text from the
// records (bot names, labels, moves) is always set as text, never parsed as
// markup. Routes: / (home), /live, /tv, /game/ID (#turn=N opens turn N),
// /tournament/NAME, and the pages of window.cassinoPages (ladder.js:
// /ladders, /ladder/NAME); a page with an embedded #game-data element shows
// that one game and uses no network.
//
// Turns are counted one way everywhere: turn N is the board after N moves
// (turn 0 the deal), the move list numbers moves from 1, so move N leads to
// turn N. W/L/D are in `cassino stats`' order: won, lost, drawn.
'use strict';
(() => {
  const SVG = 'http://www.w3.org/2000/svg';
  const SUIT = {S: '\u2660', H: '\u2665', D: '\u2666', C: '\u2663'};
  const SUIT_NAME = {S: 'spades', H: 'hearts', D: 'diamonds', C: 'clubs'};
  const RANK = {A: 'A', T: '10', J: 'J', Q: 'Q', K: 'K'};
  const POLL_MS = 1000;
  const app = document.getElementById('app');

  // ---- DOM helpers -------------------------------------------------------
  function setAttrs(el, attrs) {
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
      else el.setAttribute(k, v === true ? '' : String(v));
    }
  }
  // Appends `kids`: a node, a string or number (as text), or arrays of them.
  function add(el, kids) {
    for (const kid of [kids].flat(10)) {
      if (kid === undefined || kid === null || kid === false) continue;
      el.appendChild(typeof kid === 'object' ? kid : document.createTextNode(String(kid)));
    }
    return el;
  }
  function h(tag, attrs, ...kids) {
    const el = document.createElement(tag);
    setAttrs(el, attrs);
    return add(el, kids);
  }
  function s(tag, attrs, ...kids) {
    const el = document.createElementNS(SVG, tag);
    setAttrs(el, attrs);
    return add(el, kids);
  }
  function clear(el) {
    while (el.firstChild) el.removeChild(el.firstChild);
    return el;
  }
  const gameHref = (id) => '/game/' + encodeURIComponent(id);
  const tournamentHref = (n) => '/tournament/' + encodeURIComponent(n);
  function date(us) {
    if (!us) return '';
    return new Date(us / 1000).toISOString().replace('T', ' ').slice(0, 19) + ' UTC';
  }
  function clock(ms) {
    const neg = ms < 0;
    ms = Math.abs(ms);
    const m = Math.floor(ms / 60000);
    const sec = ((ms % 60000) / 1000).toFixed(1).padStart(4, '0');
    return (neg ? '-' : '') + m + ':' + sec;
  }
  async function getJson(url) {
    const res = await fetch(url, {headers: {Accept: 'application/json'}});
    const body = await res.json();
    if (!res.ok) throw new Error(body.error || ('HTTP ' + res.status));
    return body;
  }
  // "standard" and the options that differ (the server's rules_short);
  // the full text goes in a tooltip.
  function rulesShort(x) {
    return x.rules_short || x.rules || '';
  }
  function wld(c) {
    return c.wins + '\u2013' + c.losses + '\u2013' + c.draws;
  }

  // ---- Cards -------------------------------------------------------------
  function cardName(c) {
    return (RANK[c[0]] || c[0]) + ' of ' + SUIT_NAME[c[1]];
  }
  // One card as SVG; `c` null draws its back.
  function card(c, cls) {
    const W = 48, H = 68;
    const el = s('svg', {
      class: 'card' + (cls ? ' ' + cls : ''), viewBox: `0 0 ${W} ${H}`,
      width: W, height: H, role: 'img',
      'aria-label': c ? cardName(c) : 'face-down card', 'data-card': c || null,
    });
    if (!c) {
      add(el, [
        s('rect', {x: 0.5, y: 0.5, width: W - 1, height: H - 1, rx: 5, class: 'back'}),
        s('rect', {x: 5, y: 5, width: W - 10, height: H - 10, rx: 3, class: 'back-inner'}),
      ]);
      return el;
    }
    const red = c[1] === 'H' || c[1] === 'D';
    const rank = RANK[c[0]] || c[0];
    add(el, [
      s('rect', {x: 0.5, y: 0.5, width: W - 1, height: H - 1, rx: 5, class: 'face'}),
      s('text', {x: 5, y: 15, class: 'rank' + (red ? ' red' : '')}, rank),
      s('text', {x: 5, y: 27, class: 'suit-small' + (red ? ' red' : '')}, SUIT[c[1]]),
      s('text', {x: W / 2, y: H / 2 + 14, 'text-anchor': 'middle', class: 'suit-big' + (red ? ' red' : '')}, SUIT[c[1]]),
      s('text', {x: W - 5, y: H - 6, 'text-anchor': 'end', class: 'rank small' + (red ? ' red' : '')}, rank),
    ]);
    return el;
  }
  function cardText(c) {
    const red = c[1] === 'H' || c[1] === 'D';
    return h('span', {class: 'ct' + (red ? ' red' : '')}, (RANK[c[0]] || c[0]) + SUIT[c[1]]);
  }
  // Card words inside notation ("take 5S 5D") shown with suit symbols.
  function notation(text) {
    return text.split(/(\s+|,|\+|=)/).map((w) => (/^[A2-9TJQK][SHDC]$/.test(w) ? cardText(w) : w));
  }
  // A move with its played card set apart from the cards it takes or builds
  // with: "take 8C 8H 6D" -> [8C played] takes 8H 6D. Other forms (call,
  // plucks, pair captures) as plain notation.
  const MOVE = /^(take|build|trail) (?:(\d+) )?([A2-9TJQK][SHDC])(=\d+)? ?(.*)$/;
  function moveView(text) {
    const m = text.match(MOVE);
    if (!m || /[,+]/.test(text)) return h('span', {class: 'mtext'}, notation(text));
    const [, verb, value, played, declared, rest] = m;
    const cards = rest ? rest.split(' ').map(cardText) : [];
    const what = verb === 'take' ? [' takes ', cards.length ? cards.map((c, i) => [i ? ' ' : '', c]) : ''] :
      verb === 'build' ? [' builds ' + value, cards.length ? [' with ', cards.map((c, i) => [i ? ' ' : '', c])] : ''] : ' trailed';
    return h('span', {class: 'mtext', title: text}, h('span', {class: 'played', title: 'played from the hand'}, cardText(played), declared ? declared : ''), what);
  }

  // ---- Game view ---------------------------------------------------------
  // Draws one game into `root`; live games poll for new events. Options:
  // compact (the TV page: the board and the last move, no controls, always
  // at the newest turn) and hash (follow #turn=N in the address).
  function gameView(root, source, opts) {
    const o = Object.assign({compact: false, hash: !(opts && opts.compact)}, opts || {});
    let data = null;
    let cur = 0;
    let timer = null;   // autoplay
    let poll = null;    // live polling
    let tick = null;    // the running clock
    let events = -1;
    let skewUs = 0;     // the server's clock minus ours
    let destroyed = false;
    const els = {};
    const served = typeof source !== 'object';

    const sideOf = (seat) => seat % Math.max(1, data.sides || data.seats.length);
    const sideName = (side) => data.seats.filter((_, i) => sideOf(i) === side).map((x) => x.bot).join(' & ');
    const last = () => data.positions.length - 1;
    const rejectText = (r) => (r.submitted !== undefined ? '\u201c' + r.submitted + '\u201d refused: ' + r.reason : 'a refused submission (quoted once the game is over)');

    function hashTurn() {
      const m = (location.hash || '').match(/^#turn=(\d+)$/);
      return m ? +m[1] : null;
    }

    function build() {
      clear(root);
      const d = data;
      const statusCls = 'badge ' + d.status;
      const v = d.verified;
      const verified = v.ok
        ? h('span', {class: 'badge ok', id: 'verified', title: 're-adjudicated from the record: every move legal, every hash and score right'}, '\u2714 verified')
        : h('span', {class: 'badge bad', id: 'verified', title: 'the record fails verification'}, '\u2718 verification failed');
      els.score = h('span', {class: 'score', id: 'score', title: 'game points per side'});
      const enc = encodeURIComponent(d.game_id);
      const downloads = served && !o.compact ? h('span', {class: 'downloads'},
        h('a', {class: 'button', id: 'download-page', href: '/api/games/' + enc + '/page.html', download: 'cassino-' + d.game_id + '.html', title: 'this page as one self-contained file'}, '\u2b07 page'),
        d.view === 'omniscient' ? h('a', {class: 'button', id: 'download-record', href: '/api/games/' + enc + '/record.json', download: 'cassino-' + d.game_id + '.json', title: 'the record, as cassino export writes it (cassino import, cassino verify)'}, '\u2b07 record') : null) : null;
      add(root, [
        h('div', {class: 'game-head'},
          h(o.compact ? 'h2' : 'h1', null, o.compact ? h('a', {href: gameHref(d.game_id)}, d.seats.map((x, i) => [i ? ' vs ' : '', x.bot])) : ['Game ', h('code', null, d.game_id)]),
          h('span', {class: statusCls, id: 'status'}, d.status),
          els.score,
          o.compact ? null : verified,
          o.compact ? null : h('span', {class: 'badge view'}, d.view === 'omniscient' ? 'all cards shown' : 'public view'),
          downloads),
        o.compact ? null : h('p', {class: 'meta'},
          d.seats.map((x, i) => [i ? ' vs ' : '', h('strong', null, x.bot), x.human ? h('span', {class: 'human', title: 'a person played this seat'}, ' (human)') : null]),
          d.label ? [' \u00b7 ', h('span', {class: 'label'}, d.label)] : '',
          ' \u00b7 ', h('span', {title: d.rules, id: 'rules'}, rulesShort(d)),
          ' \u00b7 clock ', (d.clock.per_move_ms / 1000) + ' s/move + ' + (d.clock.bank_ms / 1000) + ' s bank',
          ' \u00b7 ', date(d.created_us)),
        v.ok || o.compact ? null : h('p', {class: 'error', id: 'verify-failure'},
          'Verification failed at event ' + v.seq + ' (round ' + v.round + ', turn ' + v.turn + '): ' + v.what +
          (v.expected !== undefined && (v.expected || v.recorded) ? ' \u2014 expected ' + v.expected + ', recorded ' + v.recorded : '')),
        d.replay_error ? h('p', {class: 'error'}, 'The replay stopped: ' + d.replay_error) : null,
        d.hidden_reason && !o.compact ? h('p', {class: 'note', id: 'hidden-reason'}, d.hidden_reason) : null,
      ]);
      els.result = h('div', {class: 'result', id: 'result'});
      els.board = h('div', {class: 'board', id: 'board'});
      if (o.compact) {
        add(root, [els.board, els.result]);
        render();
        return;
      }
      els.controls = controls();
      els.moves = h('ol', {class: 'moves', id: 'moves', start: 1});
      els.side = h('aside', {class: 'side'}, h('h2', null, 'Moves'), els.moves);
      els.rounds = h('div', {class: 'rounds', id: 'rounds'});
      add(root, h('div', {class: 'game-grid'},
        h('div', {class: 'main'}, els.result, els.board, els.controls, els.rounds),
        els.side));
      fillMoves();
      render();
    }

    function controls() {
      const btn = (id, label, title, fn) => h('button', {id, title, type: 'button', onclick: fn}, label);
      els.play = btn('play', '\u25b6', 'play / pause (space)', toggle);
      els.slider = h('input', {type: 'range', min: 0, max: last(), value: cur, id: 'slider', 'aria-label': 'turn', oninput: (e) => go(+e.target.value)});
      els.turn = h('span', {id: 'turn-label', class: 'turn-label'});
      els.roundSel = h('select', {id: 'round-select', 'aria-label': 'jump to round', onchange: (e) => go(+e.target.value)});
      els.turnIn = h('input', {type: 'number', min: 0, max: last(), id: 'turn-input', 'aria-label': 'jump to turn', onchange: (e) => go(+e.target.value)});
      return h('div', {class: 'controls'},
        btn('first', '\u00ab', 'first (Home)', () => go(0)),
        btn('prev', '\u25c0', 'back (\u2190)', () => go(cur - 1)),
        els.play,
        btn('next', '\u25b6\u25b6', 'next (\u2192)', () => go(cur + 1)),
        btn('last', '\u00bb', 'last (End)', () => go(last())),
        els.slider, els.turn,
        h('label', null, 'round ', els.roundSel),
        h('label', null, 'turn ', els.turnIn));
    }

    function rejectItems(list) {
      return (list || []).map((r) => h('li', {class: 'rej-line seat' + r.seat},
        '\u26a0 ', h('span', {class: 'who'}, data.seats[r.seat] ? data.seats[r.seat].bot : '?'), ' ', rejectText(r),
        h('span', {class: 'ms'}, ' ' + (r.elapsed_ms / 1000).toFixed(1) + 's')));
    }

    function fillMoves() {
      clear(els.moves);
      clear(els.roundSel);
      let round = 0;
      data.positions.forEach((p, k) => {
        // A round starts at the position before its first move (the engine
        // deals the next round as the last move of a round is played).
        const r = k === 0 || !p.move ? p.round : p.move.round;
        if (r !== round) {
          round = r;
          els.roundSel.appendChild(h('option', {value: Math.max(0, k - 1)}, 'round ' + r));
          els.moves.appendChild(h('li', {class: 'round-sep'}, 'Round ' + r));
        }
        if (k === 0) return;
        add(els.moves, rejectItems(p.rejects));
        const m = p.move || {seat: -1, text: '?'};
        els.moves.appendChild(h('li', {value: k, class: 'mv seat' + m.seat, 'data-k': k, onclick: () => go(k)},
          h('span', {class: 'who'}, data.seats[m.seat] ? data.seats[m.seat].bot : '?'), ' ',
          moveView(m.text),
          h('span', {class: 'ms'}, ' ' + (m.elapsed_ms / 1000).toFixed(1) + 's')));
      });
      // Refused at the turn being played (or the ones that ended the game).
      add(els.moves, rejectItems(data.pending_rejects));
    }

    function seatPanel(p, seat) {
      const x = data.seats[seat];
      const side = sideOf(seat);
      const hand = p.hands ? p.hands[seat].map((c) => card(c)) : Array.from({length: p.hand_sizes[seat]}, () => card(null));
      const toMove = p.to_move === seat;
      const live = toMove && data.status === 'running' && cur === last();
      return h('div', {class: 'seat' + (toMove ? ' to-move' : ''), 'data-seat': seat},
        h('div', {class: 'seat-head'},
          h('span', {class: 'seat-name'}, x.bot), x.human ? h('span', {class: 'human'}, ' (human)') : null,
          x.account && x.account !== x.bot ? h('span', {class: 'acct'}, ' (' + x.account + ')') : null,
          h('span', {class: 'seat-no'}, ' seat ' + seat + (data.sides !== data.seats.length ? ', side ' + side : '')),
          toMove ? h('span', {class: 'to-move-mark'}, ' \u25c6 to move') : null),
        h('div', {class: 'seat-body'},
          h('div', {class: 'hand', 'data-seat': seat}, hand.length ? hand : h('span', {class: 'empty'}, 'no cards')),
          h('div', {class: 'seat-stats'},
            h('div', {title: 'cards captured this round'}, h('span', {class: 'pile-icon'}), ' ', h('b', {class: 'captured'}, p.captured[side] !== undefined ? p.captured[side] : 0), ' captured'),
            p.sweeps && p.sweeps[side] ? h('div', null, p.sweeps[side] + ' sweep' + (p.sweeps[side] > 1 ? 's' : '')) : null,
            h('div', null, h('b', null, p.totals[side]), ' points'),
            live ? h('div', {class: 'clock ticking', id: 'move-clock', title: 'time on this move: free time, then the bank'}) : null,
            h('div', {class: 'clock', title: 'overage bank left'}, 'bank ', h('b', {class: live ? 'bank-live' : null}, clock(p.bank_ms[seat]))),
            p.rejects_so_far[seat] ? h('div', {class: 'rej refused-count'}, p.rejects_so_far[seat] + ' refused') : null)));
    }

    function tableArea(p) {
      const loose = p.table.loose.map((c) => card(c));
      const builds = p.table.builds.map((b) => h('div', {class: 'build', 'data-value': b.value, 'data-controller': b.controller},
        h('div', {class: 'pile'}, b.cards.map((c) => card(c))),
        h('div', {class: 'build-label'}, (b.multiple ? 'multiple build ' : 'build ') + b.value, h('br'), 'held by ' + data.seats[b.controller].bot)));
      const empty = !loose.length && !builds.length;
      return h('div', {class: 'table', id: 'table'},
        h('div', {class: 'table-info'},
          h('div', null, 'Round ', h('b', null, p.round), ', deal ', p.deal),
          h('div', null, 'dealer: ', data.seats[p.dealer] ? data.seats[p.dealer].bot : p.dealer),
          h('div', {class: 'stock', title: 'cards left to deal this round'}, card(null, 'mini'), ' ', h('b', null, p.stock), ' in stock')),
        h('div', {class: 'table-cards'}, empty ? h('span', {class: 'empty'}, 'the table is empty') : [loose, builds]));
    }

    // Keeps the current move in view inside the move list, never scrolling
    // the page itself (on a narrow screen the list is below the board).
    function showCurrentMove() {
      const li = els.moves.querySelector('li.current');
      if (!li) return;
      const box = els.side;
      const top = li.offsetTop - box.offsetTop;
      if (top < box.scrollTop) box.scrollTop = top;
      else if (top + li.offsetHeight > box.scrollTop + box.clientHeight) box.scrollTop = top + li.offsetHeight - box.clientHeight;
    }

    function render() {
      const p = data.positions[cur];
      const n = data.seats.length;
      const others = [];
      for (let i = 1; i < n; i++) others.push(seatPanel(p, i));
      clear(els.board);
      add(els.board, [h('div', {class: 'seats top'}, others), tableArea(p), h('div', {class: 'seats bottom'}, seatPanel(p, 0))]);
      const lastMove = p.move ? h('div', {class: 'last-move', id: 'last-move'}, 'Turn ' + cur + ': ', h('b', null, data.seats[p.move.seat].bot), ' ', moveView(p.move.text)) : h('div', {class: 'last-move', id: 'last-move'}, 'The deal');
      els.board.insertBefore(lastMove, els.board.children[1]);
      const totals = p.totals || [];
      els.score.textContent = totals.length ? totals.join('\u2013') : '';
      renderResult();
      updateClock();
      if (o.compact) return;
      els.slider.max = last();
      els.slider.value = cur;
      els.turnIn.max = last();
      els.turnIn.value = cur;
      els.turn.textContent = 'turn ' + cur + ' / ' + last();
      els.turn.setAttribute('data-k', cur);
      for (const opt of els.roundSel.options) if (+opt.value <= cur) els.roundSel.value = opt.value;
      for (const li of els.moves.querySelectorAll('li.mv')) li.classList.toggle('current', +li.getAttribute('data-k') === cur);
      showCurrentMove();
      renderRounds(p);
    }

    // The seat to move's time on this move, ticking: free time first, then
    // the bank (the record says when the turn began: last_event_us).
    function updateClock() {
      const el = root.querySelector('#move-clock');
      if (!el || !data || data.status !== 'running') return;
      const p = data.positions[cur];
      const nowUs = Date.now() * 1000 + skewUs;
      const thinking = Math.max(0, (nowUs - data.last_event_us) / 1000);
      const free = data.clock.per_move_ms;
      const over = Math.max(0, thinking - free);
      el.textContent = '';
      add(el, ['move ', h('b', null, clock(Math.max(0, free - thinking))), ' left']);
      el.classList.toggle('over', over > 0);
      const bank = root.querySelector('.bank-live');
      if (bank) bank.textContent = clock(Math.max(0, p.bank_ms[p.to_move] - over));
    }

    function renderRounds(p) {
      clear(els.rounds);
      // Rounds completed by this position: a later round has begun, or the
      // game is over at the last position.
      const done = data.rounds.filter((r) => r.round < p.round || (cur === last() && data.result));
      if (!done.length) return;
      add(els.rounds, h('h2', null, 'Round scores'));
      for (const r of done) {
        const rows = r.items.map((it) => h('tr', null,
          h('td', null, it.kind.replace('_', ' '), it.card ? [' ', cardText(it.card)] : ''),
          h('td', null, sideName(it.side)), h('td', {class: 'num'}, it.points)));
        add(els.rounds, h('details', {class: 'round', open: r.round === done[done.length - 1].round},
          h('summary', null, 'Round ' + r.round + ': ' + r.totals_before.join('\u2013') + ' \u2192 ' + r.totals_after.join('\u2013')),
          h('table', null, h('thead', null, h('tr', null, h('th', null, 'item'), h('th', null, 'to'), h('th', null, 'points'))), h('tbody', null, rows)),
          h('p', {class: 'small'}, r.sides.map((sd, i) => sideName(i) + ': ' + sd.cards + ' cards, ' + sd.spades + ' spades, ' + sd.aces + ' aces, ' + sd.sweeps + ' sweeps').join(' \u00b7 '),
            r.leftover_side >= 0 ? ' \u00b7 table left to ' + sideName(r.leftover_side) : '')));
      }
    }

    function renderResult() {
      clear(els.result);
      const r = data.result;
      if (!r || cur !== last()) {
        els.result.hidden = true;
        return;
      }
      els.result.hidden = false;
      const why = {target: 'reached the target', highest_total: 'highest total', call_out: 'called out', all_eleven: 'took all eleven',
        forfeit: 'forfeit', aborted: 'aborted', deal_rounds: 'all deals played', cleared_table: 'cleared the table', most_cards: 'most cards', draw: 'draw'}[r.reason] || r.reason;
      const refused = (data.pending_rejects || []).length;
      add(els.result, [
        h('div', {class: 'result-main'}, r.winner >= 0 ? [h('b', null, sideName(r.winner)), ' wins'] : (r.reason === 'aborted' ? 'Aborted' : 'No winner'),
          ' \u2014 ', why, r.totals && r.totals.length ? ' \u00b7 ' + r.totals.join('\u2013') : ''),
        h('div', {class: 'small'}, r.detail),
        data.forfeit ? h('div', {class: 'small'}, 'Forfeit by ' + data.seats[data.forfeit.seat].bot + ' (' + data.forfeit.reason + '): ' + data.forfeit.detail) : null,
        refused && !o.compact ? h('div', {class: 'small rej'}, refused + ' refused submission' + (refused > 1 ? 's' : '') + ' at the last turn: see the end of the move list') : null,
      ]);
    }

    function go(k) {
      if (!data) return;
      cur = Math.max(0, Math.min(last(), k | 0));
      render();
      if (o.hash && served && history.replaceState) history.replaceState(null, '', '#turn=' + cur);
    }
    function toggle() {
      if (timer) {
        clearInterval(timer);
        timer = null;
        els.play.textContent = '\u25b6';
        return;
      }
      if (cur === last() && data.status !== 'running') cur = 0;
      els.play.textContent = '\u23f8';
      timer = setInterval(() => {
        if (cur < last()) go(cur + 1);
        else if (data.status !== 'running') toggle();
      }, 700);
    }
    function onKey(e) {
      const focus = document.activeElement ? document.activeElement.tagName : '';
      if (destroyed || !data || o.compact || /^(INPUT|SELECT|TEXTAREA)$/.test(focus)) return;
      if (e.key === ' ' && focus === 'BUTTON') return;  // the button's own click
      const keys = {ArrowRight: () => go(cur + 1), ArrowLeft: () => go(cur - 1), Home: () => go(0), End: () => go(last()), ' ': toggle};
      if (keys[e.key]) {
        e.preventDefault();
        keys[e.key]();
      }
    }
    function onHash() {
      const k = hashTurn();
      if (k !== null && data && k !== cur) go(k);
    }
    document.addEventListener('keydown', onKey);
    if (o.hash) window.addEventListener('hashchange', onHash);

    // A game opens at the turn in the address (#turn=N), else at its end:
    // the result of a finished game, the newest move of a running one.
    function load(d) {
      const first = !data;
      const atEnd = first || cur === last();
      data = d;
      if (first || !els.board || !root.contains(els.board)) {
        const k = o.hash ? hashTurn() : null;
        cur = k !== null ? Math.max(0, Math.min(last(), k)) : last();
        build();
      } else {
        if (atEnd) cur = last();
        const status = root.querySelector('#status');
        if (status) status.textContent = d.status;
        if (!o.compact) fillMoves();
        render();
      }
      clearInterval(tick);
      tick = d.status === 'running' ? setInterval(updateClock, 100) : null;
    }

    async function refresh() {
      if (destroyed) return;
      try {
        const head = await getJson('/api/games/' + encodeURIComponent(source) + '/head');
        if (head.now_us) skewUs = head.now_us - Date.now() * 1000;
        if (head.events !== events) {
          events = head.events;
          const d = await getJson('/api/games/' + encodeURIComponent(source));
          if (destroyed) return;
          const wasRunning = data && data.status === 'running';
          load(d);
          if (wasRunning && d.status !== 'running') build();
        }
        if (data.status === 'running') poll = setTimeout(refresh, POLL_MS);
      } catch (err) {
        clear(root).appendChild(h('p', {class: 'error'}, String(err.message || err)));
      }
    }

    if (served) refresh();
    else load(source);
    return {
      destroy() {
        destroyed = true;
        clearTimeout(poll);
        clearInterval(timer);
        clearInterval(tick);
        document.removeEventListener('keydown', onKey);
        window.removeEventListener('hashchange', onHash);
      },
      id: () => (served ? source : source.game_id),
    };
  }

  // ---- Game listings -----------------------------------------------------
  function resultCell(g) {
    if (g.status === 'running') {
      return [h('span', {class: 'badge running'}, 'running'), g.totals && g.totals.length ? h('span', {class: 'running-score', title: 'points after the rounds scored so far'}, ' ' + g.totals.join('\u2013')) : null];
    }
    if (g.status === 'aborted') return h('span', {class: 'badge aborted'}, 'aborted');
    const totals = (g.totals || []).join('\u2013');
    const winner = g.winner >= 0 ? g.seats.filter((_, i) => i % Math.max(1, g.totals.length) === g.winner).map((x) => x.bot).join(' & ') : 'no winner';
    return [h('b', null, winner), ' ', totals, ' ', h('span', {class: 'small'}, '(' + g.end_reason + ')')];
  }
  function gamesTable(games) {
    if (!games.length) return h('p', {class: 'empty'}, 'No games.');
    return h('table', {class: 'list games'},
      h('thead', null, h('tr', null, ['created', 'game', 'players', 'label', 'rules', 'result'].map((x) => h('th', null, x)))),
      h('tbody', null, games.map((g) => h('tr', null,
        h('td', {class: 'nowrap'}, date(g.created_us)),
        h('td', null, h('a', {href: gameHref(g.game_id)}, g.game_id)),
        h('td', null, g.seats.map((x, i) => [i ? ' vs ' : '', x.bot])),
        h('td', null, g.label ? h('a', {href: '/?label=' + encodeURIComponent(g.label)}, g.label) : ''),
        h('td', {class: 'small rules', title: g.rules}, rulesShort(g)),
        h('td', null, resultCell(g))))));
  }

  function nav() {
    return h('nav', null, h('a', {href: '/', class: 'brand'}, '\u2660 Cassino'), h('a', {href: '/'}, 'Games'), h('a', {href: '/live'}, 'Live'), h('a', {href: '/tv'}, 'TV'), h('a', {href: '/ladders'}, 'Ladders'));
  }

  async function homePage() {
    const params = new URLSearchParams(location.search);
    const fields = ['bot', 'label', 'rules', 'status', 'from', 'to'];
    const inputs = {};
    for (const f of fields) {
      inputs[f] = f === 'status'
        ? h('select', {name: f}, ['', 'running', 'finished', 'aborted'].map((v) => h('option', {value: v, selected: params.get(f) === v}, v || 'any status')))
        : h('input', {name: f, type: f === 'from' || f === 'to' ? 'date' : 'text', value: params.get(f) || '', placeholder: f === 'rules' ? 'e.g. standard' : f});
    }
    const form = h('form', {class: 'filters', method: 'get', action: '/'}, fields.map((f) => h('label', null, f, ' ', inputs[f])), h('button', {type: 'submit'}, 'Filter'));
    const liveBox = h('div', {id: 'live-list'});
    const tourBox = h('div', {id: 'tournaments'});
    const listBox = h('div', {id: 'games'});
    const pager = h('div', {class: 'pager'});
    add(clear(app), [nav(), h('main', null,
      h('h1', null, 'Games'),
      h('section', null, h('h2', null, 'Live now'), liveBox),
      h('section', null, h('h2', null, 'Tournaments'), tourBox),
      h('section', null, h('h2', null, 'All games'), form, listBox, pager))]);

    const query = new URLSearchParams();
    for (const f of fields) if (params.get(f)) query.set(f, params.get(f));
    const cursors = [];
    async function page(after) {
      const q = new URLSearchParams(query);
      q.set('limit', '25');
      if (after) q.set('after', after);
      try {
        const j = await getJson('/api/games?' + q);
        clear(listBox).appendChild(gamesTable(j.games));
        clear(pager);
        if (cursors.length) pager.appendChild(h('button', {type: 'button', id: 'newer', onclick: () => { cursors.pop(); page(cursors[cursors.length - 1]); }}, '\u2190 newer'));
        if (j.next) pager.appendChild(h('button', {type: 'button', id: 'older', onclick: () => { cursors.push(j.next); page(j.next); }}, 'older \u2192'));
      } catch (err) {
        clear(listBox).appendChild(h('p', {class: 'error'}, err.message));
      }
    }
    page(null);
    async function live() {
      try {
        const j = await getJson('/api/games?status=running&limit=20');
        clear(liveBox).appendChild(j.games.length ? gamesTable(j.games) : h('p', {class: 'empty'}, 'No game is running.'));
      } catch (err) { /* shown by the main list */ }
    }
    live();
    setInterval(live, 2000);
    try {
      const t = await getJson('/api/tournaments');
      clear(tourBox).appendChild(t.tournaments.length ? h('table', {class: 'list'},
        h('thead', null, h('tr', null, ['tournament', 'format', 'bots', 'games', 'status', 'created'].map((x) => h('th', null, x)))),
        h('tbody', null, t.tournaments.map((x) => h('tr', null,
          h('td', null, h('a', {href: tournamentHref(x.name)}, x.name)), h('td', null, x.format.replace('_', ' ')),
          h('td', null, x.format === 'label' ? '' : x.participants.length), h('td', {class: 'num'}, x.scheduled),
          h('td', null, h('span', {class: 'badge ' + x.status}, x.status)), h('td', null, date(x.created_us)))))) : h('p', {class: 'empty'}, 'No tournaments.'));
    } catch (err) {
      clear(tourBox).appendChild(h('p', {class: 'error'}, err.message));
    }
  }

  async function livePage() {
    const listBox = h('div', {id: 'live-list'});
    const gameBox = h('div', {id: 'live-game'});
    add(clear(app), [nav(), h('main', null, h('h1', null, 'Live'), listBox, gameBox)]);
    let shown = null;
    let view = null;
    async function tick() {
      try {
        const j = await getJson('/api/games?status=running&limit=50');
        clear(listBox).appendChild(j.games.length ? h('ul', {class: 'live-games'}, j.games.map((g) => h('li', null,
          h('a', {href: gameHref(g.game_id), onclick: (e) => { e.preventDefault(); show(g.game_id); }}, g.seats.map((x, i) => [i ? ' vs ' : '', x.bot])),
          g.totals ? h('span', {class: 'running-score'}, ' ' + g.totals.join('\u2013')) : null,
          ' ', h('span', {class: 'small'}, g.game_id + (g.label ? ' \u00b7 ' + g.label : ''))))) : h('p', {class: 'empty'}, 'No game is running. This page follows the next one that starts.'));
        if (!shown && j.games.length) show(j.games[0].game_id);
      } catch (err) {
        clear(listBox).appendChild(h('p', {class: 'error'}, err.message));
      }
    }
    function show(id) {
      if (view) view.destroy();
      shown = id;
      view = gameView(clear(gameBox), id, {hash: false});
    }
    tick();
    setInterval(tick, POLL_MS);
  }

  // A crosstable of {wins, losses, draws} cells, row against column.
  function crossTable(id, p, cells, what) {
    return h('table', {class: 'list cross', id},
      h('thead', null, h('tr', null, h('th', null, ''), p.map((x) => h('th', {class: 'rot'}, x)))),
      h('tbody', null, p.map((a, i) => h('tr', null, h('th', null, a), p.map((b, j) => {
        if (i === j) return h('td', {class: 'self'}, '');
        const c = cells[i][j];
        const n = c.wins + c.draws + c.losses;
        const score = n ? (c.wins + c.draws / 2) / n : 0.5;
        const cls = !n ? '' : score > 0.5 ? 'win' : score < 0.5 ? 'loss' : 'even';
        return h('td', {class: 'num ' + cls, title: a + ' vs ' + b + ': ' + c.wins + ' ' + what + ' won, ' + c.losses + ' lost, ' + c.draws + ' drawn'}, n ? wld(c) : '\u00b7');
      })))));
  }

  async function tournamentPage(name) {
    const box = h('div');
    add(clear(app), [nav(), h('main', null, box)]);
    const enc = encodeURIComponent(name);
    const pages = [];  // games_after of the pages before the one shown
    let after = -1;
    async function tick() {
      let t;
      try {
        t = await getJson('/api/tournaments/' + enc + '?games_after=' + after);
      } catch (err) {
        clear(box).appendChild(h('p', {class: 'error'}, err.message));
        return;
      }
      const p = t.participants;
      const standings = h('table', {class: 'list', id: 'standings'},
        h('thead', null, h('tr', null, ['#', 'bot', 'games', 'won', 'lost', 'drawn', 'forfeits', 'score', 'points for', 'against'].map((x) => h('th', null, x)))),
        h('tbody', null, t.standings.map((x) => h('tr', null, h('td', {class: 'num'}, x.rank), h('td', null, h('a', {href: '/?bot=' + encodeURIComponent(x.bot)}, x.bot)),
          [x.games, x.wins, x.losses, x.draws, x.forfeits, x.score, x.points_for, x.points_against].map((v) => h('td', {class: 'num'}, v))))));
      const result = (g) => {
        if (g.status === 'finished') return [g.winner >= 0 ? h('b', null, g.seats[g.winner]) : 'draw', ' ', (g.totals || []).join('\u2013')];
        return [h('span', {class: 'badge ' + g.status}, g.status), g.status === 'running' && g.totals ? h('span', {class: 'running-score'}, ' ' + g.totals.join('\u2013')) : null];
      };
      const pairCell = (g) => {
        if (!t.duplicate) return null;
        if (!g.pair_points) return h('td', {class: 'small'}, g.index % 2 ? '' : 'pair ' + g.pair);
        const [a, b] = g.pair_points;
        return h('td', {class: 'pair-result', title: 'the pair: both bots played this deal from both seats'}, g.seats[1] + ' ' + a + '\u2013' + b + ' ' + g.seats[0]);
      };
      const games = h('table', {class: 'list', id: 'schedule'},
        h('thead', null, h('tr', null, ['#', 'seat 0', 'seat 1', 'game', 'result', t.duplicate ? 'pair' : null].filter((x) => x).map((x) => h('th', null, x)))),
        h('tbody', null, t.games.map((g) => h('tr', {class: t.duplicate && g.index % 2 ? 'pair-second' : null}, h('td', {class: 'num'}, g.index), h('td', null, g.seats[0]), h('td', null, g.seats[1]),
          h('td', null, g.game_id ? h('a', {href: gameHref(g.game_id)}, g.game_id) : ''),
          h('td', null, result(g)), pairCell(g)))));
      const pager = h('div', {class: 'pager', id: 'schedule-pager'},
        pages.length ? h('button', {type: 'button', id: 'schedule-prev', onclick: () => { after = pages.pop(); tick(); }}, '\u2190 earlier') : null,
        h('span', {class: 'small'}, t.games.length ? 'games ' + t.games[0].index + '\u2013' + t.games[t.games.length - 1].index + ' of ' + t.games_total : ''),
        t.games_next !== null && t.games_next !== undefined ? h('button', {type: 'button', id: 'schedule-next', onclick: () => { pages.push(after); after = t.games_next; tick(); }}, 'later \u2192') : null);
      add(clear(box), [
        h('div', {class: 'game-head'}, h('h1', null, 'Tournament ', h('code', null, t.name)), h('span', {class: 'badge ' + t.status}, t.status)),
        h('p', {class: 'meta'}, t.format === 'label' ? 'games labelled ' + t.name : t.format.replace('_', ' '), ' \u00b7 ', p.length + ' bots',
          t.format === 'label' ? '' : ' \u00b7 ' + t.games_per_pairing + ' games per pairing', t.duplicate ? ' (duplicate deals)' : '',
          ' \u00b7 ', h('span', {title: t.rules, id: 'rules'}, rulesShort(t)), ' \u00b7 ', date(t.created_us), t.reason ? ' \u00b7 ' + t.reason : ''),
        h('p', {class: 'progress'}, h('progress', {max: t.scheduled || 1, value: t.ended_games}), ' ', t.ended_games + ' of ' + t.scheduled + ' games ended, ' + t.running_games + ' running'),
        h('div', {class: 'two'}, h('section', null, h('h2', null, 'Standings'), standings),
          h('section', null, h('h2', null, 'Crosstable'), h('p', {class: 'small'}, 'row bot\u2019s won\u2013lost\u2013drawn against the column bot'), crossTable('crosstable', p, t.crosstable, 'games'))),
        t.pair_crosstable ? h('section', null, h('h2', null, 'Duplicate pairs'),
          h('p', {class: 'small'}, 'each pair deals the same cards twice, seats swapped; a pair is won with more points over its two games (a win 1, a draw \u00bd). Row bot\u2019s pairs won\u2013lost\u2013drawn against the column bot.'),
          crossTable('pair-crosstable', p, t.pair_crosstable, 'pairs')) : null,
        h('section', null, h('h2', null, 'Ratings'), h('img', {class: 'ratings', alt: 'ratings with 95% intervals', src: '/api/tournaments/' + enc + '/ratings.svg?v=' + t.ended_games})),
        h('section', null, h('h2', null, 'Games'), games, pager),
      ]);
      clearTimeout(tick.timer);
      if (t.status === 'running') tick.timer = setTimeout(tick, 2 * POLL_MS);
    }
    tick();
  }

  // Like Lichess TV: the most recent running games side by side, each
  // following its moves; a game that ends stays a few seconds with its
  // result, then makes room for a newer one.
  async function tvPage() {
    const grid = h('div', {class: 'tv-grid', id: 'tv'});
    const note = h('p', {class: 'small', id: 'tv-note'});
    add(clear(app), [nav(), h('main', {class: 'wide'}, h('h1', null, 'TV'), note, grid)]);
    const SLOTS = 6;
    const views = new Map();  // game id -> {view, box, endedAt}
    async function tick() {
      let j;
      try {
        j = await getJson('/api/games?status=running&limit=' + SLOTS);
      } catch (err) {
        note.textContent = err.message;
        return;
      }
      const running = new Set(j.games.map((g) => g.game_id));
      const now = Date.now();
      for (const [id, v] of views) {
        if (running.has(id)) continue;
        if (!v.endedAt) v.endedAt = now;
        if (now - v.endedAt > 8000 || views.size > SLOTS) {
          v.view.destroy();
          v.box.remove();
          views.delete(id);
        }
      }
      for (const g of j.games) {
        if (views.has(g.game_id) || views.size >= SLOTS) continue;
        const box = h('section', {class: 'tv-cell', 'data-game': g.game_id});
        grid.appendChild(box);
        views.set(g.game_id, {view: gameView(box, g.game_id, {compact: true}), box, endedAt: 0});
      }
      note.textContent = views.size ? 'The ' + views.size + ' most recent live game' + (views.size > 1 ? 's' : '') + ', each following its moves.' : 'No game is running. This page shows the next ones that start.';
    }
    tick();
    setInterval(tick, 2 * POLL_MS);
  }

  // ---- Routing -----------------------------------------------------------
  // seat.js (a person's seat, /play/GAME) draws with the same helpers.
  window.CassinoViewer = Object.freeze({h, add, clear, card, cardText, moveView, clock, nav});
  const embedded = document.getElementById('game-data');
  if (embedded) {
    const main = h('main', {class: 'standalone'});
    add(clear(app), main);
    gameView(main, JSON.parse(embedded.textContent), {hash: true});
    return;
  }
  const path = location.pathname;
  // Pages in files of their own (ladder.js) register in window.cassinoPages
  // and draw with these helpers.
  for (const page of window.cassinoPages || []) {
    const found = path.match(page.pattern);
    if (found) {
      page.render({app, h, s, add, clear, getJson, date, nav, gameHref, rulesShort}, found);
      return;
    }
  }
  let m;
  if ((m = path.match(/^\/game\/([^/]+)$/))) {
    const main = h('main');
    add(clear(app), [nav(), main]);
    gameView(main, decodeURIComponent(m[1]));
  } else if ((m = path.match(/^\/tournament\/([^/]+)$/))) {
    tournamentPage(decodeURIComponent(m[1]));
  } else if (path === '/live') {
    livePage();
  } else if (path === '/tv') {
    tvPage();
  } else if (/^\/play(\/|$)/.test(path)) {
    // seat.js draws it.
  } else {
    homePage();
  }
})();
