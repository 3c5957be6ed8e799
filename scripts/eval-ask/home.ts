/**
 * The generated home of the ask eval (scripts/eval-ask.ts): a household in Berlin on Thursday
 * 3 December 2026 at 14:30, with readings from Sunday 29 November 00:00 — a Zigbee2MQTT garage door
 * contact (false = open), bedroom and living-room temperature and humidity, the outside temperature,
 * a kettle plug and a washing machine plug (power), a front door lock, two lights, the presence of
 * Anna and Ben, and a cumulative electricity meter — plus facts, located objects and reminders.
 * Everything is a fixed timeline (no randomness), so the truth of every question can be computed
 * from the same readings Hearth is given (`truth`), independently of Hearth.
 */
import { localToUtc } from '../../src/lib/tz.js';

export const TZ = 'Europe/Berlin';

/** Local wall time "2026-12-02T21:40" in the home's zone → epoch seconds. */
export function local(text: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(text);
  if (!m) throw new Error(`bad local time ${text}`);
  const [year, month, day, hour, minute] = m.slice(1).map(Number);
  return localToUtc({ year, month, day, hour, minute, second: 0 }, TZ);
}

export const NOW = local('2026-12-03T14:30');
const START = local('2026-11-29T00:00');
const DAYS = ['2026-11-29', '2026-11-30', '2026-12-01', '2026-12-02', '2026-12-03'];
const WEEKDAYS = DAYS.slice(1); // Monday to Thursday

export interface Reading {
  entity_name: string;
  metric: string;
  value: number | string | boolean;
  unit?: string;
  source: string;
  ts: number;
}

type Span = [string, string]; // local "YYYY-MM-DDTHH:MM" from, to

/** A two-state series: `on` during the spans, `off` otherwise; written on each change and hourly. */
function twoState(
  entity: string,
  metric: string,
  spans: Span[],
  on: string | boolean,
  off: string | boolean,
  source: string,
): Reading[] {
  const edges = spans.map(([f, t]) => [local(f), Math.min(local(t), NOW + 1)] as const).sort((a, b) => a[0] - b[0]);
  const at = (ts: number) => edges.some(([f, t]) => ts >= f && ts < t);
  const times = new Set<number>([START]);
  for (let ts = START; ts <= NOW; ts += 3600) times.add(ts);
  for (const [f, t] of edges) {
    times.add(f);
    if (t <= NOW) times.add(t);
  }
  return [...times]
    .filter((ts) => ts <= NOW)
    .sort((a, b) => a - b)
    .map((ts) => ({ entity_name: entity, metric, value: at(ts) ? on : off, source, ts }));
}

const hourOf = (ts: number) => {
  const w = new Intl.DateTimeFormat('en-GB', { timeZone: TZ, hour: 'numeric', minute: 'numeric', hourCycle: 'h23' })
    .format(ts * 1000)
    .split(':')
    .map(Number);
  return w[0] + w[1] / 60;
};
const dayIndex = (ts: number) => Math.floor((ts - START) / 86_400 + 1e-9);

/** A numeric series sampled every `step` seconds from START to NOW. */
function sampled(
  entity: string,
  metric: string,
  unit: string,
  step: number,
  f: (ts: number) => number,
  source = 'ha',
): Reading[] {
  const out: Reading[] = [];
  for (let ts = START; ts <= NOW; ts += step)
    out.push({ entity_name: entity, metric, value: Math.round(f(ts) * 100) / 100, unit, source, ts });
  return out;
}

const cos = (h: number, peak: number) => Math.cos((2 * Math.PI * (h - peak)) / 24);

// The timeline (local times).
export const KETTLE_RUNS: string[] = [
  ...DAYS.slice(0, 4).flatMap((d) => ['07:05', '10:30', '15:45', '20:10'].map((t) => `${d}T${t}`)),
  '2026-12-03T07:05',
  '2026-12-03T10:30',
  '2026-12-03T13:55',
];
const KETTLE_MINUTES = 3;
export const WASHES: Span[] = [
  ['2026-11-29T10:00', '2026-11-29T11:30'],
  ['2026-12-01T19:00', '2026-12-01T20:35'],
  ['2026-12-03T09:00', '2026-12-03T10:10'],
];
const GARAGE_OPEN: Span[] = [
  ['2026-11-29T10:00', '2026-11-29T10:20'],
  ['2026-11-30T08:05', '2026-11-30T08:15'],
  ['2026-11-30T18:30', '2026-11-30T18:40'],
  ['2026-12-01T08:05', '2026-12-01T08:12'],
  ['2026-12-02T08:04', '2026-12-02T08:14'],
  ['2026-12-02T21:40', '2026-12-02T23:05'],
  ['2026-12-03T08:10', '2026-12-03T08:18'],
];
const UNLOCKED: Span[] = [
  ['2026-11-29T09:00', '2026-11-29T21:30'],
  ['2026-11-30T07:50', '2026-11-30T08:01'],
  ['2026-11-30T17:30', '2026-11-30T22:00'],
  ['2026-12-01T07:50', '2026-12-01T08:01'],
  ['2026-12-01T17:30', '2026-12-01T22:00'],
  ['2026-12-02T07:50', '2026-12-02T08:01'],
  ['2026-12-02T17:30', '2026-12-03T07:30'],
  ['2026-12-03T07:50', '2026-12-03T08:01'],
  ['2026-12-03T13:28', '2026-12-03T13:32'],
];
const HALL_LIGHT: Span[] = [
  ...DAYS.slice(0, 3).map((d): Span => [`${d}T17:45`, `${d}T23:00`]),
  ['2026-12-02T17:45', '2026-12-02T23:40'],
  ...WEEKDAYS.map((d): Span => [`${d}T06:30`, `${d}T07:45`]),
];
const LAMP: Span[] = [
  ...DAYS.slice(0, 3).map((d): Span => [`${d}T18:30`, `${d}T22:30`]),
  ['2026-12-02T18:30', '2026-12-03T00:15'],
];
const ANNA_AWAY: Span[] = WEEKDAYS.map(
  (d): Span => [`${d}T08:00`, d === '2026-12-03' ? '2026-12-03T23:59' : `${d}T17:30`],
);
const BEN_AWAY: Span[] = [
  ['2026-12-01T09:00', '2026-12-02T20:00'],
  ['2026-12-03T12:00', '2026-12-03T13:30'],
];
const inSpans = (spans: Span[], ts: number) => spans.some(([f, t]) => ts >= local(f) && ts < local(t));

function kettle(): Reading[] {
  const runs = KETTLE_RUNS.map(local);
  const times = new Set<number>();
  for (let ts = START; ts <= NOW; ts += 300) times.add(ts);
  for (const r of runs) for (let m = 0; m <= KETTLE_MINUTES; m++) times.add(r + m * 60);
  const on = (ts: number) => runs.some((r) => ts >= r && ts < r + KETTLE_MINUTES * 60);
  return [...times]
    .filter((ts) => ts <= NOW)
    .sort((a, b) => a - b)
    .map((ts) => ({
      entity_name: 'kettle',
      metric: 'power',
      value: on(ts) ? 2050 : 0,
      unit: 'W',
      source: 'tasmota',
      ts,
    }));
}

function washer(): Reading[] {
  const times = new Set<number>();
  for (let ts = START; ts <= NOW; ts += 300) times.add(ts);
  for (const [f, t] of WASHES) for (let ts = local(f); ts <= local(t); ts += 60) times.add(ts);
  const power = (ts: number) => {
    const w = WASHES.find(([f, t]) => ts >= local(f) && ts < local(t));
    if (!w) return 1.2;
    const [f, t] = [local(w[0]), local(w[1])];
    if (ts - f < 900) return 2100; // heating
    if (t - ts <= 600) return 520; // spin
    return 310;
  };
  return [...times]
    .filter((ts) => ts <= NOW)
    .sort((a, b) => a - b)
    .map((ts) => ({
      entity_name: 'washing_machine',
      metric: 'power',
      value: power(ts),
      unit: 'W',
      source: 'tasmota',
      ts,
    }));
}

/** kWh used in the hour starting at `ts`: a base load, plus each kettle boil and wash that starts in it. */
function hourEnergy(ts: number): number {
  const boils = KETTLE_RUNS.map(local).filter((r) => r >= ts && r < ts + 3600).length;
  const washes = WASHES.map(([f]) => local(f)).filter((r) => r >= ts && r < ts + 3600).length;
  return 0.32 + 0.1 * boils + 1.15 * washes;
}

function meter(): Reading[] {
  const out: Reading[] = [];
  let total = 10_234;
  for (let ts = START; ts <= NOW; ts += 3600) {
    out.push({
      entity_name: 'electricity_meter',
      metric: 'energy',
      value: Math.round(total * 1000) / 1000,
      unit: 'kWh',
      source: 'ha',
      ts,
    });
    total += hourEnergy(ts);
  }
  return out;
}

export const bedroomTemp = (ts: number) => 18.5 + 1.5 * cos(hourOf(ts), 19) + (ts >= local('2026-12-03T12:00') ? 3 : 0); // a stuck radiator today
export const bedroomHumidity = (ts: number) => {
  const h = hourOf(ts);
  return 50 + 4 * Math.sin((2 * Math.PI * h) / 24) + (h >= 7 && h < 7.5 ? 12 : 0);
};
export const livingTemp = (ts: number) => 20 + cos(hourOf(ts), 20);
export const livingHumidity = (ts: number) => 45 + 3 * cos(hourOf(ts), 3);
export const outsideTemp = (ts: number) => 4 + 3 * cos(hourOf(ts), 14) - 0.5 * dayIndex(ts);

/** Every reading of the home, oldest first. */
export function homeReadings(): Reading[] {
  return [
    ...twoState('garage_door', 'contact', GARAGE_OPEN, false, true, 'zigbee2mqtt'),
    ...sampled('bedroom', 'temperature', '°C', 600, bedroomTemp),
    ...sampled('bedroom', 'humidity', '%', 600, bedroomHumidity),
    ...sampled('living_room', 'temperature', '°C', 600, livingTemp),
    ...sampled('living_room', 'humidity', '%', 600, livingHumidity),
    ...sampled('outside', 'temperature', '°C', 900, outsideTemp),
    ...kettle(),
    ...washer(),
    ...twoState('front_door', 'lock', UNLOCKED, 'unlocked', 'locked', 'ha'),
    ...twoState('hallway_light', 'state', HALL_LIGHT, 'on', 'off', 'ha'),
    ...twoState('living_room_lamp', 'state', LAMP, 'on', 'off', 'ha'),
    ...twoState('anna', 'presence', ANNA_AWAY, 'not_home', 'home', 'ha'),
    ...twoState('ben', 'presence', BEN_AWAY, 'not_home', 'home', 'ha'),
    ...meter(),
  ].sort((a, b) => a.ts - b.ts);
}

/** What the household told Hearth (remember), other names (alias), where things are (locate), reminders (intend). */
export const FACTS = [
  { entity_name: 'Anna', fact: "Anna's birthday is on 14 March", category: 'general' },
  { entity_name: 'Anna', fact: 'Anna drives a blue Skoda Octavia', category: 'general' },
  { entity_name: 'Ben', fact: 'Ben is allergic to peanuts', category: 'general' },
  { entity_name: 'Ben', fact: "Ben's dentist is Dr Patel on Church Street", category: 'general' },
  {
    entity_name: 'house',
    fact: 'The stopcock for the water is under the kitchen sink',
    category: 'general',
    entity_type: 'place',
  },
  { entity_name: 'house', fact: 'The bins go out on Tuesday evening', category: 'general', entity_type: 'place' },
  {
    entity_name: 'house',
    fact: 'The boiler was last serviced in October 2026',
    category: 'general',
    entity_type: 'place',
  },
  { entity_name: 'Jadwiga', fact: 'Jadwiga comes to stay every Christmas', category: 'relationship' },
  { entity_name: 'Jadwiga', fact: "Jadwiga is Anna's grandmother", category: 'relationship' },
];
export const ALIASES = [{ entity_name: 'Jadwiga', alias: 'Grandma' }];
export const PLACES = [
  { entity_name: 'car keys', container_name: 'bowl in the hallway', ts: local('2026-12-03T13:33') },
  { entity_name: 'TV remote', container_name: 'sofa', ts: local('2026-12-02T22:30') },
  { entity_name: 'dog lead', container_name: 'coat hooks by the back door', ts: local('2026-12-03T08:30') },
  { entity_name: 'passport', container_name: 'desk drawer in the study', ts: local('2026-11-29T12:00') },
  { entity_name: 'umbrella', container_name: 'boot of the car', ts: local('2026-12-01T08:00') },
  { entity_name: "Anna's glasses", container_name: 'bedside table', ts: local('2026-12-03T07:00') },
];
export const INTENTIONS = [
  { entity_name: 'Anna', trigger_text: 'when Anna gets home', action_text: 'remind her to water the plants' },
  { entity_name: 'Ben', trigger_text: 'when Ben mentions the boiler', action_text: 'remind him to call the plumber' },
];

export { inSpans };
