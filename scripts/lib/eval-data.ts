/** The recall eval sets' shape, and the held-out set's promises checked in code (test/eval/datasets.test.ts). */
import { terms } from '../../src/tiers/memory/text-match.js';

export interface EvalFact {
  id: string;
  entity_name: string;
  entity_type: string;
  category: string;
  fact: string;
}
export interface EvalQuery {
  id: string;
  query: string;
  kind: 'lexical' | 'paraphrase' | 'no_evidence';
  entity_name: string | null;
  relevant: string[];
}
/** A fact_key update: `old` then `new` are remembered under `fact_key`; `query` must find `new` and not `old`. */
export interface EvalSupersession {
  id: string;
  entity_name: string;
  entity_type: string;
  category: string;
  fact_key: string;
  old: string;
  new: string;
  query: string;
}
/** A question scoped to an entity with few facts (≤ 30), in other words: its answer must be among the first five of results + possible. */
export interface EvalScoped {
  id: string;
  entity_name: string;
  query: string;
  relevant: string[];
}
export interface EvalSet {
  about?: string;
  facts: EvalFact[];
  queries: EvalQuery[];
  supersessions?: EvalSupersession[];
  scoped?: EvalScoped[];
}

/** Content words (stemmed, stopwords removed) a question shares with the facts that answer it. */
export function sharedContentWords(data: EvalSet, q: Pick<EvalQuery, 'query' | 'relevant'>): string[] {
  const qt = new Set(terms(q.query));
  const shared = new Set<string>();
  for (const id of q.relevant) {
    const f = data.facts.find((x) => x.id === id)!;
    for (const t of terms(f.fact)) if (qt.has(t)) shared.add(t);
  }
  return [...shared];
}

export function counts(data: EvalSet) {
  const kinds: Record<string, number> = {};
  for (const q of data.queries) kinds[q.kind] = (kinds[q.kind] ?? 0) + 1;
  return {
    facts: data.facts.length,
    queries: data.queries.length,
    ...kinds,
    supersessions: data.supersessions?.length ?? 0,
    scoped: data.scoped?.length ?? 0,
  };
}
