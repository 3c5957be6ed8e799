/**
 * The confidence model's fit and its replay over gathered questions (scripts/calibrate-gate.ts), and
 * the two-tier figures `npm run eval` prints (scripts/eval-recall.ts).
 */
import { DEFAULT_TUNING, judge, type Candidates } from '../../src/tiers/memory/recall.js';
import type { ConfidenceModel } from '../../src/tiers/memory/confidence.js';
import type { EvalQuery } from './eval-data.js';

export interface Gathered {
  q: EvalQuery;
  c: Candidates;
  gold: Set<number>;
}

/**
 * Logistic regression by Newton steps on the L2-penalised log-likelihood (the bias is not penalised).
 * A handful of features and a few thousand rows: exact, deterministic, no learning rate to tune.
 */
export function fitLogistic(X: number[][], y: number[], lambda: number): { bias: number; weights: number[] } {
  const d = X[0].length + 1;
  const beta = new Array<number>(d).fill(0);
  for (let iter = 0; iter < 50; iter++) {
    const g = new Array<number>(d).fill(0);
    const H = Array.from({ length: d }, () => new Array<number>(d).fill(0));
    for (let i = 0; i < X.length; i++) {
      const x = [1, ...X[i]];
      const z = x.reduce((s, v, j) => s + v * beta[j], 0);
      const p = 1 / (1 + Math.exp(-z));
      for (let a = 0; a < d; a++) {
        g[a] += (p - y[i]) * x[a];
        for (let b = 0; b < d; b++) H[a][b] += p * (1 - p) * x[a] * x[b];
      }
    }
    for (let a = 1; a < d; a++) (g[a] += lambda * beta[a]), (H[a][a] += lambda);
    const step = solve(H, g);
    for (let a = 0; a < d; a++) beta[a] -= step[a];
    if (Math.max(...step.map(Math.abs)) < 1e-8) break;
  }
  return { bias: beta[0], weights: beta.slice(1) };
}

/** Gaussian elimination with partial pivoting (H is small and positive definite). */
function solve(A: number[][], b: number[]): number[] {
  const n = b.length;
  const M = A.map((row, i) => [...row, b[i]]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r][c]) > Math.abs(M[p][c])) p = r;
    [M[c], M[p]] = [M[p], M[c]];
    for (let r = c + 1; r < n; r++) {
      const f = M[r][c] / M[c][c];
      for (let k = c; k <= n; k++) M[r][k] -= f * M[c][k];
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = M[r][n];
    for (let k = r + 1; k < n; k++) s -= M[r][k] * x[k];
    x[r] = s / M[r][r];
  }
  return x;
}

export interface TierFigures {
  /** Recall@5 of the first five of results then possible, over answerable questions; by kind. */
  firstR5: number;
  firstLexical: number;
  firstParaphrase: number;
  /** Recall@5 of the confident tier alone. */
  confidentR5: number;
  confidentParaphrase: number;
  /** Never-stated questions with no confident result. */
  abstention: number;
  /** Answerable questions whose confident results hold no gold fact (and are not empty). */
  wrongConfident: number;
  /** Never-stated questions that got possibles. */
  neverStatedPossible: number;
}

/** One question's two tiers, as ids: what recall would return for it under `model` (top_k 5). */
export function tiers(g: Gathered, model: ConfidenceModel, k = 5): { results: number[]; possible: number[] } {
  const judged = [...judge(g.c, model, DEFAULT_TUNING.keywordMin)].sort((a, b) => b[1].p - a[1].p);
  const results = judged
    .filter(([, j]) => j.confident)
    .slice(0, k)
    .map(([id]) => id);
  const room = results.length < k ? k : 0;
  const possible = judged
    .filter(([id, j]) => !j.confident && (j.p >= model.floor || g.c.scoped.has(id)))
    .slice(0, room)
    .map(([id]) => id);
  return { results, possible };
}

/** The two-tier figures over `gathered` questions, each judged by `modelOf(its index)`. */
export function replay(gathered: Gathered[], modelOf: (i: number) => ConfidenceModel): TierFigures {
  const out = figures(gathered.map((g, i) => ({ q: g.q, gold: g.gold, ...tiers(g, modelOf(i)) })));
  return out;
}

/** The figures from each question's returned tiers (ids) and its gold facts. */
export function figures<T>(rows: { q: EvalQuery; gold: Set<T>; results: T[]; possible: T[] }[]): TierFigures {
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
  const r5 = (ids: T[], gold: Set<T>) => ids.slice(0, 5).filter((id) => gold.has(id)).length / gold.size;
  const ans = rows.filter((r) => r.q.kind !== 'no_evidence');
  const no = rows.filter((r) => r.q.kind === 'no_evidence');
  const first = (r: (typeof rows)[number]) => r5([...r.results, ...r.possible], r.gold);
  return {
    firstR5: mean(ans.map(first)),
    firstLexical: mean(ans.filter((r) => r.q.kind === 'lexical').map(first)),
    firstParaphrase: mean(ans.filter((r) => r.q.kind === 'paraphrase').map(first)),
    confidentR5: mean(ans.map((r) => r5(r.results, r.gold))),
    confidentParaphrase: mean(ans.filter((r) => r.q.kind === 'paraphrase').map((r) => r5(r.results, r.gold))),
    abstention: no.length ? no.filter((r) => !r.results.length).length / no.length : 1,
    wrongConfident: ans.length
      ? ans.filter((r) => r.results.length && !r.results.some((id) => r.gold.has(id))).length / ans.length
      : 0,
    neverStatedPossible: no.length ? no.filter((r) => r.possible.length).length / no.length : 0,
  };
}
