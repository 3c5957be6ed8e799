/**
 * The sqlite-vec index of memory vectors (SPEC §3, §4). Derived data: rebuildable from `memories`.
 *
 * `embed_meta` fingerprints the model and dimension that made every stored vector. When the
 * configured embedder differs, the index is *stale*: vector search is off (recall falls back to
 * keyword and says so) and new writes are left `pending` until `hearth reembed` rebuilds the index —
 * vectors of two models are never mixed.
 *
 * Layout: two tables per index. `<name>` is a vec0 table with the metadata columns `entity_id`,
 * `active` and `category`, so a KNN filters inside the index; `<name>_f` is a plain table of the exact
 * float32 vectors (primary-key lookups: the duplicate check, keyword candidates' cosines, re-ranking).
 * The vec0 column depends on the provider (`preferredLayout`): for dense neural embeddings it holds
 * *binary* codes (`bit[dim]`, one sign bit per dimension, 64 bytes for 512-d) and a search takes the
 * OVERSAMPLE × k nearest codes by Hamming distance, then re-ranks them by the exact cosine from
 * `<name>_f` — the similarities recall sees are exact, only the candidate set is approximate; for the
 * local embedder it holds the float vectors and the KNN is exact. Measured (docs/recall-quality.md,
 * `node dist/scripts/bench.js --only neural`, which prints the agreement with an exact float KNN):
 * at 50k use-lite vectors the code search is several times faster than the float scan (64 bytes read
 * per vector instead of 2 KB). sqlite-vec's `int8[]` was slower than `float[]` (no SIMD path in
 * 0.1.9). Indexes of the earlier layout (one `float[]` vec0 table) are converted at open, in one
 * transaction. The Hamming search itself runs over an in-memory copy of the vec0 codes and metadata
 * (`code-scan.ts`: 2.5–3.5 ms at 50k where vec0's `bit[]` KNN takes 15–17 ms); vec0 answers while
 * the copy loads.
 *
 * Switching models without a gap (`rebuildBeside` → `putNext` … → `swapNext`): the new model's
 * vectors are written into a second index beside the live one while the live index (stale for
 * the new model, so recall answers by keyword) keeps serving; the swap — drop the old tables, point
 * `vector_index.live` at the new one, rewrite `embed_meta` — is one transaction, so a crash
 * mid-rebuild leaves the old index and a resumable cursor. vec0 cannot `ALTER TABLE … RENAME`
 * (its shadow tables keep the old name), hence two names used in turn and a pointer row.
 *
 * vec0 wants BigInt for integer keys and INTEGER metadata columns (JS numbers are rejected).
 *
 * Parts: `vector-layout.ts` (the tables of one index, their statements, the layout conversion),
 * `vector-index.ts` (the live/next pointer, the fingerprint and state, other processes' commits),
 * `vector-codes.ts` (the in-memory code scan kept current); this file is the store callers use.
 */
import type { Db } from './open.js';
import { statementCache } from './statements.js';
import { createCodeCache } from './vector-codes.js';
import { createIndexState, otherTable, type VectorModel } from './vector-index.js';
import { dropTables, eraseVector, floatTable, blobVector, padded, tableExists, writeVector } from './vector-layout.js';

export { vectorsChanged } from './vector-codes.js';
export { floatTable, preferredLayout } from './vector-layout.js';
export type { VectorState } from './vector-index.js';

/** The embedder that made the stored vectors (`embed_meta`), as `hearth mcp`'s quick start reads it; undefined before any. */
export function storedEmbedder(db: Db): { provider: string; model: string; dim: number } | undefined {
  return db.prepare('SELECT provider, model, dim FROM embed_meta WHERE id = 1').get() as
    | { provider: string; model: string; dim: number }
    | undefined;
}

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

/** Codes fetched per result before the exact re-rank (agreement with exact search: the neural bench). */
export const OVERSAMPLE = 3;
/** …but never fewer than this many (small k still gets a wide enough net). */
const MIN_CODES = 180;

/** The vec0 tables of the live index and of one being built (for code that moves memories between entities). */
export function vectorTables(db: Db): string[] {
  if (!tableExists(db, 'vector_index')) return [];
  const r = db.prepare('SELECT live, next FROM vector_index WHERE id = 1').get() as
    | { live: string; next: string | null }
    | undefined;
  return [r?.live, r?.next].filter((n): n is string => !!n && tableExists(db, n));
}

export function createVectorStore(db: Db, embedder: VectorModel) {
  const prepared = statementCache(db);
  const ix = createIndexState(db, embedder, () => codes.drop());
  const codes = createCodeCache(db, prepared, ix);
  const clearIndex = 'next = NULL, next_model = NULL, next_dim = NULL, next_cursor = 0';

  /** Exact cosine of `vector` with each of `ids` from the float table, best first. */
  const exact = (vector: Float32Array, ids: number[]): VectorHit[] => {
    if (!ids.length) return [];
    const sql =
      `SELECT memory_id, vec_distance_cosine(embedding, ?) AS distance FROM ${floatTable(ix.live)} ` +
      'WHERE memory_id IN (SELECT value FROM json_each(?))';
    const rows = prepared(sql).all(vector, JSON.stringify(ids)) as { memory_id: number; distance: number }[];
    return rows
      .map((r) => ({ memory_id: r.memory_id, similarity: 1 - r.distance }))
      .sort((a, b) => b.similarity - a.similarity || a.memory_id - b.memory_id);
  };
  /** vec0's own KNN: exact for the `float` layout, `want` candidates by Hamming distance for `bit`. */
  const vecKnn = (vector: Float32Array, bit: boolean, want: number, filter: KnnFilter) => {
    const where = [bit ? 'embedding MATCH vec_quantize_binary(?)' : 'embedding MATCH ?', 'k = ?'];
    const params: unknown[] = [bit ? padded(vector) : vector, BigInt(want)];
    if (filter.entityId !== undefined) {
      where.push('entity_id = ?');
      params.push(BigInt(filter.entityId));
    }
    if (filter.activeOnly) where.push('active = 1');
    if (filter.category !== undefined) {
      where.push('category = ?');
      params.push(filter.category);
    }
    const sql = `SELECT memory_id, distance FROM ${ix.live} WHERE ${where.join(' AND ')} ORDER BY distance`;
    return prepared(sql).all(...params) as { memory_id: number | bigint; distance: number }[];
  };

  return {
    get state() {
      ix.sync();
      return ix.state;
    },
    /** The in-memory code scan: `ready` (searches use it), `loading` (vec0 answers meanwhile) or `off`. */
    get codes(): 'off' | 'loading' | 'ready' {
      return codes.status;
    },
    /** What the index holds, for /health and doctor. */
    get stored() {
      ix.sync();
      return ix.stored;
    },
    staleReason(): string {
      ix.sync();
      const { stored } = ix;
      const made =
        `stored vectors were made by ${stored?.model}:${stored?.dim} ` + `but the embedder is ${embedder.fingerprint}`;
      // A build for this embedder beside the live index, by this process or another (or left by one that stopped).
      const r = ix.building();
      if (!r) return `${made}; run \`hearth reembed\` (\`hearth serve\` also rebuilds in the background)`;
      const count = (sql: string, ...p: unknown[]) => (prepared(sql).get(...p) as { n: number }).n;
      const done = count('SELECT count(*) AS n FROM memories WHERE id <= ?', r.next_cursor);
      const along = `${done} of ${count('SELECT count(*) AS n FROM memories')}`;
      return (
        `${made}; a rebuild for it beside them is ${along} memories along ` +
        '(`hearth serve` and `hearth reembed` continue it); recall answers by keyword until it is done'
      );
    },
    /** Stores one vector; caller runs inside its transaction. No-op (returns false) when stale. */
    put(memoryId: number, entityId: number, category: string, active: boolean, vector: Float32Array): boolean {
      ix.sync();
      if (ix.state !== 'ready') return false;
      writeVector(ix.stmts(), memoryId, entityId, category, active, vector);
      codes.markDirty([memoryId]);
      return true;
    },
    remove(memoryId: number): void {
      ix.sync();
      const n = ix.next();
      if (n) eraseVector(n, memoryId);
      if (ix.state !== 'ready') return;
      eraseVector(ix.stmts(), memoryId);
      codes.markDirty([memoryId]);
    },
    setActive(memoryId: number, active: boolean): void {
      ix.sync();
      ix.next()?.activeStmt.run(BigInt(active ? 1 : 0), BigInt(memoryId));
      if (ix.state !== 'ready') return;
      ix.stmts().activeStmt.run(BigInt(active ? 1 : 0), BigInt(memoryId));
      codes.markDirty([memoryId]);
    },
    /**
     * Starts (or resumes) building an index for the current embedder beside the live one; returns
     * the memory id the build has reached (0 when new). Only while `state` is stale.
     */
    rebuildBeside(): number {
      ix.sync();
      const r = ix.building();
      if (r) return r.next_cursor;
      const name = otherTable(ix.live);
      db.transaction(() => {
        dropTables(db, name);
        ix.createTable(embedder.dim, name);
        db.prepare('UPDATE vector_index SET next = ?, next_model = ?, next_dim = ?, next_cursor = 0 WHERE id = 1').run(
          name,
          embedder.model,
          embedder.dim,
        );
      })();
      ix.forgetNext();
      return 0;
    },
    /** Stores one vector in the index being built and advances its cursor; caller runs inside its transaction. */
    putNext(memoryId: number, entityId: number, category: string, active: boolean, vector: Float32Array | null): void {
      ix.sync();
      const n = ix.next();
      if (!n) throw new Error('no index is being built');
      eraseVector(n, memoryId);
      if (vector?.some((x) => x !== 0)) writeVector(n, memoryId, entityId, category, active, vector);
      db.prepare('UPDATE vector_index SET next_cursor = max(next_cursor, ?) WHERE id = 1').run(memoryId);
    },
    /** Vectors in the index being built (progress), or null when none is. */
    nextCount(): number | null {
      const r = ix.building();
      return r ? (db.prepare(`SELECT count(*) AS n FROM ${floatTable(r.next!)}`).get() as { n: number }).n : null;
    },
    /**
     * Makes the built index live in one transaction: drops the old one, records the new fingerprint,
     * marks every memory with a vector in it embedded (the rest pending). Returns false if none was built.
     */
    swapNext(): boolean {
      ix.sync();
      const r = ix.building();
      if (!r) return false;
      db.transaction(() => {
        dropTables(db, ix.live);
        db.prepare(`UPDATE vector_index SET live = next, ${clearIndex} WHERE id = 1`).run();
        db.prepare('DELETE FROM embed_meta').run();
        db.prepare('INSERT INTO embed_meta (id, provider, model, dim, updated) VALUES (1, ?, ?, ?, ?)').run(
          embedder.provider,
          embedder.model,
          embedder.dim,
          Date.now() / 1000,
        );
        db.prepare(`UPDATE memories SET embed_state = CASE WHEN id <= ? THEN 'ok' ELSE 'pending' END`).run(
          r.next_cursor,
        );
      })();
      ix.moved(r.next!);
      codes.drop();
      ix.refresh();
      return true;
    },
    /**
     * Exact cosine of `vector` with each of `ids` (one entity's facts, keyword candidates), best
     * first: primary-key lookups in the float table, far cheaper than a KNN.
     */
    similarTo(vector: Float32Array, ids: number[]): VectorHit[] {
      return ix.reading(() => {
        ix.sync();
        if (ix.state !== 'ready') return [];
        return exact(vector, ids);
      });
    },
    /** A stored memory's exact vector, or undefined (none, or the index is stale). */
    vectorOf(memoryId: number): Float32Array | undefined {
      return ix.reading(() => {
        ix.sync();
        if (ix.state !== 'ready') return undefined;
        const sql = `SELECT embedding FROM ${floatTable(ix.live)} WHERE memory_id = ?`;
        const blob = prepared(sql).pluck().get(memoryId) as Buffer | undefined;
        return blob && blobVector(blob);
      });
    },
    /**
     * K nearest memories by cosine, filtered inside the index. `float` layout: vec0's exact KNN;
     * `bit`: OVERSAMPLE × k candidates by their binary codes, re-ranked by the exact cosine.
     */
    knn(vector: Float32Array, k: number, filter: KnnFilter = {}): VectorHit[] {
      return ix.reading(() => {
        ix.sync();
        if (ix.state !== 'ready') return [];
        const bit = ix.stmts().layout === 'bit';
        const want = bit ? Math.max(k * OVERSAMPLE, MIN_CODES) : k;
        const scan = bit ? codes.current() : undefined;
        if (scan) return exact(vector, scan.nearest(vector, want, filter)).slice(0, k);
        const rows = vecKnn(vector, bit, want, filter);
        if (!bit) return rows.map((r) => ({ memory_id: Number(r.memory_id), similarity: 1 - r.distance }));
        return exact(
          vector,
          rows.map((r) => Number(r.memory_id)),
        ).slice(0, k);
      });
    },
    /** Drops the index and re-creates it for the current embedder; every memory becomes pending. */
    rebuild(): void {
      ix.sync();
      db.transaction(() => {
        dropTables(db, ix.live);
        const r = ix.indexRow();
        if (r.next) dropTables(db, r.next);
        db.prepare(`UPDATE vector_index SET ${clearIndex} WHERE id = 1`).run();
        db.prepare('DELETE FROM embed_meta').run();
        db.prepare("UPDATE memories SET embed_state = 'pending'").run();
      })();
      ix.moved();
      codes.drop();
      ix.refresh();
    },
  };
}
export type VectorStore = ReturnType<typeof createVectorStore>;
