import { afterEach, describe, expect, it } from 'vitest';
import anomaly from '../../detectors/anomaly/index.js';
import { NOW, fixture, grid, rng, type Fixture, type Tick } from './fixtures.js';

const fixtures: Fixture[] = [];
afterEach(() => fixtures.splice(0).forEach((f) => f.close()));
const H = 3600;

/** Kitchen temperature: 21 °C with a daily cycle and noise, plus `extra(t)` on top. */
async function kitchen(extra: (t: Tick) => number, opts = {}, seed = 1) {
  const f = fixture();
  fixtures.push(f);
  const r = rng(seed);
  const day = Array.from({ length: 40 }, () => r.n(0.3));
  f.series(
    'kitchen',
    'temperature',
    grid(20, 600, (t) => 21 + day[t.ago] + Math.sin((2 * Math.PI * (t.h - 10)) / 24) + r.n(0.25) + extra(t)),
    { unit: '°C' },
  );
  return f.run(anomaly, opts);
}
const within = (t: Tick, fromH: number, toH: number) => t.ts >= NOW - fromH * H && t.ts < NOW - toH * H;

describe('anomaly', () => {
  it('reports a recent spike with a dated key and plain words', async () => {
    const out = await kitchen((t) => (within(t, 4, 2) ? 13 + (t.ts % 1800) / 900 : 0));
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({
      pattern_key: 'anomaly:kitchen:temperature:2025-11-30',
      entity: 'kitchen',
      metric: 'temperature',
      category: 'insight',
      fact: 'On 30 Nov the kitchen temperature reached 37°C, far above its usual 22°C',
    });
    expect(out[0].evidence.z as number).toBeGreaterThan(10);
  });

  it('reports a drop below the baseline ("dropped to … far below")', async () => {
    const out = await kitchen((t) => (within(t, 8, 6) ? -12 : 0));
    expect(out.map((x) => x.fact)).toEqual([
      'On 30 Nov the kitchen temperature dropped to 9.8°C, far below its usual 22°C',
    ]);
  });

  it.each([
    ['a 2σ blip', (t: Tick) => (within(t, 5, 4) ? 0.6 : 0)],
    ['a spike older than recent_hours', (t: Tick) => (within(t, 40, 38) ? 14 : 0)],
    ['the ordinary daily cycle', () => 0],
  ])('no finding for %s', async (_, extra) => {
    expect(await kitchen(extra)).toEqual([]);
  });

  it('ignores a random walk that drifts off its baseline slowly', async () => {
    const f = fixture();
    fixtures.push(f);
    const r = rng(5);
    let v = 15;
    f.series(
      'attic',
      'temperature',
      grid(20, 900, (t) => (v += t.ago < 2 ? 0.12 : r.n(0.15))),
      { unit: '°C' },
    );
    expect(await f.run(anomaly)).toEqual([]);
  });

  it('honours recent_hours', async () => {
    const extra = (t: Tick) => (within(t, 30, 29) ? 14 : 0);
    expect(await kitchen(extra)).toEqual([]);
    expect((await kitchen(extra, { recent_hours: 36 })).map((x) => x.pattern_key)).toEqual([
      'anomaly:kitchen:temperature:2025-11-29',
    ]);
  });
});
