/**
 * Rollup bucket boundaries in the configured IANA zone (SPEC §5 Rollups: day and week buckets follow
 * `HEARTH_TZ`, weeks start Monday). All inputs and outputs are epoch seconds; a bucket is the
 * half-open range [start, next(start)).
 *
 * - hour: the local clock hour. In a :30/:45 zone (Asia/Kolkata, Asia/Kathmandu) that is not a UTC
 *   hour. Hours also split where the UTC offset changes, so the local hour 01:00–02:00 that a
 *   fall-back day repeats is two buckets, and Australia/Lord_Howe's 30-minute shift gives a short one.
 * - day: from the first instant of the local date (local midnight; 01:00 where DST starts at
 *   midnight, e.g. America/Santiago) to the next: 23 or 25 hours on DST days.
 * - week: from the start of the local Monday of the ISO week to the next one.
 *
 * The offset comes from `Intl.DateTimeFormat#formatToParts` (no tz dependency). Offsets change only
 * on 15-minute boundaries (all tzdb rules since the LMT era), so the offset — and, when the offset is
 * a whole number of quarter hours, every bucket start — is constant within a 900 s slot and cached per
 * slot: a million look-ups cost a million `Map.get`s.
 */

import { offsetAt } from '../../lib/tz.js';

export type BucketType = 'hour' | 'day' | 'week';

export interface Bucketer {
  readonly timeZone: string;
  /** Start of the local clock hour containing `tsSec`. */
  hour(tsSec: number): number;
  /** Start of the local date containing `tsSec`. */
  day(tsSec: number): number;
  /** Start of the local Monday of the ISO week containing `tsSec`. */
  week(tsSec: number): number;
  of(type: BucketType, tsSec: number): number;
  /** Start of the bucket after the one containing `tsSec` (usually given a bucket start). */
  next(type: BucketType, tsSec: number): number;
  /** UTC offset (local − UTC) in seconds at `tsSec`. */
  offset(tsSec: number): number;
}

const SLOT = 900;
const HOUR = 3600;
const DAY = 86_400;
/** Further than any UTC offset (−12 h … +14 h): the bracket for the binary search below. */
const MAX_SHIFT = 16 * HOUR;
/** Bound on cached slots (~16 years of quarter hours); cleared wholesale when exceeded. */
const CACHE_LIMIT = 600_000;

interface Slot {
  off: number;
  /** bucket starts for instants in this slot, NaN until computed (only used when `aligned`) */
  h: number;
  d: number;
  w: number;
  aligned: boolean;
}

const mod = (a: number, n: number) => ((a % n) + n) % n;

/**
 * Builds a bucketer for one IANA zone. Throws RangeError for an unknown zone.
 * @example createBucketer('Europe/Berlin').day(Date.parse('2026-03-29T12:00:00Z') / 1000)
 */
export function createBucketer(timeZone: string): Bucketer {
  new Intl.DateTimeFormat('en-US', { timeZone }); // RangeError now for an unknown zone
  const cache = new Map<number, Slot>();

  const computeOffset = (t: number): number => offsetAt(t, timeZone);

  function slotOf(n: number): Slot {
    let s = cache.get(n);
    if (s === undefined) {
      if (cache.size >= CACHE_LIMIT) cache.clear();
      const off = computeOffset(n * SLOT);
      s = { off, h: NaN, d: NaN, w: NaN, aligned: off % SLOT === 0 };
      cache.set(n, s);
    }
    return s;
  }

  const offAt = (t: number) => slotOf(Math.floor(t / SLOT)).off;

  /**
   * First instant whose local time is ≥ `localStart` (a local midnight). Tries the offset hints
   * (right unless the offset changes right at midnight), then falls back to a binary search, which
   * is exact because the local date never goes backwards.
   */
  function startOfLocal(localStart: number, hint: number): number {
    let off = hint;
    for (let i = 0; i < 2; i++) {
      const c = localStart - off;
      const oc = offAt(c);
      if (oc === off && c - 1 + offAt(c - 1) < localStart) return c;
      off = oc;
    }
    let lo = localStart - MAX_SHIFT;
    let hi = localStart + MAX_SHIFT;
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (mid + offAt(mid) >= localStart) hi = mid;
      else lo = mid;
    }
    return hi;
  }

  function hourOf(t: number, slotNo: number, off: number): number {
    let start = t - mod(t + off, HOUR);
    // An offset change inside the hour starts a new bucket (the repeated fall-back hour).
    for (let s = slotNo - 1; (s + 1) * SLOT > start; s--) {
      if (slotOf(s).off !== off) {
        start = (s + 1) * SLOT;
        break;
      }
    }
    return start;
  }

  const dayOf = (t: number, off: number) => startOfLocal(Math.floor((t + off) / DAY) * DAY, off);

  function weekOf(t: number, off: number): number {
    const localDay = Math.floor((t + off) / DAY);
    // 1970-01-01 was a Thursday: (day + 3) mod 7 is 0 on Mondays.
    return startOfLocal((localDay - mod(localDay + 3, 7)) * DAY, off);
  }

  /**
   * The bucket start `startOf` gives for `tsSec`, kept in the slot as `key` when the slot's offset is
   * aligned (every instant of such a slot is in the same bucket, so its slot start stands for all).
   */
  const cached =
    (key: 'h' | 'd' | 'w', startOf: (t: number, n: number, off: number) => number) =>
    (tsSec: number): number => {
      const t = Math.floor(tsSec);
      const n = Math.floor(t / SLOT);
      const s = slotOf(n);
      if (!s.aligned) return startOf(t, n, s.off);
      if (Number.isNaN(s[key])) s[key] = startOf(n * SLOT, n, s.off);
      return s[key];
    };
  const hour = cached('h', hourOf);
  const day = cached('d', (t, _n, off) => dayOf(t, off));
  const week = cached('w', (t, _n, off) => weekOf(t, off));

  function of(type: BucketType, tsSec: number): number {
    return type === 'hour' ? hour(tsSec) : type === 'day' ? day(tsSec) : week(tsSec);
  }

  function next(type: BucketType, tsSec: number): number {
    const t = Math.floor(tsSec);
    const off = offAt(t);
    if (type === 'hour') {
      const end = t + HOUR - mod(t + off, HOUR);
      for (let s = Math.floor(t / SLOT) + 1; s * SLOT < end; s++) {
        if (slotOf(s).off !== off) return s * SLOT;
      }
      return end;
    }
    const localDay = Math.floor((t + off) / DAY);
    if (type === 'day') return startOfLocal((localDay + 1) * DAY, off);
    return startOfLocal((localDay - mod(localDay + 3, 7) + 7) * DAY, off);
  }

  return { timeZone, hour, day, week, of, next, offset: offAt };
}
