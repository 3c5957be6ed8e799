/**
 * Two-state values read as people say them (SPEC §5 Ask): a reading is "active" (open, on, home,
 * locked, running, motion) or not, whatever the device wrote —
 * Zigbee2MQTT `contact: false` is open (true = the contact is made: closed), `on`/`off`, `ON`/`OFF`,
 * `home`/`not_home` (any other zone of a Home Assistant person is away), `locked`/`unlocked`,
 * `open`/`closed`, and a power reading above a small threshold is running ("when did the kettle last run").
 * A question's own word says whether it asks about the active side ("open") or the other ("closed").
 */
import type { SubjectSeries } from './subject.js';

/** Above this a power reading means the device runs (standby draws a watt or two). */
export const POWER_ON_W = 5;
const CURRENT_ON_A = 0.05;

/** The words for the two sides of a series: `[active, inactive]` ("open"/"closed"). */
export type StateWords = readonly [string, string];

const OPEN: StateWords = ['open', 'closed'];
const ON: StateWords = ['on', 'off'];
const RUNNING: StateWords = ['running', 'off'];
const HOME: StateWords = ['home', 'away'];
const LOCKED: StateWords = ['locked', 'unlocked'];
const MOTION: StateWords = ['detecting motion', 'quiet'];

const ACTIVE = new Set(['on', 'open', 'opened', 'opening', 'home', 'locked', 'locking', 'detected', 'occupied']);
const INACTIVE = new Set(['off', 'closed', 'closing', 'close', 'not_home', 'away', 'unlocked', 'unlocking', 'clear']);
const BOOL = new Set(['true', 'false']);

const words = (s: SubjectSeries) => `${s.entity_name} ${s.metric}`.toLowerCase();
const isContact = (s: SubjectSeries) => /(^|[._])contact$/.test(s.metric);
const isPresence = (s: SubjectSeries) =>
  /^(person|device_tracker)\./.test(s.entity_name.toLowerCase()) || s.entity_type === 'person';
const isPower = (s: SubjectSeries) => /(^|[._])(power|watts?|load)$/.test(s.metric) || /^(k?w)$/i.test(s.unit ?? '');
const isCurrent = (s: SubjectSeries) => /(^|[._])current$/.test(s.metric) || s.unit === 'A';
const isMotion = (s: SubjectSeries) => /(^|[._])(occupancy|motion|presence|occupied)$/.test(s.metric);
const doorLike = (s: SubjectSeries) => /door|window|gate|garage|hatch|lid|shutter|blind|cover|valve/.test(words(s));

/** Is this series read as two states (a value type and names that say so)? `last` is its latest value. */
export function isTwoState(s: SubjectSeries, last: number | string | undefined): boolean {
  if (s.value_type === 'composite') return false;
  if (s.value_type === 'numeric') return isPower(s) || isCurrent(s) || isContact(s) || isMotion(s);
  if (isContact(s) || isMotion(s) || isPresence(s)) return true;
  if (last === undefined) return false;
  const v = String(last).toLowerCase();
  return ACTIVE.has(v) || INACTIVE.has(v) || BOOL.has(v);
}

/** The words of the series' two sides. */
export function stateWords(s: SubjectSeries): StateWords {
  if (isPresence(s)) return HOME;
  if (/lock/.test(s.metric) || /^lock\./.test(s.entity_name)) return LOCKED;
  if (isContact(s) || doorLike(s)) return OPEN;
  if (isMotion(s)) return MOTION;
  if (/lock/.test(words(s))) return LOCKED;
  if (isPower(s) || isCurrent(s)) return RUNNING;
  return ON;
}

/** The side a question asks that this series cannot say: "locked" of a door's contact, "open" of a lock. */
export function unsayableSide(question: string, s: SubjectSeries): 'locked' | 'open' | null {
  const lock = stateWords(s)[0] === 'locked';
  if (!lock && /\b(locked|unlocked|lock)\b/i.test(question)) return 'locked';
  if (lock && /\b(open|opened|opens|closed|close|shut)\b/i.test(question)) return 'open';
  return null;
}

/** Whether a value is the active side, or null when it says neither (`unavailable`, a zone name of a non-person). */
export function isActive(s: SubjectSeries, value: number | string): boolean | null {
  if (typeof value === 'number') {
    if (isPower(s)) return value * (/^kw$/i.test(s.unit ?? '') ? 1000 : 1) > POWER_ON_W;
    if (isCurrent(s)) return value > CURRENT_ON_A;
    if (isContact(s)) return value < 0.5; // 1 = contact made = closed
    return value >= 0.5;
  }
  const v = value.trim().toLowerCase();
  if (isContact(s) && BOOL.has(v)) return v === 'false';
  if (BOOL.has(v)) return v === 'true';
  if (ACTIVE.has(v)) return true;
  if (INACTIVE.has(v)) return false;
  if (isPresence(s)) return false; // a person in another zone ("work") is not home
  return null;
}

/**
 * The stored (lower-cased) categorical values of one side, for a search in SQL: `inside` false means
 * every value but these (a person in any zone but home is away). Null for a numeric series.
 */
export function sideValues(s: SubjectSeries, active: boolean): { values: string[]; inside: boolean } | null {
  if (s.value_type !== 'categorical') return null;
  if (isPresence(s)) return { values: ['home'], inside: active };
  const on = isContact(s) ? ['false', 'open', 'opened', 'opening'] : ['true', ...ACTIVE];
  const off = isContact(s) ? ['true', 'closed', 'closing', 'close'] : ['false', ...INACTIVE];
  return { values: active ? on : off, inside: true };
}

/** What a question's words ask about a two-state series: the active side (true) or the other (false). */
const SIDE_WORD =
  /\b(not (?:at )?home|open(?:ed|ing)?|closed?|shut|on|off|run(?:ning|s)?|ran|used?|boil(?:ed)?|home|back|arriv(?:e|ed)|away|out|gone|left|leave|leaving|locked|unlocked|unlock|lock|quiet|still)\b/g;
const INACTIVE_WORDS = new Set([
  'closed',
  'close',
  'shut',
  'off',
  'away',
  'out',
  'gone',
  'left',
  'leave',
  'leaving',
  'unlocked',
  'unlock',
  'quiet',
  'still',
]);

/**
 * The side the question's last state word names ("leave the door open" → open: active; "did Anna
 * leave" → away: not), true when it names none.
 */
export function asksActive(question: string): boolean {
  const words = [...question.toLowerCase().matchAll(SIDE_WORD)].map((m) => m[1]);
  const last = words[words.length - 1];
  if (last === undefined) return true;
  return !(last.startsWith('not ') || INACTIVE_WORDS.has(last));
}

/** The words a question about a two-state series uses ("open", "run", "home", "on", "locked"…). */
export const STATE_WORDS =
  /\b(open(ed|ing)?|closed?|shut|on|off|run(ning|s)?|ran|used?|boil(ed)?|home|away|out|back|gone|arriv(e|ed)|left|leave|locked|unlocked|lock|motion|moved?|movement|occupied|switched|turned)\b/;
