/**
 * What recall looks at for one question (SPEC §5): candidates from the keyword index (FTS5) and the
 * vector index (vec0 KNN), and the signals the confidence model (confidence.ts) reads for each.
 * Gathered once per question; the calibration (scripts/calibrate-gate.ts) replays the same functions.
 *
 * Keyword coverage: c = Σ idf(t ∈ Q∩D) / Σ idf(t ∈ Q), idf(t) = ln(1 + (N + PRIOR_DOCS − df + 0.5)/(df + 0.5)).
 * A query word the index has never seen has the highest idf, so "Brian's blood type" is not covered
 * by a fact that only shares "Brian". With WordNet (src/ai/wordnet-coverage.ts) a query word is also
 * covered, at a lower weight, by its synonyms and hypernyms ("boiler" by "heater"), and a collocation
 * of the query ("blood type") only as itself: its words found apart count for less — word sense, cheaply.
 */
import type { Embedder } from '../../ai/types.js';
import type { WordNet } from '../../ai/wordnet.js';
import { prepareQuery, wordnetCoverage } from '../../ai/wordnet-coverage.js';
import type { Clock } from '../../lib/clock.js';
import type { VectorHit, VectorStore } from '../../db/vectors.js';
import type { MemoryFilter, MemoryRepo, MemoryRow } from './memory.repo.js';
import type { RecallInput, RecallMode } from './memory.schemas.js';
import type { DecayConfig } from './decay.js';
import type { Signals } from './confidence.js';
import { ftsMatch, terms } from './text-match.js';
import { aboutElsewhere } from './named.js';
import { readWho, type WhoDeps } from './who.js';

export interface RecallDeps {
  repo: MemoryRepo;
  vectors: VectorStore;
  embedder: Embedder;
  clock: Clock;
  decay: DecayConfig;
  entityId: (name: string) => number | undefined;
  /** An entity by name or alias, for the `elsewhere` rule (named.ts); without it the rule is off. */
  entityNamed?: (name: string) => { id: number; name: string; type: string } | undefined;
  /** Query-side expansion of keyword coverage (synonyms, hypernyms; src/ai/wordnet-coverage.ts); without it, stems only. */
  wordnet?: WordNet;
  /** Role phrases and whom they name ("my wife" → Anna; who.ts); without it, roles are not read. */
  roles?: WhoDeps['roles'];
  /** Role and kinship words ("grandma"): an alias that is one names a person (who.ts). */
  roleWord?: WhoDeps['roleWord'];
}

/** Vector hits whose keyword coverage is read (the rest rank too low to matter in either tier). */
export const POOL = 20;
/**
 * An entity with at most this many current facts is small enough to hand all of them to a scoped
 * question: "what does Ruth's doctor want" scoped to Ruth lists her facts ranked, never nothing.
 */
export const SMALL_ENTITY = 30;
/**
 * A one-term query is a keyword lookup only when it is this short ("peanuts", "68", "where are my
 * keys"): a sentence whose one content word is left after the stopwords ("who can let us in if we're
 * locked out" → `lock`) asks something, and the smart lock's "locks itself" does not answer it.
 */
export const LOOKUP_WORDS = 4;
/** Pseudo-documents in the idf (see gatherCandidates). */
export const PRIOR_DOCS = 100;

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
 * (gatherCandidates asks this of a one-term query only when it is short: see LOOKUP_WORDS.)
 */
export function containsRun(doc: string[], q: string[]): boolean {
  if (!q.length) return false;
  for (let i = doc.indexOf(q[0]); i >= 0 && i + q.length <= doc.length; i = doc.indexOf(q[0], i + 1)) {
    if (q.every((t, k) => doc[i + k] === t)) return true;
  }
  return false;
}

/** Everything the confidence model looks at for one query. */
export interface Candidates {
  mode: RecallMode;
  /** Vector KNN, best first (ungated). */
  vectorHits: VectorHit[];
  /** Keyword coverage of every keyword candidate, of the first POOL vector hits and of a small entity's facts. */
  rawCov: Map<number, number>;
  /** Candidates whose terms contain the query's terms as one run, in order. */
  phrase: Set<number>;
  /** Cosine of every candidate that has a vector (KNN hits, and the other candidates by point lookup). */
  sims: Map<number, number>;
  /** Runner-up vector hits that say what the top-1 says (cosine to it ≥ SAME_AS_TOP): not its rivals for the margin. */
  sameAsTop: Set<number>;
  /**
   * Candidates about an entity the question does not name, when it names one, that do not mention it
   * either (named.ts): never confident ("when is Felix's birthday" → Helga's birthday).
   */
  elsewhere: Set<number>;
  /** A scoped question about an entity with ≤ SMALL_ENTITY current facts: all of them (else empty). */
  scoped: Set<number>;
  /**
   * The current facts of each entity an open question names (by name, alias, role or "my"; who.ts),
   * when it has ≤ SMALL_ENTITY: judged like every candidate, so "when does grandma come to stay"
   * reaches Jadwiga's facts however few words they share with it.
   */
  namedFacts: Set<number>;
  /** The entities the question names (own names; who.ts), and the question as it was searched. */
  about: string[];
  query: string;
  /**
   * Per candidate that replaced older facts (supersession): those facts' cosine, coverage and phrase,
   * best of them. A question the replaced fact answered is about the same slot, so the newer fact is
   * judged on these too (signalsOf `inherited`): "which day does Petra swim" after "Petra swims on
   * Monday mornings" became "Petra has moved her swimming to Friday mornings".
   */
  replaced: Map<number, { id: number; cos: number; cov: number; phrase: boolean }>;
  rows: Map<number, MemoryRow>;
}

export async function gatherCandidates(
  d: RecallDeps,
  input: RecallInput,
  filter: MemoryFilter,
  n: number,
  warnings: string[],
): Promise<Candidates> {
  let mode: RecallMode = input.mode;
  // Aliases, roles and "my" are searched as the names the memories are indexed under (who.ts).
  const who = d.entityNamed
    ? readWho({ entityNamed: d.entityNamed, roles: d.roles, roleWord: d.roleWord }, input.query, input.speaker)
    : { named: [], query: input.query, about: [] };
  const query = who.query;
  // The query's embedding runs in the embedder (a worker thread or a remote model) while this thread
  // does the keyword half; the two meet below.
  const pending = mode !== 'keyword' ? queryVector(d, query, warnings) : null;
  const qTerms = terms(query);
  const runTerms = qTerms.length > 1 || query.trim().split(/\s+/).length <= LOOKUP_WORDS ? qTerms : [];
  const rawCov = new Map<number, number>();
  const phrase = new Set<number>();
  const rows = new Map<number, MemoryRow>();
  const match = ftsMatch(qTerms);
  const pq = d.wordnet && qTerms.length ? prepareQuery(d.wordnet, query) : undefined;
  const stems = [...new Set([...qTerms, ...(pq?.flat.flatMap((u) => u.stems) ?? [])])];
  const { df, n: docs } = d.repo.docFreq(stems);
  // PRIOR_DOCS documents without the term are assumed beside the store's: in a store of one or two
  // facts every word of a fact is in "all" documents and its idf collapses to ~0, so a question in the
  // fact's own words would look uncovered (a store-size effect); at household sizes and up it is noise.
  const idfOf = (f: number) => Math.log(1 + (docs + PRIOR_DOCS - f + 0.5) / (f + 0.5));
  const idf = new Map(stems.map((t) => [t, idfOf(df.get(t) ?? 0)] as const));
  const weightOf = (t: string) => idf.get(t) ?? idfOf(0);
  const termsById = new Map<number, string[]>();
  const entityOf = new Map<number, number>();
  const score = (id: number, docTerms: string[]) => {
    termsById.set(id, docTerms);
    rawCov.set(id, pq ? wordnetCoverage(pq, docTerms, weightOf) : coverage(qTerms, new Set(docTerms), idf));
    if (containsRun(docTerms, runTerms)) phrase.add(id);
  };
  if (match) {
    for (const r of d.repo.keyword(match, n, filter)) {
      rows.set(r.id, r);
      entityOf.set(r.id, r.entity_id);
      score(r.id, r.terms.split(' '));
    }
  }
  const scoped = new Set(
    filter.entityId !== undefined && !filter.includeSuperseded
      ? d.repo.smallEntityIds(filter.entityId, SMALL_ENTITY)
      : [],
  );
  const named = filter.entityId === undefined ? who.named : [];
  const namedFacts = new Set(
    filter.includeSuperseded ? [] : named.flatMap((e) => d.repo.smallEntityIds(e.id, SMALL_ENTITY)),
  );
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
  // Vector hits (and a small entity's facts) that the keyword query did not return still get a keyword score.
  const missing = [...new Set([...vectorHits.slice(0, POOL).map((h) => h.memory_id), ...scoped, ...namedFacts])].filter(
    (id) => !rawCov.has(id),
  );
  if (qTerms.length) for (const [id, t] of d.repo.termsOf(missing)) score(id, t.split(' '));
  if (named.length) for (const [id, e] of d.repo.entityIdsOf(missing)) entityOf.set(id, e);
  const sims = new Map(vectorHits.map((h) => [h.memory_id, h.similarity]));
  // The other candidates still get their cosine (the model reads it).
  if (qv && mode !== 'keyword')
    for (const h of d.vectors.similarTo(
      qv,
      [...new Set([...rows.keys(), ...scoped, ...namedFacts])].filter((id) => !sims.has(id)),
    ))
      sims.set(h.memory_id, h.similarity);
  const replaced = new Map<number, { id: number; cos: number; cov: number; phrase: boolean }>();
  if (!filter.includeSuperseded && filter.asOf === undefined) {
    const pool = [
      ...new Set([...vectorHits.slice(0, POOL).map((h) => h.memory_id), ...rows.keys(), ...scoped, ...namedFacts]),
    ];
    const pairs = d.repo.predecessors(pool);
    if (pairs.length) {
      const olds = pairs.map(([id]) => id);
      const cosOf = new Map(
        qv && mode !== 'keyword' ? d.vectors.similarTo(qv, olds).map((h) => [h.memory_id, h.similarity] as const) : [],
      );
      const termsOld = qTerms.length ? d.repo.termsOf(olds) : new Map<number, string>();
      for (const [old, by] of pairs) {
        const t = termsOld.get(old)?.split(' ') ?? [];
        const cov = t.length ? (pq ? wordnetCoverage(pq, t, weightOf) : coverage(qTerms, new Set(t), idf)) : 0;
        const cand = { id: old, cos: cosOf.get(old) ?? 0, cov, phrase: t.length > 0 && containsRun(t, runTerms) };
        const had = replaced.get(by);
        if (!had || cand.cos + cand.cov > had.cos + had.cov) replaced.set(by, cand);
      }
    }
  }
  return {
    mode,
    vectorHits,
    rawCov,
    phrase,
    sims,
    rows,
    scoped,
    namedFacts,
    about: who.about,
    query,
    elsewhere: aboutElsewhere(named, entityOf, termsById),
    replaced,
    sameAsTop: sameAsTop(d.vectors, vectorHits),
  };
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
  const near = vectors.similarTo(
    top,
    hits.slice(1, RIVALS + 1).map((h) => h.memory_id),
  );
  return new Set(near.filter((h) => h.similarity >= SAME_AS_TOP).map((h) => h.memory_id));
}

/**
 * The model's signals for each candidate the mode looks at (confidence.ts). A candidate without a
 * vector (embedding pending) is absent from `sims`: recall judges it by its keywords alone.
 */
export function signalsOf(c: Candidates, rival: number): Map<number, Signals & { inherited?: Signals }> {
  const ids = new Set<number>(c.vectorHits.slice(0, POOL).map((h) => h.memory_id));
  if (c.mode !== 'vector') for (const id of c.rawCov.keys()) ids.add(id);
  for (const id of c.scoped) ids.add(id);
  for (const id of c.namedFacts) ids.add(id);
  const top = c.vectorHits[0];
  const group = new Set(top ? [top.memory_id, ...c.sameAsTop] : []);
  const s1 = top?.similarity ?? 0;
  const s2 = Math.max(c.vectorHits.find((h) => !group.has(h.memory_id))?.similarity ?? 0, rival);
  const out = new Map<number, Signals & { inherited?: Signals }>();
  for (const id of ids) {
    const cos = c.sims.get(id) ?? 0;
    const own = {
      cos,
      margin: group.has(id) ? cos - s2 : cos - s1,
      cov: c.rawCov.get(id) ?? 0,
      phrase: c.phrase.has(id),
      updated: c.replaced.has(id),
    };
    const old = c.replaced.get(id);
    if (!old) {
      out.set(id, own);
      continue;
    }
    // The replaced fact as it would have been judged in this list: its rival the best other current candidate.
    const others =
      c.vectorHits.find((h) => h.memory_id !== id && !(group.has(id) && group.has(h.memory_id)))?.similarity ?? 0;
    out.set(id, {
      ...own,
      inherited: {
        cos: old.cos,
        margin: old.cos - Math.max(others, rival),
        cov: old.cov,
        phrase: old.phrase,
        updated: true,
      },
    });
  }
  return out;
}
