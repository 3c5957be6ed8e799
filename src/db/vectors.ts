/**
 * The sqlite-vec index of memory vectors (SPEC §3, §4). Derived data: rebuildable from `memories`.
 *
 * `embed_meta` fingerprints the model and dimension that made every stored vector. When the
 * configured embedder differs, the index is *stale*: vector search is off (recall falls back to
 * keyword and says so) and new writes are left `pending` until `hearth reembed` rebuilds the index —
 * vectors of two models are never mixed.
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

  const createTable = (dim: number) =>
    db.exec(
      `CREATE VIRTUAL TABLE IF NOT EXISTS memory_vectors USING vec0(
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
  let upsertStmt: Stmt | undefined;
  let deleteStmt: Stmt | undefined;
  let activeStmt: Stmt | undefined;
  const stmts = () => {
    upsertStmt ??= db.prepare(
      'INSERT INTO memory_vectors (memory_id, embedding, entity_id, active, category) VALUES (?, ?, ?, ?, ?)',
    ) as Stmt;
    deleteStmt ??= db.prepare('DELETE FROM memory_vectors WHERE memory_id = ?') as Stmt;
    activeStmt ??= db.prepare('UPDATE memory_vectors SET active = ? WHERE memory_id = ?') as Stmt;
    return { upsertStmt, deleteStmt, activeStmt };
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
      if (state !== 'ready') return;
      stmts().deleteStmt.run(BigInt(memoryId));
    },
    setActive(memoryId: number, active: boolean): void {
      if (state !== 'ready') return;
      stmts().activeStmt.run(BigInt(active ? 1 : 0), BigInt(memoryId));
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
      const rows = prepared(`SELECT memory_id, distance FROM memory_vectors WHERE ${where.join(' AND ')} ORDER BY distance`)
        .all(...params) as { memory_id: number; distance: number }[];
      return rows.map((r) => ({ memory_id: Number(r.memory_id), similarity: 1 - r.distance }));
    },
    /** Drops the index and re-creates it for the current embedder; every memory becomes pending. */
    rebuild(): void {
      db.transaction(() => {
        db.exec('DROP TABLE IF EXISTS memory_vectors');
        db.prepare('DELETE FROM embed_meta').run();
        db.prepare("UPDATE memories SET embed_state = 'pending'").run();
      })();
      upsertStmt = deleteStmt = activeStmt = undefined;
      refresh();
    },
  };
}
export type VectorStore = ReturnType<typeof createVectorStore>;
