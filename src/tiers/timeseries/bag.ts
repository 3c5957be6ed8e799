/**
 * A bucket's values as a multiset: the distinct values in ascending order with their counts, and the
 * bucket statistics computed from it (SPEC §5 Rollups).
 *
 * Sensors report quantised values (0.1 °C, whole %, whole W), so a week of a temperature sensor is a
 * few hundred distinct values however many readings it holds: the rollup job keeps the latest day and
 * week of every series in memory in this form, and its size follows the values' spread, not the
 * reading rate. Statistics come out the same whether a bag was built at once or merged pass by pass.
 *
 * Quantiles: linear interpolation between closest ranks, Hyndman & Fan (1996) type 7, the default of
 * R `quantile()` and NumPy `percentile()`: h = (n−1)·p, q = x[⌊h⌋] + (h−⌊h⌋)(x[⌊h⌋+1] − x[⌊h⌋]).
 * Averages are summed over ascending distinct values (value × count), so they do not depend on
 * arrival order. Categorical bags: count and mode_cat (most frequent; ties → smallest in JS string
 * order), numeric fields NULL.
 */

export type Value = number | string;

export interface Bag {
  /** Distinct values, ascending (numbers by value, strings in JS `<` order). */
  keys: Float64Array | string[];
  counts: Uint32Array;
  /** Sum of counts. */
  n: number;
}

export interface Stats {
  count: number;
  avg_num: number | null;
  min_num: number | null;
  max_num: number | null;
  p10_num: number | null;
  p90_num: number | null;
  mode_cat: string | null;
}

const byString = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Builds a bag from values in any order (all numbers or all strings). */
export function bagOf(values: Value[], numeric: boolean): Bag {
  const sorted = numeric ? Float64Array.from(values as number[]).sort() : [...(values as string[])].sort(byString);
  const n = sorted.length;
  let distinct = 0;
  for (let i = 0; i < n; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) distinct++;
  const keys = numeric ? new Float64Array(distinct) : new Array<string>(distinct);
  const counts = new Uint32Array(distinct);
  for (let i = 0, k = -1; i < n; i++) {
    if (i === 0 || sorted[i] !== sorted[i - 1]) keys[++k] = sorted[i];
    counts[k]++;
  }
  return { keys, counts, n };
}

/** The union of two bags of the same kind. */
export function mergeBags(a: Bag, b: Bag): Bag {
  const numeric = a.keys instanceof Float64Array;
  const [ak, bk] = [a.keys, b.keys];
  const cap = ak.length + bk.length;
  const keys = numeric ? new Float64Array(cap) : new Array<string>(cap);
  const counts = new Uint32Array(cap);
  let [i, j, k] = [0, 0, 0];
  while (i < ak.length || j < bk.length) {
    const takeA = j >= bk.length || (i < ak.length && ak[i] <= bk[j]);
    const takeB = i >= ak.length || (j < bk.length && bk[j] <= ak[i]);
    keys[k] = takeA ? ak[i] : bk[j];
    counts[k] = (takeA ? a.counts[i++] : 0) + (takeB ? b.counts[j++] : 0);
    k++;
  }
  return {
    keys: numeric ? (keys as Float64Array).slice(0, k) : (keys as string[]).slice(0, k),
    counts: counts.slice(0, k),
    n: a.n + b.n,
  };
}

/** Type-7 quantile of ascending `x` (n ≥ 1). */
export function quantile7(x: ArrayLike<number>, p: number): number {
  const h = (x.length - 1) * p;
  const lo = Math.floor(h);
  return lo + 1 < x.length ? x[lo] + (h - lo) * (x[lo + 1] - x[lo]) : x[lo];
}

/** Type-7 quantile of a numeric bag (n ≥ 1), without expanding it. */
export function bagQuantile7(bag: Bag, p: number): number {
  const keys = bag.keys as Float64Array;
  const h = (bag.n - 1) * p;
  const lo = Math.floor(h);
  // the values at ranks lo and lo + 1
  let [i, seen] = [0, bag.counts[0]];
  while (seen <= lo) seen += bag.counts[++i];
  const x0 = keys[i];
  if (lo + 1 >= bag.n) return x0;
  const x1 = seen > lo + 1 ? x0 : keys[i + 1];
  return x0 + (h - lo) * (x1 - x0);
}

export function bagStats(bag: Bag): Stats {
  const { keys, counts, n } = bag;
  if (keys instanceof Float64Array) {
    let sum = 0;
    for (let i = 0; i < keys.length; i++) sum += keys[i] * counts[i];
    const [p10_num, p90_num] = [bagQuantile7(bag, 0.1), bagQuantile7(bag, 0.9)];
    return {
      count: n,
      avg_num: sum / n,
      min_num: keys[0],
      max_num: keys[keys.length - 1],
      p10_num,
      p90_num,
      mode_cat: null,
    };
  }
  let best = 0;
  for (let i = 1; i < keys.length; i++) if (counts[i] > counts[best]) best = i; // ascending keys: ties keep the smallest
  return { count: n, avg_num: null, min_num: null, max_num: null, p10_num: null, p90_num: null, mode_cat: keys[best] };
}

/** Bytes a bag holds (keys and counts), for the rollup cache's budget. */
export const bagBytes = (bag: Bag): number => bag.keys.length * (bag.keys instanceof Float64Array ? 12 : 40);
