/**
 * Statistics shared by the built-in detectors (pure functions, no I/O) on top of simple-statistics,
 * the hub's one statistics library: mean, median and standard deviation come from it directly; what
 * is here is what it lacks (robust spread, local-level model, tail probabilities, rounding).
 */
import { errorFunction, linearRegression, mean, median, probit, rSquared } from 'simple-statistics';

/** Robust standard deviation: 1.4826 × median absolute deviation (consistent for a normal). */
export function robustSd(x: number[]): number {
  const m = median(x);
  return 1.4826 * median(x.map((v) => Math.abs(v - m)));
}

export interface Fit {
  slope: number;
  intercept: number;
  r2: number;
  /** residual standard deviation (n − 2 degrees of freedom) */
  residSd: number;
}

/**
 * Ordinary least squares y = intercept + slope·x (simple-statistics' linearRegression and rSquared),
 * with the edge cases a detector needs: constant x gives slope 0 (not NaN), constant y or one point
 * gives r² = 0 (not NaN or 1), and r² is clamped to [0, 1] against rounding.
 */
export function linearFit(x: ArrayLike<number>, y: ArrayLike<number>): Fit {
  const pts = Array.from(x, (v, i) => [v, y[i]]);
  const n = pts.length;
  const line = linearRegression(pts);
  const flatX = !Number.isFinite(line.m);
  const slope = flatX ? 0 : line.m;
  const intercept = flatX ? mean(Array.from(y)) : line.b;
  const at = (v: number) => intercept + slope * v;
  let sse = 0;
  for (const [v, w] of pts) sse += (w - at(v)) ** 2;
  const flatY = pts.every(([, w]) => w === pts[0][1]);
  const r2 = n < 2 || flatY ? 0 : Math.min(1, Math.max(0, rSquared(pts, at)));
  return { slope, intercept, r2, residSd: n > 2 ? Math.sqrt(sse / (n - 2)) : 0 };
}

/**
 * Local-level model of daily means, y_t = μ_t + ε_t with μ_t = μ_{t−1} + η_t: a random walk (σ_η²
 * per day) seen through day-to-day noise (σ_ε²). Noise around a level gives σ_η ≈ 0; a random walk
 * gives σ_ε ≈ 0. Fitted by the method of moments on k-day changes, k = 1…maxLag, within each segment
 * (a run of consecutive days): each lag's changes are centred on their own mean (so a steady trend
 * inside a segment, or a level that differs between segments, is not mistaken for wandering), and
 * the expectation of that centred sum of squares is exactly A_k·σ_η² + B_k·σ_ε² with
 *   A_k = Σ_seg (m·k − Σ_j c_j²/m),  B_k = Σ_seg (2m − 2·min(k, m)/m),
 * m = n − k changes in a segment of n days and c_j = how many of them span step j. (σ_η², σ_ε²) are
 * the least-squares solution over the lags, clamped at 0. Several lags make it far steadier than the
 * lag-1 autocovariance alone. `null` when there are fewer than `minDays` days in segments ≥ 3 long.
 */
export function localLevel(segments: number[][], maxLag = 5, minDays = 8): { eta2: number; eps2: number } | null {
  const segs = segments.filter((s) => s.length >= 3);
  if (segs.reduce((a, s) => a + s.length, 0) < minDays) return null;
  const rows: [number, number, number][] = [];
  for (let k = 1; k <= maxLag; k++) {
    let [ss, A, B, df] = [0, 0, 0, 0];
    for (const y of segs) {
      const [n, m] = [y.length, y.length - k];
      if (m < 2) continue;
      let md = 0;
      for (let i = 0; i < m; i++) md += y[i + k] - y[i];
      md /= m;
      for (let i = 0; i < m; i++) ss += (y[i + k] - y[i] - md) ** 2;
      let sc = 0;
      for (let j = 1; j < n; j++) {
        const c = Math.min(j - 1, m - 1) - Math.max(j - k, 0) + 1;
        if (c > 0) sc += c * c;
      }
      (A += m * k - sc / m), (B += 2 * m - (2 * Math.min(k, m)) / m), (df += m - 1);
    }
    if (df > 0) rows.push([ss / df, A / df, B / df]);
  }
  if (rows.length === 0) return null;
  let [saa, sab, sbb, say, sby] = [0, 0, 0, 0, 0];
  for (const [y, a, b] of rows) (saa += a * a), (sab += a * b), (sbb += b * b), (say += a * y), (sby += b * y);
  const det = saa * sbb - sab * sab;
  let [eta2, eps2] = det > 1e-12 ? [(say * sbb - sby * sab) / det, (sby * saa - say * sab) / det] : [0, sby / sbb];
  if (eta2 < 0) [eta2, eps2] = [0, sby / sbb];
  if (eps2 < 0) [eta2, eps2] = [say / saa, 0];
  return { eta2: Math.max(0, eta2), eps2: Math.max(0, eps2) };
}

/**
 * t statistic of an OLS slope under the local-level null (no trend): slope = Σ_t w_t·y_t with
 * w_t = (x_t − x̄)/Sxx. The walk part contributes Σ_j e_j·W_j, W_j = Σ_{t after gap j} w_t, a gap of
 * Δ_j days having variance Δ_j·σ_η²; the noise part Σ w_t²·σ_ε² = σ_ε²/Sxx. So
 * Var(slope) = σ_η²·Σ_j Δ_j·W_j² + σ_ε²/Sxx. Random walks drift and fit lines well — r² alone passes
 * about a third of them over 10 days — so the slope must be large for a walk of that step size.
 */
export function localLevelSlopeT(x: number[], slope: number, eta2: number, eps2: number): number {
  const n = x.length;
  const mx = mean(x);
  let sxx = 0;
  for (let i = 0; i < n; i++) sxx += (x[i] - mx) ** 2;
  if (sxx === 0) return 0;
  let [tail, v] = [0, 0];
  for (let j = n - 1; j >= 1; j--) {
    tail += (x[j] - mx) / sxx;
    v += (x[j] - x[j - 1]) * tail * tail;
  }
  const se = Math.sqrt(eta2 * v + eps2 / sxx);
  return se > 0 ? slope / se : slope === 0 ? 0 : Infinity * Math.sign(slope);
}

/** Runs of consecutive days (a missing day starts a new run), as arrays of daily means. */
export function consecutiveRuns(days: { day: number; mean: number }[]): number[][] {
  const runs: number[][] = [];
  let run: number[] = [];
  days.forEach((d, i) => {
    if (i > 0 && d.day - days[i - 1].day !== 1) runs.push(run), (run = []);
    run.push(d.mean);
  });
  if (run.length) runs.push(run);
  return runs;
}

/** Lag-1 autocorrelation (0 for fewer than three values or a constant series). */
export function lag1(x: number[]): number {
  if (x.length < 3) return 0;
  const m = mean(x);
  let [num, den] = [0, 0];
  for (let i = 0; i < x.length; i++) {
    den += (x[i] - m) ** 2;
    if (i > 0) num += (x[i] - m) * (x[i - 1] - m);
  }
  return den > 0 ? num / den : 0;
}

/** Upper tail of the standard normal, P(Z ≥ z). */
export function normalSf(z: number): number {
  return 0.5 * (1 - errorFunction(z / Math.SQRT2));
}

/** z with P(Z ≥ z) = p (0 < p < 1). */
export function normalQuantileUpper(p: number): number {
  return probit(1 - p);
}

/** log(m!) by summation (m is a number of days: small). */
function logFactorial(m: number): number {
  let s = 0;
  for (let i = 2; i <= m; i++) s += Math.log(i);
  return s;
}
const logChoose = (n: number, k: number) => logFactorial(n) - logFactorial(k) - logFactorial(n - k);

/** P(X ≥ k) for X ~ Binomial(n, p), summed in log space. */
export function binomialTail(n: number, k: number, p: number): number {
  if (k <= 0) return 1;
  if (k > n) return 0;
  if (p <= 0) return 0;
  if (p >= 1) return 1;
  let total = 0;
  for (let i = k; i <= n; i++) total += Math.exp(logChoose(n, i) + i * Math.log(p) + (n - i) * Math.log(1 - p));
  return Math.min(1, total);
}

/**
 * One-sided Fisher exact test: P(X ≥ a) when a + b successes are split at random between groups of
 * n1 and n2 (hypergeometric) — "is group 1's rate of a successes really higher than group 2's b?"
 */
export function fisherGreater(a: number, n1: number, b: number, n2: number): number {
  const k = a + b;
  let p = 0;
  for (let x = a; x <= Math.min(k, n1); x++)
    p += Math.exp(logChoose(n1, x) + logChoose(n2, k - x) - logChoose(n1 + n2, k));
  return Math.min(1, p);
}

/** Rounds to `digits` significant digits (68.27 → 68, 3.46 → 3.5, 1449 → 1400). */
export function roundSig(x: number, digits = 2): number {
  if (x === 0 || !Number.isFinite(x)) return x;
  const step = 10 ** (Math.floor(Math.log10(Math.abs(x))) - digits + 1);
  return Number((Math.round(x / step) * step).toPrecision(digits + 1));
}

/** Rounds evidence numbers so stored JSON stays readable. */
export const r4 = (x: number) => (Number.isFinite(x) ? Number(x.toPrecision(4)) : x);

export const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

/**
 * Shared confidence scale: 0.5 for a finding that only just passes its gates, up to 0.95 for a
 * strong one over a full window. `strength` ∈ [0, 1] is how far past its thresholds the finding is;
 * `coverage` ∈ [0, 1] is how much of the window had data. Rounded to 0.05 so it does not churn.
 */
export function confidence(strength: number, coverage: number): number {
  const c = 0.5 + 0.3 * clamp(strength, 0, 1) + 0.15 * clamp(coverage, 0, 1);
  return Math.min(0.95, Math.round(c * 20) / 20);
}
