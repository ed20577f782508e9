// The page's own script (docs/browser.md): it draws the ring and the study of the game, and asks
// the core, compiled to WebAssembly from ioiwari's C++ (src/web/api.cpp), for every rule, move
// and value. No framework; the page opens from a folder with no server.
//
// Two instances of the module: one on the page's thread answers every question of a solved
// ring; one in a Worker, made afresh for each solve, solves the next ring and hands its table
// over, so that the page answers clicks and keys while a ring is solving (ioiwari-host.js).
// The address, which holds the game on screen, is ioiwari-address.js's.
(function () {
  'use strict';

  const { STRATEGIES, MOST_CLASSES, PITS, CAPACITY } = IoiwariAddress;
  const IOI = { pits: 7, capacity: 5 };
  const { moduleImports, makeWorker } = IoiwariHost;

  let core = null;     // the module's exports, on the page's thread
  let compiled = null; // the module compiled once, for the page and for each worker
  let moduleBytes = null;
  let io = null;       // its buffer, 32-bit integers
  let solved = null;   // the ring the page's instance holds: {pits, capacity, ms}
  let opponentTimer = null;
  let typed = '';      // digits typed for a pit of a ring of 10 or more
  let typedTimer = null;

  // What is on screen, all of it in the address.
  const state = {
    mode: 'play',        // or 'analyze'
    ring: { ...IOI },
    start: [],           // the board the moves start from
    firstMover: 1,       // the player to move at the start
    you: 1,              // play: the person's player
    opponent: 'optimal', // play: ioiwari's strategy
    seed: 1,             // play: for the opponent's random choices
    moves: [],           // pit labels, both players', in order
    redo: [],            // moves taken back, the next to play again last
    values: false,       // the values shown on demand, until the next move
  };

  // ---- The module, on the page's thread and in a worker. -------------------------------------

  // The page marks its steps for the bench (User Timing: performance.getEntriesByType('mark')):
  // ioiwari:script, its script running; ioiwari:core, the module ready; ioiwari:drawn, each game
  // drawn.
  function loadCore() {
    performance.mark('ioiwari:script');
    const text = atob(window.IOIWARI_MODULE);
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; ++i) bytes[i] = text.charCodeAt(i);
    moduleBytes = bytes;
    return WebAssembly.compile(bytes).then((module) => {
      compiled = module;
      return WebAssembly.instantiate(module, moduleImports(() => core.memory.buffer, {
        stopped(what) { showError('The core stopped: ' + what); },
        progress(layer, layers, done, classes) { showProgress({ layer, layers, done, classes }); },
      }));
    }).then((instance) => {
      core = instance.exports;
      core._initialize();
      io = () => new Int32Array(core.memory.buffer, core.io(), 512);
      performance.mark('ioiwari:core');
    });
  }

  function showError(text, offer) {
    const error = document.getElementById('error');
    document.getElementById('error-text').textContent = text;
    document.getElementById('error-new-game').hidden = !offer;
    error.hidden = false;
  }

  function hideError() {
    document.getElementById('error').hidden = true;
  }

  const isSolved = (ring) => solved && solved.pits === ring.pits && solved.capacity === ring.capacity;

  function refusal(ring, code) {
    return code === 1 ? 'no game is played on ' + ring.pits + ' pits of capacity ' + ring.capacity
      : 'the ring of ' + ring.pits + ' pits, capacity ' + ring.capacity + ', takes more memory ' +
        'to solve than a page has; the command line solves it (ioiwari solve)';
  }

  // Solves `ring` on the page's own thread: what the page does where it may make no worker, and
  // what the bench measures.
  function solveHere(ring) {
    solved = null;
    clearCaches();
    const begun = performance.now();
    const refused = core.solve(ring.pits, ring.capacity);
    if (refused !== 0) throw new Error(refusal(ring, refused));
    solved = { ...ring, ms: performance.now() - begun };
  }

  // The solve under way: {ring, worker (null on the page's thread), then, held}.
  let job = null;
  let solver = 'worker'; // where the last solve ran: 'worker', or 'page' where none could be made
  let holding = false;   // the tests' hold on new solves (ioiwariPage.hold)

  // Runs `then` once `ring` is solved. The solve runs in a worker, with its progress shown and a
  // button to cancel it; the game on screen plays on meanwhile. Should it fail, `failed` is told
  // why; without it, the page says so and plays on.
  function whenSolved(ring, then, failed = null) {
    if (isSolved(ring)) {
      cancelSolve();
      then();
      return;
    }
    if (job && job.ring.pits === ring.pits && job.ring.capacity === ring.capacity) {
      job.then = then;
      return;
    }
    cancelSolve();
    const classes = core.ring_classes(ring.pits, ring.capacity);
    job = { ring, worker: null, then, failed, held: null, classes };
    document.body.dataset.busy = 'true';
    document.getElementById('solving').hidden = false;
    document.getElementById('solving-text').textContent = 'Solving the ring of ' + ring.pits +
      ' pits, capacity ' + ring.capacity + ': ' + classes.toLocaleString('en') +
      ' rotation classes…';
    const bar = document.getElementById('solving-progress');
    bar.removeAttribute('value');
    bar.max = 1;
    const mine = job;
    try {
      mine.worker = makeWorker();
    } catch (error) {
      mine.worker = null;
    }
    if (!mine.worker) {
      // No worker: the page's own thread solves it, after drawing what it is doing.
      solver = 'page';
      requestAnimationFrame(() => setTimeout(() => {
        if (job !== mine) return;
        let failure = null;
        try {
          solveHere(ring);
        } catch (error) {
          failure = error.message;
        }
        finishSolve(mine, failure);
      }, 0));
      return;
    }
    solver = 'worker';
    mine.worker.onmessage = (event) => onWorker(mine, event.data);
    mine.worker.onerror = (event) => {
      event.preventDefault();
      if (job === mine) finishSolve(mine, 'the worker stopped: ' + (event.message || 'no reason given'));
    };
    try {
      mine.worker.postMessage({ module: compiled });
    } catch (error) {
      // A browser that sends no compiled module to a worker: the bytes, to compile there.
      mine.worker.postMessage({ module: moduleBytes });
    }
    const ask = () => mine.worker.postMessage({ solve: { pits: ring.pits, capacity: ring.capacity } });
    if (holding) mine.held = ask;
    else ask();
  }

  function onWorker(mine, message) {
    if (job !== mine) return;
    if (message.progress) {
      showProgress(message.progress);
      return;
    }
    if (message.solved) {
      const { lines, values, ms } = message.solved;
      solved = null;
      clearCaches();
      if (core.receive(mine.ring.pits, mine.ring.capacity, lines.byteLength, values.byteLength) !== 0) {
        finishSolve(mine, 'the solved table did not fit its ring');
        return;
      }
      new Uint8Array(core.memory.buffer, core.received(0), lines.byteLength).set(lines);
      new Uint8Array(core.memory.buffer, core.received(1), values.byteLength).set(values);
      core.adopt();
      solved = { ...mine.ring, ms };
      finishSolve(mine, null);
      return;
    }
    finishSolve(mine, message.refused ? refusal(mine.ring, message.refused) : message.failed);
  }

  function showProgress(now) {
    const bar = document.getElementById('solving-progress');
    if (!job || now.layer < 0 || now.classes === 0) return;
    bar.max = now.classes;
    bar.value = now.done;
    document.getElementById('solving-text').textContent = 'Solving the ring of ' +
      job.ring.pits + ' pits, capacity ' + job.ring.capacity + ': ' +
      Math.floor((100 * now.done) / now.classes) + '% of ' + now.classes.toLocaleString('en') +
      ' rotation classes…';
  }

  function endJob() {
    if (job && job.worker) job.worker.terminate();
    job = null;
    delete document.body.dataset.busy;
    document.getElementById('solving').hidden = true;
  }

  function finishSolve(mine, failure) {
    endJob();
    if (!failure) {
      mine.then();
      return;
    }
    if (mine.failed) {
      mine.failed(failure);
      return;
    }
    showError('The page could not solve it: ' + failure + '.', false);
    afterFailure();
  }

  // After a solve that failed or was cancelled: the game on screen plays on; with none, a new
  // game of the IOI's ring, which always solves.
  function afterFailure() {
    if (solved && state.start.length === solved.pits && isSolved(state.ring)) {
      writeSettings();
      refresh();
      return;
    }
    state.mode = 'play';
    writeMode();
    newGame({ ...IOI });
  }

  function cancelSolve() {
    if (!job) return;
    endJob();
  }

  function put(board) {
    const buffer = io();
    board.forEach((beads, i) => { buffer[i] = beads; });
  }

  const valueCache = new Map();
  const rankCache = new Map();
  function clearCaches() {
    valueCache.clear();
    rankCache.clear();
  }

  // The value of `board` for the player to move.
  function valueOf(board) {
    const key = board.join(',');
    if (!valueCache.has(key)) {
      put(board);
      const value = core.board_value();
      if (value === -1000) throw new Error('the board ' + board.join(' ') + ' is not of the solved ring');
      valueCache.set(key, value);
    }
    return valueCache.get(key);
  }

  // Every legal move of `board` with its value and moves to the end, best first as the core
  // ranks them (docs/analysis.md): [{pit, value, moves}].
  function rankMoves(board) {
    const key = board.join(',');
    if (!rankCache.has(key)) {
      put(board);
      const count = core.rank();
      const buffer = io();
      const moves = [];
      for (let i = 0; i < count; ++i) {
        moves.push({ pit: buffer[3 * i], value: buffer[3 * i + 1], moves: buffer[3 * i + 2] });
      }
      rankCache.set(key, moves);
    }
    return rankCache.get(key);
  }

  // The best line from `board` to the end, as the core plays it: pit labels.
  function lineFrom(board) {
    put(board);
    const count = core.line();
    return Array.from(io().slice(0, Math.max(0, count)));
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

  // The move `strategy` plays on `board`; null where there is none (the core says 0).
  function choose(board, strategy) {
    put(board);
    const pit = core.choose(STRATEGIES.indexOf(strategy));
    return pit > 0 ? pit : null;
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
  // As long as the moves, which are legal (readAddress and makeMove see to it).
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
  const legal = (board, pit) => Number.isInteger(pit) && pit >= 1 && pit <= board.length &&
    board[pit - 1] > 0;
  const signed = (value) => (value > 0 ? '+' + value : value < 0 ? '−' + -value : '0');
  const beadsOf = (board) => board.reduce((a, b) => a + b, 0);

  // The final margin for the mover of a move worth `worth` from now, with the banks as they are.
  function finalMargin(position, worth) {
    return position.banks[position.mover - 1] - position.banks[2 - position.mover] + worth;
  }
  function outcome(position, worth) {
    const margin = finalMargin(position, worth);
    return margin > 0 ? 'win' : margin < 0 ? 'loss' : 'tie';
  }
  // How the game ends for the mover, in words: "wins by 3", "loses by 1", "ties".
  function ending(position, worth) {
    const margin = finalMargin(position, worth);
    return margin > 0 ? 'wins by ' + margin : margin < 0 ? 'loses by ' + -margin : 'ties';
  }

  function personToMove(position) {
    return state.mode === 'analyze' || position.mover === state.you;
  }

  // A person's action pushes the game onto the browser's history, so that Back and Forward
  // follow the moves (ioiwari's replies join the person's move they answer).
  let pushNext = false;

  function makeMove(pit) {
    const { positions } = history();
    const here = positions[positions.length - 1];
    if (over(here.board) || !legal(here.board, pit) || !personToMove(here)) return false;
    state.moves.push(pit);
    state.redo = [];
    state.values = false;
    pushNext = true;
    refresh();
    return true;
  }

  function opponentMove() {
    opponentTimer = null;
    const { positions } = history();
    const here = positions[positions.length - 1];
    if (state.mode !== 'play' || over(here.board) || here.mover === state.you) return;
    core.seed(state.seed + state.moves.length, 0);
    const pit = choose(here.board, state.opponent);
    if (pit === null) return;
    state.moves.push(pit);
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
    pushNext = true;
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
    pushNext = true;
    refresh();
  }

  // The position after move `count` of the game (0: the start), the moves after it kept for redo.
  // In a game, a position where ioiwari is to move is passed for its reply, where there is one.
  function goTo(count) {
    const all = state.moves.concat(state.redo.slice().reverse());
    let at = Math.max(0, Math.min(count, all.length));
    if (state.mode === 'play') {
      state.moves = all.slice(0, at);
      const { positions } = history();
      const here = positions[positions.length - 1];
      if (!over(here.board) && here.mover !== state.you && at < all.length) at += 1;
    }
    state.moves = all.slice(0, at);
    state.redo = all.slice(at).reverse();
    pushNext = true;
    refresh();
  }

  // The rest of the game with perfect play on the person's side, the best line as the core ranks
  // it (and the opponent's strategy on the other; in analysis, that line on both). A game of n
  // beads ends within n moves, as each move takes a bead off the board: the loop stops there.
  function playOut() {
    clearTimeout(opponentTimer);
    const most = beadsOf(state.start);
    for (let move = state.moves.length; move < most; ++move) {
      const { positions } = history();
      const here = positions[positions.length - 1];
      if (over(here.board)) break;
      let pit;
      if (state.mode === 'play' && here.mover !== state.you) {
        core.seed(state.seed + state.moves.length, 0);
        pit = choose(here.board, state.opponent);
      } else {
        pit = rankMoves(here.board)[0].pit;
      }
      if (pit === null || !legal(here.board, pit)) break;
      state.moves.push(pit);
    }
    state.redo = [];
    pushNext = true;
    refresh();
  }

  // ---- The address. -------------------------------------------------------------------------

  const addressOf = () => IoiwariAddress.of(state);

  function writeAddress() {
    const address = addressOf();
    if (address === window.location.hash) {
      pushNext = false;
      return;
    }
    if (pushNext) window.history.pushState(null, '', address);
    else window.history.replaceState(null, '', address);
    pushNext = false;
  }

  const readAddress = (hash) => IoiwariAddress.read(hash, (pits, capacity) => core.ring_classes(pits, capacity));

  // Plays the moves an address gives from the state's start: null when all are legal, else what
  // is wrong with the first that is not, the moves before it played.
  function checkMoves(moves) {
    state.moves = [];
    const most = beadsOf(state.start);
    for (let i = 0; i < moves.length; ++i) {
      const { positions } = history();
      const here = positions[positions.length - 1];
      const pit = moves[i];
      let why = null;
      if (over(here.board)) why = 'the game was over';
      else if (pit < 1 || pit > state.ring.pits) why = 'the ring has no such pit';
      else if (!legal(here.board, pit)) why = 'pit ' + pit + ' was empty';
      else if (i >= most) why = 'the game was over';
      if (why) {
        return 'move ' + (i + 1) + ' of the address, pit ' + (pit === Infinity ? 'beyond 999999999' : pit) +
          ', is not a move: ' + why +
          '. The game is shown as far as its moves go';
      }
      state.moves.push(pit);
    }
    return null;
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

  let startShown = null; // the start last written into the Start box
  function refresh() {
    clearTimeout(opponentTimer);
    document.body.dataset.mode = state.mode;
    const { positions, plies } = history();
    document.getElementById('preview').textContent = '';
    drawRing(positions, plies);
    drawText(positions, plies);
    drawChart(positions, plies);
    performance.mark('ioiwari:drawn');
    document.getElementById('undo').disabled = state.moves.length === 0 ||
      (state.mode === 'play' && !plies.some((ply) => ply.mover === state.you));
    document.getElementById('redo').disabled = state.redo.length === 0;
    document.getElementById('play-out').disabled = over(positions[positions.length - 1].board);
    // The Start box shows a new start, but never changes under the person's typing.
    const start = state.start.join(' ');
    const box = document.getElementById('start');
    if (start !== startShown && document.activeElement !== box) {
      box.value = start;
      startShown = start;
    }
    writeAddress();
    const here = positions[positions.length - 1];
    if (state.mode === 'play' && !over(here.board) && here.mover !== state.you) {
      opponentTimer = setTimeout(opponentMove, 400);
    }
  }

  // ---- Settings. ----------------------------------------------------------------------------

  function offered(ring) {
    const classes = core.ring_classes(ring.pits, ring.capacity);
    return classes > 0 && classes <= MOST_CLASSES;
  }

  function fillRings() {
    const select = document.getElementById('ring');
    for (let pits = PITS.least; pits <= PITS.most; ++pits) {
      for (let capacity = CAPACITY.least; capacity <= CAPACITY.most; ++capacity) {
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

  // The ring the settings name.
  function chosenRing() {
    const [pits, capacity] = document.getElementById('ring').value.split('-').map(Number);
    return { pits, capacity };
  }

  // A new game of `ring` (the state's), from `start` or a random one, with the settings as they
  // are when it is solved. The game it replaces stays in the browser's history: Back returns to
  // it.
  function newGame(ring = state.ring, start = null) {
    const wanted = { ...ring };
    whenSolved(wanted, () => {
      readSettings();
      const replacing = state.start.length > 0;
      state.ring = wanted;
      state.start = start || dealStart();
      state.firstMover = Number(document.querySelector('input[name=mover]:checked').value);
      state.moves = [];
      state.redo = [];
      state.seed = (Math.random() * 4294967296) >>> 0;
      pushNext = replacing;
      writeSettings();
      refresh();
    });
  }

  // The settings as the person left them, but the ring, which changes only once it is solved
  // (chosenRing()).
  function readSettings() {
    state.mode = document.querySelector('input[name=mode]:checked').value;
    state.you = Number(document.querySelector('input[name=you]:checked').value);
    state.opponent = document.getElementById('opponent').value;
  }

  function writeMode() {
    document.querySelector('input[name=mode][value=' + state.mode + ']').checked = true;
  }

  function writeSettings() {
    document.querySelector('input[name=mode][value=' + state.mode + ']').checked = true;
    document.getElementById('ring').value = state.ring.pits + '-' + state.ring.capacity;
    document.querySelector('input[name=you][value="' + state.you + '"]').checked = true;
    document.getElementById('opponent').value = state.opponent;
    document.querySelector('input[name=mover][value="' + state.firstMover + '"]').checked = true;
    document.body.dataset.mode = state.mode;
  }

  // The counts of the Start box, for `ring`; null, and a message, when they are none of its.
  function typedStart(ring) {
    const text = document.getElementById('start').value.trim();
    const words = text === '' ? [] : text.split(/[\s,]+/);
    const counts = words.every((word) => /^[0-9]{1,3}$/.test(word)) ? words.map(Number) : null;
    if (!counts || counts.length !== ring.pits || counts.some((b) => b > ring.capacity) || over(counts)) {
      showError('A start is ' + ring.pits + ' counts of 0 to ' + ring.capacity + ', at least one bead.', false);
      return null;
    }
    hideError();
    return counts;
  }

  function onKey(event) {
    const target = event.target;
    if (['INPUT', 'SELECT', 'BUTTON', 'TEXTAREA', 'SUMMARY'].includes(target.tagName) ||
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

  // The address in the clipboard, or, where the browser refuses, in a box to copy it from.
  function copyLink() {
    const link = window.location.href;
    const told = document.getElementById('copy-note');
    const box = document.getElementById('copy-box');
    const shown = () => {
      box.hidden = false;
      box.value = link;
      box.select();
      told.textContent = 'Copy the link from the box.';
    };
    window.ioiwariPage.copied = link;
    if (!navigator.clipboard) {
      shown();
      return;
    }
    navigator.clipboard.writeText(link).then(() => {
      box.hidden = true;
      told.textContent = 'Link copied.';
    }, shown);
  }

  function showRules() {
    const rules = document.getElementById('rules');
    rules.open = true;
    rules.scrollIntoView();
    rules.querySelector('summary').focus();
  }

  function start() {
    fillRings();
    const always = document.getElementById('always-values');
    always.checked = window.localStorage.getItem('ioiwari.values') === 'always';
    always.addEventListener('change', () => {
      window.localStorage.setItem('ioiwari.values', always.checked ? 'always' : 'demand');
      refresh();
    });
    // A new ring: the game on screen plays on while it solves.
    document.getElementById('ring').addEventListener('change', () => {
      hideError();
      newGame(chosenRing());
    });
    for (const input of document.querySelectorAll('input[name=mode], input[name=you], #opponent')) {
      input.addEventListener('change', () => {
        hideError();
        readSettings();
        if (input.name === 'you') { state.moves = []; state.redo = []; }
        pushNext = true;
        refresh();
      });
    }
    for (const input of document.querySelectorAll('input[name=mover]')) {
      input.addEventListener('change', () => {
        if (job) return;
        state.firstMover = Number(input.value);
        state.moves = [];
        state.redo = [];
        pushNext = true;
        refresh();
      });
    }
    document.getElementById('new-start').addEventListener('click', () => {
      hideError();
      newGame(chosenRing());
    });
    document.getElementById('use-start').addEventListener('click', () => {
      hideError();
      const counts = typedStart(chosenRing());
      if (counts) newGame(chosenRing(), counts);
    });
    document.getElementById('show-example').addEventListener('click', () => {
      window.location.hash = '#mode=analyze&ring=7-5&start=4-3-2-4-2-3-2&mover=1&moves=';
    });
    document.getElementById('start').addEventListener('keydown', (event) => {
      if (event.key === 'Enter') document.getElementById('use-start').click();
    });
    document.getElementById('cancel-solve').addEventListener('click', () => {
      cancelSolve();
      afterFailure();
    });
    document.getElementById('error-new-game').addEventListener('click', () => {
      hideError();
      state.mode = 'play';
      newGame({ ...IOI });
    });
    document.getElementById('undo').addEventListener('click', undo);
    document.getElementById('redo').addEventListener('click', redo);
    document.getElementById('show-values').addEventListener('click', () => {
      state.values = !state.values;
      refresh();
    });
    document.getElementById('play-out').addEventListener('click', playOut);
    document.getElementById('copy-link').addEventListener('click', copyLink);
    document.getElementById('show-rules').addEventListener('click', showRules);
    document.addEventListener('keydown', onKey);
    // The page writes its address with pushState and replaceState, which fire no event: these
    // are an address typed or pasted, and Back and Forward.
    window.addEventListener('hashchange', () => openAddress(false));
    window.addEventListener('popstate', () => openAddress(false));
    openAddress(true);
  }

  // The game of the page's address. The same game at other moves (Back and Forward) only moves;
  // another game is solved and opened; an address that names none is refused in words, and a
  // new game of the IOI's ring is offered (and opened when there is no game on screen).
  function openAddress(first) {
    if (!first && window.location.hash === addressOf()) return;
    const read = readAddress(window.location.hash);
    if (read.error) {
      if (!first || window.location.hash.replace(/^#/, '') !== '') {
        showError('This address names no game: ' + read.error + '.', true);
      }
      if (solved && state.start.length > 0) {
        writeAddress();
        return;
      }
      // No game on screen yet: a new one of the IOI's ring, in place of the address.
      state.mode = 'play';
      writeMode();
      newGame({ ...IOI });
      return;
    }
    const game = read.game;
    const same = solved && isSolved(game.ring) && game.mode === state.mode &&
      game.start.join() === state.start.join() && game.firstMover === state.firstMover &&
      (game.mode === 'analyze' || (game.you === state.you && game.opponent === state.opponent &&
        game.seed === state.seed));
    if (same) {
      // Back or Forward within this game: the moves it gives, the others kept to redo.
      const all = state.moves.concat(state.redo.slice().reverse());
      const prefix = game.moves.every((pit, i) => all[i] === pit);
      const wrong = checkMoves(game.moves);
      state.redo = prefix ? all.slice(state.moves.length).reverse() : [];
      if (wrong) showError(wrong + '.', true);
      refresh();
      return;
    }
    whenSolved(game.ring, () => {
      Object.assign(state, {
        mode: game.mode, ring: game.ring, start: game.start, firstMover: game.firstMover,
        you: game.you, opponent: game.opponent, seed: game.seed, redo: [],
      });
      const wrong = checkMoves(game.moves);
      if (wrong) showError(wrong + '.', true);
      writeSettings();
      refresh();
    });
  }

  // What the tests ask of the page: its state, the time its solve took and where it ran, and
  // holding a solve back until they say.
  window.ioiwariPage = {
    state() {
      const { positions, plies } = history();
      const here = positions[positions.length - 1];
      return {
        board: here.board, banks: here.banks, mover: here.mover, over: over(here.board),
        moves: state.moves.slice(), redo: state.redo.slice(), you: state.you,
        mode: state.mode, ring: { ...state.ring }, start: state.start.slice(),
        firstMover: state.firstMover, seed: state.seed,
        costly: plies.filter((p) => p.worth !== p.best).length,
      };
    },
    solveMs: () => solved && solved.ms,
    solver: () => solver,
    busy: () => job !== null,
    hold(on) {
      holding = on;
      if (!on && job && job.held) {
        const ask = job.held;
        job.held = null;
        ask();
      }
    },
    classes: (pits, capacity) => core.ring_classes(pits, capacity),
    rank: (board) => rankMoves(board),
    line: (board) => lineFrom(board),
    solve: (pits, capacity) => {
      solveHere({ pits, capacity });
      return solved.ms;
    },
    // A solve as the page does it, in a worker (for the bench): the time to the table taken in,
    // the worker's own solve, and the longest the page's thread went without answering a timer
    // of 10 ms meanwhile.
    solveInWorker(pits, capacity) {
      return new Promise((resolve, reject) => {
        let last = performance.now();
        let longest = 0;
        const probe = setInterval(() => {
          const now = performance.now();
          longest = Math.max(longest, now - last);
          last = now;
        }, 10);
        const begun = performance.now();
        whenSolved({ pits, capacity }, () => {
          clearInterval(probe);
          resolve({ ms: performance.now() - begun, solveMs: solved.ms, longest: Math.max(longest, performance.now() - last) });
        }, (why) => {
          clearInterval(probe);
          reject(new Error(why));
        });
      });
    },
    copied: null,
  };

  loadCore().then(start).catch((error) => showError('The page could not start: ' + error.message, false));
}());
