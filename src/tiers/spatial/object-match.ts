/**
 * Loose object matching for `find` (SPEC §5 "Spatial"): "my keys", "keys", "the car keys",
 * "where are my keys?", "where did I leave my glasses?" → the object names they can mean.
 *
 * The question is reduced to object words: our tokenizer (src/ai/text.ts) already drops articles,
 * possessives ("my", "Brian's" → brian) and question words, and its Porter stems fold plurals
 * ("keys" → kei, "glasses" → glass); QUESTION drops the verbs of asking where something is.
 * A name N is scored against the question's words Q by
 *
 *   score = ½ · |Q∩N|/|N| + ½ · |Q∩N|/|Q|
 *
 * — how much of the name the question says, and how much of the question the name explains.
 * A possessor in the question ("Brian's keys") counts only against names that contain it
 * ("Anna's laptop"), so it narrows without excluding "car keys".
 * "keys" vs "car keys" = 0.75, "car keys" vs "car keys" = 1, "car keys" vs "house keys" = 0.5.
 * A name needs MIN_SCORE (above ½, so sharing one word of two — "mobile phone" vs "phone charger" — is
 * not enough); the best is the answer only when it leads the next by MARGIN, else the
 * question is ambiguous and `find` lists the candidates (constants tuned on eval/spatial.json).
 */
import { tokenize } from '../../ai/text.js';

export const MIN_SCORE = 0.55;
export const MARGIN = 0.2;

/** Stems of words that ask *where*, not *what*. */
const QUESTION = new Set(
  `where wheres leav left put find found last see saw seen place lost lose misplac locat know rememb
  anyon someon somebodi anybodi keep kept hide hid now current again todai yesterdai tonight think thought
  wonder tell go went gone pleas idea cant help`
    .split(/\s+/)
    .filter(Boolean),
);

/** The object words of a question or name: unique stems without question words. */
export function objectTerms(text: string): string[] {
  const all = [...new Set(tokenize(text))];
  const kept = all.filter((t) => !QUESTION.has(t));
  // A name made only of "question" words ("Lost and Found box") keeps its own words.
  return kept.length ? kept : all;
}

/**
 * Stems of possessors in a question ("Brian's keys" → brian): they narrow the match when a name
 * has them ("Anna's laptop") and are not held against a name that doesn't ("car keys").
 */
export function possessors(text: string): string[] {
  return [...text.matchAll(/([\p{L}\p{N}]+)['’]s\b/gu)].flatMap((m) => tokenize(m[1]));
}

export function nameScore(query: readonly string[], name: readonly string[], soft: ReadonlySet<string> = new Set()): number {
  const n = new Set(name);
  const q = new Set(query.filter((t) => n.has(t) || !soft.has(t)));
  if (!q.size || !n.size) return 0;
  const shared = [...q].filter((t) => n.has(t)).length;
  return 0.5 * (shared / n.size) + 0.5 * (shared / q.size);
}

export interface Ranked<T> {
  item: T;
  score: number;
}

/**
 * Items whose name matches the query, best first, and the answer: the only match, or the best
 * when it leads the runner-up by MARGIN; undefined when nothing matches or the lead is too small.
 */
export function rankNames<T>(query: string, items: readonly T[], nameOf: (t: T) => string): { ranked: Ranked<T>[]; best?: Ranked<T> } {
  const q = objectTerms(query);
  const soft = new Set(possessors(query));
  const ranked = items
    .map((item) => ({ item, score: nameScore(q, objectTerms(nameOf(item)), soft) }))
    .filter((r) => r.score >= MIN_SCORE)
    .sort((a, b) => b.score - a.score);
  const exact = ranked.filter((r) => nameOf(r.item).toLowerCase() === query.trim().toLowerCase());
  if (exact.length === 1) return { ranked, best: exact[0] };
  const [first, second] = ranked;
  const best = first && (!second || first.score - second.score >= MARGIN) ? first : undefined;
  return { ranked, best };
}
