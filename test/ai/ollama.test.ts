import { describe, it, expect } from 'vitest';
import { createOllamaEmbedder, createOllamaLlm, ollamaHost, pingOllama } from '../../src/ai/ollama.js';
import { closedPort, startFakeOllama, type FakeAiOptions } from '../helpers/fake-ai.js';
import { norm, rejection, tagged } from '../helpers/ai-checks.js';
import { closedAfterEach } from '../helpers/teardown.js';

const keep = closedAfterEach();
const fake = (opts: FakeAiOptions = {}) => keep(startFakeOllama(opts));

describe('ollamaHost', () => {
  it('strips trailing slashes and a /v1 suffix', () => {
    expect(ollamaHost('http://localhost:11434')).toBe('http://localhost:11434');
    expect(ollamaHost('http://host:11434/v1')).toBe('http://host:11434');
    expect(ollamaHost('http://host:11434/v1/')).toBe('http://host:11434');
    expect(ollamaHost(' http://host:11434/ ')).toBe('http://host:11434');
  });
});

describe('createOllamaEmbedder', () => {
  it('embeds through POST /api/embed with normalised vectors of the configured dim', async () => {
    const f = await fake({ dim: 8 });
    const e = createOllamaEmbedder({ baseUrl: f.url, model: 'nomic-embed-text', dim: 8, timeoutMs: 5000 });
    expect(e.provider).toBe('ollama');
    expect(e.fingerprint).toBe('nomic-embed-text:8');
    expect(e.base_url).toBe(f.url);
    const [v] = await e.embed(['the kitchen light']);
    expect(v).toBeInstanceOf(Float32Array);
    expect(v.length).toBe(8);
    expect(norm(v)).toBeCloseTo(1, 5);
    expect(f.requests).toHaveLength(1);
    expect(f.requests[0]).toMatchObject({
      method: 'POST',
      path: '/api/embed',
      body: { model: 'nomic-embed-text', input: ['the kitchen light'] },
    });
  });

  it('preserves order across a batch split into several requests', async () => {
    const f = await fake({ embed: tagged(100, 3) });
    const e = createOllamaEmbedder({ baseUrl: f.url, model: 'm', dim: 100, timeoutMs: 5000 });
    const texts = Array.from({ length: 70 }, (_, i) => `text ${i}`);
    const out = await e.embed(texts);
    expect(out).toHaveLength(70);
    out.forEach((v, i) => expect(v[i]).toBeCloseTo(1, 6));
    expect(f.requests.length).toBe(3);
    expect(await e.embed([])).toEqual([]);
    expect(f.requests.length).toBe(3);
  });

  it('accepts a base URL with the OpenAI-style /v1 suffix', async () => {
    const f = await fake({ dim: 4 });
    const e = createOllamaEmbedder({ baseUrl: `${f.url}/v1`, model: 'm', dim: 4, timeoutMs: 5000 });
    expect(e.base_url).toBe(f.url);
    expect((await e.embed(['x']))[0].length).toBe(4);
    expect(f.requests[0].path).toBe('/api/embed');
  });

  it('rejects vectors whose length is not MEMORY_EMBED_DIM', async () => {
    const f = await fake({ wrongDim: 5 });
    const e = createOllamaEmbedder({ baseUrl: f.url, model: 'm', dim: 8, timeoutMs: 5000 });
    const err = await rejection(e.embed(['hello']));
    expect(err.code).toBe('unavailable');
    expect(err.message).toContain('MEMORY_EMBED_DIM');
    expect(err.message).toContain('length 5');
  });

  it('maps a server error to unavailable with the status and message', async () => {
    const f = await fake({
      fail: true,
      failStatus: 404,
      failBody: JSON.stringify({ error: 'model "nope" not found, try pulling it first' }),
    });
    const e = createOllamaEmbedder({ baseUrl: f.url, model: 'nope', dim: 8, timeoutMs: 5000 });
    const err = await rejection(e.embed(['hello']));
    expect(err.code).toBe('unavailable');
    expect(err.message).toContain('404');
    expect(err.message).toContain('not found');
  });

  it('honours the timeout against a hanging server', async () => {
    // The server never answers: without the timeout this waits out the test. How close to 200 ms it gives
    // up is a row of `npm run bench` (scripts/bench/stopwatch-io.ts).
    const f = await fake({ hang: true });
    const e = createOllamaEmbedder({ baseUrl: f.url, model: 'm', dim: 8, timeoutMs: 200 });
    const err = await rejection(e.embed(['hello']));
    expect(err.code).toBe('unavailable');
    expect(err.message).toMatch(/timed out after 200 ms/);
  });

  it('reports a refused connection as unavailable', async () => {
    const port = await closedPort();
    const e = createOllamaEmbedder({ baseUrl: `http://127.0.0.1:${port}`, model: 'm', dim: 8, timeoutMs: 2000 });
    const err = await rejection(e.embed(['hello']));
    expect(err.code).toBe('unavailable');
    expect(err.message).toMatch(/ECONNREFUSED/);
    expect(await e.ping()).toBe(false);
  });
});

describe('createOllamaLlm', () => {
  it('chats through POST /api/chat and returns the assistant content', async () => {
    const f = await fake({ chat: (req) => `you said ${req.messages.at(-1)?.content}` });
    const llm = createOllamaLlm({ baseUrl: f.url, model: 'llama3.2', timeoutMs: 5000 });
    expect(llm.provider).toBe('ollama');
    const out = await llm.chat([
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'hi' },
    ]);
    expect(out).toBe('you said hi');
    const body = f.requests[0].body;
    expect(f.requests[0].path).toBe('/api/chat');
    expect(body).toMatchObject({
      model: 'llama3.2',
      stream: false,
      messages: [{ role: 'system' }, { role: 'user', content: 'hi' }],
    });
    expect(body.format).toBeUndefined();
  });

  it('asks for JSON with format: "json" and passes the temperature', async () => {
    const f = await fake({ chat: (req) => (req.json ? '{"ok":true}' : 'not json') });
    const llm = createOllamaLlm({ baseUrl: f.url, model: 'm', timeoutMs: 5000 });
    expect(await llm.chat([{ role: 'user', content: 'x' }], { json: true, temperature: 0 })).toBe('{"ok":true}');
    expect(f.requests[0].body.format).toBe('json');
    expect(f.requests[0].body.options).toEqual({ temperature: 0 });
  });

  it('maps failures and timeouts to unavailable', async () => {
    const f = await fake({ fail: true });
    const llm = createOllamaLlm({ baseUrl: f.url, model: 'm', timeoutMs: 5000 });
    expect((await rejection(llm.chat([{ role: 'user', content: 'x' }]))).code).toBe('unavailable');
    f.options.fail = false;
    f.options.hang = true;
    const slow = createOllamaLlm({ baseUrl: f.url, model: 'm', timeoutMs: 200 });
    const err = await rejection(slow.chat([{ role: 'user', content: 'x' }]));
    expect(err.code).toBe('unavailable');
    expect(err.message).toMatch(/timed out/);
  });
});

describe('pingOllama', () => {
  it('is true when /api/tags answers, false otherwise, and never throws', async () => {
    const f = await fake();
    expect(await pingOllama(f.url)).toBe(true);
    expect(f.requests[0]).toMatchObject({ method: 'GET', path: '/api/tags' });
    expect(await createOllamaLlm({ baseUrl: f.url, model: 'm', timeoutMs: 5000 }).ping()).toBe(true);
    f.options.fail = true;
    expect(await pingOllama(f.url)).toBe(false);
    f.options.fail = false;
    f.options.hang = true;
    expect(await pingOllama(f.url, 200)).toBe(false);
    expect(await pingOllama('http://127.0.0.1:' + (await closedPort()))).toBe(false);
  });
});
