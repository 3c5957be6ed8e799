/**
 * Recall (SPEC §5): candidates from the keyword index (FTS5/BM25) and the vector index (vec0 KNN),
 * an evidence gate so that a query nothing answers returns nothing, rank fusion, then a final score.
 *
 * Evidence
 *   keyword: IDF-weighted coverage of the query's terms by the memory's terms,
 *            c = Σ idf(t ∈ Q∩D) / Σ idf(t ∈ Q), idf(t) = ln(1 + (N − df + 0.5)/(df + 0.5)).
 *            A query word the index has never seen has the highest idf, so "Brian's blood type"
 *            is not answered by a fact that only shares "Brian". Evidence iff c ≥ KEYWORD_MIN.
 *   vector:  cosine similarity ≥ VECTOR_MIN (per provider: the local hashed embedder's scale
 *            differs from a neural model's).
 * Relevance r ∈ [0, 1]
 *   keyword: c;  vector: similarity;
 *   hybrid:  reciprocal rank fusion of the two gated lists, Σ 1/(RRF_K + rank), normalised by its
 *            maximum 2/(RRF_K + 1), blended with the best raw evidence so a strong single-list hit
 *            is not flattened by rank alone.
 * Final score
 *   score = r × ((1 − w) + w·2^(−age_days/RECENCY_HALFLIFE_DAYS)) × (0.5 + 0.5·effective_conf) × (0.9 + 0.02·trust)
 *   with w = recency_weight and age from last_confirmed. Relevance dominates; recency, decayed
 *   confidence and trust break ties.
 * Tuning (eval/household.json, `npm run eval -- --sweep`, local embedder hearth-local-v2)
 *   KEYWORD_MIN = 0.4: a two-word query with one morphological mismatch ("cats allergy" against
 *   "allergic to cats") scores ≈ 0.4, so higher values cut real keyword hits; 0.45 would raise
 *   keyword abstention from 67% to 78% at the cost of 5 points of keyword recall.
 *   VECTOR_MIN.local = 0.5: the highest hybrid recall@5 among thresholds at which the vector path
 *   adds no false evidence beyond the keyword path (hybrid abstention = keyword abstention). It sits
 *   just above a cluster of near-miss questions at cosine 0.47–0.49 ("what brand is the
 *   dishwasher" against a fact about the dishwasher), so abstention falls steeply below it.
 *   VECTOR_MIN.default (neural models) is a conventional value, not tuned here.
 */
import type { Embedder } from '../../ai/types.js';
import type { Clock } from '../../lib/clock.js';
import type { VectorStore } from '../../db/vectors.js';
import { toEpoch, trustLevel } from '../../lib/schema.js';
import type { MemoryFilter, MemoryRepo, MemoryRow } from './memory.repo.js';
import type { RecallInput, RecallMode } from './memory.schemas.js';
import { DAY, effectiveConfidence, type DecayConfig } from './decay.js';
import { ftsMatch, terms } from './text-match.js';

/** Tunable constants (defaults tuned with `npm run eval`; the eval's `--sweep` overrides them). */
export interface RecallTuning {
  keywordMin: number;
  vectorMin: Record<string, number>;
  rrfK: number;
  recencyHalflifeDays: number;
}
export const DEFAULT_TUNING: RecallTuning = {
  keywordMin: 0.4,
  vectorMin: { local: 0.5, default: 0.55 },
  rrfK: 60,
  recencyHalflifeDays: 30,
};
const CANDIDATES = 60;

export interface RecallHit {
  id: number;
  entity_name: string;
  fact: string;
  category: string;
  confidence: number;
  effective_confidence: number;
  source: string;
  source_trust: number;
  status: MemoryRow['status'];
  fact_key: string | null;
  score: number;
  created: number;
  last_confirmed: number;
  valid_from: number;
  valid_until: number | null;
  explain?: { keyword: number | null; vector: number | null; relevance: number; recency: number; confidence: number; trust: number };
}

export interface RecallOutcome {
  results: RecallHit[];
  mode_used: RecallMode;
  warnings: string[];
}

export interface RecallDeps {
  repo: MemoryRepo;
  vectors: VectorStore;
  embedder: Embedder;
  clock: Clock;
  decay: DecayConfig;
  entityId: (name: string) => number | undefined;
  tuning?: RecallTuning;
}

/** Embeds the query; null (with a warning) when vectors can't be used now. */
async function queryVector(d: RecallDeps, query: string, warnings: string[]): Promise<Float32Array | null> {
  if (d.vectors.state !== 'ready') {
    warnings.push(`vector search unavailable: ${d.vectors.staleReason()}`);
    return null;
  }
  try {
    const [v] = await d.embedder.embed([query]);
    return v;
  } catch (e) {
    warnings.push(`vector search unavailable: embedder ${d.embedder.provider} failed (${(e as Error).message})`);
    return null;
  }
}

export function coverage(queryTerms: string[], docTerms: Set<string>, idf: Map<string, number>): number {
  let total = 0;
  let hit = 0;
  for (const t of queryTerms) {
    const w = idf.get(t)!;
    total += w;
    if (docTerms.has(t)) hit += w;
  }
  return total > 0 ? hit / total : 0;
}

export async function recall(d: RecallDeps, input: RecallInput): Promise<RecallOutcome> {
  const warnings: string[] = [];
  const now = d.clock.now();
  const { keywordMin: KEYWORD_MIN, vectorMin: VECTOR_MIN, rrfK: RRF_K, recencyHalflifeDays: RECENCY_HALFLIFE_DAYS } = d.tuning ?? DEFAULT_TUNING;
  let entityId: number | undefined;
  if (input.entity_name !== undefined) {
    entityId = d.entityId(input.entity_name);
    if (entityId === undefined) return { results: [], mode_used: input.mode, warnings: [`no entity named "${input.entity_name}"`] };
  }
  const filter: MemoryFilter = {
    entityId,
    category: input.category,
    minTrust: trustLevel(input.min_trust as never) || undefined,
    includeSuperseded: input.include_superseded,
    asOf: toEpoch(input.as_of),
  };
  const n = Math.max(CANDIDATES, input.top_k * 4);

  // Vector candidates.
  let mode: RecallMode = input.mode;
  const vectorSim = new Map<number, number>();
  if (mode !== 'keyword') {
    const qv = await queryVector(d, input.query, warnings);
    if (!qv) mode = 'keyword';
    else if (qv.some((x) => x !== 0)) {
      const minSim = VECTOR_MIN[d.embedder.provider] ?? VECTOR_MIN.default;
      const hits = d.vectors.knn(qv, n, {
        entityId,
        category: input.category,
        activeOnly: !input.include_superseded && filter.asOf === undefined,
      });
      for (const h of hits) if (h.similarity >= minSim) vectorSim.set(h.memory_id, h.similarity);
    }
  }

  // Keyword candidates, gated by IDF-weighted coverage.
  const qTerms = terms(input.query);
  const keywordCov = new Map<number, number>();
  const rows = new Map<number, MemoryRow>();
  const match = ftsMatch(qTerms);
  if (match) {
    const { df, n: docs } = d.repo.docFreq(qTerms);
    const idf = new Map(qTerms.map((t) => {
      const f = df.get(t) ?? 0;
      return [t, Math.log(1 + (docs - f + 0.5) / (f + 0.5))] as const;
    }));
    const candidateIds = new Set<number>();
    for (const r of d.repo.keyword(match, n, filter)) {
      rows.set(r.id, r);
      candidateIds.add(r.id);
      const c = coverage(qTerms, new Set(r.terms.split(' ')), idf);
      if (c >= KEYWORD_MIN) keywordCov.set(r.id, c);
    }
    // Vector hits that the keyword query did not return still get a keyword score for fusion.
    const missing = [...vectorSim.keys()].filter((id) => !candidateIds.has(id));
    for (const [id, t] of d.repo.termsOf(missing)) {
      const c = coverage(qTerms, new Set(t.split(' ')), idf);
      if (c >= KEYWORD_MIN) keywordCov.set(id, c);
    }
  }
  if (mode === 'vector') keywordCov.clear();

  // Post-filter vector hits by the filters the index can't apply (trust, validity time).
  const needRows = [...vectorSim.keys(), ...keywordCov.keys()].filter((id) => !rows.has(id));
  for (const r of d.repo.byIds(needRows, filter)) rows.set(r.id, r);
  const ids = new Set([...vectorSim.keys(), ...keywordCov.keys()].filter((id) => rows.has(id)));

  const rank = (m: Map<number, number>) =>
    new Map([...m.entries()].filter(([id]) => ids.has(id)).sort((a, b) => b[1] - a[1]).map(([id], i) => [id, i + 1]));
  const kwRank = rank(keywordCov);
  const vecRank = rank(vectorSim);

  const w = input.recency_weight;
  const hits: RecallHit[] = [];
  for (const id of ids) {
    const m = rows.get(id)!;
    const kw = keywordCov.get(id) ?? null;
    const vec = vectorSim.get(id) ?? null;
    let relevance: number;
    if (mode === 'keyword') relevance = kw ?? 0;
    else if (mode === 'vector') relevance = vec ?? 0;
    else {
      const rrf = (kwRank.has(id) ? 1 / (RRF_K + kwRank.get(id)!) : 0) + (vecRank.has(id) ? 1 / (RRF_K + vecRank.get(id)!) : 0);
      relevance = 0.5 * (rrf / (2 / (RRF_K + 1))) + 0.5 * Math.max(kw ?? 0, vec ?? 0);
    }
    if (relevance <= 0) continue;
    const eff = effectiveConfidence(m, now, d.decay);
    if (eff < input.min_confidence) continue;
    const ageDays = Math.max(0, now - m.last_confirmed) / DAY;
    const recency = 2 ** (-ageDays / RECENCY_HALFLIFE_DAYS);
    const score = relevance * (1 - w + w * recency) * (0.5 + 0.5 * eff) * (0.9 + 0.02 * m.source_trust);
    hits.push({
      id: m.id,
      entity_name: m.entity_name,
      fact: m.fact,
      category: m.category,
      confidence: m.confidence,
      effective_confidence: round(eff),
      source: m.source,
      source_trust: m.source_trust,
      status: m.status,
      fact_key: m.fact_key,
      score: round(score),
      created: m.created,
      last_confirmed: m.last_confirmed,
      valid_from: m.valid_from,
      valid_until: m.valid_until,
      ...(input.explain && {
        explain: { keyword: kw && round(kw), vector: vec && round(vec), relevance: round(relevance), recency: round(recency), confidence: round(eff), trust: m.source_trust },
      }),
    });
  }
  hits.sort((a, b) => b.score - a.score || b.last_confirmed - a.last_confirmed);
  const results = hits.slice(0, input.top_k);
  if (mode !== input.mode) warnings.push(`fell back to keyword recall`);
  return { results, mode_used: mode, warnings };
}

const round = (x: number) => Math.round(x * 10_000) / 10_000;
