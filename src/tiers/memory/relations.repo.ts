/** SQL for directed relations between entities (`relations`, SPEC §3). Callers own transactions. */
import type { Db } from '../../db/open.js';

/** A relation with both ends' names and types (relations.service.ts `list`). */
export interface RelatedRow {
  id: number;
  entity_a: number;
  a_name: string;
  b_name: string;
  a_type: string;
  b_type: string;
  rel_type: string;
  meta: string;
  valid_from: number;
  valid_until: number | null;
}

export function createRelationsRepo(db: Db) {
  const current = db.prepare(
    'SELECT * FROM relations WHERE entity_a = ? AND entity_b = ? AND rel_type = ? AND valid_until IS NULL',
  );
  const insert = db.prepare(
    'INSERT INTO relations (entity_a, entity_b, rel_type, meta, created, valid_from) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const insertKept = db.prepare(
    'INSERT INTO relations (entity_a, entity_b, rel_type, meta, created, valid_from, valid_until) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const end = db.prepare(
    `UPDATE relations SET valid_until = ? WHERE entity_a = ? AND entity_b = ? AND valid_until IS NULL
               AND (? IS NULL OR rel_type = ?) RETURNING id, rel_type`,
  );
  const related = db.prepare(
    `SELECT r.*, a.name AS a_name, b.name AS b_name, a.type AS a_type, b.type AS b_type
       FROM relations r JOIN entities a ON a.id = r.entity_a JOIN entities b ON b.id = r.entity_b
      WHERE (r.entity_a = @id OR r.entity_b = @id) AND (@history = 1 OR r.valid_until IS NULL)
      ORDER BY r.valid_from DESC, r.id DESC`,
  );
  const outgoing = db.prepare(
    'SELECT r.rel_type, b.id AS b_id, b.name AS b_name FROM relations r JOIN entities b ON b.id = r.entity_b WHERE r.entity_a = ? AND r.valid_until IS NULL ORDER BY r.id',
  );
  const endsById = db.prepare(
    'SELECT r.rel_type, a.name_key AS a, b.name_key AS b FROM relations r JOIN entities a ON a.id = r.entity_a JOIN entities b ON b.id = r.entity_b WHERE r.id = ?',
  );
  const byId = db.prepare(
    'SELECT r.id, r.rel_type, r.valid_until, a.name AS a, b.name AS b FROM relations r JOIN entities a ON a.id = r.entity_a JOIN entities b ON b.id = r.entity_b WHERE r.id = ?',
  );

  return {
    /** The current relation of this type from a to b, if any. */
    current: (a: number, b: number, relType: string) => current.get(a, b, relType) as { id: number } | undefined,
    insert: (a: number, b: number, relType: string, meta: string, now: number) =>
      Number(insert.run(a, b, relType, meta, now, now).lastInsertRowid),
    /** An imported relation with the times it had in the store it is copied from (`hearth import`). */
    insertKept: (
      a: number,
      b: number,
      relType: string,
      meta: string,
      kept: { created: number; valid_from: number; valid_until: number | null },
    ) => Number(insertKept.run(a, b, relType, meta, kept.created, kept.valid_from, kept.valid_until).lastInsertRowid),
    /** Ends the current relations from a to b (of one type, or all) as of `now`: the ended ones. */
    end: (now: number, a: number, b: number, relType: string | null) =>
      end.all(now, a, b, relType, relType) as { id: number; rel_type: string }[],
    /** An entity's relations either way (ended ones too with `history`), newest first. */
    related: (entityId: number, history: boolean) =>
      related.all({ id: entityId, history: history ? 1 : 0 }) as RelatedRow[],
    outgoing: (entityId: number) => outgoing.all(entityId) as { rel_type: string; b_id: number; b_name: string }[],
    endsById: (id: number) => endsById.get(id) as { a: string; rel_type: string; b: string } | undefined,
    /** One relation with its ends' names, ended or not (ending one by id). */
    byId: (id: number) =>
      byId.get(id) as { id: number; rel_type: string; valid_until: number | null; a: string; b: string } | undefined,
  };
}
export type RelationsRepo = ReturnType<typeof createRelationsRepo>;
