/**
 * The rollup lane (timeseries.rollupAll, issue #36): a whole-house pass runs in slices with a turn of
 * the event loop between them, one pass at a time; callers that arrive while a pass waits share it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { internals } from '../../../src/internals.js';
import { ROLLUP_SLICE } from '../../../src/tiers/timeseries/timeseries.service.js';
import { buildTestHub, type TestHub } from '../../helpers/hub.js';

let hub: TestHub;
beforeEach(async () => {
  hub = await buildTestHub();
});
afterEach(async () => {
  await hub.close();
});

/** `n` readings of one series straight into the table (the lane's work, without the ingest path). */
async function readings(n: number, metric = 'x') {
  await hub.services.timeseries.record({ entity_name: 'lab', metric, value: 0, source: 'api' });
  const { db } = internals(hub.services);
  const sid = db.prepare('SELECT id FROM series ORDER BY id DESC LIMIT 1').pluck().get() as number;
  const insert = db.prepare('INSERT INTO readings (series_id, ts_ms, value_num) VALUES (?, ?, ?)');
  const t0 = (hub.clock.now() - 30 * 86_400) * 1000;
  db.transaction(() => {
    for (let i = 0; i < n; i++) insert.run(sid, t0 + i * 10_000, i % 7);
  })();
}

describe('rollup lane', () => {
  it('a pass over more than one slice lets other work run between its slices', async () => {
    await readings(ROLLUP_SLICE * 2 + 10);
    const order: string[] = [];
    const pass = hub.services.timeseries.rollupAll().then((r) => {
      order.push('pass');
      return r;
    });
    setImmediate(() => order.push('other work'));
    const r = await pass;
    expect(order).toEqual(['other work', 'pass']);
    expect(r.readings).toBeGreaterThan(ROLLUP_SLICE * 2);
    expect(r.more).toBeFalsy();
    const hours = internals(hub.services)
      .db.prepare("SELECT sum(count) FROM reading_rollups WHERE bucket_type = 'hour'")
      .pluck()
      .get() as number;
    expect(hours).toBe(ROLLUP_SLICE * 2 + 11);
  });

  it('counts each series once over all slices of a pass', async () => {
    // A slice's worth in each series (record's reading and n − 1 more): the slices read one series each.
    await readings(ROLLUP_SLICE - 1, 'x');
    await readings(ROLLUP_SLICE - 1, 'y');
    const r = await hub.services.timeseries.rollupAll();
    expect(r.readings).toBe(ROLLUP_SLICE * 2);
    expect(r.series).toBe(2);
  });

  it('one pass at a time: a caller while a pass waits shares it, one after it starts gets the next', async () => {
    await readings(1000);
    const first = hub.services.timeseries.rollupAll();
    const second = hub.services.timeseries.rollupAll(); // the first has not started yet: the same pass
    expect(second).toBe(first);
    const a = await first;
    expect(a.readings).toBe(1001);
    await hub.services.timeseries.record({ entity_name: 'lab', metric: 'x', value: 1, source: 'api' });
    const b = await hub.services.timeseries.rollupAll();
    expect(b.readings).toBe(1);
  });
});
