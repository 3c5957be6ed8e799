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
 *
 * Large indexes are searched in two stages. vec0 scans every vector (no ANN index, no SIMD in the
 * npm build): a float KNN over 384-dim vectors costs ~4 ms at 10k memories and ~20 ms at 50k. Each
 * row also keeps `coarse`, the vector's signs as bits (`vec_quantize_binary`, 1/32 of the bytes).
 * From `coarseFrom` vectors (20k) on, a KNN over the bits picks max(2k, 100) candidates and their
 * float vectors are re-scored exactly by cosine: a third of the cost at 50k, agreeing with the float
 * KNN on ~97 % of the top ten (`npm run bench` prints the agreement). Smaller indexes, and
 * dimensions not divisible by 8 (no `coarse` column), use the exact float KNN. Tables made before
 * `coarse` existed are upgraded when opened.
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

/** Fewest coarse candidates re-scored. */
const COARSE_MIN = 100;

export function createVectorStore(db: Db, embedder: Embedder, opts: { coarseFrom?: number } = {}) {
  const coarseFrom = opts.coarseFrom ?? 20_000;
  /** Vectors in the index (counted at open, then kept by put/remove: it only picks the search path). */
  let size = 0;
  const prepared = statementCache(db);
  let state: VectorState = 'stale';
  let stored: { provider: string; model: string; dim: number } | undefined;

  const createTable = (dim: number) =>
    db.exec(
      `CREATE VIRTUAL TABLE IF NOT EXISTS memory_vectors USING vec0(
         memory_id INTEGER PRIMARY KEY,
         embedding float[${dim}] distance_metric=cosine,
         ${dim % 8 === 0 ? `coarse bit[${dim}],` : ''}
         entity_id INTEGER,
         active INTEGER,
         category TEXT
       )`,
    );
  const tableSql = () => (db.prepare("SELECT sql FROM sqlite_master WHERE name = 'memory_vectors'").pluck().get() as string | undefined) ?? '';
  let coarse = false;

  /** Adds `coarse` to a table from before it existed. vec0 tables crash after a RENAME, so the rows go through a plain table. */
  const upgrade = (dim: number) =>
    db.transaction(() => {
      db.exec(`CREATE TEMP TABLE vectors_upgrade AS SELECT memory_id, embedding, entity_id, active, category FROM memory_vectors;
               DROP TABLE memory_vectors;`);
      createTable(dim);
      db.exec(`INSERT INTO memory_vectors (memory_id, embedding, coarse, entity_id, active, category)
               SELECT memory_id, embedding, vec_quantize_binary(embedding), entity_id, active, category FROM temp.vectors_upgrade;
               DROP TABLE temp.vectors_upgrade;`);
    })();

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
    if (stored.dim % 8 === 0 && tableSql() && !/\bcoarse\b/.test(tableSql())) upgrade(stored.dim);
    coarse = /\bcoarse\b/.test(tableSql());
    size = tableSql() ? (db.prepare('SELECT count(*) FROM memory_vectors').pluck().get() as number) : 0;
  };
  refresh();

  /** One vec0 KNN over `column`; for `coarse` the distance is Hamming, so only the order is used. */
  function search(column: 'embedding' | 'coarse', vector: Float32Array, k: number, filter: KnnFilter): VectorHit[] {
    const where = [column === 'coarse' ? 'coarse MATCH vec_quantize_binary(?)' : 'embedding MATCH ?', 'k = ?'];
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
  }

  type Stmt = ReturnType<Db['prepare']> & { run(...params: unknown[]): { changes: number } };
  let upsertStmt: Stmt | undefined;
  let deleteStmt: Stmt | undefined;
  let activeStmt: Stmt | undefined;
  const stmts = () => {
    upsertStmt ??= db.prepare(
      coarse
        ? 'INSERT INTO memory_vectors (memory_id, embedding, coarse, entity_id, active, category) VALUES (@id, @v, vec_quantize_binary(@v), @entity, @active, @category)'
        : 'INSERT INTO memory_vectors (memory_id, embedding, entity_id, active, category) VALUES (@id, @v, @entity, @active, @category)',
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
      size -= stmts().deleteStmt.run(BigInt(memoryId)).changes;
      size++;
      upsertStmt.run({ id: BigInt(memoryId), v: vector, entity: BigInt(entityId), active: BigInt(active ? 1 : 0), category });
      return true;
    },
    remove(memoryId: number): void {
      if (state !== 'ready') return;
      size -= stmts().deleteStmt.run(BigInt(memoryId)).changes;
    },
    setActive(memoryId: number, active: boolean): void {
      if (state !== 'ready') return;
      stmts().activeStmt.run(BigInt(active ? 1 : 0), BigInt(memoryId));
    },
    /** K nearest memories by cosine, filtered inside the index: coarse candidates re-scored exactly (see top). */
    knn(vector: Float32Array, k: number, filter: KnnFilter = {}): VectorHit[] {
      if (state !== 'ready') return [];
      if (!coarse || size < coarseFrom) return search('embedding', vector, k, filter);
      const candidates = search('coarse', vector, Math.max(2 * k, COARSE_MIN), filter);
      const exact = prepared('SELECT vec_distance_cosine(embedding, ?) FROM memory_vectors WHERE memory_id = ?').pluck();
      return candidates
        .map((c) => ({ memory_id: c.memory_id, similarity: 1 - (exact.get(vector, BigInt(c.memory_id)) as number) }))
        .sort((a, b) => b.similarity - a.similarity || a.memory_id - b.memory_id)
        .slice(0, k);
    },
    /** The float KNN over every vector (the bench's reference for `knn`'s agreement). */
    knnExact(vector: Float32Array, k: number, filter: KnnFilter = {}): VectorHit[] {
      return state === 'ready' ? search('embedding', vector, k, filter) : [];
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
