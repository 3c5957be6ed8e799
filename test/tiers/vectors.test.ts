/**
 * The vector index (src/db/vectors.ts): binary codes in vec0 for the search, exact float cosines
 * from the side table for what recall sees; the conversion of an index of the earlier layout.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { openDatabase, type Db } from '../../src/db/open.js';
import { createVectorStore, vectorsChanged, vectorTables } from '../../src/db/vectors.js';
import type { Embedder } from '../../src/ai/types.js';
import { prng } from '../../scripts/lib/prng.js';
import { tempDir } from '../helpers/hub.js';

const DIM = 512;
const NOISE = 1.0;

const embedder = (dim = DIM, model = 'test-model'): Embedder => ({
  provider: 'test',
  model,
  dim,
  fingerprint: `${model}:${dim}`,
  embed: async () => [],
  ping: async () => true,
});

/** Unit vectors clustered around a few centres, like sentence embeddings of one household. */
function vectors(n: number, dim: number, seed: number): Float32Array[] {
  const rnd = prng(seed).next;
  const gauss = () => Math.sqrt(-2 * Math.log(rnd() || 1e-9)) * Math.cos(2 * Math.PI * rnd());
  const centres = Array.from({ length: 12 }, () => Float32Array.from({ length: dim }, gauss));
  return Array.from({ length: n }, () => {
    const c = centres[Math.floor(rnd() * centres.length)];
    const v = Float32Array.from({ length: dim }, (_, i) => c[i] + NOISE * gauss());
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  });
}
const cosine = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);

let dir: string;
let db: Db;
beforeEach(() => {
  dir = tempDir();
  db = openDatabase({ dataDir: dir, keptCheck: false });
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('vector index', () => {
  it('finds the exact nearest neighbours through binary codes and reports exact cosines', () => {
    const store = createVectorStore(db, embedder());
    const vs = vectors(3000, DIM, 7);
    db.transaction(() => vs.forEach((v, i) => store.put(i + 1, (i % 40) + 1, 'general', i % 9 !== 0, v)))();
    // Questions near stored memories (each a perturbed copy of one), as a recall query is near its answer.
    const rnd = prng(8).next;
    const targets = Array.from({ length: 40 }, () => 1 + Math.floor(rnd() * vs.length)).filter(
      (id) => (id - 1) % 9 !== 0,
    );
    const queries = targets.map((id) => {
      const q = vs[id - 1].map((x) => x + (rnd() - 0.5) * 0.06);
      const norm = Math.hypot(...q);
      return q.map((x) => x / norm);
    });
    let agree = 0;
    for (const [j, q] of queries.entries()) {
      const exact = vs
        .map((v, i) => ({ id: i + 1, s: cosine(q, v) }))
        .filter((x) => (x.id - 1) % 9 !== 0)
        .sort((a, b) => b.s - a.s)
        .slice(0, 10);
      const got = store.knn(q, 10, { activeOnly: true });
      expect(got).toHaveLength(10);
      expect(got[0].memory_id).toBe(targets[j]);
      for (const h of got) expect(h.similarity).toBeCloseTo(cosine(q, vs[h.memory_id - 1]), 5);
      for (let i = 1; i < got.length; i++) expect(got[i - 1].similarity).toBeGreaterThanOrEqual(got[i].similarity);
      const ids = new Set(got.map((h) => h.memory_id));
      agree += exact.filter((x) => ids.has(x.id)).length;
    }
    // Approximate only in the candidate set: nearly every exact top-10 member is found.
    expect(agree / (queries.length * 10)).toBeGreaterThanOrEqual(0.9);
  });

  it('filters inside the index (entity, active, category) and looks up exact cosines by id', () => {
    const store = createVectorStore(db, embedder());
    const vs = vectors(600, DIM, 3);
    db.transaction(() => vs.forEach((v, i) => store.put(i + 1, (i % 3) + 1, i % 2 ? 'habit' : 'general', true, v)))();
    store.setActive(4, false);
    const hits = store.knn(vs[3], 50, { entityId: 1, activeOnly: true, category: 'general' });
    expect(hits.length).toBe(50);
    for (const h of hits) {
      expect((h.memory_id - 1) % 3).toBe(0);
      expect((h.memory_id - 1) % 2).toBe(0);
      expect(h.memory_id).not.toBe(4);
    }
    const some = store.similarTo(vs[0], [1, 2, 3, 99_999]);
    expect(some.map((h) => h.memory_id).sort()).toEqual([1, 2, 3]);
    expect(some[0]).toEqual({ memory_id: 1, similarity: expect.closeTo(1, 5) });
    store.remove(1);
    expect(store.similarTo(vs[0], [1])).toEqual([]);
    expect(store.knn(vs[0], 600).some((h) => h.memory_id === 1)).toBe(false);
  });

  it('pads a dimension that is not a multiple of 8', () => {
    const store = createVectorStore(db, embedder(100));
    const vs = vectors(50, 100, 5);
    db.transaction(() => vs.forEach((v, i) => store.put(i + 1, 1, 'general', true, v)))();
    expect(store.knn(vs[7], 1)[0]).toEqual({ memory_id: 8, similarity: expect.closeTo(1, 5) });
  });

  it('converts an index of the earlier layout (one float[] vec0 table) in place, losing nothing', () => {
    // The layout Hearth wrote before binary codes: vec0 float[] with the metadata columns.
    db.exec(
      `CREATE VIRTUAL TABLE memory_vectors USING vec0(memory_id INTEGER PRIMARY KEY, embedding float[${DIM}] distance_metric=cosine, entity_id INTEGER, active INTEGER, category TEXT)`,
    );
    db.exec(
      'CREATE TABLE vector_index (id INTEGER PRIMARY KEY CHECK (id = 1), live TEXT NOT NULL, next TEXT, next_model TEXT, next_dim INTEGER, next_cursor INTEGER NOT NULL DEFAULT 0)',
    );
    db.prepare("INSERT INTO vector_index (id, live) VALUES (1, 'memory_vectors')").run();
    db.prepare('INSERT INTO embed_meta (id, provider, model, dim, updated) VALUES (1, ?, ?, ?, 0)').run(
      'test',
      'test-model',
      DIM,
    );
    const vs = vectors(400, DIM, 11);
    const ins = db.prepare('INSERT INTO memory_vectors VALUES (?, ?, ?, ?, ?)');
    vs.forEach((v, i) => ins.run(BigInt(i + 1), v, BigInt((i % 4) + 1), BigInt(i % 5 ? 1 : 0), 'general'));

    const store = createVectorStore(db, embedder());
    expect(store.state).toBe('ready');
    const [live] = vectorTables(db);
    expect(live).toBe('memory_vectors_b');
    expect(db.prepare("SELECT count(*) n FROM sqlite_master WHERE name = 'memory_vectors'").get()).toEqual({ n: 0 });
    expect(db.prepare(`SELECT count(*) n FROM ${live}`).get()).toEqual({ n: 400 });
    expect(db.prepare(`SELECT count(*) n FROM ${live}_f`).get()).toEqual({ n: 400 });
    // metadata kept: entity and active filters answer as before
    const hits = store.knn(vs[2], 5, { entityId: 3, activeOnly: true });
    expect(hits[0]).toEqual({ memory_id: 3, similarity: expect.closeTo(1, 5) });
    expect(hits.every((h) => (h.memory_id - 1) % 4 === 2 && (h.memory_id - 1) % 5 !== 0)).toBe(true);
    // a second open finds the new layout and converts nothing
    createVectorStore(db, embedder());
    expect(vectorTables(db)).toEqual(['memory_vectors_b']);
  });
});

describe('the local embedder', () => {
  it('keeps an exact float index (its hashed features do not survive binary codes)', () => {
    const store = createVectorStore(db, { ...embedder(), provider: 'local' });
    expect(db.prepare("SELECT sql FROM sqlite_master WHERE name = 'memory_vectors'").pluck().get()).toContain(
      'float[512]',
    );
    const vs = vectors(2000, DIM, 21);
    db.transaction(() => vs.forEach((v, i) => store.put(i + 1, 1, 'general', true, v)))();
    for (const q of vectors(10, DIM, 22)) {
      const exact = vs
        .map((v, i) => ({ id: i + 1, s: cosine(q, v) }))
        .sort((a, b) => b.s - a.s)
        .slice(0, 10);
      expect(store.knn(q, 10).map((h) => h.memory_id)).toEqual(exact.map((x) => x.id));
    }
  });

  it('an earlier local index gains its float side table in place', () => {
    db.exec(
      `CREATE VIRTUAL TABLE memory_vectors USING vec0(memory_id INTEGER PRIMARY KEY, embedding float[${DIM}] distance_metric=cosine, entity_id INTEGER, active INTEGER, category TEXT)`,
    );
    db.prepare('INSERT INTO embed_meta (id, provider, model, dim, updated) VALUES (1, ?, ?, ?, 0)').run(
      'local',
      'test-model',
      DIM,
    );
    const vs = vectors(50, DIM, 23);
    const ins = db.prepare('INSERT INTO memory_vectors VALUES (?, ?, ?, 1, ?)');
    vs.forEach((v, i) => ins.run(BigInt(i + 1), v, 1n, 'general'));
    const store = createVectorStore(db, { ...embedder(), provider: 'local' });
    expect(vectorTables(db)).toEqual(['memory_vectors']);
    expect(db.prepare('SELECT count(*) n FROM memory_vectors_f').get()).toEqual({ n: 50 });
    expect(store.similarTo(vs[4], [5])).toEqual([{ memory_id: 5, similarity: expect.closeTo(1, 5) }]);
  });
});

describe('the in-memory code scan', () => {
  const settle = async (store: ReturnType<typeof createVectorStore>) => {
    store.knn(new Float32Array(DIM).fill(0.1), 1); // a search starts the load
    for (let i = 0; i < 1000 && store.codes !== 'ready'; i++) await new Promise((r) => setImmediate(r));
    expect(store.codes).toBe('ready');
  };
  const fill = (store: ReturnType<typeof createVectorStore>, vs: Float32Array[]) =>
    db.transaction(() =>
      vs.forEach((v, i) => store.put(i + 1, (i % 40) + 1, i % 2 ? 'habit' : 'general', i % 9 !== 0, v)),
    )();

  it('answers as vec0 does once loaded, in chunks, and filters the same way', async () => {
    const store = createVectorStore(db, embedder());
    const vs = vectors(4500, DIM, 31); // more than one load chunk
    fill(store, vs);
    const queries = vectors(30, DIM, 32);
    const filters = [
      {},
      { activeOnly: true },
      { entityId: 7, activeOnly: true },
      { category: 'habit' },
      { category: 'nope' },
    ];
    const before = queries.flatMap((q) => filters.map((f) => store.knn(q, 10, f)));
    expect(store.codes).toBe('loading');
    await settle(store);
    const after = queries.flatMap((q) => filters.map((f) => store.knn(q, 10, f)));
    let same = 0;
    let total = 0;
    after.forEach((hits, i) => {
      const f = filters[i % filters.length] as { entityId?: number; activeOnly?: boolean; category?: string };
      for (const h of hits) {
        const id = h.memory_id;
        if (f.entityId !== undefined) expect(((id - 1) % 40) + 1).toBe(f.entityId);
        if (f.activeOnly) expect((id - 1) % 9).not.toBe(0);
        if (f.category) expect(f.category).toBe((id - 1) % 2 ? 'habit' : 'general');
        expect(h.similarity).toBeCloseTo(cosine(queries[Math.floor(i / filters.length)], vs[id - 1]), 5);
      }
      const ids = new Set(before[i].map((h) => h.memory_id));
      same += hits.filter((h) => ids.has(h.memory_id)).length;
      total += before[i].length;
      expect(hits.length).toBe(before[i].length);
    });
    // The same Hamming candidates up to ties at the cut: the re-ranked top-10 agree.
    expect(same / total).toBeGreaterThanOrEqual(0.98);
    expect(after[1 * filters.length + 4]).toEqual([]);
  });

  it('follows writes at once, and a rolled-back one leaves no trace', async () => {
    const store = createVectorStore(db, embedder());
    const vs = vectors(500, DIM, 41);
    fill(store, vs);
    await settle(store);
    const [fresh, other] = vectors(2, DIM, 42);
    store.put(900, 3, 'general', true, fresh);
    expect(store.knn(fresh, 1)[0]).toEqual({ memory_id: 900, similarity: expect.closeTo(1, 5) });
    expect(store.knn(fresh, 1, { entityId: 4 })[0]?.memory_id).not.toBe(900);
    store.setActive(900, false);
    expect(store.knn(fresh, 5, { activeOnly: true }).some((h) => h.memory_id === 900)).toBe(false);
    // Inside a transaction that rolls back: searched mid-way (the copy sees the write), then undone.
    expect(() =>
      db.transaction(() => {
        store.setActive(900, true);
        store.put(901, 3, 'general', true, other);
        expect(store.knn(fresh, 1, { activeOnly: true })[0].memory_id).toBe(900);
        expect(store.knn(other, 1)[0].memory_id).toBe(901);
        throw new Error('roll back');
      })(),
    ).toThrow('roll back');
    expect(store.knn(fresh, 5, { activeOnly: true }).some((h) => h.memory_id === 900)).toBe(false);
    expect(store.knn(other, 5).some((h) => h.memory_id === 901)).toBe(false);
    store.remove(900);
    expect(store.knn(fresh, 5).some((h) => h.memory_id === 900)).toBe(false);
    expect(store.codes).toBe('ready');
  });

  it('does not copy what an open transaction may still roll back', async () => {
    const store = createVectorStore(db, embedder());
    const vs = vectors(200, DIM, 71);
    db.transaction(() => vs.forEach((v, i) => store.put(i + 1, 1, 'general', true, v)))();
    db.exec('BEGIN'); // as a group commit holds one open across ticks
    store.setActive(10, false);
    store.knn(vs[9], 1); // starts the load inside the transaction
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    expect(store.codes).toBe('loading');
    db.exec('ROLLBACK');
    await settle(store);
    expect(store.knn(vs[9], 1, { activeOnly: true })[0]?.memory_id).toBe(10);
  });

  it('many writes without a search drop the copy (bounded bookkeeping); the next search reloads it', async () => {
    const store = createVectorStore(db, embedder());
    fill(store, vectors(100, DIM, 61));
    await settle(store);
    const many = vectors(5001, DIM, 62);
    db.transaction(() => many.forEach((v, i) => store.put(1000 + i, 1, 'general', true, v)))();
    expect(store.codes).toBe('off');
    await settle(store);
    expect(store.knn(many[4321], 1)[0]).toEqual({ memory_id: 5321, similarity: expect.closeTo(1, 5) });
  });

  it('a commit by another connection reloads it; so does a change reported by vectorsChanged', async () => {
    const store = createVectorStore(db, embedder());
    const vs = vectors(300, DIM, 51);
    fill(store, vs);
    await settle(store);
    const [table] = vectorTables(db);
    const other = openDatabase({ dataDir: dir, keptCheck: false });
    try {
      other.prepare(`UPDATE ${table} SET entity_id = ? WHERE memory_id = ?`).run(99n, 5n);
    } finally {
      other.close();
    }
    expect(store.knn(vs[4], 1, { entityId: 99 })[0]?.memory_id).toBe(5); // vec0 answers while it reloads
    await settle(store);
    expect(store.knn(vs[4], 1, { entityId: 99 })[0]?.memory_id).toBe(5);
    // Raw SQL on this connection (as an entity merge does) is announced, and seen at the next search.
    db.prepare(`UPDATE ${table} SET entity_id = ? WHERE memory_id = ?`).run(98n, 6n);
    vectorsChanged(db, [6]);
    expect(store.knn(vs[5], 1, { entityId: 98 })[0]?.memory_id).toBe(6);
  });

  it('another process swapping the index mid-load: the store follows the new table, or turns stale for another model', async () => {
    const store = createVectorStore(db, embedder());
    const vs = vectors(1000, DIM, 61); // five load chunks
    fill(store, vs);
    expect(store.knn(vs[0], 1)[0].memory_id).toBe(1); // starts the load
    expect(store.codes).toBe('loading');
    // A second connection, as `hearth reembed` in another process: builds beside, swaps, drops the old tables.
    const swap = (model: string) => {
      const other = openDatabase({ dataDir: dir, keptCheck: false });
      try {
        const them = createVectorStore(other, embedder(DIM, model));
        them.rebuildBeside();
        other.transaction(() => vs.forEach((v, i) => them.putNext(i + 1, (i % 40) + 1, 'general', true, v)))();
        expect(them.swapNext()).toBe(true);
      } finally {
        other.close();
      }
    };
    swap('test-model'); // the same model: a rebuild someone forced
    await settle(store); // no "no such table" from the load: it restarted on the new table
    expect(store.state).toBe('ready');
    expect(store.knn(vs[9], 1)[0]).toMatchObject({ memory_id: 10 });
    expect(store.put(1001, 1, 'general', true, vs[0])).toBe(true);
    expect(vectorTables(db)).toEqual(['memory_vectors_b']);
    expect(db.prepare('SELECT count(*) n FROM memory_vectors_b').get()).toEqual({ n: 1001 });

    swap('another-model'); // a switch this process's embedder does not match
    expect(store.state).toBe('stale');
    expect(store.knn(vs[9], 1)).toEqual([]);
    expect(store.put(1002, 1, 'general', true, vs[0])).toBe(false);
  });

  it('a swap that lands between the data_version check and the statement: the read runs once more, on the new table', () => {
    // The race, made certain: this connection reads PRAGMA data_version, and only then does another
    // connection swap the index and drop the old table, before the search's statement runs.
    let swapNow = false;
    const racy = new Proxy(db, {
      get(target, key) {
        if (key !== 'prepare') return Reflect.get(target, key, target);
        return (sql: string) => {
          const stmt = target.prepare(sql);
          if (sql !== 'PRAGMA data_version') return stmt;
          const version = stmt.pluck();
          return {
            pluck: () => ({
              get: () => {
                const v = version.get();
                if (swapNow) {
                  swapNow = false;
                  swapElsewhere();
                }
                return v;
              },
            }),
          };
        };
      },
    }) as Db;
    const store = createVectorStore(racy, embedder(DIM, 'test-model'));
    const vs = vectors(50, DIM, 71);
    fill(store, vs);
    const swapElsewhere = () => {
      const other = openDatabase({ dataDir: dir, keptCheck: false });
      try {
        const them = createVectorStore(other, embedder(DIM, 'test-model'));
        them.rebuildBeside();
        other.transaction(() => vs.forEach((v, i) => them.putNext(i + 1, 1, 'general', true, v)))();
        expect(them.swapNext()).toBe(true);
      } finally {
        other.close();
      }
    };
    const before = vectorTables(db);
    swapNow = true;
    expect(store.knn(vs[7], 1)[0]).toMatchObject({ memory_id: 8 });
    expect(vectorTables(db)).not.toEqual(before); // the swap did happen under it
    swapNow = true;
    expect(store.similarTo(vs[3], [4, 5])[0]).toMatchObject({ memory_id: 4 });
  });

  it('random writes, rollbacks and raw updates: the copy answers exactly as vec0 does', async () => {
    const store = createVectorStore(db, embedder());
    const vs = vectors(300, DIM, 81);
    fill(store, vs.slice(0, 200));
    await settle(store);
    const [table] = vectorTables(db);
    const rnd = prng(82).next;
    const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)];
    const filters = [{}, { activeOnly: true }, { entityId: 3 }, { category: 'habit', activeOnly: true }];
    for (let round = 0; round < 40; round++) {
      for (let op = 0; op < 12; op++) {
        const id = 1 + Math.floor(rnd() * 300);
        const r = rnd();
        if (r < 0.35) store.put(id, 1 + Math.floor(rnd() * 5), pick(['general', 'habit']), rnd() < 0.7, vs[id - 1]);
        else if (r < 0.5) store.remove(id);
        else if (r < 0.65) store.setActive(id, rnd() < 0.5);
        else if (r < 0.8) {
          // Raw SQL, as an entity merge does, announced.
          db.prepare(`UPDATE ${table} SET entity_id = ? WHERE memory_id = ?`).run(
            BigInt(1 + Math.floor(rnd() * 5)),
            BigInt(id),
          );
          vectorsChanged(db, [id]);
        } else {
          // A transaction that writes, searches, and rolls back.
          try {
            db.transaction(() => {
              store.put(id, 3, 'habit', true, vs[(id * 7) % 300]);
              store.setActive(1 + ((id * 13) % 300), false);
              store.knn(vs[id - 1], 5);
              throw new Error('undo');
            })();
          } catch {
            /* rolled back */
          }
        }
      }
      // A fresh store's first search is vec0's own; 100 × OVERSAMPLE codes cover every vector, so both
      // lists are every match, re-ranked exactly: they must be equal.
      const truth = createVectorStore(db, embedder());
      const q = vs[Math.floor(rnd() * 300)];
      for (const f of filters)
        expect(store.knn(q, 100, f), `round ${round} ${JSON.stringify(f)}`).toEqual(truth.knn(q, 100, f));
    }
    expect(store.codes).toBe('ready');
  });
});
