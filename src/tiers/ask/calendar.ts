/**
 * Calendar days and day parts in the home's zone (SPEC §5 Ask). A local date is a year/month/day
 * triple; an instant is epoch seconds. Every step from one to the other goes through `localToUtc`,
 * so a day across a DST change is 23 or 25 hours long, as the clocks on the wall say.
 */
import { localToUtc, wallTime } from '../../lib/tz.js';

/** Local hours [start, end) of each part of the day; an end at or before its start runs past midnight. */
export interface DayParts {
  morning: [number, number];
  afternoon: [number, number];
  evening: [number, number];
  night: [number, number];
}
export type DayPart = keyof DayParts;

/** SPEC §5: morning 06–12, afternoon 12–18, evening 18–22, night 22–06. */
export const DEFAULT_DAY_PARTS: DayParts = {
  morning: [6, 12],
  afternoon: [12, 18],
  evening: [18, 22],
  night: [22, 6],
};

export interface LocalDate {
  year: number;
  month: number; // 1-12
  day: number;
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

export function dateOf(ts: number, tz: string): LocalDate {
  const w = wallTime(ts, tz);
  return { year: w.year, month: w.month, day: w.day };
}

const asUtc = (d: LocalDate) => Date.UTC(d.year, d.month - 1, d.day) / 86_400_000;

export function addDays(d: LocalDate, n: number): LocalDate {
  const t = new Date(0);
  t.setUTCFullYear(d.year, d.month - 1, d.day + n);
  return { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() };
}

/** Whole calendar days from `a` to `b` (b later → positive). */
export const dayDiff = (a: LocalDate, b: LocalDate): number => Math.round(asUtc(b) - asUtc(a));

/** 0 = Sunday … 6 = Saturday. */
export const weekdayOf = (d: LocalDate): number => new Date(asUtc(d) * 86_400_000).getUTCDay();

/** The instant of a wall-clock time on a local date; hour 24 is the next day's midnight. */
export function at(d: LocalDate, tz: string, hour = 0, minute = 0): number {
  const day = hour >= 24 ? addDays(d, Math.floor(hour / 24)) : d;
  return localToUtc({ ...day, hour: hour % 24, minute, second: 0 }, tz);
}

/** [from, to) of a whole local day. */
export const dayWindow = (d: LocalDate, tz: string): [number, number] => [at(d, tz), at(addDays(d, 1), tz)];

/** [from, to) of a part of the day that starts on `d` (a night runs into the next day). */
export function partWindow(d: LocalDate, part: DayPart, parts: DayParts, tz: string): [number, number] {
  const [s, e] = parts[part];
  return [at(d, tz, s), e > s ? at(d, tz, e) : at(addDays(d, 1), tz, e)];
}

/**
 * A named night — "last night", "tonight", "Tuesday night" — as people mean it: from the evening's
 * start on `d` to the night's end the next morning (SPEC: "last night" is 18:00 yesterday to 06:00 today).
 */
export function namedNight(d: LocalDate, parts: DayParts, tz: string): [number, number] {
  return [at(d, tz, parts.evening[0]), at(addDays(d, 1), tz, parts.night[1])];
}

/** The local hour (with minutes as a fraction) of an instant. */
export function hourOf(ts: number, tz: string): number {
  const w = wallTime(ts, tz);
  return w.hour + w.minute / 60;
}

/** In the small hours: after midnight and before the night part ends (00:00–06:00 by default). */
export const inSmallHours = (ts: number, parts: DayParts, tz: string): boolean => hourOf(ts, tz) < parts.night[1];

/**
 * A local date as an answer says it, relative to `now`: "today", "yesterday", "tomorrow", "on Tuesday"
 * (within the last six days), "on 24 November" (with the year when it is not this year's).
 */
export function dayLabel(d: LocalDate, now: number, tz: string): string {
  const today = dateOf(now, tz);
  const diff = dayDiff(d, today);
  if (diff === 0) return 'today';
  if (diff === 1) return 'yesterday';
  if (diff === -1) return 'tomorrow';
  if (diff > 1 && diff < 7) return `on ${WEEKDAYS[weekdayOf(d)]}`;
  return `on ${d.day} ${MONTHS[d.month - 1]}${d.year === today.year ? '' : ` ${d.year}`}`;
}
