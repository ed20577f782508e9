// The page's own script (docs/browser.md): it draws the ring and the study of the game, and asks
// the core, compiled to WebAssembly from ioiwari's C++ (src/web/api.cpp), for every rule, move
// and value. No framework; the page opens from a folder with no server.
//
// Two instances of the module: one on the page's thread answers every question of a solved
// ring; one in a Worker, made afresh for each solve, solves the next ring and hands its table
// over, so that the page answers clicks and keys while a ring is solving (ioiwari-host.js).
// The address, which holds the game on screen, is ioiwari-address.js's; the module on the page's
// thread, ioiwari-core.js's; the solves, ioiwari-solve.js's; the drawing, ioiwari-draw.js's.
(function () {
  'use strict';

  const { STRATEGIES, MOST_CLASSES, PITS, CAPACITY } = IoiwariAddress;
  const IOI = { pits: 7, capacity: 5 };
  const { isSolved, solveHere, valueOf, rankMoves, lineFrom, play, choose } = IoiwariCore;
  const solved = () => IoiwariCore.solved();

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

  // The module on the page's thread (ioiwari-core.js).
  function loadCore() {
    return IoiwariCore.load({
      stopped(what) { showError('The core stopped: ' + what); },
      progress(layer, layers, done, classes) { showProgress({ layer, layers, done, classes }); },
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

  // The solves (ioiwari-solve.js): one that fails with no one told says so, and the page plays
  // on.
  const solves = IoiwariSolve((failure) => {
    showError('The page could not solve it: ' + failure + '.', false);
    afterFailure();
  });
  const { whenSolved, cancelSolve, showProgress } = solves;

  // After a solve that failed or was cancelled: the game on screen plays on; with none, a new
  // game of the IOI's ring, which always solves.
  function afterFailure() {
    if (isSolved(state.ring) && state.start.length === state.ring.pits) {
      writeSettings();
      refresh();
      return;
    }
    state.mode = 'play';
    writeMode();
    newGame({ ...IOI });
  }

  // One of the solved ring's starts at random: N pits, 3N - 1 beads, 2 to 4 in each (at most
  // the capacity), the IOI's rule on any ring. A ring with no such start (a capacity under 3)
  // starts with half its capacity in every pit, and the page says so.
  function dealStart() {
    const help = document.getElementById('start-help');
    const start = IoiwariCore.randomStart();
    if (start) {
      help.textContent = 'Bead counts of pits 1 to N, separated by spaces.';
      return start;
    }
    const ring = solved();
    help.textContent = 'This ring has no start of 3N − 1 beads with 2 to 4 in each pit: it ' +
      'starts from ' + Math.ceil(ring.capacity / 2) + ' in each. Type any other.';
    return Array(ring.pits).fill(Math.ceil(ring.capacity / 2));
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
    IoiwariCore.seed(state.seed + state.moves.length);
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
        IoiwariCore.seed(state.seed + state.moves.length);
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

  const readAddress = (hash) => IoiwariAddress.read(hash, (pits, capacity) => IoiwariCore.classes(pits, capacity));

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

  // ---- Drawing (ioiwari-draw.js). -----------------------------------------------------------

  const { drawRing, drawText, drawChart } = IoiwariDraw({
    state, history, over, legal, play, signed, finalMargin, outcome,
    ending, personToMove, makeMove, goTo, lineFrom, rankMoves, valueOf, refresh,
  });

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
    const classes = IoiwariCore.classes(ring.pits, ring.capacity);
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
        if (solves.busy()) return;
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
      if (solved() && state.start.length > 0) {
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
    const same = isSolved(game.ring) && game.mode === state.mode &&
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
    solveMs: () => solved() && solved().ms,
    module: () => IoiwariCore.kind(),
    solver: () => solves.solver(),
    busy: () => solves.busy(),
    hold: (on) => solves.hold(on),
    classes: (pits, capacity) => IoiwariCore.classes(pits, capacity),
    rank: (board) => rankMoves(board),
    line: (board) => lineFrom(board),
    solve: (pits, capacity) => {
      solveHere({ pits, capacity });
      return solved().ms;
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
          resolve({ ms: performance.now() - begun, solveMs: solved().ms, longest: Math.max(longest, performance.now() - last) });
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
