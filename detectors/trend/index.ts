/**
 * trend → category `insight`: "The living room humidity has risen about 1.2%/day over the last 10 days".
 *
 * Rule (numeric series; every threshold is an option below). Daily means of the last `window_days`
 * (10) complete local days, at least `min_days` (7) of them; least-squares line through them. A trend when ALL of
 * 1. r² ≥ `min_r2` (0.6) — the line explains most of the day-to-day movement;
 * 2. total change |slope| × span ≥ `min_change_frac` (0.02) × |level| — big enough to matter, and
 *    ≥ `min_change_resid` (3) × the residual standard deviation — clear of the scatter around the line;
 * 3. |t| ≥ `min_t` (5), t = slope / its standard error under a no-trend local-level model (a random
 *    walk seen through noise, see lib/stats.ts `localLevel`) fitted on the daily means of the last
 *    `noise_days` (56, or what exists), before and inside the window separately. Random walks (a wandering attic
 *    temperature) drift and fit lines well — r² alone passes about a third of them over 10 days — and
 *    iid noise reaches r² 0.6 over 10 days ~1 % of the time. Simulated with 35 days of history, t ≥ 5
 *    passes ~0.4 % of random walks and 0 % of noise, and finds ~78 % of trends whose daily slope is
 *    0.8 × the daily noise (~89 % at 1×). With < 8 days of history the ordinary OLS t is used.
 * Key: `trend:<entity>:<metric>`; direction and rate are in the text only (rate to two significant digits).
 * Confidence: 0.5 + 0.3 × (r² − min_r2)/(1 − min_r2) + 0.15 × days/window, ≤ 0.95.
 */
import { z } from 'zod';
import { defineDetector, type Finding } from '../../src/patterns/detector.js';
import { capitalize, completeDays, dayIndex, localDayStart, numeric } from '../lib/days.js';
import { mean } from 'simple-statistics';
import { confidence, linearFit, consecutiveRuns, localLevel, localLevelSlopeT, r4, roundSig } from '../lib/stats.js';

const Options = z.object({
  window_days: z.number().int().min(3).max(90).default(10),
  min_days: z.number().int().min(3).default(7),
  min_samples_per_day: z.number().int().min(1).default(1),
  min_r2: z.number().min(0).max(1).default(0.6),
  min_change_frac: z.number().min(0).default(0.02),
  min_change_resid: z.number().min(0).default(3),
  min_t: z.number().min(0).default(5),
  noise_days: z.number().int().min(3).max(365).default(56),
});

export default defineDetector({
  name: 'trend',
  description: 'Daily means rising or falling steadily, beyond what the series wanders by day to day',
  options: Options,
  detect(ctx, o) {
    const out: Finding[] = [];
    const ref = localDayStart(ctx, ctx.now);
    for (const s of numeric(ctx)) {
      const history = completeDays(ctx, s, Math.max(o.noise_days, o.window_days), o.min_samples_per_day).map((d) => ({
        day: dayIndex(d.bucket_ts, ref),
        mean: d.avg!,
      }));
      const days = history.filter((d) => d.day >= -o.window_days);
      if (days.length < o.min_days) continue;
      const x = days.map((d) => d.day);
      const y = days.map((d) => d.mean);
      const fit = linearFit(x, y);
      if (!(fit.r2 >= o.min_r2)) continue;
      const span = x[x.length - 1] - x[0];
      const change = Math.abs(fit.slope) * span;
      const level = Math.abs(mean(y));
      if (!(change >= o.min_change_frac * level && change >= o.min_change_resid * fit.residSd)) continue;
      // Wandering vs noise, from the one-day changes before and inside the window (centred apart).
      const pre = history.filter((d) => d.day < -o.window_days);
      const ll = localLevel([...consecutiveRuns(pre), ...consecutiveRuns(days)]) ?? { eta2: 0, eps2: fit.residSd ** 2 };
      const t = localLevelSlopeT(x, fit.slope, ll.eta2, ll.eps2);
      if (!(Math.abs(t) >= o.min_t)) continue;
      const rate = roundSig(Math.abs(fit.slope), 2);
      const perDay = s.unit ? `${ctx.format(rate, s.unit)}/day` : `${ctx.format(rate, null)} per day`;
      const dir = fit.slope > 0 ? 'risen' : 'fallen';
      out.push({
        pattern_key: `trend:${s.entity}:${s.metric}`,
        entity: s.entity,
        metric: s.metric,
        category: 'insight',
        fact: `${capitalize(ctx.label(s.entity, s.metric))} has ${dir} about ${perDay} over the last ${o.window_days} days`,
        confidence: confidence((fit.r2 - o.min_r2) / (1 - o.min_r2 || 1), days.length / o.window_days),
        evidence: {
          slope_per_day: r4(fit.slope),
          r2: r4(fit.r2),
          change: r4(change),
          level: r4(mean(y)),
          resid_sd: r4(fit.residSd),
          t: r4(t),
          walk_sd: r4(Math.sqrt(ll.eta2)),
          noise_sd: r4(Math.sqrt(ll.eps2)),
          days: days.length,
          window_days: o.window_days,
          unit: s.unit,
        },
      });
    }
    return out;
  },
});
