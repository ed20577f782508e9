// What a student learns from the page: the rules and a worked move, what a move would change
// before it is made, every move ranked with its moves to the end and best line, a game to walk
// through (the move list, Back and Forward, a link to copy, a new start undone), and a page for
// any screen and any eyes (a phone, the dark, the keyboard, an accessibility audit).
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { after, before, test } = require('node:test');
const {
  launch, open, openDark, state, until, native, ringArgs, address, screenshot,
} = require('./support.cjs');

const EXAMPLE = [4, 3, 2, 4, 2, 3, 2];

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser.close(); });

const text = (page, selector) => page.$eval(selector, (e) => e.textContent.replace(/\s+/g, ' ').trim());

test('the rules are one click from the board, and their worked move is the board\'s', async () => {
  const { page, heard } = await open(browser);
  assert.equal(await page.$eval('#rules', (e) => e.open), false);
  await page.click('#show-rules');
  assert.equal(await page.$eval('#rules', (e) => e.open), true);
  // In sight, and the keyboard's focus on it.
  const box = await page.$eval('#rules', (e) => {
    const r = e.getBoundingClientRect();
    return { top: r.top, height: window.innerHeight };
  });
  assert.ok(box.top > -2 && box.top < box.height, JSON.stringify(box));
  assert.equal(await page.evaluate(() => document.activeElement.tagName), 'SUMMARY');
  const rules = await text(page, '#rules');
  for (const word of ['skim', 'drop', 'captures', 'the other player\'s bank', 'bigger bank wins']) {
    assert.ok(rules.includes(word), word);
  }
  await screenshot(page, 'rules');
  // The worked move, on the board: the same board after it, the same bank, the same words.
  await page.click('#show-example');
  let now = await until(page, (s) => s.mode === 'analyze' && s.start.join() === EXAMPLE.join());
  await page.click('#ring-view .pit[data-pit="2"]');
  now = await until(page, (s) => s.moves.length === 1);
  assert.deepEqual(now.board, [4, 0, 3, 5, 0, 3, 2]);
  assert.deepEqual(now.banks, [3, 0]);
  assert.ok(rules.includes('the board is 4 0 3 5 0 3 2'), rules);
  await page.click('#ring-view .pit[data-pit="3"]');
  now = await until(page, (s) => s.moves.length === 2);
  assert.deepEqual(now.banks, [3, 4]);
  assert.match(await text(page, '#last-move'),
    /Player 2 played pit 3 \(3 beads\): skimmed full pit 4: 1 bead to the bank; dropped in pits 5, 6; captured pit 7: 3 beads\./);
  assert.deepEqual(heard.errors, []);
  await page.close();
});

test('a move\'s effect shows before it is made: the pits it changes and what it does', async () => {
  const { page, heard } = await open(browser, address({
    mode: 'analyze', ring: '7-5', start: EXAMPLE, mover: 1, moves: '' }));
  const shown = () => page.$$eval('#ring-view .pit', (pits) => pits
    .filter((pit) => pit.classList.contains('would-change'))
    .map((pit) => [Number(pit.dataset.pit), document.querySelector(
      '#ring-view .pit-text[data-pit="' + pit.dataset.pit + '"] .after').textContent]));
  await page.hover('#ring-view .pit[data-pit="2"]');
  assert.deepEqual(await shown(), [[2, '→ 0'], [3, '→ 3'], [4, '→ 5'], [5, '→ 0']]);
  assert.equal(await text(page, '#preview'),
    'Pit 2 (3 beads) would drop in pits 3, 4; capture pit 5: 3 beads.');
  await screenshot(page, 'preview');
  // By the keyboard too: the pit in focus shows its move.
  await page.mouse.move(0, 0);
  assert.deepEqual(await shown(), []);
  await page.evaluate(() => document.querySelector('#ring-view .pit[data-pit="6"]').focus());
  assert.match(await text(page, '#preview'), /^Pit 6 \(3 beads\) would /);
  // Enter plays it, and the focus stays in the ring, on a pit that can be played.
  await page.keyboard.press('Enter');
  await until(page, (s) => s.moves.length === 1);
  assert.equal(await page.evaluate(() => document.activeElement.closest('#ring-view') !== null &&
    document.activeElement.classList.contains('legal')), true);
  assert.deepEqual(heard.errors, []);
  await page.close();
});

test('every move ranked, with its moves to the end and best line, is the command line\'s', async () => {
  const boards = [
    [{ pits: 7, capacity: 5 }, EXAMPLE],
    [{ pits: 7, capacity: 5 }, [0, 3, 0, 2, 1, 0, 0]],
    [{ pits: 6, capacity: 3 }, [3, 0, 2, 1, 3, 2]],
  ];
  const { page, heard } = await open(browser);
  for (const [ring, board] of boards) {
    const expected = native(['analyze', ...ringArgs(ring), ...board.map(String)]);
    await page.evaluate((hash) => { window.location.hash = hash; }, address({
      mode: 'analyze', ring: ring.pits + '-' + ring.capacity, start: board, mover: 1, moves: '' }));
    await page.waitForFunction((b) => !window.ioiwariPage.busy() &&
      window.ioiwariPage.state().start.join() === b.join(), {}, board);
    const rows = await page.$$eval('#ranking-rows tr', (trs) => trs.map((tr) =>
      Array.from(tr.children).map((cell) => cell.textContent)));
    assert.deepEqual(rows.map((row) => [Number(row[0]), Number(row[1].replace('−', '-').replace('+', '')), Number(row[3])]),
      expected.moves.map((m) => [m.pit, m.value, m.to_end]), String(board));
    // The first row's line is the command line's best line.
    assert.equal(rows[0][4], expected.line.map((ply) => ply.pit).join(' '));
    // How the game ends for the mover, banks empty: by the value.
    for (const [i, m] of expected.moves.entries()) {
      assert.equal(rows[i][2], m.value > 0 ? 'wins by ' + m.value : m.value < 0 ? 'loses by ' + -m.value : 'ties');
    }
    assert.match(await text(page, '#status'), new RegExp(', ' + expected.to_end + ' moves? from the end\\.$'));
    // Played out, the game takes exactly that many moves and ends by the value.
    await page.click('#play-out');
    const end = await state(page);
    assert.equal(end.moves.length, expected.to_end);
    assert.equal(end.banks[0] - end.banks[1], expected.value);
  }
  await page.evaluate((hash) => { window.location.hash = hash; }, address({
    mode: 'analyze', ring: '7-5', start: EXAMPLE, mover: 1, moves: '' }));
  await page.waitForFunction(() => window.ioiwariPage.state().start.join() === '4,3,2,4,2,3,2');
  await screenshot(page, 'ranking');
  assert.deepEqual(heard.errors, []);
  await page.close();
});

test('the move list, Back and Forward walk through the game; a new start is undone by Back', async () => {
  const { page, heard } = await open(browser, address({
    mode: 'analyze', ring: '7-5', start: EXAMPLE, mover: 1, moves: '' }));
  const line = native(['analyze', ...EXAMPLE.map(String)]).line.map((ply) => ply.pit);
  for (const pit of line.slice(0, 4)) {
    await page.click('#ring-view .pit[data-pit="' + pit + '"]');
  }
  await until(page, (s) => s.moves.length === 4);
  const list = await page.$$eval('#moves button', (buttons) => buttons.map((b) => b.textContent));
  assert.deepEqual(list, ['Start', ...line.slice(0, 4).map((pit, i) => (i + 1) + '. P' + (1 + (i % 2)) + ': pit ' + pit)]);
  // A click on move 2 goes back to it; the later moves stay, to go forward to.
  await page.click('#moves button[data-count="2"]');
  let now = await until(page, (s) => s.moves.length === 2);
  assert.deepEqual(now.redo.slice().reverse(), line.slice(2, 4));
  assert.equal(await page.$eval('#moves button[aria-current="step"]', (b) => b.dataset.count), '2');
  await page.click('#moves button[data-count="4"]');
  await until(page, (s) => s.moves.length === 4);
  // Back and Forward: the browser's history follows the moves.
  await page.goBack();
  now = await until(page, (s) => s.moves.length === 2);
  await page.goBack();
  now = await until(page, (s) => s.moves.length === 4);
  await page.goBack();
  now = await until(page, (s) => s.moves.length === 3);
  await page.goBack();
  now = await until(page, (s) => s.moves.length === 2);
  await page.goForward();
  now = await until(page, (s) => s.moves.length === 3);
  assert.deepEqual(now.moves, line.slice(0, 3));
  // A new random start, and Back to the game it replaced.
  const before = await state(page);
  await page.click('#new-start');
  const fresh = await until(page, (s) => s.start.join() !== before.start.join());
  assert.equal(fresh.moves.length, 0);
  await page.goBack();
  now = await until(page, (s) => s.start.join() === before.start.join());
  assert.deepEqual(now.moves, before.moves);
  // The link copied is the address of the game.
  await page.click('#copy-link');
  await page.waitForFunction(() => document.getElementById('copy-note').textContent !== '');
  const copied = await page.evaluate(() => window.ioiwariPage.copied);
  assert.equal(copied, await page.evaluate(() => window.location.href));
  const note = await text(page, '#copy-note');
  if (note === 'Copy the link from the box.') {
    assert.equal(await page.$eval('#copy-box', (e) => e.value), copied);
  } else {
    assert.equal(note, 'Link copied.');
  }
  assert.deepEqual(heard.errors, []);
  await page.close();
});

test('the side to move is in a game\'s address, and the Start box is not rewritten under typing', async () => {
  const { page, heard } = await open(browser, address({
    mode: 'analyze', ring: '7-5', start: EXAMPLE, mover: 2, moves: '' }));
  await page.click('input[name=mode][value=play]');
  // Player 2 moves first: ioiwari, since the person is player 1; the address says so.
  let now = await until(page, (s) => s.mode === 'play' && s.moves.length === 1);
  assert.equal(now.firstMover, 2);
  const hash = await page.evaluate(() => window.location.hash);
  assert.match(hash, /&mover=2&you=1&/);
  const { page: again } = await open(browser, hash);
  const reopened = await state(again);
  assert.deepEqual(reopened.start, EXAMPLE);
  assert.equal(reopened.firstMover, 2);
  assert.deepEqual(reopened.banks, now.banks);
  await again.close();
  // Typing in the Start box while ioiwari's reply lands.
  const legal = now.board.findIndex((beads) => beads > 0) + 1;
  await page.click('#ring-view .pit[data-pit="' + legal + '"]');
  await page.focus('#start');
  await page.evaluate(() => { document.getElementById('start').value = ''; });
  await page.type('#start', '1 2');
  await until(page, (s) => s.over || s.moves.length === 3);
  assert.equal(await page.$eval('#start', (e) => e.value), '1 2');
  assert.deepEqual(heard.errors, []);
  await page.close();
});

test('a phone shows the board first; the dark follows the system', async () => {
  const { page, heard } = await open(browser);
  await page.setViewport({ width: 375, height: 667 });
  const top = await page.$eval('#ring-view', (e) => e.getBoundingClientRect().top);
  assert.ok(top < 120, 'the board starts ' + top + ' px down');
  await screenshot(page, 'phone');
  await page.setViewport({ width: 1200, height: 1000 });
  const paper = (p) => p.evaluate(() => [document.body, document.getElementById('ring-view')]
    .map((e) => getComputedStyle(e).backgroundColor));
  assert.deepEqual(await paper(page), ['rgb(251, 250, 247)', 'rgb(255, 255, 255)']);
  assert.deepEqual(heard.errors, []);
  await page.close();
  const dark = await openDark(browser);
  assert.deepEqual(await paper(dark.page), ['rgb(20, 20, 20)', 'rgb(30, 30, 30)']);
  await dark.page.click('#show-values');
  await screenshot(dark.page, 'dark');
  assert.deepEqual(dark.heard.errors, []);
  await dark.close();
});

test('an accessibility audit (axe-core) finds nothing, in every mode, light and dark', async () => {
  const axe = fs.readFileSync(path.join(require.resolve('axe-core'), '..', 'axe.min.js'), 'utf8');
  const { page, heard } = await open(browser);
  const audit = async (on, what) => {
    if (!(await on.evaluate(() => typeof window.axe !== 'undefined'))) {
      await on.evaluate(axe);
    }
    const found = await on.evaluate(async () => {
      const result = await window.axe.run(document, {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      });
      return result.violations.map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', '));
    });
    assert.deepEqual(found, [], what);
  };
  await audit(page, 'a game');
  await page.click('#show-values');
  await page.click('#show-rules');
  await audit(page, 'a game with its values and the rules');
  await page.evaluate((hash) => { window.location.hash = hash; }, address({
    mode: 'analyze', ring: '7-5', start: EXAMPLE, mover: 1, moves: '2-3' }));
  await until(page, (s) => s.mode === 'analyze');
  await audit(page, 'analysis');
  await page.evaluate((hash) => { window.location.hash = hash; }, '#ring=99-9&start=1');
  await page.waitForFunction(() => !document.getElementById('error').hidden);
  await audit(page, 'an address refused');
  assert.deepEqual(heard.errors, []);
  await page.close();
  const dark = await openDark(browser, address({
    mode: 'analyze', ring: '7-5', start: EXAMPLE, mover: 1, moves: '2' }));
  await dark.page.click('#show-rules');
  await audit(dark.page, 'analysis in the dark');
  assert.deepEqual(dark.heard.errors, []);
  await dark.close();
});
