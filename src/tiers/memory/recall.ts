/**
 * Recall (SPEC §5), in two tiers:
 *   results   the confident answers: candidates the confidence model (confidence.ts) gives
 *             p ≥ threshold. A question nothing answers gets an empty `results` (abstention).
 *   possible  when fewer than top_k are confident: up to top_k further candidates of the same ranking
 *             with p ≥ the model's floor, each marked low confidence — what the home may know, for
 *             an assistant to ask about, never to state. Only current facts: superseded and
 *             contested-losing ones never appear here. A scoped question about an entity with few
 *             facts (candidates.ts SMALL_ENTITY) lists its facts here whatever their p.
 * Candidates and signals: candidates.ts. Keyword mode (and hybrid when the embedder is down) has no
 * cosine to read: a memory covering ≥ KEYWORD_MIN of the query's IDF-weighted words is confident,
 * the other keyword hits are possible.
 * Final score (orders each tier)
 *   score = r × ((1 − w) + w·2^(−age_days/RECENCY_HALFLIFE_DAYS)) × (0.5 + 0.5·effective_conf) × (0.9 + 0.02·trust)
 *   with r = p (keyword: coverage), w = recency_weight and age from last_confirmed. Relevance dominates;
 *   recency, decayed confidence and trust break ties.
 *   KEYWORD_MIN = 0.4: a two-word query with one morphological mismatch ("cats allergy" against
 *   "allergic to cats") scores ≈ 0.4, so higher values cut real keyword hits.
 */
import { toEpoch, trustLevel } from '../../lib/schema.js';
import type { MemoryFilter, MemoryRow } from './memory.repo.js';
import type { RecallInput, RecallMode } from './memory.schemas.js';
import { DAY, effectiveConfidence } from './decay.js';
import {
  CONFIDENCE_MODELS,
  modelFor,
  PHRASE_ANSWERS,
  probability,
  type ConfidenceModel,
  type Signals,
} from './confidence.js';
import { gatherCandidates, signalsOf, type Candidates, type RecallDeps } from './candidates.js';

export { containsRun, coverage, gatherCandidates, signalsOf, type Candidates, type RecallDeps } from './candidates.js';

/** Tunable constants (the calibration replays recall with other models). */
export interface RecallTuning {
  /**
   * Keyword mode (no embedder, `mode: keyword`, or a store being re-embedded): the WordNet coverage
   * that makes a keyword hit an answer. 0.6, chosen on the two calibration households by the model's
   * own rule — the best confident recall@5 with abstention ≥ 0.90 and wrong-confident ≤ 3 %
   * (0.4 → 52.5 % / 61.8 % / 7.6 %; 0.6 → 41.5 % / 91.2 % / 2.5 %; docs/recall-quality.md).
   */
  keywordMin: number;
  /** Per embedder provider, `default` for the rest. */
  models: Record<string, ConfidenceModel>;
  recencyHalflifeDays: number;
}
export const DEFAULT_TUNING: RecallTuning = { keywordMin: 0.6, models: CONFIDENCE_MODELS, recencyHalflifeDays: 30 };

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
  explain?: {
    keyword: number | null;
    vector: number | null;
    p: number;
    recency: number;
    confidence: number;
    trust: number;
  };
}

/**
 * A candidate of the `possible` tier: a recall hit, marked low confidence; `about_another` when the
 * question names someone this fact is neither about nor mentions (named.ts) — never an answer to offer.
 */
export type PossibleHit = RecallHit & { low_confidence: true; about_another?: true };

export interface RecallOutcome {
  results: RecallHit[];
  possible: PossibleHit[];
  mode_used: RecallMode;
  warnings: string[];
  /** Set when the question names entities (by name, alias, role or the speaker's "my"; who.ts): their own names. */
  about?: string[];
  /** With `explain`: the model this embedder uses and the nearest candidates with their signals (why nothing came back). */
  explain?: { provider: string; keyword_min: number; model: ConfidenceModel; considered: Considered[] };
}

/** A candidate the model looked at: its signals, p, and the tier it went to. */
export interface Considered {
  id: number;
  entity_name: string;
  fact: string;
  vector: number | null;
  keyword: number | null;
  margin: number | null;
  phrase: boolean;
  p: number;
  tier: 'results' | 'possible' | 'none';
  /** Set when p is the fact this one replaced (candidates.ts `replaced`): that fact's id; the signals above are this one's own. */
  via_replaced?: number;
  /** Set when the question names an entity this fact is not about and does not mention (named.ts): never confident. */
  about_another?: true;
}
const CONSIDERED = 5;

/** Each candidate's p and whether it is confident, for the gathered candidates (the calibration replays this). */
export function judge(
  c: Candidates,
  model: ConfidenceModel,
  keywordMin: number,
): Map<number, { p: number; confident: boolean; signals: Signals; viaReplaced?: number }> {
  const out = new Map<number, { p: number; confident: boolean; signals: Signals; viaReplaced?: number }>();
  for (const [id, s] of signalsOf(c, model.rival)) {
    // No cosine to read (keyword mode, the embedder down, or this memory's embedding pending): keywords alone.
    if (c.mode === 'keyword' || !c.sims.has(id)) {
      if (c.mode !== 'vector' && s.cov > 0)
        out.set(id, { p: s.cov, confident: s.cov >= keywordMin && !c.elsewhere.has(id), signals: s });
      else if (c.scoped.has(id)) out.set(id, { p: 0, confident: false, signals: s });
      continue;
    }
    // A fact that replaced another is judged as the better of itself and what it replaced (candidates.ts `replaced`).
    const own = probability(model, s);
    const inherited = s.inherited ? probability(model, s.inherited) : 0;
    const p = Math.max(own, inherited);
    const phrase = s.phrase || !!s.inherited?.phrase;
    const viaReplaced = inherited > own || (!s.phrase && phrase) ? c.replaced.get(id)?.id : undefined;
    out.set(id, {
      p,
      confident: (p >= model.threshold || (PHRASE_ANSWERS && phrase)) && !c.elsewhere.has(id),
      signals: s,
      ...(viaReplaced !== undefined && { viaReplaced }),
    });
  }
  return out;
}

export async function recall(d: RecallDeps & { tuning?: RecallTuning }, input: RecallInput): Promise<RecallOutcome> {
  const warnings: string[] = [];
  const now = d.clock.now();
  const tuning = d.tuning ?? DEFAULT_TUNING;
  let entityId: number | undefined;
  if (input.entity_name !== undefined) {
    entityId = d.entityId(input.entity_name);
    if (entityId === undefined)
      return { results: [], possible: [], mode_used: input.mode, warnings: [`no entity named "${input.entity_name}"`] };
  }
  const filter: MemoryFilter = {
    entityId,
    category: input.category,
    minTrust: trustLevel(input.min_trust as never) || undefined,
    includeSuperseded: input.include_superseded,
    asOf: toEpoch(input.as_of),
  };
  const n = Math.max(CANDIDATES, input.top_k * 4);
  const model = modelFor(d.embedder.provider, tuning.models);
  const c = await gatherCandidates(d, input, filter, n, warnings);
  const judged = judge(c, model, tuning.keywordMin);
  // Only confident candidates, or those good enough to be listed as possible, are read and scored.
  const wanted = [...judged].filter(
    ([id, j]) => j.confident || (input.possible && (j.p >= model.floor || c.scoped.has(id))),
  );
  const { rows } = c;
  for (const r of d.repo.byIds(
    wanted.map(([id]) => id).filter((id) => !rows.has(id)),
    filter,
  ))
    rows.set(r.id, r);

  const w = input.recency_weight;
  const confident: RecallHit[] = [];
  const possible: RecallHit[] = [];
  for (const [id, j] of wanted) {
    const m = rows.get(id);
    if (!m) continue;
    // Only current facts may be offered as possible: a superseded or contested one is never a "maybe".
    if (!j.confident && m.status !== 'active') continue;
    const eff = effectiveConfidence(m, now, d.decay);
    if (eff < input.min_confidence) continue;
    const ageDays = Math.max(0, now - m.last_confirmed) / DAY;
    const recency = 2 ** (-ageDays / tuning.recencyHalflifeDays);
    const score = j.p * (1 - w + w * recency) * (0.5 + 0.5 * eff) * (0.9 + 0.02 * m.source_trust);
    const s = j.signals;
    (j.confident ? confident : possible).push({
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
        explain: {
          keyword: round(s.cov),
          vector: c.sims.has(id) ? round(s.cos) : null,
          p: round(j.p),
          recency: round(recency),
          confidence: round(eff),
          trust: m.source_trust,
        },
      }),
    });
  }
  const order = (a: RecallHit, b: RecallHit) => b.score - a.score || b.last_confirmed - a.last_confirmed;
  const results = confident.sort(order).slice(0, input.top_k);
  const room = results.length < input.top_k ? input.top_k : 0;
  const maybe = possible
    .sort(order)
    .slice(0, room)
    .map((h) => ({
      ...h,
      low_confidence: true as const,
      ...(c.elsewhere.has(h.id) && { about_another: true as const }),
    }));
  if (c.mode !== input.mode) warnings.push(`fell back to keyword recall`);
  const out = { results, possible: maybe, mode_used: c.mode, warnings, ...(c.about.length && { about: c.about }) };
  if (!input.explain) return out;
  const tierOf = new Map<number, Considered['tier']>([
    ...results.map((h) => [h.id, 'results'] as const),
    ...maybe.map((h) => [h.id, 'possible'] as const),
  ]);
  const considered = nearest(d, c, judged, filter, tierOf);
  return { ...out, explain: { provider: d.embedder.provider, keyword_min: tuning.keywordMin, model, considered } };
}

/** The candidates with the highest p, within the request's filters, whatever tier they went to. */
function nearest(
  d: RecallDeps,
  c: Candidates,
  judged: ReturnType<typeof judge>,
  filter: MemoryFilter,
  tierOf: Map<number, Considered['tier']>,
): Considered[] {
  const top = [...judged].sort((a, b) => b[1].p - a[1].p).slice(0, CONSIDERED * 2);
  const rows = new Map(
    d.repo
      .byIds(
        top.map(([id]) => id),
        filter,
      )
      .map((r) => [r.id, r] as const),
  );
  return top
    .filter(([id]) => rows.has(id))
    .slice(0, CONSIDERED)
    .map(([id, j]) => {
      const hasVec = c.sims.has(id);
      return {
        id,
        entity_name: rows.get(id)!.entity_name,
        fact: rows.get(id)!.fact,
        vector: hasVec ? round(j.signals.cos) : null,
        keyword: j.signals.cov ? round(j.signals.cov) : null,
        margin: hasVec ? round(j.signals.margin) : null,
        phrase: j.signals.phrase,
        p: round(j.p),
        tier: tierOf.get(id) ?? 'none',
        ...(j.viaReplaced !== undefined && { via_replaced: j.viaReplaced }),
        ...(c.elsewhere.has(id) && { about_another: true as const }),
      };
    });
}

const round = (x: number) => Math.round(x * 10_000) / 10_000;
