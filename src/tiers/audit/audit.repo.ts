/** Audit trail: one row per mutation, with who did it (SPEC §3). */
import type { Db } from '../../db/open.js';
import type { Clock } from '../../lib/clock.js';
import type { AuditQuery } from './audit.schemas.js';

export type Actor = 'http' | 'mcp' | 'mqtt' | 'cli' | 'pattern_engine' | 'admin' | 'scheduler' | 'system' | 'import';

/** Who an operation's caller is, as the audit log names it (the doors pass 'http' or their MCP actor). */
export const actorOf = (ctx: { actor: string }) => ctx.actor as Actor;

/** An audit row as stored: `before` and `after` are JSON text. */
export interface AuditRow {
  id: number;
  ts: number;
  actor: string;
  op: string;
  target: string | null;
  before: string | null;
  after: string | null;
}

export function createAuditRepo(db: Db, clock: Clock) {
  const insert = db.prepare('INSERT INTO audit (ts, actor, op, target, before, after) VALUES (?, ?, ?, ?, ?, ?)');
  const json = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v));
  return {
    /** Newest first, filtered; `op` may end in `*` for a prefix. */
    query(q: AuditQuery) {
      const where: string[] = [];
      const params: unknown[] = [];
      if (q.actor) where.push('actor = ?'), params.push(q.actor);
      if (q.op)
        q.op.endsWith('*')
          ? (where.push("op LIKE ? ESCAPE '\\'"),
            params.push(`${q.op.slice(0, -1).replace(/[\\%_]/g, (c) => `\\${c}`)}%`))
          : (where.push('op = ?'), params.push(q.op));
      if (q.target) where.push('target = ?'), params.push(q.target);
      if (q.since !== undefined) where.push('ts >= ?'), params.push(q.since);
      if (q.until !== undefined) where.push('ts <= ?'), params.push(q.until);
      const rows = db
        .prepare(
          `SELECT * FROM audit ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY ts DESC, id DESC LIMIT ?`,
        )
        .all(...params, q.limit) as AuditRow[];
      return rows.map((r) => ({
        ...r,
        before: r.before && JSON.parse(r.before),
        after: r.after && JSON.parse(r.after),
      }));
    },
    /** The newest row's id: a Markdown note exported now is "as of" this point in the hub's history. */
    lastId(): number {
      return (db.prepare('SELECT max(id) AS n FROM audit').get() as { n: number | null }).n ?? 0;
    },
    /**
     * Rows of the given ops (e.g. `entity.forget`), oldest first, with `before` parsed: what the
     * Markdown import asks to tell a note that is stale from one that is new (io/markdown/history.ts).
     * The audit log is never pruned, so a forget is remembered as long as the hub is.
     */
    ofOps(ops: readonly string[]) {
      const rows = db
        .prepare(`SELECT id, op, target, before FROM audit WHERE op IN (${ops.map(() => '?').join(', ')}) ORDER BY id`)
        .all(...ops) as { id: number; op: string; target: string | null; before: string | null }[];
      return rows.map((r) => ({ ...r, before: r.before ? (JSON.parse(r.before) as Record<string, any>) : null }));
    },
    record(actor: Actor, op: string, target: string | number | null, before?: unknown, after?: unknown): void {
      insert.run(clock.now(), actor, op, target === null ? null : String(target), json(before), json(after));
    },
  };
}
export type AuditRepo = ReturnType<typeof createAuditRepo>;
