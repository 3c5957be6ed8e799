/**
 * An embedder whose vectors are chosen by hand: each text gets the vector of the first pattern it
 * matches, so a test can put a question at an exact cosine to a fact (the confidence model's inputs).
 */
import type { Embedder } from '../../src/ai/types.js';

/** A unit vector of `dim` values from its first components (the rest 0). */
export const unitVector =
  (dim: number) =>
  (...xs: number[]): Float32Array => {
    const v = Float32Array.from({ length: dim }, (_, i) => xs[i] ?? 0);
    const n = Math.hypot(...v);
    return v.map((x) => x / n);
  };

/** Presents itself as use-lite, so recall applies use-lite's fitted model to these vectors. */
export function handMadeEmbedder(dim: number, table: [RegExp, Float32Array][], otherwise: Float32Array): Embedder {
  return {
    provider: 'use-lite',
    model: 'hand-made',
    dim,
    fingerprint: `hand-made:${dim}`,
    ping: async () => true,
    embed: async (texts: string[]) => texts.map((t) => table.find(([re]) => re.test(t))?.[1] ?? otherwise),
  } as Embedder;
}
