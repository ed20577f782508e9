// The page opens from its folder in Chromium with no server, and holds its ground against an
// address that names no game and a ring too large for it.
'use strict';

const assert = require('node:assert/strict');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const { after, before, test } = require('node:test');
const { PAGE, launch, open, state, address, screenshot, ringArgs, native } = require('./support.cjs');

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser.close(); });

test('opens from its folder: only its own files, no message, a game of the IOI ring', async () => {
  const { page, heard } = await open(browser);
  const folder = pathToFileURL(path.dirname(PAGE)).href + '/';
  assert.deepEqual(heard.requests.filter((url) => !url.startsWith(folder)), []);
  assert.deepEqual(heard.requests.map((url) => url.slice(folder.length).replace(/#.*/, '')).sort(),
    ['ioiwari-module.js', 'ioiwari.css', 'ioiwari.html', 'ioiwari.js']);
  assert.deepEqual(heard.failed, []);
  const now = await state(page);
  assert.deepEqual(now.ring, { pits: 7, capacity: 5 });
  assert.equal(now.mode, 'play');
  assert.deepEqual(now.moves, []);
  // A start of the IOI's rule: 20 beads, 2 to 4 in each pit.
  assert.equal(now.start.reduce((a, b) => a + b), 20);
  assert.ok(now.start.every((beads) => beads >= 2 && beads <= 4), String(now.start));
  assert.match(await page.$eval('#status', (e) => e.textContent), /^Move 1: your move\. /);
  assert.equal(await page.$$eval('#ring-view .pit.legal', (pits) => pits.length), 7);
  // The address is the game.
  const hash = await page.evaluate(() => window.location.hash);
  const seed = new URLSearchParams(hash.slice(1)).get('seed');
  assert.match(seed, /^[0-9]+$/);
  assert.equal(hash, address({
    mode: 'play', ring: '7-5', start: now.start, you: 1, opponent: 'optimal', seed, moves: '',
  }));
  assert.equal(await page.$eval('#error', (e) => e.hidden), true);
  assert.deepEqual(heard.console, []);
  assert.deepEqual(heard.errors, []);
  await screenshot(page, 'opened');
  await page.close();
});

test('offers every ring it solves in a few seconds, the IOI ring named, and no other', async () => {
  const { page, heard } = await open(browser);
  const offered = await page.$$eval('#ring option', (options) =>
    options.map((option) => [option.value, option.textContent]));
  const values = offered.map(([value]) => value);
  // Up to 6.5 million classes (page/ioiwari.js says why): 10 pits of capacity 5 have 6.0 million,
  // 9 of capacity 7 have 14.9 million.
  for (const ring of ['3-1', '7-5', '9-5', '10-5', '13-3', '16-2']) assert.ok(values.includes(ring), ring);
  for (const ring of ['9-7', '11-5', '16-7', '16-9', '2-5', '17-1']) assert.ok(!values.includes(ring), ring);
  assert.match(offered.find(([value]) => value === '7-5')[1], /the IOI's/);
  // Each offered ring plays: its address opens a game of it.
  for (const ring of ['5-4', '9-5']) {
    const [pits, capacity] = ring.split('-').map(Number);
    const start = native(['starts', ...ringArgs({ pits, capacity })]).starts[0].start;
    await page.evaluate((hash) => { window.location.hash = hash; },
      address({ mode: 'play', ring, start, you: 1, opponent: 'optimal', seed: 1, moves: '' }));
    await page.waitForFunction((r) => !window.ioiwariPage.busy() &&
      window.ioiwariPage.state().ring.pits + '-' + window.ioiwariPage.state().ring.capacity === r, {}, ring);
    assert.deepEqual((await state(page)).start, start);
  }
  assert.deepEqual(heard.console, []);
  assert.deepEqual(heard.errors, []);
  await page.close();
});

test('an address that names no game opens a new game of the IOI ring', async () => {
  const broken = [
    '#ring=99-9&start=1-2-3',                   // no such ring
    '#ring=16-9&start=' + Array(16).fill(9).join('-'), // a ring the page does not solve
    '#ring=7-5&start=2-2-2-2-2-2',              // too few pits
    '#ring=7-5&start=2-2-2-2-2-2-x',            // not a number
    '#ring=7-5&start=6-2-2-2-2-2-2',            // beyond the capacity
    '#ring=7-5&start=0-0-0-0-0-0-0',            // no bead
    '#mode=play&ring=7-5',                      // no start
    '#%%%&&==&ring',                            // nothing at all
  ];
  for (const hash of broken) {
    const { page, heard } = await open(browser, hash);
    const now = await state(page);
    assert.deepEqual(now.ring, { pits: 7, capacity: 5 }, hash);
    assert.equal(now.start.reduce((a, b) => a + b), 20, hash);
    assert.deepEqual(now.moves, [], hash);
    assert.deepEqual(heard.console, [], hash);
    assert.deepEqual(heard.errors, [], hash);
    await page.close();
  }
});

test('moves of an address are played as far as they are legal', async () => {
  const start = [2, 2, 3, 4, 2, 3, 4];
  // The best line to the end, by the command line; then a pit it left empty, which is no move.
  const line = native(['analyze', ...start.map(String)]).line;
  const three = line.slice(0, 3).map((ply) => ply.pit);
  const empty = line[2].board.indexOf(0) + 1;
  const cases = [
    [line.map((ply) => ply.pit).join('-'), line.map((ply) => ply.pit)],
    [[...three, empty, ...three].join('-'), three],
    ['9', []],
    ['0', []],
    ['x-1', []],
    [three[0] + '-1.5', [three[0]]],
  ];
  for (const [moves, kept] of cases) {
    const { page, heard } = await open(browser, address({
      mode: 'analyze', ring: '7-5', start, mover: 1, moves,
    }));
    const now = await state(page);
    assert.deepEqual(now.moves, kept, moves);
    if (kept.length === line.length) {
      assert.equal(now.over, true);
      assert.deepEqual(now.banks, [line.at(-1).bank1, line.at(-1).bank2]);
    }
    assert.deepEqual(heard.errors, []);
    await page.close();
  }
});

test('a ring too large for a page is refused with one line, and the IOI ring plays on', async () => {
  const { page, heard } = await open(browser);
  // The page offers no such ring; its script is asked for one all the same.
  const refused = await page.evaluate(() => {
    try {
      window.ioiwariPage.solve(16, 7);
      return 'solved';
    } catch (error) {
      return error.message;
    }
  });
  assert.match(refused, /^the ring of 16 pits, capacity 7, takes more memory to solve than a page has/);
  // Nothing is solved now: a new game solves the IOI ring again and plays it.
  await page.click('#new-start');
  await page.waitForFunction(() => !window.ioiwariPage.busy() &&
    document.querySelector('#ring-view .pit.legal') !== null);
  await page.click('#play-out');
  const end = await state(page);
  assert.equal(end.over, true);
  assert.ok(end.banks[0] > end.banks[1], JSON.stringify(end));
  assert.deepEqual(heard.errors, []);
  await page.close();
});

test('choosing a ring solves it, saying so while it does; a ring with no start of the rule plays too', async () => {
  const { page, heard } = await open(browser);
  // Every text the status line shows, as it shows it.
  await page.evaluate(() => {
    window.statusTexts = [];
    new MutationObserver(() => window.statusTexts.push(document.getElementById('status').textContent))
      .observe(document.getElementById('status'), { childList: true, characterData: true, subtree: true });
  });
  await page.select('#ring', '10-5');
  await page.waitForFunction(() => !window.ioiwariPage.busy() &&
    window.ioiwariPage.state().ring.pits === 10);
  const texts = await page.evaluate(() => window.statusTexts);
  assert.equal(texts[0], 'Solving the ring of 10 pits, capacity 5: 6,047,412 rotation classes…');
  assert.match(texts.at(-1), /^Move 1: your move\. /);
  const ten = await state(page);
  assert.equal(ten.start.length, 10);
  assert.equal(ten.start.reduce((a, b) => a + b), 29);
  // Capacity 2: no start of 3N - 1 beads; every pit holds 1, and the page says why.
  await page.select('#ring', '12-2');
  await page.waitForFunction(() => !window.ioiwariPage.busy() &&
    window.ioiwariPage.state().ring.pits === 12);
  assert.deepEqual((await state(page)).start, Array(12).fill(1));
  assert.match(await page.$eval('#start-help', (e) => e.textContent), /^This ring has no start of 3N − 1 beads/);
  await page.click('#play-out');
  assert.equal((await state(page)).over, true);
  assert.deepEqual(heard.console, []);
  assert.deepEqual(heard.errors, []);
  await page.close();
});

test('a page opened from a folder may fetch none of its files: why the module comes as a script', async () => {
  // Chromium refuses a page of origin 'null' (a file://) the module's file by fetch(), which
  // WebAssembly.instantiateStreaming needs, and a Worker made from a file beside it; the page
  // therefore loads the module as a script of base64 text and solves on its own thread
  // (docs/browser.md). Should a Chromium allow them one day, this test says the page could
  // choose again.
  const { page } = await open(browser);
  const refused = await page.evaluate(async () => {
    const tried = {};
    try {
      await fetch('ioiwari.js');
      tried.fetch = 'fetched';
    } catch (error) {
      tried.fetch = error.name;
    }
    try {
      new Worker('ioiwari.js');
      tried.worker = 'made';
    } catch (error) {
      tried.worker = error.name;
    }
    return tried;
  });
  assert.deepEqual(refused, { fetch: 'TypeError', worker: 'SecurityError' });
  await page.close();
});
