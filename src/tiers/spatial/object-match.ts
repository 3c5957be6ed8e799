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
 *
 * By meaning (issue #25): when no name is spelled like the question, names are matched through
 * WordNet (src/ai/wordnet.ts) with the same two halves, each a WordNet coverage
 * (src/ai/wordnet-coverage.ts): the question's words by the name's terms ("hoover" → vacuum
 * cleaner, "shades" → sunglasses, "specs" → reading glasses) and the name's words by the question's
 * terms. A question word that with the name's last word makes a WordNet noun ("mobile" + "phone" →
 * mobile phone) names it by a shortened compound, at COMPOUND. Spelling comes first so that the
 * loose matching above keeps its answers; meaning only fills in where spelling finds nothing.
 */
import { analyze, tokenize } from '../../ai/text.js';
import type { WordNet } from '../../ai/wordnet.js';
import { coverageDetail, prepareQuery, type PreparedQuery } from '../../ai/wordnet-coverage.js';

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

/** Does the text ask where something is ("where's…", "have you seen my…", "can't find…")? */
export function isWhereQuestion(text: string): boolean {
  return /\b(where|wheres|have you seen|can'?t find|cannot find|lost|misplaced)\b/i.test(text.replace(/[’]/g, "'"));
}

/** Stems of words that ask where, not what (`objectPhrase` says the rest back). */
export const QUESTION_STEMS: ReadonlySet<string> = QUESTION;

/** Words that end an object's phrase when said after it ("where did I put the remote last night"). */
const AFTER_OBJECT = new Set(['night', 'morning', 'evening', 'afternoon', 'week', 'ago', 'earlier', 'recently']);
const DETERMINER = /^(the|a|an|my|our|your|his|her|their|this|that|these|those|[\p{L}\p{N}]+['’]s)$/iu;
const PREPOSITION = /^(to|for|of|from|in|on|with|at|by)$/i;
const RAW_WORD = /[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu;
/** "where's", "where're", "that's": the asking, contracted — not an owner's name. */
const CONTRACTION = /^(where|what|who|how|when|why|there|here|it|that|he|she)['’](s|re|d|ve|ll)$/i;

/**
 * The words of a question that name the object, as said ("do you know where the keys to the skoda
 * are" → "keys to the skoda", "where's dog lead" → "dog lead"), with the determiner said before
 * them; undefined when the question names nothing but the asking.
 */
export function objectSpan(question: string): { words: string; det?: string } | undefined {
  const raw = [...question.matchAll(RAW_WORD)];
  const isObject = (w: string) =>
    !AFTER_OBJECT.has(w.toLowerCase()) && !CONTRACTION.test(w) && analyze(w).some((t) => !QUESTION_STEMS.has(t.stem));
  const first = raw.findIndex((m) => isObject(m[0]));
  if (first < 0) return undefined;
  let last = first;
  for (let i = first + 1; i < raw.length && !AFTER_OBJECT.has(raw[i][0].toLowerCase()); i++)
    if (isObject(raw[i][0])) last = i;
  const words = question.slice(raw[first].index, raw[last].index + raw[last][0].length);
  const before = raw[first - 1]?.[0];
  const owner = /['’]s$/.test(raw[first][0]);
  const det = before && !owner && !CONTRACTION.test(before) && DETERMINER.test(before);
  return { words, ...(det && { det: before }) };
}

/**
 * The object a question asks about, as a phrase to say back: "where did I leave my glasses?" →
 * "your glasses", "wheres the umbrella" → "the umbrella", "where are Brian's gloves" → "Brian's
 * gloves", "do you know where the keys to the skoda are" → "the keys to the skoda" (plural: keys).
 * Only the object's words, never the question's: nothing object-like left is "that".
 */
export function objectPhrase(question: string): { phrase: string; plural: boolean } {
  const span = objectSpan(question);
  if (!span) return { phrase: 'that', plural: false };
  const words = span.words.split(/\s+/);
  const owner = /['’]s$/.test(words[0]);
  const det = owner
    ? ''
    : /^(my|our|mine)$/i.test(span.det ?? '')
      ? 'your '
      : span.det
        ? `${span.det.toLowerCase()} `
        : 'the ';
  // The head noun: before a preposition ("keys to the skoda"), else the last word.
  const at = words.findIndex((w, i) => i > 0 && PREPOSITION.test(w));
  const head = (at > 0 ? words[at - 1] : words[words.length - 1]).toLowerCase();
  const plural = /[^s]s$/.test(head) || /(sses|xes|ches|shes)$/.test(head);
  return { phrase: `${det}${span.words}`, plural };
}

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

export function nameScore(
  query: readonly string[],
  name: readonly string[],
  soft: ReadonlySet<string> = new Set(),
): number {
  const n = new Set(name);
  const q = new Set(query.filter((t) => n.has(t) || !soft.has(t)));
  if (!q.size || !n.size) return 0;
  const shared = [...q].filter((t) => n.has(t)).length;
  return 0.5 * (shared / n.size) + 0.5 * (shared / q.size);
}

export interface Ranked<T> {
  item: T;
  score: number;
  /** How the name matched: by its spelling, or by meaning (WordNet). */
  by?: 'spelling' | 'meaning';
}

/** Credit of a question word that, with the name's last word, is a WordNet compound ("mobile" + "phone"). */
export const COMPOUND = 0.8;

/** The question reduced to its object words, as raw words (WordNet expands words, not stems). */
function objectWords(text: string): string[] {
  const all = analyze(text);
  const kept = all.filter((t) => !QUESTION.has(t.stem));
  return (kept.length ? kept : all).map((t) => t.word);
}

/** Weighted mean of unit scores, each unit weighing its number of stems. */
function meanOf(q: PreparedQuery, scores: number[]): number {
  let total = 0;
  let hit = 0;
  q.units.forEach((u, i) => ((total += u.stems.length), (hit += u.stems.length * scores[i])));
  return total ? hit / total : 0;
}

// Object names recur on every question: their expansion is kept (cleared wholesale at the cap).
const NAMES_MAX = 500;
const names = new WeakMap<WordNet, Map<string, PreparedQuery>>();
function preparedName(wn: WordNet, name: string): PreparedQuery {
  let m = names.get(wn);
  if (!m) names.set(wn, (m = new Map()));
  let p = m.get(name);
  if (!p) {
    p = prepareQuery(wn, name);
    if (m.size >= NAMES_MAX) m.clear();
    m.set(name, p);
  }
  return p;
}

/** Best weight with which some unit of `q` has exactly `stems` among its relatives. */
function reverse(q: PreparedQuery, stems: readonly string[]): number {
  let best = 0;
  for (const { alt } of q.lookup.get(stems[0]) ?? []) {
    if (alt.run.length === stems.length && alt.run.every((s, k) => s === stems[k])) best = Math.max(best, alt.weight);
  }
  return best;
}

/** Scores names by meaning against one question (the question is expanded once, names as they come). */
export function meaningScorer(question: string, wn: WordNet): (name: string) => number {
  const soft = new Set(possessors(question));
  const words = objectWords(question);
  return (name: string) => {
    const nameWords = objectWords(name);
    const nameTerms = new Set(nameWords.flatMap((w) => tokenize(w)));
    // A possessor narrows only names that have it ("Brian's keys" vs "Anna's laptop").
    const asked = words.filter((w) => !tokenize(w).every((t) => soft.has(t) && !nameTerms.has(t)));
    if (!asked.length || !nameWords.length) return 0;
    const q = prepareQuery(wn, asked.join(' '));
    const n = preparedName(wn, nameWords.join(' '));
    const head = nameWords[nameWords.length - 1];
    const qd = coverageDetail(
      q,
      nameWords.flatMap((w) => tokenize(w)),
    );
    const nd = coverageDetail(
      n,
      asked.flatMap((w) => tokenize(w)),
    );
    // "mobile" + phone is a WordNet noun; so is a synonym ending in the name ("cellphone" = mobile phone).
    const headStem = tokenize(head)[0];
    const compound = q.units.map(
      (u) =>
        (u.stems.length === 1 && wn.isCompound(u.text, head)) ||
        u.alts.some((a) => a.rel === 'synonym' && a.run.length > 1 && a.run[a.run.length - 1] === headStem),
    );
    const qs = qd.units.map((u, i) => Math.max(u.score, compound[i] ? COMPOUND : 0));
    // The relation read the other way: a question word whose relative is the name's word says it
    // too ("cellphone" is a kind of phone, so it names the "phone").
    const ns = nd.units.map((u, i) =>
      Math.max(
        u.score,
        reverse(q, n.units[i].stems),
        i === n.units.length - 1 && compound.some(Boolean) ? COMPOUND : 0,
      ),
    );
    return 0.5 * meanOf(n, ns) + 0.5 * meanOf(q, qs);
  };
}

/**
 * Items whose name matches the query, best first, and the answer: the only match, or the best
 * when it leads the runner-up by MARGIN; undefined when nothing matches or the lead is too small.
 */
export function rankNames<T>(
  query: string,
  items: readonly T[],
  nameOf: (t: T) => string,
  wn?: WordNet,
): { ranked: Ranked<T>[]; best?: Ranked<T> } {
  const q = objectTerms(query);
  const soft = new Set(possessors(query));
  let ranked: Ranked<T>[] = items
    .map((item) => ({ item, score: nameScore(q, objectTerms(nameOf(item)), soft), by: 'spelling' as const }))
    .filter((r) => r.score >= MIN_SCORE)
    .sort((a, b) => b.score - a.score);
  if (!ranked.length && wn?.available()) {
    const score = meaningScorer(query, wn);
    ranked = items
      .map((item) => ({ item, score: score(nameOf(item)), by: 'meaning' as const }))
      .filter((r) => r.score >= MIN_SCORE)
      .sort((a, b) => b.score - a.score);
  }
  const exact = ranked.filter((r) => nameOf(r.item).toLowerCase() === query.trim().toLowerCase());
  if (exact.length === 1) return { ranked, best: exact[0] };
  const [first, second] = ranked;
  const best = first && (!second || first.score - second.score >= MARGIN) ? first : undefined;
  return { ranked, best };
}
