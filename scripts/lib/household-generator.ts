/**
 * Seeded generator of a household's sensor history for the pattern-engine eval (and tests): five
 * weeks of readings in a zone with DST (America/New_York, across the 2 Nov fall-back) with planted
 * patterns of every detector kind plus control series that must stay silent — pure noise (random
 * walks, uniform and Gaussian noise at realistic amplitudes, random categorical values) and near
 * misses built EXACTLY at their distance from a threshold (daily-mean CV 0.12, dominance 8/14 days,
 * routine ±2 h, r = 0.5 on day-to-day changes, trend r² = 0.3, a 2σ blip). Every planted pattern's
 * key is listed in `expected`, including the ones a series shows as a side effect of its design
 * (a presence series is "predominantly home"). Loaded through SQL like the tests, then rolled up.
 */
import { nameKey } from '../../src/lib/names.js';
import type { Db } from '../../src/db/open.js';
import { localToUtc, wallTime } from '../../src/lib/tz.js';
import { createRollups } from '../../src/tiers/timeseries/rollup.js';

type Part = number | string;
export type Value = Part | Record<string, Part>;
export type Role = 'planted' | 'noise' | 'near_miss';
export interface GenSeries { entity: string; entityType: string; metric: string; unit: string | null; role: Role; points: [number, Value][] }
export interface Household { seed: number; timeZone: string; now: number; series: GenSeries[]; expected: string[] }
interface Tick { ts: number; d: number; h: number; wd: number }

const HOUR = 3600;
const TAU = 2 * Math.PI;

function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function generateHousehold(seed: number, o: { days?: number; timeZone?: string } = {}): Household {
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
  const chooseDays = (w: number, k: number) => new Set(std(w).map((x, i) => [x, D - w + i]).sort((a, b) => a[0] - b[0]).slice(0, k).map((p) => p[1]));

  // Days 0..D; day D is today (partial). "now" is 21:00 local on a date that varies with the seed.
  const base = new Date(Date.UTC(2025, 10, 30 + (seed % 7)));
  const dayParts = arr(D + 1, (d) => {
    const t = new Date(base.getTime() - (D - d) * 86_400_000);
    return { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate(), wd: (t.getUTCDay() + 6) % 7 };
  });
  const at = (d: number, hours: number) => {
    const p = dayParts[d];
    const [h, m] = [Math.floor(hours), (hours % 1) * 60];
    return localToUtc({ year: p.year, month: p.month, day: p.day, hour: h, minute: Math.floor(m), second: Math.round((m % 1) * 60) }, tz);
  };
  const mid = arr(D + 1, (d) => at(d, 0));
  const start = mid[0];
  const now = at(D, 21);
  const dateOf = (ts: number) => { const w = wallTime(ts, tz); return `${w.year}-${String(w.month).padStart(2, '0')}-${String(w.day).padStart(2, '0')}`; };

  const series: GenSeries[] = [];
  const expected: string[] = [];
  const add = (entity: string, entityType: string, metric: string, unit: string | null, role: Role, points: [number, Value][], ...keys: string[]) => {
    series.push({ entity, entityType, metric, unit, role, points: points.filter((p) => p[0] < now).sort((a, b) => a[0] - b[0]) });
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
  const daily = (hour: number, fn: (d: number) => number): [number, Value][] => arr(D + 1, (d) => [at(d, hour + U(-0.25, 0.25)), fn(d)]);
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
  const spike = (from: number, hours: number) => (ts: number) => ts >= now - from * HOUR && ts < now - (from - hours) * HOUR;

  // ── stable_value (preference): whole day, and night-only ──
  const bt = perDay(0.35);
  add('Brian', 'person', 'bedroom_temperature', '°F', 'planted', grid((t) => 68 + bt[t.d] + 0.8 * Math.cos((TAU * (t.h - 15)) / 24) + N(0.3)), 'stable_value:Brian:bedroom_temperature');
  add('fridge', 'device', 'temperature', '°C', 'planted', grid((t) => 4 + 0.3 * Math.sin((TAU * t.ts) / 3000) + N(0.1)), 'stable_value:fridge:temperature');
  add('aquarium', 'device', 'water_temperature', '°C', 'planted', grid(() => 25 + N(0.15), 1800), 'stable_value:aquarium:water_temperature');
  add('Anna', 'person', 'weight', 'kg', 'planted', daily(7, () => 61.2 + N(0.25)), 'stable_value:Anna:weight');
  const peak = perDay(1).map((x) => 950 + 220 * x);
  const officeCo2 = (t: Tick) => {
    const occupied = t.h >= 9 && t.h < 18 ? Math.sin((Math.PI * (t.h - 9)) / 9) : 0;
    return 420 + N(8) + (t.wd < 5 ? peak[t.d] - 420 : 120) * occupied + (t.h >= 18 && t.h < 20 ? 60 * (20 - t.h) : 0);
  };
  add('office', 'room', 'co2', 'ppm', 'planted', grid(officeCo2), 'stable_value:office:co2:night');
  const busy = arr(D + 1, () => arr(24, () => (rnd() < 0.35 ? U(300, 2500) : 0)));
  add('house', 'house', 'power', 'W', 'planted', grid((t) => 180 + N(6) + (t.h >= 7 && t.h < 22 ? 150 + busy[t.d][Math.floor(t.h)] : 0)), 'stable_value:house:power:night');
  const [shower, damp] = [arr(D + 1, () => U(6.8, 8.2)), arr(D + 1, () => U(6, 22))]; // showers; laundry drying by day
  add('bathroom', 'room', 'humidity', '%', 'planted', grid((t) => {
    const since = t.h - shower[t.d];
    return 48 + N(1.2) + (since >= 0 && since < 5 ? 42 * Math.exp(-since / 1.6) : 0) + (t.h >= 9 && t.h < 20 ? damp[t.d] : 0);
  }), 'stable_value:bathroom:humidity:night');
  const workout = arr(D + 1, () => (rnd() < 0.3 ? U(7, 19) : -99));
  const hrSpikeAt = now - 6 * HOUR;
  add('Brian', 'person', 'heart_rate', 'bpm', 'planted', grid((t) => {
    if (spike(6, 1)(t.ts)) return 150 + N(3);
    if (t.h >= 22 || t.h < 6.5) return 55 + N(2.5);
    return 74 + 10 * Math.sin((TAU * (t.h - 8)) / 16) + N(6) + (Math.abs(t.h - workout[t.d] - 0.5) < 0.5 ? 45 : 0);
  }, 600), 'stable_value:Brian:heart_rate:night', `anomaly:Brian:heart_rate:${dateOf(hrSpikeAt)}`);

  // ── trend (insight) ──
  const lh = perDay(0.35);
  add('living_room', 'room', 'humidity', '%', 'planted', grid((t) => 41 + Math.max(0, t.d - (D - 12)) * 1.2 + lh[t.d] + 2.5 * Math.sin((TAU * t.h) / 24) + N(0.5)), 'trend:living_room:humidity');
  const gt = perDay(0.2);
  add('garage', 'room', 'temperature', '°C', 'planted', grid((t) => 20 - 0.45 * (t.d + t.h / 24) + gt[t.d] + 1.5 * Math.sin((TAU * (t.h - 9)) / 24) + N(0.3)), 'trend:garage:temperature');
  add('nas', 'device', 'disk_used', '%', 'planted', grid((t) => 55 + 0.8 * (t.d + t.h / 24) + N(0.05), HOUR), 'trend:nas:disk_used');
  add('Brian', 'person', 'weight', 'kg', 'planted', daily(7, (d) => 84 - 0.25 * d + N(0.2)), 'trend:Brian:weight');

  // ── categorical_dominance (habit): composite moods and a mode ──
  const mood = (entity: string, dominant: string, others: string[], k: number, outside: number, role: Role, key: boolean) => {
    const dom = chooseDays(14, k);
    const pts: [number, Value][] = [];
    for (const d of days) {
      const top = (d >= D - 14 ? dom.has(d) : rnd() < outside) ? dominant : pick(others);
      const n = 5 + Math.floor(rnd() * 5);
      const vals = arr(n, (i) => (i <= n / 2 ? top : pick(others.filter((x) => x !== top).concat(top === dominant ? [] : [dominant]))));
      vals.forEach((v) => pts.push([at(d, U(8, 22)), { mood: v, confidence: Number(U(0.55, 0.95).toFixed(2)) }]));
    }
    add(entity, 'person', 'mood', null, role, pts, ...(key ? [`categorical_dominance:${entity}:mood.mood`] : []));
  };
  mood('Brian', 'focused', ['calm', 'tired', 'stressed'], 12, 0.85, 'planted', true);
  mood('Anna', 'calm', ['happy', 'tired', 'anxious', 'focused'], 10, 0.7, 'planted', true);
  mood('Leo', 'happy', ['bored', 'tired', 'excited'], 8, 0.55, 'near_miss', false); // 8/14 days = 57 %
  const autoDay = chooseDays(14, 1);
  add('heat_pump', 'device', 'mode', null, 'planted', states(days.map((d) => [at(d, U(0, 0.3)), (d >= D - 14 ? !autoDay.has(d) : rnd() < 0.9) ? 'heat' : 'auto'] as [number, string]), HOUR), 'categorical_dominance:heat_pump:mode');

  // ── time_of_day_routine (routine): arrivals at 18:10 local on weekdays, across the DST change ──
  const brian: [number, string][] = [[start, 'home']];
  const anna: [number, string][] = [[start, 'home']];
  const light: [number, string][] = [];
  const coffee: [number, string][] = [];
  for (const d of [...days, D]) {
    const weekend = dayParts[d].wd >= 5;
    if (!weekend && rnd() < 0.9) brian.push([at(d, 7.75 + N(8) / 60), 'not_home'], [at(d, 18 + 10 / 60 + N(10) / 60), 'home']);
    if (weekend && rnd() < 0.7) { const l = U(9, 15); brian.push([at(d, l), 'not_home'], [at(d, l + U(1, 5)), 'home']); }
    if (weekend) anna.push([at(d, 9.5 + N(8) / 60), 'not_home'], [at(d, 11.5 + N(10) / 60), 'home']);
    else if (rnd() < 0.5) { const l = U(10, 17); anna.push([at(d, l), 'not_home'], [at(d, l + U(0.5, 2)), 'home']); }
    light.push([at(d, 19 + N(7) / 60), 'on'], [at(d, 22.5 + U(-90, 80) / 60), 'off']); // off: scattered, before midnight
    const on = weekend ? 8.5 + N(10) / 60 : 6 + 50 / 60 + N(6) / 60;
    coffee.push([at(d, on), 'on'], [at(d, on + U(20, 240) / 60), 'off']);
  }
  add('Brian', 'person', 'presence', null, 'planted', states(brian), 'time_of_day_routine:Brian:presence:home:weekdays', 'time_of_day_routine:Brian:presence:not_home:weekdays', 'categorical_dominance:Brian:presence');
  add('Anna', 'person', 'presence', null, 'planted', states(anna, 1800), 'time_of_day_routine:Anna:presence:not_home:weekends', 'time_of_day_routine:Anna:presence:home:weekends', 'categorical_dominance:Anna:presence');
  add('hallway_light', 'device', 'state', null, 'planted', states(light), 'time_of_day_routine:hallway_light:state:on:daily', 'categorical_dominance:hallway_light:state');
  add('coffee_machine', 'device', 'state', null, 'planted', states(coffee), 'time_of_day_routine:coffee_machine:state:on:weekdays', 'time_of_day_routine:coffee_machine:state:on:weekends', 'categorical_dominance:coffee_machine:state');

  // ── correlation (insight): shared daily drivers ──
  const weather: number[] = [0];
  for (let d = 1; d <= D; d++) weather.push(0.6 * weather[d - 1] + N(2));
  add('outdoor', 'weather', 'temperature', '°C', 'planted', grid((t) => 6 + weather[t.d] + 3 * Math.sin((TAU * (t.h - 9)) / 24) + N(0.5)), 'correlation:heat_pump:power|outdoor:temperature');
  add('heat_pump', 'device', 'power', 'W', 'planted', grid((t) => Math.max(0, 1000 - 90 * weather[t.d] + 250 * Math.cos((TAU * (t.h - 5)) / 24) + N(60))));
  const sun = arr(D + 1, () => U(0.15, 1));
  const bell = (h: number) => (h > 7 && h < 17 ? Math.sin((Math.PI * (h - 7)) / 10) : 0);
  add('solar', 'device', 'power', 'W', 'planted', grid((t) => Math.round(2500 * sun[t.d] * bell(t.h) * (1 + N(0.05)))), 'correlation:living_room:illuminance|solar:power');
  add('living_room', 'room', 'illuminance', 'lx', 'planted', grid((t) => Math.max(0, Math.round((40 + 350 * sun[t.d]) * bell(t.h) * (1 + N(0.05)) + (t.h >= 19 && t.h < 23 ? 150 + N(5) : 0)))));
  const play = arr(D + 1, () => U(0, 1));
  add('Leo', 'person', 'screen_time', 'min', 'planted', daily(21, (d) => Math.round(60 + 150 * play[d] + N(8))), 'correlation:Leo:outdoor_minutes|Leo:screen_time');
  add('Leo', 'person', 'outdoor_minutes', 'min', 'planted', daily(20, (d) => Math.max(0, Math.round(150 - 110 * play[d] + N(8)))));

  // ── anomaly (insight): recent events against two weeks of baseline ──
  const kd = perDay(0.3);
  add('kitchen', 'room', 'temperature', '°C', 'planted', grid((t) => {
    if (spike(4, 2)(t.ts)) return 33 + U(0, 3);
    return 21 + kd[t.d] + 1.0 * Math.sin((TAU * (t.h - 10)) / 24) + (t.h >= 18 && t.h < 19.5 ? 1.5 : 0) + N(0.25);
  }), 'stable_value:kitchen:temperature', `anomaly:kitchen:temperature:${dateOf(now - 3 * HOUR)}`);
  const thaw = now - 10 * HOUR;
  add('freezer', 'device', 'temperature', '°C', 'planted', grid((t) => {
    const k = (t.ts - thaw) / HOUR;
    const warm = k < 0 ? 0 : k < 5 ? 2.8 * k : Math.max(0, 14 - 4.7 * (k - 5));
    return -18 + 0.6 * Math.sin((TAU * t.ts) / 2700) + N(0.2) + warm;
  }), 'stable_value:freezer:temperature', `anomaly:freezer:temperature:${dateOf(thaw + 4.5 * HOUR)}`);
  const bh = perDay(1);
  add('basement', 'room', 'humidity', '%', 'planted', grid((t) => (spike(23, 2)(t.ts) ? 31 + N(1) : 55 + bh[t.d] + 1.5 * Math.sin((TAU * t.h) / 24) + N(0.6))),
    'stable_value:basement:humidity', `anomaly:basement:humidity:${dateOf(now - 22 * HOUR)}`); // yesterday 22:00–24:00

  // ── controls: pure noise ──
  const walk = (s0: number, perDaySd: number, step = 900) => { let v = s0; return grid(() => (v += N(perDaySd * Math.sqrt(step / 86_400))), step); };
  add('attic', 'room', 'temperature', '°C', 'noise', walk(16, 2));
  add('shed', 'room', 'temperature', '°C', 'noise', walk(12, 2.5));
  add('hallway', 'room', 'illuminance', 'lx', 'noise', grid(() => Math.round(U(0, 400))));
  add('bedroom', 'room', 'co2', 'ppm', 'noise', grid(() => 800 + N(150)));
  add('garage', 'room', 'power', 'W', 'noise', grid(() => Math.max(0, 300 + N(120))));
  const mia: [number, Value][] = [];
  for (const d of days) for (let i = 4 + Math.floor(rnd() * 7); i > 0; i--) mia.push([at(d, U(7, 23)), { mood: pick(['calm', 'happy', 'tired', 'anxious']), confidence: Number(U(0.3, 0.95).toFixed(2)) }]);
  add('Mia', 'person', 'mood', null, 'noise', mia);
  add('guest_room', 'room', 'window', null, 'noise', days.flatMap((d) => arr(5 + 2 * Math.floor(rnd() * 4), () => [at(d, U(0, 24)), rnd() < 0.5 ? 'open' : 'closed'] as [number, Value])));
  const miaAt: [number, string][] = [[start, 'home']];
  for (const d of days) { const away = U(6, 18), l = U(5, 23.9 - away); miaAt.push([at(d, l), 'not_home'], [at(d, l + away), 'home']); } // home most of the day on half the days
  add('Mia', 'person', 'presence', null, 'noise', states(miaAt, HOUR));

  // ── controls: near misses, each built exactly at its distance from a threshold ──
  // Daily-mean CV 0.12 exactly: the level steps at 06:00, so a day mean is ¼ yesterday's level + ¾ today's;
  // levels are solved from the wanted means (and a night, 22:00–06:00, sits on one level: CV ≈ 0.17).
  const want = [...arr(D - 14, () => N(1.44)), ...std(14).map((x) => 1.44 * x), 0];
  const cellar = [want[0]];
  for (let d = 1; d <= D; d++) cellar.push((want[d] - 0.25 * cellar[d - 1]) / 0.75);
  add('cellar', 'room', 'temperature', '°C', 'near_miss', grid((t) => 12 + cellar[t.h < 6 ? Math.max(0, t.d - 1) : t.d] + N(0.15)));
  const activity: [number, string][] = [];
  for (const d of days) {
    for (let h = 7; h < 22; h += U(0.5, 2.5)) activity.push([at(d, h), pick(['homework', 'reading', 'sport', 'chores'])]);
    const g = 17 + U(-2, 2); // ±2 h scatter
    activity.push([at(d, g), 'gaming'], [at(d, g + U(0.4, 1)), pick(['homework', 'reading', 'sport', 'chores'])]);
  }
  add('Leo', 'person', 'activity', null, 'near_miss', states(activity, 900));
  const da = std(29);
  const db = std(29, da).map((x, i) => 0.5 * da[i] + Math.sqrt(0.75) * x); // r = 0.5 on changes, exactly
  const levels = (s0: number, k: number, steps: number[]) => { const y = arr(D + 1, () => s0); steps.forEach((s, i) => { for (let d = D - 29 + i; d <= D; d++) y[d] += k * s; }); return y; };
  const soil = levels(35, 4, da);
  const water = levels(200, 15, db);
  add('garden', 'room', 'soil_moisture', '%', 'near_miss', grid((t) => soil[t.d] + N(0.3), HOUR));
  add('garden', 'room', 'water_used', 'L', 'near_miss', daily(22, (d) => Math.max(0, water[d])));
  const e = std(10, arr(10, (i) => i));
  const c = Math.sqrt((225 * 8.25 * (0.7 / 0.3)) / 0.9); // r² = 0.3 exactly over the last 10 days
  const shop = arr(D + 1, (d) => (d >= D - 10 && d < D ? 15 * (d - D + 10) + c * e[d - D + 10] : N(c)));
  add('workshop', 'room', 'power', 'W', 'near_miss', grid((t) => Math.max(0, 600 + shop[t.d] + N(150))));
  add('laundry', 'room', 'humidity', '%', 'near_miss', grid((t) => 55 + 15 * Math.sin((TAU * (t.h - 12)) / 24) + N(2) + (spike(7, 1)(t.ts) ? 2 : 0)));

  return { seed, timeZone: tz, now, series, expected: [...new Set(expected)].sort() };
}

/** Inserts a household via SQL (entities, series — composites decomposed into parts — readings) and rolls up. */
export function loadHousehold(db: Db, h: Household): void {
  const ent = db.prepare('INSERT INTO entities (name, name_key, type, meta, created, updated) VALUES (?, ?, ?, \'{}\', 0, 0) ON CONFLICT(name_key) DO UPDATE SET type = type RETURNING id');
  const ser = db.prepare('INSERT INTO series (entity_id, metric, unit, value_type, created) VALUES (?, ?, ?, ?, 0) RETURNING id');
  const ins = db.prepare('INSERT INTO readings (series_id, ts_ms, value_num, value_cat, value_json, parent_id) VALUES (?, ?, ?, ?, ?, ?)');
  db.transaction(() => {
    for (const s of h.series) {
      const eid = (ent.get(s.entity, nameKey(s.entity), s.entityType) as { id: number }).id;
      const first = s.points[0]?.[1];
      if (first === undefined) continue;
      const kind = typeof first === 'object' ? 'composite' : typeof first === 'number' ? 'numeric' : 'categorical';
      const sid = (ser.get(eid, s.metric, s.unit, kind) as { id: number }).id;
      const parts = new Map<string, number>();
      for (const [ts, v] of s.points) {
        const ms = Math.round(ts * 1000);
        if (typeof v !== 'object') { ins.run(sid, ms, typeof v === 'number' ? v : null, typeof v === 'string' ? v : null, null, null); continue; }
        const pid = Number(ins.run(sid, ms, null, null, JSON.stringify(v), null).lastInsertRowid);
        for (const [k, pv] of Object.entries(v)) {
          const metric = `${s.metric}.${k}`;
          let cid = parts.get(metric);
          if (cid === undefined) parts.set(metric, (cid = (ser.get(eid, metric, null, typeof pv === 'number' ? 'numeric' : 'categorical') as { id: number }).id));
          ins.run(cid, ms, typeof pv === 'number' ? pv : null, typeof pv === 'string' ? pv : null, null, pid);
        }
      }
    }
  })();
  createRollups(db, { timeZone: h.timeZone }).run();
}
