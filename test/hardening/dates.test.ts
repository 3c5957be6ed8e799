/** Issue #10 item 4: impossible dates are refused at every door that takes a timestamp, never rolled over. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseIsoWithZone } from '../../src/lib/datetime.js';
import { tasmotaMapping } from '../../src/mqtt/mappings/tasmota.js';
import { ParseError } from '../../src/mqtt/mappings/types.js';
import { buildTestHub, post, type TestHub } from '../helpers/hub.js';
import { context, parse } from '../mqtt/mappings/helpers.js';

describe('impossible dates', () => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await buildTestHub();
    hub.clock.set(Date.parse('2025-06-01T00:00:00Z') / 1000);
  });
  afterAll(() => hub.close());

  it('the shared parser refuses days past the month end, hours 24+, and zone offsets out of range', () => {
    for (const bad of [
      '2025-02-30T10:00:00Z',
      '2025-04-31T10:00:00Z',
      '2025-02-29T00:00:00Z',
      '2025-13-01T00:00:00Z',
      '2025-01-01T24:00:00Z',
      '2025-01-01T10:60:00Z',
      '2025-01-01T10:00:61Z',
      '2025-01-01T10:00:00+25:00',
      '2025-00-10T10:00:00Z',
    ]) {
      expect(parseIsoWithZone(bad), bad).toBeUndefined();
    }
    expect(parseIsoWithZone('2024-02-29T10:00:00Z')).toBe(Date.UTC(2024, 1, 29, 10));
    expect(parseIsoWithZone('2025-04-30T23:59:59+02:00')).toBe(Date.UTC(2025, 3, 30, 21, 59, 59));
  });

  it('/record and /record/bulk answer 400 naming ts', async () => {
    const r = await post(hub, '/record', {
      entity_name: 'bedroom',
      metric: 'temperature',
      value: 20,
      ts: '2025-02-30T10:00:00Z',
    });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/^ts: not a real date-time/);
    const bulk = await post(hub, '/record/bulk', {
      readings: [{ entity_name: 'bedroom', metric: 'temperature', value: 20, ts: '2025-04-31T10:00:00Z' }],
    });
    expect(bulk.body.results[0]).toMatchObject({ ok: false, error: 'invalid' });
    expect(bulk.body.results[0].message).toMatch(/^readings\.0\.ts: not a real date-time/);
    expect((await post(hub, '/query_stream', { entity_name: 'bedroom', metric: 'temperature' })).status).toBe(404); // nothing stored as March 2
  });

  it('/schedule answers 400 naming start_ts / end_ts', async () => {
    const a = await post(hub, '/schedule', {
      entity_name: 'Maya',
      title: 'Dentist',
      start_ts: '2025-04-31T10:00:00+02:00',
    });
    expect(a.status).toBe(400);
    expect(a.body.message).toMatch(/^start_ts: not a real date-time/);
    const b = await post(hub, '/schedule', {
      entity_name: 'Maya',
      title: 'Dentist',
      start_ts: '2025-04-30T10:00:00Z',
      end_ts: '2025-02-30T11:00:00Z',
    });
    expect(b.status).toBe(400);
    expect(b.body.message).toMatch(/^end_ts: /);
  });

  it('Tasmota Time with an offset is refused naming Time', () => {
    const tasmota = tasmotaMapping();
    expect(() =>
      parse(tasmota, 'tele/plug/SENSOR', '{"Time":"2025-02-30T10:00:00+01:00","ANALOG":{"A0":1}}', context('UTC')),
    ).toThrow(ParseError);
    expect(() =>
      parse(tasmota, 'tele/plug/SENSOR', '{"Time":"2025-02-30T10:00:00+01:00","ANALOG":{"A0":1}}', context('UTC')),
    ).toThrow(/Time/);
  });
});
