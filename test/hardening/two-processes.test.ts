/**
 * Issue #10 item 1: two connections on one SQLite file (a `serve` and a `hearth mcp` beside it). A forget in
 * B never fails A's next batch, and A never files a reading for a forgotten entity into the entity
 * that B created next — ids are never reused and A's caches notice B's commits.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/open.js';
import { buildTestHub, get, post, tempDir, type TestHub } from '../helpers/hub.js';

const values = (r: { body: { points?: { value: unknown }[] } }) => (r.body.points ?? []).map((p) => p.value);

describe('a second process on the same database', () => {
  const hubs: TestHub[] = [];
  afterEach(async () => {
    for (const h of hubs.splice(0).reverse()) await h.close();
  });

  async function pair() {
    const dir = tempDir();
    const a = await buildTestHub({ dir });
    const b = await buildTestHub({ dir, clock: a.clock });
    hubs.push(a, b);
    return { a, b };
  }

  it("forget in B, a new entity in B: A files the forgotten sensor into a new entity of its own name, never into B's", async () => {
    const { a, b } = await pair();
    expect((await post(a, '/record', { entity_name: 'hall', metric: 'temperature', value: 19 })).status).toBe(200);
    expect((await post(a, '/record', { entity_name: 'sensor-x', metric: 'temperature', value: 1 })).status).toBe(200); // highest entity and series id
    expect((await post(b, '/forget', { entity_name: 'sensor-x' })).status).toBe(200);
    expect((await post(b, '/record', { entity_name: 'intruder', metric: 'temperature', value: 100 })).status).toBe(200);

    const [x, hall] = await Promise.all([
      post(a, '/record', { entity_name: 'sensor-x', metric: 'temperature', value: 2 }),
      post(a, '/record', { entity_name: 'hall', metric: 'temperature', value: 20 }),
    ]);
    expect([x.status, hall.status], JSON.stringify([x.body, hall.body])).toEqual([200, 200]);
    expect(values(await post(b, '/query_stream', { entity_name: 'intruder', metric: 'temperature' }))).toEqual([100]);
    expect(values(await post(b, '/query_stream', { entity_name: 'sensor-x', metric: 'temperature' }))).toEqual([2]);
    expect(values(await post(a, '/query_stream', { entity_name: 'hall', metric: 'temperature' }))).toEqual([19, 20]);
    const ids = (await get(b, '/entities')).body.entities.map((e: { name: string; id: number }) => [e.name, e.id]);
    expect(Object.fromEntries(ids)).toEqual({ hall: 1, intruder: 3, 'sensor-x': 4 }); // 2 was sensor-x's: never handed out again
  });

  it("a forget in B while A holds cached ids never fails A's next batch for unrelated writers", async () => {
    const { a, b } = await pair();
    const names = ['kitchen', 'bath', 'victim', 'porch'];
    for (const n of names)
      expect((await post(a, '/record', { entity_name: n, metric: 'humidity', value: 50 })).status).toBe(200);
    expect((await post(b, '/forget', { entity_name: 'victim' })).status).toBe(200);
    const batch = await Promise.all(
      names.map((n) => post(a, '/record', { entity_name: n, metric: 'humidity', value: 51 })),
    );
    expect(
      batch.map((r) => r.status),
      JSON.stringify(batch.map((r) => r.body)),
    ).toEqual([200, 200, 200, 200]);
    const bulk = await post(a, '/record/bulk', {
      readings: names.map((n) => ({ entity_name: n, metric: 'humidity', value: 52 })),
    });
    expect(bulk.body.inserted).toBe(4);
    for (const n of names)
      expect(values(await post(b, '/query_stream', { entity_name: n, metric: 'humidity' }))).toEqual(
        n === 'victim' ? [51, 52] : [50, 51, 52],
      );
  });

  it('a series B creates for an entity A has cached is found by A, not duplicated', async () => {
    const { a, b } = await pair();
    expect((await post(a, '/record', { entity_name: 'attic', metric: 'temperature', value: 10 })).status).toBe(200);
    expect((await post(b, '/record', { entity_name: 'attic', metric: 'pressure', value: 1000 })).status).toBe(200);
    expect(
      (await post(a, '/record', { entity_name: 'attic', metric: 'pressure', value: 1001, unit: 'hPa' })).status,
    ).toBe(200);
    expect(values(await post(b, '/query_stream', { entity_name: 'attic', metric: 'pressure' }))).toEqual([1000, 1001]);
    expect(a.db.prepare('SELECT count(*) FROM series').pluck().get()).toBe(2);
  });

  it('a transaction holds the write lock from its start, so another process cannot commit between its read and its write', () => {
    const dir = tempDir();
    const a = openDatabase({ dataDir: dir });
    const b = openDatabase({ dataDir: dir });
    b.pragma('busy_timeout = 0');
    try {
      const seen = a.transaction(() => {
        const n = a.prepare('SELECT count(*) FROM sources').pluck().get();
        expect(() => b.prepare("INSERT INTO sources (name) VALUES ('b')").run()).toThrow(/busy|locked/i);
        a.prepare("INSERT INTO sources (name) VALUES ('a')").run(); // a deferred transaction would fail here had b committed
        return n;
      })();
      expect(seen).toBe(0);
      b.prepare("INSERT INTO sources (name) VALUES ('b')").run();
      expect(a.prepare('SELECT name FROM sources ORDER BY id').pluck().all()).toEqual(['a', 'b']);
    } finally {
      a.close();
      b.close();
    }
  });

  it("readings B commits mark A's rollups due", async () => {
    const { a, b } = await pair();
    a.services.timeseries.markRolledUp();
    expect(a.services.timeseries.dirty).toBe(false);
    expect((await post(b, '/record', { entity_name: 'cellar', metric: 'temperature', value: 12 })).status).toBe(200);
    expect(a.services.timeseries.dirty).toBe(true);
  });
});
