// The page's drawing (docs/browser.md): the ring, the game in words, the moves so far, the
// ranking of every move and the chart of the margin, each drawn from the game the page's
// script (ioiwari.js) holds and the core's answers it gives. IoiwariDraw(page) takes what it
// draws from and acts on, and returns the three drawings the page's refresh() makes.
const IoiwariDraw = function (page) {
  'use strict';

  const {
    state, history, over, legal, play, signed, finalMargin, outcome,
    ending, personToMove, makeMove, goTo, lineFrom, rankMoves, valueOf, refresh,
  } = page;

  const SVG = 'http://www.w3.org/2000/svg';
  function node(name, attributes, parent, text) {
    const element = document.createElementNS(SVG, name);
    for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
    if (text !== undefined) element.textContent = text;
    if (parent) parent.appendChild(element);
    return element;
  }

  function valuesShown(here) {
    return state.mode === 'analyze' || (personToMove(here) &&
      (state.values || document.getElementById('always-values').checked));
  }

  function drawRing(positions, plies) {
    const view = document.getElementById('ring-view');
    // The keyboard's focus stays in the ring across the drawing: on the pit that had it, or the
    // first that can be played, or the ring itself.
    const inRing = view.contains(document.activeElement);
    const focused = inRing ? Number(document.activeElement.getAttribute('data-pit')) : 0;
    view.replaceChildren();
    const here = positions[positions.length - 1];
    const last = plies[plies.length - 1];
    const before = positions.length > 1 ? positions[positions.length - 2].board : null;
    const n = state.ring.pits;
    const radius = n <= 8 ? 44 : n <= 12 ? 34 : 27;
    // The values are the mover's: in a game, shown on the person's moves only.
    const showValues = valuesShown(here);
    document.getElementById('values-legend').hidden = !showValues || over(here.board);
    const moves = over(here.board) ? [] : rankMoves(here.board);
    const valueOfPit = new Map(moves.map((m) => [m.pit, m]));
    const canMove = !over(here.board) && personToMove(here);
    let toFocus = null;
    for (let i = 0; i < n; ++i) {
      const pit = i + 1;
      // Pit 1 at the top, the others clockwise; around each, outwards its label (and in
      // analysis its − and +), inwards its value.
      const angle = (2 * Math.PI * i) / n;
      const out = [Math.sin(angle), -Math.cos(angle)];
      const x = 320 + 190 * out[0];
      const y = 262 + 150 * out[1];
      const at = (distance) => ({ x: x + distance * out[0], y: y + distance * out[1] });
      const classes = ['pit'];
      if (canMove && legal(here.board, pit)) classes.push('legal');
      if (last && last.pit === pit) classes.push('played');
      if (before && before[i] !== here.board[i]) classes.push('changed');
      const move = valueOfPit.get(pit);
      const group = node('g', { class: classes.join(' '), 'data-pit': pit }, view);
      let label = 'Pit ' + pit + ', ' + here.board[i] + (here.board[i] === 1 ? ' bead' : ' beads');
      if (showValues && move) {
        label += ', nets ' + signed(move.value) + ', the mover ' + ending(here, move.value) +
          ' in ' + move.moves + (move.moves === 1 ? ' move' : ' moves');
      }
      group.setAttribute('aria-label', label);
      // A pit that cannot be played now is a picture with its words.
      group.setAttribute('role', 'img');
      if (classes.includes('legal')) {
        group.setAttribute('role', 'button');
        group.setAttribute('tabindex', '0');
        group.addEventListener('click', () => makeMove(pit));
        group.addEventListener('keydown', (event) => {
          if (event.key === 'Enter' || event.key === ' ') {
            event.preventDefault();
            makeMove(pit);
          }
        });
        group.addEventListener('pointerenter', () => preview(pit));
        group.addEventListener('pointerleave', () => preview(0));
        group.addEventListener('focus', () => preview(pit));
        group.addEventListener('blur', () => preview(0));
        if (inRing && (pit === focused || !toFocus)) toFocus = group;
      }
      node('circle', { class: 'body', cx: x, cy: y, r: radius }, group);
      // The texts are drawn for the eye, beside the pit's button, whose label says them all;
      // a click on them goes through to the pit.
      const words = node('g', {
        class: 'pit-text' + (classes.includes('changed') ? ' changed' : ''), 'data-pit': pit,
        'aria-hidden': 'true',
      }, view);
      node('text', { class: 'count', x, y }, words, String(here.board[i]));
      node('text', { class: 'after', x, y: y + radius * 0.62 }, words, '');
      node('text', { class: 'label', ...at(radius + 15) }, words,
        (last && last.pit === pit ? '★ ' : '') + pit);
      if (showValues && move) {
        // (Further in where the text's width lies across the way in.)
        const word = outcome(here, move.value);
        const inward = -radius - 17 - 20 * Math.abs(out[0]);
        const spot = at(inward);
        node('text', { class: 'value ' + word, ...spot }, words, signed(move.value));
        // How it ends, and in how many moves: a line further from the pit, below the value in
        // the ring's upper half and above it in the lower.
        node('text', { class: 'ends ' + word, x: spot.x, y: spot.y + (out[1] > 0.3 ? -16 : 16) },
          words, { win: 'win', loss: 'loss', tie: 'tie' }[word] + ' · ' + move.moves);
      }
      if (state.mode === 'analyze' && state.moves.length === 0) {
        const { x: ex, y: ey } = at(radius + 36 + 22 * Math.abs(out[0]));
        editButton(view, ex - 13, ey, '−', pit, () => edit(i, -1));
        editButton(view, ex + 13, ey, '+', pit, () => edit(i, +1));
      }
    }
    const names = state.mode === 'play'
      ? (player) => (player === state.you ? 'you' : 'ioiwari') + ' (player ' + player + ')'
      : (player) => 'player ' + player;
    for (const player of [1, 2]) {
      node('text', {
        class: 'bank' + (!over(here.board) && here.mover === player ? ' turn' : ''),
        x: player === 1 ? 12 : 628, y: 530, 'text-anchor': player === 1 ? 'start' : 'end',
      }, view, 'Bank of ' + names(player) + ': ' + here.banks[player - 1]);
    }
    node('text', { x: 320, y: 530, 'text-anchor': 'middle', class: 'chart-text' }, view,
      'pits go clockwise');
    if (toFocus) toFocus.focus();
    else if (inRing) view.focus();
  }

  // What the move of `pit` would do, shown on the ring before it is made: each pit it changes
  // with its count after, and the move in words. 0 takes the preview away.
  function preview(pit) {
    const { positions } = history();
    const here = positions[positions.length - 1];
    const told = document.getElementById('preview');
    const move = pit && !over(here.board) && legal(here.board, pit) ? play(here.board, pit) : null;
    for (const group of document.querySelectorAll('#ring-view .pit')) {
      const i = Number(group.dataset.pit) - 1;
      const changes = move && move.after[i] !== here.board[i];
      group.classList.toggle('would-change', Boolean(changes));
      document.querySelector('#ring-view .pit-text[data-pit="' + (i + 1) + '"] .after').textContent =
        changes ? '→ ' + move.after[i] : '';
    }
    told.textContent = move ? describe({ pit, before: here.board, move }, 'Pit ' + pit + ' would be', true) : '';
  }

  function editButton(group, x, y, text, pit, action) {
    const button = node('g', { class: 'edit', role: 'button', tabindex: 0,
      'aria-label': (text === '+' ? 'one bead more in pit ' : 'one bead less in pit ') + pit }, group);
    node('rect', { x: x - 11, y: y - 11, width: 22, height: 22, rx: 4 }, button);
    node('text', { x, y, 'aria-hidden': 'true' }, button, text);
    const act = (event) => { event.stopPropagation(); action(); };
    button.addEventListener('click', act);
    button.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        act(event);
      }
    });
  }

  function edit(index, change) {
    const board = state.start.slice();
    board[index] = Math.min(state.ring.capacity, Math.max(0, board[index] + change));
    if (over(board)) return;
    state.start = board;
    state.moves = [];
    state.redo = [];
    refresh();
  }

  // A move in words: "Player 1 played pit 3 (2 beads): dropped in pit 4; captured pit 5: 3
  // beads." (`would`: "Pit 3 would be played: ...").
  function describe(ply, name, would) {
    const parts = [];
    let drops = [];
    const flush = () => {
      if (drops.length) parts.push((would ? 'drop in ' : 'dropped in ') + (drops.length === 1 ? 'pit ' : 'pits ') + drops.join(', '));
      drops = [];
    };
    for (const step of ply.move.steps) {
      if (step.kind === 0) { drops.push(step.pit); continue; }
      flush();
      if (step.kind === 1) parts.push((would ? 'skim' : 'skimmed') + ' full pit ' + step.pit + ': 1 bead to the bank');
      if (step.kind === 2) parts.push((would ? 'capture' : 'captured') + ' pit ' + step.pit + ': ' + step.beads + ' beads');
      if (step.kind === 3) parts.push((would ? 'its' : 'the') + ' last bead ' + (would ? 'falls' : 'fell') + ' on pit ' + step.pit + ': 1 bead to the other bank');
    }
    flush();
    const beads = ply.before[ply.pit - 1];
    if (would) {
      return 'Pit ' + ply.pit + ' (' + beads + (beads === 1 ? ' bead' : ' beads') + ') would ' +
        parts.join('; ') + '.';
    }
    return name + ' played pit ' + ply.pit + ' (' + beads + (beads === 1 ? ' bead' : ' beads') + '): ' +
      parts.join('; ') + '.';
  }

  const nameOf = (player) => (state.mode === 'play' ? (player === state.you ? 'You' : 'Ioiwari')
    : 'Player ' + player);

  function drawText(positions, plies) {
    const here = positions[positions.length - 1];
    const status = document.getElementById('status');
    if (over(here.board)) {
      const [one, two] = here.banks;
      const winner = one > two ? nameOf(1) : nameOf(2);
      const result = one === two ? 'a tie' : winner + ' ' + (winner === 'You' ? 'win' : 'wins') +
        ' by ' + Math.abs(one - two);
      status.textContent = 'Game over: ' + one + ' to ' + two + ', ' + result + '.';
    } else {
      // The end with perfect play from here, for the player to move.
      const value = valueOf(here.board);
      const forced = outcome(here, value);
      const margin = Math.abs(finalMargin(here, value));
      const toEnd = rankMoves(here.board)[0].moves;
      const mover = nameOf(here.mover);
      status.textContent = 'Move ' + (plies.length + 1) + ': ' +
        (mover === 'You' ? 'your move' : mover + ' to move') + '. With perfect play from here, ' +
        (mover === 'You' ? 'you' : mover) + ' ' +
        { win: 'win', loss: 'lose', tie: 'tie' }[forced] + (mover === 'You' ? '' : 's') +
        (forced === 'tie' ? '' : ' by ' + margin) + ', ' + toEnd +
        (toEnd === 1 ? ' move' : ' moves') + ' from the end.';
    }
    // The last two moves: in a game, the person's own and the reply.
    const lastMoves = document.getElementById('last-move');
    lastMoves.replaceChildren();
    for (const ply of plies.slice(-2)) {
      const line = document.createElement('span');
      line.textContent = describe(ply, nameOf(ply.mover));
      lastMoves.append(line, document.createElement('br'));
    }
    drawMoveList(plies);
    drawRanking(here);
    const lesson = document.getElementById('lesson');
    lesson.replaceChildren();
    for (const [i, ply] of plies.entries()) {
      if (ply.worth === ply.best) continue;
      if (state.mode === 'play' && ply.mover !== state.you) continue;
      const better = rankMoves(ply.before)[0];
      const item = document.createElement('li');
      const cost = ply.best - ply.worth;
      item.textContent = 'Move ' + (i + 1) + ', ' + nameOf(ply.mover) + ': pit ' + ply.pit + ' on ' +
        ply.before.join(' ') + ' cost ' + cost + (cost === 1 ? ' bead' : ' beads') +
        ' (it nets ' + signed(ply.worth) + ' from there; pit ' + better.pit + ' nets ' +
        signed(better.value) + ').';
      lesson.appendChild(item);
    }
    if (!lesson.children.length) {
      const item = document.createElement('li');
      item.className = 'none';
      item.textContent = plies.length === 0 ? 'No move yet.' : 'None: every move so far was a best move.';
      lesson.appendChild(item);
    }
  }

  // The moves so far as buttons, each going back (or forward) to the position after it; the
  // moves taken back follow, to go forward to.
  function drawMoveList(plies) {
    const list = document.getElementById('moves');
    list.replaceChildren();
    const all = state.moves.concat(state.redo.slice().reverse());
    const item = (count, text, current) => {
      const entry = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = text;
      button.dataset.count = count;
      if (current) button.setAttribute('aria-current', 'step');
      button.addEventListener('click', () => goTo(count));
      entry.appendChild(button);
      list.appendChild(entry);
    };
    item(0, 'Start', state.moves.length === 0);
    let mover = state.firstMover;
    for (let i = 0; i < all.length; ++i) {
      const ply = plies[i];
      const text = (i + 1) + '. ' + (state.mode === 'play' ? nameOf(mover) : 'P' + mover) +
        ': pit ' + all[i] + (ply && ply.worth !== ply.best ? ' (costly)' : '') +
        (i >= state.moves.length ? ' (taken back)' : '');
      item(i + 1, text, i + 1 === state.moves.length);
      mover = 3 - mover;
    }
  }

  // Every legal move from here, best first, with what it nets, how the game then ends, the moves
  // to the end and the best line after it; shown with the values.
  function drawRanking(here) {
    const section = document.getElementById('ranking');
    const body = document.getElementById('ranking-rows');
    body.replaceChildren();
    const shown = !over(here.board) && valuesShown(here);
    section.hidden = !shown;
    if (!shown) return;
    for (const move of rankMoves(here.board)) {
      const row = document.createElement('tr');
      const line = [move.pit].concat(lineFrom(play(here.board, move.pit).after));
      const cells = [
        String(move.pit), signed(move.value), ending(here, move.value), String(move.moves),
        line.length > 14 ? line.slice(0, 14).join(' ') + ' … (' + (line.length - 14) + ' more)'
          : line.join(' '),
      ];
      cells.forEach((text, i) => {
        const cell = document.createElement(i === 0 ? 'th' : 'td');
        if (i === 0) cell.scope = 'row';
        cell.textContent = text;
        if (i === 2) cell.className = outcome(here, move.value);
        row.appendChild(cell);
      });
      body.appendChild(row);
    }
  }

  // Player 1's final margin with perfect play from each position on, and the same as a table.
  function drawChart(positions, plies) {
    const chart = document.getElementById('chart');
    chart.replaceChildren(document.getElementById('chart-name'));
    const margins = positions.map((p) => {
      const value = over(p.board) ? 0 : valueOf(p.board);
      return p.banks[0] - p.banks[1] + (p.mover === 1 ? value : -value);
    });
    const most = Math.max(2, ...margins.map(Math.abs));
    const x = (i) => 40 + (580 * i) / Math.max(1, margins.length - 1);
    const y = (m) => 110 - (95 * m) / most;
    node('line', { class: 'chart-axis', x1: 40, x2: 620, y1: y(0), y2: y(0) }, chart);
    node('text', { class: 'chart-text', x: 4, y: y(most) + 4 }, chart, signed(most));
    node('text', { class: 'chart-text', x: 4, y: y(0) + 4 }, chart, '0');
    node('text', { class: 'chart-text', x: 4, y: y(-most) + 4 }, chart, signed(-most));
    node('polyline', { class: 'chart-line', points: margins.map((m, i) => x(i) + ',' + y(m)).join(' ') }, chart);
    margins.forEach((m, i) => node('circle', { class: 'chart-point', cx: x(i), cy: y(m), r: 3 }, chart));
    plies.forEach((ply, i) => {
      if (ply.worth === ply.best) return;
      node('circle', { class: 'chart-costly', cx: x(i + 1), cy: y(margins[i + 1]), r: 5 }, chart);
    });
    node('text', { class: 'chart-text', x: 320, y: 236, 'text-anchor': 'middle' }, chart,
      'after move 0 to ' + plies.length);
    const rows = document.getElementById('chart-rows');
    rows.replaceChildren();
    margins.forEach((margin, i) => {
      const row = document.createElement('tr');
      const ply = plies[i - 1];
      const cells = [i === 0 ? 'the start' : 'move ' + i, ply ? nameOf(ply.mover) + ', pit ' + ply.pit : '',
        signed(margin), ply && ply.worth !== ply.best ? 'cost ' + (ply.best - ply.worth) : ''];
      cells.forEach((text, c) => {
        const cell = document.createElement(c === 0 ? 'th' : 'td');
        if (c === 0) cell.scope = 'row';
        cell.textContent = text;
        row.appendChild(cell);
      });
      rows.appendChild(row);
    });
  }

  return { drawRing, drawText, drawChart };
};
