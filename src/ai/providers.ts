/**
 * Picks the embedder and LLM from config (SPEC §1 `MEMORY_AI_*`, §4). An unreachable backend is a
 * runtime condition — reported by `ping()`, /health and doctor, and survived by storing writes with
 * their vector marked missing — so building providers never fails for it; only impossible config throws.
 */
import { HubError } from '../lib/errors.js';
import { createLocalEmbedder } from './local-embedder.js';
import { createOllamaEmbedder, createOllamaLlm, ollamaHost, pingOllama } from './ollama.js';
import { createOpenAiEmbedder, createOpenAiLlm } from './openai.js';
import { createUseLiteEmbedder, USE_LITE_IDENTITY, type UseLiteEmbedder, type UseLiteOptions } from './use-lite.js';
import type { Embedder, Llm } from './types.js';
import type { Config } from '../config/schema.js';

/** The embedder a data dir's vectors were made by (its `embed_meta` row). */
export interface StoredEmbedder {
  provider: string;
  model: string;
  dim: number;
}

/** The AI part of the parsed config; env names in SPEC §1. */
export interface AiConfig {
  /** `MEMORY_AI_PROVIDER`: `auto` = ollama if it answers at start-up, else use-lite if it loads, else local. */
  provider: 'auto' | 'ollama' | 'openai' | 'use-lite' | 'local';
  /** `MEMORY_AI_BASE_URL` (embeddings, and the LLM unless `llmBaseUrl` is set). */
  baseUrl: string;
  /** `MEMORY_LLM_BASE_URL`: the LLM on another host. */
  llmBaseUrl?: string;
  /** `MEMORY_AI_API_KEY` (openai only). */
  apiKey?: string;
  /** `MEMORY_EMBED_MODEL` (remote providers; the local embedder has its own model and dim). */
  embedModel: string;
  /** `MEMORY_EMBED_DIM` (remote providers). */
  embedDim: number;
  /** `MEMORY_LLM_MODEL`. */
  llmModel: string;
  /** `MEMORY_AI_TIMEOUT` in seconds; LLM calls get `max(timeoutSeconds, 60)`. */
  timeoutSeconds: number;
  /** `HEARTH_EMBED_WORKERS`: use-lite worker threads at most (default 1; use-lite.ts). */
  embedWorkers?: number;
  /** `HEARTH_USE_LITE_RUNTIME`: auto | onnx | wasm (use-lite.ts). */
  useLiteRuntime?: UseLiteOptions['runtime'];
}

/** What `createAi` hands to the services. `llm` is null when no LLM is configured (local / fallback). */
export interface Ai {
  embedder: Embedder;
  llm: Llm | null;
  /** Start-up problems for the log (e.g. why `auto` fell back to local). */
  warnings: string[];
  /** Start-up facts for the log, at info (e.g. `auto` chose use-lite because no Ollama answered: the expected case). */
  notes?: string[];
  /** Starts loading a lazily built embedder now (quick start: `hearth mcp` calls it after `initialize`). */
  warm?: () => void;
}

export interface QuickStart {
  /** What the data dir records (`embed_meta`); with `auto`, the provider is taken from it without probing. */
  stored?: StoredEmbedder;
}

/**
 * use-lite built on first use (an embed, a ping, `warm()`), not at start-up: the worker thread and the
 * model's 2–3 s of loading stay off the path of a client that is waiting for `initialize`.
 */
function lazyUseLite(make: () => UseLiteEmbedder): { embedder: Embedder; warm: () => void } {
  let inner: UseLiteEmbedder | undefined;
  const get = () => (inner ??= make());
  const embedder: Embedder = {
    ...USE_LITE_IDENTITY,
    get note() {
      return inner?.note ?? 'use-lite: Universal Sentence Encoder Lite, loaded on first use';
    },
    embed: (texts, o) => get().embed(texts, o),
    ping: () => get().ping(),
    close: async () => inner?.close(),
  };
  return { embedder, warm: () => void get() };
}

// Generation is slow on Pi-class hardware and cold model loads take tens of seconds (SPEC §1).
const MIN_LLM_TIMEOUT_S = 60;
const PROVIDERS = new Set(['auto', 'ollama', 'openai', 'use-lite', 'local']);

function checkUrl(name: string, url: string | undefined): void {
  if (url === undefined) return;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new HubError('invalid', `${name} is not a URL: ${JSON.stringify(url)}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw new HubError('invalid', `${name} must be an http(s) URL, got ${u.protocol}`);
  }
}

/** Throws HubError('invalid') naming the setting, for config that can never work. */
function validate(cfg: AiConfig): void {
  if (!PROVIDERS.has(cfg.provider)) {
    throw new HubError(
      'invalid',
      `MEMORY_AI_PROVIDER must be one of auto, ollama, openai, use-lite, local; got ${JSON.stringify(cfg.provider)}`,
    );
  }
  if (!(Number.isFinite(cfg.timeoutSeconds) && cfg.timeoutSeconds > 0)) {
    throw new HubError('invalid', `MEMORY_AI_TIMEOUT must be a positive number of seconds, got ${cfg.timeoutSeconds}`);
  }
  if (cfg.provider === 'local' || cfg.provider === 'use-lite') return;
  checkUrl('MEMORY_AI_BASE_URL', cfg.baseUrl);
  checkUrl('MEMORY_LLM_BASE_URL', cfg.llmBaseUrl || undefined);
  if (!Number.isInteger(cfg.embedDim) || cfg.embedDim < 1 || cfg.embedDim > 65_536) {
    throw new HubError('invalid', `MEMORY_EMBED_DIM must be an integer in 1..65536, got ${cfg.embedDim}`);
  }
  if (!cfg.embedModel?.trim()) throw new HubError('invalid', 'MEMORY_EMBED_MODEL must not be empty');
  if (!cfg.llmModel?.trim()) throw new HubError('invalid', 'MEMORY_LLM_MODEL must not be empty');
}

function ollama(cfg: AiConfig): Ai {
  return {
    embedder: createOllamaEmbedder({
      baseUrl: cfg.baseUrl,
      model: cfg.embedModel,
      dim: cfg.embedDim,
      timeoutMs: cfg.timeoutSeconds * 1000,
    }),
    llm: createOllamaLlm({
      baseUrl: cfg.llmBaseUrl || cfg.baseUrl,
      model: cfg.llmModel,
      timeoutMs: Math.max(cfg.timeoutSeconds, MIN_LLM_TIMEOUT_S) * 1000,
    }),
    warnings: [],
  };
}

function openai(cfg: AiConfig): Ai {
  const apiKey = cfg.apiKey || undefined;
  return {
    embedder: createOpenAiEmbedder({
      baseUrl: cfg.baseUrl,
      apiKey,
      model: cfg.embedModel,
      dim: cfg.embedDim,
      timeoutMs: cfg.timeoutSeconds * 1000,
    }),
    llm: createOpenAiLlm({
      baseUrl: cfg.llmBaseUrl || cfg.baseUrl,
      apiKey,
      model: cfg.llmModel,
      timeoutMs: Math.max(cfg.timeoutSeconds, MIN_LLM_TIMEOUT_S) * 1000,
    }),
    warnings: [],
  };
}

/**
 * Quick start (`hearth mcp`, started afresh by every MCP client): `auto` takes the provider the data
 * dir's vectors were made by instead of probing Ollama (2 s when it is not there), and use-lite is
 * built lazily. An Ollama that is down then shows as it does for MEMORY_AI_PROVIDER=ollama: writes
 * kept with their vector pending, ping() false. Null: decide as usual (nothing stored yet, or openai).
 */
function quickAi(
  cfg: AiConfig,
  make: { useLite: (opts?: UseLiteOptions) => UseLiteEmbedder },
  stored: StoredEmbedder | undefined,
): Ai | null {
  const provider = cfg.provider === 'auto' ? stored?.provider : cfg.provider;
  const why =
    cfg.provider === 'auto'
      ? `MEMORY_AI_PROVIDER=auto: the data dir's vectors are ${stored?.provider}'s (${stored?.model}); using it without probing`
      : '';
  if (provider === 'use-lite') {
    const lazy = lazyUseLite(() => make.useLite({ workers: cfg.embedWorkers, runtime: cfg.useLiteRuntime }));
    return { embedder: lazy.embedder, llm: null, warnings: [], notes: why ? [`${why}; no LLM`] : [], warm: lazy.warm };
  }
  if (provider === 'ollama' && cfg.provider === 'auto') return { ...ollama(cfg), notes: [why] };
  if (provider === 'local' && cfg.provider === 'auto')
    return { embedder: createLocalEmbedder(), llm: null, warnings: [], notes: [`${why}; no LLM`] };
  return null;
}

/** The `[ai]` section of the hub's config, as createAi takes it (the hub, and the evals' embedders). */
export function aiConfigOf(ai: Config['ai']): AiConfig {
  return {
    provider: ai.provider,
    baseUrl: ai.base_url,
    llmBaseUrl: ai.llm_base_url,
    apiKey: ai.api_key || undefined,
    embedModel: ai.embed_model,
    embedDim: ai.embed_dim,
    llmModel: ai.llm_model,
    timeoutSeconds: ai.timeout,
    embedWorkers: ai.embed_workers,
    useLiteRuntime: ai.use_lite_runtime,
  };
}

/**
 * Build the embedder and LLM for `cfg`. `auto` probes Ollama at `baseUrl` once (2 s); without it,
 * it loads the offline neural encoder (use-lite) and, should that fail, the hashing local embedder —
 * with no LLM, explaining why in `warnings`. Never rejects for an unreachable backend; rejects with
 * HubError('invalid') for impossible config. `use-lite` chosen explicitly that fails to load is
 * reported (warnings, ping() false) and writes are kept pending, like an unreachable Ollama.
 */
export async function createAi(
  cfg: AiConfig,
  make: { useLite: (opts?: UseLiteOptions) => UseLiteEmbedder } = { useLite: createUseLiteEmbedder },
  quick?: QuickStart,
): Promise<Ai> {
  validate(cfg);
  if (quick) {
    const chosen = quickAi(cfg, make, quick.stored);
    if (chosen) return chosen;
  }
  switch (cfg.provider) {
    case 'local':
      return { embedder: createLocalEmbedder(), llm: null, warnings: [] };
    case 'use-lite': {
      const embedder = make.useLite({ workers: cfg.embedWorkers, runtime: cfg.useLiteRuntime });
      const ok = await embedder.ready;
      return {
        embedder,
        llm: null,
        warnings: ok
          ? []
          : [
              `use-lite embedder failed to load (${embedder.loadError}); reinstall with \`npm install\` or set MEMORY_AI_PROVIDER=local`,
            ],
      };
    }
    case 'ollama':
      return ollama(cfg);
    case 'openai':
      return openai(cfg);
    case 'auto': {
      if (await pingOllama(cfg.baseUrl)) return ollama(cfg);
      const noOllama = `MEMORY_AI_PROVIDER=auto: no Ollama answered at ${ollamaHost(cfg.baseUrl)} within 2 s; `;
      const neural = make.useLite({ workers: cfg.embedWorkers, runtime: cfg.useLiteRuntime });
      if (await neural.ready) {
        return {
          embedder: neural,
          llm: null,
          warnings: [],
          notes: [
            `${noOllama}using the offline neural embedder use-lite (${neural.model}, 512-d, in a worker thread) and no LLM. Start Ollama and restart for an LLM.`,
          ],
        };
      }
      const embedder = createLocalEmbedder();
      return {
        embedder,
        llm: null,
        warnings: [
          `${noOllama}the offline neural embedder use-lite did not load (${neural.loadError}); ` +
            `using the local embedder (${embedder.model}, lexical, weaker on paraphrases) and no LLM. ` +
            'Start Ollama and restart, or set MEMORY_AI_PROVIDER explicitly.',
        ],
      };
    }
  }
}
