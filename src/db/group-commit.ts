/**
 * Group commit for request-sized writes (`remember`): with synchronous=FULL every commit is an fsync
 * (0.5–5 ms on the machines measured), so N concurrent callers committing one by one pay N fsyncs.
 * Here the writes that arrive in the same event-loop turn run in ONE transaction, each inside its own
 * savepoint (better-sqlite3 nests `db.transaction` as SAVEPOINT): a write that throws is rolled back
 * alone and its caller gets the error; the others commit together. Every promise settles only after
 * the shared COMMIT returned, so "answered" still means "on disk"; if the COMMIT itself fails, every
 * write of the group is rolled back and every caller gets that error.
 *
 * Writes run in arrival order, so a later write of the group sees the earlier ones (a duplicate
 * check inside the group behaves as if they had come one at a time).
 */
import type { Db } from './open.js';

interface Job {
  fn: () => unknown;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

export function createGroupCommit(db: Db) {
  let queue: Job[] = [];
  let scheduled = false;

  const flush = () => {
    scheduled = false;
    const jobs = queue;
    queue = [];
    const out: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    try {
      db.transaction(() => {
        for (const j of jobs) {
          try {
            out.push({ ok: true, value: db.transaction(j.fn)() });
          } catch (error) {
            out.push({ ok: false, error });
          }
        }
      })();
    } catch (error) {
      for (const j of jobs) j.reject(error);
      return;
    }
    jobs.forEach((j, i) => {
      const r = out[i];
      if (r.ok) j.resolve(r.value);
      else j.reject(r.error);
    });
  };

  return {
    /** Runs `fn` inside the next group transaction; resolves with its result after the COMMIT. */
    run<T>(fn: () => T): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        queue.push({ fn, resolve: resolve as (v: unknown) => void, reject });
        if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
      });
    },
  };
}
export type GroupCommit = ReturnType<typeof createGroupCommit>;
