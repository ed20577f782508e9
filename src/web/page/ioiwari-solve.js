// The page's solves (docs/browser.md): each ring solved in a Worker made afresh for it
// (ioiwari-host.js), its progress shown with a button to cancel it while the game on screen
// plays on, and its table adopted by the module on the page's thread (ioiwari-core.js); where
// no worker can be made, solved on the page's thread. IoiwariSolve(failedAlone) is told of a
// failed solve that had no one else to tell.
const IoiwariSolve = function (failedAlone) {
  'use strict';

  const { makeWorker } = IoiwariHost;
  const { isSolved, refusal, solveHere } = IoiwariCore;

  // The solve under way: {ring, worker (null on the page's thread), then, held}.
  let job = null;
  let solver = 'worker'; // where the last solve ran: 'worker', or 'page' where none could be made
  let holding = false;   // the tests' hold on new solves (ioiwariPage.hold)

  // Runs `then` once `ring` is solved. The solve runs in a worker, with its progress shown and a
  // button to cancel it; the game on screen plays on meanwhile. Should it fail, `failed` is told
  // why; without it, the page says so and plays on.
  function whenSolved(ring, then, failed = null) {
    if (isSolved(ring)) {
      cancelSolve();
      then();
      return;
    }
    if (job && job.ring.pits === ring.pits && job.ring.capacity === ring.capacity) {
      job.then = then;
      return;
    }
    cancelSolve();
    const classes = IoiwariCore.classes(ring.pits, ring.capacity);
    job = { ring, worker: null, then, failed, held: null, classes };
    document.body.dataset.busy = 'true';
    document.getElementById('solving').hidden = false;
    document.getElementById('solving-text').textContent = 'Solving the ring of ' + ring.pits +
      ' pits, capacity ' + ring.capacity + ': ' + classes.toLocaleString('en') +
      ' rotation classes…';
    const bar = document.getElementById('solving-progress');
    bar.removeAttribute('value');
    bar.max = 1;
    const mine = job;
    try {
      mine.worker = makeWorker();
    } catch (error) {
      mine.worker = null;
    }
    if (!mine.worker) {
      // No worker: the page's own thread solves it, after drawing what it is doing.
      solver = 'page';
      requestAnimationFrame(() => setTimeout(() => {
        if (job !== mine) return;
        let failure = null;
        try {
          solveHere(ring);
        } catch (error) {
          failure = error.message;
        }
        finishSolve(mine, failure);
      }, 0));
      return;
    }
    solver = 'worker';
    mine.worker.onmessage = (event) => onWorker(mine, event.data);
    mine.worker.onerror = (event) => {
      event.preventDefault();
      if (job === mine) finishSolve(mine, 'the worker stopped: ' + (event.message || 'no reason given'));
    };
    try {
      mine.worker.postMessage({ module: IoiwariCore.compiled() });
    } catch (error) {
      // A browser that sends no compiled module to a worker: the bytes, to compile there.
      mine.worker.postMessage({ module: IoiwariCore.bytes() });
    }
    const ask = () => mine.worker.postMessage({ solve: { pits: ring.pits, capacity: ring.capacity } });
    if (holding) mine.held = ask;
    else ask();
  }

  function onWorker(mine, message) {
    if (job !== mine) return;
    if (message.progress) {
      showProgress(message.progress);
      return;
    }
    if (message.solved) {
      const { lines, values, ms } = message.solved;
      if (!IoiwariCore.adopt(mine.ring, lines, values, ms)) {
        finishSolve(mine, 'the solved table did not fit its ring');
        return;
      }
      finishSolve(mine, null);
      return;
    }
    finishSolve(mine, message.refused ? refusal(mine.ring, message.refused) : message.failed);
  }

  function showProgress(now) {
    const bar = document.getElementById('solving-progress');
    if (!job || now.layer < 0 || now.classes === 0) return;
    bar.max = now.classes;
    bar.value = now.done;
    document.getElementById('solving-text').textContent = 'Solving the ring of ' +
      job.ring.pits + ' pits, capacity ' + job.ring.capacity + ': ' +
      Math.floor((100 * now.done) / now.classes) + '% of ' + now.classes.toLocaleString('en') +
      ' rotation classes…';
  }

  function endJob() {
    if (job && job.worker) job.worker.terminate();
    job = null;
    delete document.body.dataset.busy;
    document.getElementById('solving').hidden = true;
  }

  function finishSolve(mine, failure) {
    endJob();
    if (!failure) {
      mine.then();
      return;
    }
    if (mine.failed) {
      mine.failed(failure);
      return;
    }
    failedAlone(failure);
  }

  function cancelSolve() {
    if (!job) return;
    endJob();
  }

  // The tests' hold: while it is on, a worker made waits to be asked to solve.
  function hold(on) {
    holding = on;
    if (!on && job && job.held) {
      const ask = job.held;
      job.held = null;
      ask();
    }
  }

  return {
    whenSolved,
    cancelSolve,
    showProgress,
    hold,
    busy: () => job !== null,
    solver: () => solver,
  };
};
