/**
 * Where a hybrid recall spends its time: the same steps `src/tiers/memory/recall.ts` takes, timed
 * one by one over the same questions (embed, vec0 KNN with its filters, FTS5 document frequencies,
 * the BM25 candidate query, the coverage gate in JS, `termsOf`, `byIds`, `touch`), beside a whole
 * `memory.recall`. The steps are re-issued here rather than instrumenting src/, so the numbers are
 * per-step costs, not an exact split of one call — they show which step to fix.
 */
import { RecallInput } from '../../src/tiers/memory/memory.schemas.js';
import { coverage, POOL } from '../../src/tiers/memory/candidates.js';
import { ftsMatch, terms } from '../../src/tiers/memory/text-match.js';
import type { GrowingStore } from './recall-store.js';
import { exactKnn, since, summarize } from './common.js';
import type { HouseholdQuery } from './household.js';
import { internals } from '../../src/internals.js';

/** Mean/p95 per step, as printed. */
export interface StageTimes {
  stages: Record<string, ReturnType<typeof summarize>>;
  report: string;
}

const CANDIDATES = 60; // recall.ts: max(CANDIDATES, top_k × 4) with the default top_k 5

/** Times each recall step over `qs` on an already built store. */
export async function profileRecall(
  h: Pick<GrowingStore, 'services' | 'db' | 'clock'>,
  qs: HouseholdQuery[],
): Promise<StageTimes> {
  const { embedder, entities, memory } = h.services;
  const { vectors, memoryRepo: repo } = internals(h.services);
  const rawKnn = exactKnn(h.db);
  const t: Record<string, number[]> = {};
  const add = (k: string, ms: number) => (t[k] ??= []).push(ms);
  const time = async <T>(k: string, fn: () => T | Promise<T>): Promise<T> => {
    const t0 = performance.now();
    const out = await fn();
    add(k, since(t0));
    return out;
  };

  for (const q of qs) {
    const entityId = q.entity_name === undefined ? undefined : entities.find(q.entity_name)?.id;
    const filter = { entityId };
    const [qv] = await time('embed query', () => embedder.embed([q.query]));
    await time('raw float vec0 KNN k=60, exact (no filter)', () => rawKnn(qv, CANDIDATES));
    const hits = await time('vectors.knn k=60: binary codes + exact re-rank (+active/entity filter)', () =>
      vectors.knn(qv, CANDIDATES, { entityId, activeOnly: true }),
    );
    const vecIds = hits.slice(0, POOL).map((x) => x.memory_id);
    const qTerms = await time('terms(query)', () => terms(q.query));
    const match = ftsMatch(qTerms);
    const candidate = new Set<number>();
    const seen = new Set<number>();
    if (match) {
      const { df, n } = await time('repo.docFreq (memory_vocab)', () => repo.docFreq(qTerms));
      const idf = new Map(
        qTerms.map((x) => [x, Math.log(1 + (n - (df.get(x) ?? 0) + 0.5) / ((df.get(x) ?? 0) + 0.5))] as const),
      );
      const kw = await time('repo.keyword (FTS5 bm25 + join)', () => repo.keyword(match, CANDIDATES, filter));
      await time('coverage (JS)', () =>
        kw.forEach((r) => (candidate.add(r.id), seen.add(r.id), coverage(qTerms, new Set(r.terms.split(' ')), idf))),
      );
      const missing = vecIds.filter((id) => !candidate.has(id));
      await time('repo.termsOf (vector-only hits)', () => repo.termsOf(missing));
    }
    const need = vecIds.filter((id) => !seen.has(id));
    const rows = await time('repo.byIds (vector hits)', () => repo.byIds(need, filter));
    const top = [...rows.map((r) => r.id), ...seen].slice(0, 5);
    await time('repo.touch (top 5 access bumps; recall batches them every 2 s)', () =>
      repo.touch(new Map(top.map((id) => [id, { n: 1, at: h.clock.now() }]))),
    );
    const input = RecallInput.parse({
      query: q.query,
      mode: 'hybrid',
      ...(q.entity_name && { entity_name: q.entity_name }),
    });
    await time('whole memory.recall (hybrid)', () => memory.recall(input));
  }
  const stages = Object.fromEntries(Object.entries(t).map(([k, v]) => [k, summarize(v)]));
  const width = Math.max(...Object.keys(stages).map((k) => k.length));
  const report = Object.entries(stages)
    .map(([k, s]) => `  ${k.padEnd(width)}  mean ${s.mean.toFixed(2).padStart(7)}  p95 ${s.p95.toFixed(2).padStart(7)}`)
    .join('\n');
  return { stages, report };
}
