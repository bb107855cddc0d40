// The JS side of the conformance harness: one long-lived node process. Cases arrive as JSON
// lines on stdin and results leave as JSON lines on stdout, in order. Each case runs in a
// worker thread; one that takes longer than its time limit is recorded as Hang and the
// worker is replaced (a synchronous endless loop cannot be interrupted any other way).
import { Worker } from 'node:worker_threads';
import readline from 'node:readline';

const WORKER = new URL('./worker.mjs', import.meta.url);
let worker = null;
let waiting = null; // {resolve} of the case in flight

function startWorker() {
  const own = new Worker(WORKER);
  worker = own;
  // a terminated worker's late events must not answer the next case
  const current = () => worker === own;
  own.on('message', (msg) => {
    if (current() && waiting) {
      const w = waiting;
      waiting = null;
      w.resolve(msg);
    }
  });
  own.on('error', (err) => {
    if (!current()) return;
    if (waiting) {
      const w = waiting;
      waiting = null;
      w.resolve({ crash: { name: err?.code ?? err?.name ?? 'Error', message: String(err?.message ?? err) } });
    }
    worker = null;
  });
  own.on('exit', (code) => {
    if (!current()) return;
    if (waiting) {
      const w = waiting;
      waiting = null;
      w.resolve({ crash: { name: 'Crash', message: `the worker exited (${code})` } });
    }
    worker = null;
  });
}

function runCase(testCase) {
  if (!worker) startWorker();
  const limit = (testCase.timeout ?? 5) * 1000;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      waiting = null;
      const old = worker;
      worker = null;
      old.terminate();
      resolve({ hang: true, ms: limit });
    }, limit);
    waiting = {
      resolve: (msg) => {
        clearTimeout(timer);
        resolve(msg);
      },
    };
    worker.postMessage(testCase);
  });
}

const queue = [];
let busy = false;

async function drain() {
  if (busy) return;
  busy = true;
  while (queue.length) {
    const testCase = queue.shift();
    const started = Date.now();
    const msg = await runCase(testCase);
    let out;
    if (msg.hang) out = { id: testCase.id, hang: true };
    else if (msg.crash) out = { id: testCase.id, crash: msg.crash };
    else out = { id: testCase.id, result: msg.result };
    out.ms = Date.now() - started;
    process.stdout.write(JSON.stringify(out) + '\n');
  }
  busy = false;
}

const rl = readline.createInterface({ input: process.stdin });
rl.on('line', (line) => {
  if (!line.trim()) return;
  queue.push(JSON.parse(line));
  drain();
});
rl.on('close', async () => {
  while (busy || queue.length) await new Promise((r) => setTimeout(r, 20));
  if (worker) await worker.terminate();
  process.exit(0);
});
