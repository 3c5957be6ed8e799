/** Audit trail: one row per mutation, with who did it (SPEC §3). */
import type { Db } from '../../db/open.js';
import type { Clock } from '../../lib/clock.js';

export type Actor = 'http' | 'mcp' | 'mqtt' | 'cli' | 'pattern_engine' | 'admin' | 'scheduler' | 'system';

export function createAuditRepo(db: Db, clock: Clock) {
  const insert = db.prepare('INSERT INTO audit (ts, actor, op, target, before, after) VALUES (?, ?, ?, ?, ?, ?)');
  const json = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v));
  return {
    record(actor: Actor, op: string, target: string | number | null, before?: unknown, after?: unknown): void {
      insert.run(clock.now(), actor, op, target === null ? null : String(target), json(before), json(after));
    },
  };
}
export type AuditRepo = ReturnType<typeof createAuditRepo>;
