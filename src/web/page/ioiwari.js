// The page's own script (docs/browser.md): it draws the ring and the study of the game, and asks
// the core, compiled to WebAssembly from ioiwari's C++ (src/web/api.cpp), for every rule, move
// and value. No framework; the page opens from a folder with no server.
(function () {
  'use strict';

  const STRATEGIES = ['optimal', 'greedy', 'random', 'weakest'];
  // The rings offered: those the page solves in a few seconds, at about 0.3 µs a class
  // (docs/browser.md has the figures).
  const MOST_CLASSES = 6500000;
  const IOI = { pits: 7, capacity: 5 };

  let core = null;   // the module's exports
  let io = null;     // its buffer, 32-bit integers
  let solved = null; // the ring the core has solved: {pits, capacity}
  let opponentTimer = null;
  let typed = '';    // digits typed for a pit of a ring of 10 or more
  let typedTimer = null;

  // What is on screen, all of it in the address.
  const state = {
    mode: 'play',        // or 'analyze'
    ring: { ...IOI },
    start: [],           // the board the moves start from
    firstMover: 1,       // the player to move at the start (analysis may set 2)
    you: 1,              // play: the person's player
    opponent: 'optimal', // play: ioiwari's strategy
    seed: 1,             // play: for the opponent's random choices
    moves: [],           // pit labels, both players', in order
    redo: [],            // moves taken back, the next to play again last
    values: false,       // the values shown on demand, until the next move
  };

  // ---- The core. ----------------------------------------------------------------------------

  // The page marks its steps for the bench (User Timing: performance.getEntriesByType('mark')):
  // ioiwari:script, its script running; ioiwari:core, the module ready; ioiwari:drawn, each game
  // drawn.
  function loadCore() {
    performance.mark('ioiwari:script');
    const text = atob(window.IOIWARI_MODULE);
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; ++i) bytes[i] = text.charCodeAt(i);
    // The module's C library asks its host for the few things below (src/web/CMakeLists.txt
    // lists them): the page has no environment and no files, and an exit is an error.
    const nothing = 52; // ENOSYS
    const imports = {
      ioiwari: {
        stopped(pointer, length) {
          const what = new TextDecoder().decode(
            new Uint8Array(core.memory.buffer, pointer, length));
          showError('The core stopped: ' + what);
        },
      },
      wasi_snapshot_preview1: {
        environ_sizes_get(count, size) {
          new Uint32Array(core.memory.buffer, count, 1)[0] = 0;
          new Uint32Array(core.memory.buffer, size, 1)[0] = 0;
          return 0;
        },
        environ_get: () => 0,
        fd_close: () => nothing,
        fd_seek: () => nothing,
        fd_write: () => nothing,
        proc_exit(status) {
          throw new Error('the core exited with status ' + status);
        },
      },
    };
    return WebAssembly.instantiate(bytes, imports).then(({ instance }) => {
      core = instance.exports;
      core._initialize();
      io = () => new Int32Array(core.memory.buffer, core.io(), 512);
      performance.mark('ioiwari:core');
    });
  }

  function showError(text) {
    const error = document.getElementById('error');
    error.textContent = text;
    error.hidden = false;
  }

  const isSolved = (ring) => solved && solved.pits === ring.pits && solved.capacity === ring.capacity;

  function ensureSolved(ring) {
    if (isSolved(ring)) return;
    solved = null;
    valueCache.clear();
    const begun = performance.now();
    const failed = core.solve(ring.pits, ring.capacity);
    if (failed === 1) throw new Error('no game is played on ' + ring.pits + ' pits of capacity ' + ring.capacity);
    if (failed === 2) {
      throw new Error('the ring of ' + ring.pits + ' pits, capacity ' + ring.capacity +
        ', takes more memory to solve than a page has; the command line solves it (ioiwari solve)');
    }
    solved = { ...ring, ms: performance.now() - begun };
  }

  // Runs `then` once `ring` is solved. A solve holds the page for as long as it takes (up to a
  // few seconds), so the page first says what it is doing and lets the browser draw that.
  let busy = false;
  function whenSolved(ring, then) {
    if (isSolved(ring)) {
      then();
      return;
    }
    busy = true;
    clearTimeout(opponentTimer);
    document.body.dataset.busy = 'true';
    const classes = core.ring_classes(ring.pits, ring.capacity);
    document.getElementById('status').textContent = 'Solving the ring of ' + ring.pits +
      ' pits, capacity ' + ring.capacity + ': ' + classes.toLocaleString('en') +
      ' rotation classes…';
    for (const control of document.querySelectorAll('#settings input, #settings select, #settings button, #actions button')) {
      control.disabled = true;
    }
    requestAnimationFrame(() => setTimeout(() => {
      let failure = null;
      try {
        ensureSolved(ring);
      } catch (error) {
        failure = error;
      }
      busy = false;
      delete document.body.dataset.busy;
      for (const control of document.querySelectorAll('#settings input, #settings select, #settings button, #actions button')) {
        control.disabled = false;
      }
      if (!failure) {
        then();
        return;
      }
      // The core said why (stopped, above) when it stopped; otherwise the page says it. Then
      // the IOI's ring, which always solves, is played again.
      if (document.getElementById('error').hidden) showError('The page could not solve it: ' + failure.message);
      state.mode = 'play';
      state.ring = { ...IOI };
      newGame();
    }, 0));
  }

  function put(board) {
    const buffer = io();
    board.forEach((beads, i) => { buffer[i] = beads; });
  }

  const valueCache = new Map();
  // The value of `board` for the player to move.
  function valueOf(board) {
    const key = board.join(',');
    if (!valueCache.has(key)) {
      put(board);
      valueCache.set(key, core.board_value());
    }
    return valueCache.get(key);
  }

  // Every legal move of `board` with its value, best first: [{pit, value}].
  function analyze(board) {
    put(board);
    const count = core.analyze();
    const buffer = io();
    const moves = [];
    for (let i = 0; i < count; ++i) moves.push({ pit: buffer[2 * i], value: buffer[2 * i + 1] });
    return moves;
  }

  // The move of `pit` on `board`, by the core's rule: the board after it, the gains and steps.
  function play(board, pit) {
    put(board);
    if (core.play(pit) !== 0) return null;
    const buffer = io();
    const steps = [];
    for (let i = 0; i < buffer[34]; ++i) {
      steps.push({ kind: buffer[35 + 3 * i], pit: buffer[36 + 3 * i], beads: buffer[37 + 3 * i] });
    }
    return {
      after: Array.from(buffer.slice(0, board.length)),
      moverGain: buffer[32],
      opponentGain: buffer[33],
      steps,
    };
  }

  function choose(board, strategy) {
    put(board);
    return core.choose(STRATEGIES.indexOf(strategy));
  }

  // One of the solved ring's starts at random: N pits, 3N - 1 beads, 2 to 4 in each (at most
  // the capacity), the IOI's rule on any ring. A ring with no such start (a capacity under 3)
  // starts with half its capacity in every pit, and the page says so.
  function dealStart() {
    const count = core.start_count();
    const help = document.getElementById('start-help');
    if (count > 0 && core.start_at(Math.floor(Math.random() * count)) === 0) {
      help.textContent = 'Bead counts of pits 1 to N, separated by spaces.';
      return Array.from(io().slice(0, solved.pits));
    }
    help.textContent = 'This ring has no start of 3N − 1 beads with 2 to 4 in each pit: it ' +
      'starts from ' + Math.ceil(solved.capacity / 2) + ' in each. Type any other.';
    return Array(solved.pits).fill(Math.ceil(solved.capacity / 2));
  }

  // ---- The game, as the moves make it. ------------------------------------------------------

  // Every position from the start: the board, both banks, who is to move; and each move's ply.
  function history() {
    const positions = [{ board: state.start.slice(), banks: [0, 0], mover: state.firstMover }];
    const plies = [];
    for (const pit of state.moves) {
      const here = positions[positions.length - 1];
      const move = play(here.board, pit);
      if (!move) break;
      const banks = here.banks.slice();
      banks[here.mover - 1] += move.moverGain;
      banks[2 - here.mover] += move.opponentGain;
      const best = valueOf(here.board);
      const worth = move.moverGain - move.opponentGain - valueOf(move.after);
      plies.push({ mover: here.mover, pit, before: here.board, best, worth, move });
      positions.push({ board: move.after, banks, mover: 3 - here.mover });
    }
    return { positions, plies };
  }

  const over = (board) => board.every((beads) => beads === 0);
  const legal = (board, pit) => board[pit - 1] > 0;
  const signed = (value) => (value > 0 ? '+' + value : value < 0 ? '−' + -value : '0');

  // The outcome for the mover of a move worth `worth` from now, with the banks as they are.
  function outcome(position, worth) {
    const margin = position.banks[position.mover - 1] - position.banks[2 - position.mover] + worth;
    return margin > 0 ? 'win' : margin < 0 ? 'loss' : 'tie';
  }

  function personToMove(position) {
    return state.mode === 'analyze' || position.mover === state.you;
  }

  function makeMove(pit) {
    if (busy) return false;
    const { positions } = history();
    const here = positions[positions.length - 1];
    if (over(here.board) || !legal(here.board, pit) || !personToMove(here)) return false;
    state.moves.push(pit);
    state.redo = [];
    state.values = false;
    refresh();
    return true;
  }

  function opponentMove() {
    opponentTimer = null;
    const { positions } = history();
    const here = positions[positions.length - 1];
    if (state.mode !== 'play' || over(here.board) || here.mover === state.you) return;
    core.seed(state.seed + state.moves.length, 0);
    state.moves.push(choose(here.board, state.opponent));
    refresh();
  }

  function undo() {
    const { plies } = history();
    if (state.mode === 'analyze') {
      if (state.moves.length > 0) state.redo.push(state.moves.pop());
    } else {
      if (!plies.some((ply) => ply.mover === state.you)) return;
      while (plies.length > 0 && plies[plies.length - 1].mover !== state.you) {
        state.redo.push(state.moves.pop());
        plies.pop();
      }
      state.redo.push(state.moves.pop());
    }
    refresh();
  }

  function redo() {
    if (state.redo.length === 0) return;
    state.moves.push(state.redo.pop());
    if (state.mode === 'play') {
      // The replies that were taken back with it, as they were played.
      let { positions } = history();
      while (state.redo.length > 0 && !over(positions[positions.length - 1].board) &&
             positions[positions.length - 1].mover !== state.you) {
        state.moves.push(state.redo.pop());
        positions = history().positions;
      }
    }
    refresh();
  }

  // The rest of the game with perfect play on the person's side (and the opponent's strategy on
  // the other; in analysis, perfect play on both).
  function playOut() {
    clearTimeout(opponentTimer);
    for (;;) {
      const { positions } = history();
      const here = positions[positions.length - 1];
      if (over(here.board)) break;
      if (state.mode === 'play' && here.mover !== state.you) {
        core.seed(state.seed + state.moves.length, 0);
        state.moves.push(choose(here.board, state.opponent));
      } else {
        state.moves.push(choose(here.board, 'optimal'));
      }
    }
    state.redo = [];
    refresh();
  }

  // ---- The address. -------------------------------------------------------------------------

  function writeAddress() {
    const parts = [
      'mode=' + state.mode,
      'ring=' + state.ring.pits + '-' + state.ring.capacity,
      'start=' + state.start.join('-'),
    ];
    if (state.mode === 'play') {
      parts.push('you=' + state.you, 'opponent=' + state.opponent, 'seed=' + state.seed);
    } else {
      parts.push('mover=' + state.firstMover);
    }
    parts.push('moves=' + state.moves.join('-'));
    window.history.replaceState(null, '', '#' + parts.join('&'));
  }

  // Sets the state an address gives, but its moves, which it returns (they are checked against
  // the rules once the ring is solved: keepLegal). False, and the IOI's ring in the state, when
  // the address gives no game that can be played.
  function readAddress(hash) {
    const fields = new Map(hash.replace(/^#/, '').split('&').filter(Boolean)
      .map((part) => part.split('=')));
    if (!fields.has('ring') || !fields.has('start')) return false;
    const numbers = (text) => (text ? text.split('-').map(Number) : []);
    const [pits, capacity] = numbers(fields.get('ring'));
    const ring = { pits, capacity };
    const start = numbers(fields.get('start'));
    if (!offered(ring) || start.length !== pits ||
        start.some((b) => !Number.isInteger(b) || b < 0 || b > capacity) || over(start)) {
      state.mode = 'play';
      state.ring = { ...IOI };
      return false;
    }
    state.mode = fields.get('mode') === 'analyze' ? 'analyze' : 'play';
    state.ring = ring;
    state.start = start;
    state.you = fields.get('you') === '2' ? 2 : 1;
    state.opponent = STRATEGIES.includes(fields.get('opponent')) ? fields.get('opponent') : 'optimal';
    state.seed = Number(fields.get('seed')) >>> 0;
    state.firstMover = state.mode === 'analyze' && fields.get('mover') === '2' ? 2 : 1;
    state.moves = [];
    state.redo = [];
    return numbers(fields.get('moves'));
  }

  // Plays `moves` from the state's start as far as they are legal.
  function keepLegal(moves) {
    const pits = state.ring.pits;
    state.moves = [];
    for (const pit of moves) {
      const { positions } = history();
      const here = positions[positions.length - 1];
      if (over(here.board) || !Number.isInteger(pit) || pit < 1 || pit > pits ||
          !legal(here.board, pit)) {
        break;
      }
      state.moves.push(pit);
    }
  }

  // ---- Drawing. -----------------------------------------------------------------------------

  const SVG = 'http://www.w3.org/2000/svg';
  function node(name, attributes, parent, text) {
    const element = document.createElementNS(SVG, name);
    for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
    if (text !== undefined) element.textContent = text;
    if (parent) parent.appendChild(element);
    return element;
  }

  function drawRing(positions, plies) {
    const view = document.getElementById('ring-view');
    view.replaceChildren();
    const here = positions[positions.length - 1];
    const last = plies[plies.length - 1];
    const before = positions.length > 1 ? positions[positions.length - 2].board : null;
    const n = state.ring.pits;
    const radius = n <= 8 ? 44 : n <= 12 ? 34 : 27;
    // The values are the mover's: in a game, shown on the person's moves only.
    const showValues = state.mode === 'analyze' || (personToMove(here) &&
      (state.values || document.getElementById('always-values').checked));
    document.getElementById('values-legend').hidden = !showValues || over(here.board);
    const moves = over(here.board) ? [] : analyze(here.board);
    const valueOfPit = new Map(moves.map((m) => [m.pit, m.value]));
    const canMove = !over(here.board) && personToMove(here);
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
      const value = valueOfPit.get(pit);
      const word = value === undefined ? '' : outcome(here, value);
      const group = node('g', { class: classes.join(' '), 'data-pit': pit }, view);
      const label = 'Pit ' + pit + ', ' + here.board[i] + (here.board[i] === 1 ? ' bead' : ' beads') +
        (showValues && value !== undefined ? ', worth ' + signed(value) + ' (' + word + ')' : '');
      group.setAttribute('aria-label', label);
      if (classes.includes('legal')) {
        group.setAttribute('role', 'button');
        group.setAttribute('tabindex', '0');
        group.addEventListener('click', () => makeMove(pit));
        group.addEventListener('keydown', (event) => {
          if (event.key === 'Enter' || event.key === ' ') makeMove(pit);
        });
      }
      node('circle', { class: 'body', cx: x, cy: y, r: radius }, group);
      node('text', { class: 'count', x, y }, group, String(here.board[i]));
      node('text', { class: 'label', ...at(radius + 15) }, group,
        (last && last.pit === pit ? '★ ' : '') + pit);
      if (showValues && value !== undefined) {
        // (Further in where the text's width lies across the way in.)
        node('text', { class: 'value ' + word, ...at(-radius - 17 - 20 * Math.abs(out[0])) }, group,
          signed(value) + ' ' + word);
      }
      if (state.mode === 'analyze' && state.moves.length === 0) {
        const { x: ex, y: ey } = at(radius + 36 + 22 * Math.abs(out[0]));
        editButton(group, ex - 13, ey, '−', () => edit(i, -1));
        editButton(group, ex + 13, ey, '+', () => edit(i, +1));
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
    node('text', { x: 320, y: 270, 'text-anchor': 'middle', class: 'chart-text' }, view,
      'clockwise →');
  }

  function editButton(group, x, y, text, action) {
    const button = node('g', { class: 'edit', role: 'button', tabindex: 0,
      'aria-label': text === '+' ? 'one bead more' : 'one bead less' }, group);
    node('rect', { x: x - 11, y: y - 11, width: 22, height: 22, rx: 4 }, button);
    node('text', { x, y }, button, text);
    button.addEventListener('click', (event) => { event.stopPropagation(); action(); });
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

  function describe(ply, name) {
    const parts = [];
    let drops = [];
    const flush = () => {
      if (drops.length) parts.push('dropped in ' + (drops.length === 1 ? 'pit ' : 'pits ') + drops.join(', '));
      drops = [];
    };
    for (const step of ply.move.steps) {
      if (step.kind === 0) { drops.push(step.pit); continue; }
      flush();
      if (step.kind === 1) parts.push('skimmed full pit ' + step.pit + ': 1 bead to the bank');
      if (step.kind === 2) parts.push('captured pit ' + step.pit + ': ' + step.beads + ' beads');
      if (step.kind === 3) parts.push('the last bead fell on pit ' + step.pit + ': 1 bead to the other bank');
    }
    flush();
    const beads = ply.before[ply.pit - 1];
    return name + ' played pit ' + ply.pit + ' (' + beads + (beads === 1 ? ' bead' : ' beads') + '): ' +
      parts.join('; ') + '.';
  }

  function drawText(positions, plies) {
    const here = positions[positions.length - 1];
    const name = (player) => (state.mode === 'play' ? (player === state.you ? 'You' : 'Ioiwari')
      : 'Player ' + player);
    const status = document.getElementById('status');
    if (over(here.board)) {
      const [one, two] = here.banks;
      const result = one === two ? 'a tie' : (one > two ? name(1) : name(2)) + ' ' +
        ((one > two ? name(1) : name(2)) === 'You' ? 'win' : 'wins') + ' by ' + Math.abs(one - two);
      status.textContent = 'Game over: ' + one + ' to ' + two + ', ' + result + '.';
    } else {
      // The end with perfect play from here, for the player to move.
      const forced = outcome(here, valueOf(here.board));
      const margin = Math.abs(here.banks[here.mover - 1] - here.banks[2 - here.mover] +
        valueOf(here.board));
      const mover = name(here.mover);
      status.textContent = 'Move ' + (plies.length + 1) + ': ' +
        (mover === 'You' ? 'your move' : mover + ' to move') + '. With perfect play from here, ' +
        (mover === 'You' ? 'you' : mover) + ' ' +
        { win: 'win', loss: 'lose', tie: 'tie' }[forced] + (mover === 'You' ? '' : 's') +
        (forced === 'tie' ? '' : ' by ' + margin) + '.';
    }
    // The last two moves: in a game, the person's own and the reply.
    const lastMoves = document.getElementById('last-move');
    lastMoves.replaceChildren();
    for (const ply of plies.slice(-2)) {
      const line = document.createElement('span');
      line.textContent = describe(ply, name(ply.mover));
      lastMoves.append(line, document.createElement('br'));
    }
    document.getElementById('moves').textContent = plies.length === 0 ? 'none yet'
      : plies.map((ply, i) => (i + 1) + '. ' + (ply.mover === 1 ? 'P1 ' : 'P2 ') + ply.pit).join('  ');
    const lesson = document.getElementById('lesson');
    lesson.replaceChildren();
    for (const [i, ply] of plies.entries()) {
      if (ply.worth === ply.best) continue;
      if (state.mode === 'play' && ply.mover !== state.you) continue;
      const better = analyze(ply.before)[0];
      const item = document.createElement('li');
      const cost = ply.best - ply.worth;
      item.textContent = 'Move ' + (i + 1) + ', ' + name(ply.mover) + ': pit ' + ply.pit + ' on ' +
        ply.before.join(' ') + ' cost ' + cost + (cost === 1 ? ' bead' : ' beads') +
        ' (worth ' + signed(ply.worth) + '; pit ' + better.pit + ' was worth ' + signed(better.value) + ').';
      lesson.appendChild(item);
    }
    if (!lesson.children.length) {
      const item = document.createElement('li');
      item.className = 'none';
      item.textContent = plies.length === 0 ? 'No move yet.' : 'None: every move so far was a best move.';
      lesson.appendChild(item);
    }
  }

  // Player 1's final margin with perfect play from each position on.
  function drawChart(positions, plies) {
    const chart = document.getElementById('chart');
    chart.replaceChildren();
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
      const dot = node('circle', { class: 'chart-costly', cx: x(i + 1), cy: y(margins[i + 1]), r: 5 }, chart);
      node('title', {}, dot, 'Move ' + (i + 1) + ' cost ' + (ply.best - ply.worth));
    });
    node('text', { class: 'chart-text', x: 320, y: 236, 'text-anchor': 'middle' }, chart,
      'after move 0 to ' + plies.length);
  }

  function refresh() {
    clearTimeout(opponentTimer);
    document.body.dataset.mode = state.mode;
    const { positions, plies } = history();
    drawRing(positions, plies);
    drawText(positions, plies);
    drawChart(positions, plies);
    performance.mark('ioiwari:drawn');
    document.getElementById('undo').disabled = state.moves.length === 0 ||
      (state.mode === 'play' && !plies.some((ply) => ply.mover === state.you));
    document.getElementById('redo').disabled = state.redo.length === 0;
    document.getElementById('play-out').disabled = over(positions[positions.length - 1].board);
    document.getElementById('start').value = state.start.join(' ');
    writeAddress();
    const here = positions[positions.length - 1];
    if (state.mode === 'play' && !over(here.board) && here.mover !== state.you) {
      opponentTimer = setTimeout(opponentMove, 400);
    }
  }

  // ---- Settings. ----------------------------------------------------------------------------

  function offered(ring) {
    if (!Number.isInteger(ring.pits) || !Number.isInteger(ring.capacity)) return false;
    const classes = core.ring_classes(ring.pits, ring.capacity);
    return classes > 0 && classes <= MOST_CLASSES;
  }

  function fillRings() {
    const select = document.getElementById('ring');
    for (let pits = 3; pits <= 16; ++pits) {
      for (let capacity = 1; capacity <= 9; ++capacity) {
        const ring = { pits, capacity };
        if (!offered(ring)) continue;
        const option = document.createElement('option');
        option.value = pits + '-' + capacity;
        option.textContent = pits + ' pits, capacity ' + capacity +
          (pits === IOI.pits && capacity === IOI.capacity ? ' (the IOI\'s)' : '');
        select.appendChild(option);
      }
    }
    document.getElementById('rings-note').textContent = 'Every ring of up to ' +
      (MOST_CLASSES / 1e6).toFixed(1) + ' million rotation classes, which this page solves in a ' +
      'few seconds; larger rings need the command line (ioiwari solve).';
  }

  function newGame(start) {
    whenSolved(state.ring, () => {
      state.start = start || dealStart();
      state.firstMover = state.mode === 'analyze'
        ? Number(document.querySelector('input[name=mover]:checked').value) : 1;
      state.moves = [];
      state.redo = [];
      state.seed = (Math.random() * 4294967296) >>> 0;
      refresh();
    });
  }

  // The settings as the person left them; a new choice clears the last error.
  function readSettings() {
    document.getElementById('error').hidden = true;
    state.mode = document.querySelector('input[name=mode]:checked').value;
    const [pits, capacity] = document.getElementById('ring').value.split('-').map(Number);
    state.ring = { pits, capacity };
    state.you = Number(document.querySelector('input[name=you]:checked').value);
    state.opponent = document.getElementById('opponent').value;
  }

  function writeSettings() {
    document.querySelector('input[name=mode][value=' + state.mode + ']').checked = true;
    document.getElementById('ring').value = state.ring.pits + '-' + state.ring.capacity;
    document.querySelector('input[name=you][value="' + state.you + '"]').checked = true;
    document.getElementById('opponent').value = state.opponent;
    document.querySelector('input[name=mover][value="' + state.firstMover + '"]').checked = true;
  }

  function typedStart() {
    const counts = document.getElementById('start').value.trim().split(/[\s,]+/).map(Number);
    const ring = state.ring;
    if (counts.length !== ring.pits ||
        counts.some((b) => !Number.isInteger(b) || b < 0 || b > ring.capacity) || over(counts)) {
      showError('A start is ' + ring.pits + ' counts of 0 to ' + ring.capacity + ', at least one bead.');
      return null;
    }
    document.getElementById('error').hidden = true;
    return counts;
  }

  function onKey(event) {
    if (busy || event.target.tagName === 'INPUT' || event.target.tagName === 'SELECT' ||
        event.ctrlKey || event.metaKey || event.altKey) {
      return;
    }
    if (event.key === 'u') { undo(); return; }
    if (event.key === 'r') { redo(); return; }
    if (event.key === 'h') { state.values = !state.values; refresh(); return; }
    if (!/^[0-9]$/.test(event.key)) return;
    if (state.ring.pits <= 9) {
      makeMove(Number(event.key));
      return;
    }
    typed += event.key;
    clearTimeout(typedTimer);
    const finish = () => { const pit = Number(typed); typed = ''; makeMove(pit); };
    if (typed.length === 2 || Number(typed) * 10 > state.ring.pits) finish();
    else typedTimer = setTimeout(finish, 800);
  }

  function start() {
    fillRings();
    const always = document.getElementById('always-values');
    always.checked = window.localStorage.getItem('ioiwari.values') === 'always';
    always.addEventListener('change', () => {
      window.localStorage.setItem('ioiwari.values', always.checked ? 'always' : 'demand');
      refresh();
    });
    for (const input of document.querySelectorAll('input[name=mode], input[name=you], #ring, #opponent')) {
      input.addEventListener('change', () => {
        const sameRing = document.getElementById('ring').value ===
          state.ring.pits + '-' + state.ring.capacity;
        readSettings();
        if (!sameRing) { newGame(); return; }
        if (input.name === 'mode' || input.name === 'you') { state.moves = []; state.redo = []; }
        refresh();
      });
    }
    for (const input of document.querySelectorAll('input[name=mover]')) {
      input.addEventListener('change', () => {
        state.firstMover = Number(input.value);
        state.moves = [];
        state.redo = [];
        refresh();
      });
    }
    document.getElementById('new-start').addEventListener('click', () => { readSettings(); newGame(); });
    document.getElementById('use-start').addEventListener('click', () => {
      readSettings();
      const counts = typedStart();
      if (counts) newGame(counts);
    });
    document.getElementById('undo').addEventListener('click', undo);
    document.getElementById('redo').addEventListener('click', redo);
    document.getElementById('show-values').addEventListener('click', () => {
      state.values = !state.values;
      refresh();
    });
    document.getElementById('play-out').addEventListener('click', playOut);
    document.addEventListener('keydown', onKey);
    // The page writes its address with replaceState, which fires no event: this is an address
    // typed, pasted or gone back to.
    window.addEventListener('hashchange', openAddress);
    openAddress();
  }

  // The game of the page's address, or a new game of the IOI's ring where it names none.
  function openAddress() {
    const moves = readAddress(window.location.hash);
    whenSolved(state.ring, () => {
      if (moves) {
        keepLegal(moves);
      } else {
        state.start = dealStart();
        state.moves = [];
        state.redo = [];
        state.seed = (Math.random() * 4294967296) >>> 0;
      }
      writeSettings();
      refresh();
    });
  }

  // What the tests ask of the page: its state, and the time its solve took.
  window.ioiwariPage = {
    state() {
      const { positions, plies } = history();
      const here = positions[positions.length - 1];
      return {
        board: here.board, banks: here.banks, mover: here.mover, over: over(here.board),
        moves: state.moves.slice(), redo: state.redo.slice(), you: state.you,
        mode: state.mode, ring: { ...state.ring }, start: state.start.slice(),
        costly: plies.filter((p) => p.worth !== p.best).length,
      };
    },
    solveMs: () => solved && solved.ms,
    busy: () => busy,
    classes: (pits, capacity) => core.ring_classes(pits, capacity),
    analyze: (board) => analyze(board),
    solve: (pits, capacity) => { ensureSolved({ pits, capacity }); return solved.ms; },
  };

  loadCore().then(start).catch((error) => showError('The page could not start: ' + error.message));
}());
