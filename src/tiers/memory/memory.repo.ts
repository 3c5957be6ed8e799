/** SQL for memories and their keyword index. Callers own transactions. */
import type { Db } from '../../db/open.js';
import { statementCache } from '../../db/statements.js';

export interface MemoryRow {
  id: number;
  entity_id: number;
  entity_name: string;
  fact: string;
  category: string;
  confidence: number;
  source: string;
  source_trust: number;
  fact_key: string | null;
  created: number;
  updated: number;
  last_confirmed: number;
  last_accessed: number | null;
  access_count: number;
  superseded_by: number | null;
  valid_from: number;
  valid_until: number | null;
  status: 'active' | 'superseded' | 'contested';
  embed_state: 'ok' | 'pending';
}

export type NewMemory = Pick<
  MemoryRow,
  'entity_id' | 'fact' | 'category' | 'confidence' | 'source' | 'source_trust' | 'fact_key' | 'valid_from' | 'status'
>;

/** A copied memory's own times and access count (memory.repo insert's `kept`). */
export type KeptTimes = Pick<MemoryRow, 'created' | 'updated' | 'last_confirmed' | 'last_accessed' | 'access_count'>;

const SELECT = 'SELECT m.*, e.name AS entity_name FROM memories m JOIN entities e ON e.id = m.entity_id';

/** Filters shared by keyword search and post-filtering of vector hits. */
export interface MemoryFilter {
  entityId?: number;
  category?: string;
  minTrust?: number;
  /** include superseded and contested rows */
  includeSuperseded?: boolean;
  /** valid at this time (epoch s): valid_from ≤ t < valid_until; contested rows never count */
  asOf?: number;
}

export function filterSql(f: MemoryFilter): { sql: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  if (f.entityId !== undefined) clauses.push('m.entity_id = ?'), params.push(f.entityId);
  if (f.category !== undefined) clauses.push('m.category = ?'), params.push(f.category);
  if (f.minTrust) clauses.push('m.source_trust >= ?'), params.push(f.minTrust);
  if (f.asOf !== undefined) {
    clauses.push("m.status != 'contested' AND m.valid_from <= ? AND (m.valid_until IS NULL OR m.valid_until > ?)");
    params.push(f.asOf, f.asOf);
  } else if (!f.includeSuperseded) clauses.push("m.status = 'active'");
  return { sql: clauses.length ? clauses.join(' AND ') : '1', params };
}

/**
 * The one statement that supersedes a memory, here and in a merge (merge.repo.ts): `run(by, at,
 * now, id)` ends it at `at`, never before it began.
 */
export const supersedeStatement = (db: Db) =>
  db.prepare(
    "UPDATE memories SET status = 'superseded', superseded_by = ?, valid_until = max(valid_from, ?), updated = ? WHERE id = ?",
  );

export function createMemoryRepo(db: Db) {
  const prepared = statementCache(db);
  const insert = db.prepare(
    `INSERT INTO memories (entity_id, fact, category, confidence, source, source_trust, fact_key, created, updated,
                           last_confirmed, valid_from, status)
     VALUES (@entity_id, @fact, @category, @confidence, @source, @source_trust, @fact_key, @now, @now, @now, @valid_from, @status)`,
  );
  const insertKept = db.prepare(
    `INSERT INTO memories (entity_id, fact, category, confidence, source, source_trust, fact_key, created, updated,
                           last_confirmed, last_accessed, access_count, valid_from, status)
     VALUES (@entity_id, @fact, @category, @confidence, @source, @source_trust, @fact_key, @created, @updated,
             @last_confirmed, @last_accessed, @access_count, @valid_from, @status)`,
  );
  const byId = db.prepare(`${SELECT} WHERE m.id = ?`);
  const activeByKey = db.prepare(
    `${SELECT} WHERE m.entity_id = ? AND m.fact_key = ? AND m.status = 'active' ORDER BY m.valid_from DESC LIMIT 1`,
  );
  const activeFact = db
    .prepare("SELECT 1 FROM memories WHERE entity_id = ? AND fact = ? AND status = 'active'")
    .pluck();
  const contestedByKey = db.prepare(`${SELECT} WHERE m.entity_id = ? AND m.fact_key = ? AND m.status = 'contested'`);
  const reinforce = db.prepare(
    'UPDATE memories SET confidence = max(confidence, ?), last_confirmed = ?, updated = ? WHERE id = ?',
  );
  const adoptKey = db.prepare('UPDATE memories SET fact_key = ?, updated = ? WHERE id = ? AND fact_key IS NULL');
  const supersede = supersedeStatement(db);
  const setEmbedded = db.prepare("UPDATE memories SET embed_state = 'ok' WHERE id = ?");
  const ftsInsert = db.prepare('INSERT INTO memory_fts (rowid, terms) VALUES (?, ?)');
  const ftsDelete = db.prepare('DELETE FROM memory_fts WHERE rowid = ?');
  const del = db.prepare('DELETE FROM memories WHERE id = ?');
  const touch = db.prepare(
    'UPDATE memories SET last_accessed = max(coalesce(last_accessed, 0), ?), access_count = access_count + ? WHERE id = ?',
  );
  // Every memory has exactly one keyword row; counting memories uses a b-tree index instead of scanning FTS5.
  const docCount = db.prepare('SELECT count(*) AS n FROM memories');
  const maxId = db.prepare('SELECT max(id) AS n FROM memories');
  const ofEntity = db.prepare(`${SELECT} WHERE m.entity_id = ? AND m.status = 'active' ORDER BY m.category, m.id`);
  const idsOfEntity = db.prepare('SELECT id FROM memories WHERE entity_id = ?');
  const entityActive = db.prepare("SELECT id FROM memories WHERE entity_id = ? AND status = 'active' LIMIT ?");
  const activeIdsOf = db.prepare(
    "SELECT id FROM memories WHERE entity_id = ? AND category = ? AND status = 'active' ORDER BY id DESC LIMIT ?",
  );
  const pending = db.prepare(`${SELECT} WHERE m.embed_state = 'pending' ORDER BY m.id LIMIT ?`);
  const pendingCount = db.prepare("SELECT count(*) AS n FROM memories WHERE embed_state = 'pending'");
  const after = db.prepare(
    `SELECT m.id, m.entity_id, m.category, m.status, m.fact, e.name AS entity_name
       FROM memories m JOIN entities e ON e.id = m.entity_id WHERE m.id > ? ORDER BY m.id LIMIT ?`,
  );
  const countUpTo = db.prepare('SELECT count(*) AS n FROM memories WHERE id <= ?');

  return {
    /**
     * Stores a memory and its keyword row. `kept` (only `hearth import`, io/memory-mcp.ts) keeps the
     * bookkeeping of a memory copied from another store instead of stamping it `now`.
     */
    insert(m: NewMemory, terms: string, now: number, kept?: KeptTimes): number {
      const id = Number((kept ? insertKept.run({ ...m, ...kept }) : insert.run({ ...m, now })).lastInsertRowid);
      ftsInsert.run(id, terms);
      return id;
    },
    get: (id: number) => byId.get(id) as MemoryRow | undefined,
    activeByKey: (entityId: number, key: string) => activeByKey.get(entityId, key) as MemoryRow | undefined,
    /** Whether the entity holds exactly this fact, active. */
    hasActiveFact: (entityId: number, fact: string) => activeFact.get(entityId, fact) !== undefined,
    contestedByKey: (entityId: number, key: string) => contestedByKey.all(entityId, key) as MemoryRow[],
    reinforce: (id: number, confidence: number, now: number) => void reinforce.run(confidence, now, now, id),
    supersede: (id: number, by: number, at: number, now: number) => void supersede.run(by, at, now, id),
    /** Gives a memory stored without a fact_key that key (a keyed remember of the same fact). */
    adoptKey: (id: number, key: string, now: number) => void adoptKey.run(key, now, id),
    markEmbedded: (id: number) => void setEmbedded.run(id),
    /** Deletes a memory and its keyword row (the vector is the vector store's). */
    delete(id: number): void {
      ftsDelete.run(id);
      del.run(id);
    },
    /** Access bumps (id → times read, last read), in one transaction: one fsync for all of them. */
    touch: db.transaction((bumps: Map<number, { n: number; at: number }>): void => {
      for (const [id, b] of bumps) touch.run(b.at, b.n, id);
    }),
    byIds(ids: number[], filter: MemoryFilter = {}): MemoryRow[] {
      if (!ids.length) return [];
      const f = filterSql(filter);
      return prepared(`${SELECT} WHERE m.id IN (${ids.map(() => '?').join(',')}) AND ${f.sql}`).all(
        ...ids,
        ...f.params,
      ) as MemoryRow[];
    },
    /** FTS5 BM25 over normalised terms. `match` must already be a safe FTS expression of quoted literals. */
    keyword(match: string, limit: number, filter: MemoryFilter): (MemoryRow & { bm25: number; terms: string })[] {
      const f = filterSql(filter);
      return prepared(
        `SELECT m.*, e.name AS entity_name, bm25(memory_fts) AS bm25, memory_fts.terms AS terms
             FROM memory_fts JOIN memories m ON m.id = memory_fts.rowid JOIN entities e ON e.id = m.entity_id
            WHERE memory_fts MATCH ? AND ${f.sql}
            ORDER BY bm25 LIMIT ?`,
      ).all(match, ...f.params, limit) as (MemoryRow & { bm25: number; terms: string })[];
    },
    /** The facts each of `ids` directly replaced (status superseded, superseded_by one of them): [old id, new id]. */
    predecessors(ids: number[]): [number, number][] {
      if (!ids.length) return [];
      return (
        prepared(
          `SELECT id, superseded_by AS by FROM memories WHERE superseded_by IN (${ids.map(() => '?').join(',')}) AND status = 'superseded'`,
        ).all(...ids) as { id: number; by: number }[]
      ).map((r) => [r.id, r.by]);
    },
    termsOf(ids: number[]): Map<number, string> {
      if (!ids.length) return new Map();
      const rows = prepared(
        `SELECT rowid AS id, terms FROM memory_fts WHERE rowid IN (${ids.map(() => '?').join(',')})`,
      ).all(...ids) as { id: number; terms: string }[];
      return new Map(rows.map((r) => [r.id, r.terms]));
    },
    /** The entity of each memory. */
    entityIdsOf(ids: number[]): Map<number, number> {
      if (!ids.length) return new Map();
      const rows = prepared(`SELECT id, entity_id FROM memories WHERE id IN (${ids.map(() => '?').join(',')})`).all(
        ...ids,
      ) as { id: number; entity_id: number }[];
      return new Map(rows.map((r) => [r.id, r.entity_id]));
    },
    /** Document frequency of each term in the keyword index, and the number of documents. */
    docFreq(terms: string[]): { df: Map<string, number>; n: number } {
      const n = (docCount.get() as { n: number }).n;
      if (!terms.length) return { df: new Map(), n };
      const rows = prepared(`SELECT term, doc FROM memory_vocab WHERE term IN (${terms.map(() => '?').join(',')})`).all(
        ...terms,
      ) as { term: string; doc: number }[];
      return { df: new Map(rows.map((r) => [r.term, r.doc])), n };
    },
    ofEntity: (entityId: number) => ofEntity.all(entityId) as MemoryRow[],
    /** The highest memory id ever stored (0 for none): ids are never reused. */
    maxId: () => (maxId.get() as { n: number | null }).n ?? 0,
    /** Up to `limit` active ids of one entity and category, newest first. */
    activeIdsOf: (entityId: number, category: string, limit: number) =>
      (activeIdsOf.all(entityId, category, limit) as { id: number }[]).map((r) => r.id),
    /** All current ids of an entity when it has at most `limit` of them, else none (recall's scoped question). */
    smallEntityIds(entityId: number, limit: number): number[] {
      const ids = (entityActive.all(entityId, limit + 1) as { id: number }[]).map((r) => r.id);
      return ids.length <= limit ? ids : [];
    },
    idsOfEntity: (entityId: number) => (idsOfEntity.all(entityId) as { id: number }[]).map((r) => r.id),
    pending: (limit: number) => pending.all(limit) as MemoryRow[],
    pendingCount: () => (pendingCount.get() as { n: number }).n,
    /** How many memories there are (all of them, any status). */
    count: () => (docCount.get() as { n: number }).n,
    /** How many memories have an id up to `id` (a re-embed's progress at its cursor). */
    countUpTo: (id: number) => (countUpTo.get(id) as { n: number }).n,
    /** Up to `limit` memories after id `cursor`, in id order, with what their vectors need (reembed.ts). */
    after: (cursor: number, limit: number) =>
      after.all(cursor, limit) as Pick<
        MemoryRow,
        'id' | 'entity_id' | 'category' | 'status' | 'fact' | 'entity_name'
      >[],
    /** All active rows (optionally of one entity) — for decay listings. */
    active(entityId?: number): MemoryRow[] {
      return (
        entityId === undefined
          ? prepared(`${SELECT} WHERE m.status = 'active'`).all()
          : prepared(`${SELECT} WHERE m.status = 'active' AND m.entity_id = ?`).all(entityId)
      ) as MemoryRow[];
    },
  };
}
export type MemoryRepo = ReturnType<typeof createMemoryRepo>;
