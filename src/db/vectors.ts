/**
 * The sqlite-vec index of memory vectors (SPEC §3, §4). Derived data: rebuildable from `memories`.
 *
 * `embed_meta` fingerprints the model and dimension that made every stored vector. When the
 * configured embedder differs, the index is *stale*: vector search is off (recall falls back to
 * keyword and says so) and new writes are left `pending` until `hearth reembed` rebuilds the index —
 * vectors of two models are never mixed.
 *
 * Switching models without a gap (`rebuildBeside` → `putNext` … → `swapNext`): the new model's
 * vectors are written into a second vec0 table beside the live one while the live index (stale for
 * the new model, so recall answers by keyword) keeps serving; the swap — drop the old table, point
 * `vector_index.live` at the new one, rewrite `embed_meta` — is one transaction, so a crash
 * mid-rebuild leaves the old index and a resumable cursor. vec0 cannot `ALTER TABLE … RENAME`
 * (its shadow tables keep the old name), hence two names used in turn and a pointer row.
 *
 * vec0 wants BigInt for integer keys and INTEGER metadata columns (JS numbers are rejected).
 * Metadata columns `entity_id`, `active` and `category` let the KNN query filter inside the index,
 * so entity-scoped recall stays exact instead of post-filtering a global top-k.
 */
import type { Db } from './open.js';
import { statementCache } from './statements.js';
import type { Embedder } from '../ai/types.js';

export type VectorState = 'ready' | 'stale';

export interface VectorHit {
  memory_id: number;
  /** Cosine similarity in [-1, 1]. */
  similarity: number;
}

export interface KnnFilter {
  entityId?: number;
  activeOnly?: boolean;
  category?: string;
}

export function createVectorStore(db: Db, embedder: Embedder) {
  const prepared = statementCache(db);
  let state: VectorState = 'stale';
  let stored: { provider: string; model: string; dim: number } | undefined;

  // Which vec0 table is live, and the one being built beside it (created here, like the vec0 tables:
  // derived data, no migration).
  db.exec(`CREATE TABLE IF NOT EXISTS vector_index (
    id INTEGER PRIMARY KEY CHECK (id = 1), live TEXT NOT NULL,
    next TEXT, next_model TEXT, next_dim INTEGER, next_cursor INTEGER NOT NULL DEFAULT 0)`);
  db.prepare("INSERT OR IGNORE INTO vector_index (id, live) VALUES (1, 'memory_vectors')").run();
  type IndexRow = { live: string; next: string | null; next_model: string | null; next_dim: number | null; next_cursor: number };
  const indexRow = () => db.prepare('SELECT live, next, next_model, next_dim, next_cursor FROM vector_index WHERE id = 1').get() as IndexRow;
  let live = indexRow().live;
  const other = (name: string) => (name === 'memory_vectors' ? 'memory_vectors_b' : 'memory_vectors');

  const createTable = (dim: number, name = live) =>
    db.exec(
      `CREATE VIRTUAL TABLE IF NOT EXISTS ${name} USING vec0(
         memory_id INTEGER PRIMARY KEY,
         embedding float[${dim}] distance_metric=cosine,
         entity_id INTEGER,
         active INTEGER,
         category TEXT
       )`,
    );

  const refresh = () => {
    stored = db.prepare('SELECT provider, model, dim FROM embed_meta WHERE id = 1').get() as typeof stored;
    if (!stored) {
      db.transaction(() => {
        createTable(embedder.dim);
        db.prepare('INSERT INTO embed_meta (id, provider, model, dim, updated) VALUES (1, ?, ?, ?, ?)').run(
          embedder.provider,
          embedder.model,
          embedder.dim,
          Date.now() / 1000,
        );
      })();
      stored = { provider: embedder.provider, model: embedder.model, dim: embedder.dim };
    }
    state = stored.model === embedder.model && stored.dim === embedder.dim ? 'ready' : 'stale';
  };
  refresh();

  type Stmt = ReturnType<Db['prepare']> & { run(...params: unknown[]): unknown };
  const tableStmts = (name: string) => ({
    upsertStmt: db.prepare(`INSERT INTO ${name} (memory_id, embedding, entity_id, active, category) VALUES (?, ?, ?, ?, ?)`) as Stmt,
    deleteStmt: db.prepare(`DELETE FROM ${name} WHERE memory_id = ?`) as Stmt,
    activeStmt: db.prepare(`UPDATE ${name} SET active = ? WHERE memory_id = ?`) as Stmt,
  });
  let liveStmts: ReturnType<typeof tableStmts> | undefined;
  const stmts = () => (liveStmts ??= tableStmts(live));
  let nextStmts: ReturnType<typeof tableStmts> | undefined;
  /** The table being built for the current embedder, if any. */
  const building = () => {
    const r = indexRow();
    return r.next && r.next_model === embedder.model && r.next_dim === embedder.dim ? r : undefined;
  };
  const next = () => {
    const r = building();
    if (!r) return undefined;
    return (nextStmts ??= tableStmts(r.next!));
  };

  return {
    get state() {
      return state;
    },
    /** What the index holds, for /health and doctor. */
    get stored() {
      return stored;
    },
    staleReason(): string {
      return `stored vectors were made by ${stored?.model}:${stored?.dim} but the embedder is ${embedder.fingerprint}; run \`hearth reembed\``;
    },
    /** Stores one vector; caller runs inside its transaction. No-op (returns false) when stale. */
    put(memoryId: number, entityId: number, category: string, active: boolean, vector: Float32Array): boolean {
      if (state !== 'ready') return false;
      const { upsertStmt } = stmts();
      // vec0 has no UPSERT semantics for the primary key: delete first.
      stmts().deleteStmt.run(BigInt(memoryId));
      upsertStmt.run(BigInt(memoryId), vector, BigInt(entityId), BigInt(active ? 1 : 0), category);
      return true;
    },
    remove(memoryId: number): void {
      next()?.deleteStmt.run(BigInt(memoryId));
      if (state !== 'ready') return;
      stmts().deleteStmt.run(BigInt(memoryId));
    },
    setActive(memoryId: number, active: boolean): void {
      next()?.activeStmt.run(BigInt(active ? 1 : 0), BigInt(memoryId));
      if (state !== 'ready') return;
      stmts().activeStmt.run(BigInt(active ? 1 : 0), BigInt(memoryId));
    },
    /**
     * Starts (or resumes) building an index for the current embedder beside the live one; returns
     * the memory id the build has reached (0 when new). Only while `state` is stale.
     */
    rebuildBeside(): number {
      const r = building();
      if (r) return r.next_cursor;
      const name = other(live);
      db.transaction(() => {
        db.exec(`DROP TABLE IF EXISTS ${name}`);
        createTable(embedder.dim, name);
        db.prepare('UPDATE vector_index SET next = ?, next_model = ?, next_dim = ?, next_cursor = 0 WHERE id = 1').run(name, embedder.model, embedder.dim);
      })();
      nextStmts = undefined;
      return 0;
    },
    /** Stores one vector in the index being built and advances its cursor; caller runs inside its transaction. */
    putNext(memoryId: number, entityId: number, category: string, active: boolean, vector: Float32Array | null): void {
      const n = next();
      if (!n) throw new Error('no index is being built');
      n.deleteStmt.run(BigInt(memoryId));
      if (vector && vector.some((x) => x !== 0)) n.upsertStmt.run(BigInt(memoryId), vector, BigInt(entityId), BigInt(active ? 1 : 0), category);
      db.prepare('UPDATE vector_index SET next_cursor = max(next_cursor, ?) WHERE id = 1').run(memoryId);
    },
    /** Vectors in the index being built (progress), or null when none is. */
    nextCount(): number | null {
      const r = building();
      return r ? (db.prepare(`SELECT count(*) AS n FROM ${r.next}`).get() as { n: number }).n : null;
    },
    /**
     * Makes the built index live in one transaction: drops the old one, records the new fingerprint,
     * marks every memory with a vector in it embedded (the rest pending). Returns false if none was built.
     */
    swapNext(): boolean {
      const r = building();
      if (!r) return false;
      db.transaction(() => {
        db.exec(`DROP TABLE IF EXISTS ${live}`);
        db.prepare('UPDATE vector_index SET live = next, next = NULL, next_model = NULL, next_dim = NULL, next_cursor = 0 WHERE id = 1').run();
        db.prepare('DELETE FROM embed_meta').run();
        db.prepare('INSERT INTO embed_meta (id, provider, model, dim, updated) VALUES (1, ?, ?, ?, ?)').run(embedder.provider, embedder.model, embedder.dim, Date.now() / 1000);
        db.prepare(`UPDATE memories SET embed_state = CASE WHEN id <= ? THEN 'ok' ELSE 'pending' END`).run(r.next_cursor);
      })();
      live = r.next!;
      liveStmts = nextStmts = undefined;
      refresh();
      return true;
    },
    /**
     * Cosine of `vector` with each of `ids` by point lookups — for a handful of ids (one entity's
     * facts) far cheaper than a KNN, whose metadata filter still scans every stored vector.
     */
    similarTo(vector: Float32Array, ids: number[]): VectorHit[] {
      if (state !== 'ready' || !ids.length) return [];
      const one = prepared(`SELECT vec_distance_cosine(embedding, ?) AS distance FROM ${live} WHERE memory_id = ?`);
      const out: VectorHit[] = [];
      for (const id of ids) {
        const r = one.get(vector, BigInt(id)) as { distance: number } | undefined;
        if (r) out.push({ memory_id: id, similarity: 1 - r.distance });
      }
      return out.sort((a, b) => b.similarity - a.similarity);
    },
    /** K nearest memories by cosine, filtered inside the index. */
    knn(vector: Float32Array, k: number, filter: KnnFilter = {}): VectorHit[] {
      if (state !== 'ready') return [];
      const where = ['embedding MATCH ?', 'k = ?'];
      const params: unknown[] = [vector, BigInt(k)];
      if (filter.entityId !== undefined) {
        where.push('entity_id = ?');
        params.push(BigInt(filter.entityId));
      }
      if (filter.activeOnly) where.push('active = 1');
      if (filter.category !== undefined) {
        where.push('category = ?');
        params.push(filter.category);
      }
      const rows = prepared(`SELECT memory_id, distance FROM ${live} WHERE ${where.join(' AND ')} ORDER BY distance`)
        .all(...params) as { memory_id: number; distance: number }[];
      return rows.map((r) => ({ memory_id: Number(r.memory_id), similarity: 1 - r.distance }));
    },
    /** Drops the index and re-creates it for the current embedder; every memory becomes pending. */
    rebuild(): void {
      db.transaction(() => {
        db.exec(`DROP TABLE IF EXISTS ${live}`);
        const r = indexRow();
        if (r.next) db.exec(`DROP TABLE IF EXISTS ${r.next}`);
        db.prepare('UPDATE vector_index SET next = NULL, next_model = NULL, next_dim = NULL, next_cursor = 0 WHERE id = 1').run();
        db.prepare('DELETE FROM embed_meta').run();
        db.prepare("UPDATE memories SET embed_state = 'pending'").run();
      })();
      liveStmts = nextStmts = undefined;
      refresh();
    },
  };
}
export type VectorStore = ReturnType<typeof createVectorStore>;
