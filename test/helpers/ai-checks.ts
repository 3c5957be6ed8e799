/** Checks shared by the AI client tests (ollama, openai). */
import { expect } from 'vitest';
import { HubError } from '../../src/lib/errors.js';

/** Euclidean length of a vector. */
export const norm = (a: Float32Array) => Math.sqrt(a.reduce((s, x) => s + x * x, 0));

/** An `embed` for the fakes: one-hot-ish vector (`hot` at the text's number mod `dim`), so order is checkable after normalisation. */
export const tagged = (dim: number, hot: number) => (text: string) => {
  const v = new Array<number>(dim).fill(0);
  v[Number(text.replace(/\D/g, '')) % dim] = hot;
  return v;
};

/** The HubError a promise rejects with (fails the test if it resolves or rejects with something else). */
export async function rejection(p: Promise<unknown>): Promise<HubError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(HubError);
  return err as HubError;
}
