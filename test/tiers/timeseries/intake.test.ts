import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestHub, post, type TestHub } from '../../helpers/hub.js';

/**
 * `timeseries.ingest`, the one way in for readings: check (shared schema) → prepare (time window) →
 * submit (committed before it resolves), one result per item in input order. Real SQLite, real services.
 */
let hub: TestHub;
beforeAll(async () => {
  hub = await buildTestHub();
  hub.clock.set(1_780_000_000);
});
afterAll(async () => {
  await hub?.close();
});
const points = async (entity_name: string, metric: string) =>
  ((await post(hub, '/query_stream', { entity_name, metric, start_ts: 0 })).body.points ?? []).map(
    (p: { value: unknown }) => p.value,
  );

describe('timeseries.ingest', () => {
  it('gives one result per item, in order, naming the field and the stage that refused it', async () => {
    const now = hub.clock.now();
    const results = await hub.services.timeseries.ingest(
      [
        { entity_name: 'kitchen', metric: 'temperature', value: 21, ts: now - 60 },
        { entity_name: 'kitchen', value: 21 },
        { entity_name: 'kitchen', metric: 'temperature', value: 22, ts: now + 2 * 86_400 },
        { entity_name: 'kitchen', metric: 'temperature', value: 'warm' },
        42,
        { entity_name: ' kitchen ', metric: 'humidity', value: 40, unit: '%' },
      ],
      { label: (i) => `readings.${i}` },
    );
    expect(results.map((r) => r.ok)).toEqual([true, false, false, false, false, true]);
    expect(results[1]).toMatchObject({ ok: false, error: 'invalid', stage: 'check' });
    expect((results[1] as { message: string }).message).toMatch(/^readings\.1\.metric: required/);
    expect(results[2]).toMatchObject({ ok: false, error: 'invalid', stage: 'check' });
    expect((results[2] as { message: string }).message).toMatch(/^readings\.2\.ts: .* is in the future$/);
    expect(results[3]).toMatchObject({
      ok: false,
      stage: 'write',
      message: 'readings.3.value: temperature is numeric; got "warm"',
    });
    expect((results[4] as { message: string }).message).toMatch(/^readings\.4: /);
    expect(results[0]).toMatchObject({ ok: true, value_type: 'numeric' });
    expect((results[0] as { id: number }).id).toBeGreaterThan(0);
    // Committed by the time it resolved; the stored name is the schema's normalised one.
    expect(await points('kitchen', 'temperature')).toEqual([21]);
    expect(await points('kitchen', 'humidity')).toEqual([40]);
  });

  it('a string label is the root of every message, without a per-item path', async () => {
    const [r] = await hub.services.timeseries.ingest([{ entity_name: '', metric: 'm', value: 1 }], {
      label: 'payload',
    });
    expect(r).toMatchObject({ ok: false, stage: 'check', message: 'entity_name: must not be empty' });
    const [whole] = await hub.services.timeseries.ingest(['not an object'], { label: 'payload' });
    expect((whole as { message: string }).message).toMatch(/^payload: /);
  });

  it('dedupe skips a reading already stored, per item', async () => {
    const ts = hub.clock.now() - 30;
    const item = { entity_name: 'hall', metric: 'lux', value: 300, ts };
    expect((await hub.services.timeseries.ingest([item]))[0]).toMatchObject({ ok: true });
    const again = await hub.services.timeseries.ingest([item, { ...item, value: 310 }], {
      dedupe: (i) => (i === 0 ? 'exact' : undefined),
    });
    expect(again[0]).toMatchObject({ ok: true, skipped: true });
    expect(again[1]).toMatchObject({ ok: true });
    expect((again[1] as { skipped?: boolean }).skipped).toBeUndefined();
    expect(await points('hall', 'lux')).toEqual([300, 310]);
  });

  it('commits `chunk` readings per transaction, results still in input order', async () => {
    const stats = hub.services.timeseries.writer.stats;
    const before = stats.batches;
    const now = hub.clock.now();
    const items = Array.from({ length: 1203 }, (_, i) =>
      i === 700 ? { entity_name: 'cellar' } : { entity_name: 'cellar', metric: 'temp', value: i, ts: now - 2000 + i },
    );
    const results = await hub.services.timeseries.ingest(items, { chunk: 500, label: 'line' });
    expect(stats.batches - before).toBe(3); // 1202 valid readings: 500 + 500 + 202
    expect(results.filter((r) => r.ok)).toHaveLength(1202);
    expect(results[700]).toMatchObject({ ok: false, stage: 'check' });
    const stored = await post(hub, '/query_stream', {
      entity_name: 'cellar',
      metric: 'temp',
      start_ts: 0,
      limit: 2000,
    });
    expect(stored.body.points).toHaveLength(1202);
    const ids = results.filter((r) => r.ok).map((r) => (r as { id: number }).id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });
});
