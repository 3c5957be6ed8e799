/**
 * Is the database whole? `hearth serve` runs `PRAGMA quick_check` once at start in a worker thread
 * (its own read-only connection, so the event loop and writers carry on), and any request that
 * meets SQLITE_CORRUPT marks integrity in doubt too. While in doubt, /health says `degraded`,
 * its `result` says the database is damaged and to restore a backup, and the log says so once.
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

/** What to do about damage: retrying never helps, a backup does. */
export const DAMAGE_FIX =
  'stop the hub, run `hearth doctor` to see the damage, then `hearth restore <backup file>` (a nightly backup is in /var/lib/hearth/backups when installed with deploy/install.sh)';

export function createIntegrity(dbPath: string) {
  let state: IntegrityState = 'unchecked';
  let detail = '';
  let worker: Worker | null = null;
  const listeners = new Set<(why: string, fix: string) => void>();
  const damaged = (why: string) => {
    const first = state !== 'damaged';
    state = 'damaged';
    detail = why;
    // Said once (the log, not every request that meets the damage): the first finding names it.
    if (first) for (const fn of listeners) fn(why, DAMAGE_FIX);
  };
  const unwatch = watchDamage((message) => damaged(`a request met a damaged page: ${message}`));
  return {
    get state() {
      return state;
    },
    /** Fields merged into /health: nothing while whole or unchecked, `degraded` while in doubt. */
    health(): Record<string, unknown> {
      if (state !== 'damaged') return state === 'checking' ? { integrity: { state } } : {};
      return {
        result: `The database ${dbPath} is damaged (${detail}); writes that meet the damage are refused and retrying will not help: ${DAMAGE_FIX}.`,
        status: 'degraded',
        integrity: { state, file: dbPath, detail, fix: DAMAGE_FIX },
      };
    },
    /** Calls `fn` once, when damage is first found (by the quick check or by a request), with what to do about it. */
    onDamaged(fn: (why: string, fix: string) => void): () => void {
      listeners.add(fn);
      return () => void listeners.delete(fn);
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
