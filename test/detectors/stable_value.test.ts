import { afterEach, describe, expect, it } from 'vitest';
import stableValue from '../../detectors/stable_value/index.js';
import { fixture, grid, rng, type Fixture, type Tick } from './fixtures.js';

const fixtures: Fixture[] = [];
function run(
  series: [entity: string, metric: string, fn: (t: Tick) => number, unit: string, entityType?: string][],
  opts = {},
) {
  const f = fixture();
  fixtures.push(f);
  for (const [entity, metric, fn, unit, entityType] of series)
    f.series(entity, metric, grid(21, 900, fn), { unit, entityType });
  return f.run(stableValue, opts);
}
afterEach(() => fixtures.splice(0).forEach((f) => f.close()));

describe('stable_value', () => {
  it('finds a steady series and phrases it with the label and a rounded level', async () => {
    const r = rng(1);
    const out = await run([
      [
        'Brian',
        'bedroom_temperature',
        (t) => 68.3 + 0.6 * Math.sin((2 * Math.PI * t.h) / 24) + r.n(0.3),
        '°F',
        'person',
      ],
    ]);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({
      pattern_key: 'stable_value:Brian:bedroom_temperature',
      entity: 'Brian',
      metric: 'bedroom_temperature',
      category: 'preference',
      fact: "Brian's bedroom temperature is consistently around 68°F",
    });
    expect(out[0].confidence).toBeGreaterThan(0.7);
    expect(out[0].evidence).toMatchObject({ segment: 'day', days: 14 });
  });

  it.each([
    [68.2, 68.4, true],
    [68.0, 70.0, false],
  ])('level %s vs %s: same text = %s, same key always', async (a, b, same) => {
    const r = rng(2);
    const noise = Array.from({ length: 5000 }, () => r.n(0.2));
    let i = 0;
    const [x] = await run([['bedroom', 'temperature', () => a + noise[i++ % noise.length], '°F']]);
    i = 0;
    const [y] = await run([['bedroom', 'temperature', () => b + noise[i++ % noise.length], '°F']]);
    expect(x.pattern_key).toBe(y.pattern_key);
    expect(x.fact === y.fact).toBe(same);
  });

  it.each([
    [
      'swings widely within each day and night (steady daily means)',
      (t: Tick) => 400 + 300 * Math.cos((2 * Math.PI * (t.h - 15)) / 12),
    ],
    [
      'has daily means that vary (CV ≈ 0.14, a 5-day cycle)',
      (t: Tick) => 20 + 4 * Math.sin((2 * Math.PI * (30 - t.ago + t.h / 24)) / 5),
    ],
    ['falls steadily (weight down 0.25 kg/day)', (t: Tick) => 84 - 0.25 * (30 - t.ago)],
    ['hovers around zero (CV undefined)', (t: Tick) => Math.sin(t.ts / 7000)],
  ])('no finding when the series %s', async (_, fn) => {
    expect(await run([['room', 'value', fn, 'u']])).toEqual([]);
  });

  it('a ±9°F daily swing is not "consistent" over the whole day', async () => {
    const out = await run([
      ['bedroom', 'temperature', (t) => 68 + 9 * Math.cos((2 * Math.PI * (t.h - 15)) / 24), '°F'],
    ]);
    expect(out.filter((f) => f.evidence.segment === 'day')).toEqual([]);
  });

  it('reports the night when only nights are steady ("at night" key and text)', async () => {
    const r = rng(3);
    const peaks = Array.from({ length: 40 }, () => 600 + 500 * r.u());
    const co2 = (t: Tick) =>
      420 + r.n(6) + (t.h >= 9 && t.h < 18 ? peaks[t.ago] * Math.sin((Math.PI * (t.h - 9)) / 9) : 0);
    const out = await run([['office', 'co2', co2, 'ppm']]);
    expect(out.map((f) => [f.pattern_key, f.fact])).toEqual([
      ['stable_value:office:co2:night', 'The office co2 is consistently around 420 ppm at night'],
    ]);
    expect(out[0].evidence).toMatchObject({ segment: 'night' });
  });

  it('honours its options (a looser CV admits a variable series)', async () => {
    const fn = (t: Tick) => 20 + 3 * Math.sin((2 * Math.PI * (30 - t.ago + t.h / 24)) / 5);
    expect(await run([['room', 'temperature', fn, '°C']])).toEqual([]);
    const loose = await run([['room', 'temperature', fn, '°C']], { max_cv: 0.3, max_spread: 0.5 });
    expect(loose.map((f) => f.pattern_key)).toEqual(['stable_value:room:temperature']);
  });
});
