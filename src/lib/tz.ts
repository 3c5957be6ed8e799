/**
 * Wall-clock ↔ instant conversion in an IANA zone with Intl only (no tz database dependency).
 * Offsets change only on 15-minute boundaries, so they are cached per 15-minute slot.
 */
export interface WallTime {
  year: number;
  month: number; // 1-12
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
const offsetCache = new Map<string, Map<number, number>>();

function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(tz, f);
  }
  return f;
}

/** A wall time read as UTC, in epoch seconds (whole seconds). Full years: Date.UTC maps 0–99 to 19xx. */
function utcSeconds(w: Omit<WallTime, 'second'> & { second: number }): number {
  const d = new Date(0);
  d.setUTCFullYear(w.year, w.month - 1, w.day);
  d.setUTCHours(w.hour, w.minute, Math.floor(w.second), 0);
  return d.getTime() / 1000;
}

/** Offset of `tz` from UTC at instant `tsSec`, in seconds (e.g. +3600 for CET). */
export function offsetAt(tsSec: number, tz: string): number {
  const slot = Math.floor(tsSec / 900);
  let cache = offsetCache.get(tz);
  if (!cache) offsetCache.set(tz, (cache = new Map()));
  let off = cache.get(slot);
  if (off === undefined) {
    const w = wallOfUncached(slot * 900, tz);
    off = utcSeconds(w) - slot * 900;
    if (cache.size > 100_000) cache.clear();
    cache.set(slot, off);
  }
  return off;
}

function wallOfUncached(tsSec: number, tz: string): WallTime {
  const parts: Record<string, number> = {};
  for (const p of formatter(tz).formatToParts(new Date(tsSec * 1000)))
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return {
    year: parts.year,
    month: parts.month,
    day: parts.day,
    hour: parts.hour,
    minute: parts.minute,
    second: parts.second,
  };
}

/** Local wall time of an instant. */
export function wallTime(tsSec: number, tz: string): WallTime {
  const d = new Date((tsSec + offsetAt(tsSec, tz)) * 1000);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds() + (tsSec % 1),
  };
}

/**
 * The instant a wall time names in `tz`. In a fall-back overlap the earlier instant is taken; a
 * wall time skipped by spring-forward maps to the instant one gap later (as clocks do).
 */
export function localToUtc(w: WallTime, tz: string): number {
  const asUtc = utcSeconds(w) + (w.second % 1);
  // Try the offsets in force a day either side of the guess; keep the candidates that round-trip.
  const candidates = [offsetAt(asUtc - 86_400, tz), offsetAt(asUtc + 86_400, tz), offsetAt(asUtc, tz)].map(
    (o) => asUtc - o,
  );
  const exact = candidates.filter((t) => offsetAt(t, tz) === asUtc - t);
  if (exact.length) return Math.min(...exact);
  return asUtc - Math.min(...candidates.map((t) => asUtc - t)); // in a gap: use the earlier offset
}
