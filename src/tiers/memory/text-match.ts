/**
 * Lexical helpers for memories: the text a memory is indexed under, the FTS5 expression for a
 * query (quoted literals only — user text never becomes FTS syntax), and the near-duplicate test.
 */
import { tokenize } from '../../ai/text.js';

/** The text embedded and keyword-indexed for a memory: the fact, prefixed by the entity name when the fact doesn't say it. */
export function indexText(entityName: string, fact: string): string {
  return fact.toLowerCase().includes(entityName.toLowerCase()) ? fact : `${entityName}: ${fact}`;
}

/** Unique stemmed terms of a text. */
export function terms(text: string): string[] {
  return [...new Set(tokenize(text))];
}

/**
 * FTS5 query of OR-ed quoted literals. Terms come from our tokenizer (letters and digits only),
 * and quotes are doubled anyway, so `"a" OR b*`, `NEAR(` or `col:x` in a query are just words.
 */
export function ftsMatch(queryTerms: string[]): string | null {
  if (!queryTerms.length) return null;
  return queryTerms.map((t) => `"${t.replaceAll('"', '""')}"`).join(' OR ');
}

export function jaccard(a: string[], b: string[]): number {
  const A = new Set(a);
  const B = new Set(b);
  if (!A.size && !B.size) return 1;
  let inter = 0;
  for (const t of A) if (B.has(t)) inter++;
  return inter / (A.size + B.size - inter);
}

const NUMBER = /\d+(?:[.,]\d+)?/g;
const NEGATION = /\b(not|no|never|dont|doesnt|didnt|isnt|wasnt|cant|cannot|wont|hates?|dislikes?)\b/;

/**
 * Two facts that look alike but say different things are not duplicates: "68°F" vs "70°F", or
 * "likes" vs "doesn't like". Embedders (and Jaccard) score such pairs as near-identical, so the
 * numbers and the polarity must agree before a new fact may reinforce an old one.
 */
export function sameClaims(a: string, b: string): boolean {
  const numsA = (a.match(NUMBER) ?? []).sort().join('|');
  const numsB = (b.match(NUMBER) ?? []).sort().join('|');
  if (numsA !== numsB) return false;
  const fold = (s: string) => s.toLowerCase().replace(/['’]/g, '');
  return NEGATION.test(fold(a)) === NEGATION.test(fold(b));
}

/** SPEC §5 near-duplicate thresholds. */
export const DUPLICATE_COSINE = 0.92;
export const DUPLICATE_JACCARD = 0.8;
