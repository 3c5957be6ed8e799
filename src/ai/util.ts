/** Small helpers shared by the remote providers (ollama.ts, openai.ts). */
import { HubError } from '../lib/errors.js';

/** `ping()` budget: a health probe must answer fast even when the model call timeout is long. */
export const PING_TIMEOUT_MS = 2000;

/**
 * Copy a backend vector into an L2-normalised Float32Array. An all-zero vector stays zero
 * (callers read it as "no evidence"); NaN/Infinity means a broken backend, not a fact about the text.
 */
export function l2normalize(v: ArrayLike<number>): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (typeof x !== 'number' || !Number.isFinite(x)) {
      throw new HubError('unavailable', `embedding backend returned a non-numeric component at index ${i}`);
    }
    sum += x * x;
  }
  const out = new Float32Array(v.length);
  const inv = sum > 0 ? 1 / Math.sqrt(sum) : 0;
  for (let i = 0; i < v.length; i++) out[i] = v[i] * inv;
  return out;
}

/**
 * One line for a failed `fetch`: timeouts name the setting that controls them; connection errors
 * show the socket error code (Node puts it on `cause`: `TypeError('fetch failed')` says nothing).
 */
export function describeFetchError(e: unknown, timeoutMs: number): string {
  const err = e as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (err?.name === 'TimeoutError') return `timed out after ${timeoutMs} ms (MEMORY_AI_TIMEOUT)`;
  if (err?.name === 'ResponseTooLargeError') return String(err.message);
  if (err?.name === 'AbortError') return 'request aborted';
  const cause = err?.cause;
  if (cause?.message || cause?.code) return String(cause.message || cause.code).slice(0, 200);
  return String(err?.message ?? e).slice(0, 200);
}

/** Embeds `texts` in batches of `size`, one request after another, in order. */
export async function inBatches(
  texts: string[],
  size: number,
  embedBatch: (batch: string[]) => Promise<Float32Array[]>,
): Promise<Float32Array[]> {
  const out: Float32Array[] = [];
  for (let i = 0; i < texts.length; i += size) out.push(...(await embedBatch(texts.slice(i, i + size))));
  return out;
}
