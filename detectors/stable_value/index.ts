/**
 * stable_value → category `preference`: "Brian's bedroom temperature is consistently around 68°F".
 *
 * Rule (numeric series; every threshold is an option below):
 * - Whole day: the last `window_days` (14) complete local days with data (a day needs
 *   ≥ `min_samples_per_day` readings and ≥ ¼ of the window's median daily count); at least
 *   `min_days` (3) of them. Consistent when ALL of
 *   1. the coefficient of variation of the daily means is < `max_cv` (0.10) — the seed's rule;
 *   2. the median within-day spread (p90 − p10; max − min under 10 readings) / |level| is < `max_spread`
 *      (0.20: the middle 80 % of a day's readings within ±10 % of the level) — daily means of a series
 *      that swings widely within each day (power, CO₂, pure noise) are steady, yet the series is not
 *      "around" anything. The eval's planted steady series sit at 0.02–0.15, its noise at 0.4–1.6;
 *   3. the daily means are not trending: not (r² ≥ `trend_r2` (0.6), OLS t ≥ 4 and a change over the
 *      window ≥ `trend_min_change` (0.02) × |level|) — a weight falling 0.25 kg a day is not
 *      "consistently around 77 kg" even while its CV is 1.5 %.
 *   4. the level is not wandering: a random walk that happened to stay calm for two weeks has a small
 *      CV too, but its changes persist. With the local-level model of lib/stats.ts fitted on the last
 *      `noise_days` (28) of daily means, the walk's expected drift over the window √(σ_η² × window)
 *      must be < max_cv × |level| (checked once ≥ 8 days are available).
 *   |level| ≈ 0 (< 1e-9) leaves the CV undefined: no finding.
 * - Night: if the whole day is not consistent, the same four tests run on nights — local
 *   `night_start` (22:00) to `night_end` (06:00), built from hourly rollups (each night needs
 *   ≥ `min_night_hours` (4) hours with data; spread = max hourly p90 − min hourly p10, which can only
 *   overstate it). "The office CO₂ is consistently around 420 ppm at night."
 * Keys: `stable_value:<entity>:<metric>` and `stable_value:<entity>:<metric>:night`. The level is
 * rounded to two significant digits (68.2 and 68.4 → "68°F"; 68 vs 70 differ).
 * Confidence: 0.5 + 0.3 × margin below the tightest threshold + 0.15 × days/window, ≤ 0.95.
 */
import { z } from 'zod';
import {
  defineDetector,
  type Finding,
  type PatternContext,
  type RollupPoint,
  type SeriesInfo,
} from '../../src/patterns/detector.js';
import { DAY, capitalize, completeDays, dayIndex, localAt, localDayStart, numeric } from '../lib/days.js';
import { mean, median, sampleStandardDeviation as sd } from 'simple-statistics';
import { confidence, consecutiveRuns, linearFit, localLevel, r4, roundSig } from '../lib/stats.js';

const Options = z.object({
  window_days: z.number().int().min(2).max(90).default(14),
  min_days: z.number().int().min(2).default(3),
  min_samples_per_day: z.number().int().min(1).default(1),
  max_cv: z.number().positive().default(0.1),
  max_spread: z.number().positive().default(0.2),
  trend_r2: z.number().min(0).max(1).default(0.6),
  trend_min_change: z.number().min(0).default(0.02),
  night: z.boolean().default(true),
  night_start: z.number().int().min(0).max(23).default(22),
  night_end: z.number().int().min(0).max(23).default(6),
  min_night_hours: z.number().int().min(1).default(4),
  noise_days: z.number().int().min(2).max(365).default(28),
});
type Opts = z.infer<typeof Options>;

/** One day (or night): its mean, p10–p90 spread and day index. */
interface Span {
  day: number;
  mean: number;
  spread: number;
}

interface Verdict {
  ok: boolean;
  level: number;
  cv: number;
  spread: number;
  trending: boolean;
  wander: number;
  strength: number;
}

/**
 * Within-day spread: p90 − p10, or max − min on a day of fewer than 10 readings, where interpolated
 * quantiles shrink toward the middle (n = 7 uniform readings: ~60 % of the true p10–p90 width) while
 * the range of 5–10 normal readings (2.3σ–3.1σ) is close to the true p10–p90 width (2.56σ).
 */
function daySpread(d: RollupPoint): number {
  const [lo, hi] = d.count < 10 ? [d.min, d.max] : [d.p10, d.p90];
  return (hi ?? d.avg!) - (lo ?? d.avg!);
}

/** `spans` = the window; `before` = earlier days of the history, used only to estimate wandering. */
function assess(spans: Span[], before: Span[], o: Opts): Verdict {
  const means = spans.map((s) => s.mean);
  const level = mean(means);
  const abs = Math.abs(level);
  const cv = sd(means) / abs;
  const spread = median(spans.map((s) => s.spread)) / abs;
  const fit = linearFit(
    spans.map((s) => s.day),
    means,
  );
  // A significant line (OLS t ≥ 4, i.e. p < ~0.01 for ≥ 6 days) that explains most of the variation.
  const t = fit.r2 < 1 ? Math.sqrt((fit.r2 * (spans.length - 2)) / (1 - fit.r2)) : Infinity;
  const change = Math.abs(fit.slope) * (spans[spans.length - 1].day - spans[0].day);
  const trending = spans.length >= 4 && fit.r2 >= o.trend_r2 && t >= 4 && change >= o.trend_min_change * abs;
  const ll = localLevel([...consecutiveRuns(before), ...consecutiveRuns(spans)]);
  const wander = ll ? Math.sqrt(ll.eta2 * o.window_days) / abs : 0;
  const defined = abs >= 1e-9 && Number.isFinite(cv) && Number.isFinite(spread);
  const ok =
    defined && spans.length >= o.min_days && cv < o.max_cv && spread < o.max_spread && !trending && wander < o.max_cv;
  const strength = 1 - Math.max(cv / o.max_cv, spread / o.max_spread);
  return { ok, level, cv, spread, trending, wander, strength };
}

/**
 * Nights from hourly rollups, one small range query per night (reading only night hours keeps the
 * 28-day history cheap). A night is indexed by the date it starts on; with a window across midnight
 * (22 → 6) the early hours belong to the previous date's night.
 */
function nights(ctx: PatternContext, s: SeriesInfo, o: Opts, ref: number, fromK: number, toK: number): Span[] {
  const wraps = o.night_start > o.night_end;
  const len = ((o.night_end - o.night_start + 24) % 24 || 24) * 3600;
  const acc = new Map<number, { n: number; sum: number; lo: number; hi: number; hours: number }>();
  const dates = new Map<string, number>();
  for (let k = fromK; k < toK; k++) {
    const from = ref + k * DAY + o.night_start * 3600 - 3600; // ±1 h: DST days are 23 or 25 h
    for (const h of ctx.rollups(s.id, 'hour', from, Math.min(from + len + 7200, ctx.now))) {
      if (h.avg === null || !Number.isFinite(h.avg)) continue;
      const l = localAt(ctx, h.bucket_ts);
      const late = wraps && l.hour < o.night_end; // after midnight: the previous date's night
      if (!(wraps ? l.hour >= o.night_start || late : l.hour >= o.night_start && l.hour < o.night_end)) continue;
      let day = dates.get(l.date);
      if (day === undefined) dates.set(l.date, (day = dayIndex(localDayStart(ctx, h.bucket_ts), ref)));
      const night = day - (late ? 1 : 0);
      if (night !== k) continue;
      const a = acc.get(night) ?? { n: 0, sum: 0, lo: Infinity, hi: -Infinity, hours: 0 };
      a.n += h.count;
      a.sum += h.avg * h.count;
      a.lo = Math.min(a.lo, h.p10 ?? h.avg);
      a.hi = Math.max(a.hi, h.p90 ?? h.avg);
      a.hours++;
      acc.set(night, a);
    }
  }
  return [...acc]
    .filter(([, a]) => a.hours >= o.min_night_hours && a.n >= o.min_samples_per_day)
    .sort((x, y) => x[0] - y[0])
    .map(([day, a]) => ({ day, mean: a.sum / a.n, spread: a.hi - a.lo }));
}

function finding(ctx: PatternContext, s: SeriesInfo, v: Verdict, n: number, o: Opts, night: boolean): Finding {
  const around = ctx.format(roundSig(v.level, 2), s.unit);
  return {
    pattern_key: `stable_value:${s.entity}:${s.metric}${night ? ':night' : ''}`,
    entity: s.entity,
    metric: s.metric,
    category: 'preference',
    fact: `${capitalize(ctx.label(s.entity, s.metric))} is consistently around ${around}${night ? ' at night' : ''}`,
    confidence: confidence(v.strength, n / o.window_days),
    evidence: {
      segment: night ? 'night' : 'day',
      level: r4(v.level),
      cv: r4(v.cv),
      spread: r4(v.spread),
      wander: r4(v.wander),
      days: n,
      window_days: o.window_days,
      unit: s.unit,
    },
  };
}

export default defineDetector({
  name: 'stable_value',
  description: 'A numeric series that stays around one level (daily means and within-day spread), or only at night',
  options: Options,
  detect(ctx, o) {
    const out: Finding[] = [];
    const ref = localDayStart(ctx, ctx.now);
    const history = Math.max(o.window_days, o.noise_days);
    const inWindow = (x: Span) => x.day >= -o.window_days;
    for (const s of numeric(ctx)) {
      const all = completeDays(ctx, s, history, o.min_samples_per_day).map((d) => ({
        day: dayIndex(d.bucket_ts, ref),
        mean: d.avg!,
        spread: daySpread(d),
      }));
      const days = all.filter(inWindow);
      if (days.length < o.min_days) continue;
      const whole = assess(
        days,
        all.filter((x) => !inWindow(x)),
        o,
      );
      if (whole.ok) {
        out.push(finding(ctx, s, whole, days.length, o, false));
        continue;
      }
      if (!o.night) continue;
      const n = nights(ctx, s, o, ref, -o.window_days, 0);
      if (n.length < o.min_days) continue;
      let v = assess(n, [], o);
      // Earlier nights only matter to the wandering test; most series fail before it.
      if (v.cv < o.max_cv && v.spread < o.max_spread)
        v = assess(n, nights(ctx, s, o, ref, -history, -o.window_days), o);
      if (v.ok) out.push(finding(ctx, s, v, n.length, o, true));
    }
    return out;
  },
});
