/**
 * Recurrence expansion with the `rrule` library, in local wall-clock time: an event at 18:00 every
 * Monday stays at 18:00 across DST changes. rrule's own tzid handling is avoided — occurrences are
 * generated as floating wall times and each is converted to an instant in the hub's zone.
 */
import rrulePkg from 'rrule';
import { localToUtc, wallTime } from '../../lib/tz.js';

const { RRule, rrulestr } = rrulePkg as unknown as typeof import('rrule');

const ALIASES: Record<string, string> = { daily: 'FREQ=DAILY', weekly: 'FREQ=WEEKLY', monthly: 'FREQ=MONTHLY' };

/** Parses an RRULE (with or without the `RRULE:` prefix) or an alias; throws on anything else. */
export function parseRecurrence(text: string, dtstart = new Date(0)) {
  const body = ALIASES[text.toLowerCase()] ?? text.replace(/^RRULE:/i, '');
  if (/DTSTART|TZID/i.test(body)) throw new Error('DTSTART/TZID are taken from the event');
  const rule = rrulestr(`RRULE:${body}`, { dtstart }) as InstanceType<typeof RRule>;
  if (!(rule instanceof RRule)) throw new Error('expected a single RRULE');
  return rule;
}

/** Start instants (epoch s) of an event's occurrences that start within [from, to], at most `limit`. */
export function occurrences(startTs: number, recurrence: string | null, tz: string, from: number, to: number, limit: number): number[] {
  if (!recurrence) return startTs >= from && startTs <= to ? [startTs] : [];
  const w = wallTime(startTs, tz);
  const floating = new Date(Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, Math.floor(w.second)));
  const rule = parseRecurrence(recurrence, floating);
  // Widen the floating window by a day each side for the zone offset, then filter exactly.
  const fromW = wallTime(from, tz);
  const toW = wallTime(to, tz);
  const lo = new Date(Date.UTC(fromW.year, fromW.month - 1, fromW.day - 1));
  const hi = new Date(Date.UTC(toW.year, toW.month - 1, toW.day + 1));
  const out: number[] = [];
  rule.between(lo, hi, true, (d) => {
    const ts = localToUtc(
      { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(), minute: d.getUTCMinutes(), second: d.getUTCSeconds() },
      tz,
    );
    if (ts >= from && ts <= to) out.push(ts);
    return out.length < limit;
  });
  return out;
}
