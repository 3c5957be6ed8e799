/**
 * Real parts for tests: a temp dir with a real SQLite file, the real services and HTTP app, the
 * local embedder, and a manual clock. Closed in teardown.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import type { ConfigInput } from '../../src/config/schema.js';
import { createHub, type Hub } from '../../src/main.js';
import { manualClock, type ManualClock } from '../../src/lib/clock.js';
import { createLocalEmbedder } from '../../src/ai/local-embedder.js';
import type { Embedder, Llm } from '../../src/ai/types.js';
import type { RememberInput } from '../../src/tiers/memory/memory.schemas.js';

export interface TestHub extends Hub {
  clock: ManualClock;
  dir: string;
  close(): Promise<void>;
}

export function tempDir(prefix = 'hearth-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export async function buildTestHub(
  opts: { config?: ConfigInput; embedder?: Embedder; llm?: Llm | null; dir?: string; clock?: ManualClock } = {},
): Promise<TestHub> {
  const dir = opts.dir ?? tempDir();
  const clock = opts.clock ?? manualClock();
  const config = parseConfig({
    ...opts.config,
    data_dir: join(dir, 'data'),
    // Rate limiting is tested on its own; other tests send many requests from one address.
    http: { port: 0, rate_limit_per_minute: 0, ...opts.config?.http },
    mqtt: { mode: 'off', ...opts.config?.mqtt },
    timeseries: { timezone: 'UTC', ...opts.config?.timeseries },
  });
  const hub = await createHub({
    config,
    clock,
    ai: { embedder: opts.embedder ?? createLocalEmbedder(), llm: opts.llm ?? null },
  });
  return Object.assign(hub, {
    clock,
    dir,
    async close() {
      await hub.stop();
      if (!opts.dir) rmSync(dir, { recursive: true, force: true });
    },
  });
}

/**
 * Call at a test file's (or describe's) top level: builds a fresh test hub before each test, hands it
 * to `use` (e.g. `(h) => (hub = h)`), and closes it after the test.
 */
export function hubForEachTest(use: (hub: TestHub) => void, opts: Parameters<typeof buildTestHub>[0] = {}) {
  let built: TestHub | undefined;
  beforeEach(async () => {
    built = await buildTestHub(opts);
    use(built);
  });
  afterEach(async () => {
    await built?.close();
    built = undefined;
  });
}

/**
 * Remembers `fact` about `entity_name` as typed by hand (source manual, confidence 1, category general
 * unless `more` says otherwise) through the memory service, as `actor` if given.
 */
export function rememberByHand(
  hub: Hub,
  entity_name: string,
  fact: string,
  more: Partial<Omit<RememberInput, 'entity_name' | 'fact'>> = {},
  actor?: Parameters<Hub['services']['memory']['remember']>[1],
) {
  return hub.services.memory.remember(
    { entity_name, fact, category: 'general', confidence: 1, source: 'manual', ...more },
    actor,
  );
}

/** POST JSON through fastify.inject; returns status and parsed body. */
export async function post(hub: Hub, url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await hub.app.inject({ method: 'POST', url, payload: body as object, headers });
  return { status: res.statusCode, body: res.json() as Record<string, any> };
}

/** POST through inject and expect 200 (a failure names the URL and shows the body); returns the body. */
export async function postOk(hub: Hub, url: string, body: unknown) {
  const r = await post(hub, url, body);
  expect(r.status, `${url}: ${JSON.stringify(r.body)}`).toBe(200);
  return r.body;
}

export async function get(hub: Hub, url: string, headers: Record<string, string> = {}) {
  const res = await hub.app.inject({ method: 'GET', url, headers });
  return { status: res.statusCode, body: res.json() as Record<string, any> };
}
