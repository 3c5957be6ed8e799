/** SQL for `schedule_events` (issue #36: repositories own their tables' SQL). Callers own transactions. */
import type { Db } from '../../db/open.js';

export interface EventRow {
  id: number;
  entity_id: number;
  entity_name: string;
  title: string;
  start_ts: number;
  end_ts: number | null;
  recurrence: string | null;
  meta: string;
}

export interface NewEvent {
  entity_id: number;
  title: string;
  start_ts: number;
  end_ts: number | null;
  recurrence: string | null;
  /** JSON text. */
  meta: string;
  created: number;
}

export function createScheduleRepo(db: Db) {
  const insert = db.prepare(
    'INSERT INTO schedule_events (entity_id, title, start_ts, end_ts, recurrence, meta, created) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const SELECT = 'SELECT s.*, e.name AS entity_name FROM schedule_events s JOIN entities e ON e.id = s.entity_id';
  const all = db.prepare(SELECT);
  const ofEntity = db.prepare(`${SELECT} WHERE s.entity_id = ?`);

  return {
    /** Adds an event; returns its id. */
    insert: (e: NewEvent): number =>
      Number(insert.run(e.entity_id, e.title, e.start_ts, e.end_ts, e.recurrence, e.meta, e.created).lastInsertRowid),
    /** Every event with its entity's name, or those of one entity. */
    events: (entityId?: number): EventRow[] =>
      (entityId === undefined ? all.all() : ofEntity.all(entityId)) as EventRow[],
  };
}
export type ScheduleRepo = ReturnType<typeof createScheduleRepo>;
