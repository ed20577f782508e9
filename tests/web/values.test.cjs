// The page's answers are the command line's: every start of the IOI ring won by the page's
// perfect play, by the margin the command line gives; every move's value on random boards of
// several rings; the starts it deals.
'use strict';

const assert = require('node:assert/strict');
const { after, before, test } = require('node:test');
const { BROWSER, launch, open, native, ringArgs, address, seeded } = require('./support.cjs');

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser.close(); });

// Plays each start out in the page, by its own button, in a game against `opponent`: the banks
// at the end of each. The address opens each game, as a person's would.
function playOuts(page, starts, you, opponent) {
  return page.evaluate(async (starts, you, opponent) => {
    const ends = [];
    for (const [i, start] of starts.entries()) {
      const opened = new Promise((resolve) => window.addEventListener('hashchange', resolve, { once: true }));
      window.location.hash = '#mode=play&ring=7-5&start=' + start.join('-') + '&mover=1&you=' + you +
        '&opponent=' + opponent + '&seed=' + (i + 1) + '&moves=';
      await opened;
      document.getElementById('play-out').click();
      const end = window.ioiwariPage.state();
      ends.push({ over: end.over, banks: end.banks, moves: end.moves.length });
    }
    return ends;
  }, starts, you, opponent);
}

test('every start of the IOI ring: the page plays it out to a win by the command line\'s value', async () => {
  const all = native(['starts']).starts;
  assert.equal(all.length, 357);
  // Every one in Chromium; in Firefox, which runs the same module, one in four.
  const starts = BROWSER === 'chromium' ? all : all.filter((_, i) => i % 4 === 0);
  const { page, heard } = await open(browser);
  const ends = await playOuts(page, starts.map((s) => s.start), 1, 'optimal');
  for (const [i, end] of ends.entries()) {
    assert.equal(end.over, true, String(starts[i].start));
    assert.equal(end.banks[0] - end.banks[1], starts[i].value, String(starts[i].start));
    assert.ok(starts[i].value > 0);
  }
  assert.deepEqual(heard.console, []);
  assert.deepEqual(heard.errors, []);
  await page.close();
});

test('against weaker opponents, and as player 2, perfect play does at least as well', async () => {
  const starts = native(['starts']).starts.filter((_, i) => i % 9 === 0);
  const { page, heard } = await open(browser);
  for (const opponent of ['greedy', 'random', 'weakest']) {
    const ends = await playOuts(page, starts.map((s) => s.start), 1, opponent);
    for (const [i, end] of ends.entries()) {
      assert.equal(end.over, true);
      assert.ok(end.banks[0] - end.banks[1] >= starts[i].value, opponent + ' ' + starts[i].start);
    }
  }
  // As player 2 against the perfect player 1, the page loses by exactly the start's value.
  const ends = await playOuts(page, starts.map((s) => s.start), 2, 'optimal');
  for (const [i, end] of ends.entries()) {
    assert.equal(end.banks[1] - end.banks[0], -starts[i].value, String(starts[i].start));
  }
  assert.deepEqual(heard.errors, []);
  await page.close();
});

// Every move's value and moves to the end, and the best line, on 12 random boards (from `seed`)
// of each of six rings, in `page`: the command line's.
async function sameAnswers(page, seed) {
  const random = seeded(seed);
  const rings = [
    { pits: 7, capacity: 5 }, { pits: 3, capacity: 9 }, { pits: 5, capacity: 3 },
    { pits: 8, capacity: 6 }, { pits: 9, capacity: 4 }, { pits: 12, capacity: 2 },
  ];
  for (const ring of rings) {
    await page.evaluate((p, c) => window.ioiwariPage.solve(p, c), ring.pits, ring.capacity);
    for (let i = 0; i < 12; ++i) {
      // A board of any beads, at least one.
      const board = Array.from({ length: ring.pits }, () => Math.floor(random() * (ring.capacity + 1)));
      if (board.every((beads) => beads === 0)) board[0] = 1;
      const expected = native(['analyze', ...ringArgs(ring), ...board.map(String)]);
      const got = await page.evaluate((b) => window.ioiwariPage.rank(b), board);
      assert.deepEqual(got, expected.moves.map((m) => ({ pit: m.pit, value: m.value, moves: m.to_end })),
        ring.pits + ':' + ring.capacity + ' ' + board);
      assert.deepEqual(await page.evaluate((b) => window.ioiwariPage.line(b), board),
        expected.line.map((ply) => ply.pit), ring.pits + ':' + ring.capacity + ' ' + board);
    }
  }
}

test('every move\'s value and moves to the end, and the best line, on random boards of six rings are the command line\'s', async () => {
  const { page, heard } = await open(browser);
  // Both browsers run WebAssembly's SIMD: the page takes the module that has it.
  assert.equal(await page.evaluate(() => window.ioiwariPage.module()), 'simd');
  await sameAnswers(page, 2001);
  assert.deepEqual(heard.errors, []);
  await page.close();
});

test('a browser without WebAssembly\'s SIMD takes the plain module, and its answers are the same', async () => {
  // Neither browser can be told to run no SIMD (Firefox ESR 153 has only
  // javascript.options.wasm_simd_avx, Chromium nothing): the page's WebAssembly.validate() is
  // made to refuse, as such a browser's would refuse the SIMD module. That the plain module has
  // no vector instruction is modules.test.cjs's.
  const { page, heard } = await open(browser, '', () => {
    WebAssembly.validate = () => false;
  });
  assert.equal(await page.evaluate(() => window.ioiwariPage.module()), 'plain');
  await sameAnswers(page, 2002);
  assert.deepEqual(heard.console, []);
  assert.deepEqual(heard.errors, []);
  await page.close();
});

test('the starts the page deals are its ring\'s starts, the command line\'s', async () => {
  const { page, heard } = await open(browser, address({ mode: 'play', ring: '9-4', start: [3, 3, 3, 3, 3, 3, 3, 3, 2], you: 1, opponent: 'optimal', seed: 1, moves: '' }));
  const all = new Set(native(['starts', '--pits', '9', '--capacity', '4']).starts
    .map((s) => s.start.join(' ')));
  const dealt = new Set();
  for (let i = 0; i < 40; ++i) {
    await page.click('#new-start');
    const start = await page.evaluate(() => window.ioiwariPage.state().start);
    assert.ok(all.has(start.join(' ')), String(start));
    dealt.add(start.join(' '));
  }
  // They are dealt at random: 40 of several hundred are not one.
  assert.ok(dealt.size > 10, String(dealt.size));
  assert.deepEqual(heard.errors, []);
  await page.close();
});
