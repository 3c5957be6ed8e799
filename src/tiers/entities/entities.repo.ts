/**
 * Entities: people, rooms, devices, objects. Created on first reference (SPEC §3). A name means an
 * entity by its own name or by one of its aliases (migration 011; aliases.service.ts sets them):
 * `find`, `get` and `ensure` resolve both, so every tier that names an entity through this repo
 * treats "Anna", "Mum" and `person.anna` alike once they are one entity's names.
 */
import type { Db } from '../../db/open.js';
import type { Clock } from '../../lib/clock.js';
import { notFound } from '../../lib/errors.js';
import { nameKey } from '../../lib/names.js';
import { UNKNOWN_TYPE } from './entity-types.js';

export interface EntityRow {
  id: number;
  name: string;
  type: string;
  meta: Record<string, unknown>;
  created: number;
  updated: number;
}

interface RawEntity extends Omit<EntityRow, 'meta'> {
  meta: string;
  name_key?: string;
}

const parse = (r: RawEntity | undefined): EntityRow | undefined => {
  if (!r) return undefined;
  const { name_key: _key, ...row } = r;
  return { ...row, meta: JSON.parse(r.meta) as Record<string, unknown> };
};

/**
 * SQL for "the id of the entity whose name or alias has the key bound to `param`" (`?1`, `@key`),
 * for statements that resolve a name inside SQL (readings, patterns, imports).
 */
export const entityIdByKey = (param: string) =>
  `(SELECT id FROM entities WHERE name_key = ${param} UNION ALL SELECT entity_id FROM entity_aliases WHERE name_key = ${param} LIMIT 1)`;

/** The one statement that fills a type in: `run(type, now, id)` changes an entity only while it is unknown. */
export const fillTypeStatement = (db: Db) =>
  db.prepare(`UPDATE entities SET type = ?, updated = ? WHERE id = ? AND type = '${UNKNOWN_TYPE}'`);

/**
 * Sets an entity row's `columns` and stamps `updated`, `run(...values, now, id)`: here and in a
 * merge or rename (merge.repo.ts).
 */
export const updateEntityStatement = (db: Db, ...columns: ('name' | 'name_key' | 'type' | 'meta')[]) =>
  db.prepare(`UPDATE entities SET ${columns.map((c) => `${c} = ?, `).join('')}updated = ? WHERE id = ?`);

/** Deletes an entity row, here and at the end of a merge: what refers to it is the caller's. */
export const deleteEntityStatement = (db: Db) => db.prepare('DELETE FROM entities WHERE id = ?');

export function createEntitiesRepo(db: Db, clock: Clock) {
  // Identity is `nameKey` (lib/names.ts), stored in the UNIQUE name_key column: never a SQL collation.
  const byKey = db.prepare('SELECT * FROM entities WHERE name_key = ?');
  const byAlias = db.prepare(
    'SELECT e.* FROM entity_aliases a JOIN entities e ON e.id = a.entity_id WHERE a.name_key = ?',
  );
  const aliasesOf = db.prepare(
    'SELECT alias, source, created FROM entity_aliases WHERE entity_id = ? ORDER BY created, name_key',
  );
  const byId = db.prepare('SELECT * FROM entities WHERE id = ?');
  const insert = db.prepare(
    'INSERT INTO entities (name, name_key, type, meta, created, updated) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const fillType = fillTypeStatement(db);
  const list = db.prepare(
    `SELECT e.*, (SELECT count(*) FROM memories m WHERE m.entity_id = e.id AND m.status = 'active') AS memory_count
       FROM entities e ORDER BY e.name_key LIMIT ? OFFSET ?`,
  );
  const allNames = db.prepare('SELECT id, name FROM entities ORDER BY id');
  const setTypeMeta = updateEntityStatement(db, 'type', 'meta');
  const setType = updateEntityStatement(db, 'type');
  const setMeta = updateEntityStatement(db, 'meta');
  const remove = deleteEntityStatement(db);
  const listByType = db.prepare(
    `SELECT e.*, (SELECT count(*) FROM memories m WHERE m.entity_id = e.id AND m.status = 'active') AS memory_count
       FROM entities e WHERE e.type = ? ORDER BY e.name_key LIMIT ? OFFSET ?`,
  );

  return {
    /** Every entity's id and name, oldest first (the Markdown export's file names). */
    names: () => allNames.all() as { id: number; name: string }[],
    /** Sets an entity's type and meta; the caller audits (the Markdown import). */
    setTypeMeta(id: number, type: string, meta: Record<string, unknown>) {
      setTypeMeta.run(type, JSON.stringify(meta), clock.now(), id);
    },
    /** Sets an entity's type, known or not (entity management); the caller audits. */
    setType: (id: number, type: string) => void setType.run(type, clock.now(), id),
    /** Fills in the type of an entity still `unknown` (entity-types.ts); a known type stays. */
    fillType: (id: number, type: string) => void fillType.run(type, clock.now(), id),
    /** Replaces an entity's meta (JSON text) as of `now` (the voices tier's provisional speakers). */
    setMeta: (id: number, meta: string, now: number) => void setMeta.run(meta, now, id),
    /** Deletes the entity row (forget-entity: the caller removed its memories and their vectors first). */
    delete: (id: number) => void remove.run(id),
    /** The entity `name` names — its own name or one of its aliases — or undefined. */
    find(name: string): EntityRow | undefined {
      const key = nameKey(name);
      return parse((byKey.get(key) ?? byAlias.get(key)) as RawEntity | undefined);
    },
    /** An entity's other names, oldest first. */
    aliases(entityId: number): { alias: string; source: string; created: number }[] {
      return aliasesOf.all(entityId) as { alias: string; source: string; created: number }[];
    },
    /** The entity, or a not_found error naming `field` (the request field that held the name). */
    get(name: string, field = 'entity_name'): EntityRow {
      const row = this.find(name);
      if (!row) throw notFound(`${field}: no entity named "${name}"`);
      return row;
    },
    byId(id: number): EntityRow | undefined {
      return parse(byId.get(id) as RawEntity | undefined);
    },
    /**
     * Returns the entity, creating it with `type` (default `unknown`) if it does not exist yet;
     * a type given for an entity still `unknown` fills it in (entity-types.ts). `kept` (only
     * `hearth import`) gives a new entity the meta and times it had in the store it is copied from;
     * an existing entity keeps its own.
     */
    ensure(
      name: string,
      type: string = UNKNOWN_TYPE,
      kept?: { meta: Record<string, unknown>; created: number; updated: number },
    ): EntityRow & { created_now: boolean } {
      const found = this.find(name);
      if (found && found.type === UNKNOWN_TYPE && type !== UNKNOWN_TYPE) {
        fillType.run(type, clock.now(), found.id);
        return { ...found, type, created_now: false };
      }
      if (found) return { ...found, created_now: false };
      const now = clock.now();
      const meta = kept?.meta ?? {};
      const created = kept?.created ?? now;
      const updated = kept?.updated ?? now;
      const { lastInsertRowid } = insert.run(name, nameKey(name), type, JSON.stringify(meta), created, updated);
      return { id: Number(lastInsertRowid), name, type, meta, created, updated, created_now: true };
    },
    list(opts: { type?: string; limit?: number; offset?: number } = {}) {
      const { type, limit = 500, offset = 0 } = opts;
      const rows = (type ? listByType.all(type, limit, offset) : list.all(limit, offset)) as (RawEntity & {
        memory_count: number;
      })[];
      return rows.map((r) => ({ ...parse(r)!, memory_count: r.memory_count }));
    },
  };
}
export type EntitiesRepo = ReturnType<typeof createEntitiesRepo>;
