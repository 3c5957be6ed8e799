/** The planted patterns of a generated household, one planter per detector kind (household-generator.ts). */
import { HOUR, TAU, type Kit, type Role, type Tick, type Value } from './household-kit.js';

export function plantPreferences(k: Kit): void {
  const { D, rnd, U, N, arr, now, dateOf, add, grid, daily, perDay, spike } = k;
  // ── stable_value (preference): whole day, and night-only ──
  const bt = perDay(0.35);
  add(
    'Brian',
    'person',
    'bedroom_temperature',
    '°F',
    'planted',
    grid((t) => 68 + bt[t.d] + 0.8 * Math.cos((TAU * (t.h - 15)) / 24) + N(0.3)),
    'stable_value:Brian:bedroom_temperature',
  );
  add(
    'fridge',
    'device',
    'temperature',
    '°C',
    'planted',
    grid((t) => 4 + 0.3 * Math.sin((TAU * t.ts) / 3000) + N(0.1)),
    'stable_value:fridge:temperature',
  );
  add(
    'aquarium',
    'device',
    'water_temperature',
    '°C',
    'planted',
    grid(() => 25 + N(0.15), 1800),
    'stable_value:aquarium:water_temperature',
  );
  add(
    'Anna',
    'person',
    'weight',
    'kg',
    'planted',
    daily(7, () => 61.2 + N(0.25)),
    'stable_value:Anna:weight',
  );
  const peak = perDay(1).map((x) => 950 + 220 * x);
  const officeCo2 = (t: Tick) => {
    const occupied = t.h >= 9 && t.h < 18 ? Math.sin((Math.PI * (t.h - 9)) / 9) : 0;
    return 420 + N(8) + (t.wd < 5 ? peak[t.d] - 420 : 120) * occupied + (t.h >= 18 && t.h < 20 ? 60 * (20 - t.h) : 0);
  };
  add('office', 'room', 'co2', 'ppm', 'planted', grid(officeCo2), 'stable_value:office:co2:night');
  const busy = arr(D + 1, () => arr(24, () => (rnd() < 0.35 ? U(300, 2500) : 0)));
  add(
    'house',
    'house',
    'power',
    'W',
    'planted',
    grid((t) => 180 + N(6) + (t.h >= 7 && t.h < 22 ? 150 + busy[t.d][Math.floor(t.h)] : 0)),
    'stable_value:house:power:night',
  );
  const [shower, damp] = [arr(D + 1, () => U(6.8, 8.2)), arr(D + 1, () => U(6, 22))]; // showers; laundry drying by day
  add(
    'bathroom',
    'room',
    'humidity',
    '%',
    'planted',
    grid((t) => {
      const since = t.h - shower[t.d];
      return (
        48 +
        N(1.2) +
        (since >= 0 && since < 5 ? 42 * Math.exp(-since / 1.6) : 0) +
        (t.h >= 9 && t.h < 20 ? damp[t.d] : 0)
      );
    }),
    'stable_value:bathroom:humidity:night',
  );
  const workout = arr(D + 1, () => (rnd() < 0.3 ? U(7, 19) : -99));
  const hrSpikeAt = now - 6 * HOUR;
  add(
    'Brian',
    'person',
    'heart_rate',
    'bpm',
    'planted',
    grid((t) => {
      if (spike(6, 1)(t.ts)) return 150 + N(3);
      if (t.h >= 22 || t.h < 6.5) return 55 + N(2.5);
      return 74 + 10 * Math.sin((TAU * (t.h - 8)) / 16) + N(6) + (Math.abs(t.h - workout[t.d] - 0.5) < 0.5 ? 45 : 0);
    }, 600),
    'stable_value:Brian:heart_rate:night',
    `anomaly:Brian:heart_rate:${dateOf(hrSpikeAt)}`,
  );
}

export function plantTrends(k: Kit): void {
  const { D, N, add, grid, daily, perDay } = k;
  // ── trend (insight) ──
  const lh = perDay(0.35);
  add(
    'living_room',
    'room',
    'humidity',
    '%',
    'planted',
    grid((t) => 41 + Math.max(0, t.d - (D - 12)) * 1.2 + lh[t.d] + 2.5 * Math.sin((TAU * t.h) / 24) + N(0.5)),
    'trend:living_room:humidity',
  );
  const gt = perDay(0.2);
  add(
    'garage',
    'room',
    'temperature',
    '°C',
    'planted',
    grid((t) => 20 - 0.45 * (t.d + t.h / 24) + gt[t.d] + 1.5 * Math.sin((TAU * (t.h - 9)) / 24) + N(0.3)),
    'trend:garage:temperature',
  );
  add(
    'nas',
    'device',
    'disk_used',
    '%',
    'planted',
    grid((t) => 55 + 0.8 * (t.d + t.h / 24) + N(0.05), HOUR),
    'trend:nas:disk_used',
  );
  add(
    'Brian',
    'person',
    'weight',
    'kg',
    'planted',
    daily(7, (d) => 84 - 0.25 * d + N(0.2)),
    'trend:Brian:weight',
  );
}

export function plantHabits(k: Kit): void {
  const { D, rnd, U, pick, arr, chooseDays, at, add, states, days } = k;
  // ── categorical_dominance (habit): composite moods and a mode ──
  const mood = (
    entity: string,
    dominant: string,
    others: string[],
    k: number,
    outside: number,
    role: Role,
    key: boolean,
  ) => {
    const dom = chooseDays(14, k);
    const pts: [number, Value][] = [];
    for (const d of days) {
      const top = (d >= D - 14 ? dom.has(d) : rnd() < outside) ? dominant : pick(others);
      const n = 5 + Math.floor(rnd() * 5);
      const vals = arr(n, (i) =>
        i <= n / 2 ? top : pick(others.filter((x) => x !== top).concat(top === dominant ? [] : [dominant])),
      );
      vals.forEach((v) => pts.push([at(d, U(8, 22)), { mood: v, confidence: Number(U(0.55, 0.95).toFixed(2)) }]));
    }
    add(entity, 'person', 'mood', null, role, pts, ...(key ? [`categorical_dominance:${entity}:mood.mood`] : []));
  };
  mood('Brian', 'focused', ['calm', 'tired', 'stressed'], 12, 0.85, 'planted', true);
  mood('Anna', 'calm', ['happy', 'tired', 'anxious', 'focused'], 10, 0.7, 'planted', true);
  mood('Leo', 'happy', ['bored', 'tired', 'excited'], 8, 0.55, 'near_miss', false); // 8/14 days = 57 %
  const autoDay = chooseDays(14, 1);
  add(
    'heat_pump',
    'device',
    'mode',
    null,
    'planted',
    states(
      days.map(
        (d) => [at(d, U(0, 0.3)), (d >= D - 14 ? !autoDay.has(d) : rnd() < 0.9) ? 'heat' : 'auto'] as [number, string],
      ),
      HOUR,
    ),
    'categorical_dominance:heat_pump:mode',
  );
}
