/** The planted patterns of a generated household, one planter per detector kind (household-generator.ts). */
import { HOUR, TAU, type Kit, type Role, type Tick, type Value } from './household-kit.js';

export function plantPreferences(k: Kit): void {
  const { D, rnd, U, N, arr, now, dateOf, add, grid, daily, perDay, spike } = k;
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

}

export function plantTrends(k: Kit): void {
  const { D, N, add, grid, daily, perDay } = k;
  // ── trend (insight) ──
  const lh = perDay(0.35);
  add('living_room', 'room', 'humidity', '%', 'planted', grid((t) => 41 + Math.max(0, t.d - (D - 12)) * 1.2 + lh[t.d] + 2.5 * Math.sin((TAU * t.h) / 24) + N(0.5)), 'trend:living_room:humidity');
  const gt = perDay(0.2);
  add('garage', 'room', 'temperature', '°C', 'planted', grid((t) => 20 - 0.45 * (t.d + t.h / 24) + gt[t.d] + 1.5 * Math.sin((TAU * (t.h - 9)) / 24) + N(0.3)), 'trend:garage:temperature');
  add('nas', 'device', 'disk_used', '%', 'planted', grid((t) => 55 + 0.8 * (t.d + t.h / 24) + N(0.05), HOUR), 'trend:nas:disk_used');
  add('Brian', 'person', 'weight', 'kg', 'planted', daily(7, (d) => 84 - 0.25 * d + N(0.2)), 'trend:Brian:weight');

}

export function plantHabits(k: Kit): void {
  const { D, rnd, U, pick, arr, chooseDays, at, add, states, days } = k;
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

}

export function plantRoutines(k: Kit): void {
  const { D, rnd, U, N, dayParts, at, start, add, states, days } = k;
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

}

export function plantCorrelations(k: Kit): void {
  const { D, U, N, arr, add, grid, daily } = k;
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

}

export function plantAnomalies(k: Kit): void {
  const { U, N, now, dateOf, add, grid, perDay, spike } = k;
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

}
