/**
 * Input at every door: one validation path (lib/validation.ts `check`) with the shared schemas.
 * Unknown fields are refused by name with the field meant, an absent body is `{}`, messages say
 * what is expected, a relation to itself is refused — and a refused request leaves no trace.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { createBridge } from '../../src/mqtt/bridge.js';
import { createMappingSet } from '../../src/mqtt/mappings/index.js';
import { buildTestHub, get, post, type TestHub } from '../helpers/hub.js';

let hub: TestHub;
beforeEach(async () => {
  hub = await buildTestHub();
});
afterEach(() => hub.close());

const raw = async (url: string, payload?: string, headers: Record<string, string> = {}) => {
  const res = await hub.app.inject({ method: 'POST', url, payload, headers });
  return { status: res.statusCode, body: res.json() as Record<string, any> };
};
const json = { 'content-type': 'application/json' };
/** Rows in every table a write could touch: a refused request must leave all of them as they were. */
const traces = () =>
  Object.fromEntries(
    ['entities', 'memories', 'relations', 'schedule_events', 'audit', 'locations'].map((t) => [
      t,
      hub.db.prepare(`SELECT count(*) FROM ${t}`).pluck().get(),
    ]),
  );

async function mcp() {
  const [a, b] = InMemoryTransport.createLinkedPair();
  await createMcpServer(hub.services).connect(b);
  const client = new Client({ name: 't', version: '1' });
  await client.connect(a);
  const call = async (name: string, args?: Record<string, unknown>) => {
    const r = (await client.callTool({ name, arguments: args })) as {
      isError?: boolean;
      structuredContent: Record<string, any>;
    };
    return { isError: Boolean(r.isError), body: r.structuredContent };
  };
  return { client, call };
}

describe('unknown fields are refused by name, with the field meant, and nothing is stored', () => {
  it.each([
    [
      '/schedule',
      { entity_name: 'Maya', title: 'Soccer practice', start_ts: 1764633600, rrule: 'FREQ=SOMETIMES' },
      'body: unknown field "rrule" — did you mean recurrence?',
    ],
    [
      '/remember',
      { entity_name: 'Brian', fact: 'Brian likes tea', catgory: 'preference' },
      'body: unknown field "catgory" — did you mean category?',
    ],
    [
      '/remember',
      { entityName: 'Brian', fact: 'Brian likes tea' },
      'body: unknown field "entityName" — did you mean entity_name?',
    ],
    [
      '/record',
      { entity_name: 'boiler', metric: 'pressure', value: 1.4, unti: 'bar' },
      'body: unknown field "unti" — did you mean unit?',
    ],
    [
      '/relate',
      { entity_a: 'Brian', entity_b: 'Anna', rel_type: 'spouse_of', typ: 'x' },
      /^body: unknown field "typ"; the fields are entity_a, entity_b, rel_type/,
    ],
    [
      '/locate',
      { entity_name: 'keys', container: 'hallway' },
      'body: unknown field "container" — did you mean container_name or container_type?',
    ],
  ])('POST %s %j', async (url, body, message) => {
    const before = traces();
    const r = await post(hub, url, body);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ ok: false, error: 'invalid' });
    expect(r.body.message).toMatch(message);
    expect(traces()).toEqual(before);
  });

  it('a hostile key is quoted, and the message still starts with a field of the route', async () => {
    for (const key of ['', 'a b: c', "'; DROP TABLE memories; --", 'x'.repeat(500)]) {
      const r = await post(hub, '/remember', { entity_name: 'Brian', fact: 'x', [key]: 1 });
      expect(r.status).toBe(400);
      expect(r.body.message).toMatch(/^body: unknown field "/);
      expect(r.body.message.length).toBeLessThan(300);
    }
  });

  it('in a bulk item, in a GET query string, and over MCP', async () => {
    const bulk = await post(hub, '/record/bulk', {
      readings: [
        { entity_name: 'a', metric: 'm', value: 1, unti: 'C' },
        { entity_name: 'a', metric: 'm', value: 2 },
      ],
    });
    expect(bulk.body.results[0]).toMatchObject({
      ok: false,
      message: 'readings.0: unknown field "unti" — did you mean unit?',
    });
    expect(bulk.body.inserted).toBe(1);
    const fading = await get(hub, '/fading?threshhold=0.5');
    expect(fading.status).toBe(400);
    expect(fading.body.message).toBe('query: unknown field "threshhold" — did you mean threshold?');
    const { client, call } = await mcp();
    const r = await call('remember', { entity_name: 'Brian', fact: 'Brian likes tea', catgory: 'preference' });
    expect(r).toMatchObject({
      isError: true,
      body: { error: 'invalid', message: 'arguments: unknown field "catgory" — did you mean category?' },
    });
    expect(hub.db.prepare('SELECT count(*) FROM memories').pluck().get()).toBe(0);
    await client.close();
  });

  it('free-form values keep any keys', async () => {
    expect(
      (
        await post(hub, '/relate', {
          entity_a: 'Brian',
          entity_b: 'Anna',
          rel_type: 'spouse_of',
          meta: { since: 2019, anything: { at: 'all' } },
        })
      ).status,
    ).toBe(200);
    expect(
      (await post(hub, '/record', { entity_name: 'Brian', metric: 'mood', value: { mood: 'calm', whatever: 0.9 } }))
        .status,
    ).toBe(200);
    const task = await post(hub, '/wm/open', { task_name: 'party' });
    expect(
      (await post(hub, '/wm/set', { task_id: task.body.task_id, key: 'plan', value: { any: ['keys', { at: 'all' }] } }))
        .status,
    ).toBe(200);
  });

  it('the JSON Schemas say so: additionalProperties false on OpenAPI bodies and MCP tool inputs, not on free-form values', async () => {
    const doc = (await get(hub, '/docs')).body as { paths: Record<string, any> };
    const body = (path: string) => doc.paths[path].post.requestBody.content['application/json'].schema;
    expect(body('/remember').additionalProperties).toBe(false);
    expect(body('/schedule').additionalProperties).toBe(false);
    expect(body('/relate').properties.meta.additionalProperties).not.toBe(false);
    const { client } = await mcp();
    const { tools } = await client.listTools();
    expect(tools.filter((t) => t.inputSchema.additionalProperties !== false).map((t) => t.name)).toEqual([]);
    const relate = tools.find((t) => t.name === 'relate')!.inputSchema.properties as Record<
      string,
      { additionalProperties?: unknown }
    >;
    expect(relate.meta.additionalProperties).toBe(true);
    await client.close();
  });
});

describe('an absent body is {}', () => {
  it('runs a route whose fields are all optional, with no body, no content type, or an empty JSON body', async () => {
    expect((await raw('/patterns/run')).status).toBe(200);
    expect((await raw('/prune', '', json)).status).toBe(200);
    expect((await raw('/patterns/run', 'null', json)).status).toBe(200);
  });

  it('names the fields a route needs', async () => {
    for (const [payload, headers] of [
      [undefined, {}],
      ['', json],
      ['null', json],
    ] as const) {
      const r = await raw('/remember', payload, headers);
      expect(r.status).toBe(400);
      expect(r.body.message).toBe('body: required — a JSON object with entity_name and fact');
    }
    expect((await raw('/record')).body.message).toBe(
      'body: required — a JSON object with entity_name, metric and value',
    );
    const { client, call } = await mcp();
    expect((await call('wm_list')).isError).toBe(false);
    expect((await call('remember')).body.message).toBe('arguments: required — a JSON object with entity_name and fact');
    await client.close();
  });
});

describe('messages name the field and say what is expected', () => {
  it.each([
    ['{"entity_name":"x","metric":"m"}', 'value: required — a number, a string, a boolean or an object'],
    [
      '{"entity_name":"x","metric":"m","value":null}',
      'value: expected a number, a string, a boolean or an object, got null',
    ],
    [
      '{"entity_name":"x","metric":"m","value":[1,2]}',
      'value: expected a number, a string, a boolean or an object, got an array',
    ],
    [
      '{"entity_name":"x","metric":"m","value":1e400}',
      'value: expected a number, a string, a boolean or an object, got a number out of range',
    ],
    [
      '{"entity_name":"x","metric":"m","value":1,"ts":1764633600000}',
      'ts: 1764633600000 looks like milliseconds; send epoch seconds (1764633600) or ISO-8601 with a zone',
    ],
    [
      '{"entity_name":"x","metric":"m","value":1,"ts":true}',
      'ts: expected epoch seconds or an ISO-8601 date-time with a zone, got true',
    ],
    ['{"entity_name":"x","metric":5,"value":1}', 'metric: expected a string, got 5'],
  ])('POST /record %s', async (payload, message) => {
    const r = await raw('/record', payload, json);
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(message);
  });

  it('for /schedule, path ids, enums, bounds and trust', async () => {
    expect((await post(hub, '/schedule', { entity_name: 'Maya', title: 'Soccer' })).body.message).toBe(
      'start_ts: required — epoch seconds or an ISO-8601 date-time with a zone',
    );
    expect((await get(hub, '/get_session/abc')).body.message).toBe('session_id: expected a number');
    expect((await get(hub, '/wm/abc')).body.message).toBe('task_id: expected a number');
    expect((await post(hub, '/remember', { entity_name: 'B', fact: 'x', category: 'gossip' })).body.message).toBe(
      'category: expected one of preference, habit, routine, relationship, insight, general, got "gossip"',
    );
    expect((await post(hub, '/remember', { entity_name: 'B', fact: 'x', confidence: 2 })).body.message).toBe(
      'confidence: must be at most 1, got 2',
    );
    expect((await post(hub, '/remember', { entity_name: 'B', fact: 'x', source_trust: 'boss' })).body.message).toBe(
      'source_trust: expected a number or one of user, hardware, system, inferred, external, got "boss"',
    );
    expect((await post(hub, '/remember', { fact: 'x' })).body.message).toBe('entity_name: required — a string');
    expect((await raw('/remember', '[]', json)).body.message).toBe('body: expected an object, got an array');
  });

  it('over MCP and in bulk items too', async () => {
    const bulk = await post(hub, '/record/bulk', {
      readings: [null, { entity_name: 'x', metric: 'm', ts: 1764633600000, value: 1 }],
    });
    expect(bulk.body.results.map((r: { message: string }) => r.message)).toEqual([
      'readings.0: required — a JSON object with entity_name, metric and value',
      'readings.1.ts: 1764633600000 looks like milliseconds; send epoch seconds (1764633600) or ISO-8601 with a zone',
    ]);
    const { client, call } = await mcp();
    expect((await call('record', { entity_name: 'x', metric: 'm', value: [1] })).body.message).toBe(
      'value: expected a number, a string, a boolean or an object, got an array',
    );
    expect((await call('get_session', { session_id: 'abc' })).body.message).toBe('session_id: expected a number');
    await client.close();
  });
});

describe('a relation to itself is refused at every door', () => {
  it('HTTP, whatever the spelling of the name, and nothing is created', async () => {
    const before = traces();
    for (const entity_b of ['Brian', ' brian ', 'BRIAN']) {
      const r = await post(hub, '/relate', { entity_a: 'Brian', entity_b, rel_type: 'knows' });
      expect(r.status, entity_b).toBe(400);
      expect(r.body.message).toBe('entity_b: the same entity as entity_a; a relation needs two different entities');
    }
    expect(traces()).toEqual(before);
    expect((await post(hub, '/relate', { entity_a: 'Brian', entity_b: 'Anna', rel_type: 'knows' })).status).toBe(200);
  });

  it('MCP relate and a Markdown import', async () => {
    const { client, call } = await mcp();
    const r = await call('relate', { entity_a: 'Brian', entity_b: 'brian', rel_type: 'knows' });
    expect(r).toMatchObject({
      isError: true,
      body: {
        error: 'invalid',
        message: 'entity_b: the same entity as entity_a; a relation needs two different entities',
      },
    });
    await client.close();
    const note =
      '---\nname: Brian\n---\n# Brian\n\n## Memories\n\n## Relations\n- knows:: [[Brian]]\n- spouse_of:: [[Anna]]\n';
    const imported = await post(hub, '/import/markdown', { files: [{ path: 'Brian.md', content: note }] });
    expect(imported.status).toBe(200);
    expect(imported.body.errors).toEqual([
      {
        file: 'Brian.md',
        line: 9,
        message:
          'relation knows [[Brian]]: entity_b: the same entity as entity_a; a relation needs two different entities',
      },
    ]);
    const rows = hub.db.prepare('SELECT rel_type FROM relations').pluck().all();
    expect(rows).toEqual(['spouse_of']);
  });
});

describe('MQTT command topics', () => {
  const bridge = () => {
    const lines: string[] = [];
    return {
      lines,
      b: createBridge({
        services: hub.services,
        mappings: createMappingSet(),
        timeZone: 'UTC',
        log: (l) => lines.push(l),
      }),
    };
  };

  it('remember and locate payloads are checked like HTTP bodies: unknown keys refused by name, known ones passed on', async () => {
    const { lines, b } = bridge();
    const before = traces();
    expect(
      await b.handle('hearth/remember/Brian', Buffer.from('{"fact":"Brian likes tea","catgory":"preference"}')),
    ).toBe(false);
    expect(
      await b.handle('hearth/locate/keys', Buffer.from('{"container_name":"hallway","entity_name":"glasses"}')),
    ).toBe(false);
    expect(traces()).toEqual(before);
    expect(lines[0]).toMatch(
      /rejected message on hearth\/remember\/Brian .*: payload: unknown field "catgory" — did you mean category\?$/,
    );
    expect(lines[1]).toMatch(/hearth\/locate\/keys .*: entity_name comes from the topic/);
    expect(
      await b.handle(
        'hearth/remember/Anna',
        Buffer.from('{"fact":"Anna likes jazz","category":"preference","valid_from":"2025-01-01T00:00:00Z"}'),
      ),
    ).toBe(true);
    const anna = hub.db.prepare("SELECT category, valid_from FROM memories WHERE fact = 'Anna likes jazz'").get();
    expect(anna).toEqual({ category: 'preference', valid_from: Date.parse('2025-01-01T00:00:00Z') / 1000 });
  });

  it('a record payload keeps ignoring keys of its own (forwarded device payloads), and names milliseconds', async () => {
    const { lines, b } = bridge();
    hub.clock.set(Date.now() / 1000);
    expect(
      await b.handle(
        'hearth/record/boiler/pressure',
        Buffer.from('{"value":1.4,"unit":"bar","battery":80,"linkquality":120}'),
      ),
    ).toBe(true);
    expect(
      (await post(hub, '/query_stream', { entity_name: 'boiler', metric: 'pressure' })).body.points[0],
    ).toMatchObject({ value: 1.4, unit: 'bar' });
    expect(await b.handle('hearth/record/boiler/pressure', Buffer.from('{"value":1.5,"ts":1764633600000}'))).toBe(
      false,
    );
    expect(lines.at(-1)).toMatch(/1764633600000 looks like milliseconds/);
  });
});
