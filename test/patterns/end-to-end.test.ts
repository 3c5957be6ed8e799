import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestHub, post, type TestHub } from '../helpers/hub.js';
import { localToUtc } from '../../src/lib/tz.js';

/**
 * SPEC §5 pattern engine, end to end over HTTP with the built-in detectors: three weeks of readings
 * in a zone with a UTC offset, then POST /patterns/run.
 */
const TZ = 'America/New_York';
let hub: TestHub;
let seed = 11;
const noise = () => (seed = (seed * 16807) % 2147483647) / 2147483647 - 0.5;

async function postDays(from: number, days: number, level: number) {
  const readings: Record<string, unknown>[] = [];
  for (let d = 0; d < days; d++) {
    for (let h = 0; h < 24; h++) {
      readings.push({
        entity_name: 'Brian',
        entity_type: 'person',
        metric: 'bedroom temperature',
        value: Math.round((level + noise() * 0.8) * 10) / 10,
        unit: '°F',
        ts: from + d * 86400 + h * 3600 + 600,
      });
    }
  }
  for (let i = 0; i < readings.length; i += 5000)
    expect((await post(hub, '/record/bulk', { readings: readings.slice(i, i + 5000) })).body.rejected).toBe(0);
}

beforeAll(async () => {
  hub = await buildTestHub({ config: { timeseries: { timezone: TZ, retention_days: 60 } } });
  const now = localToUtc({ year: 2026, month: 3, day: 30, hour: 12, minute: 0, second: 0 }, TZ);
  hub.clock.set(now);
  const start = now - 21 * 86400;
  await postDays(start, 21, 68);
  // Brian gets home at 18:10 local time on weekdays (with a few minutes' scatter) and leaves at 07:45.
  const presence: Record<string, unknown>[] = [];
  for (let d = 21; d >= 1; d--) {
    const local = new Date((now - d * 86400) * 1000);
    const parts = new Intl.DateTimeFormat('en-CA', {
      timeZone: TZ,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      weekday: 'short',
    }).formatToParts(local);
    const get = (t: string) => parts.find((p) => p.type === t)!.value;
    if (['Sat', 'Sun'].includes(get('weekday'))) continue;
    const day = { year: Number(get('year')), month: Number(get('month')), day: Number(get('day')) };
    presence.push({
      entity_name: 'Brian',
      metric: 'presence',
      value: 'not_home',
      ts: localToUtc({ ...day, hour: 7, minute: 45, second: 0 }, TZ),
    });
    presence.push({
      entity_name: 'Brian',
      metric: 'presence',
      value: 'home',
      ts: localToUtc({ ...day, hour: 18, minute: 8 + (d % 5), second: 0 }, TZ),
    });
  }
  expect((await post(hub, '/record/bulk', { readings: presence })).body.rejected).toBe(0);
});
afterAll(async () => {
  await hub?.close();
});

describe('pattern engine end to end', () => {
  it('promotes the stable temperature and the 18:10 weekday arrival in local time, and recall finds them', async () => {
    const run = await post(hub, '/patterns/run', {});
    expect(run.status).toBe(200);
    expect(run.body.errors).toEqual([]);
    const facts = run.body.promoted.map((p: { fact: string }) => p.fact);
    expect(facts).toContain("Brian's bedroom temperature is consistently around 68°F");
    expect(facts).toContain('Brian usually arrives home around 18:10 on weekdays');
    const memory = hub.services.memory.get(run.body.promoted[0].memory_id)!;
    expect(memory.source_trust).toBe(3);
    const r = await post(hub, '/recall', { query: 'what temperature does Brian like' });
    expect(r.body.results[0].fact).toBe("Brian's bedroom temperature is consistently around 68°F");
    const home = await post(hub, '/recall', { query: 'what time does Brian usually arrive home' });
    expect(home.body.results.map((x: { fact: string }) => x.fact)).toContain(
      'Brian usually arrives home around 18:10 on weekdays',
    );
  });

  it('promotes nothing new on a second run', async () => {
    const again = await post(hub, '/patterns/run', {});
    expect(again.body.promoted).toEqual([]);
    expect(again.body.found.length).toBeGreaterThan(0);
  });

  it('supersedes the memory when the stable level drifts from 68 to 70', async () => {
    const before = (
      hub.db.prepare("SELECT count(*) n FROM memories WHERE fact LIKE '%bedroom temperature%'").get() as { n: number }
    ).n;
    const now = hub.clock.now();
    hub.clock.set(now + 16 * 86400);
    await postDays(now, 16, 70);
    const run = await post(hub, '/patterns/run', {});
    const p = run.body.promoted.find((x: { fact: string }) => x.fact.includes('bedroom temperature'));
    expect(p).toMatchObject({ action: 'superseded', fact: "Brian's bedroom temperature is consistently around 70°F" });
    const rows = hub.db
      .prepare("SELECT status FROM memories WHERE fact LIKE '%bedroom temperature%' ORDER BY id")
      .all() as { status: string }[];
    expect(rows.map((x) => x.status)).toEqual(['superseded', 'active']);
    expect(rows.length).toBe(before + 1);
  });
});
