/**
 * SQL for sightings: the `locations` rows (migration 005), each joined with its object's entity as a
 * `LocationRow` (locations.ts). An object has at most one active row. Callers own transactions.
 */
import type { Db } from '../../db/open.js';
import type { LocationRow } from './locations.js';

const SELECT = 'SELECT l.*, e.name AS entity_name FROM locations l JOIN entities e ON e.id = l.entity_id';
const INSERT =
  'INSERT INTO locations (entity_id, container_id, container_name, confidence, last_confirmed_ts, active, source, note, created)';

/** A new sighting: the object, its container (entity id and name), when and how sure. */
export interface NewSighting {
  entity_id: number;
  container_id: number | null;
  container_name: string;
  confidence: number;
  last_confirmed_ts: number;
  source: string | null;
  note: string | null;
  created: number;
}

/** Archives a sighting (an object has at most one active row): here and in a merge (merge.repo.ts). */
export const archiveLocationStatement = (db: Db) => db.prepare('UPDATE locations SET active = 0 WHERE id = ?');

export function createSpatialRepo(db: Db) {
  const current = db.prepare(`${SELECT} WHERE l.entity_id = ? AND l.active = 1`);
  const allActive = db.prepare(`${SELECT} WHERE l.active = 1`);
  const history = db.prepare(`${SELECT} WHERE l.entity_id = ? ORDER BY l.created DESC, l.id DESC LIMIT ?`);
  const located = db.prepare('SELECT DISTINCT e.id, e.name FROM locations l JOIN entities e ON e.id = l.entity_id');
  const hasActive = db.prepare('SELECT 1 FROM locations WHERE entity_id = ? AND active = 1');
  const insert = db.prepare(`${INSERT}
     VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?)`);
  const insertImported = db.prepare(`${INSERT}
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const archive = archiveLocationStatement(db);
  const confirm = db.prepare(
    'UPDATE locations SET last_confirmed_ts = ?, confidence = ?, source = coalesce(?, source), note = coalesce(?, note) WHERE id = ?',
  );
  const values = (s: NewSighting) =>
    [s.entity_id, s.container_id, s.container_name, s.confidence, s.last_confirmed_ts] as const;

  return {
    /** The object's active sighting, by entity id. */
    current: (entityId: number) => current.get(entityId) as LocationRow | undefined,
    allActive: () => allActive.all() as LocationRow[],
    /** Every sighting of one object, newest first. */
    history: (entityId: number, limit: number) => history.all(entityId, limit) as LocationRow[],
    /** Every entity that was ever located. */
    located: () => located.all() as { id: number; name: string }[],
    hasActive: (entityId: number) => !!hasActive.get(entityId),
    /** A new active sighting; its id. */
    insert: (s: NewSighting) => Number(insert.run(...values(s), s.source, s.note, s.created).lastInsertRowid),
    /** An importer's sighting, active or archived; its id. */
    insertImported: (s: NewSighting, active: boolean) =>
      Number(insertImported.run(...values(s), active ? 1 : 0, s.source, s.note, s.created).lastInsertRowid),
    archive: (id: number) => void archive.run(id),
    /** Re-confirms a sighting; a null source or note keeps the stored one. */
    confirm: (id: number, at: number, confidence: number, source: string | null, note: string | null) =>
      void confirm.run(at, confidence, source, note, id),
  };
}
export type SpatialRepo = ReturnType<typeof createSpatialRepo>;
