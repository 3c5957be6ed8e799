/**
 * Word-level text analysis shared by the local embedder (SPEC §4) and the keyword index: one place
 * decides what a "word" is, so lexical recall and hashed vectors agree about the same text.
 */
import { stemmer } from 'stemmer';

/**
 * English stopwords: function words that carry no topic. Negations (`not`, `no`, `never`) and
 * switch words (`on`, `off`, `up`, `down`) are deliberately *kept* — in a home "lights off" and
 * "doesn't like mushrooms" hinge on them.
 */
export const STOPWORDS: ReadonlySet<string> = new Set(
  `a about above after again against all am an and any are as at be because been before being below
  between both but by can could did do does doing during each few for from further had has have
  having he her here hers herself him himself his how i if in into is it its itself just me more most
  my myself of once only or other our ours ourselves out over own same she should so some such than
  that the their theirs them themselves then there these they this those through to too under until
  very was we were what when where which while who whom why will with would you your yours yourself
  yourselves also etc let lets may might must shall us ve ll re d s t m o y im ive id youre theyre
  thats theres whats whos heres`
    .split(/\s+/)
    .filter(Boolean),
);

/** One analysed word: the folded surface form (for character n-grams) and its Porter stem. */
export interface WordToken {
  word: string;
  stem: string;
}

// Porter stemming is the hot path of embedding; words repeat heavily across a household's facts.
// The cap bounds memory for long-running hubs fed arbitrary text (cleared wholesale: cheap and good enough).
const STEM_CACHE_MAX = 20_000;
const stemCache = new Map<string, string>();

/** Porter stem of an already lower-cased word, memoised. Words over 40 chars are left unstemmed. */
export function stem(word: string): string {
  let s = stemCache.get(word);
  if (s === undefined) {
    s = word.length > 40 ? word : stemmer(word);
    if (stemCache.size >= STEM_CACHE_MAX) stemCache.clear();
    stemCache.set(word, s);
  }
  return s;
}

const NON_ASCII = /[^\x00-\x7f]/;
const COMBINING_MARKS = /\p{M}+/gu;
// A word is a run of letters/digits; an apostrophe inside it ("don't", "Brian's") is folded below.
const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu;
const TIME_SUFFIX = /^(\d{1,2})([ap]m)$/;
const DIGITS = /^\d+$/;

/**
 * Lower-case, NFKD-normalise and strip diacritics (`Café` → `cafe`, `ﬁ` → `fi`), and spell out
 * the degree sign so `68°F` reads as "68 degrees f" for both recall paths.
 */
export function normalizeText(text: string): string {
  let t = text.toLowerCase();
  if (NON_ASCII.test(t)) {
    t = t.normalize('NFKD').replace(COMBINING_MARKS, '').replace(/°/g, ' degrees ');
  }
  return t;
}

/**
 * Analyse text into stopword-free words with stems, in order. Possessive `'s` is dropped
 * (`Brian's` → `brian`), other apostrophes are removed (`don't` → `dont`, kept as a word so
 * negation survives), single letters are dropped, digits are kept, clock times keep `am`/`pm`.
 */
export function analyze(text: string): WordToken[] {
  const out: WordToken[] = [];
  let afterNumber = false;
  for (const m of normalizeText(text).matchAll(WORD)) {
    let w = m[0];
    if (w.length > 1 && (w.includes("'") || w.includes('’'))) {
      w = w.replace(/['’]s$/, '').replace(/['’]/g, '');
    }
    // Clock times: "7am" / "10:30 pm" → number + `am`|`pm`. `am` is a stopword ("I am") except
    // right after a number, where it is the part of the fact that says *when*.
    const time = TIME_SUFFIX.exec(w);
    if (time) {
      out.push({ word: time[1], stem: time[1] }, { word: time[2], stem: time[2] });
      afterNumber = false;
      continue;
    }
    if (afterNumber && (w === 'am' || w === 'pm')) {
      out.push({ word: w, stem: w });
      afterNumber = false;
      continue;
    }
    afterNumber = DIGITS.test(w);
    if (w.length === 1 && !afterNumber) continue;
    if (STOPWORDS.has(w)) continue;
    out.push({ word: w, stem: stem(w) });
  }
  return out;
}

/**
 * The stemmed, stopword-free word tokens of `text`, in order (duplicates kept).
 * `tokenize("Brian's keeping the bedroom at 68°F")` → `['brian', 'keep', 'bedroom', '68', 'degre']`.
 */
export function tokenize(text: string): string[] {
  return analyze(text).map((t) => t.stem);
}
