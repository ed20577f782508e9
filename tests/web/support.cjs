// What the page's tests share (docs/browser.md): Debian's Chromium, driven by puppeteer-core,
// opening the page from its folder as a person would; and the command-line ioiwari, whose
// answers the page's must equal.
//
// Set by the web test preset (tests/web/CMakeLists.txt): IOIWARI_PAGE, the page's file;
// IOIWARI_NATIVE, the ioiwari program built for this machine; IOIWARI_SCREENSHOTS, the folder
// the screenshots go to; NODE_PATH, where npm put puppeteer-core. IOIWARI_CHROMIUM names
// another Chromium than Debian's.
'use strict';

const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const puppeteer = require('puppeteer-core');

function setting(name) {
  const value = process.env[name];
  if (!value) throw new Error(name + ' is not set: run the tests with ctest --preset web');
  return value;
}

const PAGE = setting('IOIWARI_PAGE');
const NATIVE = setting('IOIWARI_NATIVE');
const SCREENSHOTS = setting('IOIWARI_SCREENSHOTS');
// The browser the tests drive: Debian's Chromium, or with IOIWARI_BROWSER=firefox its Firefox ESR
// (IOIWARI_CHROMIUM and IOIWARI_FIREFOX name others).
const BROWSER = process.env.IOIWARI_BROWSER || 'chromium';
if (!['chromium', 'firefox'].includes(BROWSER)) throw new Error('IOIWARI_BROWSER is chromium or firefox');
const EXECUTABLE = BROWSER === 'firefox' ? process.env.IOIWARI_FIREFOX || '/usr/bin/firefox-esr'
  : process.env.IOIWARI_CHROMIUM || '/usr/bin/chromium';
// No wait is meant to be reached: a test waits for what the page must do, however loaded the
// machine; this only turns a page that never does it into a failure that says what it waited for.
const PATIENCE_MS = 120000;

// A headless browser of its own profile, which puppeteer removes when it closes. The tests open
// only the page's own files, so Chromium runs without its sandbox, which refuses to run as root
// (CI's user) and needs user namespaces that containers often lack. Firefox is driven by
// WebDriver BiDi, puppeteer's protocol for it.
function launch(firefoxPrefs = {}) {
  if (BROWSER === 'firefox') {
    return puppeteer.launch({
      browser: 'firefox',
      executablePath: EXECUTABLE,
      headless: true,
      protocolTimeout: PATIENCE_MS,
      extraPrefsFirefox: { 'dom.ipc.processCount': 2, ...firefoxPrefs },
    });
  }
  return puppeteer.launch({
    executablePath: EXECUTABLE,
    headless: true,
    args: ['--no-sandbox'],
    protocolTimeout: PATIENCE_MS,
  });
}

// The page opened from its folder at the address `hash`, ready for a move, and a record of
// everything it said and asked for: console messages, uncaught errors, requests. `before`, when
// given, runs in the page before any of its scripts.
async function open(browser, hash = '', before = null) {
  const page = await browser.newPage();
  if (before) await page.evaluateOnNewDocument(before);
  page.setDefaultTimeout(PATIENCE_MS);
  await page.setViewport({ width: 1200, height: 1000 });
  const heard = { console: [], errors: [], requests: [], failed: [] };
  page.on('console', (message) => heard.console.push(message.type() + ': ' + message.text()));
  page.on('pageerror', (error) => heard.errors.push(error.message));
  page.on('request', (request) => heard.requests.push(request.url()));
  page.on('requestfailed', (request) => heard.failed.push(request.url()));
  await page.goto(pathToFileURL(PAGE).href + hash);
  await ready(page);
  return { page, heard };
}

// The page at `hash` as a system set to dark colours shows it: Chromium emulates the setting
// (puppeteer's emulateMediaFeatures, which Firefox's protocol has not), Firefox is launched with
// its preference for dark pages. close() closes what it opened.
async function openDark(browser, hash = '') {
  if (BROWSER === 'firefox') {
    const dark = await launch({ 'layout.css.prefers-color-scheme.content-override': 0 });
    const opened = await open(dark, hash);
    return { ...opened, close: () => dark.close() };
  }
  const opened = await open(browser, hash);
  await opened.page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }]);
  return { ...opened, close: () => opened.page.close() };
}

// Waits until the page has solved its ring and drawn its game.
async function ready(page) {
  await page.waitForFunction(
    () => window.ioiwariPage && !window.ioiwariPage.busy() &&
      document.querySelector('#ring-view .pit') !== null);
}

// The page's game now: board, banks, mover, moves, redo, ring, start...
function state(page) {
  return page.evaluate(() => window.ioiwariPage.state());
}

// Waits until `test(state)` holds of the page's game, and returns that state.
async function until(page, test) {
  const deadline = Date.now() + PATIENCE_MS;
  for (;;) {
    const now = await state(page);
    if (test(now)) return now;
    if (Date.now() > deadline) {
      const where = await page.evaluate(() => window.location.hash + ' (history of ' + window.history.length + ')');
      throw new Error('the page never reached it at ' + where + ': ' + JSON.stringify(now));
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

// The command-line ioiwari's answer to `args` (with --json).
function native(args) {
  return JSON.parse(execFileSync(NATIVE, [...args, '--json'], { encoding: 'utf8' }));
}

// The ring options of the command line.
function ringArgs(ring) {
  return ['--pits', String(ring.pits), '--capacity', String(ring.capacity)];
}

// The address of a game.
function address(fields) {
  return '#' + Object.entries(fields)
    .map(([key, value]) => key + '=' + (Array.isArray(value) ? value.join('-') : value))
    .join('&');
}

async function screenshot(page, name) {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const file = name + (BROWSER === 'chromium' ? '' : '-' + BROWSER) + '.png';
  await page.screenshot({ path: path.join(SCREENSHOTS, file), fullPage: true });
}

// Numbers that are the same on every run, in [0, 1): Marsaglia's xorshift of 32 bits.
function seeded(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x = (x ^ (x << 13)) >>> 0;
    x = (x ^ (x >>> 17)) >>> 0;
    x = (x ^ (x << 5)) >>> 0;
    return x / 4294967296;
  };
}

module.exports = {
  BROWSER, PAGE, launch, open, openDark, ready, state, until, native, ringArgs, address, screenshot, seeded,
};
