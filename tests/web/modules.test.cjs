// The page's two modules (src/web/CMakeLists.txt, docs/browser.md): ioiwari.wasm, whose wide
// expansion is WebAssembly's SIMD (expansion_simd128.cpp), and ioiwari-plain.wasm, for a browser
// without SIMD, whose portable expansion is the command line's. In Node (V8, Chromium's engine),
// which runs both: the SIMD expansion held move by move to the rule (expansion_check.cpp), and
// the two modules' tables the same, byte for byte. The browsers' own tests (open.test.cjs) hold
// each browser to the module it takes.
'use strict';

const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const { test } = require('node:test');

function setting(name) {
  const value = process.env[name];
  if (!value) throw new Error(name + ' is not set: run the tests with ctest --preset web-test');
  return value;
}
const PAGE = setting('IOIWARI_PAGE');
const MODULES = setting('IOIWARI_MODULES');
const CHECK = setting('IOIWARI_EXPANSION_CHECK');

// The page's own imports (page/ioiwari-host.js), as its worker gives them.
const { moduleImports } = vm.runInThisContext(
  fs.readFileSync(path.join(path.dirname(PAGE), 'ioiwari-host.js'), 'utf8') + '\nIoiwariHost;');

// A module's instance, ready; a stop of the core fails the test with its reason.
async function instantiate(file) {
  let exports = null;
  const imports = moduleImports(() => exports.memory.buffer, {
    stopped(text) { throw new Error(path.basename(file) + ' stopped: ' + text); },
    progress() {},
  });
  ({ exports } = (await WebAssembly.instantiate(fs.readFileSync(file), imports)).instance);
  exports._initialize();
  return exports;
}

// Every ring of 3 to 16 pits and capacity 1 to 9 on which a game is played.
function rings(core) {
  const all = [];
  for (let pits = 3; pits <= 16; ++pits) {
    for (let capacity = 1; capacity <= 9; ++capacity) {
      if (core.ring_classes(pits, capacity) > 0) all.push({ pits, capacity });
    }
  }
  return all;
}

test('the SIMD module\'s expansion makes every move as the rule does', async () => {
  const check = await instantiate(CHECK);
  const page = await instantiate(path.join(MODULES, 'ioiwari.wasm'));
  const all = rings(page);
  assert.equal(all.length, 123);
  let every = 0;
  for (const { pits, capacity } of all) {
    const ring = pits + ' pits, capacity ' + capacity;
    // Every class of the rings of up to 300,000 classes; 3,000 random ones of every ring.
    if (page.ring_classes(pits, capacity) <= 300000) {
      assert.equal(check.every_class(pits, capacity), 0, ring + ': classes differ');
      ++every;
    }
    assert.equal(check.random_classes(pits, capacity, 3000, pits * 10 + capacity), 0, ring + ': random classes differ');
  }
  assert.equal(every, 64);
});

test('both modules solve every ring of up to 300,000 classes to the same table', async () => {
  const wide = await instantiate(path.join(MODULES, 'ioiwari.wasm'));
  const plain = await instantiate(path.join(MODULES, 'ioiwari-plain.wasm'));
  // The solved table's two parts (the index's lines, the values), as the page hands them over.
  const digest = (core, { pits, capacity }) => {
    assert.equal(core.solve(pits, capacity), 0);
    const hash = crypto.createHash('sha256');
    for (const part of [0, 1]) {
      hash.update(new Uint8Array(core.memory.buffer, core.table_part(part), core.table_part_bytes(part)));
    }
    return hash.digest('hex');
  };
  const small = rings(wide).filter(({ pits, capacity }) => wide.ring_classes(pits, capacity) <= 300000);
  assert.equal(small.length, 64);
  for (const ring of small) {
    assert.equal(digest(wide, ring), digest(plain, ring), ring.pits + ' pits, capacity ' + ring.capacity);
  }
});

test('the modules differ by SIMD alone: the plain one has none, and the page\'s holds both', () => {
  const wide = fs.readFileSync(path.join(MODULES, 'ioiwari.wasm'));
  const plain = fs.readFileSync(path.join(MODULES, 'ioiwari-plain.wasm'));
  assert.ok(WebAssembly.validate(wide) && WebAssembly.validate(plain));
  // The vector instructions' prefix (0xfd) never opens an instruction of the plain module's code.
  assert.equal(simdInstructions(plain), 0);
  assert.ok(simdInstructions(wide) > 100);
  // The script the page loads holds both, as base64 (embed.cmake).
  const script = fs.readFileSync(path.join(path.dirname(PAGE), 'ioiwari-module.js'), 'utf8');
  const held = (name) => Buffer.from(script.match(new RegExp('var ' + name + ' = "([^"]*)"'))[1], 'base64');
  assert.deepEqual(held('IOIWARI_MODULE'), wide);
  assert.deepEqual(held('IOIWARI_MODULE_PLAIN'), plain);
});

// How many of a module's instructions are vector ones, by a walk of its code section's
// instructions, enough of WebAssembly's binary format (its specification, section 5.4) to
// tell an instruction's first byte from its operands in the code wasm-ld writes.
function simdInstructions(bytes) {
  let at = 8;
  const u32 = () => {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = bytes[at++];
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
    }
  };
  const skipLeb = () => { while (bytes[at++] & 0x80); };
  while (at < bytes.length) {
    const id = bytes[at++];
    const size = u32();
    if (id !== 10) { at += size; continue; }
    let vectors = 0;
    for (let bodies = u32(); bodies > 0; --bodies) {
      const end = u32() + at;
      for (let groups = u32(); groups > 0; --groups) { u32(); ++at; }
      while (at < end) vectors += instruction() ? 1 : 0;
      at = end;
    }
    return vectors;

    // Steps over one instruction; true when it is a vector one.
    function instruction() {
      const op = bytes[at++];
      if (op === 0xfd) { skipVector(); return true; }
      if (op === 0x02 || op === 0x03 || op === 0x04) { blockType(); return false; }
      if (op === 0x0c || op === 0x0d || (op >= 0x20 && op <= 0x26) || op === 0x10 || op === 0xd2) {
        u32(); return false;
      }
      if (op === 0x0e) { for (let n = u32() + 1; n > 0; --n) u32(); return false; }
      if (op === 0x11) { u32(); u32(); return false; }
      if (op === 0x1c) { for (let n = u32(); n > 0; --n) ++at; return false; }
      if (op >= 0x28 && op <= 0x3e) { u32(); u32(); return false; }
      if (op === 0x3f || op === 0x40) { ++at; return false; }
      if (op === 0x41 || op === 0x42) { skipLeb(); return false; }
      if (op === 0x43) { at += 4; return false; }
      if (op === 0x44) { at += 8; return false; }
      if (op === 0xd0) { ++at; return false; }
      if (op === 0xfc) { misc(); return false; }
      return false;
    }
    function blockType() {
      if (bytes[at] === 0x40 || (bytes[at] >= 0x6f && bytes[at] <= 0x7f) || bytes[at] === 0x7b) ++at;
      else skipLeb();
    }
    function misc() {
      const sub = u32();
      if (sub <= 7) return;
      if (sub === 8) { u32(); ++at; return; }
      if (sub === 9 || sub === 13 || sub === 15 || sub === 16 || sub === 17) { u32(); return; }
      if (sub === 10 || sub === 12 || sub === 14) { u32(); u32(); return; }
      if (sub === 11) { ++at; return; }
      throw new Error('an instruction 0xfc ' + sub + ' this walk does not know');
    }
    function skipVector() {
      const sub = u32();
      if (sub <= 11) { u32(); u32(); return; }            // loads and stores: alignment, offset
      if (sub === 12 || sub === 13) { at += 16; return; } // v128.const, i8x16.shuffle
      if (sub >= 21 && sub <= 34) { ++at; return; }       // extract and replace lane
      if (sub >= 84 && sub <= 91) { u32(); u32(); ++at; return; } // load and store lane
      if (sub === 92 || sub === 93) { u32(); u32(); return; }     // load zero
    }
  }
  return 0;
}
