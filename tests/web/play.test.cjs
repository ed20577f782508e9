// A person at the page: moves by clicks and keys, the opponent's replies, undo and redo, the
// values on demand, the address that reopens a game, analysis, the lesson of a costly move.
'use strict';

const assert = require('node:assert/strict');
const { after, before, test } = require('node:test');
const {
  launch, open, ready, state, until, native, ringArgs, address, screenshot,
} = require('./support.cjs');

const START = [2, 2, 3, 4, 2, 3, 4];

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser.close(); });

function game(fields) {
  return address({ mode: 'play', ring: '7-5', start: START, you: 1, opponent: 'optimal', seed: 1,
    moves: '', ...fields });
}

// The values the page shows under the pits: {pit: value}.
function shownValues(page) {
  return page.$$eval('#ring-view .pit-text', (pits) => Object.fromEntries(pits
    .filter((pit) => pit.querySelector('.value'))
    .map((pit) => [Number(pit.dataset.pit),
      Number(pit.querySelector('.value').textContent.split(' ')[0].replace('−', '-').replace('+', ''))])));
}

function analysis(ring, board) {
  return native(['analyze', ...ringArgs(ring), ...board.map(String)]);
}

test('a click is a move, the perfect opponent answers as the command line would', async () => {
  const { page, heard } = await open(browser, game({}));
  const ring = { pits: 7, capacity: 5 };
  // The person plays the first move of the best line by a click; the opponent answers with the
  // lowest-labelled best move, as the command line's perfect player does.
  const line = analysis(ring, START).line;
  await page.click('#ring-view .pit[data-pit="' + line[0].pit + '"]');
  const now = await until(page, (s) => s.moves.length === 2);
  const replies = analysis(ring, line[0].board).moves;
  const best = Math.min(...replies.filter((m) => m.value === replies[0].value).map((m) => m.pit));
  assert.deepEqual(now.moves, [line[0].pit, best]);
  assert.equal(now.mover, 1);
  assert.equal(now.board.reduce((a, b) => a + b) + now.banks[0] + now.banks[1], 20);
  const told = await page.$eval('#last-move', (e) => e.innerText);
  assert.match(told, new RegExp('^You played pit ' + line[0].pit + ' \\(' + START[line[0].pit - 1] + ' beads\\): '));
  assert.match(told, new RegExp('\\nIoiwari played pit ' + line[1].pit + ' '));
  // No value is shown until asked for; then every legal move's, the command line's.
  assert.deepEqual(await shownValues(page), {});
  await page.click('#show-values');
  const expected = Object.fromEntries(analysis(ring, now.board).moves.map((m) => [m.pit, m.value]));
  assert.deepEqual(await shownValues(page), expected);
  await screenshot(page, 'values');
  // A pit that is empty takes no click.
  const empty = now.board.indexOf(0) + 1;
  assert.ok(empty > 0);
  await page.click('#ring-view .pit[data-pit="' + empty + '"]');
  assert.deepEqual((await state(page)).moves, now.moves);
  // The next move hides the values again.
  await page.click('#ring-view .pit[data-pit="' + analysis(ring, now.board).moves[0].pit + '"]');
  await until(page, (s) => s.moves.length === 4 || s.over);
  assert.deepEqual(await shownValues(page), {});
  assert.deepEqual(heard.console, []);
  assert.deepEqual(heard.errors, []);
  await page.close();
});

test('keys: a digit plays its pit, two digits on a ring of ten pits, h, u and r', async () => {
  const ten = { pits: 10, capacity: 3 };
  const start = native(['starts', ...ringArgs(ten)]).starts[0].start;
  assert.ok(start[9] > 0 && start[0] > 0);
  const { page, heard } = await open(browser, address({
    mode: 'analyze', ring: '10-3', start, mover: 1, moves: '' }));
  // 1 then 0: pit 10, at once (no pit 100 is possible).
  await page.keyboard.press('1');
  await page.keyboard.press('0');
  let now = await until(page, (s) => s.moves.length === 1);
  assert.deepEqual(now.moves, [10]);
  // A lone 1 waits for a second digit, then plays pit 1 (if it is legal; else nothing).
  const one = now.board[0] > 0;
  await page.keyboard.press('1');
  if (one) now = await until(page, (s) => s.moves.length === 2);
  assert.deepEqual(now.moves, one ? [10, 1] : [10]);
  await page.keyboard.press('u');
  now = await until(page, (s) => s.moves.length === (one ? 1 : 0));
  await page.keyboard.press('r');
  now = await until(page, (s) => s.redo.length === 0);
  assert.deepEqual(now.moves, one ? [10, 1] : [10]);
  // h shows the values on demand in play; analysis always shows them.
  assert.ok(Object.keys(await shownValues(page)).length > 0);
  const { page: play } = await open(browser, game({}));
  assert.deepEqual(await shownValues(play), {});
  await play.keyboard.press('h');
  assert.equal(Object.keys(await shownValues(play)).length, 7);
  await play.keyboard.press('h');
  assert.deepEqual(await shownValues(play), {});
  await play.keyboard.press(String(analysis({ pits: 7, capacity: 5 }, START).moves[0].pit));
  await until(play, (s) => s.moves.length === 2);
  await play.close();
  assert.deepEqual(heard.errors, []);
  await page.close();
});

test('undo and redo walk back and forth through the same game; the address reopens it', async () => {
  const { page, heard } = await open(browser, game({ opponent: 'random', seed: 7 }));
  // Three moves of the person, each answered.
  for (let i = 0; i < 3; ++i) {
    const now = await state(page);
    if (now.over) break;
    const legal = now.board.map((beads, at) => (beads > 0 ? at + 1 : 0)).filter(Boolean);
    await page.click('#ring-view .pit[data-pit="' + legal[legal.length - 1] + '"]');
    await until(page, (s) => s.over || (s.mover === 1 && s.moves.length === 2 * (i + 1)));
  }
  const played = await state(page);
  const hash = await page.evaluate(() => window.location.hash);
  for (let i = 0; i < 3; ++i) await page.click('#undo');
  let now = await state(page);
  assert.deepEqual(now.moves, []);
  assert.deepEqual(now.board, START);
  assert.equal(await page.$eval('#undo', (e) => e.disabled), true);
  for (let i = 0; i < 3; ++i) await page.click('#redo');
  now = await state(page);
  assert.deepEqual(now, played);
  assert.equal(await page.evaluate(() => window.location.hash), hash);
  // A move after an undo ends what could be redone.
  await page.click('#undo');
  const back = await state(page);
  const legal = back.board.map((beads, at) => (beads > 0 ? at + 1 : 0)).filter(Boolean);
  await page.click('#ring-view .pit[data-pit="' + legal[0] + '"]');
  now = await until(page, (s) => s.redo.length === 0);
  assert.equal(await page.$eval('#redo', (e) => e.disabled), true);
  // The address of the game played reopens it, in another tab.
  const { page: again, heard: heardAgain } = await open(browser, hash);
  assert.deepEqual(await state(again), played);
  assert.deepEqual(heardAgain.errors, []);
  assert.deepEqual(heard.errors, []);
  await again.close();
  await page.close();
});

test('as player 2 the opponent moves first; a costly move is in the lesson and the chart', async () => {
  const { page, heard } = await open(browser, game({ you: 2 }));
  const first = await until(page, (s) => s.moves.length === 1);
  assert.equal(first.mover, 2);
  // The person's worst move, which costs beads.
  const moves = analysis({ pits: 7, capacity: 5 }, first.board).moves;
  const worst = moves[moves.length - 1];
  assert.ok(worst.value < moves[0].value);
  await page.click('#ring-view .pit[data-pit="' + worst.pit + '"]');
  await until(page, (s) => s.moves.length >= 3 || s.over);
  const lesson = await page.$$eval('#lesson li', (items) => items.map((item) => item.textContent));
  const cost = moves[0].value - worst.value;
  assert.deepEqual(lesson, ['Move 2, You: pit ' + worst.pit + ' on ' + first.board.join(' ') +
    ' cost ' + cost + (cost === 1 ? ' bead' : ' beads') + ' (it nets ' +
    (worst.value < 0 ? '−' + -worst.value : worst.value > 0 ? '+' + worst.value : '0') +
    ' from there; pit ' + moves[0].pit + ' nets ' +
    (moves[0].value < 0 ? '−' + -moves[0].value : moves[0].value > 0 ? '+' + moves[0].value : '0') + ').']);
  assert.equal(await page.$$eval('#chart .chart-costly', (dots) => dots.length), 1);
  await page.click('#play-out');
  const end = await state(page);
  assert.equal(end.over, true);
  assert.match(await page.$eval('#status', (e) => e.textContent), /^Game over: /);
  await screenshot(page, 'lesson');
  assert.deepEqual(heard.errors, []);
  await page.close();
});

test('analysis: the + and − buttons set any position, and each value is the command line\'s', async () => {
  const { page, heard } = await open(browser, address({
    mode: 'analyze', ring: '7-5', start: START, mover: 2, moves: '' }));
  const plus = (pit) => page.click('#ring-view .edit[aria-label="one bead more in pit ' + pit + '"]');
  const minus = (pit) => page.click('#ring-view .edit[aria-label="one bead less in pit ' + pit + '"]');
  await plus(1);
  await plus(1);
  await plus(1);
  await plus(1); // capped at the capacity, 5
  await minus(2);
  await minus(2);
  await minus(2); // not below 0
  const now = await state(page);
  const board = [5, 0, 3, 4, 2, 3, 4];
  assert.deepEqual(now.start, board);
  assert.equal(now.mover, 2);
  const expected = Object.fromEntries(analysis({ pits: 7, capacity: 5 }, board).moves
    .map((m) => [m.pit, m.value]));
  assert.deepEqual(await shownValues(page), expected);
  assert.match(await page.$eval('#status', (e) => e.textContent), /^Move 1: Player 2 to move\. /);
  await screenshot(page, 'analysis');
  assert.deepEqual(heard.errors, []);
  await page.close();
});

test('the setting to show every value is kept for the next visit', async () => {
  const { page } = await open(browser, game({}));
  await page.click('#always-values');
  assert.equal(Object.keys(await shownValues(page)).length, 7);
  await page.close();
  const { page: next, heard } = await open(browser, game({}));
  assert.equal(await next.$eval('#always-values', (e) => e.checked), true);
  assert.equal(Object.keys(await shownValues(next)).length, 7);
  await next.click('#always-values');
  await next.reload();
  await ready(next);
  assert.equal(await next.$eval('#always-values', (e) => e.checked), false);
  assert.deepEqual(heard.errors, []);
  await next.close();
});

test('a typed start is played from; one that is no start is refused in one line', async () => {
  const { page, heard } = await open(browser, game({}));
  const type = async (text) => {
    await page.evaluate(() => { document.getElementById('start').value = ''; });
    await page.type('#start', text);
    await page.click('#use-start');
  };
  await type('5, 0 3 4 2 3 4');
  await page.waitForFunction(() => !window.ioiwariPage.busy());
  assert.deepEqual((await state(page)).start, [5, 0, 3, 4, 2, 3, 4]);
  assert.equal(await page.$eval('#error', (e) => e.hidden), true);
  for (const bad of ['9 9', '1 2 3 4 5 6 7 8', '6 0 0 0 0 0 0', '0 0 0 0 0 0 0', 'a b c d e f g', '-1 2 2 2 2 2 2']) {
    await type(bad);
    assert.equal(await page.$eval('#error', (e) => e.hidden), false, bad);
    assert.equal(await page.$eval('#error-text', (e) => e.textContent),
      'A start is 7 counts of 0 to 5, at least one bead.');
    assert.deepEqual((await state(page)).start, [5, 0, 3, 4, 2, 3, 4], bad);
  }
  assert.deepEqual(heard.errors, []);
  await page.close();
});
