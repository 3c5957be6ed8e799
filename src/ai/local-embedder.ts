/**
 * The offline default embedder (SPEC §4): deterministic, no model download, no network. One
 * L2-normalised vector of two concatenated parts:
 *
 *   lexical  (dim − 100 values) feature hashing of what the text literally says: shared words,
 *            word pairs, character n-grams and shared household concepts (./concepts.ts). Sharp:
 *            unrelated texts are near-orthogonal, which keeps recall's evidence gate able to say
 *            "nothing matches".
 *   semantic (100 values) a smooth-inverse-frequency-weighted sum of shipped GloVe word vectors
 *            (./word-vectors.ts; Arora et al. 2017, "A Simple but Tough-to-Beat Baseline for
 *            Sentence Embeddings"): reach for paraphrases that share no word ("bouquet" ~ "flowers",
 *            "antibiotic" ~ "penicillin"). Blurry: it raises every pair's similarity a little.
 *
 * Each part is normalised on its own, then weighted so that the semantic part carries
 * SEMANTIC_SHARE of the squared norm: cosine = (1 − s)·cos_lexical + s·cos_semantic. A text none of
 * whose words has a vector keeps its lexical part alone (at full weight).
 *
 * Lexical features and weights (squared weight ≈ share of the lexical part's energy):
 *   word stem            1.0   the main signal
 *   word-stem bigram     0.5   word order / compounds ("bedroom light" ≠ "light bedroom")
 *   char 3/4-grams       0.2   each, over `<stem>` — typos and morphology the stemmer misses
 *   concept:<name>       0.7   once per concept per text — paraphrase overlap
 * Each feature is hashed (FNV-1a + murmur3 finaliser) to a bucket; one hash bit picks the sign
 * (Weinberger et al. 2009, "Feature Hashing for Large Scale Multitask Learning") so collisions
 * cancel on average instead of always inflating similarity.
 */
import { HubError } from '../lib/errors.js';
import type { Embedder } from './types.js';
import { CONCEPTS } from './concepts.js';
import { analyze } from './text.js';
import { loadWordVectors } from './word-vectors.js';

const MODEL = 'hearth-local-v2';
/** Default vector length (lexical 284 + semantic 100): small enough for a Pi, large enough that short facts rarely collide. */
export const LOCAL_DEFAULT_DIM = 384;
/** Length of the semantic part: the shipped word vectors' dimension. */
const SEMANTIC_DIM = 100;
/** Fewest hashed buckets worth having. */
const MIN_LEXICAL_DIM = 16;
/**
 * Share of a vector's squared norm given to the semantic part. More reaches further for
 * paraphrases but lifts unrelated pairs too, which costs abstention; 0.5, 0.6 and 0.7 were compared
 * on eval/household.json, each at its best recall thresholds (src/tiers/memory/recall.ts).
 */
const SEMANTIC_SHARE = 0.6;

const W_WORD = 1.0;
const W_BIGRAM = 0.5;
const W_CHAR = 0.2;
const W_CONCEPT = 0.7;

// Feature namespaces: hashing a type tag first keeps "word:tv" and "concept:tv" apart.
const NS_WORD = 0x57; // 'W'
const NS_BIGRAM = 0x42; // 'B'
const NS_CHAR = 0x43; // 'C'
const NS_CONCEPT = 0x4b; // 'K'

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** FNV-1a over `s[start, end)` (UTF-16 code units), continuing from state `h`. No allocation. */
function fnv(h: number, s: string, start = 0, end = s.length): number {
  for (let i = start; i < end; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, FNV_PRIME);
  }
  return h;
}

function fnvByte(h: number, b: number): number {
  return Math.imul(h ^ b, FNV_PRIME);
}

/** murmur3 fmix32: FNV's low bits are weak for short keys; this spreads them before `% dim`. */
function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function seed(ns: number): number {
  return fnvByte(FNV_OFFSET, ns);
}

/** Add `w` at the signed bucket (of `n`, from index 0) of raw hash `h`: bit 31 decides the sign, the rest the bucket. */
function addFeature(vec: Float32Array, n: number, h: number, w: number): void {
  const m = fmix(h);
  vec[(m & 0x7fffffff) % n] += m & 0x80000000 ? -w : w;
}

/** Thesaurus compiled once at import: stems and stem pairs → concept ids. */
interface ConceptIndex {
  /** Raw (pre-fmix) hash of `concept:<name>` per concept id. */
  hashes: number[];
  unigrams: Map<string, number[]>;
  bigrams: Map<string, number[]>;
  /** First stems of bigram entries: skips building a pair key for most adjacent words. */
  bigramHeads: Set<string>;
}

function push(map: Map<string, number[]>, key: string, id: number): void {
  const ids = map.get(key);
  if (!ids) map.set(key, [id]);
  else if (!ids.includes(id)) ids.push(id);
}

/** Analyse every thesaurus entry with the text tokenizer, so entries and text stem alike. */
function compileConcepts(concepts: Readonly<Record<string, string>>): ConceptIndex {
  const index: ConceptIndex = { hashes: [], unigrams: new Map(), bigrams: new Map(), bigramHeads: new Set() };
  for (const [name, list] of Object.entries(concepts)) {
    const id = index.hashes.length;
    index.hashes.push(fnv(seed(NS_CONCEPT), name));
    for (const entry of list.split(',')) {
      // `am`/`pm` are stopwords unless they follow a number (see text.ts), so analyse as a time.
      const e = entry.trim();
      const stems = (e === 'am' || e === 'pm' ? analyze(`1${e}`).slice(1) : analyze(e)).map((t) => t.stem);
      if (stems.length === 1) push(index.unigrams, stems[0], id);
      else if (stems.length === 2) {
        push(index.bigrams, `${stems[0]} ${stems[1]}`, id);
        index.bigramHeads.add(stems[0]);
      }
      // Entries that analyse to 0 or >2 words are unusable; test/ai/local-embedder.test.ts guards that.
    }
  }
  return index;
}

const CONCEPT_INDEX = compileConcepts(CONCEPTS);

/** The local embedder; `embedSync` is the same function without the Promise, for hot paths. */
export interface LocalEmbedder extends Embedder {
  embedSync(text: string): Float32Array;
}

/**
 * Create the offline embedder. Same text → bit-identical vector on every machine, so its vectors
 * never need re-embedding unless `dim` or the model version changes (the fingerprint records both).
 * The first call reads the shipped word vectors (assets/word-vectors-en.bin, ~20 ms).
 * Text with no content words (empty, punctuation, only stopwords) embeds to an all-zero vector,
 * which callers treat as "no evidence" (cosine with it is 0, never NaN, by convention).
 */
export function createLocalEmbedder(opts: { dim?: number } = {}): LocalEmbedder {
  const dim = opts.dim ?? LOCAL_DEFAULT_DIM;
  const minDim = SEMANTIC_DIM + MIN_LEXICAL_DIM;
  if (!Number.isInteger(dim) || dim < minDim || dim > 65_536) {
    throw new HubError('invalid', `local embedder dim must be an integer in ${minDim}..65536, got ${dim}`);
  }
  const words = loadWordVectors();
  if (words.dim !== SEMANTIC_DIM)
    throw new HubError('internal', `local embedder: word vectors have ${words.dim} dims, expected ${SEMANTIC_DIM}`);
  const lexDim = dim - SEMANTIC_DIM;
  const lexWeight = Math.sqrt(1 - SEMANTIC_SHARE);
  const semWeight = Math.sqrt(SEMANTIC_SHARE);
  const seedWord = seed(NS_WORD);
  const seedBigram = seed(NS_BIGRAM);
  const seedChar = seed(NS_CHAR);
  // Per-call "seen" marks for concepts without a Set allocation: a mark equal to the call's stamp means seen.
  const conceptStamp = new Uint32Array(CONCEPT_INDEX.hashes.length);
  let stamp = 0;

  function addConcepts(vec: Float32Array, ids: number[] | undefined): void {
    if (!ids) return;
    for (const id of ids) {
      if (conceptStamp[id] === stamp) continue;
      conceptStamp[id] = stamp;
      addFeature(vec, lexDim, CONCEPT_INDEX.hashes[id], W_CONCEPT);
    }
  }

  function embedSync(text: string): Float32Array {
    const vec = new Float32Array(dim);
    const tokens = analyze(text);
    if (tokens.length === 0) return vec;
    stamp = (stamp + 1) >>> 0 || 1; // 0 is the initial mark, never a live stamp

    for (let t = 0; t < tokens.length; t++) {
      const s = tokens[t].stem;
      addFeature(vec, lexDim, fnv(seedWord, s), W_WORD);

      // Character n-grams over "<stem>", hashed straight from char codes (no substring per n-gram).
      const padded = `<${s}>`;
      for (let n = 3; n <= 4; n++) {
        for (let i = 0; i + n <= padded.length; i++) addFeature(vec, lexDim, fnv(seedChar, padded, i, i + n), W_CHAR);
      }

      addConcepts(vec, CONCEPT_INDEX.unigrams.get(s));

      // Semantic part: the word's vector (SIF weight already folded in), else its stem's ("colours" → "colour").
      let w = words.lookup(tokens[t].word);
      if (w < 0 && s !== tokens[t].word) w = words.lookup(s);
      if (w >= 0) words.addTo(vec, lexDim, w);

      if (t > 0) {
        const prev = tokens[t - 1].stem;
        addFeature(vec, lexDim, fnv(fnvByte(fnv(seedBigram, prev), 0x20), s), W_BIGRAM);
        if (CONCEPT_INDEX.bigramHeads.has(prev)) addConcepts(vec, CONCEPT_INDEX.bigrams.get(`${prev} ${s}`));
      }
    }

    let lex = 0;
    for (let i = 0; i < lexDim; i++) lex += vec[i] * vec[i];
    let sem = 0;
    for (let i = lexDim; i < dim; i++) sem += vec[i] * vec[i];
    // Signed hashing can cancel a lone feature pair exactly; then there is no evidence either.
    if (lex === 0) return vec.fill(0);
    const lexScale = (sem > 0 ? lexWeight : 1) / Math.sqrt(lex);
    for (let i = 0; i < lexDim; i++) vec[i] *= lexScale;
    if (sem > 0) {
      const semScale = semWeight / Math.sqrt(sem);
      for (let i = lexDim; i < dim; i++) vec[i] *= semScale;
    }
    return vec;
  }

  return {
    provider: 'local',
    model: MODEL,
    dim,
    fingerprint: `${MODEL}:${dim}`,
    note:
      'local embedder (hashed words, word pairs, character n-grams and a household thesaurus, plus averaged ' +
      'GloVe word vectors): offline and deterministic, but mostly lexical and much weaker than a neural model ' +
      'on paraphrases; set MEMORY_AI_PROVIDER=ollama or openai for semantic recall',
    embedSync,
    async embed(texts: string[]): Promise<Float32Array[]> {
      return texts.map(embedSync);
    },
    async ping(): Promise<boolean> {
      return true;
    },
  };
}
