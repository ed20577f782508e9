// The page's numbers (docs/browser.md), measured in Debian's headless Chromium on this machine:
// the modules' bytes; the time from opening the page to its first move, and the solve's part in
// it; each ring's solve in the page against the command line's on one core; the largest ring
// the page offers, and the largest it solves within 5 s; then solves as the page does them, in
// a worker, with the longest the page's thread went unanswering, up to the first ring of more
// than WORKER_LIMIT_MS or that the page refuses. Run by
// `cmake --build --preset web-test --target page_bench`. It asserts nothing: machines differ,
// and so do their loads.
'use strict';

const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { launch, open, PAGE } = require('./support.cjs');

const NATIVE = process.env.IOIWARI_NATIVE;
const RUNS = 5;
const LIMIT_MS = 5000;
const WORKER_LIMIT_MS = 30000;

const median = (values) => values.slice().sort((a, b) => a - b)[Math.floor(values.length / 2)];

// The command line's solve of `ring` on one core, its median over RUNS builds, in ms.
function nativeSolve(pits, capacity) {
  const out = execFileSync('taskset', ['-c', '0', NATIVE, 'bench', '--json', '--quiet', '--runs',
    String(RUNS), '--pits', String(pits), '--capacity', String(capacity)], { encoding: 'utf8' });
  return JSON.parse(out.slice(0, out.lastIndexOf('}') + 1)).median_ms;
}

(async () => {
  const folder = path.dirname(PAGE);
  const bytes = (name) => fs.statSync(path.join(folder, '..', 'src', 'web', name)).size;
  const script = fs.statSync(path.join(folder, 'ioiwari-module.js')).size;
  console.log('modules: ' + bytes('ioiwari.wasm') + ' bytes of WebAssembly with SIMD, ' +
    bytes('ioiwari-plain.wasm') + ' without; ' + script + ' bytes as the page loads both (base64)');

  const browser = await launch();
  // The page's own marks, from the start of its navigation (page/ioiwari.js).
  const steps = { script: [], core: [], solve: [], drawn: [], wall: [] };
  for (let i = 0; i < RUNS; ++i) {
    const begun = Date.now();
    const { page } = await open(browser);
    steps.wall.push(Date.now() - begun);
    const marks = await page.evaluate(() => Object.fromEntries(performance.getEntriesByType('mark')
      .map((mark) => [mark.name.replace('ioiwari:', ''), mark.startTime])));
    steps.script.push(marks.script);
    steps.core.push(marks.core);
    steps.drawn.push(marks.drawn);
    steps.solve.push(await page.evaluate(() => window.ioiwariPage.solveMs()));
    await page.close();
  }
  const ms = (values) => median(values).toFixed(1) + ' ms';
  console.log('opening the page, median of ' + RUNS + ': its script runs at ' + ms(steps.script) +
    ', the module is ready at ' + ms(steps.core) + ', the first game is drawn at ' +
    ms(steps.drawn) + ' (the IOI ring\'s solve in it: ' + ms(steps.solve) + '); ' +
    ms(steps.wall) + ' from a new tab to a move for puppeteer');

  const { page } = await open(browser);
  const offered = await page.$$eval('#ring option', (options) => options.map((o) => o.value));
  const classes = await page.evaluate((rings) => rings.map((r) => {
    const [p, c] = r.split('-').map(Number);
    return document.defaultView.ioiwariPage.classes(p, c);
  }), offered);
  const largest = offered[classes.indexOf(Math.max(...classes))];
  console.log('rings offered: ' + offered.length + ', the largest ' + largest + ' (' +
    Math.max(...classes) + ' classes)');
  console.log('ring   classes    page ms   command line ms (one core)   ratio');
  for (const ring of ['7-5', '9-5', '10-4', '12-3', largest]) {
    const [pits, capacity] = ring.split('-').map(Number);
    const times = [];
    for (let i = 0; i < RUNS; ++i) {
      // Another ring between, so that each solve is a solve.
      await page.evaluate(() => window.ioiwariPage.solve(3, 1));
      times.push(await page.evaluate((p, c) => window.ioiwariPage.solve(p, c), pits, capacity));
    }
    const inPage = median(times);
    const native = nativeSolve(pits, capacity);
    const count = await page.evaluate((p, c) => window.ioiwariPage.classes(p, c), pits, capacity);
    console.log(ring.padEnd(6) + String(count).padStart(8) + inPage.toFixed(1).padStart(11) +
      native.toFixed(1).padStart(17) + (inPage / native).toFixed(2).padStart(22));
  }

  // Beyond the page's offer: the rings in order of their classes, each solved once, up to the
  // first that takes more than LIMIT_MS; the largest within it.
  const all = [];
  for (let pits = 3; pits <= 16; ++pits) {
    for (let capacity = 1; capacity <= 9; ++capacity) {
      const count = await page.evaluate((p, c) => window.ioiwariPage.classes(p, c), pits, capacity);
      if (count > Math.max(...classes)) all.push({ ring: pits + '-' + capacity, count });
    }
  }
  all.sort((a, b) => a.count - b.count);
  let within = null;
  for (const { ring, count } of all) {
    const [pits, capacity] = ring.split('-').map(Number);
    await page.evaluate(() => window.ioiwariPage.solve(3, 1));
    const ms = await page.evaluate((p, c) => window.ioiwariPage.solve(p, c), pits, capacity);
    console.log('beyond the offer: ' + ring + ' (' + count + ' classes) in ' + (ms / 1000).toFixed(2) + ' s');
    if (ms > LIMIT_MS) break;
    within = { ring, count, ms };
  }
  if (within) {
    console.log('the largest ring solved within ' + LIMIT_MS / 1000 + ' s: ' + within.ring + ' (' +
      within.count + ' classes, ' + (within.ms / 1000).toFixed(2) + ' s)');
  }
  await page.close();

  // In a worker, as the page solves when a ring is chosen: a fresh page for each ring, so that
  // no table is held but the one asked for.
  console.log('in a worker: ring, classes, to the table taken in, the worker\'s solve, the ' +
    'longest the page did not answer');
  let largestInWorker = null;
  for (const { ring, count } of [{ ring: '7-5', count: 39996 }, { ring: largest, count: Math.max(...classes) }, ...all]) {
    const [pits, capacity] = ring.split('-').map(Number);
    const { page: fresh } = await open(browser);
    let result;
    try {
      result = await fresh.evaluate((p, c) => window.ioiwariPage.solveInWorker(p, c), pits, capacity);
    } catch (error) {
      console.log('  ' + ring + ' (' + count + ' classes): refused: ' + error.message);
      await fresh.close();
      break;
    }
    await fresh.close();
    console.log('  ' + ring.padEnd(6) + String(count).padStart(10) + (result.ms / 1000).toFixed(2).padStart(8) +
      ' s' + (result.solveMs / 1000).toFixed(2).padStart(8) + ' s' + result.longest.toFixed(0).padStart(7) + ' ms');
    largestInWorker = { ring, count, ...result };
    if (result.ms > WORKER_LIMIT_MS) break;
  }
  if (largestInWorker) {
    console.log('the largest ring solved in a worker: ' + largestInWorker.ring + ' (' +
      largestInWorker.count + ' classes, ' + (largestInWorker.ms / 1000).toFixed(1) +
      ' s), the page answering within ' + largestInWorker.longest.toFixed(0) + ' ms throughout');
  }
  await browser.close();
})().catch((error) => {
  console.error('page_bench: ' + error.message);
  process.exit(1);
});
