import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestHub, get, post, type TestHub } from '../helpers/hub.js';

let hub: TestHub;
beforeEach(async () => {
  hub = await buildTestHub({ config: { timeseries: { timezone: 'Europe/Berlin' } } });
});
afterEach(async () => {
  await hub.close();
});

const now = () => hub.clock.now();

describe('HTTP time series', () => {
  it('records numeric, categorical and composite readings and reads them back', async () => {
    const a = await post(hub, '/record', {
      entity_name: 'bedroom',
      metric: 'temperature',
      value: 21.5,
      unit: '°C',
      source: 'ha',
      entity_type: 'room',
    });
    expect(a.body).toMatchObject({ ok: true, value_type: 'numeric', children: [] });
    const b = await post(hub, '/record', { entity_name: 'Brian', metric: 'presence', value: 'home', source: 'ha' });
    expect(b.body.value_type).toBe('categorical');
    const c = await post(hub, '/record', {
      entity_name: 'Brian',
      metric: 'mood',
      value: { mood: 'focused', confidence: 0.87 },
      source: 'avatar_ability',
    });
    expect(c.body.value_type).toBe('composite');
    expect(c.body.children.map((x: { metric: string; value_type: string }) => [x.metric, x.value_type])).toEqual([
      ['mood.mood', 'categorical'],
      ['mood.confidence', 'numeric'],
    ]);
    const q = await post(hub, '/query_stream', { entity_name: 'bedroom', metric: 'temperature' });
    expect(q.body.points).toEqual([{ ts: now(), value: 21.5, unit: '°C', source: 'ha' }]);
    const m = await post(hub, '/query_stream', { entity_name: 'Brian', metric: 'mood' });
    expect(m.body.points[0].value).toEqual({ mood: 'focused', confidence: 0.87 });
    const part = await post(hub, '/query_stream', { entity_name: 'Brian', metric: 'mood.confidence' });
    expect(part.body.points[0].value).toBe(0.87);
    const profile = await get(hub, '/profile/Brian');
    expect(profile.body.readings.map((r: { metric: string }) => r.metric)).toEqual([
      'mood',
      'mood.confidence',
      'mood.mood',
      'presence',
    ]);
  });

  it('accepts ISO timestamps and refuses readings outside the window with a clear 400', async () => {
    const iso = new Date((now() - 3600) * 1000).toISOString().replace('Z', '+00:00');
    expect((await post(hub, '/record', { entity_name: 'x', metric: 'm', value: 1, ts: iso })).status).toBe(200);
    const old = await post(hub, '/record', { entity_name: 'x', metric: 'm', value: 1, ts: now() - 40 * 86400 });
    expect(old.status).toBe(400);
    expect(old.body.message).toMatch(/^ts: older than the 30-day retention window/);
    const future = await post(hub, '/record', { entity_name: 'x', metric: 'm', value: 1, ts: '9999-01-01T00:00:00Z' });
    expect(future.body.message).toMatch(/^ts: .* is in the future/);
    const conflict = await post(hub, '/record', { entity_name: 'x', metric: 'm', value: 'not a number' });
    expect(conflict.status).toBe(409);
    expect(conflict.body.message).toMatch(/^value: m is numeric/);
    expect((await post(hub, '/record', { entity_name: 'x', metric: 'm', value: '22.5' })).status).toBe(200);
  });

  it.each([
    [{ metric: 'm', value: 1 }, /^entity_name: required/],
    [{ entity_name: 'x', value: 1 }, /^metric: required/],
    [{ entity_name: 'x', metric: 'm' }, /^value/],
    [{ entity_name: 'x', metric: 'm', value: null }, /^value/],
    [{ entity_name: 'x', metric: 'm', value: {} }, /^value/],
    [{ entity_name: 'x', metric: 'm', value: 1, ts: 'yesterday' }, /^ts/],
    [{ entity_name: 'x', metric: 'm', value: 1, ts: 1e300 }, /^ts/],
  ])('POST /record %j → 400 naming the field', async (body, message) => {
    const r = await post(hub, '/record', body);
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(message);
  });

  it('bulk: valid items commit together with per-item results', async () => {
    const r = await post(hub, '/record/bulk', {
      readings: [
        { entity_name: 'kitchen', metric: 'temperature', value: 20, ts: now() - 60 },
        { entity_name: 'kitchen', metric: 'temperature' },
        { entity_name: 'kitchen', metric: 'temperature', value: 'warm' },
        { entity_name: 'kitchen', metric: 'humidity', value: 41 },
        'garbage',
      ],
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ count: 5, inserted: 2, rejected: 3 });
    expect(r.body.results.map((x: { ok: boolean }) => x.ok)).toEqual([true, false, false, true, false]);
    expect(r.body.results[1].message).toMatch(/^readings\.1\.value/);
    expect(r.body.results[2]).toMatchObject({ error: 'conflict' });
    expect(r.body.results[4].message).toMatch(/^readings\.4/);
    expect((await post(hub, '/record/bulk', { readings: [] })).status).toBe(400);
    expect((await post(hub, '/record/bulk', {})).body.message).toMatch(/^readings/);
  });

  it('query_stream serves hour/day/week rollups in the hub time zone', async () => {
    // 2026-01-01 00:00 UTC is 01:00 in Berlin: readings across local midnight split into two days.
    hub.clock.set(Date.parse('2026-01-02T12:00:00Z') / 1000);
    const base = Date.parse('2025-12-31T22:30:00Z') / 1000; // 23:30 Berlin, Dec 31
    const readings = [10, 20, 30, 40].map((v, i) => ({
      entity_name: 'bedroom',
      metric: 'temperature',
      value: v,
      ts: base + i * 1800,
    }));
    await post(hub, '/record/bulk', { readings });
    const day = await post(hub, '/query_stream', { entity_name: 'bedroom', metric: 'temperature', granularity: 'day' });
    expect(day.body.points).toEqual([
      {
        bucket_ts: Date.parse('2025-12-30T23:00:00Z') / 1000,
        count: 1,
        avg: 10,
        min: 10,
        max: 10,
        p10: 10,
        p90: 10,
        mode: null,
      },
      {
        bucket_ts: Date.parse('2025-12-31T23:00:00Z') / 1000,
        count: 3,
        avg: 30,
        min: 20,
        max: 40,
        p10: 22,
        p90: 38,
        mode: null,
      },
    ]);
    // A late reading lands in an already rolled-up bucket and is counted.
    await post(hub, '/record', { entity_name: 'bedroom', metric: 'temperature', value: 50, ts: base + 600 });
    const again = await post(hub, '/query_stream', {
      entity_name: 'bedroom',
      metric: 'temperature',
      granularity: 'day',
    });
    expect(again.body.points[0]).toMatchObject({ count: 2, avg: 30, max: 50 });
    const hours = await post(hub, '/query_stream', {
      entity_name: 'bedroom',
      metric: 'temperature',
      granularity: 'hour',
      limit: 2,
    });
    expect(hours.body.points).toHaveLength(2);
    expect(hours.body.points[1].bucket_ts).toBe(Date.parse('2026-01-01T00:00:00Z') / 1000);
  });

  it('query_stream answers 404 for an unknown metric and 400 for a reversed window', async () => {
    expect((await post(hub, '/query_stream', { entity_name: 'nobody', metric: 'x' })).status).toBe(404);
    await post(hub, '/record', { entity_name: 'a', metric: 'b', value: 1 });
    expect(
      (await post(hub, '/query_stream', { entity_name: 'a', metric: 'b', start_ts: now(), end_ts: now() - 10 })).body
        .message,
    ).toMatch(/^end_ts/);
    expect(
      (await post(hub, '/query_stream', { entity_name: 'a', metric: 'b', granularity: 'minute' })).body.message,
    ).toMatch(/^granularity/);
  });

  it('prune deletes raw readings past retention only once rolled up, and keeps rollups', async () => {
    await post(hub, '/record', { entity_name: 'hall', metric: 'temperature', value: 19, ts: now() - 20 * 86400 });
    await post(hub, '/record', { entity_name: 'hall', metric: 'temperature', value: 21 });
    hub.clock.advance(15 * 86400);
    const dry = await post(hub, '/prune', { dry_run: true });
    expect(dry.body).toMatchObject({ ok: true, dry_run: true, deleted: 1 });
    const real = await post(hub, '/prune', {});
    expect(real.body.deleted).toBe(1);
    const raw = await post(hub, '/query_stream', { entity_name: 'hall', metric: 'temperature' });
    expect(raw.body.points.map((p: { value: number }) => p.value)).toEqual([21]);
    const days = await post(hub, '/query_stream', { entity_name: 'hall', metric: 'temperature', granularity: 'day' });
    expect(days.body.points.map((p: { avg: number }) => p.avg)).toEqual([19, 21]);
  });

  it('schedules recurring events and expands them in local time across DST', async () => {
    hub.clock.set(Date.parse('2026-10-20T12:00:00Z') / 1000);
    const r = await post(hub, '/schedule', {
      entity_name: 'Maya',
      title: 'Soccer practice',
      start_ts: '2026-10-20T16:30:00+02:00',
      end_ts: '2026-10-20T18:00:00+02:00',
      recurrence: 'FREQ=WEEKLY;BYDAY=TU,TH',
    });
    expect(r.body).toMatchObject({ ok: true });
    const list = await get(hub, `/schedule?entity_name=Maya&from=${now()}&to=${now() + 14 * 86400}`);
    const starts = list.body.occurrences.map((o: { start_ts: number }) => new Date(o.start_ts * 1000).toISOString());
    // Berlin leaves summer time on Oct 25: 16:30 local is 14:30Z before and 15:30Z after.
    expect(starts).toEqual([
      '2026-10-20T14:30:00.000Z',
      '2026-10-22T14:30:00.000Z',
      '2026-10-27T15:30:00.000Z',
      '2026-10-29T15:30:00.000Z',
    ]);
    expect(list.body.occurrences[2].end_ts - list.body.occurrences[2].start_ts).toBe(5400);
    const bad = await post(hub, '/schedule', {
      entity_name: 'Maya',
      title: 'x',
      start_ts: now(),
      recurrence: 'EVERY TUESDAY',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^recurrence/);
    const profile = await get(hub, '/profile/Maya');
    expect(profile.body.schedule[0]).toMatchObject({ title: 'Soccer practice' });
  });
});
