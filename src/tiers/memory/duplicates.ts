/** remember's near-duplicate check (remember.ts): the same fact said again is reinforced, not stored twice. */
import type { MemoryRow } from './memory.repo.js';
import type { MemoryContext } from './memory.context.js';
import { DUPLICATE_COSINE, DUPLICATE_JACCARD, ftsMatch, jaccard, sameClaims } from './text-match.js';

/** Up to this many active facts of one entity and category, the duplicate check reads all their terms. */
const SCAN_KIND = 400;
/**
 * …and compares the vectors of the newest this many: a restatement is usually of something said
 * lately, and each compared fact costs a point lookup; older duplicates are still caught by their terms.
 */
const VECTOR_NEWEST = 100;

/**
 * An active fact of the same entity and category that says the same thing, if any: cosine ≥
 * DUPLICATE_COSINE with one of the newest, or term Jaccard ≥ DUPLICATE_JACCARD with any (both on the
 * indexed terms, so an entity-name prefix counts on both sides), and the same numbers and polarity.
 */
export function findDuplicate(
  { repo, vectors }: Pick<MemoryContext, 'repo' | 'vectors'>,
  entityId: number,
  category: string,
  fact: string,
  factTerms: string[],
  v: Float32Array | null,
): MemoryRow | undefined {
  const similar = new Set<number>();
  // Only the entity's own active facts of this category can be duplicates: compare with those
  // (point lookups), not a KNN over the whole index (bench: remember 56/s → see README at 50k).
  const kind = repo.activeIdsOf(entityId, category, SCAN_KIND + 1);
  if (v) {
    for (const h of vectors.similarTo(v, kind.slice(0, VECTOR_NEWEST)).slice(0, 5))
      if (h.similarity >= DUPLICATE_COSINE) similar.add(h.memory_id);
  }
  for (const [id, t] of keywordCandidates(repo, entityId, category, factTerms, kind))
    if (jaccard(t.split(' '), factTerms) >= DUPLICATE_JACCARD) similar.add(id);
  for (const m of repo.byIds([...similar], { entityId, category })) if (sameClaims(m.fact, fact)) return m;
  return undefined;
}

/** The facts (id → indexed terms) that may share ≥ DUPLICATE_JACCARD of their terms with ours (`kind`: as above). */
function keywordCandidates(
  repo: MemoryContext['repo'],
  entityId: number,
  category: string,
  factTerms: string[],
  kind: number[],
): Map<number, string> {
  // Usually an entity has few facts of one kind: read all their terms by id (cheaper at 50k than
  // any FTS query, whose posting lists grow with the whole store).
  if (kind.length <= SCAN_KIND) return repo.termsOf(kind);
  // Many: a fact B with Jaccard ≥ J to ours (A) lacks at most (1 − J)/J of our terms
  // (|A∖B| ≤ |A∪B| − |A∩B| ≤ (1 − J)·|A∪B| ≤ (1 − J)/J·|A|), so it contains at least one of ANY
  // ⌊(1 − J)/J·|A|⌋ + 1 of them. Matching only the rarest ones finds every such fact, and FTS5 reads
  // short posting lists instead of ranking every memory that shares a common word.
  const { df } = repo.docFreq(factTerms);
  const need = Math.floor(((1 - DUPLICATE_JACCARD) / DUPLICATE_JACCARD) * factTerms.length + 1e-9) + 1;
  const rare = [...factTerms].sort((a, b) => (df.get(a) ?? 0) - (df.get(b) ?? 0)).slice(0, need);
  const match = ftsMatch(rare);
  return new Map(match ? repo.keyword(match, 50, { entityId, category }).map((r) => [r.id, r.terms] as const) : []);
}
