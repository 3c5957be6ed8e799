import { describe, it, expect } from 'vitest';
import { createOpenAiEmbedder, createOpenAiLlm, openAiBase, pingOpenAi } from '../../src/ai/openai.js';
import { closedPort, startFakeOpenAi, type FakeAiOptions } from '../helpers/fake-ai.js';
import { norm, rejection, tagged } from '../helpers/ai-checks.js';
import { closedAfterEach } from '../helpers/teardown.js';

const KEY = 'sk-test-SECRET-0123456789';
const keep = closedAfterEach();
const fake = (opts: FakeAiOptions = {}) => keep(startFakeOpenAi(opts));

describe('openAiBase', () => {
  it('appends /v1 once', () => {
    expect(openAiBase('http://h:1234')).toBe('http://h:1234/v1');
    expect(openAiBase('http://h:1234/')).toBe('http://h:1234/v1');
    expect(openAiBase('http://h:1234/v1')).toBe('http://h:1234/v1');
    expect(openAiBase('http://h:1234/v1/')).toBe('http://h:1234/v1');
    expect(openAiBase('https://api.example.com/openai')).toBe('https://api.example.com/openai/v1');
  });
});

describe('createOpenAiEmbedder', () => {
  it('embeds through POST /v1/embeddings, normalised, in index order', async () => {
    const f = await fake({ embed: tagged(10, 2), reverseOrder: true });
    const e = createOpenAiEmbedder({ baseUrl: f.url, model: 'text-embedding-3-small', dim: 10, timeoutMs: 5000 });
    expect(e.provider).toBe('openai');
    expect(e.base_url).toBe(`${f.url}/v1`);
    expect(e.fingerprint).toBe('text-embedding-3-small:10');
    const out = await e.embed(['a 1', 'b 2', 'c 3']);
    expect(out.map((v) => v.length)).toEqual([10, 10, 10]);
    out.forEach((v, i) => {
      expect(norm(v)).toBeCloseTo(1, 5);
      expect(v[i + 1]).toBeCloseTo(1, 6);
    });
    expect(f.requests[0]).toMatchObject({
      method: 'POST',
      path: '/v1/embeddings',
      body: { model: 'text-embedding-3-small', input: ['a 1', 'b 2', 'c 3'] },
    });
  });

  it('does not double /v1 when the base URL already has it', async () => {
    const f = await fake({ dim: 4 });
    const e = createOpenAiEmbedder({ baseUrl: `${f.url}/v1/`, model: 'm', dim: 4, timeoutMs: 5000 });
    await e.embed(['x']);
    expect(f.requests[0].path).toBe('/v1/embeddings');
  });

  it('sends Authorization only when a key is set', async () => {
    const f = await fake({ dim: 4 });
    await createOpenAiEmbedder({ baseUrl: f.url, model: 'm', dim: 4, timeoutMs: 5000 }).embed(['x']);
    await createOpenAiEmbedder({ baseUrl: f.url, apiKey: '', model: 'm', dim: 4, timeoutMs: 5000 }).embed(['x']);
    await createOpenAiEmbedder({ baseUrl: f.url, apiKey: KEY, model: 'm', dim: 4, timeoutMs: 5000 }).embed(['x']);
    expect(f.requests.map((r) => r.headers.authorization)).toEqual([undefined, undefined, `Bearer ${KEY}`]);
  });

  it('rejects vectors whose length is not MEMORY_EMBED_DIM', async () => {
    const f = await fake({ wrongDim: 1536 });
    const err = await rejection(
      createOpenAiEmbedder({ baseUrl: f.url, model: 'm', dim: 768, timeoutMs: 5000 }).embed(['x']),
    );
    expect(err.code).toBe('unavailable');
    expect(err.message).toContain('MEMORY_EMBED_DIM');
    expect(err.message).toContain('1536');
  });

  it('maps non-2xx to unavailable with status and a truncated body, never the key', async () => {
    // Like some real servers, the fake echoes the credentials it got in its error body.
    const f = await fake({
      fail: true,
      failStatus: 401,
      failBody: (req) =>
        JSON.stringify({ error: { message: `Incorrect API key provided: ${req.headers.authorization}` } }) +
        'x'.repeat(400),
    });
    const err = await rejection(
      createOpenAiEmbedder({ baseUrl: f.url, apiKey: KEY, model: 'm', dim: 4, timeoutMs: 5000 }).embed(['x']),
    );
    expect(err.code).toBe('unavailable');
    expect(err.message).toContain('401');
    expect(err.message).toContain('Incorrect API key provided');
    expect(err.message).not.toContain(KEY);
    expect(err.message).not.toContain('SECRET');
    expect(err.message).not.toContain('x'.repeat(250));
  });

  it('reports a 200 with a non-JSON body as unavailable', async () => {
    const f = await fake({ fail: true, failStatus: 200, failBody: '<html>proxy login</html>' });
    const err = await rejection(
      createOpenAiEmbedder({ baseUrl: f.url, model: 'm', dim: 4, timeoutMs: 5000 }).embed(['x']),
    );
    expect(err.code).toBe('unavailable');
    expect(err.message).toMatch(/not JSON/);
  });

  it('honours the timeout against a hanging server', async () => {
    // The server never answers: without the timeout this waits out the test. How close to 200 ms it gives
    // up is a row of `npm run bench` (scripts/bench/stopwatch-io.ts).
    const f = await fake({ hang: true });
    const err = await rejection(
      createOpenAiEmbedder({ baseUrl: f.url, apiKey: KEY, model: 'm', dim: 4, timeoutMs: 200 }).embed(['x']),
    );
    expect(err.code).toBe('unavailable');
    expect(err.message).toMatch(/timed out after 200 ms/);
    expect(err.message).not.toContain(KEY);
  });

  it('reports a refused connection as unavailable', async () => {
    const port = await closedPort();
    const e = createOpenAiEmbedder({ baseUrl: `http://127.0.0.1:${port}`, model: 'm', dim: 4, timeoutMs: 2000 });
    const err = await rejection(e.embed(['x']));
    expect(err.code).toBe('unavailable');
    expect(err.message).toMatch(/ECONNREFUSED/);
  });
});

describe('createOpenAiLlm', () => {
  it('chats through POST /v1/chat/completions', async () => {
    const f = await fake({ chat: (req) => `model ${req.model} heard ${req.messages.at(-1)?.content}` });
    const llm = createOpenAiLlm({ baseUrl: f.url, apiKey: KEY, model: 'gpt-4o-mini', timeoutMs: 5000 });
    expect(llm.provider).toBe('openai');
    expect(await llm.chat([{ role: 'user', content: 'hello' }])).toBe('model gpt-4o-mini heard hello');
    const r = f.requests[0];
    expect(r.path).toBe('/v1/chat/completions');
    expect(r.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(r.body).toEqual({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] });
  });

  it('json mode sends response_format json_object; temperature is passed', async () => {
    const f = await fake({ chat: (req) => (req.json ? '{"n":1}' : 'prose') });
    const llm = createOpenAiLlm({ baseUrl: f.url, model: 'm', timeoutMs: 5000 });
    expect(await llm.chat([{ role: 'user', content: 'x' }], { json: true, temperature: 0.2 })).toBe('{"n":1}');
    expect(f.requests[0].body.response_format).toEqual({ type: 'json_object' });
    expect(f.requests[0].body.temperature).toBe(0.2);
    expect(f.requests[0].headers.authorization).toBeUndefined();
  });

  it('maps failures and timeouts to unavailable', async () => {
    const f = await fake({ fail: true, failStatus: 503 });
    const err = await rejection(
      createOpenAiLlm({ baseUrl: f.url, model: 'm', timeoutMs: 5000 }).chat([{ role: 'user', content: 'x' }]),
    );
    expect(err.code).toBe('unavailable');
    expect(err.message).toContain('503');
    f.options.fail = false;
    f.options.hang = true;
    const slow = await rejection(
      createOpenAiLlm({ baseUrl: f.url, model: 'm', timeoutMs: 200 }).chat([{ role: 'user', content: 'x' }]),
    );
    expect(slow.message).toMatch(/timed out/);
  });
});

describe('pingOpenAi', () => {
  it('GETs /v1/models with the key; false on error, auth failure, hang or no listener', async () => {
    const f = await fake({ requireKey: KEY });
    expect(await pingOpenAi(f.url, KEY)).toBe(true);
    expect(f.requests[0]).toMatchObject({ method: 'GET', path: '/v1/models' });
    expect(await pingOpenAi(f.url)).toBe(false);
    expect(await createOpenAiLlm({ baseUrl: `${f.url}/v1`, apiKey: KEY, model: 'm', timeoutMs: 5000 }).ping()).toBe(
      true,
    );
    f.options.hang = true;
    expect(await pingOpenAi(f.url, KEY, 200)).toBe(false);
    expect(await pingOpenAi(`http://127.0.0.1:${await closedPort()}`)).toBe(false);
  });
});
