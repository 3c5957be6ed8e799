/**
 * The counts behind `snapshot()` (status.service.ts), across every tier's tables: one prepared
 * statement each, read-only.
 */
import type { Db } from '../../db/open.js';

export function createStatusReader(db: Db) {
  const one = (sql: string) => db.prepare(sql).pluck();
  const counts = {
    entities: one('SELECT count(*) FROM entities'),
    pending: one("SELECT count(*) FROM memories WHERE embed_state = 'pending'"),
    relations: one('SELECT count(*) FROM relations WHERE valid_until IS NULL'),
    relationsAll: one('SELECT count(*) FROM relations'),
    series: one('SELECT count(*) FROM series'),
    readings: one('SELECT count(*) FROM readings'),
    readingsSeq: one("SELECT seq FROM sqlite_sequence WHERE name = 'readings'"),
    readingsDeleted: one("SELECT n FROM counters WHERE name = 'readings_deleted'"),
    sessions: one('SELECT count(*) FROM sessions'),
    turns: one('SELECT count(*) FROM session_turns'),
    tasks: one("SELECT count(*) FROM working_memory_tasks WHERE status = 'open'"),
    intentions: one('SELECT count(*) FROM intentions WHERE active = 1'),
    locations: one('SELECT count(*) FROM locations WHERE active = 1'),
    schedule: one('SELECT count(*) FROM schedule_events'),
    patterns: one('SELECT count(*) FROM promoted_patterns'),
  };
  const memories = db.prepare('SELECT status, count(*) AS n FROM memories GROUP BY status');
  return {
    /** One count; 0 when there is no row (no reading ever stored, no counter yet). */
    count: (k: keyof typeof counts) => (counts[k].get() as number | undefined) ?? 0,
    memoriesByStatus: () => memories.all() as { status: string; n: number }[],
  };
}
export type StatusReader = ReturnType<typeof createStatusReader>;
