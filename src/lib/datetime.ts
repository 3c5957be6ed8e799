/**
 * ISO-8601 date-times with an explicit zone, checked field by field. `Date.parse` rolls impossible
 * dates over (2025-02-30 → March 2, April 31 → May 1); every door that takes a timestamp parses
 * with this one function instead, so an impossible date is refused rather than stored elsewhere.
 */

/** ISO-8601 date-time with an explicit zone (Z or ±hh:mm), e.g. 2026-11-30T18:10:00+01:00. */
export const ISO_WITH_ZONE =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|([+-])(\d{2}):?(\d{2}))$/i;

const daysIn = (year: number, month: number) =>
  new Date(Date.UTC(2000, month, 0)).getUTCDate() - (month === 2 && !isLeap(year) ? 1 : 0);
const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/** Epoch milliseconds, or undefined when the text is not a real date-time with a zone. */
export function parseIsoWithZone(text: string): number | undefined {
  const m = ISO_WITH_ZONE.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute] = [1, 2, 3, 4, 5].map((i) => Number(m[i]));
  const second = m[6] === undefined ? 0 : Number(m[6]);
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  if (m[9] !== undefined && (Number(m[10]) > 23 || Number(m[11]) > 59)) return undefined;
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms : undefined;
}

/** Epoch seconds every door accepts: years 1 to 9999. */
export const MIN_EPOCH_S = -62135596800;
export const MAX_EPOCH_S = 253402300799;

/**
 * Why an epoch-seconds number is out of range, in words. Milliseconds (`Date.now()`, JavaScript and
 * Home Assistant templates' habit) are the usual mistake, so they are named as such.
 */
export function epochProblem(n: number): string {
  if (Math.abs(n) > MAX_EPOCH_S && Math.abs(n / 1000) <= MAX_EPOCH_S) {
    return `${n} looks like milliseconds; send epoch seconds (${Math.trunc(n / 1000)}) or ISO-8601 with a zone`;
  }
  return `${n} is outside the years 1–9999; send epoch seconds or ISO-8601 with a zone`;
}
