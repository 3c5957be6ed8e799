/**
 * A small home for the ask tests, stored through the real ingest (POST /record/bulk) with a fixed
 * clock in Europe/Berlin (UTC+1 in December): eight days of a Zigbee2MQTT garage door and front door
 * (`contact`, true = closed), a bedroom sensor (temperature, humidity), a kettle plug (power) and
 * Anna's presence from Home Assistant (`person.anna`, alias "Anna").
 */
import { expect } from 'vitest';
import { buildTestHub, post, type TestHub } from '../../helpers/hub.js';

export const TZ = 'Europe/Berlin';
/** Friday 4 December 2026, 09:00 in Berlin (08:00 UTC). */
export const NOW = Date.parse('2026-12-04T08:00:00Z') / 1000;
/** Berlin wall time (UTC+1) on a day of December 2026 (0 and below: late November) → epoch seconds. */
export const local = (day: number, hour: number, minute = 0) => Date.UTC(2026, 11, day, hour - 1, minute) / 1000;

/** Eight days of readings before NOW (the usual level needs a week before). */
export const START = local(-4, 9);
const STEP = 600;

type Reading = { entity_name: string; metric: string; value: unknown; unit?: string; ts: number; entity_type?: string };

/** Door openings as [from, to) pairs: contact false (open) inside, true (closed) outside. */
export const GARAGE_OPEN: [number, number][] = [
  [local(2, 7), local(2, 7, 10)],
  [local(3, 22, 30), local(3, 23, 50)],
];
/** The kettle's runs (2,000 W inside, 0.5 W standby outside). */
export const KETTLE_RUNS: [number, number][] = [
  [local(2, 8), local(2, 8, 4)],
  [local(3, 21), local(3, 21, 3)],
  [local(4, 7, 30), local(4, 7, 34)],
];

const inside = (ts: number, spans: [number, number][]) => spans.some(([a, b]) => ts >= a && ts < b);

/** Bedroom temperature: 19 °C by day, 17 °C by night, a warmer evening on the 3rd (21 °C from 18:00 to 22:00). */
export function bedroomAt(ts: number): number {
  if (ts >= local(3, 18) && ts < local(3, 22)) return 21;
  const hour = new Date((ts + 3600) * 1000).getUTCHours();
  return hour >= 7 && hour < 22 ? 19 : 17;
}

export function homeReadings(): Reading[] {
  const out: Reading[] = [];
  const doorTimes = new Set<number>();
  for (let t = START; t <= NOW; t += STEP) doorTimes.add(t);
  for (const [a, b] of GARAGE_OPEN) doorTimes.add(a).add(b);
  for (const t of [...doorTimes].sort((x, y) => x - y)) {
    out.push({
      entity_name: 'garage_door',
      metric: 'contact',
      value: !inside(t, GARAGE_OPEN),
      ts: t,
      entity_type: 'device',
    });
    out.push({ entity_name: 'front_door', metric: 'contact', value: true, ts: t, entity_type: 'device' });
  }
  for (let t = START; t <= NOW; t += STEP) {
    out.push({ entity_name: 'bedroom_sensor', metric: 'temperature', value: bedroomAt(t), unit: '°C', ts: t });
    out.push({ entity_name: 'bedroom_sensor', metric: 'humidity', value: 55, unit: '%', ts: t });
  }
  for (let t = START; t <= NOW; t += 60) {
    out.push({
      entity_name: 'kettle_plug',
      metric: 'power',
      value: inside(t, KETTLE_RUNS) ? 2000 : 0.5,
      unit: 'W',
      ts: t,
    });
  }
  // Anna: home, out from 8:30 to 17:00 on the 3rd.
  out.push({ entity_name: 'person.anna', metric: 'state', value: 'home', ts: START, entity_type: 'person' });
  out.push({ entity_name: 'person.anna', metric: 'state', value: 'not_home', ts: local(3, 8, 30) });
  out.push({ entity_name: 'person.anna', metric: 'state', value: 'home', ts: local(3, 17) });
  return out;
}

/** A test hub at NOW in Berlin with the home's readings stored through POST /record/bulk. */
export async function buildHome(opts: { token?: string } = {}): Promise<TestHub> {
  const hub = await buildTestHub({
    config: { timeseries: { timezone: TZ }, ...(opts.token && { http: { token: opts.token } }) },
  });
  hub.clock.set(NOW);
  const all = homeReadings();
  const auth = opts.token ? { authorization: `Bearer ${opts.token}` } : undefined;
  for (let i = 0; i < all.length; i += 10_000) {
    const r = await post(hub, '/record/bulk', { readings: all.slice(i, i + 10_000) }, auth);
    expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
    expect(r.body.rejected).toBe(0);
  }
  await post(hub, '/alias', { entity_name: 'person.anna', alias: 'Anna' }, auth);
  await hub.services.timeseries.rollupAll();
  return hub;
}
