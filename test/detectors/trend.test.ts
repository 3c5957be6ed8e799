import { afterEach, describe, expect, it } from 'vitest';
import trend from '../../detectors/trend/index.js';
import { fixture, grid, rng, type Fixture, type Tick } from './fixtures.js';

const fixtures: Fixture[] = [];
async function run(fn: (t: Tick) => number, unit = '%', opts = {}) {
  const f = fixture();
  fixtures.push(f);
  f.series('living_room', 'humidity', grid(30, 900, fn), { unit });
  return f.run(trend, opts);
}
afterEach(() => fixtures.splice(0).forEach((f) => f.close()));

describe('trend', () => {
  it('finds a rise of 1.2 %/day over the last 10 days after a flat period', async () => {
    const r = rng(1);
    const day = Array.from({ length: 40 }, () => r.n(0.3));
    const out = await run(
      (t) => 40 + Math.max(0, 12 - t.ago) * 1.2 + day[t.ago] + 2 * Math.sin((2 * Math.PI * t.h) / 24) + r.n(0.4),
    );
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({
      pattern_key: 'trend:living_room:humidity',
      category: 'insight',
      fact: 'The living room humidity has risen about 1.2%/day over the last 10 days',
    });
    expect(out[0].evidence.r2 as number).toBeGreaterThan(0.9);
  });

  it('says "fallen" and keeps the same key when the direction flips', async () => {
    const out = await run((t) => 20 - 0.45 * (30 - t.ago) + 1.5 * Math.sin((2 * Math.PI * t.h) / 24), '°C');
    expect(out.map((f) => [f.pattern_key, f.fact])).toEqual([
      ['trend:living_room:humidity', 'The living room humidity has fallen about 0.45°C/day over the last 10 days'],
    ]);
  });

  it.each([
    ['Gaussian noise around a level', 1],
    ['a random walk', 2],
    ['a weak trend (r² ≈ 0.3)', 3],
  ])('no finding for %s', async (_, kind) => {
    const r = rng(7 + kind);
    let walk = 50;
    const day = Array.from({ length: 40 }, () => r.n(1));
    const fn = (t: Tick) =>
      kind === 1
        ? 50 + r.n(3)
        : kind === 2
          ? (walk += r.n(2 / Math.sqrt(96)))
          : 50 + 0.15 * (30 - t.ago) + day[t.ago] * 0.75 + r.n(0.5);
    expect(await run(fn)).toEqual([]);
  });

  it('needs min_days of data', async () => {
    const f = fixture();
    fixtures.push(f);
    f.series(
      'nas',
      'disk_used',
      grid(5, 3600, (t) => 50 + 0.8 * (30 - t.ago)),
      { unit: '%' },
    );
    expect(await f.run(trend)).toEqual([]);
    expect(await f.run(trend, { min_days: 4 })).toHaveLength(1);
  });
});
