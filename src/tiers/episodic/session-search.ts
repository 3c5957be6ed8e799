/**
 * `search_sessions` (SPEC §5 "Sessions"): FTS5/BM25 over turn content gated by session coverage, plus
 * the semantic path over turn vectors (session-vectors.ts) when an embedder is configured.
 */
import { tokenize } from '../../ai/text.js';
import type { Embedder } from '../../ai/types.js';
import type { Db } from '../../db/open.js';
import type { EntitiesRepo } from '../entities/entities.repo.js';
import { fuse, gateVectorHits, keywordKept, type VectorGate } from '../memory/evidence-gate.js';
import { NOT_SURE } from '../memory/recall-text.js';
import { coverage } from '../memory/recall.js';
import { type EpisodicRepo, type TurnHit, turnsMatch } from './episodic.repo.js';
import type { SearchSessionsInput } from './episodic.schemas.js';
import { iso } from './session-summary.js';
import { createSessionVectors, possibleSessions, SESSION_GATE, SESSION_POSSIBLE_FLOOR } from './session-vectors.js';

/**
 * Evidence gate for `search_sessions`, like recall's: a conversation answers a query only when its
 * matching turns together cover at least this share of the query's IDF-weighted terms, so one
 * common word ("come", "book") does not drag in every session. Tuned on eval/sessions-tune.json
 * (`node dist/scripts/eval-tiers.js --sweep --sessions --provider keyword`): 0.6 keeps every no-match
 * question out (17/17; 0.35, the earlier value, let 9 through) at hit@3 42 % by keywords alone.
 */
export const SESSION_MIN_COVERAGE = 0.6;
const CANDIDATE_TURNS = 300;

/** The part of EpisodicDeps that search uses (documented there). */
export interface SessionSearchDeps {
  db: Db;
  entities: EntitiesRepo;
  embedder?: Embedder | null;
  sessionGate?: Record<string, VectorGate>;
  minCoverage?: number;
  possibleFloor?: Record<string, number>;
}

/**
 * Keeps the turns of sessions whose matching turns cover enough of the query, ordered by that
 * session coverage, then by each turn's BM25 score.
 */
function gateHits(
  query: string,
  hits: (TurnHit & { content: string })[],
  docFreq: (terms: string[]) => { df: Map<string, number>; n: number },
  minCoverage: number,
) {
  const q = [...new Set(tokenize(query))];
  if (!q.length || !hits.length) return [];
  const { df, n } = docFreq(q);
  const idf = new Map(
    q.map((t) => [t, Math.log(1 + (n - (df.get(t) ?? 0) + 0.5) / ((df.get(t) ?? 0) + 0.5))] as const),
  );
  const bySession = new Map<number, Set<string>>();
  for (const h of hits) {
    const terms = bySession.get(h.session_id) ?? new Set<string>();
    for (const t of tokenize(h.content)) terms.add(t);
    bySession.set(h.session_id, terms);
  }
  const cov = new Map([...bySession].map(([id, terms]) => [id, coverage(q, terms, idf)]));
  return hits
    .filter((h) => cov.get(h.session_id)! >= minCoverage)
    .sort((a, b) => cov.get(b.session_id)! - cov.get(a.session_id)! || b.score - a.score)
    .map(({ content: _c, ...h }) => ({ ...h, coverage: Math.round(cov.get(h.session_id)! * 1000) / 1000 }));
}

/** The search half of the episodic service: `embedTurns` (background vectors) and `searchSessions`. */
export function createSessionSearch(deps: SessionSearchDeps, repo: EpisodicRepo) {
  const { db, entities } = deps;
  const embedder = deps.embedder ?? null;
  const turnVectors = embedder ? createSessionVectors(db, embedder) : null;

  /**
   * Sessions the query means, by turn vectors, gated like recall (top-1, margin, keyword support);
   * null (with a warning) when the embedder can't answer now.
   */
  async function semantic(query: string, entityId: number | null, cov: Map<number, number>, warnings: string[]) {
    if (!embedder || !turnVectors) return null;
    try {
      if (await turnVectors.fill())
        warnings.push('some older turns have no vector yet; they are being embedded in the background');
      const [q] = await embedder.embed([query]);
      const best = turnVectors.best(q, entityId);
      const gates = deps.sessionGate ?? SESSION_GATE;
      const gate = gates[embedder.provider] ?? gates.default;
      const kept = gateVectorHits(
        best.map((b) => ({ memory_id: b.session_id, similarity: b.similarity })),
        gate,
        (id) => cov.get(id) ?? 0,
      );
      return { kept, gate, best: new Map(best.map((b) => [b.session_id, b])), ranked: best };
    } catch (e) {
      warnings.push(
        `semantic search unavailable: embedder ${embedder.provider} failed (${(e as Error).message}); keyword only`,
      );
      return null;
    }
  }

  const embedTurns = async (): Promise<number> => (turnVectors && db.open ? turnVectors.backfill() : 0);
  const gate = (query: string, hits: (TurnHit & { content: string })[]) =>
    gateHits(query, hits, repo.docFreq, deps.minCoverage ?? SESSION_MIN_COVERAGE);
  return {
    /**
     * Vectors for every turn that has none of the current model (background, as writes): after
     * log_turn, and from the scheduler's embed job for what an outage, an import or a model change
     * left. Resolves with how many it embedded.
     */
    embedTurns,

    /**
     * FTS5/BM25 over turn content, gated by session coverage, plus the semantic path (turn
     * vectors) when an embedder is configured; sessions ordered by fused evidence, best first.
     */
    async searchSessions(input: SearchSessionsInput) {
      const match = turnsMatch(input.query);
      let entityId: number | null = null;
      if (input.entity_name !== undefined) {
        const e = entities.find(input.entity_name);
        if (!e)
          return {
            result: `No conversations with "${input.entity_name}": no entity by that name.`,
            results: [],
            possible: [],
            warnings: [`no entity named "${input.entity_name}"`],
          };
        entityId = e.id;
      }
      const warnings: string[] = [];
      let keyword = match ? gate(input.query, repo.search(match, CANDIDATE_TURNS, entityId)) : [];
      const cov = new Map(keyword.map((h) => [h.session_id, h.coverage]));
      const sem = await semantic(input.query, entityId, cov, warnings);
      let results: (Omit<TurnHit, 'content'> & { coverage: number; similarity?: number })[] = keyword;
      if (sem) {
        // Words in common are weak evidence: below kwAlone the session's best turn must also be near in meaning.
        const confirmed = (id: number) => keywordKept(cov.get(id)!, sem.best.get(id)?.similarity ?? 0, sem.gate);
        keyword = keyword.filter((h) => confirmed(h.session_id));
        for (const id of [...cov.keys()]) if (!confirmed(id)) cov.delete(id);
        // Vector-only sessions contribute their best turn; every session is ordered by fused evidence.
        const extra = [...sem.kept.keys()]
          .filter((id) => !cov.has(id))
          .map((id) => {
            const { content: _c, pair: _p, ...b } = sem.best.get(id)!;
            return { ...b, similarity: Math.round(b.similarity * 1000) / 1000, coverage: 0 };
          });
        const rank = (id: number) => fuse(cov.get(id) ?? null, sem.kept.get(id) ?? null);
        results = [...keyword, ...extra].sort((a, b) => rank(b.session_id) - rank(a.session_id));
      }
      results = results.slice(0, input.limit);
      if (!match && !sem) warnings.push('the query has no searchable words');
      const floors = deps.possibleFloor ?? SESSION_POSSIBLE_FLOOR;
      const floor = embedder ? (floors[embedder.provider] ?? floors.default) : Infinity;
      const possible = sem && input.possible !== false ? possibleSessions(sem.ranked, results, input.limit, floor) : [];
      const line = (r: Omit<TurnHit, 'content'>) =>
        `- session ${r.session_id} (${r.entity_name}, ${r.role}, ${iso(r.ts)}): ${r.snippet}`;
      // A sentence an assistant can read aloud (not the question echoed in quotes), like recall's.
      const parts = results.length ? results.map(line) : ['Nothing said in past conversations answers that.'];
      if (possible.length) parts.push(NOT_SURE, ...possible.map(line));
      return { result: parts.join('\n'), results, possible, warnings };
    },
  };
}
