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
 */
import type { Db } from './open.js';
import { statementCache } from './statements.js';
import type { Embedder } from '../ai/types.js';
import { createCodeScan, type CodeScan } from './code-scan.js';

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

/** Codes fetched per result before the exact re-rank (agreement with exact search: the neural bench). */
export const OVERSAMPLE = 3;
/** …but never fewer than this many (small k still gets a wide enough net). */
const MIN_CODES = 180;

/** The float side table of an index's vec0 table. */
export const floatTable = (name: string) => `${name}_f`;

const tableExists = (db: Db, name: string) => !!db.prepare('SELECT 1 FROM sqlite_master WHERE name = ?').get(name);

/**
 * Rows per step of loading the in-memory code scan: one vec0 point read each (≈ 15 µs on x86). At 50k
 * memories, 2000 a step held the event loop up to 30 ms and 200 up to 9–10 ms, for a load of 0.6 s
 * either way, so MQTT acks never wait long behind it.
 */
const LOAD_CHUNK = 200;
/** More changed memories than this since the last search: reload the code scan instead of patching it. */
const DIRTY_RELOAD = 5000;

const changeListeners = new WeakMap<Db, Set<(ids: number[]) => void>>();
/**
 * Code that writes vec0 tables or the memories' entity, category or status directly (entity merge)
 * names the memories it changed, so the in-memory code scans re-read them.
 */
export function vectorsChanged(db: Db, ids: number[]): void {
  for (const f of changeListeners.get(db) ?? []) f(ids);
}

/** The vec0 tables of the live index and of one being built (for code that moves memories between entities). */
export function vectorTables(db: Db): string[] {
  if (!tableExists(db, 'vector_index')) return [];
  const r = db.prepare('SELECT live, next FROM vector_index WHERE id = 1').get() as { live: string; next: string | null } | undefined;
  return [r?.live, r?.next].filter((n): n is string => !!n && tableExists(db, n));
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

  const createTable = (dim: number, name = live, layout: Layout = preferredLayout(embedder.provider)) => {
    db.exec(
      `CREATE VIRTUAL TABLE IF NOT EXISTS ${name} USING vec0(
         memory_id INTEGER PRIMARY KEY,
         embedding ${layout === 'bit' ? `bit[${bitsFor(dim)}]` : `float[${dim}] distance_metric=cosine`},
         entity_id INTEGER,
         active INTEGER,
         category TEXT
       )`,
    );
    db.exec(`CREATE TABLE IF NOT EXISTS ${floatTable(name)} (memory_id INTEGER PRIMARY KEY, embedding BLOB NOT NULL)`);
  };
  const dropTables = (name: string) => db.exec(`DROP TABLE IF EXISTS ${name}; DROP TABLE IF EXISTS ${floatTable(name)}`);
  const exists = (name: string) => tableExists(db, name);
  const layoutOf = (name: string): Layout =>
    /bit\[/.test((db.prepare('SELECT sql FROM sqlite_master WHERE name = ?').get(name) as { sql: string } | undefined)?.sql ?? '') ? 'bit' : 'float';

  // An index of an earlier layout (one float[] vec0 table, no float side table), or of the other
  // layout than its provider's: convert it in one transaction, in place when only the side table is
  // missing, else into the other table name. A half-built index beside it is dropped (the next
  // rebuild starts over).
  const meta = db.prepare('SELECT provider, dim FROM embed_meta WHERE id = 1').get() as { provider: string; dim: number } | undefined;
  if (meta && exists(live) && (layoutOf(live) !== preferredLayout(meta.provider) || !exists(floatTable(live)))) {
    const want = preferredLayout(meta.provider);
    const inPlace = layoutOf(live) === want;
    const target = inPlace ? live : other(live);
    db.transaction(() => {
      const r = indexRow();
      if (r.next) dropTables(r.next);
      if (!inPlace) dropTables(target);
      createTable(meta.dim, target, want);
      const put = tableStmts(target);
      const side = exists(floatTable(live)) ? db.prepare(`SELECT embedding FROM ${floatTable(live)} WHERE memory_id = ?`).pluck() : undefined;
      // Point reads by id (a statement cannot iterate while others write; `.all()` would hold every vector at once).
      const ids = db.prepare(`SELECT memory_id FROM ${live}`).pluck().all() as (number | bigint)[];
      const one = db.prepare(`SELECT embedding, entity_id, active, category FROM ${live} WHERE memory_id = ?`);
      for (const id of ids) {
        const row = one.get(BigInt(id)) as { embedding: Buffer; entity_id: bigint | number; active: bigint | number; category: string };
        const blob = (side?.get(Number(id)) as Buffer | undefined) ?? row.embedding;
        const v = new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength));
        if (inPlace) put.putFloat.run(Number(id), v);
        else write(put, Number(id), Number(row.entity_id), row.category, Number(row.active) === 1, v);
      }
      if (!inPlace) dropTables(live);
      db.prepare('UPDATE vector_index SET live = ?, next = NULL, next_model = NULL, next_dim = NULL, next_cursor = 0 WHERE id = 1').run(target);
    })();
    live = target;
  }

  const readMeta = () => db.prepare('SELECT provider, model, dim FROM embed_meta WHERE id = 1').get() as typeof stored;
  const refresh = () => {
    stored = readMeta();
    if (!stored) {
      db.transaction(() => {
        createTable(embedder.dim);
        // OR IGNORE: another process may have created the index first; then its fingerprint wins.
        db.prepare('INSERT OR IGNORE INTO embed_meta (id, provider, model, dim, updated) VALUES (1, ?, ?, ?, ?)').run(
          embedder.provider,
          embedder.model,
          embedder.dim,
          Date.now() / 1000,
        );
      })();
      stored = readMeta();
    }
    state = stored!.model === embedder.model && stored!.dim === embedder.dim ? 'ready' : 'stale';
  };
  refresh();

  type Stmt = ReturnType<Db['prepare']> & { run(...params: unknown[]): unknown };
  function tableStmts(name: string) {
    const layout = layoutOf(name);
    const code = layout === 'bit' ? 'vec_quantize_binary(?)' : '?';
    return {
      upsertStmt: db.prepare(`INSERT INTO ${name} (memory_id, embedding, entity_id, active, category) VALUES (?, ${code}, ?, ?, ?)`) as Stmt,
      deleteStmt: db.prepare(`DELETE FROM ${name} WHERE memory_id = ?`) as Stmt,
      activeStmt: db.prepare(`UPDATE ${name} SET active = ? WHERE memory_id = ?`) as Stmt,
      putFloat: db.prepare(`INSERT OR REPLACE INTO ${floatTable(name)} (memory_id, embedding) VALUES (?, ?)`) as Stmt,
      deleteFloat: db.prepare(`DELETE FROM ${floatTable(name)} WHERE memory_id = ?`) as Stmt,
      layout,
    };
  }
  type TableStmts = ReturnType<typeof tableStmts>;
  function write(t: TableStmts, memoryId: number, entityId: number, category: string, active: boolean, vector: Float32Array) {
    // vec0 has no UPSERT semantics for the primary key: delete first.
    t.deleteStmt.run(BigInt(memoryId));
    t.upsertStmt.run(BigInt(memoryId), t.layout === 'bit' ? padded(vector) : vector, BigInt(entityId), BigInt(active ? 1 : 0), category);
    t.putFloat.run(memoryId, vector);
  }
  const erase = (t: TableStmts, memoryId: number) => {
    t.deleteStmt.run(BigInt(memoryId));
    t.deleteFloat.run(memoryId);
  };
  let liveStmts: TableStmts | undefined;
  const stmts = () => (liveStmts ??= tableStmts(live));
  let nextStmts: TableStmts | undefined;
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
  // The in-memory code scan (code-scan.ts) of the live index, for the `bit` layout: a copy of vec0's
  // codes and metadata, loaded in the background in id order after the first search (vec0 answers
  // until then). Every write through this store marks its memory dirty, and a search first re-reads
  // dirty memories from vec0 (they stay dirty inside a transaction, which may still roll back). A
  // commit by another connection (PRAGMA data_version) or a new live index drops the copy and loads
  // it anew. Candidates only: the exact re-rank reads the float table.
  let scan: CodeScan | undefined;
  let loading: CodeScan | undefined;
  const dirty = new Set<number>();
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  const markDirty = (ids: Iterable<number>) => {
    if (!scan && !loading) return;
    for (const id of ids) dirty.add(id);
    // Past this many, reloading beats patching (and the set stays bounded while nobody searches).
    if (dirty.size > DIRTY_RELOAD) dropScan();
  };
  // Another process on the same file (`hearth mcp` beside `hearth serve`, or `hearth reembed` run
  // while the service is up) may swap, rebuild or create the index. Each entry point first checks
  // PRAGMA data_version (it moves only when another connection commits): on a move the code scan is
  // dropped, the live table and the fingerprint are read again, and the state follows (a process
  // whose embedder no longer matches the new index turns stale and answers by keyword).
  let seenVersion = dataVersion.get();
  const sync = () => {
    const v = dataVersion.get();
    if (v === seenVersion) return;
    seenVersion = v;
    dropScan();
    const now = indexRow().live;
    if (now !== live) {
      live = now;
      liveStmts = nextStmts = undefined;
    }
    refresh();
  };
  // sync() narrows the window between another process's swap and a statement to microseconds; a
  // read that still meets it fails with "no such table" and runs once more on the new table.
  const reading = <T>(run: () => T): T => {
    try {
      return run();
    } catch (e) {
      const was = seenVersion;
      if (!/no such table/.test((e as Error)?.message ?? '')) throw e;
      sync();
      if (seenVersion === was) throw e;
      return run();
    }
  };
  let listeners = changeListeners.get(db);
  if (!listeners) changeListeners.set(db, (listeners = new Set()));
  listeners.add(markDirty);
  const dropScan = () => {
    scan = loading = undefined;
    dirty.clear();
  };
  type CodeRow = { embedding: Buffer; entity_id: number | bigint; active: number | bigint; category: string };
  const codeOf = (table: string) => prepared(`SELECT embedding, entity_id, active, category FROM ${table} WHERE memory_id = ?`);
  /** Copies one memory's code and metadata from vec0 (`read`: codeOf) into `into`; false when vec0 has no such row. */
  const copyCode = (into: CodeScan, read: ReturnType<typeof codeOf>, id: number): boolean => {
    const r = read.get(BigInt(id)) as CodeRow | undefined;
    if (r) into.set(id, r.embedding, Number(r.entity_id), Number(r.active) === 1, r.category);
    return !!r;
  };
  const startLoad = () => {
    if (loading || !stored) return;
    const target = (loading = createCodeScan(bitsFor(stored.dim)));
    const table = live;
    let after = 0;
    const step = () => {
      if (loading !== target || !db.open) return;
      // Never copy what an open transaction (a group commit between ticks) may still roll back.
      if (db.inTransaction) return void setTimeout(step, 1);
      // Another process may have swapped the index meanwhile: stop; the next search starts anew.
      sync();
      if (loading !== target || table !== live) return;
      const ids = prepared(`SELECT memory_id FROM ${floatTable(table)} WHERE memory_id > ? ORDER BY memory_id LIMIT ${LOAD_CHUNK}`).pluck().all(after) as number[];
      const read = codeOf(table);
      for (const id of ids) copyCode(target, read, id);
      if (ids.length === LOAD_CHUNK) {
        after = ids[ids.length - 1];
        setImmediate(step);
      } else {
        scan = target;
        loading = undefined;
      }
    };
    setImmediate(step);
  };
  /** The code scan when it is loaded and current, else undefined (and its loading started). */
  const codeScan = (): CodeScan | undefined => {
    if (!scan) {
      startLoad();
      return undefined;
    }
    if (dirty.size) {
      const read = codeOf(live);
      for (const id of dirty) if (!copyCode(scan, read, id)) scan.delete(id);
      if (!db.inTransaction) dirty.clear();
    }
    return scan;
  };

  /** Exact cosine of `vector` with each of `ids` from the float table, best first. */
  const exact = (vector: Float32Array, ids: number[]): VectorHit[] => {
    if (!ids.length) return [];
    const rows = prepared(`SELECT memory_id, vec_distance_cosine(embedding, ?) AS distance FROM ${floatTable(live)} WHERE memory_id IN (SELECT value FROM json_each(?))`)
      .all(vector, JSON.stringify(ids)) as { memory_id: number; distance: number }[];
    return rows.map((r) => ({ memory_id: r.memory_id, similarity: 1 - r.distance })).sort((a, b) => b.similarity - a.similarity || a.memory_id - b.memory_id);
  };

  return {
    get state() {
      sync();
      return state;
    },
    /** The in-memory code scan: `ready` (searches use it), `loading` (vec0 answers meanwhile) or `off`. */
    get codes(): 'off' | 'loading' | 'ready' {
      return scan ? 'ready' : loading ? 'loading' : 'off';
    },
    /** What the index holds, for /health and doctor. */
    get stored() {
      sync();
      return stored;
    },
    staleReason(): string {
      sync();
      const made = `stored vectors were made by ${stored?.model}:${stored?.dim} but the embedder is ${embedder.fingerprint}`;
      // A build for this embedder beside the live index, by this process or another (or left by one that stopped).
      const r = building();
      if (!r) return `${made}; run \`hearth reembed\` (\`hearth serve\` also rebuilds in the background)`;
      const count = (sql: string, ...p: unknown[]) => (prepared(sql).get(...p) as { n: number }).n;
      const along = `${count('SELECT count(*) AS n FROM memories WHERE id <= ?', r.next_cursor)} of ${count('SELECT count(*) AS n FROM memories')}`;
      return `${made}; a rebuild for it beside them is ${along} memories along (\`hearth serve\` and \`hearth reembed\` continue it); recall answers by keyword until it is done`;
    },
    /** Stores one vector; caller runs inside its transaction. No-op (returns false) when stale. */
    put(memoryId: number, entityId: number, category: string, active: boolean, vector: Float32Array): boolean {
      sync();
      if (state !== 'ready') return false;
      write(stmts(), memoryId, entityId, category, active, vector);
      markDirty([memoryId]);
      return true;
    },
    remove(memoryId: number): void {
      sync();
      const n = next();
      if (n) erase(n, memoryId);
      if (state !== 'ready') return;
      erase(stmts(), memoryId);
      markDirty([memoryId]);
    },
    setActive(memoryId: number, active: boolean): void {
      sync();
      next()?.activeStmt.run(BigInt(active ? 1 : 0), BigInt(memoryId));
      if (state !== 'ready') return;
      stmts().activeStmt.run(BigInt(active ? 1 : 0), BigInt(memoryId));
      markDirty([memoryId]);
    },
    /**
     * Starts (or resumes) building an index for the current embedder beside the live one; returns
     * the memory id the build has reached (0 when new). Only while `state` is stale.
     */
    rebuildBeside(): number {
      sync();
      const r = building();
      if (r) return r.next_cursor;
      const name = other(live);
      db.transaction(() => {
        dropTables(name);
        createTable(embedder.dim, name);
        db.prepare('UPDATE vector_index SET next = ?, next_model = ?, next_dim = ?, next_cursor = 0 WHERE id = 1').run(name, embedder.model, embedder.dim);
      })();
      nextStmts = undefined;
      return 0;
    },
    /** Stores one vector in the index being built and advances its cursor; caller runs inside its transaction. */
    putNext(memoryId: number, entityId: number, category: string, active: boolean, vector: Float32Array | null): void {
      sync();
      const n = next();
      if (!n) throw new Error('no index is being built');
      erase(n, memoryId);
      if (vector && vector.some((x) => x !== 0)) write(n, memoryId, entityId, category, active, vector);
      db.prepare('UPDATE vector_index SET next_cursor = max(next_cursor, ?) WHERE id = 1').run(memoryId);
    },
    /** Vectors in the index being built (progress), or null when none is. */
    nextCount(): number | null {
      const r = building();
      return r ? (db.prepare(`SELECT count(*) AS n FROM ${floatTable(r.next!)}`).get() as { n: number }).n : null;
    },
    /**
     * Makes the built index live in one transaction: drops the old one, records the new fingerprint,
     * marks every memory with a vector in it embedded (the rest pending). Returns false if none was built.
     */
    swapNext(): boolean {
      sync();
      const r = building();
      if (!r) return false;
      db.transaction(() => {
        dropTables(live);
        db.prepare('UPDATE vector_index SET live = next, next = NULL, next_model = NULL, next_dim = NULL, next_cursor = 0 WHERE id = 1').run();
        db.prepare('DELETE FROM embed_meta').run();
        db.prepare('INSERT INTO embed_meta (id, provider, model, dim, updated) VALUES (1, ?, ?, ?, ?)').run(embedder.provider, embedder.model, embedder.dim, Date.now() / 1000);
        db.prepare(`UPDATE memories SET embed_state = CASE WHEN id <= ? THEN 'ok' ELSE 'pending' END`).run(r.next_cursor);
      })();
      live = r.next!;
      liveStmts = nextStmts = undefined;
      dropScan();
      refresh();
      return true;
    },
    /**
     * Exact cosine of `vector` with each of `ids` (one entity's facts, keyword candidates), best
     * first: primary-key lookups in the float table, far cheaper than a KNN.
     */
    similarTo(vector: Float32Array, ids: number[]): VectorHit[] {
      return reading(() => {
        sync();
        if (state !== 'ready') return [];
        return exact(vector, ids);
      });
    },
    /** A stored memory's exact vector, or undefined (none, or the index is stale). */
    vectorOf(memoryId: number): Float32Array | undefined {
      return reading(() => {
        sync();
        if (state !== 'ready') return undefined;
        const blob = prepared(`SELECT embedding FROM ${floatTable(live)} WHERE memory_id = ?`).pluck().get(memoryId) as Buffer | undefined;
        return blob && new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength));
      });
    },
    /**
     * K nearest memories by cosine, filtered inside the index. `float` layout: vec0's exact KNN;
     * `bit`: OVERSAMPLE × k candidates by their binary codes, re-ranked by the exact cosine.
     */
    knn(vector: Float32Array, k: number, filter: KnnFilter = {}): VectorHit[] {
      return reading(() => {
        sync();
        if (state !== 'ready') return [];
        const bit = stmts().layout === 'bit';
        const codes = bit ? codeScan() : undefined;
        if (codes) return exact(vector, codes.nearest(vector, Math.max(k * OVERSAMPLE, MIN_CODES), filter)).slice(0, k);
        const where = [bit ? 'embedding MATCH vec_quantize_binary(?)' : 'embedding MATCH ?', 'k = ?'];
        const params: unknown[] = bit ? [padded(vector), BigInt(Math.max(k * OVERSAMPLE, MIN_CODES))] : [vector, BigInt(k)];
        if (filter.entityId !== undefined) {
          where.push('entity_id = ?');
          params.push(BigInt(filter.entityId));
        }
        if (filter.activeOnly) where.push('active = 1');
        if (filter.category !== undefined) {
          where.push('category = ?');
          params.push(filter.category);
        }
        const rows = prepared(`SELECT memory_id, distance FROM ${live} WHERE ${where.join(' AND ')} ORDER BY distance`).all(...params) as { memory_id: number | bigint; distance: number }[];
        if (!bit) return rows.map((r) => ({ memory_id: Number(r.memory_id), similarity: 1 - r.distance }));
        return exact(vector, rows.map((r) => Number(r.memory_id))).slice(0, k);
      });
    },
    /** Drops the index and re-creates it for the current embedder; every memory becomes pending. */
    rebuild(): void {
      sync();
      db.transaction(() => {
        dropTables(live);
        const r = indexRow();
        if (r.next) dropTables(r.next);
        db.prepare('UPDATE vector_index SET next = NULL, next_model = NULL, next_dim = NULL, next_cursor = 0 WHERE id = 1').run();
        db.prepare('DELETE FROM embed_meta').run();
        db.prepare("UPDATE memories SET embed_state = 'pending'").run();
      })();
      liveStmts = nextStmts = undefined;
      dropScan();
      refresh();
    },
  };
}
export type VectorStore = ReturnType<typeof createVectorStore>;

type Layout = 'float' | 'bit';

/**
 * Binary codes for dense neural embeddings (use-lite, Ollama, OpenAI): measured at 20k use-lite
 * vectors, 180 codes re-ranked find 0.98 of the exact top-10. The local embedder's hashed sparse
 * features do not survive binarisation (0.76 of the top-10 at 180 codes, 0.86 at 1000), so its index
 * stays an exact float KNN.
 */
export function preferredLayout(provider: string): Layout {
  return provider === 'local' ? 'float' : 'bit';
}

/** bit[] columns need a multiple of 8 dimensions. */
const bitsFor = (dim: number) => Math.ceil(dim / 8) * 8;

/** The vector zero-padded to a multiple of 8 (a zero quantises to a 0 bit, the same in every code). */
function padded(v: Float32Array): Float32Array {
  const n = bitsFor(v.length);
  if (n === v.length) return v;
  const out = new Float32Array(n);
  out.set(v);
  return out;
}
