/**
 * Device-local wall-clock time → epoch seconds, for payloads that carry a time without an offset
 * (Tasmota `Time`, SPEC §7: "device local time without an offset, read in HEARTH_TZ").
 *
 * Uses only `Intl.DateTimeFormat` (no tz database of our own). DST rules:
 * - an ambiguous time (the repeated hour when clocks go back) takes the EARLIER instant;
 * - a non-existent time (the skipped hour when clocks go forward) is shifted forward by the gap,
 *   e.g. 02:30 on a spring-forward night in Europe/Berlin → 03:30 CEST (as Temporal's "compatible").
 */
import { localToUtc } from '../../lib/tz.js';
import { ParseError } from './types.js';

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?$/;
/** Epoch milliseconds of a local wall-clock time in `timeZone` (DST rules in the header; see lib/tz.ts). */
export function localToEpochMs(
  fields: { year: number; month: number; day: number; hour: number; minute: number; second: number; ms: number },
  timeZone: string,
): number {
  const { ms, ...wall } = fields;
  let t: number;
  try {
    t = localToUtc(wall, timeZone);
  } catch {
    throw new ParseError(`unknown time zone: ${String(timeZone).slice(0, 60)}`);
  }
  return t * 1000 + ms;
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
  const check = new Date(0);
  check.setUTCFullYear(year, month - 1, day);
  if (check.getUTCDate() !== day) throw new ParseError(`invalid local time: ${text.slice(0, 40)}`);
  return localToEpochMs({ year, month, day, hour, minute, second, ms }, timeZone) / 1000;
}
