// The module's host (docs/browser.md): what the core, compiled to WebAssembly, imports from the
// page, and the Worker that solves a ring off the page's thread. The page's script
// (ioiwari.js) takes moduleImports and makeWorker from IoiwariHost.
const IoiwariHost = (function () {
  'use strict';

  // What the module asks of its host: the few calls its C library makes (src/web/CMakeLists.txt
  // lists them: no environment, no files, an exit is an error) and the core's own two, a stop
  // with its reason and a solve's progress. The worker's source includes this function as it is.
  function moduleImports(memory, on) {
    const nothing = 52; // ENOSYS
    return {
      ioiwari: {
        stopped(pointer, length) {
          on.stopped(new TextDecoder().decode(new Uint8Array(memory(), pointer, length)));
        },
        progress(layer, layers, done, classes) {
          on.progress(layer, layers, done, classes);
        },
      },
      wasi_snapshot_preview1: {
        environ_sizes_get(count, size) {
          new Uint32Array(memory(), count, 1)[0] = 0;
          new Uint32Array(memory(), size, 1)[0] = 0;
          return 0;
        },
        environ_get: () => 0,
        fd_close: () => nothing,
        fd_seek: () => nothing,
        fd_write: () => nothing,
        proc_exit(status) {
          throw new Error('the core exited with status ' + status);
        },
      },
    };
  }

  // The worker's whole program: it instantiates the module it is sent, solves the one ring it is
  // asked for, saying how far it is now and then, and sends the solved table's two parts back.
  function solverWorker() {
    let core = null;
    let stopped = null;
    let said = 0;
    let ready = null;
    self.onmessage = (event) => {
      const message = event.data;
      if (message.module) {
        ready = WebAssembly.instantiate(message.module, moduleImports(() => core.memory.buffer, {
          stopped(text) { stopped = text; },
          progress(layer, layers, done, classes) {
            const now = Date.now();
            if (now - said < 40) return;
            said = now;
            self.postMessage({ progress: { layer, layers, done, classes } });
          },
        })).then((made) => {
          core = (made.instance || made).exports;
          core._initialize();
        });
        return;
      }
      ready.then(() => {
        const ring = message.solve;
        const begun = performance.now();
        const refused = core.solve(ring.pits, ring.capacity);
        if (refused !== 0) {
          self.postMessage({ refused });
          return;
        }
        const part = (n) => new Uint8Array(core.memory.buffer, core.table_part(n),
          core.table_part_bytes(n)).slice();
        const lines = part(0);
        const values = part(1);
        self.postMessage({ solved: { lines, values, ms: performance.now() - begun } },
          [lines.buffer, values.buffer]);
      }).catch((error) => self.postMessage({ failed: stopped || error.message }));
    };
  }

  // A Worker made from a Blob of the worker's source: a page opened from a folder may make
  // one, where a Worker of a file beside it is refused (open.test.cjs tries both).
  let workerAddress = null;
  function makeWorker() {
    if (!workerAddress) {
      const source = moduleImports.toString() + '\n(' + solverWorker.toString() + ')();\n';
      workerAddress = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
    }
    return new Worker(workerAddress);
  }

  return { moduleImports, makeWorker };
})();
