import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/db/open.js';
import { createVectorStore } from '../../src/db/vectors.js';
import type { Embedder } from '../../src/ai/types.js';

const dirs: string[] = [];
const dbs: Db[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDb(): Db {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-vec-'));
  dirs.push(dir);
  const db = openDatabase({ dataDir: dir });
  dbs.push(db);
  return db;
}

const embedderOf = (dim: number): Embedder => ({
  provider: 'local', model: `test-${dim}`, dim, fingerprint: `test-${dim}:${dim}`,
  embed: async () => [], ping: async () => true,
});

function prng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

/** Unit vectors around a few topics, like embeddings of a household's facts. */
function vectors(n: number, dim: number, seed: number): Float32Array[] {
  const rnd = prng(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(rnd() + 1e-12)) * Math.cos(2 * Math.PI * rnd());
  const topics = Array.from({ length: 20 }, () => Float32Array.from({ length: dim }, gauss));
  return Array.from({ length: n }, () => {
    const t = topics[Math.floor(rnd() * topics.length)];
    const v = Float32Array.from({ length: dim }, (_, i) => t[i] + 1.2 * gauss());
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  });
}

const cosine = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);

function fill(db: Db, dim: number, vs: Float32Array[], opts: { coarseFrom?: number } = {}) {
  const store = createVectorStore(db, embedderOf(dim), opts);
  const entity = (i: number) => 1 + (i % 7);
  db.transaction(() => {
    for (let i = 1; i <= 7; i++) db.prepare("INSERT INTO entities (id, name, type, meta, created, updated) VALUES (?, ?, 'person', '{}', 0, 0)").run(i, `p${i}`);
    vs.forEach((v, i) => store.put(i + 1, entity(i), i % 3 ? 'general' : 'preference', i % 10 !== 0, v));
  })();
  return store;
}

describe('vector search (coarse bits, re-scored exactly)', () => {
  it('two-stage search is exact while the filtered index holds no more than the candidates it re-scores', () => {
    const db = tempDb();
    const vs = vectors(90, 64, 1);
    const store = fill(db, 64, vs, { coarseFrom: 0 });
    const q = vectors(1, 64, 99)[0];
    for (const filter of [{}, { activeOnly: true }, { entityId: 3 }, { category: 'preference', activeOnly: true }]) {
      const hits = store.knn(q, 10, filter);
      const brute = vs
        .map((v, i) => ({ id: i + 1, sim: cosine(q, v), entity: 1 + (i % 7), category: i % 3 ? 'general' : 'preference', active: i % 10 !== 0 }))
        .filter((x) => (filter.entityId === undefined || x.entity === filter.entityId) && (!('activeOnly' in filter) || x.active) && (!('category' in filter) || x.category === filter.category))
        .sort((a, b) => b.sim - a.sim)
        .slice(0, 10);
      expect(hits.map((h) => h.memory_id)).toEqual(brute.map((b) => b.id));
      for (const [i, h] of hits.entries()) expect(h.similarity).toBeCloseTo(brute[i].sim, 5);
    }
  });

  it('two-stage search agrees with the float KNN on ≥ 90 % of the top ten of a large index', () => {
    const db = tempDb();
    const dim = 384;
    const stored = vectors(4000, dim, 2);
    const store = fill(db, dim, stored, { coarseFrom: 0 });
    let agree = 0;
    // a question near something stored, as a paraphrase is: a stored vector plus as much noise again
    const noise = vectors(40, dim, 3);
    const queries = noise.map((n, i) => stored[i * 97].map((x, j) => x + n[j]));
    for (const q of queries) {
      const exact = new Set(store.knnExact(q, 10).map((h) => h.memory_id));
      agree += store.knn(q, 10).filter((h) => exact.has(h.memory_id)).length;
    }
    expect(agree / (queries.length * 10)).toBeGreaterThanOrEqual(0.9);
    // below `coarseFrom` (20k by default) the same index is searched exactly
    const small = createVectorStore(db, embedderOf(dim));
    for (const q of queries.slice(0, 5)) expect(small.knn(q, 10)).toEqual(small.knnExact(q, 10));
  });

  it('upgrades a table from before the coarse column, keeping every vector', () => {
    const db = tempDb();
    const dim = 32;
    db.exec(`CREATE VIRTUAL TABLE memory_vectors USING vec0(memory_id INTEGER PRIMARY KEY, embedding float[${dim}] distance_metric=cosine, entity_id INTEGER, active INTEGER, category TEXT)`);
    db.prepare("INSERT INTO embed_meta (id, provider, model, dim, updated) VALUES (1, 'local', ?, ?, 0)").run(`test-${dim}`, dim);
    const vs = vectors(30, dim, 4);
    const ins = db.prepare('INSERT INTO memory_vectors VALUES (?, ?, ?, 1, ?)');
    vs.forEach((v, i) => ins.run(BigInt(i + 1), v, BigInt(1), 'general'));
    const store = createVectorStore(db, embedderOf(dim));
    expect(store.state).toBe('ready');
    expect(db.prepare("SELECT sql FROM sqlite_master WHERE name = 'memory_vectors'").pluck().get()).toMatch(/coarse bit\[32\]/);
    expect(db.prepare('SELECT count(*) FROM memory_vectors').pluck().get()).toBe(30);
    expect(store.knn(vs[7], 1)[0]).toMatchObject({ memory_id: 8 });
    expect(store.knn(vs[7], 1)[0].similarity).toBeCloseTo(1, 5);
  });

  it('falls back to the float KNN for a dimension that is not a whole number of bytes', () => {
    const db = tempDb();
    const vs = vectors(20, 12, 5);
    const store = fill(db, 12, vs);
    expect(db.prepare("SELECT sql FROM sqlite_master WHERE name = 'memory_vectors'").pluck().get()).not.toMatch(/coarse/);
    expect(store.knn(vs[4], 3).map((h) => h.memory_id)[0]).toBe(5);
  });
});
