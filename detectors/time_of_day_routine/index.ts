/**
 * time_of_day_routine → category `routine`: "Brian usually arrives home around 18:10 on weekdays".
 *
 * Rule (categorical series, RAW readings, wall-clock time in the hub's zone via `ctx.local` — the
 * seed used UTC hours, so an 18:10 arrival in New York read as 23:10; every threshold is an option):
 * - A transition into value v is a reading of v whose previous reading had another value. For each
 *   local date of the last `window_days` (28) complete days, the first transition into v that day.
 * - Days are grouped into weekdays (Mon–Fri) and weekends (Sat–Sun). The denominator is every day of
 *   the group from the series' first reading in the window to yesterday (a state-change-only sensor
 *   sends nothing on a day nothing changes: such a day counts as "no transition").
 * - Routine when at least `min_occurrences` (5) first transitions, and ≥ `min_share` (0.6) of the
 *   group's days, fall within ±`tolerance_minutes` (30) of their median (a circular median, so 23:50
 *   and 00:10 are 20 minutes apart), AND the robust SD of the times (1.4826·MAD around the median) is
 *   ≤ `max_sd_minutes` (20). With 8 weekend days in 28, times scattered uniformly over ±100 min put 5
 *   inside ±30 min ~19 % of the time; the SD gate and the test below bring that to ~1 %, while a
 *   routine with σ = 10 min (and 10 % off-schedule days) is still found ~95 % of the time.
 * - "every day" when the all-days routine holds AND each group alone is on time around the all-days
 *   median on ≥ min_share of its days. Otherwise a weekday (weekend) routine is reported only if the other
 *   group is clearly less often on time at that hour: one-sided Fisher exact test p ≤ `max_p` (0.05)
 *   — a light that goes off at random times all week is not a "weekend routine" because 5 of 8
 *   weekend evenings happened to bunch.
 * - The time is the median rounded to `round_minutes` (5).
 * Phrasing: presence-like series (metric presence/occupancy/location/person, or values home/not_home/
 * away) read "arrives home" / "leaves home" / "arrives at 'work'"; on/off values "turns 'on'"; others
 * "becomes 'x'". Key: `time_of_day_routine:<entity>:<metric>:<value>:<weekdays|weekends|daily>`.
 * Confidence: 0.5 + 0.3 × (share − min_share)/(1 − min_share) + 0.15 × share, ≤ 0.95.
 */
import { z } from 'zod';
import { defineDetector, type Finding, type SeriesInfo } from '../../src/patterns/detector.js';
import { DAY, capitalize, categorical, clock, localDayStart, localMinutes, subject } from '../lib/days.js';
import { median } from 'simple-statistics';
import { confidence, fisherGreater, r4 } from '../lib/stats.js';

const Options = z.object({
  window_days: z.number().int().min(2).max(90).default(28),
  min_occurrences: z.number().int().min(2).default(5),
  min_share: z.number().min(0).max(1).default(0.6),
  tolerance_minutes: z.number().positive().max(720).default(30),
  max_sd_minutes: z.number().positive().max(720).default(20),
  max_p: z.number().min(0).max(1).default(0.05),
  round_minutes: z.number().int().min(1).max(60).default(5),
  max_values: z.number().int().min(1).default(8),
});
type Opts = z.infer<typeof Options>;
type Group = 'weekdays' | 'weekends' | 'daily';

/** Signed circular difference a − b in minutes, in (−720, 720]. */
const cdiff = (a: number, b: number) => ((((a - b) % 1440) + 1440 + 720) % 1440) - 720 || 0;

/** Circular median of minutes-after-midnight: unwrap around the circular mean, then take the median. */
function circularMedian(t: number[]): number {
  let [sx, sy] = [0, 0];
  for (const m of t) (sx += Math.cos((m / 1440) * 2 * Math.PI)), (sy += Math.sin((m / 1440) * 2 * Math.PI));
  const c = ((Math.atan2(sy, sx) / (2 * Math.PI)) * 1440 + 1440) % 1440;
  return (c + median(t.map((m) => cdiff(m, c))) + 1440) % 1440;
}

interface Routine {
  median: number;
  inside: number;
  occurrences: number;
  days: number;
  share: number;
  sdMinutes: number;
}

const onTime = (times: number[], m: number, o: Opts) =>
  times.filter((t) => Math.abs(cdiff(t, m)) <= o.tolerance_minutes).length;

function routine(times: number[], days: number, o: Opts): Routine | null {
  if (times.length < o.min_occurrences || days === 0) return null;
  const m = circularMedian(times);
  const inside = onTime(times, m, o);
  const share = inside / days;
  const sdMinutes = 1.4826 * median(times.map((t) => Math.abs(cdiff(t, m))));
  const ok = inside >= o.min_occurrences && share >= o.min_share && sdMinutes <= o.max_sd_minutes;
  return ok ? { median: m, inside, occurrences: times.length, days, share, sdMinutes } : null;
}

const PRESENCE_METRIC = /presence|occupancy|location|person|device_tracker/i;
const AWAY = new Set(['not_home', 'away', 'out', 'absent']);

function phrase(s: SeriesInfo, value: string, label: string): string {
  const presence = PRESENCE_METRIC.test(s.metric) || value === 'home' || AWAY.has(value);
  const who = capitalize(subject(s));
  if (presence) {
    if (value === 'home') return `${who} usually arrives home`;
    if (AWAY.has(value)) return `${who} usually leaves home`;
    return `${who} usually arrives at '${value}'`;
  }
  const stateLike = /^(state|status|switch|power_state|on_off|onoff)$/i.test(s.metric.split('.').pop() ?? '');
  const verb = /^(on|off)$/i.test(value) ? 'turns' : 'becomes';
  return `${stateLike ? who : capitalize(label)} usually ${verb} '${value}'`;
}

const WHEN: Record<Group, string> = { weekdays: 'on weekdays', weekends: 'on weekends', daily: 'every day' };

export default defineDetector({
  name: 'time_of_day_routine',
  description:
    'A categorical value first reached at about the same local time on most days (weekdays, weekends or daily)',
  options: Options,
  detect(ctx, o) {
    const out: Finding[] = [];
    const today = localDayStart(ctx, ctx.now);
    for (const s of categorical(ctx)) {
      const raw = ctx.raw(s.id, localDayStart(ctx, today - o.window_days * DAY + 7200), today);
      if (raw.length < o.min_occurrences) continue;
      const dates = new Map<string, boolean>(); // every local date from the first reading to yesterday → is weekend
      for (let t = localDayStart(ctx, raw[0].ts); t < today; t = localDayStart(ctx, t + DAY + 7200)) {
        const l = ctx.local(t);
        dates.set(l.date, l.weekday >= 5);
      }
      const first = new Map<string, Map<string, number>>(); // value → date → minutes after midnight
      for (let i = 1; i < raw.length; i++) {
        const v = String(raw[i].value);
        if (v === String(raw[i - 1].value)) continue;
        const l = localMinutes(ctx, raw[i].ts);
        const byDate = first.get(v) ?? first.set(v, new Map()).get(v)!;
        if (!byDate.has(l.date)) byDate.set(l.date, l.minutes);
      }
      const nDays = { weekdays: 0, weekends: 0, daily: dates.size };
      for (const weekend of dates.values()) nDays[weekend ? 'weekends' : 'weekdays']++;
      // The most frequent transitions first (ties by name), so the cap keeps the informative ones.
      const values = [...first.keys()]
        .sort((a, b) => first.get(b)!.size - first.get(a)!.size || (a < b ? -1 : 1))
        .slice(0, o.max_values);
      for (const v of values) {
        const byDate = first.get(v)!;
        const times = { weekdays: [] as number[], weekends: [] as number[], daily: [] as number[] };
        for (const [date, m] of byDate) {
          const weekend = dates.get(date);
          if (weekend === undefined) continue;
          times[weekend ? 'weekends' : 'weekdays'].push(m);
          times.daily.push(m);
        }
        const found: [Group, Routine][] = [];
        const all = routine(times.daily, nDays.daily, o);
        const groups = ['weekdays', 'weekends'] as const;
        // Every day: the all-days routine holds within each group too (a weekday commute is not daily).
        if (all && groups.every((g) => nDays[g] === 0 || onTime(times[g], all.median, o) / nDays[g] >= o.min_share))
          found.push(['daily', all]);
        else {
          for (const [g, other] of [
            ['weekdays', 'weekends'],
            ['weekends', 'weekdays'],
          ] as const) {
            const r = routine(times[g], nDays[g], o);
            if (!r) continue;
            // Only on these days: the other group is clearly less on time (one-sided Fisher exact test).
            const p =
              nDays[other] < 2 ? 0 : fisherGreater(r.inside, nDays[g], onTime(times[other], r.median, o), nDays[other]);
            if (p <= o.max_p) found.push([g, r]);
          }
        }
        for (const [g, r] of found) {
          const at = Math.round(r.median / o.round_minutes) * o.round_minutes;
          out.push({
            pattern_key: `time_of_day_routine:${s.entity}:${s.metric}:${v}:${g}`,
            entity: s.entity,
            metric: s.metric,
            category: 'routine',
            fact: `${phrase(s, v, ctx.label(s.entity, s.metric))} around ${clock(at)} ${WHEN[g]}`,
            confidence: confidence((r.share - o.min_share) / (1 - o.min_share || 1), r.inside / r.days),
            evidence: {
              value: v,
              group: g,
              median_minutes: r4(r.median),
              sd_minutes: r4(r.sdMinutes),
              time: clock(at),
              on_time_days: r.inside,
              occurrences: r.occurrences,
              days: r.days,
              share: r4(r.share),
              tolerance_minutes: o.tolerance_minutes,
              time_zone: ctx.timeZone,
            },
          });
        }
      }
    }
    return out;
  },
});
