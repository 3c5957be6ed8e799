/**
 * A cap on how much of an AI backend's answer the hub reads (issue #26 item 13). A misbehaving or
 * hostile OpenAI-compatible / Ollama server can answer with hundreds of MB; `res.text()` or
 * `res.json()` would hold all of it (a 160 MB reply took the hub from 127 to 594 MB, past the
 * unit's MemoryMax). Every remote AI call goes through `cappedFetch`: a declared `content-length`
 * over the cap is refused before reading, and a body without one is counted as it streams and
 * aborted (the socket closed) at the first byte past the cap.
 */

/** Default cap. The largest honest answer is an embeddings batch: 64 texts × 3072 dims × ~22 bytes ≈ 4.3 MB. */
export const MAX_AI_RESPONSE_BYTES = 16 * 1024 * 1024;

export class ResponseTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(
      `the answer is larger than ${formatBytes(maxBytes)}, the most the hub reads from an AI backend; check that MEMORY_AI_BASE_URL points at the model server`,
    );
    this.name = 'ResponseTooLargeError';
  }
}

const formatBytes = (n: number) =>
  n >= 1024 * 1024 && n % (1024 * 1024) === 0 ? `${n / (1024 * 1024)} MiB` : `${n} bytes`;

/** `res` with a body that errors with ResponseTooLargeError past `maxBytes` (throws at once when `content-length` says so). */
export function capResponse(res: Response, maxBytes: number): Response {
  if (!res.body) return res;
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    void res.body.cancel().catch(() => {});
    throw new ResponseTooLargeError(maxBytes);
  }
  let seen = 0;
  const counter = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      // Erroring the transform cancels the source stream, which aborts the underlying connection.
      if (seen > maxBytes) controller.error(new ResponseTooLargeError(maxBytes));
      else controller.enqueue(chunk);
    },
  });
  return new Response(res.body.pipeThrough(counter), {
    status: res.status,
    statusText: res.statusText,
    headers: res.headers,
  });
}

/** `fetch` with a timeout over connect, headers and body, and the response-size cap. */
export function cappedFetch(timeoutMs: number, maxBytes = MAX_AI_RESPONSE_BYTES): typeof fetch {
  return async (input, init) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    return capResponse(await fetch(input, { ...init, signal }), maxBytes);
  };
}
