/**
 * The evidence gate of `search_sessions` (session-search.ts; its values per provider are
 * SESSION_GATE in session-vectors.ts, tuned on eval/sessions-tune.json): which candidates count as
 * evidence, so that a question nothing answers gets nothing, while a paraphrase the embedder does find
 * is kept. Memory recall used it until session 11 and now decides with a fitted model
 * (confidence.ts); the reasoning below is where that model's signals came from.
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
