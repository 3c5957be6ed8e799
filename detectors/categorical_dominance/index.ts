/**
 * categorical_dominance → category `habit`: "Brian's mood is predominantly 'focused' (about 70% of days)".
 *
 * Rule (categorical series; every threshold is an option below). The day rollups' `mode` over the
 * last `window_days` (14) complete local days with data, at least `min_days` (5). Dominant when
 * 1. one value is the day's mode on ≥ `min_share` (0.70) of those days — the seed's rule; and
 * 2. that many days is unlikely by chance: k × P(X ≥ days | n, 1/k) ≤ `max_p` (0.01), X binomial,
 *    k = max(2, distinct values among the window's hourly modes), × k because the top of k values was
 *    picked. A coin-flip
 *    on/off series is the mode on ≥ 70 % of 14 days one time in six; with this gate a two-valued
 *    series needs 13 of 14 days (p ≈ 0.002), a four-valued one 8 (the 70 % rule then decides: 10).
 * The share in the text is rounded to `round_pct` (10) percent so the memory does not churn daily;
 * "every day" when it is 100 %. Key: `categorical_dominance:<entity>:<metric>`.
 * Confidence: 0.5 + 0.3 × (share − min_share)/(1 − min_share) + 0.15 × days/window, ≤ 0.95.
 */
import { z } from 'zod';
import { defineDetector, type Finding } from '../../src/patterns/detector.js';
import { capitalize, categorical, completeDays } from '../lib/days.js';
import { binomialTail, confidence, r4 } from '../lib/stats.js';

const Options = z.object({
  window_days: z.number().int().min(2).max(90).default(14),
  min_days: z.number().int().min(2).default(5),
  min_share: z.number().min(0).max(1).default(0.7),
  max_p: z.number().min(0).max(1).default(0.01),
  round_pct: z.number().int().min(1).max(50).default(10),
});

export default defineDetector({
  name: 'categorical_dominance',
  description: 'One value is the daily mode of a categorical series on most days',
  options: Options,
  detect(ctx, o) {
    const out: Finding[] = [];
    for (const s of categorical(ctx)) {
      const days = completeDays(ctx, s, o.window_days);
      if (days.length < o.min_days) continue;
      const counts = new Map<string, number>();
      for (const d of days) counts.set(d.mode!, (counts.get(d.mode!) ?? 0) + 1);
      // Most days first; ties → smallest value, so the result does not depend on row order.
      const [value, c] = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0];
      const share = c / days.length;
      if (share < o.min_share) continue;
      // Values the series takes: from hourly modes, since a dominant value hides the others in daily ones.
      const seen = new Set(counts.keys());
      for (const h of ctx.rollups(s.id, 'hour', days[0].bucket_ts, ctx.now)) if (h.mode !== null) seen.add(h.mode);
      const k = Math.max(2, seen.size);
      const p = Math.min(1, k * binomialTail(days.length, c, 1 / k)); // × k: the top value was picked from k
      if (p > o.max_p) continue;
      const pct = Math.round((share * 100) / o.round_pct) * o.round_pct;
      const how = c === days.length ? 'every day' : `about ${Math.min(pct, 100)}% of days`;
      out.push({
        pattern_key: `categorical_dominance:${s.entity}:${s.metric}`,
        entity: s.entity,
        metric: s.metric,
        category: 'habit',
        fact: `${capitalize(ctx.label(s.entity, s.metric))} is predominantly '${value}' (${how})`,
        confidence: confidence((share - o.min_share) / (1 - o.min_share || 1), days.length / o.window_days),
        evidence: {
          value,
          days_dominant: c,
          days: days.length,
          share: r4(share),
          p_value: r4(p),
          modes: Object.fromEntries(counts),
          window_days: o.window_days,
        },
      });
    }
    return out;
  },
});
