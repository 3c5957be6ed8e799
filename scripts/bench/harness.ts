/**
 * The running pieces the ingest benchmark drives: a hub as `npm start` runs it (on free ports, in a
 * temp dir) and the load worker that plays the sensors.
 */
import { Worker } from 'node:worker_threads';
import { createLocalEmbedder } from '../../src/ai/local-embedder.js';
import { parseConfig } from '../../src/config/load.js';
import { createHub, type Hub } from '../../src/main.js';
import { tempDir } from './common.js';
import type { LoadDone, LoadSpec } from './load-worker.js';

/** Starts the load worker, waits until its clients are connected; `go()` starts the clock. */
export async function startLoad(spec: LoadSpec): Promise<{ go: () => number; done: Promise<LoadDone> }> {
  const worker = new Worker(new URL('./load-worker.js', import.meta.url), { workerData: spec });
  const ready = new Promise<void>((resolve, reject) => {
    worker.on('message', (m: { ready?: boolean }) => m.ready && resolve());
    worker.once('error', reject);
  });
  const done = new Promise<LoadDone>((resolve, reject) => {
    worker.on('message', (m: LoadDone) => m.done && resolve(m));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`load worker exited (${code}) before finishing`)));
  });
  await ready;
  return {
    go: () => {
      const t0 = performance.now();
      worker.postMessage('go');
      return t0;
    },
    done,
  };
}

/**
 * A hub as `npm start` runs it — default config but free ports, a temp dir, UTC, the local
 * embedder — with `mqtt` settings overridden (e.g. the per-client throttle) when given.
 */
export async function benchHub(mqtt: { max_msgs_per_sec?: number } = {}): Promise<BenchHub> {
  const tmp = tempDir('hub');
  const config = parseConfig({
    data_dir: tmp.dir,
    mqtt: { mode: 'embedded', port: 0, ...mqtt },
    http: { port: 0 },
    timeseries: { timezone: 'UTC' },
  });
  const hub = await createHub({ config, ai: { embedder: createLocalEmbedder(), llm: null } });
  const urls = await hub.start();
  return {
    hub,
    urls: { http: urls.http!, mqtt: urls.mqtt! },
    close: async () => {
      await hub.stop();
      tmp.remove();
    },
  };
}

/** A started hub, its door URLs, and its teardown (stop + remove the temp dir). */
export interface BenchHub {
  hub: Hub;
  urls: { http: string; mqtt: string };
  close: () => Promise<void>;
}
