/** The planted routines, correlations and anomalies of a generated household (household-generator.ts). */
import { HOUR, TAU, type Kit } from './household-kit.js';

export function plantRoutines(k: Kit): void {
  const { D, rnd, U, N, dayParts, at, start, add, states, days } = k;
  // ── time_of_day_routine (routine): arrivals at 18:10 local on weekdays, across the DST change ──
  const brian: [number, string][] = [[start, 'home']];
  const anna: [number, string][] = [[start, 'home']];
  const light: [number, string][] = [];
  const coffee: [number, string][] = [];
  for (const d of [...days, D]) {
    const weekend = dayParts[d].wd >= 5;
    if (!weekend && rnd() < 0.9)
      brian.push([at(d, 7.75 + N(8) / 60), 'not_home'], [at(d, 18 + 10 / 60 + N(10) / 60), 'home']);
    if (weekend && rnd() < 0.7) {
      const l = U(9, 15);
      brian.push([at(d, l), 'not_home'], [at(d, l + U(1, 5)), 'home']);
    }
    if (weekend) anna.push([at(d, 9.5 + N(8) / 60), 'not_home'], [at(d, 11.5 + N(10) / 60), 'home']);
    else if (rnd() < 0.5) {
      const l = U(10, 17);
      anna.push([at(d, l), 'not_home'], [at(d, l + U(0.5, 2)), 'home']);
    }
    light.push([at(d, 19 + N(7) / 60), 'on'], [at(d, 22.5 + U(-90, 80) / 60), 'off']); // off: scattered, before midnight
    const on = weekend ? 8.5 + N(10) / 60 : 6 + 50 / 60 + N(6) / 60;
    coffee.push([at(d, on), 'on'], [at(d, on + U(20, 240) / 60), 'off']);
  }
  add(
    'Brian',
    'person',
    'presence',
    null,
    'planted',
    states(brian),
    'time_of_day_routine:Brian:presence:home:weekdays',
    'time_of_day_routine:Brian:presence:not_home:weekdays',
    'categorical_dominance:Brian:presence',
  );
  add(
    'Anna',
    'person',
    'presence',
    null,
    'planted',
    states(anna, 1800),
    'time_of_day_routine:Anna:presence:not_home:weekends',
    'time_of_day_routine:Anna:presence:home:weekends',
    'categorical_dominance:Anna:presence',
  );
  add(
    'hallway_light',
    'device',
    'state',
    null,
    'planted',
    states(light),
    'time_of_day_routine:hallway_light:state:on:daily',
    'categorical_dominance:hallway_light:state',
  );
  add(
    'coffee_machine',
    'device',
    'state',
    null,
    'planted',
    states(coffee),
    'time_of_day_routine:coffee_machine:state:on:weekdays',
    'time_of_day_routine:coffee_machine:state:on:weekends',
    'categorical_dominance:coffee_machine:state',
  );
}

export function plantCorrelations(k: Kit): void {
  const { D, U, N, arr, add, grid, daily } = k;
  // ── correlation (insight): shared daily drivers ──
  const weather: number[] = [0];
  for (let d = 1; d <= D; d++) weather.push(0.6 * weather[d - 1] + N(2));
  add(
    'outdoor',
    'weather',
    'temperature',
    '°C',
    'planted',
    grid((t) => 6 + weather[t.d] + 3 * Math.sin((TAU * (t.h - 9)) / 24) + N(0.5)),
    'correlation:heat_pump:power|outdoor:temperature',
  );
  add(
    'heat_pump',
    'device',
    'power',
    'W',
    'planted',
    grid((t) => Math.max(0, 1000 - 90 * weather[t.d] + 250 * Math.cos((TAU * (t.h - 5)) / 24) + N(60))),
  );
  const sun = arr(D + 1, () => U(0.15, 1));
  const bell = (h: number) => (h > 7 && h < 17 ? Math.sin((Math.PI * (h - 7)) / 10) : 0);
  add(
    'solar',
    'device',
    'power',
    'W',
    'planted',
    grid((t) => Math.round(2500 * sun[t.d] * bell(t.h) * (1 + N(0.05)))),
    'correlation:living_room:illuminance|solar:power',
  );
  add(
    'living_room',
    'room',
    'illuminance',
    'lx',
    'planted',
    grid((t) =>
      Math.max(
        0,
        Math.round((40 + 350 * sun[t.d]) * bell(t.h) * (1 + N(0.05)) + (t.h >= 19 && t.h < 23 ? 150 + N(5) : 0)),
      ),
    ),
  );
  const play = arr(D + 1, () => U(0, 1));
  add(
    'Leo',
    'person',
    'screen_time',
    'min',
    'planted',
    daily(21, (d) => Math.round(60 + 150 * play[d] + N(8))),
    'correlation:Leo:outdoor_minutes|Leo:screen_time',
  );
  add(
    'Leo',
    'person',
    'outdoor_minutes',
    'min',
    'planted',
    daily(20, (d) => Math.max(0, Math.round(150 - 110 * play[d] + N(8)))),
  );
}

export function plantAnomalies(k: Kit): void {
  const { U, N, now, dateOf, add, grid, perDay, spike } = k;
  // ── anomaly (insight): recent events against two weeks of baseline ──
  const kd = perDay(0.3);
  add(
    'kitchen',
    'room',
    'temperature',
    '°C',
    'planted',
    grid((t) => {
      if (spike(4, 2)(t.ts)) return 33 + U(0, 3);
      return 21 + kd[t.d] + 1.0 * Math.sin((TAU * (t.h - 10)) / 24) + (t.h >= 18 && t.h < 19.5 ? 1.5 : 0) + N(0.25);
    }),
    'stable_value:kitchen:temperature',
    `anomaly:kitchen:temperature:${dateOf(now - 3 * HOUR)}`,
  );
  const thaw = now - 10 * HOUR;
  add(
    'freezer',
    'device',
    'temperature',
    '°C',
    'planted',
    grid((t) => {
      const k = (t.ts - thaw) / HOUR;
      const warm = k < 0 ? 0 : k < 5 ? 2.8 * k : Math.max(0, 14 - 4.7 * (k - 5));
      return -18 + 0.6 * Math.sin((TAU * t.ts) / 2700) + N(0.2) + warm;
    }),
    'stable_value:freezer:temperature',
    `anomaly:freezer:temperature:${dateOf(thaw + 4.5 * HOUR)}`,
  );
  const bh = perDay(1);
  add(
    'basement',
    'room',
    'humidity',
    '%',
    'planted',
    grid((t) => (spike(23, 2)(t.ts) ? 31 + N(1) : 55 + bh[t.d] + 1.5 * Math.sin((TAU * t.h) / 24) + N(0.6))),
    'stable_value:basement:humidity',
    `anomaly:basement:humidity:${dateOf(now - 22 * HOUR)}`,
  ); // yesterday 22:00–24:00
}
