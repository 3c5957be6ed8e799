/**
 * Voice prints: storage and the arithmetic on them. A print is an L2-normalised float32 vector, so
 * the cosine similarity of two prints is their dot product.
 */
import type { Clock } from '../../lib/clock.js';
import { invalid } from '../../lib/errors.js';
import type { PrintRow, VoicesRepo } from './voices.repo.js';

/**
 * Cosine similarity a voice needs to count as a known speaker. Speaker-verification models
 * (ECAPA-TDNN, resemblyzer) put two utterances of one speaker mostly above ~0.75 and of two
 * speakers mostly below ~0.6; 0.75 favours a new provisional speaker (merged later with one call)
 * over putting words in the wrong person's mouth. Overridable per request (`threshold`).
 */
export const VOICE_MATCH_THRESHOLD = 0.75;

export function normalise(v: readonly number[] | Float32Array, field = 'embedding'): Float32Array {
  let sum = 0;
  for (const x of v) sum += x * x;
  const norm = Math.sqrt(sum);
  if (!(norm > 1e-12) || !Number.isFinite(norm))
    throw invalid(`${field}: a zero (or non-finite) vector cannot identify a voice`);
  return Float32Array.from(v, (x) => x / norm);
}

export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/** `old` moved toward `sample` by `weight` (0–1), re-normalised. */
export const blend = (old: Float32Array, sample: Float32Array, weight: number) =>
  normalise(Float32Array.from(old, (x, i) => (1 - weight) * x + weight * sample[i]));

const toBlob = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);
// Copied: a Buffer's byteOffset need not be a multiple of 4.
const fromBlob = (b: Buffer) => new Float32Array(new Uint8Array(b).buffer);

export interface Print {
  entity_id: number;
  embedding: Float32Array;
  samples: number;
  updated: number;
}

export function createPrintStore(repo: VoicesRepo, clock: Clock) {
  const row = (r: PrintRow | undefined): Print | undefined => r && { ...r, embedding: fromBlob(r.embedding) };
  return {
    /** The installation's embedding length, or undefined before the first print. */
    dim: () => repo.settings()?.dim,
    /** Checks a sample against the fixed length and normalises it; the first sample fixes the length. */
    accept(v: readonly number[], field = 'embedding'): Float32Array {
      const dim = this.dim();
      if (dim !== undefined && v.length !== dim) {
        throw invalid(
          `${field}: expected ${dim} numbers (this installation's voice embedding size, fixed by its first voice print), got ${v.length}`,
        );
      }
      return normalise(v, field);
    },
    /** Stores a print; fixes the dimension on first use. Caller owns the transaction. */
    put(entityId: number, v: Float32Array, samples: number): void {
      this.fixDim(v.length);
      repo.upsert(entityId, toBlob(v), samples, clock.now());
    },
    fixDim(dim: number): void {
      repo.fixDim(dim, clock.now());
    },
    get: (entityId: number) => row(repo.get(entityId)),
    all: () => repo.all().map((r) => row(r)!),
    remove: (entityId: number) => repo.remove(entityId),
    /** Takes the next `unknown_speaker_N` number (never reused). */
    nextUnknown(): number {
      const n = repo.settings()!.next_unknown;
      repo.setNextUnknown(n + 1);
      return n;
    },
  };
}
export type PrintStore = ReturnType<typeof createPrintStore>;
