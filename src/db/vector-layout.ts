/**
 * The tables of one vector index (db/vectors.ts): a vec0 table `<name>` (binary codes or floats, with
 * the metadata columns) and its float side table `<name>_f`, their statements, and the conversion of
 * an index of an earlier layout at open.
 */
import type { Db } from './open.js';

export type Layout = 'float' | 'bit';

/** The float side table of an index's vec0 table. */
export const floatTable = (name: string) => `${name}_f`;

export const tableExists = (db: Db, name: string) =>
  !!db.prepare('SELECT 1 FROM sqlite_master WHERE name = ?').get(name);

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
export const bitsFor = (dim: number) => Math.ceil(dim / 8) * 8;

/** The vector zero-padded to a multiple of 8 (a zero quantises to a 0 bit, the same in every code). */
export function padded(v: Float32Array): Float32Array {
  const n = bitsFor(v.length);
  if (n === v.length) return v;
  const out = new Float32Array(n);
  out.set(v);
  return out;
}

/** A float32 vector from a BLOB (copied: the buffer better-sqlite3 returns is reused). */
export const blobVector = (blob: Buffer) =>
  new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength));

export function createTables(db: Db, name: string, dim: number, layout: Layout): void {
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
}

export const dropTables = (db: Db, name: string) =>
  db.exec(`DROP TABLE IF EXISTS ${name}; DROP TABLE IF EXISTS ${floatTable(name)}`);

export function layoutOf(db: Db, name: string): Layout {
  const row = db.prepare('SELECT sql FROM sqlite_master WHERE name = ?').get(name) as { sql: string } | undefined;
  return /bit\[/.test(row?.sql ?? '') ? 'bit' : 'float';
}

type Stmt = ReturnType<Db['prepare']> & { run(...params: unknown[]): unknown };

/** The write statements of one index. */
export function tableStmts(db: Db, name: string) {
  const layout = layoutOf(db, name);
  const code = layout === 'bit' ? 'vec_quantize_binary(?)' : '?';
  const columns = '(memory_id, embedding, entity_id, active, category)';
  return {
    upsertStmt: db.prepare(`INSERT INTO ${name} ${columns} VALUES (?, ${code}, ?, ?, ?)`) as Stmt,
    deleteStmt: db.prepare(`DELETE FROM ${name} WHERE memory_id = ?`) as Stmt,
    activeStmt: db.prepare(`UPDATE ${name} SET active = ? WHERE memory_id = ?`) as Stmt,
    putFloat: db.prepare(`INSERT OR REPLACE INTO ${floatTable(name)} (memory_id, embedding) VALUES (?, ?)`) as Stmt,
    deleteFloat: db.prepare(`DELETE FROM ${floatTable(name)} WHERE memory_id = ?`) as Stmt,
    layout,
  };
}
export type TableStmts = ReturnType<typeof tableStmts>;

export function writeVector(
  t: TableStmts,
  memoryId: number,
  entityId: number,
  category: string,
  active: boolean,
  vector: Float32Array,
): void {
  // vec0 has no UPSERT semantics for the primary key: delete first.
  t.deleteStmt.run(BigInt(memoryId));
  const code = t.layout === 'bit' ? padded(vector) : vector;
  t.upsertStmt.run(BigInt(memoryId), code, BigInt(entityId), BigInt(active ? 1 : 0), category);
  t.putFloat.run(memoryId, vector);
}

export function eraseVector(t: TableStmts, memoryId: number): void {
  t.deleteStmt.run(BigInt(memoryId));
  t.deleteFloat.run(memoryId);
}

/**
 * An index of an earlier layout (one float[] vec0 table, no float side table), or of the other
 * layout than its provider's: converted in one transaction, in place when only the side table is
 * missing, else into `other`. A half-built index beside it is dropped (the next rebuild starts over).
 * Returns the live table's name afterwards.
 */
export function convertLayout(db: Db, live: string, other: string): string {
  const meta = db.prepare('SELECT provider, dim FROM embed_meta WHERE id = 1').get() as
    | { provider: string; dim: number }
    | undefined;
  if (!meta || !tableExists(db, live)) return live;
  const want = preferredLayout(meta.provider);
  if (layoutOf(db, live) === want && tableExists(db, floatTable(live))) return live;
  const inPlace = layoutOf(db, live) === want;
  const target = inPlace ? live : other;
  db.transaction(() => {
    const next = db.prepare('SELECT next FROM vector_index WHERE id = 1').pluck().get() as string | null;
    if (next) dropTables(db, next);
    if (!inPlace) dropTables(db, target);
    createTables(db, target, meta.dim, want);
    const put = tableStmts(db, target);
    const side = tableExists(db, floatTable(live))
      ? db.prepare(`SELECT embedding FROM ${floatTable(live)} WHERE memory_id = ?`).pluck()
      : undefined;
    // Point reads by id (a statement cannot iterate while others write; `.all()` would hold every vector at once).
    const ids = db.prepare(`SELECT memory_id FROM ${live}`).pluck().all() as (number | bigint)[];
    const one = db.prepare(`SELECT embedding, entity_id, active, category FROM ${live} WHERE memory_id = ?`);
    type Row = { embedding: Buffer; entity_id: bigint | number; active: bigint | number; category: string };
    for (const id of ids) {
      const row = one.get(BigInt(id)) as Row;
      const v = blobVector((side?.get(Number(id)) as Buffer | undefined) ?? row.embedding);
      if (inPlace) put.putFloat.run(Number(id), v);
      else writeVector(put, Number(id), Number(row.entity_id), row.category, Number(row.active) === 1, v);
    }
    if (!inPlace) dropTables(db, live);
    db.prepare(
      'UPDATE vector_index SET live = ?, next = NULL, next_model = NULL, next_dim = NULL, next_cursor = 0 WHERE id = 1',
    ).run(target);
  })();
  return target;
}
