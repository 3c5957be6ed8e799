/**
 * Keyword coverage through WordNet: how much of a query a memory's terms say, directly or through
 * the query words' relatives (./wordnet.ts), in the stemmed space of the keyword index
 * (src/tiers/memory/text-match.ts `terms`: Porter stems of stopword-free words).
 *
 * Lemmas and stems are bridged once per query (`prepareQuery`): each raw query word is expanded by
 * WordNet (lemmas, synonyms, hypernyms…), and every relative is then tokenised like memory text, so
 * "geese" reaches a memory's `goos` and "hoover" its `vacuum cleaner` run. The prepared query is
 * reused across all candidates; per candidate the cost is one pass over its terms.
 *
 *   coverage = Σ_u w(u)·best(u) / Σ_u w(u)
 *
 * over the query's units u (a word, or a WordNet collocation such as "blood type"), w(u) the summed
 * weight (e.g. IDF) of u's stems, best(u) the largest weight of u's relatives present in the memory
 * (the stem itself 1, synonym 0.9, …; a relative of several words must appear as one run, in order).
 *
 * Sense, cheaply: a collocation of the query is one meaning. "blood type" is covered by "blood type"
 * or "blood group", not by "type 2 diabetes … blood sugar": when the collocation is not found, its
 * words count only at SPLIT of their own coverage (the stem-only coverage gave that pair 1.0).
 */
import { normalizeText, tokenize, STOPWORDS } from './text.js';
import type { WordNet, WordRel } from './wordnet.js';

/** Credit of a query collocation's words when the memory does not say the collocation. */
export const SPLIT = 0.4;

export interface Alt {
  /** Stems, in order; the first indexes the lookup. */
  run: string[];
  weight: number;
  rel: WordRel;
  /** The WordNet lemma (or query word) this run came from. */
  word: string;
}

export interface QueryUnit {
  text: string;
  /** Content stems of the unit (as terms() gives them for the query). */
  stems: string[];
  alts: Alt[];
  /** The words of a collocation of ≥ 2 content words, each a unit of its own (its fallback). */
  parts: QueryUnit[];
}

export interface PreparedQuery {
  text: string;
  /** The query's terms as text-match.ts `terms()` makes them. */
  terms: string[];
  units: QueryUnit[];
  /** Time spent preparing (ms). */
  ms: number;
  /** First stem of a run → (flat unit number, alt); flat numbering: units, then their parts. */
  lookup: Map<string, { u: number; alt: Alt }[]>;
  flat: QueryUnit[];
}

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu;
/** Raw words of a text, folded as text.ts folds them (possessive 's dropped, apostrophes removed). */
function rawWords(text: string): string[] {
  return [...normalizeText(text).matchAll(WORD)].map((m) => m[0].replace(/['’]s$/, '').replace(/['’]/g, ''));
}

/** Max collocation length looked up in the query (WordNet has longer ones, rarely in a question). */
const MAX_COLLOCATION = 3;

export interface PrepareOptions {
  /** Only these relations (default all): an event trigger takes synonyms, not "a kind of". */
  rels?: ReadonlySet<WordRel>;
}

function unitOf(wn: WordNet, words: string[], self: string[], opts: PrepareOptions = {}): QueryUnit {
  const text = words.join(' ');
  const best = new Map<string, Alt>();
  const put = (alt: Alt) => {
    if (!alt.run.length) return;
    const k = alt.run.join(' ');
    const had = best.get(k);
    if (!had || had.weight < alt.weight) best.set(k, alt);
  };
  put({ run: self, weight: 1, rel: 'self', word: text });
  for (const e of wn.expand(words.join('_'))) {
    if (opts.rels && !opts.rels.has(e.rel)) continue;
    const run = stemsOf(e.word);
    // A relative made of the collocation's own words ("blood" for "blood type") would let them
    // count apart again: the words alone are the SPLIT fallback below.
    if (self.length > 1 && run.every((s) => self.includes(s))) continue;
    put({ run, weight: e.weight, rel: e.rel, word: e.word });
  }
  return { text, stems: self, alts: [...best.values()], parts: [] };
}

const unique = (xs: string[]) => [...new Set(xs)];

// Relatives recur across queries; their stems are memoised (cleared wholesale at the cap, like text.ts).
const STEMS_MAX = 20_000;
const stemsCache = new Map<string, string[]>();
function stemsOf(lemma: string): string[] {
  let s = stemsCache.get(lemma);
  if (!s) {
    s = unique(tokenize(lemma));
    if (stemsCache.size >= STEMS_MAX) stemsCache.clear();
    stemsCache.set(lemma, s);
  }
  return s;
}

/** Expands a query once (reuse the result for every candidate). Without WordNet, units hold only their own stems. */
export function prepareQuery(wn: WordNet | undefined, text: string, opts: PrepareOptions = {}): PreparedQuery {
  const t0 = performance.now();
  const words = rawWords(text);
  const terms = unique(tokenize(text));
  const units: QueryUnit[] = [];
  const taken = new Set<string>();
  const useWn = wn?.available() ?? false;
  for (let i = 0; i < words.length; ) {
    let unit: QueryUnit | undefined;
    let len = 1;
    if (useWn) {
      for (let k = Math.min(MAX_COLLOCATION, words.length - i); k >= 2 && !unit; k--) {
        const span = words.slice(i, i + k);
        // A collocation starts and ends with a content word ("look after" is one; "the keys" is not).
        if (STOPWORDS.has(span[k - 1]) && k > 2) continue;
        if (STOPWORDS.has(span[0])) continue;
        if (!wn!.lemmas(span.join('_')).length) continue;
        const stems = unique(tokenize(span.join(' ')));
        if (!stems.length) continue;
        unit = unitOf(wn!, span, stems, opts);
        if (stems.length > 1)
          unit.parts = span.filter((w) => tokenize(w).length).map((w) => unitOf(wn!, [w], unique(tokenize(w)), opts));
        len = k;
      }
    }
    if (!unit) {
      const stems = unique(tokenize(words[i]));
      if (stems.length)
        unit = useWn
          ? unitOf(wn!, [words[i]], stems, opts)
          : { text: words[i], stems, alts: [{ run: stems, weight: 1, rel: 'self', word: words[i] }], parts: [] };
    }
    i += len;
    if (!unit) continue;
    // Each stem counts once in the query (terms() is a set): a repeated word adds no unit.
    const fresh = unit.stems.filter((s) => !taken.has(s));
    if (!fresh.length) continue;
    fresh.forEach((s) => taken.add(s));
    unit.stems = fresh;
    units.push(unit);
  }
  const flat = [...units, ...units.flatMap((u) => u.parts)];
  const lookup = new Map<string, { u: number; alt: Alt }[]>();
  flat.forEach((unit, u) => {
    for (const alt of unit.alts) {
      const list = lookup.get(alt.run[0]);
      if (list) list.push({ u, alt });
      else lookup.set(alt.run[0], [{ u, alt }]);
    }
  });
  const ms = performance.now() - t0;
  if (useWn) wn!.recordQuery(ms);
  return { text, terms, units, ms, lookup, flat };
}

export interface UnitMatch {
  text: string;
  score: number;
  /** The relative found in the memory, and how it relates. */
  via: string | null;
  rel: WordRel | 'split' | null;
}

function runAt(doc: readonly string[], i: number, run: readonly string[]): boolean {
  for (let k = 1; k < run.length; k++) if (doc[i + k] !== run[k]) return false;
  return true;
}

/**
 * Per-unit coverage of a prepared query by a memory's terms. `doc` in order (as stored: `terms.split(' ')`)
 * lets runs be checked; a Set accepts a run when all its stems are present.
 */
export function coverageDetail(
  q: PreparedQuery,
  doc: readonly string[] | ReadonlySet<string>,
  weightOf: (stem: string) => number = () => 1,
): { coverage: number; units: UnitMatch[] } {
  const ordered = Array.isArray(doc);
  const arr: readonly string[] = ordered ? (doc as readonly string[]) : [...doc];
  const set = ordered ? new Set(arr) : (doc as ReadonlySet<string>);
  const best: { score: number; alt: Alt | null }[] = q.flat.map(() => ({ score: 0, alt: null }));
  for (let i = 0; i < arr.length; i++) {
    for (const { u, alt } of q.lookup.get(arr[i]) ?? []) {
      if (alt.weight <= best[u].score) continue;
      if (alt.run.length > 1 && !(ordered ? runAt(arr, i, alt.run) : alt.run.every((s) => set.has(s)))) continue;
      best[u] = { score: alt.weight, alt };
    }
  }
  let total = 0;
  let hit = 0;
  const units: UnitMatch[] = q.units.map((unit, u) => {
    let score = best[u].score;
    let via = best[u].alt?.word ?? null;
    let rel: UnitMatch['rel'] = best[u].alt?.rel ?? null;
    if (unit.parts.length && score < 1) {
      const base = q.flat.indexOf(unit.parts[0]);
      const parts = unit.parts.map((_, k) => best[base + k].score);
      const pw = unit.parts.map((p) => p.stems.reduce((a, s) => a + weightOf(s), 0));
      const sum = pw.reduce((a, b) => a + b, 0);
      const split = sum > 0 ? (SPLIT * parts.reduce((a, x, k) => a + x * pw[k], 0)) / sum : 0;
      if (split > score)
        (score = split),
          (via = unit.parts
            .filter((_, k) => parts[k] > 0)
            .map((p) => p.text)
            .join(' ')),
          (rel = 'split');
    }
    const w = unit.stems.reduce((a, s) => a + weightOf(s), 0);
    total += w;
    hit += w * score;
    return { text: unit.text, score: Math.round(score * 1000) / 1000, via, rel };
  });
  return { coverage: total > 0 ? hit / total : 0, units };
}

/** How much of the query the memory's terms cover, directly or through WordNet relatives (0..1). */
export function wordnetCoverage(
  q: PreparedQuery,
  doc: readonly string[] | ReadonlySet<string>,
  weightOf?: (stem: string) => number,
): number {
  return coverageDetail(q, doc, weightOf).coverage;
}
