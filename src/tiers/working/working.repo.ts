/** SQL for working memory's tasks and their key/value slots (migration 004). Callers own transactions. */
import type { Db } from '../../db/open.js';
import type { TaskStatus, WmListInput } from './working.schemas.js';

export interface TaskView {
  task_id: number;
  task_name: string;
  entity_name: string | null;
  status: TaskStatus;
  ttl_ts: number | null;
  created: number;
  closed_at: number | null;
  promoted_memory_id: number | null;
  slot_count: number;
}

export interface SlotView {
  key: string;
  value: unknown;
  created: number;
  updated: number;
}
/** A slot as stored: its value as JSON text. */
export type RawSlot = Omit<SlotView, 'value'> & { value: string };

// Status as of @now: an open task past its TTL is expired whether or not the sweep has run yet.
const STATUS = "CASE WHEN t.status = 'open' AND t.ttl_ts <= @now THEN 'expired' ELSE t.status END";
const TASK = `SELECT t.id AS task_id, t.name AS task_name, e.name AS entity_name, ${STATUS} AS status, t.ttl_ts, t.created,
                     CASE WHEN t.status = 'open' AND t.ttl_ts <= @now THEN t.ttl_ts ELSE t.closed_at END AS closed_at,
                     t.promoted_memory_id, (SELECT count(*) FROM working_memory_slots s WHERE s.task_id = t.id) AS slot_count
                FROM working_memory_tasks t LEFT JOIN entities e ON e.id = t.entity_id`;
// Written out per status (not `STATUS = ?`) so the (status, ttl_ts) index applies.
const STATUS_WHERE: Record<WmListInput['status'], string> = {
  open: "t.status = 'open' AND (t.ttl_ts IS NULL OR t.ttl_ts > @now)",
  expired: "(t.status = 'expired' OR (t.status = 'open' AND t.ttl_ts <= @now))",
  closed: "t.status = 'closed'",
  all: '1',
};

export function createWorkingRepo(db: Db) {
  // working_memory_tasks
  const insertTask = db.prepare(
    "INSERT INTO working_memory_tasks (name, entity_id, status, ttl_ts, created) VALUES (?, ?, 'open', ?, ?)",
  );
  const importTask = db.prepare(
    'INSERT INTO working_memory_tasks (name, entity_id, status, ttl_ts, created, closed_at, promoted_memory_id) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const taskById = db.prepare(`${TASK} WHERE t.id = @id`);
  const list = Object.fromEntries(
    Object.entries(STATUS_WHERE).map(([status, where]) => [
      status,
      db.prepare(
        `${TASK} WHERE ${where} AND (@entity_id IS NULL OR t.entity_id = @entity_id) ORDER BY t.created DESC, t.id DESC LIMIT @limit`,
      ),
    ]),
  ) as Record<WmListInput['status'], ReturnType<Db['prepare']>>;
  const close = db.prepare(
    "UPDATE working_memory_tasks SET status = 'closed', closed_at = ?, promoted_memory_id = ? WHERE id = ? AND status != 'closed'",
  );
  const expire = db.prepare(
    "UPDATE working_memory_tasks SET status = 'expired', closed_at = ttl_ts WHERE status = 'open' AND ttl_ts <= ? RETURNING id, name, ttl_ts",
  );
  const prune = db.prepare(
    "DELETE FROM working_memory_tasks WHERE status IN ('closed','expired') AND closed_at < ? RETURNING id",
  );

  // working_memory_slots
  const slotsOf = db.prepare(
    'SELECT key, value, created, updated FROM working_memory_slots WHERE task_id = ? ORDER BY created, id',
  );
  const slotOf = db.prepare(
    'SELECT key, value, created, updated FROM working_memory_slots WHERE task_id = ? AND key = ?',
  );
  const upsert = db.prepare(
    `INSERT INTO working_memory_slots (task_id, key, value, created, updated) VALUES (@task_id, @key, @value, @now, @now)
     ON CONFLICT (task_id, key) DO UPDATE SET value = excluded.value, updated = excluded.updated`,
  );
  const deleteSlot = db.prepare('DELETE FROM working_memory_slots WHERE task_id = ? AND key = ?');
  const importSlot = db.prepare(
    'INSERT INTO working_memory_slots (task_id, key, value, created, updated) VALUES (?, ?, ?, ?, ?)',
  );

  return {
    /** A new open task; its id. */
    insertTask: (name: string, entityId: number | null, ttl: number | null, now: number) =>
      Number(insertTask.run(name, entityId, ttl, now).lastInsertRowid),
    /** An importer's task with its status, times and promotion kept; its id. */
    importTask: (
      name: string,
      entityId: number | null,
      status: TaskStatus,
      kept: { ttl_ts: number | null; created: number; closed_at: number | null; promoted_memory_id: number | null },
    ) =>
      Number(
        importTask.run(name, entityId, status, kept.ttl_ts, kept.created, kept.closed_at, kept.promoted_memory_id)
          .lastInsertRowid,
      ),
    /** One task with its status as of `now`. */
    task: (id: number, now: number) => taskById.get({ id, now }) as TaskView | undefined,
    /** Tasks of one status as of `now` (of one entity, or everyone's), newest first. */
    list: (status: WmListInput['status'], entityId: number | null, limit: number, now: number) =>
      list[status].all({ now, entity_id: entityId, limit }) as TaskView[],
    /** Closes a task not yet closed; false when it already was. */
    close: (id: number, closedAt: number, promotedMemoryId: number | null) =>
      close.run(closedAt, promotedMemoryId, id).changes === 1,
    /** Marks open tasks past their TTL expired (closed at their TTL); the tasks it changed. */
    expireDue: (now: number) => expire.all(now) as { id: number; name: string; ttl_ts: number }[],
    /** Deletes ended tasks (and their slots) closed before `cutoff`; their ids. */
    prune: (cutoff: number) => (prune.all(cutoff) as { id: number }[]).map((r) => r.id),

    slots: (taskId: number) => slotsOf.all(taskId) as RawSlot[],
    slot: (taskId: number, key: string) => slotOf.get(taskId, key) as RawSlot | undefined,
    /** Inserts or overwrites one slot (`value` as JSON text). */
    setSlot: (taskId: number, key: string, value: string, now: number) =>
      void upsert.run({ task_id: taskId, key, value, now }),
    /** Removes one slot; whether there was one. */
    deleteSlot: (taskId: number, key: string) => deleteSlot.run(taskId, key).changes === 1,
    /** An importer's slot with its times kept; its id. */
    importSlot: (taskId: number, key: string, value: string, kept: { created: number; updated: number }) =>
      Number(importSlot.run(taskId, key, value, kept.created, kept.updated).lastInsertRowid),
  };
}
export type WorkingRepo = ReturnType<typeof createWorkingRepo>;
