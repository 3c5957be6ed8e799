/**
 * Recall (SPEC §5): candidates from the keyword index (FTS5/BM25) and the vector index (vec0 KNN),
 * an evidence gate so that a query nothing answers returns nothing, fusion, then a final score.
 *
 * Evidence
 *   keyword: IDF-weighted coverage of the query's terms by the memory's terms,
 *            c = Σ idf(t ∈ Q∩D) / Σ idf(t ∈ Q), idf(t) = ln(1 + (N − df + 0.5)/(df + 0.5)).
 *            A query word the index has never seen has the highest idf, so "Brian's blood type"
 *            is not answered by a fact that only shares "Brian". Evidence iff c ≥ KEYWORD_MIN.
 *   vector:  the gate in ./evidence-gate.ts — top-1 cosine, its margin over the runner-up and
 *            keyword support, calibrated per provider (documented there).
 * Relevance r ∈ [0, 1]
 *   keyword: c;  vector: similarity;  hybrid: evidence-gate.ts `fuse` — the stronger of the two
 *   plus a share of the weaker, so a strong single-list hit is never buried.
 * Final score
 *   score = r × ((1 − w) + w·2^(−age_days/RECENCY_HALFLIFE_DAYS)) × (0.5 + 0.5·effective_conf) × (0.9 + 0.02·trust)
 *   with w = recency_weight and age from last_confirmed. Relevance dominates; recency, decayed
 *   confidence and trust break ties.
 * Tuning (eval/household.json, `node dist/scripts/calibrate-gate.js`)
 *   KEYWORD_MIN = 0.4: a two-word query with one morphological mismatch ("cats allergy" against
 *   "allergic to cats") scores ≈ 0.4, so higher values cut real keyword hits.
 */
import type { Embedder } from '../../ai/types.js';
import type { Clock } from '../../lib/clock.js';
import type { VectorHit, VectorStore } from '../../db/vectors.js';
import { toEpoch, trustLevel } from '../../lib/schema.js';
import type { MemoryFilter, MemoryRepo, MemoryRow } from './memory.repo.js';
import type { RecallInput, RecallMode } from './memory.schemas.js';
import { DAY, effectiveConfidence, type DecayConfig } from './decay.js';
import { ftsMatch, terms } from './text-match.js';
import { DEFAULT_VECTOR_GATE, fuse, gateVectorHits, keywordKept, type VectorGate } from './evidence-gate.js';

/** Tunable constants (defaults tuned with `npm run eval`; the eval's `--sweep` overrides them). */
export interface RecallTuning {
  keywordMin: number;
  /** Per embedder provider, `default` for the rest. */
  vectorGate: Record<string, VectorGate>;
  recencyHalflifeDays: number;
}
export const DEFAULT_TUNING: RecallTuning = {
  keywordMin: 0.4,
  vectorGate: DEFAULT_VECTOR_GATE,
  recencyHalflifeDays: 30,
};

/** The gate for an embedder provider. */
export function gateFor(tuning: RecallTuning, provider: string): VectorGate {
  return tuning.vectorGate[provider] ?? tuning.vectorGate.default;
}
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
  /** With `explain`: the gate this embedder uses and the nearest candidates, kept or not (why nothing came back). */
  explain?: { provider: string; keyword_min: number; gate: VectorGate; considered: Considered[] };
}

/** A candidate the gate looked at: its signals and whether it was kept as evidence. */
export interface Considered {
  id: number;
  entity_name: string;
  fact: string;
  vector: number | null;
  keyword: number | null;
  phrase: boolean;
  kept: boolean;
}
const CONSIDERED = 5;

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

/**
 * Does `doc` (a memory's terms, in order) hold all of `q` (the query's terms) as one run, in order?
 * A query of one term ("peanuts", "where are my keys") is a keyword lookup: any memory with it holds it.
 */
export function containsRun(doc: string[], q: string[]): boolean {
  if (!q.length) return false;
  for (let i = doc.indexOf(q[0]); i >= 0 && i + q.length <= doc.length; i = doc.indexOf(q[0], i + 1)) {
    if (q.every((t, k) => doc[i + k] === t)) return true;
  }
  return false;
}

/** Everything the evidence gate looks at for one query (gathered once; the calibration replays it). */
export interface Candidates {
  mode: RecallMode;
  /** Vector KNN, best first (ungated). */
  vectorHits: VectorHit[];
  /** Keyword coverage of every keyword candidate and of the vector hits at or above `termsFloor`. */
  rawCov: Map<number, number>;
  /** Candidates whose terms contain the query's terms as one run, in order (evidence-gate.ts `phrase`). */
  phrase: Set<number>;
  /** Cosine of every candidate that has a vector (KNN hits, and keyword candidates by point lookup). */
  sims: Map<number, number>;
  /** Runner-up vector hits that say what the top-1 says (cosine to it ≥ SAME_AS_TOP): not its rivals for the margin. */
  sameAsTop: Set<number>;
  rows: Map<number, MemoryRow>;
}

export async function gatherCandidates(d: RecallDeps, input: RecallInput, filter: MemoryFilter, n: number, termsFloor: number, warnings: string[]): Promise<Candidates> {
  let mode: RecallMode = input.mode;
  // The query's embedding runs in the embedder (a worker thread or a remote model) while this thread
  // does the keyword half; the two meet below.
  const pending = mode !== 'keyword' ? queryVector(d, input.query, warnings) : null;
  const qTerms = terms(input.query);
  const rawCov = new Map<number, number>();
  const phrase = new Set<number>();
  const rows = new Map<number, MemoryRow>();
  const match = ftsMatch(qTerms);
  let idf: Map<string, number> | undefined;
  if (match) {
    const { df, n: docs } = d.repo.docFreq(qTerms);
    idf = new Map(qTerms.map((t) => {
      const f = df.get(t) ?? 0;
      return [t, Math.log(1 + (docs - f + 0.5) / (f + 0.5))] as const;
    }));
    for (const r of d.repo.keyword(match, n, filter)) {
      rows.set(r.id, r);
      const docTerms = r.terms.split(' ');
      rawCov.set(r.id, coverage(qTerms, new Set(docTerms), idf));
      if (containsRun(docTerms, qTerms)) phrase.add(r.id);
    }
  }
  let vectorHits: VectorHit[] = [];
  const qv = pending && (await pending);
  if (pending && !qv) mode = 'keyword';
  else if (qv && qv.some((x) => x !== 0)) {
    vectorHits = d.vectors.knn(qv, n, {
      entityId: filter.entityId,
      category: input.category,
      activeOnly: !input.include_superseded && filter.asOf === undefined,
    });
  }
  if (idf) {
    // Vector hits that the keyword query did not return still get a keyword score (gate and fusion).
    const missing = vectorHits.filter((h) => h.similarity >= termsFloor && !rawCov.has(h.memory_id)).map((h) => h.memory_id);
    for (const [id, t] of d.repo.termsOf(missing)) rawCov.set(id, coverage(qTerms, new Set(t.split(' ')), idf));
  }
  const sims = new Map(vectorHits.map((h) => [h.memory_id, h.similarity]));
  // Keyword candidates outside the KNN's top n still get their cosine (the gate confirms with it).
  if (qv && mode === 'hybrid') for (const h of d.vectors.similarTo(qv, [...rows.keys()].filter((id) => !sims.has(id)))) sims.set(h.memory_id, h.similarity);
  return { mode, vectorHits, rawCov, phrase, sims, rows, sameAsTop: sameAsTop(d.vectors, vectorHits) };
}

/**
 * Two memories that say nearly the same thing in other words (not merged as duplicates: cosine <
 * 0.92) would otherwise leave the top-1 no margin over its own restatement, and a question about it
 * no answer. SAME_AS_TOP marks which runner-ups are such restatements.
 */
export const SAME_AS_TOP = 0.8;
const RIVALS = 5;
function sameAsTop(vectors: VectorStore, hits: VectorHit[]): Set<number> {
  const top = hits.length > 1 ? vectors.vectorOf(hits[0].memory_id) : undefined;
  if (!top) return new Set();
  const near = vectors.similarTo(top, hits.slice(1, RIVALS + 1).map((h) => h.memory_id));
  return new Set(near.filter((h) => h.similarity >= SAME_AS_TOP).map((h) => h.memory_id));
}

/** The kept keyword and vector evidence (evidence-gate.ts) for gathered candidates. */
export function decideEvidence(c: Candidates, gate: VectorGate, keywordMin: number) {
  const keywordCov = new Map<number, number>();
  for (const [id, cov] of c.rawCov) if (cov >= keywordMin) keywordCov.set(id, cov);
  const vectorSim = gateVectorHits(c.vectorHits, gate, (id) => c.rawCov.get(id) ?? 0, c.sameAsTop);
  if (c.mode === 'vector') keywordCov.clear();
  else if (c.mode === 'hybrid' && c.vectorHits.length) {
    // A memory with no vector yet (pending) cannot be confirmed: its keyword evidence stands alone.
    for (const [id, cov] of keywordCov) {
      const sim = c.sims.get(id);
      if (sim !== undefined && !keywordKept(cov, sim, gate) && !(gate.phrase && c.phrase.has(id))) keywordCov.delete(id);
    }
  }
  return { keywordCov, vectorSim };
}

export async function recall(d: RecallDeps, input: RecallInput): Promise<RecallOutcome> {
  const warnings: string[] = [];
  const now = d.clock.now();
  const tuning = d.tuning ?? DEFAULT_TUNING;
  const { keywordMin: KEYWORD_MIN, recencyHalflifeDays: RECENCY_HALFLIFE_DAYS } = tuning;
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

  const gate = gateFor(tuning, d.embedder.provider);
  const c = await gatherCandidates(d, input, filter, n, gate.floor, warnings);
  const { mode, rows } = c;
  const { keywordCov, vectorSim } = decideEvidence(c, gate, KEYWORD_MIN);

  // Post-filter vector hits by the filters the index can't apply (trust, validity time).
  const needRows = [...vectorSim.keys(), ...keywordCov.keys()].filter((id) => !rows.has(id));
  for (const r of d.repo.byIds(needRows, filter)) rows.set(r.id, r);
  const ids = new Set([...vectorSim.keys(), ...keywordCov.keys()].filter((id) => rows.has(id)));

  const w = input.recency_weight;
  const hits: RecallHit[] = [];
  for (const id of ids) {
    const m = rows.get(id)!;
    const kw = keywordCov.get(id) ?? null;
    const vec = vectorSim.get(id) ?? null;
    let relevance: number;
    if (mode === 'keyword') relevance = kw ?? 0;
    else if (mode === 'vector') relevance = vec ?? 0;
    else relevance = fuse(kw, vec);
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
  if (!input.explain) return { results, mode_used: mode, warnings };
  const considered = nearest(d.repo, c, filter, new Set(hits.map((h) => h.id)));
  return { results, mode_used: mode, warnings, explain: { provider: d.embedder.provider, keyword_min: KEYWORD_MIN, gate, considered } };
}

/** The strongest candidates by cosine or keyword coverage, within the request's filters, kept or not. */
function nearest(repo: MemoryRepo, c: Candidates, filter: MemoryFilter, kept: Set<number>): Considered[] {
  const strength = new Map<number, number>();
  const mark = (id: number, x: number) => strength.set(id, Math.max(strength.get(id) ?? 0, x));
  for (const h of c.vectorHits.slice(0, CONSIDERED)) mark(h.memory_id, h.similarity);
  for (const [id, cov] of c.rawCov) if (cov > 0) mark(id, cov);
  const top = [...strength].sort((a, b) => b[1] - a[1]).slice(0, CONSIDERED * 2).map(([id]) => id);
  const rows = new Map(repo.byIds(top, filter).map((r) => [r.id, r] as const));
  const sim = new Map(c.vectorHits.map((h) => [h.memory_id, h.similarity] as const));
  return top.filter((id) => rows.has(id)).slice(0, CONSIDERED).map((id) => {
    const cos = sim.get(id) ?? c.sims.get(id);
    const cov = c.rawCov.get(id);
    return { id, entity_name: rows.get(id)!.entity_name, fact: rows.get(id)!.fact, vector: cos === undefined ? null : round(cos), keyword: cov ? round(cov) : null, phrase: c.phrase.has(id), kept: kept.has(id) };
  });
}

const round = (x: number) => Math.round(x * 10_000) / 10_000;
