// The core on the page's thread (docs/browser.md): the module, compiled once and instantiated
// here, the ring it holds solved, and every question the page's script (ioiwari.js) asks of it:
// a board's value, its moves ranked, the best line, a move by the rule, a strategy's move, a
// start. A worker solves (ioiwari-host.js); its table is adopted here.
const IoiwariCore = (function () {
  'use strict';

  const { moduleImports } = IoiwariHost;
  const { STRATEGIES } = IoiwariAddress;

  let core = null;     // the module's exports
  let compiled = null; // the module compiled once, for the page and for each worker
  let moduleBytes = null;
  let kind = null;     // which module: 'simd' or 'plain'
  let io = null;       // its buffer, 32-bit integers
  let solved = null;   // the ring it holds solved: {pits, capacity, ms}
  const valueCache = new Map();
  const rankCache = new Map();

  // The module compiled and instantiated; `on` hears what the module tells its host (a stop
  // and its reason, a solve's progress). The page marks its steps for the bench (User Timing:
  // performance.getEntriesByType('mark')): ioiwari:script, its script running; ioiwari:core,
  // the module ready (ioiwari.js marks ioiwari:drawn, each game drawn).
  function load(on) {
    performance.mark('ioiwari:script');
    const decode = (base64) => {
      const text = atob(base64);
      const bytes = new Uint8Array(text.length);
      for (let i = 0; i < text.length; ++i) bytes[i] = text.charCodeAt(i);
      return bytes;
    };
    // The module with SIMD where this browser validates it, else the plain one: the same
    // answers, the first faster (src/web/CMakeLists.txt).
    const wide = decode(window.IOIWARI_MODULE);
    kind = WebAssembly.validate(wide) ? 'simd' : 'plain';
    const bytes = kind === 'simd' ? wide : decode(window.IOIWARI_MODULE_PLAIN);
    moduleBytes = bytes;
    return WebAssembly.compile(bytes).then((module) => {
      compiled = module;
      return WebAssembly.instantiate(module, moduleImports(() => core.memory.buffer, on));
    }).then((instance) => {
      core = instance.exports;
      core._initialize();
      io = () => new Int32Array(core.memory.buffer, core.io(), 512);
      performance.mark('ioiwari:core');
    });
  }

  const isSolved = (ring) => solved !== null && solved.pits === ring.pits &&
    solved.capacity === ring.capacity;

  // Why the core refused to solve `ring` (its code: 1, no game; else, too large).
  function refusal(ring, code) {
    return code === 1 ? 'no game is played on ' + ring.pits + ' pits of capacity ' + ring.capacity
      : 'the ring of ' + ring.pits + ' pits, capacity ' + ring.capacity + ', takes more memory ' +
        'to solve than a page has; the command line solves it (ioiwari solve)';
  }

  function forget() {
    solved = null;
    valueCache.clear();
    rankCache.clear();
  }

  // Solves `ring` on the page's own thread: what the page does where it may make no worker, and
  // what the bench measures. Throws the refusal.
  function solveHere(ring) {
    forget();
    const begun = performance.now();
    const refused = core.solve(ring.pits, ring.capacity);
    if (refused !== 0) throw new Error(refusal(ring, refused));
    solved = { pits: ring.pits, capacity: ring.capacity, ms: performance.now() - begun };
  }

  // Takes the table of `ring` a worker solved in `ms`, its two parts: false where they do not
  // fit the ring (and then no ring is solved here).
  function adopt(ring, lines, values, ms) {
    forget();
    if (core.receive(ring.pits, ring.capacity, lines.byteLength, values.byteLength) !== 0) return false;
    new Uint8Array(core.memory.buffer, core.received(0), lines.byteLength).set(lines);
    new Uint8Array(core.memory.buffer, core.received(1), values.byteLength).set(values);
    core.adopt();
    solved = { pits: ring.pits, capacity: ring.capacity, ms };
    return true;
  }

  function put(board) {
    const buffer = io();
    board.forEach((beads, i) => { buffer[i] = beads; });
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

  // One of the solved ring's starts of the IOI's rule (N pits, 3N - 1 beads, 2 to 4 in each,
  // at most the capacity) at random; null where it has none.
  function randomStart() {
    const count = core.start_count();
    if (count > 0 && core.start_at(Math.floor(Math.random() * count)) === 0) {
      return Array.from(io().slice(0, solved.pits));
    }
    return null;
  }

  return {
    load,
    compiled: () => compiled,
    bytes: () => moduleBytes,
    kind: () => kind,
    solved: () => solved,
    isSolved,
    refusal,
    solveHere,
    adopt,
    classes: (pits, capacity) => core.ring_classes(pits, capacity),
    seed: (seed) => core.seed(seed, 0),
    valueOf,
    rankMoves,
    lineFrom,
    play,
    choose,
    randomStart,
  };
})();
