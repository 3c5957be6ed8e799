/**
 * SQL for intentions (migration 005): the `intentions` rows, their `intention_fts` keyword index, and
 * the person names a trigger may mention. Callers own transactions; the row's shape is intention-rows.ts.
 */
import type { Db } from '../../db/open.js';
import type { Row } from './intention-rows.js';

const SELECT = `SELECT i.*, e.name AS entity_name, f.terms AS terms
  FROM intentions i JOIN entities e ON e.id = i.entity_id JOIN intention_fts f ON f.rowid = i.id`;
/** Active, unexpired at `@now`, of `@entity` (null: everyone's). */
const LIVE =
  'i.active = 1 AND (i.expires_at IS NULL OR i.expires_at > @now) AND (@entity IS NULL OR i.entity_id = @entity)';

/** `@now` and `@entity` (null: everyone's) of the live filter. */
export interface LiveParams {
  now: number;
  entity: number | null;
}

export interface NewIntention {
  entity_id: number;
  trigger_text: string;
  action_text: string;
  once: boolean;
  expires_at: number | null;
  created: number;
}

export function createProspectiveRepo(db: Db) {
  // intentions
  const insert = db.prepare(
    `INSERT INTO intentions (entity_id, trigger_text, action_text, once, expires_at, created, embedding, embed_model)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertImported = db.prepare(
    'INSERT INTO intentions (entity_id, trigger_text, action_text, active, once, expires_at, created, fired_count, last_fired) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const byId = db.prepare(`${SELECT} WHERE i.id = ?`);
  const keyword = db.prepare(`${SELECT} WHERE intention_fts MATCH @match AND ${LIVE}`);
  const live = db.prepare(`${SELECT} WHERE ${LIVE}`);
  const listLive = db.prepare(`${SELECT} WHERE ${LIVE} ORDER BY i.id DESC`);
  const listAll = db.prepare(`${SELECT} WHERE (@entity IS NULL OR i.entity_id = @entity) ORDER BY i.id DESC`);
  const setVector = db.prepare('UPDATE intentions SET embedding = ?, embed_model = ? WHERE id = ?');
  const fire = db.prepare(
    'UPDATE intentions SET fired_count = fired_count + 1, last_fired = @now, active = CASE WHEN once = 1 THEN 0 ELSE 1 END WHERE id = @id AND active = 1',
  );
  const deactivate = db.prepare('UPDATE intentions SET active = 0 WHERE id = ?');
  // intention_fts
  const indexTerms = db.prepare('INSERT INTO intention_fts (rowid, terms) VALUES (?, ?)');
  // Entities named without a type are `unknown` (entity-types.ts): a name in a trigger is still a name.
  // Their aliases too: "when Mum gets home" names a person as much as "when Anna gets home".
  const persons = db.prepare(
    `SELECT name FROM entities WHERE type IN ('person', 'unknown')
     UNION ALL SELECT a.alias FROM entity_aliases a JOIN entities e ON e.id = a.entity_id WHERE e.type IN ('person', 'unknown')`,
  );

  return {
    /** A new active intention with its trigger vector (or none yet); its id. */
    insert: (i: NewIntention, embedding: Buffer | null, embedModel: string | null) =>
      Number(
        insert.run(
          i.entity_id,
          i.trigger_text,
          i.action_text,
          i.once ? 1 : 0,
          i.expires_at,
          i.created,
          embedding,
          embedModel,
        ).lastInsertRowid,
      ),
    /** An importer's intention, keeping whether it is active and its firings; its id. */
    insertImported: (i: NewIntention, kept: { active: boolean; fired_count: number; last_fired: number | null }) =>
      Number(
        insertImported.run(
          i.entity_id,
          i.trigger_text,
          i.action_text,
          kept.active ? 1 : 0,
          i.once ? 1 : 0,
          i.expires_at,
          i.created,
          kept.fired_count,
          kept.last_fired,
        ).lastInsertRowid,
      ),
    /** The keyword index's row of an intention: its normalised trigger terms. */
    indexTerms: (id: number, terms: string[]) => void indexTerms.run(id, terms.join(' ')),
    get: (id: number) => byId.get(id) as Row | undefined,
    /** Live intentions whose trigger terms match `match` (an FTS5 query). */
    keyword: (match: string, p: LiveParams) => keyword.all({ ...p, match }) as Row[],
    live: (p: LiveParams) => live.all(p) as Row[],
    /** Newest first: the live ones (`activeOnly`), or every one of `p.entity` (null: everyone's). */
    list: (activeOnly: boolean, p: LiveParams) => (activeOnly ? listLive : listAll).all(p) as Row[],
    setVector: (id: number, embedding: Buffer, model: string | null) => void setVector.run(embedding, model, id),
    /** Counts a firing (a `once` one deactivates); false when it was no longer active. */
    fire: (id: number, now: number) => fire.run({ now, id }).changes === 1,
    deactivate: (id: number) => void deactivate.run(id),
    /** Names (and aliases) of people and of entities of no known type. */
    personNames: () => (persons.all() as { name: string }[]).map((p) => p.name),
  };
}
export type ProspectiveRepo = ReturnType<typeof createProspectiveRepo>;
