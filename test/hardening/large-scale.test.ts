/**
 * Issue #10 item 12: name matching reads an index, not every series; a large /write yields to the event loop
 * between chunks. (How fast: `npm run bench -- --only scale`; here only what must hold.)
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tokenize } from '../../src/ai/text.js';
import { buildTestHub, get, post, type TestHub } from '../helpers/hub.js';

describe('at scale', () => {
  let hub: TestHub;
  beforeEach(async () => {
    hub = await buildTestHub();
  });
  afterEach(() => hub.close());

  it('matchSeries finds what a full scan finds, for series created by any connection, and drops forgotten ones', async () => {
    const rooms = ['bedroom', 'kitchen', 'living room', 'hall', 'attic', 'garage'];
    const metrics = ['temperature', 'humidity', 'co2', 'power.total', 'door_state'];
    const readings = rooms.flatMap((r, i) =>
      metrics.map((m, j) => ({ entity_name: `${r} sensor ${i}`, metric: m, value: i * 10 + j })),
    );
    expect((await post(hub, '/record/bulk', { readings })).body.inserted).toBe(readings.length);
    const scan = (query: string) => {
      const q = new Set(tokenize(query));
      return readings
        .map((r, id) => {
          const words = new Set(tokenize(`${r.entity_name} ${r.metric.replace(/[._]/g, ' ')}`));
          return { r, id, score: [...words].filter((w) => q.has(w)).length / Math.max(1, words.size) };
        })
        .filter((x) => x.score > 0)
        .sort((a, b) => b.score - a.score || a.id - b.id)
        .slice(0, 10)
        .map((x) => `${x.r.entity_name}/${x.r.metric}=${x.score.toFixed(4)}`);
    };
    for (const query of [
      'how warm is the bedroom',
      'kitchen humidity',
      'total power',
      'is the garage door open',
      'temperature',
      'living room co2 level',
    ]) {
      const got = hub.services.timeseries
        .matchSeries(query)
        .map((m) => `${m.entity_name}/${m.metric}=${m.score.toFixed(4)}`);
      expect(got, query).toEqual(scan(query));
    }
    // A series another process creates is found; a forgotten entity's are gone.
    const other = await buildTestHub({ dir: hub.dir, clock: hub.clock });
    try {
      expect(
        (await post(other, '/record', { entity_name: 'greenhouse', metric: 'soil_moisture', value: 40 })).status,
      ).toBe(200);
      expect(hub.services.timeseries.matchSeries('greenhouse soil')[0]).toMatchObject({
        entity_name: 'greenhouse',
        metric: 'soil_moisture',
        value: 40,
      });
      expect((await post(other, '/forget', { entity_name: 'greenhouse' })).status).toBe(200);
    } finally {
      await other.close();
    }
    expect(hub.services.timeseries.matchSeries('greenhouse soil')).toEqual([]);
    // A series written by plain SQL (an older Hearth, an import) is indexed on the next question.
    const db = hub.db;
    const e = db
      .prepare(
        "INSERT INTO entities (name, name_key, type, meta, created, updated) VALUES ('wine cellar', 'wine cellar', 'room', '{}', 0, 0)",
      )
      .run();
    const sid = db
      .prepare("INSERT INTO series (entity_id, metric, value_type, created) VALUES (?, 'temperature', 'numeric', 0)")
      .run(e.lastInsertRowid).lastInsertRowid;
    db.prepare('INSERT INTO readings (series_id, ts_ms, value_num) VALUES (?, ?, 11)').run(sid, hub.clock.now() * 1000);
    expect((await post(hub, '/record', { entity_name: 'pantry', metric: 'temperature', value: 15 })).status).toBe(200); // a newer series, indexed as created
    expect(hub.services.timeseries.matchSeries('wine cellar').map((m) => m.entity_name)).toEqual(['wine cellar']);
    const cq = await post(hub, '/cross_query', { query: 'how warm is the bedroom' });
    expect(cq.status).toBe(200);
    expect(JSON.stringify(cq.body)).toContain('bedroom sensor 0');
  });

  it('reads at most a bounded number of postings per word, however many series share it', async () => {
    const readings = Array.from({ length: 3000 }, (_, i) => ({
      entity_name: `probe ${i}`,
      metric: 'temperature',
      value: i,
    }));
    for (let i = 0; i < readings.length; i += 1000)
      expect((await post(hub, '/record/bulk', { readings: readings.slice(i, i + 1000) })).body.inserted).toBe(1000);
    const db = hub.db;
    hub.services.timeseries.matchSeries('temperature'); // indexes
    const plan = db
      .prepare('EXPLAIN QUERY PLAN SELECT series_id FROM series_terms WHERE term = ? ORDER BY n, series_id LIMIT ?')
      .all('temperatur', 200) as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' ')).toMatch(/SEARCH series_terms USING PRIMARY KEY \(term=\?\)/);
    const top = hub.services.timeseries.matchSeries('probe temperature', 5);
    expect(top.map((m) => m.entity_name)).toEqual(['probe 0', 'probe 1', 'probe 2', 'probe 3', 'probe 4']);
  });

  it('a large /write lets /health answer while it is being written, and stores every line', async () => {
    const now = Math.floor(hub.clock.now());
    const lines = Array.from(
      { length: 20_000 },
      (_, i) =>
        `m,host=h${i % 50} ${Array.from({ length: 5 }, (_, j) => `f${j}=${i + j}`).join(',')} ${now - 20_000 + i}`,
    );
    const order: string[] = [];
    const write = hub.app
      .inject({
        method: 'POST',
        url: '/write?precision=s',
        payload: lines.join('\n'),
        headers: { 'content-type': 'text/plain' },
      })
      .then((r) => order.push(`write ${r.statusCode}`));
    // Once the first chunk is on disk the write is under way: /health, asked now, must not wait for the rest.
    const count = hub.db.prepare('SELECT count(*) FROM readings').pluck();
    for (let i = 0; i < 1e6 && count.get() === 0 && !order.length; i++) await new Promise((r) => setImmediate(r));
    const health = get(hub, '/health').then((r) => order.push(`health ${r.status}`));
    await Promise.all([write, health]);
    expect(order).toEqual(['health 200', 'write 204']);
    expect(hub.db.prepare('SELECT count(*) FROM readings').pluck().get()).toBe(100_000);
  });
});
