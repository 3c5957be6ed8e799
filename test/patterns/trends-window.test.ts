/**
 * get_trends' window (#34 item 6): it names the period it used and never sets part of a day against a
 * whole one. The home has a cold small hours (17 °C from midnight to 03:00) and 20 °C the rest of each
 * day, the same every day; at 03:00 the old reading of `days: 1` set today's three cold hours against
 * all of yesterday and called the bedroom 2.6 °C colder.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/lib/clock.js';
import { buildTestHub, post, type TestHub } from '../helpers/hub.js';

let hub: TestHub | undefined;
afterEach(async () => {
  await hub?.close();
  hub = undefined;
});

const s = (iso: string) => Date.parse(iso) / 1000;

async function homeAt(nowIso: string, timezone: string, firstDayIso: string) {
  const clock = manualClock(s(nowIso));
  hub = await buildTestHub({ clock, config: { timeseries: { timezone } } });
  const readings = [];
  // Every 30 minutes from the first day's local midnight up to now: 17 °C before 03:00 local, else 20 °C.
  for (let t = s(firstDayIso); t < clock.now(); t += 1800) {
    const hour = Number(
      new Intl.DateTimeFormat('en-GB', { timeZone: timezone, hour: 'numeric', hourCycle: 'h23' }).format(t * 1000),
    );
    readings.push({ entity_name: 'bedroom', metric: 'temperature', value: hour < 3 ? 17 : 20, unit: '°C', ts: t });
  }
  const r = await post(hub, '/record/bulk', { readings });
  expect(r.body.inserted).toBe(readings.length);
  return hub;
}

describe('get_trends window', () => {
  it('days: 1 at 03:00 is the last 24 hours against the 24 hours before — the same home reads the same', async () => {
    const h = await homeAt('2026-12-03T03:00:00Z', 'Europe/London', '2026-11-28T00:00:00Z');
    const r = await post(h, '/get_trends', { entity_name: 'bedroom', metric: 'temperature', days: 1 });
    expect(r.status).toBe(200);
    expect(r.body.window).toBe('the last 24 hours');
    expect(r.body.whole_days).toBe(false);
    expect(r.body.to).toBe(s('2026-12-03T03:00:00Z'));
    expect(r.body.to - r.body.from).toBeGreaterThanOrEqual(86_400);
    expect(r.body.level).toBeCloseTo(20 - (3 * 3) / 24, 1); // 21 h at 20, 3 h at 17
    expect(Math.abs(r.body.change_vs_previous)).toBeLessThan(0.1);
    expect(r.body.result).toMatch(
      /^Over the last 24 hours bedroom temperature averaged .*; about the same as the 24 hours before\.$/,
    );
  });

  it('whole_days with days: 1 is yesterday against the day before, in the home zone', async () => {
    const h = await homeAt('2026-12-03T03:00:00Z', 'America/New_York', '2026-11-28T05:00:00Z');
    const r = await post(h, '/get_trends', {
      entity_name: 'bedroom',
      metric: 'temperature',
      days: 1,
      whole_days: true,
    });
    expect(r.body.window).toBe('yesterday');
    // 03:00 UTC is 22:00 on 2 December in New York: yesterday there is 1 December, 05:00Z to 05:00Z.
    expect([r.body.from, r.body.to]).toEqual([s('2026-12-01T05:00:00Z'), s('2026-12-02T05:00:00Z')]);
    expect(r.body.level).toBeCloseTo(20 - (3 * 3) / 24, 1);
    expect(Math.abs(r.body.change_vs_previous)).toBeLessThan(0.1);
    expect(r.body.result).toMatch(/^Yesterday bedroom temperature averaged .*; about the same as the day before\.$/);
  });

  it('a change is measured between whole periods and said with both names', async () => {
    const h = await homeAt('2026-12-03T12:00:00Z', 'Europe/London', '2026-11-20T00:00:00Z');
    // The last 3 days 2 °C warmer at every reading.
    const warm = [];
    for (let t = s('2026-11-30T12:00:00Z') + 900; t < s('2026-12-03T12:00:00Z'); t += 1800)
      warm.push({ entity_name: 'bedroom', metric: 'temperature', value: 22, unit: '°C', ts: t });
    await post(h, '/record/bulk', { readings: warm });
    const r = await post(h, '/get_trends', { entity_name: 'bedroom', metric: 'temperature', days: 3 });
    expect(r.body.window).toBe('the last 3 days');
    expect(r.body.change_vs_previous).toBeGreaterThan(0.5);
    expect(r.body.result).toMatch(/^Over the last 3 days .* higher than the 3 days before \(\d+(\.\d)?°C\)\.$/);
    const w = await post(h, '/get_trends', {
      entity_name: 'bedroom',
      metric: 'temperature',
      days: 2,
      whole_days: true,
    });
    expect(w.body.window).toBe('the 2 whole days before today');
    expect(w.body.result).toMatch(/than the 2 days before those/);
  });

  it('says which window had no readings', async () => {
    const h = await homeAt('2026-12-03T12:00:00Z', 'Europe/London', '2026-11-20T00:00:00Z');
    h.clock.set(s('2026-12-10T12:00:00Z'));
    const r = await post(h, '/get_trends', { entity_name: 'bedroom', metric: 'temperature', days: 1 });
    expect(r.body.result).toBe('No temperature readings for bedroom in the last 24 hours.');
  });
});
