/**
 * Ollama provider (SPEC §4) over the official `ollama` npm client. The client has no timeout or
 * size option and reads answers with `response.json()`, so every instance gets a `fetch` wrapper
 * (capped-fetch.ts) that attaches `AbortSignal.timeout` — bounding connect, headers *and* body,
 * which a hung model load would otherwise hold forever — and caps the bytes read from the body.
 */
import { Ollama } from 'ollama';
import { HubError } from '../lib/errors.js';
import type { ChatMessage, Embedder, Llm } from './types.js';
import { cappedFetch, MAX_AI_RESPONSE_BYTES } from './capped-fetch.js';
import { describeFetchError, inBatches, PING_TIMEOUT_MS, l2normalize } from './util.js';

export interface OllamaEmbedderOptions {
  /** `MEMORY_AI_BASE_URL`, e.g. `http://localhost:11434` (a trailing `/v1` is tolerated). */
  baseUrl: string;
  model: string;
  /** Expected vector length (`MEMORY_EMBED_DIM`); any other length is rejected. */
  dim: number;
  timeoutMs: number;
  /** Most bytes read from one answer (default MAX_AI_RESPONSE_BYTES); past it the call fails, 503. */
  maxResponseBytes?: number;
}

export interface OllamaLlmOptions {
  baseUrl: string;
  model: string;
  timeoutMs: number;
  maxResponseBytes?: number;
}

// One request per 32 texts: a reembed of thousands of memories must not become one giant request
// that can only time out as a whole.
const EMBED_BATCH = 32;

/**
 * The Ollama host for the client: trailing slashes and a trailing `/v1` removed. Users coming from
 * the seed often configure the OpenAI-compatible `http://host:11434/v1`; the native API is at the root.
 */
export function ollamaHost(baseUrl: string): string {
  return baseUrl.trim().replace(/\/+$/, '').replace(/\/v1$/, '');
}

function client(host: string, timeoutMs: number, maxBytes = MAX_AI_RESPONSE_BYTES): Ollama {
  return new Ollama({ host, fetch: cappedFetch(timeoutMs, maxBytes) });
}

function unavailable(what: string, host: string, timeoutMs: number, e: unknown): HubError {
  // The client throws ResponseError { error, status_code } for non-2xx, e.g. 404 "model not found".
  const status = (e as { status_code?: unknown })?.status_code;
  const detail =
    typeof status === 'number'
      ? `HTTP ${status}: ${String((e as Error).message).slice(0, 200)}`
      : describeFetchError(e, timeoutMs);
  return new HubError('unavailable', `ollama ${what} at ${host} failed: ${detail}`);
}

/** True when an Ollama server answers `GET /api/tags` within `timeoutMs` (default 2 s). Never throws. */
export async function pingOllama(baseUrl: string, timeoutMs = PING_TIMEOUT_MS): Promise<boolean> {
  try {
    await client(ollamaHost(baseUrl), timeoutMs).list();
    return true;
  } catch {
    return false;
  }
}

/** Embeddings from Ollama's `POST /api/embed`; vectors are checked against `dim` and L2-normalised. */
export function createOllamaEmbedder(opts: OllamaEmbedderOptions): Embedder {
  const host = ollamaHost(opts.baseUrl);
  const api = client(host, opts.timeoutMs, opts.maxResponseBytes);
  const { model, dim } = opts;

  async function embedBatch(texts: string[]): Promise<Float32Array[]> {
    let embeddings: number[][];
    try {
      ({ embeddings } = await api.embed({ model, input: texts }));
    } catch (e) {
      throw unavailable('embed', host, opts.timeoutMs, e);
    }
    if (!Array.isArray(embeddings) || embeddings.length !== texts.length) {
      throw new HubError(
        'unavailable',
        `ollama embed at ${host} returned ${Array.isArray(embeddings) ? embeddings.length : 'no'} vectors for ${texts.length} texts`,
      );
    }
    return embeddings.map((v) => {
      if (!Array.isArray(v) || v.length !== dim) {
        throw new HubError(
          'unavailable',
          `ollama model ${model} returned vectors of length ${Array.isArray(v) ? v.length : 'unknown'}, ` +
            `but MEMORY_EMBED_DIM is ${dim}; set MEMORY_EMBED_DIM=${Array.isArray(v) ? v.length : '?'} (and run reembed) or pick another model`,
        );
      }
      return l2normalize(v);
    });
  }

  return {
    provider: 'ollama',
    model,
    base_url: host,
    dim,
    fingerprint: `${model}:${dim}`,
    embed: (texts: string[]) => inBatches(texts, EMBED_BATCH, embedBatch),
    ping: () => pingOllama(host),
  };
}

/** Chat completions from Ollama's `POST /api/chat` (non-streaming). */
export function createOllamaLlm(opts: OllamaLlmOptions): Llm {
  const host = ollamaHost(opts.baseUrl);
  const api = client(host, opts.timeoutMs, opts.maxResponseBytes);
  const { model } = opts;
  return {
    provider: 'ollama',
    model,
    base_url: host,
    async chat(messages: ChatMessage[], o: { json?: boolean; temperature?: number } = {}): Promise<string> {
      let content: unknown;
      try {
        const res = await api.chat({
          model,
          messages,
          stream: false,
          ...(o.json ? { format: 'json' } : {}),
          ...(o.temperature !== undefined ? { options: { temperature: o.temperature } } : {}),
        });
        content = res?.message?.content;
      } catch (e) {
        throw unavailable('chat', host, opts.timeoutMs, e);
      }
      if (typeof content !== 'string')
        throw new HubError('unavailable', `ollama chat at ${host} returned no message content`);
      return content;
    },
    ping: () => pingOllama(host),
  };
}
