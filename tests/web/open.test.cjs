// The page opens from its folder with no server, and holds its ground against addresses that
// name no game (hostile ones among them) and a ring too large for it; it solves a ring in a
// worker, saying how far it is, while the game on screen plays on.
'use strict';

const assert = require('node:assert/strict');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const { after, before, test } = require('node:test');
const {
  BROWSER, PAGE, launch, open, state, until, address, screenshot, ringArgs, native,
} = require('./support.cjs');

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser.close(); });

test('opens from its folder: only its own files, no message, a game of the IOI ring', async () => {
  const { page, heard } = await open(browser);
  const folder = pathToFileURL(path.dirname(PAGE)).href + '/';
  // Its own files, and the worker it makes from a Blob of its own script. (Firefox tells
  // puppeteer of no file: request, only of a font of its own, as a data: address.)
  const files = heard.requests.filter((url) => !url.startsWith('blob:') && !url.startsWith('data:'));
  assert.deepEqual(files.filter((url) => !url.startsWith(folder)), []);
  if (BROWSER === 'chromium') {
    assert.deepEqual(files.map((url) => url.slice(folder.length).replace(/#.*/, '')).sort(),
      ['ioiwari-address.js', 'ioiwari-core.js', 'ioiwari-draw.js', 'ioiwari-host.js',
        'ioiwari-module.js', 'ioiwari-solve.js', 'ioiwari.css', 'ioiwari.html', 'ioiwari.js']);
  }
  assert.equal(await page.evaluate(() => window.ioiwariPage.solver()), 'worker');
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
    mode: 'play', ring: '7-5', start: now.start, mover: 1, you: 1, opponent: 'optimal', seed, moves: '',
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
  // Up to 6.5 million classes (page/ioiwari-address.js says why): 10 pits of capacity 5 have 6.0 million,
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

// Addresses that name no game, each with what the page must say of it. Each opens a new game of
// the IOI ring under the message, and nothing else: no loop, no dialog, no script run.
const HOSTILE = [
  ['#mode=analyze&ring=7-4294967301&start=9-9-9-9-9-9-9&moves=', /a pit holds 1 to 9 beads, not 4294967301/],
  ['#ring=7-4294967301&start=2-2-2-2-2-2-2', /a pit holds 1 to 9 beads, not 4294967301/],
  ['#ring=99999999999999999999-5&start=1', /a ring has 3 to 16 pits, not 9999999999/],
  ['#ring=99-9&start=1-2-3', /a ring has 3 to 16 pits, not 99/],
  ['#ring=17-5&start=' + Array(17).fill(2).join('-'), /a ring has 3 to 16 pits, not 17/],
  ['#ring=2-5&start=2-2', /a ring has 3 to 16 pits, not 2/],
  ['#ring=7-0&start=0-0-0-0-0-0-0', /a pit holds 1 to 9 beads, not 0/],
  ['#ring=9-7&start=' + Array(9).fill(2).join('-'), /the ring of 9 pits, capacity 7, is larger than this page solves/],
  ['#ring=16-7&start=' + Array(16).fill(7).join('-'), /the ring of 16 pits, capacity 7, is larger than this page solves/],
  ['#ring=16-9&start=' + Array(16).fill(9).join('-'), /no game is played on 16 pits of capacity 9/],
  ['#ring=7-5&start=2-2-2-2-2-2', /the start "2-2-2-2-2-2" is not 7 bead counts/],
  ['#ring=7-5&start=2-2-2-2-2-2-x', /is not 7 bead counts/],
  ['#ring=7-5&start=-1-2-2-2-2-2-2', /is not 7 bead counts/],
  ['#ring=7-5&start=6-2-2-2-2-2-2', /pit 1 of the start holds 6 beads, more than its capacity, 5/],
  ['#ring=7-5&start=2-2-2-2-2-2-99999999999999', /pit 7 of the start holds more beads/],
  ['#ring=7-5&start=0-0-0-0-0-0-0', /the start has no bead/],
  ['#mode=play&ring=7-5', /the address gives no start/],
  ['#%%%&&==&ring', /the address has a field "%%%"/],
  ['#ring=7-5&start=2-2-2-2-2-2-2&ring=7-5', /the address gives "ring" twice/],
  ['#ring=7-5&start=2-2-2-2-2-2-2&mode=%3Cscript%3Ealert(1)%3C/script%3E', /"mode" is play or analyze, not "%3Cscript/],
  ['#<img src=x onerror=alert(1)>=1&ring=7-5&start=2-2-2-2-2-2-2', /the address has a field "(<img|%3Cimg)/],
  ['#ring=7-5&start=2-2-2-2-2-2-2&mover=3', /"mover" is 1 or 2, not "3"/],
  ['#ring=7-5&start=2-2-2-2-2-2-2&opponent=oracle', /"opponent" is optimal or greedy or random or weakest/],
  ['#ring=7-5&start=2-2-2-2-2-2-2&seed=4294967296', /the seed is 0 to 4294967295/],
  ['#ring=7-5&start=2-2-2-2-2-2-2&moves=1-x', /the moves "1-x" are not pit numbers/],
  ['#ring=7-5&start=2-2-2-2-2-2-2&seed=' + '9'.repeat(10000), /the address is 10\d\d\d characters long/],
];

// What the page must show of each: the message, a new game of the IOI ring, and nothing else.
async function checkRefused(page, heard, dialogs, hash, said, game) {
  const now = await state(page);
  if (game) {
    assert.deepEqual(now, game, hash);
  } else {
    assert.deepEqual(now.ring, { pits: 7, capacity: 5 }, hash);
    assert.equal(now.start.reduce((a, b) => a + b), 20, hash);
    assert.deepEqual(now.moves, [], hash);
  }
  assert.equal(await page.$eval('#error', (e) => e.hidden), false, hash);
  const text = await page.$eval('#error-text', (e) => e.textContent);
  assert.match(text, /^This address names no game: /, hash);
  assert.match(text, said, hash);
  assert.equal(await page.$eval('#error-new-game', (e) => e.hidden), false, hash);
  // The address is now the game shown.
  assert.match(await page.evaluate(() => window.location.hash), /^#mode=play&ring=7-5&start=/);
  // Nothing of the address became part of the page.
  assert.equal(await page.$$eval('img', (images) => images.length), 0, hash);
  assert.deepEqual(dialogs, [], hash);
  assert.deepEqual(heard.console, [], hash);
  assert.deepEqual(heard.errors, [], hash);
}

test('a page opened at an address that names no game says why and opens a new game', async () => {
  // The first load, with no game on screen yet: one address of each kind.
  for (const at of [0, 2, 8, 12, 16, 19, HOSTILE.length - 1]) {
    const [hash, said] = HOSTILE[at];
    const { page, heard } = await open(browser, hash);
    const dialogs = [];
    page.on('dialog', (dialog) => { dialogs.push(dialog.message()); dialog.dismiss(); });
    await checkRefused(page, heard, dialogs, hash, said, null);
    await page.close();
  }
});

test('every hostile address typed over a game keeps the game, says why, and offers a new one', async () => {
  const { page, heard } = await open(browser);
  const dialogs = [];
  page.on('dialog', (dialog) => { dialogs.push(dialog.message()); dialog.dismiss(); });
  const before = await state(page);
  for (const [hash, said] of HOSTILE) {
    await page.evaluate(() => { document.getElementById('error').hidden = true; });
    await page.evaluate((h) => { window.location.hash = h; }, hash);
    await page.waitForFunction(() => !document.getElementById('error').hidden);
    await checkRefused(page, heard, dialogs, hash, said, before);
  }
  // The New game button opens one.
  await page.click('#error-new-game');
  const fresh = await until(page, (s) => s.start.join() !== before.start.join() || s.seed !== before.seed);
  assert.deepEqual(fresh.ring, { pits: 7, capacity: 5 });
  assert.equal(await page.$eval('#error', (e) => e.hidden), true);
  assert.deepEqual(heard.errors, []);
  await page.close();
});

test('moves of an address are played as far as they are legal', async () => {
  const start = [2, 2, 3, 4, 2, 3, 4];
  // The best line to the end, by the command line; then a pit it left empty, which is no move.
  const line = native(['analyze', ...start.map(String)]).line;
  const three = line.slice(0, 3).map((ply) => ply.pit);
  const empty = line[2].board.indexOf(0) + 1;
  const all = line.map((ply) => ply.pit);
  const cases = [
    [all.join('-'), all, null],
    [[...three, empty, ...three].join('-'), three, 'move 4 of the address, pit ' + empty +
      ', is not a move: pit ' + empty + ' was empty'],
    [[...all, 1].join('-'), all, 'move ' + (all.length + 1) + ' of the address, pit 1, is not a ' +
      'move: the game was over'],
    ['9', [], 'move 1 of the address, pit 9, is not a move: the ring has no such pit'],
    ['0', [], 'move 1 of the address, pit 0, is not a move: the ring has no such pit'],
    ['x-1', [], 'This address names no game: the moves "x-1" are not pit numbers'],
    [three[0] + '-1.5', [], 'This address names no game: the moves'],
  ];
  for (const [moves, kept, said] of cases) {
    const { page, heard } = await open(browser, address({
      mode: 'analyze', ring: '7-5', start, mover: 1, moves,
    }));
    const now = await until(page, (s) => !said || !said.startsWith('This') || s.mode === 'play');
    if (!said || !said.startsWith('This')) assert.deepEqual(now.moves, kept, moves);
    assert.equal(await page.$eval('#error', (e) => e.hidden), !said, moves);
    if (said) assert.ok((await page.$eval('#error-text', (e) => e.textContent)).includes(said), moves);
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

test('a ring solves in a worker: its progress shows, the game on screen plays on, and a move lands', async () => {
  const { page, heard } = await open(browser, address({
    mode: 'analyze', ring: '7-5', start: [4, 3, 2, 4, 2, 3, 2], mover: 1, moves: '' }));
  // Every text the solving line shows, as it shows it.
  await page.evaluate(() => {
    window.solvingTexts = [];
    new MutationObserver(() => window.solvingTexts.push(document.getElementById('solving-text').textContent))
      .observe(document.getElementById('solving-text'), { childList: true, characterData: true, subtree: true });
  });
  await page.select('#ring', '10-5');
  // While it solves, the page answers: the bar moves, and a click on the game on screen is a
  // move of that game. (A solve on the page's own thread could do neither until it ended.)
  let seen = null;
  let moved = false;
  for (;;) {
    const now = await page.evaluate(() => {
      const bar = document.getElementById('solving-progress');
      return { busy: window.ioiwariPage.busy(), value: bar.value, max: bar.max, shown: !bar.closest('#solving').hidden };
    });
    if (!now.busy) break;
    if (now.shown && now.value > 0 && now.value < now.max) {
      seen = seen || now;
      if (!moved) {
        await page.click('#ring-view .pit[data-pit="2"]');
        moved = (await state(page)).moves.length === 1 && (await page.evaluate(() => window.ioiwariPage.busy()));
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  assert.ok(seen, 'the progress bar moved during the solve');
  assert.ok(moved, 'a move was played during the solve');
  const texts = await page.evaluate(() => window.solvingTexts);
  assert.equal(texts[0], 'Solving the ring of 10 pits, capacity 5: 6,047,412 rotation classes…');
  assert.ok(texts.some((text) => /^Solving the ring of 10 pits, capacity 5: [1-9][0-9]?% of 6,047,412 rotation classes…$/.test(text)),
    texts.join('\n'));
  assert.match(await page.$eval('#status', (e) => e.textContent), /^Move 1: /);
  const ten = await state(page);
  assert.deepEqual(ten.ring, { pits: 10, capacity: 5 });
  assert.equal(ten.start.length, 10);
  assert.equal(ten.start.reduce((a, b) => a + b), 29);
  assert.equal(await page.$eval('#solving', (e) => e.hidden), true);
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

test('a solve can be cancelled; keys and undo answer while it is held', async () => {
  const { page, heard } = await open(browser, address({
    mode: 'analyze', ring: '7-5', start: [4, 3, 2, 4, 2, 3, 2], mover: 1, moves: '' }));
  // The tests' hold keeps the worker from starting, so that this does not race the solve.
  await page.evaluate(() => window.ioiwariPage.hold(true));
  await page.select('#ring', '9-5');
  await page.evaluate(() => document.activeElement.blur());
  assert.equal(await page.evaluate(() => window.ioiwariPage.busy()), true);
  assert.equal(await page.$eval('#solving', (e) => e.hidden), false);
  await page.keyboard.press('2');
  await until(page, (s) => s.moves.length === 1);
  await page.keyboard.press('u');
  await until(page, (s) => s.moves.length === 0 && s.redo.length === 1);
  await page.click('#cancel-solve');
  assert.equal(await page.evaluate(() => window.ioiwariPage.busy()), false);
  assert.equal(await page.$eval('#solving', (e) => e.hidden), true);
  // The ring chosen goes back to the game's, which plays on.
  assert.equal(await page.$eval('#ring', (e) => e.value), '7-5');
  assert.deepEqual((await state(page)).ring, { pits: 7, capacity: 5 });
  await page.evaluate(() => document.activeElement.blur());
  await page.keyboard.press('r');
  await until(page, (s) => s.moves.length === 1);
  // Released, the next solve runs to the end.
  await page.select('#ring', '5-4');
  await page.evaluate(() => window.ioiwariPage.hold(false));
  await page.waitForFunction(() => !window.ioiwariPage.busy() && window.ioiwariPage.state().ring.pits === 5);
  assert.deepEqual(heard.errors, []);
  await page.close();
});

test('a page opened from a folder: why the module comes as a script and the worker from a Blob', async () => {
  // A page of a file:// address may not make a Worker of the file beside it (Chromium refuses it
  // at once, Firefox fails it when it loads), and Chromium fetches no file: so the page loads the
  // module as a script of base64 text and makes its worker from a Blob of its own script
  // (docs/browser.md). Should a browser change, this test says the page could choose again.
  const { page } = await open(browser);
  const tried = await page.evaluate(async () => {
    const tried = {};
    try {
      await fetch('ioiwari.js');
      tried.fetch = 'fetched';
    } catch (error) {
      tried.fetch = error.name;
    }
    try {
      const worker = new Worker('ioiwari.js');
      tried.worker = await new Promise((resolve) => {
        worker.onerror = () => resolve('failed');
        setTimeout(() => resolve('made'), 2000);
      });
    } catch (error) {
      tried.worker = error.name;
    }
    const blob = new Worker(URL.createObjectURL(new Blob(
      ['self.onmessage = (event) => self.postMessage(event.data + 1 + typeof WebAssembly);'],
      { type: 'text/javascript' })));
    tried.blob = await new Promise((resolve) => {
      blob.onmessage = (event) => resolve(event.data);
      blob.postMessage(1);
    });
    return tried;
  });
  const expected = BROWSER === 'firefox' ? { fetch: 'fetched', worker: 'failed' }
    : { fetch: 'TypeError', worker: 'SecurityError' };
  assert.deepEqual(tried, { ...expected, blob: '2object' });
  await page.close();
});
