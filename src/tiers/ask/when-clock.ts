/**
 * Clock times in a question ("at 11 pm", "at 9", "between 2 and 4", "since 6"), read by chrono-node
 * and placed on the home's calendar. A clock without am/pm names two instants a day; which one the
 * asker means is decided here, in one place (docs/ask.md "Time phrases"):
 * - inside a context ("last night", "this morning", "yesterday") the reading that falls inside it;
 *   for a whole day, the waking-hours reading (07:00–18:59: 7–11 am, noon, 1–6 pm);
 * - with no context, the most recent past occurrence, except that a small-hours reading (00:00 to the
 *   night's end, 06:00) gives way to the pm one unless it is the small hours now.
 */
import * as chrono from 'chrono-node';
import type { ParsedResult, ParsingReference } from 'chrono-node';
import { addDays, at, type DayParts, dateOf, hourOf, inSmallHours } from './calendar.js';

export interface Clock {
  hour: number; // 0-23 as read (the am reading when `fixed` is false)
  minute: number;
  /** am/pm is known: said, a 24-hour time, noon or midnight. */
  fixed: boolean;
}

const WAKING: [number, number] = [7, 19];

/** The clock a chrono result names, if it names an hour. */
export function clockOf(r: ParsedResult): Clock | null {
  if (!r.start.isCertain('hour')) return null;
  const hour = r.start.get('hour') ?? 0;
  const minute = r.start.get('minute') ?? 0;
  const tags = r.tags();
  const fixed =
    r.start.isCertain('meridiem') ||
    hour === 0 ||
    hour > 12 ||
    tags.has('casualReference/noon') ||
    tags.has('casualReference/midnight');
  return { hour, minute, fixed };
}

/** A clock token from a range ("2", "2:30", "4 pm", "noon"), read by chrono as "at <token>". */
export function readClock(token: string, ref: ParsingReference): Clock | null {
  const [r] = chrono.parse(`at ${token}`, ref);
  // The whole token must be the clock chrono read ("at 2 pm", or "noon" without its "at").
  if (!r || r.index + r.text.length !== token.length + 3) return null;
  return clockOf(r);
}

/** The hours (0-23) a clock may mean. */
export function readings(c: Clock): number[] {
  if (c.fixed) return [c.hour];
  if (c.hour === 12) return [12, 0];
  return [c.hour, c.hour + 12];
}

/** The latest instant at or before `before` showing `hour:minute` on the home's clocks. */
export function lastOccurrence(hour: number, minute: number, before: number, tz: string): number {
  const d = dateOf(before, tz);
  const x = at(d, tz, hour, minute);
  return x <= before ? x : at(addDays(d, -1), tz, hour, minute);
}

/** The first instant after `after` that a clock can mean (within 12 hours unless am/pm was said). */
export function nextOccurrence(c: Clock, after: number, tz: string, fixedStart: boolean): number | null {
  const d = dateOf(after, tz);
  const xs = readings(c)
    .flatMap((h) => [at(d, tz, h, c.minute), at(addDays(d, 1), tz, h, c.minute)])
    .filter((x) => x > after)
    .sort((a, b) => a - b);
  const x = xs[0];
  if (x === undefined) return null;
  return c.fixed && fixedStart ? x : x - after <= 12 * 3600 ? x : null;
}

/** The reading of a clock inside [from, to), preferring the waking-hours one when two fit. */
export function clockIn(c: Clock, window: [number, number], tz: string): number | null {
  const [from, to] = window;
  const first = dateOf(from, tz);
  const days = Math.max(1, Math.ceil((to - from) / 86_400) + 1);
  const inside: number[] = [];
  for (let i = 0; i <= days; i++)
    for (const h of readings(c)) {
      const x = at(addDays(first, i), tz, h, c.minute);
      if (x >= from && x < to && !inside.includes(x)) inside.push(x);
    }
  if (inside.length <= 1) return inside[0] ?? null;
  const waking = inside.filter((x) => {
    const h = hourOf(x, tz);
    return h >= WAKING[0] && h < WAKING[1];
  });
  return (waking.length ? waking : inside).sort((a, b) => a - b)[0];
}

/**
 * Among candidate instants (one per reading of an unfixed clock), the one meant with no context:
 * the latest, unless it lies in the small hours and it is not the small hours now.
 */
export function preferRecent(candidates: number[], now: number, parts: DayParts, tz: string): number {
  const sorted = [...candidates].sort((a, b) => b - a);
  if (sorted.length > 1 && inSmallHours(sorted[0], parts, tz) && !inSmallHours(now, parts, tz)) return sorted[1];
  return sorted[0];
}

/** A clock time with no day named: its most recent past occurrence (see the header for am/pm). */
export function clockBefore(c: Clock, now: number, parts: DayParts, tz: string): number {
  return preferRecent(
    readings(c).map((h) => lastOccurrence(h, c.minute, now, tz)),
    now,
    parts,
    tz,
  );
}

/** "between a and b" with no day named: the most recent occurrence that has ended. */
export function rangeBefore(a: Clock, b: Clock, now: number, parts: DayParts, tz: string): [number, number] | null {
  const pairs: [number, number][] = [];
  for (const h of readings(a)) {
    let start = lastOccurrence(h, a.minute, now, tz);
    for (let tries = 0; tries < 2; tries++) {
      const end = nextOccurrence(b, start, tz, a.fixed);
      if (end === null) break;
      if (end <= now) {
        pairs.push([start, end]);
        break;
      }
      start = lastOccurrence(h, a.minute, start - 1, tz);
    }
  }
  if (!pairs.length) return null;
  const start = preferRecent(
    pairs.map((p) => p[0]),
    now,
    parts,
    tz,
  );
  return pairs.find((p) => p[0] === start) ?? null;
}

/** "between a and b" inside a context window: a's reading inside it, b's first occurrence after that. */
export function rangeIn(a: Clock, b: Clock, window: [number, number], tz: string): [number, number] | null {
  const candidates = readings(a)
    .map((h) => clockIn({ hour: h, minute: a.minute, fixed: true }, window, tz))
    .filter((x): x is number => x !== null)
    .map((start) => [start, nextOccurrence(b, start, tz, a.fixed)] as const)
    .filter((p): p is readonly [number, number] => p[1] !== null);
  if (!candidates.length) return null;
  if (candidates.length === 1) return [...candidates[0]];
  const waking = candidates.filter((p) => {
    const h = hourOf(p[0], tz);
    return h >= WAKING[0] && h < WAKING[1];
  });
  const [start, end] = (waking.length ? waking : candidates).sort((x, y) => x[0] - y[0])[0];
  return [start, end];
}
