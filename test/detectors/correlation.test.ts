import { describe, expect, it } from 'vitest';
import correlation from '../../detectors/correlation/index.js';
import { fixturesPerTest, grid, rng, type Tick } from './fixtures.js';

const open = fixturesPerTest();
const diurnal = (t: Tick, a: number) => a * Math.sin((2 * Math.PI * (t.h - 9)) / 24);

describe('correlation', () => {
  it('finds two series driven by the same daily factor, with a sorted pair key', async () => {
    const f = open();
    const r = rng(1);
    const weather: number[] = [0];
    for (let i = 1; i < 40; i++) weather.push(0.6 * weather[i - 1] + r.n(2));
    f.series(
      'outdoor',
      'temperature',
      grid(30, 900, (t) => 6 + weather[t.ago] + diurnal(t, 3) + r.n(0.5)),
      { unit: '°C', entityType: 'weather' },
    );
    f.series(
      'heat_pump',
      'power',
      grid(30, 900, (t) => 1000 - 90 * weather[t.ago] + r.n(60)),
      { unit: 'W', entityType: 'device' },
    );
    f.series(
      'living_room',
      'temperature',
      grid(30, 900, (t) => 21 + 0.3 * weather[t.ago] + r.n(0.2)),
      { unit: '°C' },
    );
    const out = await f.run(correlation);
    const keys = out.map((x) => x.pattern_key).sort();
    expect(keys).toEqual([
      'correlation:heat_pump:power|living_room:temperature',
      'correlation:heat_pump:power|outdoor:temperature',
      'correlation:living_room:temperature|outdoor:temperature',
    ]);
    const hp = out.find((x) => x.pattern_key === 'correlation:heat_pump:power|outdoor:temperature')!;
    expect(hp).toMatchObject({ entity: 'heat_pump', metric: 'power|temperature', category: 'insight' });
    expect(hp.fact).toBe(
      'The heat pump power and the outdoor temperature move in opposite directions (r≈-1.0 over 30 days)',
    );
    const lr = out.find((x) => x.pattern_key === 'correlation:living_room:temperature|outdoor:temperature')!;
    expect(lr.fact).toMatch(
      /^The living room temperature and the outdoor temperature move together \(r≈(0\.9|1\.0) over 30 days\)$/,
    );
  });

  it('ignores two unrelated series that both trend (levels correlate, changes do not)', async () => {
    const f = open();
    const r = rng(2);
    const [a, b] = [Array.from({ length: 40 }, () => r.n(0.3)), Array.from({ length: 40 }, () => r.n(0.3))];
    f.series(
      'nas',
      'disk_used',
      grid(30, 3600, (t) => 50 + 0.8 * (30 - t.ago) + a[t.ago]),
      { unit: '%' },
    );
    f.series(
      'garage',
      'temperature',
      grid(30, 900, (t) => 20 - 0.4 * (30 - t.ago) + b[t.ago] + diurnal(t, 2)),
      { unit: '°C' },
    );
    expect(await f.run(correlation)).toEqual([]);
  });

  it('ignores a weak relation (r ≈ 0.5) and independent noise', async () => {
    const f = open();
    const r = rng(3);
    const x = Array.from({ length: 40 }, () => r.n(1));
    const y = x.map((v) => 0.5 * v + Math.sqrt(0.75) * r.n(1));
    const cum = (v: number[]) => v.map((_, i) => v.slice(i).reduce((s, z) => s + z, 0)); // index = days ago
    const [cx, cy] = [cum(x), cum(y)];
    f.series(
      'garden',
      'soil_moisture',
      grid(30, 3600, (t) => 35 + 4 * cx[t.ago]),
      { unit: '%' },
    );
    f.series(
      'garden',
      'water_used',
      grid(30, 3600, (t) => 200 + 15 * cy[t.ago]),
      { unit: 'L' },
    );
    f.series(
      'bedroom',
      'co2',
      grid(30, 900, () => 800 + r.n(150)),
      { unit: 'ppm' },
    );
    f.series(
      'hallway',
      'illuminance',
      grid(30, 900, () => 400 * r.u()),
      { unit: 'lx' },
    );
    expect(await f.run(correlation)).toEqual([]);
  });

  it('needs min_days shared days', async () => {
    const f = open();
    const r = rng(4);
    const s = Array.from({ length: 40 }, () => r.u());
    f.series(
      'solar',
      'power',
      grid(4, 900, (t) => 2000 * s[t.ago]),
      { unit: 'W' },
    );
    f.series(
      'living_room',
      'illuminance',
      grid(4, 900, (t) => 50 + 300 * s[t.ago]),
      { unit: 'lx' },
    );
    expect(await f.run(correlation)).toEqual([]);
  });
});
