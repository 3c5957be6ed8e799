/**
 * The use-lite embedder's worker threads (use-lite.ts): each loads the model (use-lite-worker.cjs) and
 * embeds batches of texts. Requests that arrive while a batch is running are queued and sent together
 * as the next batch (≤ MAX_BATCH texts); queries go first, in batches of their own. The first thread
 * starts at once and stays; extra ones (up to `maxWorkers`) start while batches wait with every
 * thread busy, and stop after `idleMs` without work.
 */
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { HubError } from '../lib/errors.js';

/** Texts per worker message: larger batches amortise the graph call, smaller keep a query's wait short. */
export const MAX_BATCH = 32;

/** The encoder thread's source: plain CommonJS beside this file in src/ and dist/ alike. */
const WORKER = fileURLToPath(new URL('./use-lite-worker.cjs', import.meta.url));

/**
 * The worker's own V8 heap, kept small so that its garbage (tensor wrappers, graph bookkeeping) is
 * collected early: hub RSS after load and use 219 → 185 MB (scripts measured in the README). The
 * weights and activations live in WebAssembly memory, outside these limits; 32 texts of MAX_CHARS
 * each embed within them (test/ai/use-lite.test.ts).
 */
const WORKER_LIMITS = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 };

/**
 * The worker's flags: the parent's, except `--input-type`, which is for string input (`-e`) only. A
 * hub started with `node --input-type=module -e …` passes it on: Node 20 refuses it for an ES-module
 * worker file (ERR_INPUT_TYPE_NOT_ALLOWED) and lets a `.cjs` one through today; when the worker was a
 * string, it turned the CommonJS source into ESM ("require is not defined").
 */
function workerExecArgv(): string[] {
  const out: string[] = [];
  const argv = process.execArgv;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--input-type') i++;
    else if (!argv[i].startsWith('--input-type=')) out.push(argv[i]);
  }
  return out;
}

interface Job {
  texts: string[];
  write: boolean;
  resolve(v: Float32Array[]): void;
  reject(e: Error): void;
}

/** A thread is busy while it has a batch out. */
const busy = (slot: Slot) => slot.inflight.size > 0;

interface Slot {
  worker: Worker;
  primary: boolean;
  loaded: boolean;
  tid: number;
  /** The id of the query batch this thread is answering, if any (one at a time). */
  query?: number;
  inflight: Map<number, Job[]>;
  idle?: NodeJS.Timeout;
}

/** What every worker is given: the packages' absolute paths and the model's settings. */
/** Which runtime a loaded embedder uses (`wasm` also when `auto` found no ONNX Runtime: `runtimeNote` says why). */
export type UseLiteRuntime = 'onnx' | 'wasm';

export interface WorkerData {
  embeddings: string;
  weights: string;
  modelDir: string;
  nice: number;
  dim: number;
  subBatch: number;
  onnx?: { encoder: string; runtime: string; required: boolean };
}

export function createWorkerPool(maxWorkers: number, idleMs: number) {
  const pool = {
    loadError: undefined as string | undefined,
    closed: false,
    /** The runtime the first worker loaded the model on (undefined until loaded). */
    runtime: undefined as UseLiteRuntime | undefined,
    /** Why `auto` runs on WebAssembly (ONNX Runtime not installed, or it failed to load), if it does. */
    runtimeNote: undefined as string | undefined,
    slots: [] as Slot[],
  };
  const { slots } = pool;
  /** The packages' absolute paths, for every worker (set by `start`). */
  let workerData: WorkerData | undefined;
  let extraFailed = false;
  const queue: Job[] = [];
  let nextId = 1;

  const fail = (jobs: Job[], msg: string) =>
    jobs.forEach((j) => j.reject(new HubError('unavailable', `use-lite embedder: ${msg}`)));
  const failInflight = (slot: Slot, msg: string) => {
    for (const jobs of slot.inflight.values()) fail(jobs, msg);
    slot.inflight.clear();
  };
  const remove = (slot: Slot) => {
    const i = slots.indexOf(slot);
    if (i >= 0) slots.splice(i, 1);
    clearTimeout(slot.idle);
  };

  /** Starts a worker; resolves true once its model is loaded. */
  function spawn(primary: boolean): Promise<boolean> {
    let worker: Worker;
    try {
      worker = new Worker(WORKER, { workerData, execArgv: workerExecArgv(), resourceLimits: WORKER_LIMITS });
    } catch (e) {
      if (primary) pool.loadError = (e as Error).message;
      else extraFailed = true;
      return Promise.resolve(false);
    }
    const slot: Slot = { worker, primary, loaded: false, tid: 0, inflight: new Map() };
    slots.push(slot);
    let unhook = () => {};
    const loaded = new Promise<boolean>((resolve) => {
      const failed = (why: string) => {
        if (primary) pool.loadError ??= why;
        else extraFailed = true; // an extra that cannot load is not tried again
        remove(slot);
        resolve(false);
      };
      const onMessage = (m: {
        ready?: boolean;
        tid?: number;
        fatal?: string;
        runtime?: UseLiteRuntime;
        onnxError?: string;
      }) => {
        if (!m.ready) return failed(m.fatal ?? 'worker did not start');
        slot.tid = m.tid ?? 0;
        if (primary) {
          pool.runtime = m.runtime ?? 'wasm';
          if (m.onnxError) {
            pool.runtimeNote = `ONNX Runtime did not load (${m.onnxError}); using TF.js WebAssembly`;
            delete workerData?.onnx; // extra threads go straight to WebAssembly
          }
        }
        resolve(true);
      };
      const onError = (e: Error) => failed(e.message);
      const onExit = () => failed('worker exited before the model loaded');
      worker.once('message', onMessage);
      worker.once('error', onError);
      worker.once('exit', onExit);
      // Only these: Worker keeps internal listeners of its own (removeAllListeners would cut its messages).
      unhook = () => (worker.off('error', onError), worker.off('exit', onExit));
    });
    void loaded.then((ok) => {
      if (!ok) {
        if (!slots.length) fail(queue.splice(0), pool.loadError ?? 'not loaded');
        return;
      }
      slot.loaded = true;
      unhook();
      worker.on('message', (m: { id: number; out?: Float32Array; error?: string }) => done(slot, m));
      const lost = (why: string) => {
        if (!slots.includes(slot)) return; // stopped on purpose
        remove(slot);
        failInflight(slot, why);
        if (!slots.length) {
          pool.loadError = why; // later calls reject at once instead of queueing behind a dead thread
          fail(queue.splice(0), why);
        }
      };
      worker.on('error', (e) => lost(e.message));
      worker.on('exit', (code) => lost(`worker exited (code ${code})`));
      worker.unref();
      if (!primary) idleAfter(slot);
      pump();
    });
    return loaded;
  }

  function idleAfter(slot: Slot) {
    clearTimeout(slot.idle);
    slot.idle = setTimeout(() => {
      if (busy(slot) || !slots.includes(slot) || slots.length === 1) return;
      remove(slot);
      void slot.worker.terminate();
    }, idleMs).unref();
  }

  function done(slot: Slot, m: { id: number; out?: Float32Array; error?: string }) {
    const jobs = slot.inflight.get(m.id);
    if (!jobs) return;
    slot.inflight.delete(m.id);
    if (slot.query === m.id) slot.query = undefined;
    if (m.error || !m.out) fail(jobs, m.error ?? 'no output');
    else {
      const dim = workerData!.dim;
      let row = 0;
      for (const j of jobs) j.resolve(j.texts.map(() => m.out!.slice(row * dim, ++row * dim)));
    }
    if (!busy(slot) && !queue.length) {
      slot.worker.unref();
      if (!slot.primary) idleAfter(slot);
    }
    pump();
  }

  /** Takes queued jobs of one kind, in order, up to `cap` texts (at least one job). */
  function take(write: boolean, cap: number): Job[] {
    const jobs: Job[] = [];
    let n = 0;
    for (let i = 0; i < queue.length; ) {
      const j = queue[i];
      if (j.write !== write) {
        i++;
        continue;
      }
      if (n > 0 && n + j.texts.length > cap) break;
      queue.splice(i, 1);
      jobs.push(j);
      n += j.texts.length;
    }
    return jobs;
  }

  function send(slot: Slot, jobs: Job[], query: boolean) {
    const id = nextId++;
    slot.inflight.set(id, jobs);
    if (query) slot.query = id;
    clearTimeout(slot.idle);
    slot.worker.ref(); // keep the process alive only while a batch is out
    slot.worker.postMessage({ id, texts: jobs.flatMap((j) => j.texts), query });
  }

  /**
   * Sends queued jobs (up to MAX_BATCH texts a batch) to idle workers; starts another if all are busy.
   * Queries go first, in batches of their own, to an idle thread or else to one busy with writes,
   * which answers them before the rest of its write batch (see the worker): a question is not kept
   * waiting behind memories being stored. A thread takes one query batch at a time.
   */
  function pump() {
    const more = () =>
      !pool.closed && !extraFailed && slots.length < maxWorkers && slots.every((x) => x.loaded) && spawn(false);
    const load = (x: Slot) => [...x.inflight.values()].flat().reduce((n, j) => n + j.texts.length, 0);
    while (queue.some((j) => !j.write)) {
      const free = slots.filter((x) => x.loaded && x.query === undefined);
      if (!free.length) {
        more();
        break;
      }
      send(
        free.find((x) => !busy(x)) ?? free.reduce((a, b) => (load(b) < load(a) ? b : a)),
        take(false, MAX_BATCH),
        true,
      );
    }
    while (queue.some((j) => j.write)) {
      const slot = slots.find((x) => x.loaded && !busy(x));
      if (!slot) {
        more();
        return;
      }
      // With several threads loaded, the waiting texts are shared among them, not all sent to the first.
      const loaded = slots.filter((x) => x.loaded).length;
      const waiting = queue.reduce((sum, j) => sum + (j.write ? j.texts.length : 0), 0);
      send(slot, take(true, Math.min(MAX_BATCH, Math.ceil(waiting / loaded))), false);
    }
  }

  return Object.assign(pool, {
    /** Starts the first thread with `data`; resolves true once its model is loaded. */
    start(data: WorkerData): Promise<boolean> {
      workerData = data;
      return spawn(true);
    },
    /** Queues texts (one job per MAX_BATCH) and sends what it can. */
    enqueue(texts: string[], write: boolean): Promise<Float32Array[]>[] {
      const parts: Promise<Float32Array[]>[] = [];
      for (let i = 0; i < texts.length; i += MAX_BATCH) {
        const chunk = texts.slice(i, i + MAX_BATCH);
        parts.push(new Promise((resolve, reject) => queue.push({ texts: chunk, write, resolve, reject })));
      }
      pump();
      return parts;
    },
    async close(): Promise<void> {
      pool.closed = true;
      fail(queue.splice(0), 'closed');
      const all = slots.splice(0);
      for (const slot of all) {
        clearTimeout(slot.idle);
        failInflight(slot, 'closed');
      }
      await Promise.all(all.map((slot) => slot.worker.terminate()));
    },
  });
}
