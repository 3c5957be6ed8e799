/** The control series of a generated household: pure noise, and near misses built exactly at their distance from a threshold. */
import { HOUR, TAU, type Kit, type Value } from './household-kit.js';

export function plantNoise(k: Kit): void {
  const { rnd, U, N, pick, arr, at, start, add, grid, states, days } = k;
  // ── controls: pure noise ──
  const walk = (s0: number, perDaySd: number, step = 900) => {
    let v = s0;
    return grid(() => (v += N(perDaySd * Math.sqrt(step / 86_400))), step);
  };
  add('attic', 'room', 'temperature', '°C', 'noise', walk(16, 2));
  add('shed', 'room', 'temperature', '°C', 'noise', walk(12, 2.5));
  add(
    'hallway',
    'room',
    'illuminance',
    'lx',
    'noise',
    grid(() => Math.round(U(0, 400))),
  );
  add(
    'bedroom',
    'room',
    'co2',
    'ppm',
    'noise',
    grid(() => 800 + N(150)),
  );
  add(
    'garage',
    'room',
    'power',
    'W',
    'noise',
    grid(() => Math.max(0, 300 + N(120))),
  );
  const mia: [number, Value][] = [];
  for (const d of days)
    for (let i = 4 + Math.floor(rnd() * 7); i > 0; i--)
      mia.push([
        at(d, U(7, 23)),
        { mood: pick(['calm', 'happy', 'tired', 'anxious']), confidence: Number(U(0.3, 0.95).toFixed(2)) },
      ]);
  add('Mia', 'person', 'mood', null, 'noise', mia);
  add(
    'guest_room',
    'room',
    'window',
    null,
    'noise',
    days.flatMap((d) =>
      arr(5 + 2 * Math.floor(rnd() * 4), () => [at(d, U(0, 24)), rnd() < 0.5 ? 'open' : 'closed'] as [number, Value]),
    ),
  );
  const miaAt: [number, string][] = [[start, 'home']];
  for (const d of days) {
    const away = U(6, 18),
      l = U(5, 23.9 - away);
    miaAt.push([at(d, l), 'not_home'], [at(d, l + away), 'home']);
  } // home most of the day on half the days
  add('Mia', 'person', 'presence', null, 'noise', states(miaAt, HOUR));
}

export function plantNearMisses(k: Kit): void {
  const { D, U, N, pick, arr, std, at, add, grid, daily, states, days, spike } = k;
  // ── controls: near misses, each built exactly at its distance from a threshold ──
  // Daily-mean CV 0.12 exactly: the level steps at 06:00, so a day mean is ¼ yesterday's level + ¾ today's;
  // levels are solved from the wanted means (and a night, 22:00–06:00, sits on one level: CV ≈ 0.17).
  const want = [...arr(D - 14, () => N(1.44)), ...std(14).map((x) => 1.44 * x), 0];
  const cellar = [want[0]];
  for (let d = 1; d <= D; d++) cellar.push((want[d] - 0.25 * cellar[d - 1]) / 0.75);
  add(
    'cellar',
    'room',
    'temperature',
    '°C',
    'near_miss',
    grid((t) => 12 + cellar[t.h < 6 ? Math.max(0, t.d - 1) : t.d] + N(0.15)),
  );
  const activity: [number, string][] = [];
  for (const d of days) {
    for (let h = 7; h < 22; h += U(0.5, 2.5))
      activity.push([at(d, h), pick(['homework', 'reading', 'sport', 'chores'])]);
    const g = 17 + U(-2, 2); // ±2 h scatter
    activity.push([at(d, g), 'gaming'], [at(d, g + U(0.4, 1)), pick(['homework', 'reading', 'sport', 'chores'])]);
  }
  add('Leo', 'person', 'activity', null, 'near_miss', states(activity, 900));
  const da = std(29);
  const db = std(29, da).map((x, i) => 0.5 * da[i] + Math.sqrt(0.75) * x); // r = 0.5 on changes, exactly
  const levels = (s0: number, k: number, steps: number[]) => {
    const y = arr(D + 1, () => s0);
    steps.forEach((s, i) => {
      for (let d = D - 29 + i; d <= D; d++) y[d] += k * s;
    });
    return y;
  };
  const soil = levels(35, 4, da);
  const water = levels(200, 15, db);
  add(
    'garden',
    'room',
    'soil_moisture',
    '%',
    'near_miss',
    grid((t) => soil[t.d] + N(0.3), HOUR),
  );
  add(
    'garden',
    'room',
    'water_used',
    'L',
    'near_miss',
    daily(22, (d) => Math.max(0, water[d])),
  );
  const e = std(
    10,
    arr(10, (i) => i),
  );
  const c = Math.sqrt((225 * 8.25 * (0.7 / 0.3)) / 0.9); // r² = 0.3 exactly over the last 10 days
  const shop = arr(D + 1, (d) => (d >= D - 10 && d < D ? 15 * (d - D + 10) + c * e[d - D + 10] : N(c)));
  add(
    'workshop',
    'room',
    'power',
    'W',
    'near_miss',
    grid((t) => Math.max(0, 600 + shop[t.d] + N(150))),
  );
  add(
    'laundry',
    'room',
    'humidity',
    '%',
    'near_miss',
    grid((t) => 55 + 15 * Math.sin((TAU * (t.h - 12)) / 24) + N(2) + (spike(7, 1)(t.ts) ? 2 : 0)),
  );
}
