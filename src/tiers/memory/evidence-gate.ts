/**
 * The evidence gate of recall (SPEC §5): which candidates count as evidence, so that a question
 * nothing answers gets nothing, while a paraphrase the embedder does find is kept.
 *
 * Why not one cosine threshold: on eval/household.json no single value separates answerable from
 * never-stated questions (AUROC of the top-1 cosine 0.65–0.76 across embedders); a question whose
 * answer is stored usually has one memory that stands out, so the top-1's lead over the runner-up
 * separates better (AUROC 0.77–0.80), and a vector hit that also shares the query's rarer words is
 * rarely wrong. The decision uses the three signals together:
 *
 *   s1, s2   cosine of the best vector candidate (of the scoped, filtered KNN) and of the best one
 *            that does not restate it (cosine to the top-1 < 0.8, recall.ts `SAME_AS_TOP`: two
 *            memories in other words of one claim, under the duplicate check's 0.92, are not rivals);
 *   c(m)     IDF-weighted keyword coverage of the query by memory m (recall.ts `coverage`).
 *
 *   the query has vector evidence  ⇔  s1 ≥ accept
 *                                   ∨ (s1 ≥ floor ∧ (s1 − s2 ≥ margin ∨ c(top) ≥ support))
 *   vector hits kept               =  { m : s(m) ≥ floor ∧ ((evidence ∧ s(m) ≥ s1 − band) ∨ c(m) ≥ support) }
 *                                     (without evidence only hits the keywords confirm)
 *   keyword hits kept (keyword)    =  { m : c(m) ≥ keywordMin }
 *   keyword hits kept (hybrid)     =  { m : c(m) ≥ kwAlone ∨ phrase(m) ∨ (c(m) ≥ keywordMin ∧ s(m) ≥ confirm) }
 *                                     (a query word in common is weak evidence; the embedder confirms it)
 *   phrase(m)                      ⇔  the query's terms appear in m's terms as one run, in order
 *                                     (recall.ts `containsRun`): "where are the spare batteries" in
 *                                     "Spare batteries are kept in the kitchen junk drawer", which
 *                                     use-lite scores 0.49. Full coverage alone is not enough: "who is
 *                                     Ruth's doctor" covers "Ruth takes warfarin, so her doctor wants…".
 *                                     A one-term query ("peanuts": cosine 0.46 to "Anna is allergic
 *                                     to peanuts") is a keyword lookup, so any memory with the term counts.
 *
 * Fusion (recall.ts): relevance = max(k, v) + AGREE·(1 − max(k, v))·min(k, v) over the kept lists,
 * so agreement lifts a hit but a strong vector hit is never buried under weak keyword hits (rank
 * fusion did that: a lone vector rank-1 scored below a keyword rank-1 that the vectors ranked 5th).
 *
 * Calibration: per provider, on eval/household.json ONLY (`node dist/scripts/calibrate-gate.js
 * --provider P`): a grid over (floor, accept, margin, band, support) keeping the hybrid setting with
 * the best recall@5 among those with abstention ≥ 0.9 on never-stated questions (ties: higher
 * paraphrase recall, then higher abstention). eval/household-heldout.json is never used here; it is
 * reported by `npm run eval` only. `default` (Ollama/OpenAI models, which cannot run here) reuses the
 * neural encoder's values scaled to a typical neural cosine range — a guess, marked as such in /health.
 */
import type { VectorHit } from '../../db/vectors.js';

export interface VectorGate {
  /** No vector hit below this cosine is evidence. */
  floor: number;
  /** A top-1 at or above this is evidence on its own. */
  accept: number;
  /** Between floor and accept, the top-1 must lead the runner-up by this much (or have keyword support). */
  margin: number;
  /** With evidence, hits within `band` of the top-1 are kept too. */
  band: number;
  /** Keyword coverage that counts as support for a vector hit. */
  support: number;
  /** Hybrid only: keyword coverage that is evidence alone; between keywordMin and this a keyword hit needs cosine ≥ `confirm`. */
  kwAlone: number;
  /** Hybrid only: cosine that confirms a keyword hit below `kwAlone`. */
  confirm: number;
  /** Hybrid only: a keyword hit whose terms hold the query's as one run, in order (or the query's one term), is evidence alone. */
  phrase?: boolean;
}

/** Weight of agreement between the two lists in fusion. */
export const AGREE = 0.5;

/**
 * Calibrated values (see the header; numbers in docs/recall-quality.md). On the calibration set no
 * gate reaches abstention ≥ 0.9 without giving up most paraphrases (its never-stated questions are
 * near misses: "what model is the robot vacuum" beside "the robot vacuum is called Dusty"), so each
 * provider's point is the frontier setting that is no worse than the previous fixed thresholds on
 * every column (recall, paraphrase recall, abstention) with the highest abstention:
 *   local     recall@5 56.0 %, paraphrase 21.4 %, abstention 77.8 %   (was 56.0 / 21.4 / 66.7)
 *   use-lite  recall@5 63.3 %, paraphrase 34.5 %, abstention 88.9 %   (fixed 0.55 cosine: 70.0 / 46.4 / 38.9;
 *             60.7 / 34.5 / 88.9 without `phrase`, which lost two lexical questions of 33)
 * `default` is use-lite's point with floor and accept raised 0.05 (a guess: no other model runs here).
 */
export const DEFAULT_VECTOR_GATE: Record<string, VectorGate> = {
  local: { floor: 0.4, accept: 0.5, margin: 0.1, band: 0.03, support: 0.35, kwAlone: 0.6, confirm: 0.4, phrase: true },
  'use-lite': {
    floor: 0.55,
    accept: 0.6,
    margin: 0.06,
    band: 0.03,
    support: 0.25,
    kwAlone: 1.01,
    confirm: 0.5,
    phrase: true,
  },
  default: {
    floor: 0.55,
    accept: 0.65,
    margin: 0.06,
    band: 0.03,
    support: 0.25,
    kwAlone: 1.01,
    confirm: 0.5,
    phrase: true,
  },
};

/**
 * The vector hits (sorted by similarity, best first) that count as evidence, as id → cosine.
 * `cov` is the keyword coverage of a memory by the query (0 when it shares no word).
 */
export function gateVectorHits(
  hits: VectorHit[],
  g: VectorGate,
  cov: (id: number) => number,
  sameAsTop: ReadonlySet<number> = new Set(),
): Map<number, number> {
  const kept = new Map<number, number>();
  if (!hits.length) return kept;
  const s1 = hits[0].similarity;
  const s2 = hits.find((h, i) => i > 0 && !sameAsTop.has(h.memory_id))?.similarity ?? 0;
  const evidence = s1 >= g.accept || (s1 >= g.floor && (s1 - s2 >= g.margin || cov(hits[0].memory_id) >= g.support));
  for (const h of hits) {
    if (h.similarity < g.floor) break;
    if ((evidence && h.similarity >= s1 - g.band) || cov(h.memory_id) >= g.support) kept.set(h.memory_id, h.similarity);
  }
  return kept;
}

/** Hybrid: is keyword coverage `c` (already ≥ keywordMin) evidence, given the memory's cosine `s`? */
export function keywordKept(c: number, s: number, g: VectorGate): boolean {
  return c >= g.kwAlone || s >= g.confirm;
}

/** Hybrid relevance of one memory from its kept keyword coverage `k` and cosine `v` (null = not kept). */
export function fuse(k: number | null, v: number | null): number {
  const hi = Math.max(k ?? 0, v ?? 0);
  const lo = k === null || v === null ? 0 : Math.min(k, v);
  return hi + AGREE * (1 - hi) * lo;
}
