/**
 * Two-state series read as people say them, for the sensor page's timeline: a door is open or
 * closed, a plug on or off, a person home or away. Zigbee2MQTT's `contact: false` is open (the reed
 * contact is apart); Home Assistant's binary sensors say `on`/`off` (a door's `on` is open).
 */

export interface TwoState {
  /** The state drawn as a band ("open", "on", "home", "unlocked", "motion"). */
  active: string;
  /** The other one ("closed", "off", "away", "locked", "no motion"). */
  idle: string;
  /** true for the active state, false for the idle one, null for a value of neither. */
  read(value: unknown): boolean | null;
}

/** [active, idle] word pairs as stored (lower case). */
const PAIRS: [string, string][] = [
  ['open', 'closed'],
  ['on', 'off'],
  ['home', 'not_home'],
  ['unlocked', 'locked'],
  ['detected', 'clear'],
  ['wet', 'dry'],
  ['occupied', 'unoccupied'],
  ['true', 'false'],
];
const SHOWN: Record<string, string> = { not_home: 'away' };
/** Names whose on/off or true/false is open/closed. */
const OPENING = /door|window|gate|garage|contact|hatch|lid/i;
/** Numeric 0/1 series that are states, not amounts. */
const BINARY_METRIC = /motion|occupancy|presence|contact|door|window|switch|state|leak|vibration/i;

const norm = (v: unknown) => (typeof v === 'string' ? v.trim().toLowerCase() : typeof v === 'boolean' ? String(v) : v);

/**
 * The two-state reading of a series from its recent values, or null when they are not two states
 * (a number, a third word). `name` is the entity's, for the open/closed words of a door's on/off.
 */
export function twoStateOf(name: string, metric: string, values: unknown[]): TwoState | null {
  const seen = new Set(values.map(norm));
  if (!seen.size) return null;
  if ([...seen].every((v) => v === 0 || v === 1)) {
    if (!BINARY_METRIC.test(metric)) return null;
    const opening = OPENING.test(metric) || OPENING.test(name);
    const [active, idle] = /motion/i.test(metric)
      ? ['motion', 'no motion']
      : opening
        ? ['open', 'closed']
        : ['on', 'off'];
    return { active, idle, read: (v) => (v === 1 ? true : v === 0 ? false : null) };
  }
  const pair = PAIRS.find(([a, b]) => [...seen].every((v) => v === a || v === b));
  if (!pair) return null;
  const [a, b] = pair;
  // contact: true is closed (the magnet is at the reed); a door's on/true is open.
  const contact = pair[0] === 'true' && /contact/i.test(metric);
  const opening = (pair[0] === 'on' || pair[0] === 'true') && (OPENING.test(metric) || OPENING.test(name));
  const words: [string, string] = contact || opening ? ['open', 'closed'] : [SHOWN[a] ?? a, SHOWN[b] ?? b];
  const activeValue = contact ? b : a;
  return {
    active: words[0],
    idle: words[1],
    read: (v) => {
      const x = norm(v);
      return x === activeValue ? true : x === a || x === b ? false : null;
    },
  };
}

export interface Run {
  from: number;
  to: number;
  active: boolean;
}

/**
 * The runs of one state in [from, to] from readings in time order; `before` is the last reading
 * before `from` (the state the window starts in). A run lasts until the next change (or `to`).
 */
export function runsOf(
  readings: { ts: number; value: unknown }[],
  state: TwoState,
  from: number,
  to: number,
  before?: { ts: number; value: unknown },
): Run[] {
  const runs: Run[] = [];
  const push = (ts: number, active: boolean) => {
    const last = runs.at(-1);
    if (last && last.active === active) return;
    if (last) last.to = ts;
    runs.push({ from: ts, to, active });
  };
  const first = before ? state.read(before.value) : null;
  if (first !== null) push(from, first);
  for (const r of readings) {
    if (r.ts < from || r.ts > to) continue;
    const active = state.read(r.value);
    if (active !== null) push(r.ts, active);
  }
  return runs.filter((r) => r.to > r.from);
}
