/**
 * anomaly → category `insight`: "On 30 Nov the kitchen temperature reached 35°C, far above its usual 21°C".
 *
 * Rule (numeric series, recent data only; every threshold is an option below):
 * - Recent: hourly means of the last `recent_hours` (24). Baseline: hourly means of the
 *   `baseline_days` (14) days before that, with data on ≥ `min_baseline_days` (7) local dates.
 * - Expected value of an hour = the baseline median at the same local hour (≥ 3 samples; else the
 *   baseline median overall), so an ordinary afternoon peak is not news. Scale = robust SD
 *   (1.4826·MAD) of the baseline's residuals from those medians — per local hour when it has ≥ 7
 *   samples (solar power varies at noon, not at night), never below the pooled one — floored at
 *   `min_scale_frac` (1 %) of |level| so a constant series has one.
 * - An hour is anomalous when ALL of
 *   1. |z| ≥ max(`z_min` (3), the Bonferroni z for `alpha` (0.001) over the recent hours tested —
 *      ≈ 4.1 for 24 hours): z ≥ 3 alone fires on ~6 % of pure-noise series per day;
 *   2. |value − expected| ≥ `min_effect` (0.10) × |level| (level = baseline median): big enough to matter;
 *   3. the hourly mean is outside every hourly mean of the baseline, by ≥ `min_margin` (0.10) × the
 *      baseline's range ("far above its usual"): bursts a series has on some days (the oven on the
 *      house power) are not news at a new hour, even where that hour's MAD is 0 on quiet days;
 *   4. it is sudden: within `onset_hours` (6) before the excursion first crossed the threshold the
 *      series was ordinary (|z| < threshold/2). A random walk that drifts off its baseline crosses
 *      slowly and is wandering, not an event.
 * - One finding per local date: the hour with the largest |z|. Above: the hour's max is what it
 *   "reached"; below: its min is what it "dropped to". "usual" = that hour's baseline median.
 * Key: `anomaly:<entity>:<metric>:<YYYY-MM-DD>` (local date) — an anomaly is an event, so dated.
 * Confidence: 0.6 + 0.35 × min(1, (|z| − threshold)/threshold), ≤ 0.95.
 */
import { z } from 'zod';
import { defineDetector, type Finding, type RollupPoint } from '../../src/patterns/detector.js';
import { DAY, localAt, numeric, shortDate } from '../lib/days.js';
import { median } from 'simple-statistics';
import { normalQuantileUpper, r4, robustSd } from '../lib/stats.js';

const Options = z.object({
  recent_hours: z.number().int().min(1).max(168).default(24),
  baseline_days: z.number().int().min(2).max(90).default(14),
  min_baseline_days: z.number().int().min(1).default(7),
  z_min: z.number().positive().default(3),
  alpha: z.number().positive().max(1).default(0.001),
  min_effect: z.number().min(0).default(0.1),
  min_margin: z.number().min(0).default(0.1),
  min_scale_frac: z.number().min(0).default(0.01),
  onset_hours: z.number().int().min(1).default(6),
});

interface Scored {
  h: RollupPoint;
  z: number;
  expected: number;
  date: string;
}

export default defineDetector({
  name: 'anomaly',
  description: 'A recent hourly value far outside what the previous weeks showed at that time of day',
  options: Options,
  detect(ctx, o) {
    const out: Finding[] = [];
    const recentStart = Math.floor((ctx.now - o.recent_hours * 3600) / 3600) * 3600;
    const baseStart = recentStart - o.baseline_days * DAY;
    for (const s of numeric(ctx)) {
      const recent = ctx
        .rollups(s.id, 'hour', recentStart, ctx.now + 1)
        .filter((h) => h.avg !== null && Number.isFinite(h.avg));
      if (recent.length === 0) continue;
      // Exact shortcut: a day's mean lies between its hours' means, so a recent hour inside the range
      // of the means of days wholly in the baseline is inside the baseline's hourly range (gate 3).
      const full = ctx
        .rollups(s.id, 'day', baseStart, recentStart)
        .filter((d) => d.avg !== null && d.bucket_ts + DAY + 3600 <= recentStart);
      const means = full.map((d) => d.avg!);
      if (means.length && recent.every((h) => h.avg! >= Math.min(...means) && h.avg! <= Math.max(...means))) continue;
      const hours = [
        ...ctx.rollups(s.id, 'hour', baseStart, recentStart).filter((h) => h.avg !== null && Number.isFinite(h.avg)),
        ...recent,
      ];
      const split = hours.findIndex((h) => h.bucket_ts >= recentStart);
      if (split <= 0) continue; // no recent data, or no baseline
      const base = hours.slice(0, split);
      const locals = hours.map((h) => localAt(ctx, h.bucket_ts));
      if (new Set(locals.slice(0, split).map((l) => l.date)).size < o.min_baseline_days) continue;
      const byHour: number[][] = Array.from({ length: 24 }, () => []);
      base.forEach((h, i) => byHour[locals[i].hour].push(h.avg!));
      const level = median(base.map((h) => h.avg!));
      const center = byHour.map((v) => (v.length >= 3 ? median(v) : level));
      const resid = base.map((h, i) => h.avg! - center[locals[i].hour]);
      const pooled = Math.max(robustSd(resid), o.min_scale_frac * Math.abs(level), 1e-9 * (1 + Math.abs(level)));
      const scaleAt = byHour.map((v, hr) =>
        v.length >= 7 ? Math.max(pooled, robustSd(v.map((x) => x - center[hr]))) : pooled,
      );
      let [lo, hi] = [Infinity, -Infinity];
      for (const h of base) (lo = Math.min(lo, h.avg!)), (hi = Math.max(hi, h.avg!));
      const recentCount = hours.length - split;
      const thr = Math.max(o.z_min, normalQuantileUpper(o.alpha / (2 * recentCount)));

      const scored: Scored[] = hours.map((h, i) => {
        const expected = center[locals[i].hour];
        return { h, z: (h.avg! - expected) / scaleAt[locals[i].hour], expected, date: locals[i].date };
      });
      const best = new Map<string, Scored>();
      for (let i = split; i < scored.length; i++) {
        const c = scored[i];
        if (!(Math.abs(c.z) >= thr) || Math.abs(c.h.avg! - c.expected) < o.min_effect * Math.abs(level)) continue;
        const margin = o.min_margin * (hi - lo);
        if (c.z > 0 ? c.h.avg! < hi + margin : c.h.avg! > lo - margin) continue; // within what the baseline showed
        // Start of this excursion: walk back over hours past the threshold in the same direction.
        let f = i;
        while (f > 0 && Math.sign(scored[f - 1].z) === Math.sign(c.z) && Math.abs(scored[f - 1].z) >= thr) f--;
        const onsetFrom = scored[f].h.bucket_ts - o.onset_hours * 3600;
        let sudden = false;
        for (let k = f - 1; k >= 0 && scored[k].h.bucket_ts >= onsetFrom; k--)
          if (Math.abs(scored[k].z) < thr / 2) sudden = true;
        if (!sudden) continue;
        const prev = best.get(c.date);
        if (!prev || Math.abs(c.z) > Math.abs(prev.z)) best.set(c.date, c);
      }
      for (const [date, c] of best) {
        const above = c.z > 0;
        const value = above ? (c.h.max ?? c.h.avg!) : (c.h.min ?? c.h.avg!);
        const label = ctx.label(s.entity, s.metric);
        const when = shortDate(localAt(ctx, c.h.bucket_ts));
        const what = above
          ? `reached ${ctx.format(value, s.unit)}, far above`
          : `dropped to ${ctx.format(value, s.unit)}, far below`;
        out.push({
          pattern_key: `anomaly:${s.entity}:${s.metric}:${date}`,
          entity: s.entity,
          metric: s.metric,
          category: 'insight',
          fact: `On ${when} ${label} ${what} its usual ${ctx.format(c.expected, s.unit)}`,
          confidence: Math.min(0.95, Math.round((0.6 + 0.35 * Math.min(1, (Math.abs(c.z) - thr) / thr)) * 20) / 20),
          evidence: {
            at: c.h.bucket_ts,
            hour_mean: r4(c.h.avg!),
            extreme: r4(value),
            expected: r4(c.expected),
            z: r4(c.z),
            threshold: r4(thr),
            scale: r4(scaleAt[localAt(ctx, c.h.bucket_ts).hour]),
            baseline_range: [r4(lo), r4(hi)],
            level: r4(level),
            baseline_hours: split,
            unit: s.unit,
          },
        });
      }
    }
    return out;
  },
});
