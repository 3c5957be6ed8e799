/**
 * Raw-reading retention (SPEC §5 Retention): readings older than `retention_days` are deleted only
 * once they are rolled up — id ≤ the series' `rollup_watermarks.last_id` — and rollups are never
 * deleted. Old readings not yet rolled up are kept and reported (`kept_unrolled`) so a stalled
 * rollup shows up instead of silently losing data.
 *
 * The row with the highest id is never deleted: `readings.id` has no AUTOINCREMENT, so SQLite gives a
 * new row max(id) + 1, and deleting the top rows would hand out ids at or below the watermarks —
 * readings the rollup would never see and a later prune would delete (sqlite.org/autoinc.html).
 */
import type { Db } from '../../db/open.js';
import type { Clock } from '../../lib/clock.js';
import { createRetentionRepo } from './retention.repo.js';

export interface RetentionOptions {
  /** Keep raw readings this many days (config `timeseries.retention_days`, `RETENTION_DAYS`). */
  retentionDays: number;
  /** Rows per delete transaction; small so writers on other connections wait milliseconds, not seconds. */
  batchSize?: number;
}

export interface PruneSeriesResult {
  series_id: number;
  entity_id: number;
  metric: string;
  deleted: number;
  kept_unrolled: number;
}

export interface PruneResult {
  /** Rows deleted (or, in a dry run, that would be). */
  deleted: number;
  /** Rows older than the cutoff kept because they are not rolled up yet. */
  kept_unrolled: number;
  /** Epoch seconds; readings with ts < cutoff_ts are past retention. */
  cutoff_ts: number;
  /** Series with anything past retention. */
  by_series: PruneSeriesResult[];
}

/** Builds the pruner. `clock.now()` is epoch seconds. */
export function createRetention(db: Db, clock: Clock, { retentionDays, batchSize = 5000 }: RetentionOptions) {
  const repo = createRetentionRepo(db);
  const deleteOne = db.transaction((after: number, upTo: number, cutoffMs: number) =>
    repo.deleteBatch(after, upTo, cutoffMs, batchSize),
  );

  /**
   * Deletes rolled-up readings older than now − retentionDays, `batchSize` rows per transaction.
   * With `dryRun` only counts. Synchronous: call it from the scheduler, not a request handler.
   */
  function prune({ dryRun = false }: { dryRun?: boolean } = {}): PruneResult {
    const cutoff_ts = clock.now() - retentionDays * 86_400;
    const cutoffMs = Math.ceil(cutoff_ts * 1000); // ts_ms is an integer: ts_ms < x ⟺ ts_ms < ⌈x⌉
    const rows = new Map<number, PruneSeriesResult>();
    let lo = Infinity;
    let hi = -Infinity;
    const top = repo.topId();
    for (const s of repo.series()) {
      const r = repo.rolled(s.id, cutoffMs, s.last_id, top);
      const kept = repo.unrolled(s.id, cutoffMs, s.last_id);
      if (r.n === 0 && kept === 0) continue;
      rows.set(s.id, {
        series_id: s.id,
        entity_id: s.entity_id,
        metric: s.metric,
        deleted: dryRun ? r.n : 0,
        kept_unrolled: kept,
      });
      if (r.n > 0) (lo = Math.min(lo, r.lo!)), (hi = Math.max(hi, r.hi!));
    }
    if (!dryRun && hi >= lo) {
      let after = lo - 1;
      for (;;) {
        const batch = deleteOne.immediate(after, hi, cutoffMs);
        for (const [id, seriesId] of batch) {
          after = Math.max(after, id);
          const r = rows.get(seriesId);
          if (r) r.deleted++;
        }
        if (batch.length < batchSize) break;
      }
    }
    const by_series = [...rows.values()];
    return {
      deleted: by_series.reduce((n, r) => n + r.deleted, 0),
      kept_unrolled: by_series.reduce((n, r) => n + r.kept_unrolled, 0),
      cutoff_ts,
      by_series,
    };
  }

  return { prune };
}

export type Retention = ReturnType<typeof createRetention>;
