/**
 * The ingest writer: readings from every door are queued and committed in batched transactions
 * (the next event-loop turn, up to 1000 rows each), and each submitter's promise resolves only after its
 * batch is committed — so an HTTP 2xx or MQTT PUBACK always means "on disk" (SQLite WAL with
 * synchronous=FULL), while the fsync is paid once per batch rather than once per reading.
 */
import type { Db } from '../../db/open.js';
import { isHubError } from '../../lib/errors.js';
import { trackedKey } from '../../lib/tracked-names.js';
import type { PreparedReading, ReadingsRepo, WriteResult } from './readings.repo.js';

export interface IngestStats {
  accepted: number;
  rejected: number;
  skipped: number;
  batches: number;
  by_source: Record<string, { accepted: number; rejected: number }>;
}

interface Pending {
  items: PreparedReading[];
  resolve: (r: WriteResult[]) => void;
  reject: (e: unknown) => void;
}

const isConstraint = (e: unknown) =>
  typeof (e as { code?: unknown })?.code === 'string' && (e as { code: string }).code.startsWith('SQLITE_CONSTRAINT');

export function createIngestWriter(
  db: Db,
  repo: ReadingsRepo,
  opts: {
    flushMs?: number;
    maxBatch?: number;
    onCommit?: (items: PreparedReading[], results: WriteResult[]) => void;
  } = {},
) {
  const flushMs = opts.flushMs ?? 0;
  const maxBatch = opts.maxBatch ?? 1000;
  let queue: Pending[] = [];
  let queued = 0;
  let timer: NodeJS.Timeout | NodeJS.Immediate | null = null;
  let lastFlush = -Infinity;
  let closed = false;
  const stats: IngestStats = {
    accepted: 0,
    rejected: 0,
    skipped: 0,
    batches: 0,
    by_source: Object.create(null) as IngestStats['by_source'],
  }; // keys are client-chosen: no prototype

  const count = (source: string, ok: boolean) => {
    const s = (stats.by_source[trackedKey(stats.by_source, source)] ??= { accepted: 0, rejected: 0 }); // capped in length and number
    if (ok) s.accepted++;
    else s.rejected++;
  };

  /**
   * One item: a failure leaves no rows of its own — a scalar reading is refused before it writes,
   * a composite (several rows) gets a savepoint; a savepoint per scalar would cost ~2× the insert —
   * and `repo.undo` drops exactly the ids it cached, so the other items of the batch never see it.
   */
  const writeOne = (r: PreparedReading): WriteResult => {
    const mark = repo.mark();
    try {
      return typeof r.value === 'object' ? db.transaction(() => repo.write(r))() : repo.write(r);
    } catch (e) {
      repo.undo(mark);
      // The database itself failed (disk full, I/O) or the disk guard refused (db/disk-guard.ts): the whole batch fails.
      if (isHubError(e) && e.code !== 'insufficient_storage') return { ok: false, error: e.code, message: e.message };
      if (!isConstraint(e)) throw e;
      // A constraint this code should have prevented: refuse this reading alone, and look every id up afresh.
      repo.invalidate();
      return {
        ok: false,
        error: 'unavailable',
        message: `database error ${(e as { code: string }).code}; this reading was not stored, retry later`,
      };
    }
  };

  /** Writes items now, in one transaction. Throws only when the database itself fails. */
  function writeNow(items: PreparedReading[]): WriteResult[] {
    let results: WriteResult[];
    try {
      // IMMEDIATE: the write lock is held from `begin`, so no other process commits between its check and ours.
      results = db
        .transaction(() => {
          repo.begin();
          return items.map(writeOne);
        })
        .immediate();
    } catch (e) {
      repo.undo(); // ids created inside the rolled-back transaction are gone
      throw e;
    }
    repo.commit();
    stats.batches++;
    results.forEach((r, i) => {
      if (r.ok && r.skipped) stats.skipped++;
      else if (r.ok) stats.accepted++;
      else stats.rejected++;
      count(items[i].source, r.ok);
    });
    opts.onCommit?.(items, results);
    return results;
  }

  function flush(): void {
    if (timer) clearTimeout(timer as NodeJS.Timeout), clearImmediate(timer as NodeJS.Immediate);
    timer = null;
    const batch = queue;
    queue = [];
    queued = 0;
    if (!batch.length) return;
    let results: WriteResult[];
    try {
      results = writeNow(batch.flatMap((p) => p.items));
    } catch (e) {
      for (const p of batch) p.reject(e);
      return;
    }
    lastFlush = performance.now(); // when the commit ended: readings arriving soon after it mean load
    let at = 0;
    for (const p of batch) {
      p.resolve(results.slice(at, at + p.items.length));
      at += p.items.length;
    }
  }

  return {
    stats,
    writeNow,
    /** Queues readings; resolves with one result per item once they are committed. */
    submit(items: PreparedReading[]): Promise<WriteResult[]> {
      if (closed) return Promise.reject(new Error('ingest writer is closed'));
      return new Promise((resolve, reject) => {
        queue.push({ items, resolve, reject });
        queued += items.length;
        if (queued >= maxBatch) flush();
        // Commit on the next turn of the event loop, with whatever else arrived in the same turn: a lone
        // reading waits only for its own commit, and under load the readings that came in while the
        // last commit blocked the loop make the next batch (group commit). With flushMs > 0, readings
        // arriving within flushMs of the last commit wait that long first, to gather bigger batches.
        else timer ??= performance.now() - lastFlush >= flushMs ? setImmediate(flush) : setTimeout(flush, flushMs);
      });
    },
    flush,
    close(): void {
      flush();
      closed = true;
    },
  };
}
export type IngestWriter = ReturnType<typeof createIngestWriter>;
