/**
 * correlation → category `insight`: "The outdoor temperature and the heat pump power move in opposite
 * directions (r≈-0.9 over 30 days)".
 *
 * Rule (pairs of numeric series; every threshold is an option below). Daily means over the last
 * `window_days` (30) complete local days. A pair needs ≥ `min_days` (5) shared days (more are used
 * when present). Correlated when ALL of
 * 1. |r| ≥ `min_abs_r` (0.7), with r computed on day-to-day CHANGES of the daily means (pairs of
 *    consecutive days both series have), not on levels: two unrelated series that both drift or trend
 *    have highly correlated levels (spurious regression) but uncorrelated changes;
 * 2. significant after Bonferroni over every pair tested: p × pairs ≤ `alpha` (0.01), p from Fisher's
 *    z = atanh(|r|)·√(n_eff − 3), two-sided, where n_eff = m / (1 + 2·ρ₁(a)·ρ₁(b)) is Bartlett's
 *    effective sample size for m changes with lag-1 autocorrelations ρ₁ (changes of noisy daily means
 *    are negatively autocorrelated, which widens the null spread of r by up to 1.5×).
 * At most `max_findings` (20) pairs, strongest first. Key: `correlation:<a entity>:<a metric>|<b entity>:<b metric>`
 * with the pair sorted; r is in the text only (one decimal). Cost: O(series² × days) on typed arrays —
 * 500 series × 30 days is ~125k pairs, a few tens of milliseconds.
 * Confidence: 0.5 + 0.3 × (|r| − min_abs_r)/(1 − min_abs_r) + 0.15 × shared days/window, ≤ 0.95.
 */
import { z } from 'zod';
import { defineDetector, type Finding, type SeriesInfo } from '../../src/patterns/detector.js';
import { capitalize, completeDays, dayIndex, localDayStart, numeric } from '../lib/days.js';
import { confidence, lag1, normalSf, r4 } from '../lib/stats.js';

const Options = z.object({
  window_days: z.number().int().min(3).max(120).default(30),
  min_days: z.number().int().min(4).default(5),
  min_samples_per_day: z.number().int().min(1).default(1),
  min_abs_r: z.number().min(0).max(1).default(0.7),
  alpha: z.number().positive().max(1).default(0.01),
  max_findings: z.number().int().min(1).default(20),
});

interface Prepared {
  s: SeriesInfo;
  key: string;
  /** daily means by day slot (NaN = no data) */
  y: Float64Array;
  /** change from the previous slot (NaN unless both days present) */
  d: Float64Array;
  rho: number;
}

interface Candidate {
  a: Prepared;
  b: Prepared;
  r: number;
  m: number;
  days: number;
}

export default defineDetector({
  name: 'correlation',
  description: 'Two numeric series whose day-to-day changes move together or in opposite directions',
  options: Options,
  detect(ctx, o) {
    const ref = localDayStart(ctx, ctx.now);
    const W = o.window_days;
    const series: Prepared[] = [];
    for (const s of numeric(ctx)) {
      const rows = completeDays(ctx, s, W, o.min_samples_per_day);
      if (rows.length < o.min_days) continue;
      const y = new Float64Array(W).fill(NaN);
      for (const r of rows) {
        const k = dayIndex(r.bucket_ts, ref) + W;
        if (k >= 0 && k < W) y[k] = r.avg!;
      }
      const d = new Float64Array(W).fill(NaN);
      const seq: number[] = [];
      for (let k = 1; k < W; k++)
        if (!Number.isNaN(y[k]) && !Number.isNaN(y[k - 1])) seq.push((d[k] = y[k] - y[k - 1]));
      // Changes below 1e-9 of the level are rounding noise of a constant series, not movement.
      let [lo, hi, scale] = [Infinity, -Infinity, 0];
      for (const v of seq) (lo = Math.min(lo, v)), (hi = Math.max(hi, v));
      for (const r of rows) scale = Math.max(scale, Math.abs(r.avg!));
      if (seq.length < 3 || hi - lo <= 1e-9 * scale) continue;
      series.push({ s, key: `${s.entity}:${s.metric}`, y, d, rho: lag1(seq) });
    }
    series.sort((p, q) => (p.key < q.key ? -1 : p.key > q.key ? 1 : 0));

    const candidates: Candidate[] = [];
    let tests = 0;
    for (let i = 0; i < series.length; i++) {
      const A = series[i];
      for (let j = i + 1; j < series.length; j++) {
        const B = series[j];
        let [days, m, sa, sb, saa, sbb, sab] = [0, 0, 0, 0, 0, 0, 0];
        for (let k = 0; k < W; k++) {
          if (!Number.isNaN(A.y[k]) && !Number.isNaN(B.y[k])) days++;
          const [x, z] = [A.d[k], B.d[k]];
          if (Number.isNaN(x) || Number.isNaN(z)) continue;
          m++;
          (sa += x), (sb += z), (saa += x * x), (sbb += z * z), (sab += x * z);
        }
        if (days < o.min_days || m < 3) continue;
        tests++;
        const va = saa - (sa * sa) / m;
        const vb = sbb - (sb * sb) / m;
        if (!(va > 0 && vb > 0)) continue;
        const r = Math.max(-1, Math.min(1, (sab - (sa * sb) / m) / Math.sqrt(va * vb)));
        if (Math.abs(r) >= o.min_abs_r) candidates.push({ a: A, b: B, r, m, days });
      }
    }

    const out: Finding[] = [];
    for (const c of candidates) {
      const nEff = Math.min(c.m, c.m / Math.max(1e-9, 1 + 2 * c.a.rho * c.b.rho));
      if (nEff <= 3) continue;
      const z = Math.atanh(Math.min(Math.abs(c.r), 1 - 1e-12)) * Math.sqrt(nEff - 3);
      const p = 2 * normalSf(z);
      if (p * tests > o.alpha) continue;
      const [a, b] = [c.a.s, c.b.s];
      const r1 = (Math.round(c.r * 10) / 10).toFixed(1);
      const how = c.r > 0 ? 'move together' : 'move in opposite directions';
      out.push({
        pattern_key: `correlation:${c.a.key}|${c.b.key}`,
        entity: a.entity,
        metric: `${a.metric}|${b.metric}`,
        category: 'insight',
        fact: `${capitalize(ctx.label(a.entity, a.metric))} and ${ctx.label(b.entity, b.metric)} ${how} (r≈${r1} over ${c.days} days)`,
        confidence: confidence((Math.abs(c.r) - o.min_abs_r) / (1 - o.min_abs_r || 1), c.days / W),
        evidence: {
          a: c.a.key,
          b: c.b.key,
          r: r4(c.r),
          changes: c.m,
          days: c.days,
          n_eff: r4(nEff),
          p_value: r4(p),
          pairs_tested: tests,
          window_days: W,
          basis: 'day-to-day changes of daily means',
        },
      });
    }
    out.sort(
      (p, q) =>
        Math.abs(q.evidence.r as number) - Math.abs(p.evidence.r as number) || (p.pattern_key < q.pattern_key ? -1 : 1),
    );
    return out.slice(0, o.max_findings);
  },
});
