import { describe, it, expect } from 'vitest';
import { createAi, type AiConfig } from '../../src/ai/providers.js';
import { loadConfig } from '../../src/config/load.js';
import { HubError } from '../../src/lib/errors.js';
import { createLocalEmbedder } from '../../src/ai/local-embedder.js';
import type { UseLiteEmbedder } from '../../src/ai/use-lite.js';
import { closedPort, startFakeOllama, startFakeOpenAi } from '../helpers/fake-ai.js';
import { closedAfterEach } from '../helpers/teardown.js';

const keep = closedAfterEach();

function cfg(over: Partial<AiConfig> = {}): AiConfig {
  return {
    provider: 'auto',
    baseUrl: 'http://localhost:11434',
    embedModel: 'nomic-embed-text',
    embedDim: 8,
    llmModel: 'llama3.2',
    timeoutSeconds: 30,
    ...over,
  };
}

describe('createAi', () => {
  it('local: the offline embedder, no LLM, no network', async () => {
    const f = await keep(startFakeOllama());
    const ai = await createAi(cfg({ provider: 'local', baseUrl: f.url }));
    expect(ai.embedder.provider).toBe('local');
    expect(ai.embedder.fingerprint).toBe('hearth-local-v2:384');
    expect(ai.llm).toBeNull();
    expect(ai.warnings).toEqual([]);
    expect((await ai.embedder.embed(['hello']))[0].length).toBe(384);
    expect(f.requests).toEqual([]);
  });

  it('ollama: embedder at baseUrl, LLM at llmBaseUrl', async () => {
    const embedHost = await keep(startFakeOllama({ dim: 8 }));
    const llmHost = await keep(startFakeOllama({ chat: () => 'from the llm host' }));
    const ai = await createAi(cfg({ provider: 'ollama', baseUrl: embedHost.url, llmBaseUrl: llmHost.url }));
    expect(ai.embedder).toMatchObject({
      provider: 'ollama',
      model: 'nomic-embed-text',
      dim: 8,
      base_url: embedHost.url,
    });
    expect(ai.llm).toMatchObject({ provider: 'ollama', model: 'llama3.2', base_url: llmHost.url });
    expect((await ai.embedder.embed(['a']))[0].length).toBe(8);
    expect(await ai.llm!.chat([{ role: 'user', content: 'hi' }])).toBe('from the llm host');
    expect(embedHost.requests.map((r) => r.path)).toEqual(['/api/embed']);
    expect(llmHost.requests.map((r) => r.path)).toEqual(['/api/chat']);
  });

  it('ollama: an unreachable backend is not a construction error', async () => {
    const ai = await createAi(cfg({ provider: 'ollama', baseUrl: `http://127.0.0.1:${await closedPort()}` }));
    expect(ai.embedder.provider).toBe('ollama');
    expect(await ai.embedder.ping()).toBe(false);
    await expect(ai.embedder.embed(['x'])).rejects.toMatchObject({ code: 'unavailable' });
  });

  it('embed calls get MEMORY_AI_TIMEOUT, LLM calls at least 60 s', async () => {
    const f = await keep(startFakeOllama({ dim: 8, delayMs: 500 }));
    const ai = await createAi(cfg({ provider: 'ollama', baseUrl: f.url, timeoutSeconds: 0.2 }));
    await expect(ai.embedder.embed(['x'])).rejects.toMatchObject({
      code: 'unavailable',
      message: expect.stringMatching(/timed out after 200 ms/),
    });
    expect(await ai.llm!.chat([{ role: 'user', content: 'slow but fine' }])).toBe('echo: slow but fine');
  });

  it('openai: both over the OpenAI wire API with the key', async () => {
    const f = await keep(startFakeOpenAi({ dim: 8, requireKey: 'k-123' }));
    const ai = await createAi(cfg({ provider: 'openai', baseUrl: f.url, apiKey: 'k-123', llmModel: 'gpt-4o-mini' }));
    expect(ai.embedder).toMatchObject({ provider: 'openai', base_url: `${f.url}/v1` });
    expect((await ai.embedder.embed(['a', 'b'])).length).toBe(2);
    expect(await ai.llm!.chat([{ role: 'user', content: 'yo' }])).toBe('echo: yo');
    expect(f.requests.every((r) => r.headers.authorization === 'Bearer k-123')).toBe(true);
  });

  it('auto: uses Ollama when it answers', async () => {
    const f = await keep(startFakeOllama({ dim: 8 }));
    const ai = await createAi(cfg({ provider: 'auto', baseUrl: `${f.url}/v1` }));
    expect(ai.embedder.provider).toBe('ollama');
    expect(ai.llm?.provider).toBe('ollama');
    expect(ai.warnings).toEqual([]);
    expect(f.requests[0]).toMatchObject({ method: 'GET', path: '/api/tags' });
  });

  it('auto: falls back to the offline neural embedder (use-lite) when nothing listens', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const ai = await createAi(cfg({ provider: 'auto', baseUrl: url }));
    try {
      expect(ai.embedder).toMatchObject({ provider: 'use-lite', fingerprint: 'universal-sentence-encoder-lite:512' });
      expect(ai.llm).toBeNull();
      expect(ai.warnings).toEqual([]); // the expected case, not a problem: a note at info
      expect(ai.notes).toHaveLength(1);
      expect(ai.notes![0]).toContain(url);
      expect(ai.notes![0]).toMatch(/use-lite/);
      expect((await ai.embedder.embed(['hello']))[0].length).toBe(512);
    } finally {
      await ai.embedder.close?.();
    }
  }, 120_000); // loads the neural encoder: 30 s was not enough beside stress-ng --cpu 4 on 2 cores

  it('auto: falls back to local when neither Ollama answers nor use-lite loads', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const broken = (): UseLiteEmbedder => ({
      ...createLocalEmbedder(),
      provider: 'use-lite',
      ready: Promise.resolve(false),
      loadError: 'weights missing',
      workers: 0,
      close: async () => {},
    });
    const ai = await createAi(cfg({ provider: 'auto', baseUrl: url }), { useLite: broken });
    expect(ai.embedder.provider).toBe('local');
    expect(ai.warnings[0]).toMatch(/use-lite did not load \(weights missing\).*local embedder/);
  });

  it('use-lite: a load failure is a warning naming the fix, not a construction error', async () => {
    const broken = (): UseLiteEmbedder => ({
      ...createLocalEmbedder(),
      provider: 'use-lite',
      ready: Promise.resolve(false),
      loadError: 'weights missing',
      workers: 0,
      close: async () => {},
    });
    const ai = await createAi(cfg({ provider: 'use-lite' }), { useLite: broken });
    expect(ai.embedder.provider).toBe('use-lite');
    expect(ai.warnings[0]).toMatch(/weights missing.*MEMORY_AI_PROVIDER=local/);
  });

  it('use-lite: passes ai.embed_workers (HEARTH_EMBED_WORKERS) to the encoder', async () => {
    const seen: (number | undefined)[] = [];
    const spy = (o?: { workers?: number }): UseLiteEmbedder => (
      seen.push(o?.workers),
      {
        ...createLocalEmbedder(),
        provider: 'use-lite',
        ready: Promise.resolve(true),
        workers: 1,
        close: async () => {},
      }
    );
    await createAi({ ...cfg({ provider: 'use-lite' }), embedWorkers: 2 }, { useLite: spy });
    const { config } = loadConfig({ env: { HEARTH_EMBED_WORKERS: '3' } });
    expect(config.ai.embed_workers).toBe(3);
    expect(seen).toEqual([2]);
  });

  it('auto: gives up on a hanging Ollama after about 2 s', async () => {
    const f = await keep(startFakeOllama({ hang: true }));
    const broken = (): UseLiteEmbedder => ({
      ...createLocalEmbedder(),
      provider: 'use-lite',
      ready: Promise.resolve(false),
      loadError: 'x',
      workers: 0,
      close: async () => {},
    });
    const ai = await createAi(cfg({ provider: 'auto', baseUrl: f.url }), { useLite: broken });
    expect(ai.embedder.provider).toBe('local');
    // It asked Ollama and, with no answer, gave up on it: the probe was sent, not skipped. How soon after the
    // 2 s it gives up is a row of `npm run bench` (scripts/bench/stopwatch-io.ts).
    expect(f.requests.length).toBeGreaterThan(0);
  }, 10_000);

  it('rejects impossible config with HubError invalid naming the setting', async () => {
    const cases: Array<[Partial<AiConfig>, RegExp]> = [
      [{ provider: 'bogus' as AiConfig['provider'] }, /MEMORY_AI_PROVIDER/],
      [{ timeoutSeconds: 0 }, /MEMORY_AI_TIMEOUT/],
      [{ timeoutSeconds: Number.NaN, provider: 'local' }, /MEMORY_AI_TIMEOUT/],
      [{ provider: 'ollama', embedDim: 0 }, /MEMORY_EMBED_DIM/],
      [{ provider: 'openai', embedDim: 7.5 }, /MEMORY_EMBED_DIM/],
      [{ provider: 'ollama', baseUrl: 'not a url' }, /MEMORY_AI_BASE_URL/],
      [{ provider: 'auto', baseUrl: 'ftp://host' }, /MEMORY_AI_BASE_URL/],
      [{ provider: 'openai', llmBaseUrl: '::' }, /MEMORY_LLM_BASE_URL/],
      [{ provider: 'ollama', embedModel: ' ' }, /MEMORY_EMBED_MODEL/],
    ];
    for (const [over, re] of cases) {
      const err = await createAi(cfg(over)).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err, JSON.stringify(over)).toBeInstanceOf(HubError);
      expect((err as HubError).code).toBe('invalid');
      expect((err as HubError).message).toMatch(re);
    }
  });

  it('local ignores remote-only settings', async () => {
    const ai = await createAi(cfg({ provider: 'local', baseUrl: 'not a url', embedDim: 0 }));
    expect(ai.embedder.provider).toBe('local');
  });
});
