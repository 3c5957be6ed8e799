/**
 * OpenAI-compatible provider (SPEC §4): any server speaking `/v1/embeddings` and
 * `/v1/chat/completions` (OpenAI, LM Studio, vLLM, llama.cpp server, LocalAI, Ollama's `/v1`).
 * Spoken directly with Node's global `fetch` — two POSTs don't justify an SDK dependency.
 */
import { HubError } from '../lib/errors.js';
import type { ChatMessage, Embedder, Llm } from './types.js';
import { cappedFetch, MAX_AI_RESPONSE_BYTES } from './capped-fetch.js';
import { describeFetchError, inBatches, PING_TIMEOUT_MS, l2normalize } from './util.js';

export interface OpenAiEmbedderOptions {
  /** `MEMORY_AI_BASE_URL`; `/v1` is appended when missing. */
  baseUrl: string;
  /** `MEMORY_AI_API_KEY`; sent as `Authorization: Bearer` only when set, never logged. */
  apiKey?: string;
  model: string;
  /** Expected vector length (`MEMORY_EMBED_DIM`); any other length is rejected. */
  dim: number;
  timeoutMs: number;
  /** Most bytes read from one answer (default MAX_AI_RESPONSE_BYTES); past it the call fails, 503. */
  maxResponseBytes?: number;
}

export interface OpenAiLlmOptions {
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
  maxResponseBytes?: number;
}

// Inputs per request: well under OpenAI's 2048 cap, and small enough that local servers
// (llama.cpp, LM Studio) finish a batch inside the timeout.
const EMBED_BATCH = 64;

/** API root ending in `/v1`: `http://h:1234` and `http://h:1234/v1/` both become `http://h:1234/v1`. */
export function openAiBase(baseUrl: string): string {
  const b = baseUrl.trim().replace(/\/+$/, '');
  return b.endsWith('/v1') ? b : `${b}/v1`;
}

/** Remove the key from anything we surface: some servers echo the bad key in their 401 body. */
function redact(text: string, apiKey?: string): string {
  return apiKey ? text.split(apiKey).join('***') : text;
}

function headers(apiKey: string | undefined, json: boolean): Record<string, string> {
  const h: Record<string, string> = { accept: 'application/json' };
  if (json) h['content-type'] = 'application/json';
  if (apiKey) h.authorization = `Bearer ${apiKey}`;
  return h;
}

interface Target {
  base: string;
  apiKey?: string;
  timeoutMs: number;
  maxBytes: number;
}

/** Where and how a provider's calls go: the API root, the key when set, the timeout and the answer's size cap. */
function targetOf(opts: OpenAiLlmOptions): Target {
  return {
    base: openAiBase(opts.baseUrl),
    apiKey: opts.apiKey || undefined,
    timeoutMs: opts.timeoutMs,
    maxBytes: opts.maxResponseBytes ?? MAX_AI_RESPONSE_BYTES,
  };
}

/** POST JSON and parse the JSON answer; every failure becomes `HubError('unavailable')`. */
async function post(t: Target, path: string, body: unknown, what: string): Promise<unknown> {
  const fail = (detail: string) =>
    new HubError('unavailable', redact(`openai-compatible ${what} at ${t.base}${path} failed: ${detail}`, t.apiKey));
  let text: string;
  let status: number;
  try {
    const res = await cappedFetch(t.timeoutMs, t.maxBytes)(`${t.base}${path}`, {
      method: 'POST',
      headers: headers(t.apiKey, true),
      body: JSON.stringify(body),
    });
    status = res.status;
    text = await res.text(); // inside the try: the timeout and the size cap also cover the body
  } catch (e) {
    throw fail(describeFetchError(e, t.timeoutMs));
  }
  if (status < 200 || status > 299) throw fail(`HTTP ${status}: ${redact(text, t.apiKey).slice(0, 200)}`);
  try {
    return JSON.parse(text);
  } catch {
    throw fail(`response is not JSON: ${redact(text, t.apiKey).slice(0, 200)}`);
  }
}

/** True when `GET {base}/models` answers 2xx within `timeoutMs` (default 2 s). Never throws. */
export async function pingOpenAi(baseUrl: string, apiKey?: string, timeoutMs = PING_TIMEOUT_MS): Promise<boolean> {
  try {
    const res = await fetch(`${openAiBase(baseUrl)}/models`, {
      headers: headers(apiKey, false),
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.body?.cancel(); // free the socket; only the status matters
    return res.ok;
  } catch {
    return false;
  }
}

interface EmbeddingsResponse {
  data?: Array<{ index?: number; embedding?: unknown }>;
}

/** Embeddings from `POST {base}/embeddings`, reordered by `index`, dim-checked, L2-normalised. */
export function createOpenAiEmbedder(opts: OpenAiEmbedderOptions): Embedder {
  const t = targetOf(opts);
  const { model, dim } = opts;

  async function embedBatch(texts: string[]): Promise<Float32Array[]> {
    const res = (await post(t, '/embeddings', { model, input: texts }, 'embed')) as EmbeddingsResponse;
    const data = Array.isArray(res?.data) ? [...res.data] : [];
    if (data.length !== texts.length) {
      throw new HubError(
        'unavailable',
        `openai-compatible embed at ${t.base} returned ${data.length} vectors for ${texts.length} texts`,
      );
    }
    // The API promises `index`, not order; servers that omit `index` keep array order.
    data.sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
    return data.map(({ embedding }) => {
      const len = Array.isArray(embedding) ? embedding.length : undefined;
      if (len !== dim) {
        throw new HubError(
          'unavailable',
          `openai-compatible model ${model} returned vectors of length ${len ?? 'unknown'}, but MEMORY_EMBED_DIM is ${dim}; ` +
            `set MEMORY_EMBED_DIM=${len ?? '?'} (and run reembed) or pick another model`,
        );
      }
      return l2normalize(embedding as number[]);
    });
  }

  return {
    provider: 'openai',
    model,
    base_url: t.base,
    dim,
    fingerprint: `${model}:${dim}`,
    embed: (texts: string[]) => inBatches(texts, EMBED_BATCH, embedBatch),
    ping: () => pingOpenAi(t.base, t.apiKey),
  };
}

interface ChatCompletionResponse {
  choices?: Array<{ message?: { content?: unknown } }>;
}

/** Chat from `POST {base}/chat/completions`; `json: true` sets `response_format: {type: 'json_object'}`. */
export function createOpenAiLlm(opts: OpenAiLlmOptions): Llm {
  const t = targetOf(opts);
  const { model } = opts;
  return {
    provider: 'openai',
    model,
    base_url: t.base,
    async chat(messages: ChatMessage[], o: { json?: boolean; temperature?: number } = {}): Promise<string> {
      const body = {
        model,
        messages,
        ...(o.temperature !== undefined ? { temperature: o.temperature } : {}),
        ...(o.json ? { response_format: { type: 'json_object' } } : {}),
      };
      const res = (await post(t, '/chat/completions', body, 'chat')) as ChatCompletionResponse;
      const content = res?.choices?.[0]?.message?.content;
      if (typeof content !== 'string') {
        throw new HubError('unavailable', `openai-compatible chat at ${t.base} returned no message content`);
      }
      return content;
    },
    ping: () => pingOpenAi(t.base, t.apiKey),
  };
}
