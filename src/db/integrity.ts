/**
 * Is the database whole? `hearth serve` runs `PRAGMA quick_check` once at start in a worker thread
 * (its own read-only connection, so the event loop and writers carry on), and any request that
 * meets SQLITE_CORRUPT marks integrity in doubt too. While in doubt, /health says `degraded`.
 */
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { watchDamage } from '../lib/errors.js';

export type IntegrityState = 'unchecked' | 'checking' | 'ok' | 'damaged';

/** At most this many problems are collected: enough to say "damaged", bounded in time once found. */
const MAX_ERRORS = 10;

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
let result;
try {
  const db = new Database(workerData.path, { readonly: true, fileMustExist: true, timeout: 10000 });
  try { result = db.pragma('quick_check(' + workerData.max + ')', { simple: false }).map((r) => Object.values(r)[0]); }
  finally { db.close(); }
} catch (e) { result = { error: String(e && e.message || e), code: String(e && e.code || '') }; }
parentPort.postMessage(result);
`;

export function createIntegrity(dbPath: string) {
  let state: IntegrityState = 'unchecked';
  let detail = '';
  let worker: Worker | null = null;
  const damaged = (why: string) => {
    state = 'damaged';
    detail = why;
  };
  const unwatch = watchDamage((message) => damaged(`a request met a damaged page: ${message}`));
  return {
    get state() {
      return state;
    },
    /** Fields merged into /health: nothing while whole or unchecked, `degraded` while in doubt. */
    health(): Record<string, unknown> {
      if (state !== 'damaged') return state === 'checking' ? { integrity: { state } } : {};
      return { status: 'degraded', integrity: { state, file: dbPath, detail, fix: 'run `hearth doctor`, then `hearth restore <backup>`' } };
    },
    /** Starts the quick check; resolves when it has an answer (serve does not wait for it). */
    check(): Promise<IntegrityState> {
      if (dbPath === ':memory:') return Promise.resolve(state);
      state = 'checking';
      const driver = createRequire(import.meta.url).resolve('better-sqlite3');
      return new Promise((resolve) => {
        worker = new Worker(WORKER, { eval: true, workerData: { path: dbPath, driver, max: MAX_ERRORS } });
        worker.once('message', (rows: string[] | { error: string; code: string }) => {
          if (state === 'checking') {
            if (!Array.isArray(rows)) {
              if (/^SQLITE_(CORRUPT|NOTADB)/.test(rows.code)) damaged(`quick_check: ${rows.error}`);
              else (state = 'unchecked'), (detail = `quick_check could not run: ${rows.error}`);
            } else if (rows.length === 1 && rows[0] === 'ok') state = 'ok';
            else damaged(`quick_check: ${rows.slice(0, 3).join('; ')}`);
          }
          resolve(state);
        });
        worker.once('error', (e) => {
          if (state === 'checking') (state = 'unchecked'), (detail = `quick_check could not run: ${e.message}`);
          resolve(state);
        });
        worker.once('exit', () => {
          worker = null;
          resolve(state);
        });
      });
    },
    async stop(): Promise<void> {
      unwatch();
      await worker?.terminate();
    },
  };
}
export type Integrity = ReturnType<typeof createIntegrity>;
