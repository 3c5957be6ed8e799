/** Local-day windows and phrasing helpers shared by the built-in detectors. */
import type { LocalTime, PatternContext, RollupPoint, SeriesInfo } from '../../src/patterns/detector.js';
import { median } from 'simple-statistics';

export const DAY = 86_400;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const memo = new WeakMap<PatternContext, Map<number, LocalTime>>();

/**
 * `ctx.local(ts)`, memoised per context: every series shares the same hour and day bucket starts, so
 * 500 series × 360 hours cost 360 conversions, not 180 000.
 */
export function localAt(ctx: PatternContext, ts: number): LocalTime {
  let m = memo.get(ctx);
  if (!m) memo.set(ctx, (m = new Map()));
  let l = m.get(ts);
  if (!l) {
    if (m.size > 200_000) m.clear();
    m.set(ts, (l = ctx.local(ts)));
  }
  return l;
}

/**
 * Local date and minutes after midnight of any instant, memoised per quarter hour: UTC offsets
 * change only on 15-minute boundaries, so within a slot local time moves with UTC.
 */
export function localMinutes(ctx: PatternContext, ts: number): { date: string; weekday: number; minutes: number } {
  const slot = Math.floor(ts / 900) * 900;
  const l = localAt(ctx, slot);
  return { date: l.date, weekday: l.weekday, minutes: l.hour * 60 + l.minute + (ts - slot) / 60 };
}

/** Start (epoch s) of the local date containing `ts`; exact across DST days (23 h / 25 h). */
export function localDayStart(ctx: PatternContext, ts: number): number {
  const l = ctx.local(ts);
  let t = Math.floor(ts) - (l.hour * 3600 + l.minute * 60 + (Math.floor(ts) % 60));
  // Offsets change on the hour or half hour; step until t is the first instant of the same date.
  for (let i = 0; i < 4 && ctx.local(t).date !== l.date; i++) t += 1800;
  for (let i = 0; i < 4 && ctx.local(t - 1).date === l.date; i++) t -= 1800;
  return t;
}

/**
 * Day rollups of the last `days` complete local days (today excluded: a partial day biases means).
 * Days with a value and at least `minCount` readings — and at least a quarter of the window's
 * median daily count, so a day the sensor was off for most of is not read as a typical day — are kept.
 */
export function completeDays(ctx: PatternContext, s: SeriesInfo, days: number, minCount = 1): RollupPoint[] {
  const today = localDayStart(ctx, ctx.now);
  // Local midnights are 24 h ± 1 h apart: the 2 h margin finds the right first bucket across DST.
  const from = today - days * DAY - 7200;
  const rows = ctx.rollups(s.id, 'day', from, today);
  const present = rows.filter((r) =>
    s.value_type === 'numeric' ? r.avg !== null && Number.isFinite(r.avg) : r.mode !== null,
  );
  if (present.length === 0) return [];
  const floor = Math.max(minCount, 0.25 * median(present.map((r) => r.count)));
  return present.filter((r) => r.count >= floor);
}

/** Whole days between two local-midnight bucket starts (DST-safe). */
export const dayIndex = (bucketTs: number, ref: number) => Math.round((bucketTs - ref) / DAY);

export const capitalize = (s: string) => (s ? s[0].toUpperCase() + s.slice(1) : s);

/** "Brian" for a person; "the hallway light" for a place or thing. */
export function subject(s: SeriesInfo): string {
  if (s.entity_type === 'person' || /^[A-Z]/.test(s.entity)) return s.entity;
  return `the ${s.entity.replace(/_/g, ' ')}`;
}

/** "30 Nov" */
export const shortDate = (l: LocalTime) => `${l.day} ${MONTHS[l.month - 1]}`;

/** Minutes after local midnight → "07:45". */
export function clock(minutes: number): string {
  const m = ((Math.round(minutes) % 1440) + 1440) % 1440;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

/** Numeric series only; categorical series only. */
export const numeric = (ctx: PatternContext) => ctx.series().filter((s) => s.value_type === 'numeric');
export const categorical = (ctx: PatternContext) => ctx.series().filter((s) => s.value_type === 'categorical');
