/**
 * The conformance suite every detector runs (after aedes-persistence `abstract.js`): the contract of
 * `detect()` — shape of findings, keys that name the pattern and not its value, robustness on
 * degenerate data, determinism — checked on a generated household (real SQLite, real rollups).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_DETECTORS } from '../../detectors/index.js';
import type { Detector, Finding } from '../../src/patterns/detector.js';
import { generateHousehold, loadHousehold, type Household } from '../../scripts/lib/household-generator.js';
import { NOW, fixture, grid, type Fixture } from './fixtures.js';

const CATEGORIES = ['preference', 'habit', 'routine', 'relationship', 'insight', 'general'];

/** The same household with every numeric reading drifted by +0.3 % (a slightly warmer week). */
function drifted(h: Household): Household {
  const bump = (v: unknown) => (typeof v === 'number' ? v * 1.003 : v);
  return {
    ...h,
    series: h.series.map((s) => ({
      ...s,
      points: s.points.map(
        ([ts, v]) =>
          [
            ts,
            typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, bump(x)])) : bump(v),
          ] as [number, typeof v],
      ),
    })),
  };
}

/** Runs a detector on a household loaded into a fresh fixture database. */
async function onHousehold(h: Household, f: Fixture): Promise<Map<string, Finding[]>> {
  loadHousehold(f.db, h);
  const out = new Map<string, Finding[]>();
  for (const d of BUILTIN_DETECTORS) out.set(d.name, await f.run(d, {}, h.now));
  return out;
}

describe('detector conformance', () => {
  const fixtures: Fixture[] = [];
  const open = () => {
    const f = fixture();
    fixtures.push(f);
    return f;
  };
  let base: Map<string, Finding[]>;
  let drift: Map<string, Finding[]>;
  let again: Map<string, Finding[]>;
  let household: Household;

  beforeAll(async () => {
    household = generateHousehold(3);
    base = await onHousehold(household, open());
    drift = await onHousehold(drifted(household), open());
    again = await onHousehold(household, open());
  }, 60_000);
  afterAll(() => fixtures.forEach((f) => f.close()));

  describe.each(BUILTIN_DETECTORS.map((d) => [d.name, d] as [string, Detector]))('%s', (name, detector) => {
    it('has a name, a description and options that parse from an empty config', () => {
      expect(detector.name).toMatch(/^[a-z_]+$/);
      expect(detector.description.length).toBeGreaterThan(10);
      expect(() => detector.options.parse({})).not.toThrow();
      expect(() => detector.options.parse({ no_such_option: 1 })).not.toThrow();
    });

    it('returns findings with every field, in range, about existing series', () => {
      const found = base.get(name)!;
      expect(Array.isArray(found)).toBe(true);
      expect(found.length).toBeGreaterThan(0);
      const entities = new Set(household.series.map((s) => s.entity));
      for (const f of found) {
        expect(f.pattern_key.startsWith(`${name}:`)).toBe(true);
        expect(entities.has(f.entity)).toBe(true);
        expect(typeof f.metric).toBe('string');
        expect(f.metric.length).toBeGreaterThan(0);
        expect(CATEGORIES).toContain(f.category);
        expect(f.fact.length).toBeGreaterThan(10);
        expect(f.fact).not.toMatch(/NaN|undefined|Infinity|null/);
        expect(f.confidence).toBeGreaterThan(0);
        expect(f.confidence).toBeLessThanOrEqual(0.95);
        expect(JSON.parse(JSON.stringify(f.evidence))).toEqual(f.evidence);
      }
      expect(new Set(found.map((f) => f.pattern_key)).size).toBe(found.length);
    });

    it('names the pattern, not its value: no digits in keys (but an event date), same keys after a small drift', () => {
      for (const f of base.get(name)!) {
        // What is left of the key once the names in it (entity, metric, "co2") and an event date are removed.
        const names = [
          f.entity,
          ...f.metric.split('|'),
          ...[f.evidence.a, f.evidence.b].flatMap((x) => (typeof x === 'string' ? x.split(':') : [])),
        ];
        let rest = f.pattern_key.replace(/:\d{4}-\d{2}-\d{2}$/, '');
        for (const n of names.sort((a, b) => b.length - a.length)) rest = rest.split(n).join('');
        expect(rest).not.toMatch(/\d/);
      }
      const keys = (m: Map<string, Finding[]>) =>
        m
          .get(name)!
          .map((f) => f.pattern_key)
          .sort();
      expect(keys(drift)).toEqual(keys(base));
    });

    it('is deterministic for the same input', () => {
      expect(again.get(name)).toEqual(base.get(name));
    });

    it('never throws on degenerate data and finds nothing where there is nothing', async () => {
      const f = open();
      expect(await f.run(detector)).toEqual([]); // empty database
      f.series('lonely', 'temperature', [[NOW - 3600, 21]]);
      f.series('lonely', 'state', [[NOW - 3600, 'on']]);
      f.series('empty', 'humidity', []);
      expect(await f.run(detector)).toEqual([]);
    });

    it('copes with constant series, huge values and values around zero', async () => {
      const f = open();
      f.series(
        'flat',
        'temperature',
        grid(30, 900, () => 20),
        { unit: '°C' },
      );
      f.series(
        'flat',
        'state',
        grid(30, 3600, () => 'idle'),
      );
      f.series(
        'zero',
        'power',
        grid(30, 900, () => 0),
        { unit: 'W' },
      );
      f.series(
        'huge',
        'counter',
        grid(30, 900, (t) => 1e15 + 1e12 * Math.sin(t.h)),
        { unit: 'B' },
      );
      f.series(
        'signed',
        'offset',
        grid(30, 900, (t) => Math.sin(t.ts / 5000)),
      );
      const out = await f.run(detector);
      expect(Array.isArray(out)).toBe(true);
      for (const x of out) {
        expect(Number.isFinite(x.confidence)).toBe(true);
        expect(x.fact).not.toMatch(/NaN|Infinity/);
      }
      // Nothing ever "happens" in these: no trend, correlation, routine or anomaly.
      if (!['stable_value', 'categorical_dominance'].includes(name)) expect(out).toEqual([]);
    });
  });
});
