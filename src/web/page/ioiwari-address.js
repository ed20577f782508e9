// The page's address (docs/browser.md): a game, field by field, as the page writes it and as
// it reads one back, every field checked against what the core's rings allow before anything
// reaches the module. The page's script (ioiwari.js) takes it from IoiwariAddress.
const IoiwariAddress = (function () {
  'use strict';

  const STRATEGIES = ['optimal', 'greedy', 'random', 'weakest'];
  // The rings offered: those the page solves in a few seconds, at about 0.3 µs a class
  // (docs/browser.md has the figures).
  const MOST_CLASSES = 6500000;
  // What an address may name (the core's rings, docs/rings.md): checked before anything reaches
  // the module, whose 32-bit integers would take 4294967301 for 5.
  const PITS = { least: 3, most: 16 };
  const CAPACITY = { least: 1, most: 9 };
  const LONGEST_ADDRESS = 2000; // characters: a game of 16 pits of capacity 9 needs under 800

  // The address of the game `state` (ioiwari.js) holds.
  function of(state) {
    const parts = [
      'mode=' + state.mode,
      'ring=' + state.ring.pits + '-' + state.ring.capacity,
      'start=' + state.start.join('-'),
      'mover=' + state.firstMover,
    ];
    if (state.mode === 'play') {
      parts.push('you=' + state.you, 'opponent=' + state.opponent, 'seed=' + state.seed);
    }
    parts.push('moves=' + state.moves.join('-'));
    return '#' + parts.join('&');
  }

  // A game that an address names: {game} with the moves unchecked (ioiwari.js's checkMoves()
  // checks them once the ring is solved), or {error} saying what is wrong with it;
  // classesOf(pits, capacity) is the core's count of a ring's classes (0: no game). Every field is checked
  // against what the ring allows, each number by its digits before it is a number at all.
  function read(hash, classesOf) {
    const text = hash.replace(/^#/, '');
    if (text.length > LONGEST_ADDRESS) {
      return { error: 'the address is ' + text.length + ' characters long, more than any game needs' };
    }
    const fields = new Map();
    for (const part of text.split('&').filter(Boolean)) {
      const equals = part.indexOf('=');
      const key = equals < 0 ? part : part.slice(0, equals);
      const value = equals < 0 ? '' : part.slice(equals + 1);
      if (!['mode', 'ring', 'start', 'mover', 'you', 'opponent', 'seed', 'moves'].includes(key)) {
        return { error: 'the address has a field "' + shorten(key) + '", which no game has' };
      }
      if (fields.has(key)) return { error: 'the address gives "' + key + '" twice' };
      fields.set(key, value);
    }
    if (!fields.has('ring')) return { error: 'the address names no ring (ring=PITS-CAPACITY)' };
    if (!fields.has('start')) return { error: 'the address gives no start (start=COUNTS)' };
    // A count is digits alone; one of more than 9 is out of every range below, however long.
    const counts = (value) => (value.split('-').every((digits) => /^[0-9]+$/.test(digits))
      ? value.split('-').map((digits) => (digits.length > 9 ? Infinity : Number(digits))) : null);
    const ringCounts = counts(fields.get('ring'));
    if (!ringCounts || ringCounts.length !== 2) {
      return { error: 'the ring "' + shorten(fields.get('ring')) + '" is not PITS-CAPACITY' };
    }
    const [pits, capacity] = ringCounts;
    const said = (number) => (number === Infinity ? 'more' : String(number));
    if (pits < PITS.least || pits > PITS.most) {
      return { error: 'a ring has ' + PITS.least + ' to ' + PITS.most + ' pits, not ' +
        (pits === Infinity ? shorten(fields.get('ring').split('-')[0]) : pits) };
    }
    if (capacity < CAPACITY.least || capacity > CAPACITY.most) {
      return { error: 'a pit holds ' + CAPACITY.least + ' to ' + CAPACITY.most + ' beads, not ' +
        (capacity === Infinity ? shorten(fields.get('ring').split('-')[1]) : capacity) };
    }
    const ring = { pits, capacity };
    const classes = classesOf(pits, capacity);
    if (classes === 0) return { error: 'no game is played on ' + pits + ' pits of capacity ' + capacity };
    if (classes > MOST_CLASSES) {
      return { error: 'the ring of ' + pits + ' pits, capacity ' + capacity + ', is larger than ' +
        'this page solves; the command line plays it (ioiwari play --pits ' + pits +
        ' --capacity ' + capacity + ')' };
    }
    const startCounts = counts(fields.get('start'));
    if (!startCounts || startCounts.length !== pits) {
      return { error: 'the start "' + shorten(fields.get('start')) + '" is not ' + pits +
        ' bead counts' };
    }
    const beyond = startCounts.findIndex((beads) => beads > capacity);
    if (beyond >= 0) {
      return { error: 'pit ' + (beyond + 1) + ' of the start holds ' + said(startCounts[beyond]) +
        ' beads, more than its capacity, ' + capacity };
    }
    const start = startCounts;
    if (start.every((beads) => beads === 0)) return { error: 'the start has no bead' };
    const choice = (key, allowed, otherwise) => {
      if (!fields.has(key)) return { value: otherwise };
      const value = fields.get(key);
      return allowed.includes(value) ? { value }
        : { error: '"' + key + '" is ' + allowed.join(' or ') + ', not "' + shorten(value) + '"' };
    };
    const mode = choice('mode', ['play', 'analyze'], 'play');
    const mover = choice('mover', ['1', '2'], '1');
    const you = choice('you', ['1', '2'], '1');
    const opponent = choice('opponent', STRATEGIES, 'optimal');
    for (const field of [mode, mover, you, opponent]) if (field.error) return { error: field.error };
    let seed = 1;
    if (fields.has('seed')) {
      const value = fields.get('seed');
      if (!/^[0-9]{1,10}$/.test(value) || Number(value) > 4294967295) {
        return { error: 'the seed is 0 to 4294967295, not "' + shorten(value) + '"' };
      }
      seed = Number(value);
    }
    const movesText = fields.get('moves') || '';
    const moves = movesText === '' ? [] : counts(movesText);
    if (!moves) return { error: 'the moves "' + shorten(movesText) + '" are not pit numbers' };
    return {
      game: {
        mode: mode.value, ring, start, firstMover: Number(mover.value), you: Number(you.value),
        opponent: opponent.value, seed, moves,
      },
    };
  }

  // A piece of an address, short enough to quote in a message.
  function shorten(text) {
    return text.length > 24 ? text.slice(0, 24) + '…' : text;
  }

  return { STRATEGIES, MOST_CLASSES, PITS, CAPACITY, of, read };
})();
