/**
 * The periods `get_trends` compares (#34 item 6), always two of the same length and both complete:
 * - rolling (default): the last `days` × 24 hours up to now, against the `days` × 24 hours before,
 *   read from the hourly rollups of the hours that have ended, cut into 24-hour stretches — so `days: 1` at 03:00 is
 *   "the last 24 hours", not the three hours since midnight set against all of yesterday;
 * - whole days: the last `days` calendar days in the home's zone that have ended ("yesterday"),
 *   against the `days` before them, read from daily rollups.
 * Each period says itself in words, so the summary names the window it used.
 */
import { localToUtc, offsetAt, wallTime } from '../lib/tz.js';
import type { RollupRow, TimeseriesService } from '../tiers/timeseries/timeseries.service.js';

const DAY = 86_400;

export interface TrendPeriod {
  from: number;
  to: number;
  /** "the last 24 hours", "the last 7 days", "yesterday", "the 7 whole days before today". */
  text: string;
  /** The period before, in words: "the 24 hours before", "the day before", "the 7 days before". */
  previousText: string;
  /** One row per day-long stretch with readings, oldest first (for the level, range and slope). */
  days: (RollupRow & { x: number })[];
  /** The same for the period before. */
  previous: RollupRow[];
}

/** Rollup rows merged into one (count-weighted mean, overall min/max, most common mode). */
function merge(rows: RollupRow[], bucket_ts: number): RollupRow {
  const count = rows.reduce((a, r) => a + r.count, 0);
  const withAvg = rows.filter((r) => r.avg_num !== null);
  const n = withAvg.reduce((a, r) => a + r.count, 0);
  const modes = new Map<string, number>();
  for (const r of rows) if (r.mode_cat !== null) modes.set(r.mode_cat, (modes.get(r.mode_cat) ?? 0) + r.count);
  const mins = rows.flatMap((r) => (r.min_num === null ? [] : [r.min_num]));
  const maxs = rows.flatMap((r) => (r.max_num === null ? [] : [r.max_num]));
  return {
    bucket_ts,
    count,
    avg_num: n ? withAvg.reduce((a, r) => a + (r.avg_num ?? 0) * r.count, 0) / n : null,
    min_num: mins.length ? Math.min(...mins) : null,
    max_num: maxs.length ? Math.max(...maxs) : null,
    mode_cat: [...modes.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null,
  };
}

/** Hourly rows cut into 24-hour stretches ending at `end`, oldest first, empty stretches left out. */
function stretches(rows: RollupRow[], end: number, days: number): (RollupRow & { x: number })[] {
  const out: (RollupRow & { x: number })[] = [];
  for (let i = days - 1; i >= 0; i--) {
    const [f, t] = [end - (i + 1) * DAY, end - i * DAY];
    const inside = rows.filter((r) => r.bucket_ts >= f && r.bucket_ts < t);
    if (inside.length) out.push({ ...merge(inside, f), x: -(i + 0.5) });
  }
  return out;
}

export function trendPeriod(
  timeseries: Pick<TimeseriesService, 'hourlyRollups' | 'dailyRollups'>,
  seriesId: number,
  opts: { now: number; days: number; wholeDays: boolean; timeZone: string },
): TrendPeriod {
  const { now, days, timeZone } = opts;
  if (!opts.wholeDays) {
    // Whole hour buckets only: the periods end where the hour now under way began (hour buckets start
    // on the local hour, so a zone with a half-hour offset shifts them).
    const shift = ((offsetAt(now, timeZone) % 3600) + 3600) % 3600;
    const end = Math.floor((now - shift) / 3600) * 3600 + shift;
    const rows = timeseries.hourlyRollups(seriesId, end - 2 * days * DAY, end);
    const span = days === 1 ? '24 hours' : `${days} days`;
    return {
      from: end - days * DAY,
      to: end,
      text: `the last ${span}`,
      previousText: `the ${span} before`,
      days: stretches(rows, end, days),
      previous: rows.filter((r) => r.bucket_ts < end - days * DAY),
    };
  }
  const w = wallTime(now, timeZone);
  const midnight = (back: number) => {
    const d = new Date(Date.UTC(w.year, w.month - 1, w.day - back));
    return localToUtc(
      { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: 0, minute: 0, second: 0 },
      timeZone,
    );
  };
  const [from, to, before] = [midnight(days), midnight(0), midnight(2 * days)];
  const rows = timeseries.dailyRollups(seriesId, from, to);
  return {
    from,
    to,
    text: days === 1 ? 'yesterday' : `the ${days} whole days before today`,
    previousText: days === 1 ? 'the day before' : `the ${days} days before those`,
    days: rows.map((r) => ({ ...r, x: (r.bucket_ts + DAY / 2 - to) / DAY })),
    previous: timeseries.dailyRollups(seriesId, before, from),
  };
}
