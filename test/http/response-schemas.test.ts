/**
 * Response schemas (declared beside each route: an operation's `output`, attached in route.ts): /docs shows what each route answers,
 * and the schemas only describe — an answer keeps every field its service returned, listed or not.
 */
import Fastify from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { routes } from '../../src/http/route.js';
import { documentedRoutes } from '../../src/http/route.js';
import { RecallInput } from '../../src/tiers/memory/memory.schemas.js';
import { buildTestHub, get, post, type TestHub } from '../helpers/hub.js';

let hub: TestHub;
beforeEach(async () => {
  hub = await buildTestHub();
});
afterEach(async () => {
  await hub.close();
});

/** `/profile/:entity_name` as OpenAPI writes it. */
const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

describe('response schemas', () => {
  it('/docs lists a 200 answer for every documented route, naming its fields', async () => {
    const doc = (await get(hub, '/docs')).body as { paths: Record<string, Record<string, any>> };
    const documented = documentedRoutes();
    expect(documented.length).toBeGreaterThanOrEqual(50);
    for (const key of documented) {
      const [method, url] = key.split(' ');
      const op = doc.paths[openApiPath(url)]?.[method.toLowerCase()];
      expect(op, `${key} is a route`).toBeDefined();
      const schema = op.responses?.['200']?.content?.['application/json']?.schema;
      expect(schema, `${key} documents its answer`).toBeDefined();
      expect(schema.properties.ok).toBeDefined();
      expect(schema.properties.result).toBeDefined();
    }
    const fields = (path: string, method = 'post') =>
      Object.keys(doc.paths[path][method].responses['200'].content['application/json'].schema.properties);
    expect(fields('/recall')).toEqual(expect.arrayContaining(['results', 'possible', 'mode_used', 'warnings']));
    expect(fields('/remember')).toEqual(expect.arrayContaining(['id', 'entity_id', 'action', 'superseded']));
    expect(fields('/record/bulk')).toEqual(expect.arrayContaining(['inserted', 'rejected', 'results']));
    expect(fields('/profile/{entity_name}', 'get')).toEqual(expect.arrayContaining(['entity', 'memories']));
    // Loose: what the schema does not list may still be sent, and the document says so.
    const recall = doc.paths['/recall'].post.responses['200'].content['application/json'].schema;
    expect(recall.additionalProperties).not.toBe(false);
  });

  it('answers carry every field the service returned: /remember, /recall with possible, /record/bulk', async () => {
    const fact = 'Brian keeps the bedroom at 68°F at night';
    const remember = await post(hub, '/remember', { entity_name: 'Brian', fact });
    expect(Object.keys(remember.body).sort()).toEqual(
      ['action', 'entity_id', 'id', 'ok', 'result', 'superseded', 'warnings'].sort(),
    );
    await post(hub, '/remember', { entity_name: 'Brian', fact: 'Brian takes his coffee black' });
    const input = { query: 'bedroom', entity_name: 'Brian' }; // one confident answer, one possible
    const recall = await post(hub, '/recall', input);
    const direct = JSON.parse(JSON.stringify(await hub.services.memory.recall(RecallInput.parse(input))));
    expect(recall.body).toEqual({ ok: true, ...direct });
    expect(recall.body.results.length).toBeGreaterThan(0);
    expect(recall.body.possible.length).toBeGreaterThan(0);
    for (const hit of [...recall.body.results, ...recall.body.possible])
      expect(Object.keys(hit)).toEqual(expect.arrayContaining(['id', 'fact', 'score', 'effective_confidence']));

    const bulk = await post(hub, '/record/bulk', {
      readings: [
        { entity_name: 'bedroom', metric: 'temperature', value: 21, unit: 'C' },
        { entity_name: '', metric: 'temperature', value: 1 },
      ],
    });
    expect(bulk.body).toMatchObject({ ok: true, count: 2, inserted: 1, rejected: 1 });
    expect(bulk.body.results[0]).toEqual({ ok: true, id: expect.any(Number) });
    const refused = { ok: false, error: 'invalid', message: expect.stringMatching(/entity_name/) };
    expect(bulk.body.results[1]).toMatchObject(refused);
  });

  it('a field the schema does not list is sent as it is (no serializer strips it)', async () => {
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    // /remember's documented answer lists id, entity_id, action, superseded, warnings — not these.
    const listed = { id: 1, entity_id: 2, action: 'added', superseded: null, warnings: [] };
    const extra = { ...listed, surprise: { deep: [1, 'two'] } };
    await app.register(
      routes('t', (r) => r.post('/remember', z.object({}), () => ({ result: 'ok', ...extra, later: 'field' }))),
    );
    const res = await app.inject({ method: 'POST', url: '/remember', payload: {} });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, result: 'ok', ...extra, later: 'field' });
    await app.close();
  });
});
