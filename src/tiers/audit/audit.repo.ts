/** Audit trail: one row per mutation, with who did it (SPEC §3). */
import type { Db } from '../../db/open.js';
import type { Clock } from '../../lib/clock.js';
import type { AuditQuery } from './audit.schemas.js';

export type Actor = 'http' | 'mcp' | 'mqtt' | 'cli' | 'pattern_engine' | 'admin' | 'scheduler' | 'system' | 'import';

export function createAuditRepo(db: Db, clock: Clock) {
  const insert = db.prepare('INSERT INTO audit (ts, actor, op, target, before, after) VALUES (?, ?, ?, ?, ?, ?)');
  const json = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v));
  return {
    /** Newest first, filtered; `op` may end in `*` for a prefix. */
    query(q: AuditQuery) {
      const where: string[] = [];
      const params: unknown[] = [];
      if (q.actor) (where.push('actor = ?'), params.push(q.actor));
      if (q.op) q.op.endsWith('*') ? (where.push("op LIKE ? ESCAPE '\\'"), params.push(`${q.op.slice(0, -1).replace(/[\\%_]/g, (c) => `\\${c}`)}%`)) : (where.push('op = ?'), params.push(q.op));
      if (q.target) (where.push('target = ?'), params.push(q.target));
      if (q.since !== undefined) (where.push('ts >= ?'), params.push(q.since));
      if (q.until !== undefined) (where.push('ts <= ?'), params.push(q.until));
      const rows = db
        .prepare(`SELECT * FROM audit ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY ts DESC, id DESC LIMIT ?`)
        .all(...params, q.limit) as { id: number; ts: number; actor: string; op: string; target: string | null; before: string | null; after: string | null }[];
      return rows.map((r) => ({ ...r, before: r.before && JSON.parse(r.before), after: r.after && JSON.parse(r.after) }));
    },
    record(actor: Actor, op: string, target: string | number | null, before?: unknown, after?: unknown): void {
      insert.run(clock.now(), actor, op, target === null ? null : String(target), json(before), json(after));
    },
  };
}
export type AuditRepo = ReturnType<typeof createAuditRepo>;
