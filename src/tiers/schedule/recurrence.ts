/**
 * Recurrence expansion with the `rrule` library, in local wall-clock time: an event at 18:00 every
 * Monday stays at 18:00 across DST changes. rrule's own tzid handling is avoided — occurrences are
 * generated as floating wall times and each is converted to an instant in the hub's zone.
 *
 * rrule walks forward from DTSTART, so an old event (or one starting in year 1) would make every
 * expansion walk centuries. For rules without COUNT, DTSTART is first moved forward by whole
 * periods of the rule (a day, a week, 48 months for monthly/yearly so month ends and Feb 29 stay
 * aligned) to just before the window: the same occurrences, found in constant time.
 */
import rrulePkg from 'rrule';
import { localToUtc, wallTime } from '../../lib/tz.js';

const { RRule, rrulestr } = rrulePkg as unknown as typeof import('rrule');

const ALIASES: Record<string, string> = { daily: 'FREQ=DAILY', weekly: 'FREQ=WEEKLY', monthly: 'FREQ=MONTHLY' };
const MAX_COUNT = 10_000;

/** Parses an RRULE (with or without the `RRULE:` prefix) or an alias; throws on anything else. */
export function parseRecurrence(text: string, dtstart = new Date(0)) {
  const body = Object.hasOwn(ALIASES, text.toLowerCase()) ? ALIASES[text.toLowerCase()] : text.replace(/^RRULE:/i, '');
  if (/DTSTART|TZID/i.test(body)) throw new Error('DTSTART/TZID are taken from the event');
  const rule = rrulestr(`RRULE:${body}`, { dtstart }) as InstanceType<typeof RRule>;
  if (!(rule instanceof RRule)) throw new Error('expected a single RRULE');
  if (rule.options.freq === RRule.SECONDLY) throw new Error('FREQ=SECONDLY is not a household schedule');
  if ((rule.options.count ?? 0) > MAX_COUNT) throw new Error(`COUNT above ${MAX_COUNT}`);
  return rule;
}

/** A wall time as a floating Date (its UTC fields are the wall time); full years, unlike Date.UTC. */
function floating(y: number, mo: number, d: number, h = 0, mi = 0, s = 0): Date {
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  date.setUTCHours(h, mi, s, 0);
  return date;
}

/** DTSTART moved forward by whole rule periods to at most one period before `lo`. */
function advance(start: Date, rule: InstanceType<typeof RRule>, lo: Date): Date {
  const { freq, interval = 1, count } = rule.options;
  if (count || start >= lo) return start;
  const fixed: Partial<Record<number, number>> = {
    [RRule.DAILY]: 86_400_000,
    [RRule.WEEKLY]: 7 * 86_400_000,
    [RRule.HOURLY]: 3_600_000,
    [RRule.MINUTELY]: 60_000,
  };
  const step = fixed[freq];
  if (step) {
    const k = Math.floor((lo.getTime() - start.getTime()) / (step * interval)) - 1;
    return k > 0 ? new Date(start.getTime() + k * step * interval) : start;
  }
  const months = (lo.getUTCFullYear() - start.getUTCFullYear()) * 12 + lo.getUTCMonth() - start.getUTCMonth();
  const period = 48 * (freq === RRule.YEARLY ? 12 * interval : interval);
  const k = Math.floor(months / period) - 1;
  if (k <= 0) return start;
  const d = new Date(start.getTime());
  d.setUTCFullYear(start.getUTCFullYear(), start.getUTCMonth() + k * period, start.getUTCDate());
  return d;
}

/** Start instants (epoch s) of an event's occurrences that start within [from, to], at most `limit`. */
export function occurrences(
  startTs: number,
  recurrence: string | null,
  tz: string,
  from: number,
  to: number,
  limit: number,
): number[] {
  if (!recurrence) return startTs >= from && startTs <= to ? [startTs] : [];
  if (to < startTs) return [];
  const w = wallTime(startTs, tz);
  const fromW = wallTime(Math.max(from, startTs), tz);
  const toW = wallTime(to, tz);
  // Widen the floating window by a day each side for the zone offset, then filter exactly.
  const lo = floating(fromW.year, fromW.month, fromW.day - 1);
  const hi = floating(toW.year, toW.month, toW.day + 1);
  const probe = parseRecurrence(recurrence, floating(w.year, w.month, w.day, w.hour, w.minute, Math.floor(w.second)));
  const rule = parseRecurrence(recurrence, advance(probe.options.dtstart, probe, lo));
  const out: number[] = [];
  rule.between(lo, hi, true, (d) => {
    const ts = localToUtc(
      {
        year: d.getUTCFullYear(),
        month: d.getUTCMonth() + 1,
        day: d.getUTCDate(),
        hour: d.getUTCHours(),
        minute: d.getUTCMinutes(),
        second: d.getUTCSeconds(),
      },
      tz,
    );
    if (ts >= from && ts <= to) out.push(ts);
    return out.length < limit;
  });
  return out;
}
