import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestHub, get, post, type TestHub } from '../helpers/hub.js';

let hub: TestHub;
beforeEach(async () => {
  hub = await buildTestHub();
});
afterEach(async () => {
  await hub.close();
});

describe('HTTP tier 1', () => {
  it('remembers and recalls with the seed field names and {ok, result} shape', async () => {
    const r = await post(hub, '/remember', {
      entity_name: 'Brian',
      fact: 'Brian keeps the bedroom at 68°F at night',
      category: 'preference',
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ ok: true, action: 'added', superseded: null });
    expect(typeof r.body.result).toBe('string');
    const q = await post(hub, '/recall', { query: 'bedroom temperature', top_k: 3 });
    expect(q.body.ok).toBe(true);
    expect(q.body.results[0]).toMatchObject({
      entity_name: 'Brian',
      category: 'preference',
      source: 'manual',
      source_trust: 5,
    });
    expect(q.body.results[0]).toHaveProperty('effective_confidence');
    expect(q.body.mode_used).toBe('hybrid');
    expect(q.body.result).toContain('68°F');
  });

  it('accepts ISO-8601 timestamps with a zone', async () => {
    const r = await post(hub, '/remember', {
      entity_name: 'Anna',
      fact: 'Anna started a new job',
      valid_from: '2025-06-01T09:00:00+02:00',
    });
    expect(r.status).toBe(200);
    expect(hub.services.memory.get(r.body.id)!.valid_from).toBe(Date.parse('2025-06-01T07:00:00Z') / 1000);
    const bad = await post(hub, '/remember', { entity_name: 'Anna', fact: 'x', valid_from: '2025-06-01 09:00' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^valid_from/);
  });

  it('serves profile, context, relations, fading, entities and forget', async () => {
    await post(hub, '/remember', {
      entity_name: 'Brian',
      fact: 'Brian takes his coffee black',
      category: 'preference',
    });
    await post(hub, '/relate', { entity_a: 'Brian', entity_b: 'Anna', rel_type: 'spouse_of' });
    const profile = await get(hub, '/profile/Brian');
    expect(profile.body.memories).toHaveLength(1);
    expect(profile.body.relations[0]).toMatchObject({ other: 'Anna', rel_type: 'spouse_of', direction: 'out' });
    const missing = await get(hub, '/profile/Nobody');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ ok: false, error: 'not_found' });
    const ctx = await post(hub, '/get_context', { entity_name: 'Brian', query: 'coffee' });
    expect(ctx.body.memories[0].fact).toContain('coffee');
    const rel = await post(hub, '/get_related', { entity_name: 'Anna' });
    expect(rel.body.relations[0].other).toBe('Brian');
    const un = await post(hub, '/unrelate', { entity_a: 'Brian', entity_b: 'Anna' });
    expect(un.body.ended).toHaveLength(1);
    const fading = await get(hub, '/fading?threshold=0.99&limit=5');
    expect(fading.status).toBe(200);
    expect(fading.body.memories).toEqual([]);
    const ents = await get(hub, '/entities');
    expect(ents.body.entities.map((e: { name: string }) => e.name)).toEqual(['Anna', 'Brian']);
    const f = await post(hub, '/forget', { entity_name: 'Brian' });
    expect(f.body).toMatchObject({ ok: true, entity_deleted: true, deleted_memories: 1 });
  });

  it.each([
    ['/remember', {}, /^entity_name: required/],
    ['/remember', { entity_name: 'Brian' }, /^fact: required/],
    ['/remember', { entity_name: 'Brian', fact: 'x', category: 'gossip' }, /^category/],
    ['/remember', { entity_name: 'Brian', fact: 'x', confidence: 2 }, /^confidence/],
    ['/remember', { entity_name: 'Brian', fact: 'x', source_trust: 9 }, /^source_trust/],
    ['/remember', { entity_name: '', fact: 'x' }, /^entity_name/],
    ['/remember', { entity_name: 'a\u0000b', fact: 'x' }, /^entity_name/],
    ['/recall', {}, /^query: required/],
    ['/recall', { query: 'x', top_k: 0 }, /^top_k/],
    ['/recall', { query: 'x', mode: 'magic' }, /^mode/],
    ['/recall', { query: 'x', as_of: 'yesterday' }, /^as_of/],
    ['/get_context', {}, /^entity_name/],
    ['/relate', { entity_a: 'A' }, /^entity_b: required/],
    ['/unrelate', { entity_a: 'A', entity_b: 5 }, /^entity_b/],
    ['/get_related', {}, /^entity_name/],
    ['/forget', {}, /^memory_id/],
    ['/forget', { memory_id: 1, entity_name: 'x' }, /^memory_id/],
    ['/forget', { memory_id: 'one' }, /^memory_id/],
  ])('POST %s with %j answers 400 naming the field', async (url, body, message) => {
    const r = await post(hub, url, body);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ ok: false, error: 'invalid' });
    expect(r.body.message).toMatch(message);
  });

  it('answers 400, never 5xx, to broken JSON, wrong types and empty bodies', async () => {
    for (const payload of ['{"entity_name":', 'null', '[]', '"str"', '42', '']) {
      const res = await hub.app.inject({
        method: 'POST',
        url: '/remember',
        payload,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.statusCode, payload).toBe(400);
      expect(res.json()).toMatchObject({ ok: false, error: 'invalid' });
    }
    const fading = await get(hub, '/fading?threshold=abc');
    expect(fading.status).toBe(400);
    expect(fading.body.message).toMatch(/^threshold/);
  });

  it('refuses bodies over the limit with 413', async () => {
    const r = await post(hub, '/remember', { entity_name: 'Brian', fact: 'x'.repeat(1024 * 1024 + 10) });
    expect(r.status).toBe(413);
    expect(r.body.error).toBe('too_large');
  });

  it('answers unknown routes with the error shape', async () => {
    const r = await get(hub, '/nope');
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ ok: false, error: 'not_found' });
  });

  it('publishes OpenAPI at /docs with every route', async () => {
    const r = await get(hub, '/docs');
    expect(r.body.openapi).toMatch(/^3\./);
    for (const path of [
      '/remember',
      '/recall',
      '/get_context',
      '/profile/{entity_name}',
      '/relate',
      '/unrelate',
      '/get_related',
      '/forget',
      '/fading',
      '/entities',
      '/health',
    ]) {
      expect(Object.keys(r.body.paths)).toContain(path);
    }
    expect(r.body.paths['/remember'].post.requestBody.content['application/json'].schema.required).toEqual([
      'entity_name',
      'fact',
    ]);
  });

  it('reports counts and the embedder at /health', async () => {
    await post(hub, '/remember', { entity_name: 'Brian', fact: 'Brian likes jazz' });
    const r = await get(hub, '/health');
    expect(r.body).toMatchObject({ ok: true, status: 'ok', counts: { entities: 1, memories: 1 } });
    expect(r.body.embedder).toMatchObject({ provider: 'local', answers: true, vectors: 'ready', pending: 0 });
    expect(r.body.embedder.note).toBeTruthy();
  });

  it('reports what WordNet costs at /health', async () => {
    hub.services.wordnet.expand('keys');
    const r = await get(hub, '/health');
    expect(r.body.wordnet).toMatchObject({ available: true, version: '3.1' });
    expect(r.body.wordnet.load_ms).toBeGreaterThan(0);
    expect(r.body.wordnet.bytes_held).toBeGreaterThan(1_000_000);
    expect(r.body.wordnet.note).toMatch(/^WordNet 3\.1 .*opened in .* ms, holds .* MB/);
  });
});

describe('HTTP auth', () => {
  it('requires the bearer token everywhere but /health', async () => {
    await hub.close();
    hub = await buildTestHub({ config: { http: { token: 's3cret-token' } } });
    expect((await get(hub, '/health')).status).toBe(200);
    for (const [method, url] of [
      ['POST', '/remember'],
      ['POST', '/recall'],
      ['GET', '/docs'],
      ['GET', '/entities'],
      ['POST', '/mcp'],
      ['GET', '/profile/x'],
      ['GET', '/nope'],
    ] as const) {
      const res = await hub.app.inject({ method, url, payload: method === 'POST' ? {} : undefined });
      expect(res.statusCode, url).toBe(401);
      expect(res.json()).toMatchObject({ ok: false, error: 'unauthorized' });
      const wrong = await hub.app.inject({ method, url, headers: { authorization: 'Bearer s3cret-tokeN' } });
      expect(wrong.statusCode, url).toBe(401);
    }
    const ok = await post(
      hub,
      '/remember',
      { entity_name: 'Brian', fact: 'Brian likes jazz' },
      { authorization: 'Bearer s3cret-token' },
    );
    expect(ok.status).toBe(200);
  });
});

describe('GET /audit', () => {
  it('lists mutations newest first, filtered by actor, op prefix and time', async () => {
    const r = await post(hub, '/remember', { entity_name: 'Brian', fact: 'Brian likes jazz' });
    hub.clock.advance(10);
    await post(hub, '/relate', { entity_a: 'Brian', entity_b: 'Anna', rel_type: 'spouse_of' });
    await hub.services.memory.remember(
      {
        entity_name: 'Anna',
        fact: 'Anna runs',
        category: 'general',
        confidence: 1,
        source: 'x',
        entity_type: 'person',
      },
      'mcp',
    );
    const all = await get(hub, '/audit');
    expect(all.body.entries.map((e: { op: string }) => e.op)).toEqual(['memory.add', 'relation.add', 'memory.add']);
    const http = await get(hub, '/audit?actor=http&op=memory.*');
    expect(http.body.entries).toHaveLength(1);
    expect(http.body.entries[0]).toMatchObject({
      actor: 'http',
      target: String(r.body.id),
      after: { fact: 'Brian likes jazz' },
    });
    const since = await get(hub, `/audit?since=${hub.clock.now()}`);
    expect(since.body.entries).toHaveLength(2);
    expect((await get(hub, '/audit?actor=robot')).status).toBe(400);
    expect((await get(hub, '/audit?op=%25')).body.entries).toEqual([]);
  });
});
