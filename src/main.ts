/**
 * Wires config → database → AI providers → services → doors, and starts/stops each door in its
 * own try/catch so one failing extension is reported by name (z2m lib/controller.ts).
 */
import type { FastifyInstance } from 'fastify';
import { createAi } from './ai/providers.js';
import type { Embedder, Llm } from './ai/types.js';
import type { Config } from './config/schema.js';
import { openDatabase, type Db } from './db/open.js';
import { buildApp } from './http/app.js';
import { systemClock, type Clock } from './lib/clock.js';
import { createServices, type Services } from './services.js';

export interface HubOptions {
  config: Config;
  clock?: Clock;
  /** Injected providers (tests); otherwise built from config.ai. */
  ai?: { embedder: Embedder; llm: Llm | null };
  logger?: boolean | object;
}

export interface Hub {
  services: Services;
  app: FastifyInstance;
  db: Db;
  warnings: string[];
  /** Starts listening doors; resolves with the bound addresses. */
  start(): Promise<{ http?: string }>;
  stop(): Promise<void>;
}

export async function createHub(opts: HubOptions): Promise<Hub> {
  const { config } = opts;
  const clock = opts.clock ?? systemClock;
  const db = openDatabase({ dataDir: config.data_dir });
  const warnings: string[] = [];
  let ai: { embedder: Embedder; llm: Llm | null };
  if (opts.ai) ai = opts.ai;
  else {
    const built = await createAi({
      provider: config.ai.provider,
      baseUrl: config.ai.base_url,
      llmBaseUrl: config.ai.llm_base_url,
      apiKey: config.ai.api_key || undefined,
      embedModel: config.ai.embed_model,
      embedDim: config.ai.embed_dim,
      llmModel: config.ai.llm_model,
      timeoutSeconds: config.ai.timeout,
    });
    warnings.push(...built.warnings);
    ai = built;
  }
  const services = createServices({ db, clock, config, embedder: ai.embedder, llm: ai.llm });
  if (services.vectors.state === 'stale') warnings.push(services.vectors.staleReason());
  const app = await buildApp({
    services,
    token: config.http.token || undefined,
    bodyLimit: config.http.body_limit,
    logger: opts.logger ?? false,
  });

  let httpAddress: string | undefined;
  return {
    services,
    app,
    db,
    warnings,
    async start() {
      if (config.http.enabled) {
        httpAddress = await app.listen({ host: config.http.host, port: config.http.port });
      }
      return { http: httpAddress };
    },
    async stop() {
      try {
        await app.close();
      } catch (e) {
        console.error(`http: close failed: ${(e as Error).message}`);
      }
      try {
        db.pragma('wal_checkpoint(TRUNCATE)');
        db.close();
      } catch (e) {
        console.error(`db: close failed: ${(e as Error).message}`);
      }
    },
  };
}
