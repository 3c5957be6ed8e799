/**
 * The detectors' lane: a worker thread (detector-thread.ts) on a read-only connection to the hub's
 * database file, started at the first pattern run and kept (one run at a time: the engine never
 * overlaps runs). It runs the built-in detectors and the user's from `patterns.detectors_dir`; a
 * detector handed in by other code (tests) runs in process. There is no lane for an in-memory
 * database, or when the hub runs from its TypeScript sources (the unit tests: a worker cannot load
 * .ts) — then every detector runs in process, as before.
 */
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { BUILTIN_DETECTORS } from '../../detectors/index.js';
import type { Db } from '../db/open.js';
import type { Detector, Finding } from '../patterns/detector.js';
import type { DetectorLane } from '../patterns/engine.js';
import type { DetectorJob, DetectorResult } from './detector-thread.js';

const THREAD = new URL('./detector-thread.js', import.meta.url);

export function createDetectorLane(opts: {
  db: Db;
  timeZone: string;
  detectorsDir: string;
  log: (msg: string) => void;
}): DetectorLane | null {
  if (opts.db.memory || !import.meta.url.endsWith('.js')) return null;
  let worker: Worker | null = null;
  let next = 0;
  const waiting = new Map<number, { resolve(r: DetectorResult[]): void; reject(e: Error): void }>();
  const failAll = (e: Error) => {
    for (const w of waiting.values()) w.reject(e);
    waiting.clear();
    worker = null;
  };
  function thread(): Worker {
    if (worker) return worker;
    const w = new Worker(fileURLToPath(THREAD), {
      workerData: { dbPath: opts.db.name, timeZone: opts.timeZone, detectorsDir: opts.detectorsDir },
    });
    w.unref();
    w.on('message', (m: { id?: number; results?: DetectorResult[]; log?: string }) => {
      if (m.log) opts.log(m.log);
      if (m.id === undefined) return;
      waiting.get(m.id)?.resolve(m.results ?? []);
      waiting.delete(m.id);
    });
    w.on('error', (e) => failAll(e));
    w.on('exit', (code) => failAll(new Error(`the detector thread stopped (exit ${code})`)));
    worker = w;
    return w;
  }
  return {
    has: (d: Detector, fromDir: boolean) => fromDir || BUILTIN_DETECTORS.includes(d),
    run(jobs: DetectorJob[], now: number) {
      const id = ++next;
      return new Promise<{ name: string; findings?: Finding[]; error?: string }[]>((resolve, reject) => {
        waiting.set(id, { resolve: resolve as (r: DetectorResult[]) => void, reject });
        thread().postMessage({ id, now, jobs });
      });
    },
    async close() {
      const w = worker;
      worker = null;
      await w?.terminate();
    },
  };
}
