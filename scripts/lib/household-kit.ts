/**
 * The toolkit the household generator plants its series with: a seeded RNG (mulberry32), local
 * times in the household's zone, sampling grids and the series list. One kit per household; the
 * planters (household-planted.ts, household-controls.ts) draw from its RNG in a fixed order.
 */
import { localToUtc, wallTime } from '../../src/lib/tz.js';

export type Part = number | string;
export type Value = Part | Record<string, Part>;
export type Role = 'planted' | 'noise' | 'near_miss';
export interface GenSeries {
  entity: string;
  entityType: string;
  metric: string;
  unit: string | null;
  role: Role;
  points: [number, Value][];
}
export interface Household {
  seed: number;
  timeZone: string;
  now: number;
  series: GenSeries[];
  expected: string[];
}
export interface Tick {
  ts: number;
  d: number;
  h: number;
  wd: number;
}

export const HOUR = 3600;
export const TAU = 2 * Math.PI;

function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function createKit(seed: number, o: { days?: number; timeZone?: string } = {}) {
  const tz = o.timeZone ?? 'America/New_York';
  const D = o.days ?? 35;
  const rnd = mulberry32(seed * 7919 + 17);
  const U = (a: number, b: number) => a + (b - a) * rnd();
  const N = (sd = 1) => sd * Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(TAU * rnd());
  const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)];
  const arr = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));
  /** n values with sample mean 0 and sample SD 1 (exact), optionally orthogonal to `to` vectors. */
  const std = (n: number, ...to: number[][]) => {
    let v = arr(n, () => N());
    for (const b of [arr(n, () => 1), ...to]) {
      const k = v.reduce((s, x, i) => s + x * b[i], 0) / b.reduce((s, x) => s + x * x, 0);
      v = v.map((x, i) => x - k * b[i]);
    }
    const s = Math.sqrt(v.reduce((a, x) => a + x * x, 0) / (n - 1));
    return v.map((x) => x / s);
  };
  /** k distinct day indices among the last `w` complete days. */
  const chooseDays = (w: number, k: number) =>
    new Set(
      std(w)
        .map((x, i) => [x, D - w + i])
        .sort((a, b) => a[0] - b[0])
        .slice(0, k)
        .map((p) => p[1]),
    );

  // Days 0..D; day D is today (partial). "now" is 21:00 local on a date that varies with the seed.
  const base = new Date(Date.UTC(2025, 10, 30 + (seed % 7)));
  const dayParts = arr(D + 1, (d) => {
    const t = new Date(base.getTime() - (D - d) * 86_400_000);
    return { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate(), wd: (t.getUTCDay() + 6) % 7 };
  });
  const at = (d: number, hours: number) => {
    const p = dayParts[d];
    const [h, m] = [Math.floor(hours), (hours % 1) * 60];
    return localToUtc(
      { year: p.year, month: p.month, day: p.day, hour: h, minute: Math.floor(m), second: Math.round((m % 1) * 60) },
      tz,
    );
  };
  const mid = arr(D + 1, (d) => at(d, 0));
  const start = mid[0];
  const now = at(D, 21);
  const dateOf = (ts: number) => {
    const w = wallTime(ts, tz);
    return `${w.year}-${String(w.month).padStart(2, '0')}-${String(w.day).padStart(2, '0')}`;
  };

  const series: GenSeries[] = [];
  const expected: string[] = [];
  const add = (
    entity: string,
    entityType: string,
    metric: string,
    unit: string | null,
    role: Role,
    points: [number, Value][],
    ...keys: string[]
  ) => {
    series.push({
      entity,
      entityType,
      metric,
      unit,
      role,
      points: points.filter((p) => p[0] < now).sort((a, b) => a[0] - b[0]),
    });
    expected.push(...keys);
  };
  /** Samples fn on a jittered grid (every `step` s) in local time; null skips a sample. */
  const grid = (fn: (t: Tick) => number | null, step = 900): [number, Value][] => {
    const out: [number, Value][] = [];
    let d = 0;
    for (let ts = start + U(0, step); ts < now; ts += step + U(-60, 60)) {
      while (d < D && ts >= mid[d + 1]) d++;
      const w = wallTime(ts, tz);
      const v = fn({ ts, d, h: w.hour + w.minute / 60, wd: dayParts[d].wd });
      if (v !== null) out.push([ts, v]);
    }
    return out;
  };
  const daily = (hour: number, fn: (d: number) => number): [number, Value][] =>
    arr(D + 1, (d) => [at(d, hour + U(-0.25, 0.25)), fn(d)]);
  const perDay = (sd: number) => arr(D + 1, () => N(sd));
  /** State changes → the changes plus a report every `step` s (a poller); step 0 = changes only. */
  const states = (events: [number, string][], step = 0): [number, Value][] => {
    const ev = events.sort((a, b) => a[0] - b[0]);
    if (!step) return ev;
    const out: [number, Value][] = [...ev];
    let i = 0;
    for (let ts = start + 60; ts < now; ts += step) {
      while (i + 1 < ev.length && ev[i + 1][0] <= ts) i++;
      if (ev[i][0] <= ts) out.push([ts, ev[i][1]]);
    }
    return out;
  };
  const days = arr(D, (d) => d); // complete days
  const spike = (from: number, hours: number) => (ts: number) =>
    ts >= now - from * HOUR && ts < now - (from - hours) * HOUR;
  return {
    tz,
    D,
    rnd,
    U,
    N,
    pick,
    arr,
    std,
    chooseDays,
    base,
    dayParts,
    at,
    mid,
    start,
    now,
    dateOf,
    series,
    expected,
    add,
    grid,
    daily,
    perDay,
    states,
    days,
    spike,
  };
}
export type Kit = ReturnType<typeof createKit>;
