/**
 * Embedding and LLM providers (SPEC §4). Every provider implements the same small contract so the
 * services never know which one answers.
 */

/** What `/health` and `doctor` show about a provider. */
export interface ProviderInfo {
  /** `ollama` | `openai` | `use-lite` | `local` */
  provider: string;
  model: string;
  /** Base URL for remote providers, absent for `local`. */
  base_url?: string;
}

export interface EmbedOptions {
  /**
   * Texts being stored (a memory, a re-embed, an intention's trigger), not a question someone is
   * waiting to have answered: a provider with a queue may let queries go first (use-lite does).
   */
  write?: boolean;
}

export interface Embedder extends ProviderInfo {
  /** Vector length; constant for the life of the embedder. */
  dim: number;
  /** `model:dim` — stored beside every vector so vectors of two models are never mixed. */
  fingerprint: string;
  /** One L2-normalised vector per input text, in order. Throws `HubError('unavailable')` on failure. */
  embed(texts: string[], opts?: EmbedOptions): Promise<Float32Array[]>;
  /** True when the backend answers now (a cheap probe; never throws). */
  ping(): Promise<boolean>;
  /** Releases what the embedder holds (a worker thread); optional. */
  close?(): Promise<void>;
  /** Human-readable caveat for weaker providers (the local embedder), shown in /health and doctor. */
  note?: string;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface Llm extends ProviderInfo {
  /** One completion. `json: true` asks the backend for a JSON object. Throws `HubError('unavailable')`. */
  chat(messages: ChatMessage[], opts?: { json?: boolean; temperature?: number }): Promise<string>;
  ping(): Promise<boolean>;
}
