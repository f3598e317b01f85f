// The viewer's ladder pages (docs/viewer.md, *Ladders*; docs/ladder.md):
// /ladders lists the ladders; /ladder/NAME shows its leaderboard with each
// version's rating ± deviation, each version's rating history as a chart,
// the recent games and the pairs played, from /api/ladders/NAME (the
// records, read with `cassino stats --ladder`'s code). It registers its
// routes in window.cassinoPages; app.js routes to them and lends its DOM
// helpers (text from the records is always set as text).
'use strict';
(() => {
  const COLORS = ['#245bb5', '#c62828', '#17683a', '#b8860b', '#6a1b9a', '#00838f', '#ef6c00', '#5d4037', '#ad1457', '#37474f'];
  const fixed = (v, n) => Number(v).toFixed(n);

  // A chart of every version's mu after each of its games, with a band of
  // ±3 sigma for the versions picked (the top ones at first).
  function historyChart(v, history, bots) {
    const {s} = v;
    const W = 760, H = 300, L = 44, R = 10, T = 10, B = 26;
    let t0 = Infinity, t1 = -Infinity, lo = Infinity, hi = -Infinity;
    for (const bot of bots) {
      for (const [t, mu, sigma] of history[bot] || []) {
        t0 = Math.min(t0, t); t1 = Math.max(t1, t);
        lo = Math.min(lo, mu - 3 * sigma); hi = Math.max(hi, mu + 3 * sigma);
      }
    }
    const svg = s('svg', {class: 'ladder-chart', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': 'rating history'});
    if (!isFinite(t0)) return svg;
    if (t1 === t0) t1 = t0 + 1;
    if (hi === lo) hi = lo + 1;
    const x = (t) => L + (W - L - R) * (t - t0) / (t1 - t0);
    const y = (m) => T + (H - T - B) * (hi - m) / (hi - lo);
    for (let k = 0; k <= 4; ++k) {
      const m = lo + (hi - lo) * k / 4;
      svg.appendChild(s('line', {x1: L, x2: W - R, y1: y(m), y2: y(m), stroke: '#dfe3ea'}));
      svg.appendChild(s('text', {x: 2, y: y(m) + 4, 'font-size': 11, fill: '#6a7384'}, fixed(m, 1)));
    }
    svg.appendChild(s('text', {x: L, y: H - 6, 'font-size': 11, fill: '#6a7384'}, new Date(t0 / 1000).toISOString().slice(0, 19).replace('T', ' ')));
    svg.appendChild(s('text', {x: W - R, y: H - 6, 'font-size': 11, fill: '#6a7384', 'text-anchor': 'end'}, new Date(t1 / 1000).toISOString().slice(0, 19).replace('T', ' ')));
    bots.forEach((bot, i) => {
      const pts = history[bot] || [];
      if (!pts.length) return;
      const color = COLORS[i % COLORS.length];
      const upper = pts.map(([t, mu, sg]) => `${x(t)},${y(mu + 3 * sg)}`);
      const lower = pts.map(([t, mu, sg]) => `${x(t)},${y(mu - 3 * sg)}`).reverse();
      svg.appendChild(s('polygon', {points: upper.concat(lower).join(' '), fill: color, 'fill-opacity': 0.08, stroke: 'none'}));
      svg.appendChild(s('polyline', {points: pts.map(([t, mu]) => `${x(t)},${y(mu)}`).join(' '), fill: 'none', stroke: color, 'stroke-width': 1.6},
        s('title', null, bot)));
    });
    return svg;
  }

  async function laddersPage(v) {
    const {h, add, clear, getJson, date, nav, app} = v;
    const box = h('div');
    add(clear(app), [nav(), h('main', null, h('h1', null, 'Ladders'), box)]);
    try {
      const j = await getJson('/api/ladders');
      clear(box).appendChild(j.ladders.length ? h('table', {class: 'list', id: 'ladders'},
        h('thead', null, h('tr', null, ['ladder', 'status', 'versions', 'games', 'created'].map((x) => h('th', null, x)))),
        h('tbody', null, j.ladders.map((l) => h('tr', null,
          h('td', null, h('a', {href: '/ladder/' + encodeURIComponent(l.name)}, l.name)),
          h('td', null, h('span', {class: 'badge ' + (l.status || '')}, l.status || 'records only')),
          h('td', {class: 'num'}, l.versions), h('td', {class: 'num'}, l.finished),
          h('td', null, date(l.created_us)))))) : h('p', {class: 'empty'}, 'No ladders.'));
    } catch (err) {
      clear(box).appendChild(h('p', {class: 'error'}, err.message));
    }
  }

  async function ladderPage(v, name) {
    const {h, add, clear, getJson, date, nav, app, gameHref, rulesShort} = v;
    const box = h('div');
    add(clear(app), [nav(), h('main', null, box)]);
    let picked = null;  // the versions drawn with their bands
    async function tick() {
      let l;
      try {
        l = await getJson('/api/ladders/' + encodeURIComponent(name));
      } catch (err) {
        clear(box).appendChild(h('p', {class: 'error'}, err.message));
        return;
      }
      const current = l.leaderboard.filter((e) => e.current);
      if (!picked) picked = current.slice(0, 6).map((e) => e.bot);
      const chartBox = h('div');
      const drawChart = () => clear(chartBox).appendChild(historyChart(v, l.history, picked));
      const board = h('table', {class: 'list', id: 'leaderboard'},
        h('thead', null, h('tr', null, ['#', 'bot', 'version', 'mu \u2212 3\u03c3', 'rating', 'games', 'won', 'lost', 'drawn', '', 'chart'].map((x) => h('th', null, x)))),
        h('tbody', null, l.leaderboard.map((e) => h('tr', {class: e.current ? '' : 'old-version'},
          h('td', {class: 'num'}, e.current ? e.rank : ''),
          h('td', null, h('a', {href: '/?bot=' + encodeURIComponent(e.bot)}, e.account)),
          h('td', null, e.version, e.current ? '' : h('span', {class: 'small'}, ' (old)')),
          h('td', {class: 'num'}, fixed(e.conservative, 2)),
          h('td', {class: 'num nowrap'}, fixed(e.mu, 2) + ' \u00b1 ' + fixed(e.sigma, 2)),
          [e.games, e.wins, e.losses, e.draws].map((x) => h('td', {class: 'num'}, x)),
          h('td', null, e.provisional ? h('span', {class: 'badge'}, 'provisional') : '',
            e.on_probation ? h('span', {class: 'badge aborted', title: e.probation_reason}, 'probation') : ''),
          h('td', null, h('input', {type: 'checkbox', checked: picked.includes(e.bot), 'aria-label': 'chart ' + e.bot,
            onchange: (ev) => { picked = ev.target.checked ? picked.concat([e.bot]) : picked.filter((b) => b !== e.bot); drawChart(); }}))))));
      const probations = l.leaderboard.filter((e) => e.current && e.probation_reason);
      const pairs = h('table', {class: 'list', id: 'pairs'},
        h('thead', null, h('tr', null, ['bot', 'bot', 'games', 'won', 'lost', 'drawn'].map((x) => h('th', null, x)))),
        h('tbody', null, l.pairs.map((p) => h('tr', null, h('td', null, p.a), h('td', null, p.b),
          [p.games, p.a_wins, p.b_wins, p.draws].map((x) => h('td', {class: 'num'}, x))))));
      const recent = h('table', {class: 'list', id: 'recent'},
        h('thead', null, h('tr', null, ['created', 'game', 'players', 'result'].map((x) => h('th', null, x)))),
        h('tbody', null, l.recent.map((g) => h('tr', null,
          h('td', {class: 'nowrap'}, date(g.created_us)),
          h('td', null, h('a', {href: gameHref(g.game_id)}, g.game_id)),
          h('td', null, g.bots.map((b, i) => [i ? ' vs ' : '', b])),
          h('td', null, g.status !== 'finished' ? h('span', {class: 'badge ' + g.status}, g.status)
            : [g.winner >= 0 ? h('b', null, g.bots.filter((_, i) => i % g.totals.length === g.winner).join(' & ')) : 'draw', ' ', (g.totals || []).join('\u2013'), ' ', h('span', {class: 'small'}, '(' + g.end_reason + ')')])))));
      add(clear(box), [
        h('div', {class: 'game-head'}, h('h1', null, 'Ladder ', h('code', null, l.name)), l.status ? h('span', {class: 'badge ' + l.status}, l.status) : ''),
        h('p', {class: 'meta'}, l.rules ? h('span', {title: l.rules}, rulesShort(l.rules)) : '', l.duplicate ? ' \u00b7 duplicate pairs' : '',
          ' \u00b7 ', l.games_rated + ' games rated, ' + l.games_running + ' running', l.reason ? ' \u00b7 ' + l.reason : ''),
        h('p', {class: 'small'}, 'Rated with ' + l.model.name + ' (a new version: ' + fixed(l.model.mu, 0) + ' \u00b1 ' + fixed(l.model.sigma, 2) +
          '); ordered by mu \u2212 ' + l.model.k + '\u03c3, so that a few lucky games do not lead. Provisional: fewer than ' + l.provisional_games + ' games.'),
        h('section', null, h('h2', null, 'Leaderboard'), board),
        probations.length ? h('section', null, h('h2', null, 'Probation'), h('ul', null, probations.map((e) =>
          h('li', null, h('b', null, e.account), e.on_probation ? ' (now): ' : ' (ended): ', e.probation_reason)))) : '',
        h('section', null, h('h2', null, 'Rating history'), h('p', {class: 'small'}, 'mu after each game, with a band of \u00b13\u03c3; tick versions in the table to draw them'), chartBox),
        h('div', {class: 'two'}, h('section', null, h('h2', null, 'Recent games'), recent), h('section', null, h('h2', null, 'Pairs played'), pairs)),
      ]);
      drawChart();
      if (l.status === 'open' || l.games_running > 0) setTimeout(tick, 10000);
    }
    tick();
  }

  window.cassinoPages = (window.cassinoPages || []).concat([
    {pattern: /^\/ladders$/, render: (v) => laddersPage(v)},
    {pattern: /^\/ladder\/([^/]+)$/, render: (v, m) => ladderPage(v, decodeURIComponent(m[1]))},
  ]);
})();
