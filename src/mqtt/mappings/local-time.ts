/**
 * Device-local wall-clock time → epoch seconds, for payloads that carry a time without an offset
 * (Tasmota `Time`, SPEC §7: "device local time without an offset, read in HEARTH_TZ").
 *
 * Uses only `Intl.DateTimeFormat` (no tz database of our own). DST rules:
 * - an ambiguous time (the repeated hour when clocks go back) takes the EARLIER instant;
 * - a non-existent time (the skipped hour when clocks go forward) is shifted forward by the gap,
 *   e.g. 02:30 on a spring-forward night in Europe/Berlin → 03:30 CEST (as Temporal's "compatible").
 */
import { ParseError } from './types.js';

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?$/;
const DAY_MS = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
    } catch {
      throw new ParseError(`unknown time zone: ${String(timeZone).slice(0, 60)}`);
    }
    if (formatters.size > 64) formatters.clear();
    formatters.set(timeZone, f);
  }
  return f;
}

/** UTC milliseconds of a wall-clock reading (full years, unlike Date.UTC's 0–99 → 19xx). */
function utc(y: number, mo: number, d: number, h: number, mi: number, s: number, ms: number): number {
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  date.setUTCHours(h, mi, s, ms);
  return date.getTime();
}

/** The wall clock shown in `timeZone` at instant `t`, expressed as if it were UTC (whole seconds). */
function wallClock(f: Intl.DateTimeFormat, t: number): number {
  const p: Record<string, number> = {};
  for (const part of f.formatToParts(new Date(t))) p[part.type] = Number(part.value);
  return utc(p.year, p.month, p.day, p.hour === 24 ? 0 : p.hour, p.minute, p.second, 0);
}

/** Epoch milliseconds of a local wall-clock time in `timeZone` (DST rules in the header). */
export function localToEpochMs(
  fields: { year: number; month: number; day: number; hour: number; minute: number; second: number; ms: number },
  timeZone: string,
): number {
  const f = formatter(timeZone);
  const { year, month, day, hour, minute, second, ms } = fields;
  const asUtc = utc(year, month, day, hour, minute, second, 0);
  const offset = (t: number) => wallClock(f, t) - Math.floor(t / 1000) * 1000;
  const before = offset(asUtc - DAY_MS);
  const after = offset(asUtc + DAY_MS);
  const candidates = [...new Set([asUtc - before, asUtc - after])].filter((t) => wallClock(f, t) === asUtc);
  const t = candidates.length > 0 ? Math.min(...candidates) : asUtc - before;
  return t + ms;
}

/**
 * Parse `YYYY-MM-DDTHH:MM[:SS[.fff]]` (no offset) as local time in `timeZone` → epoch seconds.
 * Returns undefined when the text is not of that form (callers then try other forms).
 */
export function parseLocalTime(text: string, timeZone: string): number | undefined {
  const m = LOCAL.exec(text.trim());
  if (!m) return undefined;
  const [year, month, day, hour, minute] = [1, 2, 3, 4, 5].map((i) => Number(m[i]));
  const second = m[6] === undefined ? 0 : Number(m[6]);
  const ms = m[7] === undefined ? 0 : Math.floor(Number(`0.${m[7]}`) * 1000);
  if (year < 1 || month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) {
    throw new ParseError(`invalid local time: ${text.slice(0, 40)}`);
  }
  const check = new Date(utc(year, month, day, 0, 0, 0, 0));
  if (check.getUTCDate() !== day) throw new ParseError(`invalid local time: ${text.slice(0, 40)}`);
  return localToEpochMs({ year, month, day, hour, minute, second, ms }, timeZone) / 1000;
}
