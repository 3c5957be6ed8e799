/**
 * The household in numbers, counted once: rows per tier, memories by status, vectors waiting and the
 * vector index's state, the rollup cache. `/health`, `/metrics`, `hearth doctor` and the admin
 * dashboard all read `snapshot()`; none of them counts on its own.
 */
import type { Db } from '../../db/open.js';
import type { VectorState } from '../../db/vectors.js';
import { createStatusReader } from './status.reader.js';

/** Below this many raw readings the count is exact (count(*) walks an index: ~50 ms per million rows). */
export const EXACT_UP_TO = 200_000;

export interface StatusDeps {
  db: Db;
  vectors: { readonly state: VectorState; staleReason(): string };
  rollupCache: () => { series: number; bytes: number };
  exactUpTo?: number;
}

export interface Snapshot {
  entities: number;
  memories: { total: number; active: number; superseded: number; contested: number; by_status: Record<string, number> };
  /** Memories waiting for a vector (after an outage, a model change or an import). */
  pending_embedding: number;
  /** Current relations (`current`) and every row, ended ones included (`total`). */
  relations: { current: number; total: number };
  series: number;
  /**
   * Raw readings stored, when asked for (`snapshot({ readings: true })`: up to EXACT_UP_TO rows are
   * walked); `exact` false past it (then ids handed out minus rows deleted).
   */
  readings: { n: number; exact: boolean } | null;
  sessions: number;
  turns: number;
  open_tasks: number;
  active_intentions: number;
  located_objects: number;
  schedule_events: number;
  promoted_patterns: number;
  vectors: { state: VectorState; stale_reason?: string };
  rollup_cache: { series: number; bytes: number };
}

export function createStatusService(deps: StatusDeps) {
  const { db } = deps;
  const exactUpTo = deps.exactUpTo ?? EXACT_UP_TO;
  const reader = createStatusReader(db);
  const n = reader.count;

  /**
   * count(*) walks an index (several times ~50 ms per million rows on a Pi), so past `exactUpTo` the
   * count is ids handed out (AUTOINCREMENT) minus rows deleted (the trigger counter of migration 007):
   * exact unless rows were deleted before that migration.
   */
  function readings(): { n: number; exact: boolean } {
    const est = Math.max(0, n('readingsSeq') - n('readingsDeleted'));
    return est <= exactUpTo ? { n: n('readings'), exact: true } : { n: est, exact: false };
  }

  return {
    /**
     * Every count at once. The raw readings only with `readings: true` (the dashboard): /health, which
     * anyone may call, stays at a few cheap counts.
     */
    snapshot(opts: { readings?: boolean } = {}): Snapshot {
      const byStatus = Object.fromEntries(reader.memoriesByStatus().map((r) => [r.status, r.n]));
      const state = deps.vectors.state;
      return {
        entities: n('entities'),
        memories: {
          total: Object.values(byStatus).reduce((a, b) => a + b, 0),
          active: byStatus.active ?? 0,
          superseded: byStatus.superseded ?? 0,
          contested: byStatus.contested ?? 0,
          by_status: byStatus,
        },
        pending_embedding: n('pending'),
        relations: { current: n('relations'), total: n('relationsAll') },
        series: n('series'),
        readings: opts.readings ? readings() : null,
        sessions: n('sessions'),
        turns: n('turns'),
        open_tasks: n('tasks'),
        active_intentions: n('intentions'),
        located_objects: n('locations'),
        schedule_events: n('schedule'),
        promoted_patterns: n('patterns'),
        vectors: state === 'stale' ? { state, stale_reason: deps.vectors.staleReason() } : { state },
        rollup_cache: deps.rollupCache(),
      };
    },
  };
}
export type StatusService = ReturnType<typeof createStatusService>;
