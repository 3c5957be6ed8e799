/**
 * Input at every door: one validation path (lib/validation.ts `check`) with the shared schemas.
 * An absent body is `{}` and messages say what is expected.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createMcpServer } from '../../src/mcp/server.js';
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

async function mcp() {
  const [a, b] = InMemoryTransport.createLinkedPair();
  await createMcpServer(hub.services).connect(b);
  const client = new Client({ name: 't', version: '1' });
  await client.connect(a);
  const call = async (name: string, args?: Record<string, unknown>) => {
    const r = (await client.callTool({ name, arguments: args })) as { isError?: boolean; structuredContent: Record<string, any> };
    return { isError: Boolean(r.isError), body: r.structuredContent };
  };
  return { client, call };
}

describe('an absent body is {}', () => {
  it('runs a route whose fields are all optional, with no body, no content type, or an empty JSON body', async () => {
    expect((await raw('/patterns/run')).status).toBe(200);
    expect((await raw('/prune', '', json)).status).toBe(200);
    expect((await raw('/patterns/run', 'null', json)).status).toBe(200);
  });

  it('names the fields a route needs', async () => {
    for (const [payload, headers] of [[undefined, {}], ['', json], ['null', json]] as const) {
      const r = await raw('/remember', payload, headers);
      expect(r.status).toBe(400);
      expect(r.body.message).toBe('body: required — a JSON object with entity_name and fact');
    }
    expect((await raw('/record')).body.message).toBe('body: required — a JSON object with entity_name, metric and value');
    const { client, call } = await mcp();
    expect((await call('wm_list')).isError).toBe(false);
    expect((await call('remember')).body.message).toBe('arguments: required — a JSON object with entity_name and fact');
    await client.close();
  });
});

describe('messages name the field and say what is expected', () => {
  it.each([
    ['{"entity_name":"x","metric":"m"}', 'value: required — a number, a string, a boolean or an object'],
    ['{"entity_name":"x","metric":"m","value":null}', 'value: expected a number, a string, a boolean or an object, got null'],
    ['{"entity_name":"x","metric":"m","value":[1,2]}', 'value: expected a number, a string, a boolean or an object, got an array'],
    ['{"entity_name":"x","metric":"m","value":1e400}', 'value: expected a number, a string, a boolean or an object, got a number out of range'],
    ['{"entity_name":"x","metric":"m","value":1,"ts":1764633600000}', 'ts: 1764633600000 looks like milliseconds; send epoch seconds (1764633600) or ISO-8601 with a zone'],
    ['{"entity_name":"x","metric":"m","value":1,"ts":true}', 'ts: expected epoch seconds or an ISO-8601 date-time with a zone, got true'],
    ['{"entity_name":"x","metric":5,"value":1}', 'metric: expected a string, got 5'],
  ])('POST /record %s', async (payload, message) => {
    const r = await raw('/record', payload, json);
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(message);
  });

  it('for /schedule, path ids, enums, bounds and trust', async () => {
    expect((await post(hub, '/schedule', { entity_name: 'Maya', title: 'Soccer' })).body.message).toBe('start_ts: required — epoch seconds or an ISO-8601 date-time with a zone');
    expect((await get(hub, '/get_session/abc')).body.message).toBe('session_id: expected a number');
    expect((await get(hub, '/wm/abc')).body.message).toBe('task_id: expected a number');
    expect((await post(hub, '/remember', { entity_name: 'B', fact: 'x', category: 'gossip' })).body.message).toBe('category: expected one of preference, habit, routine, relationship, insight, general, got "gossip"');
    expect((await post(hub, '/remember', { entity_name: 'B', fact: 'x', confidence: 2 })).body.message).toBe('confidence: must be at most 1, got 2');
    expect((await post(hub, '/remember', { entity_name: 'B', fact: 'x', source_trust: 'boss' })).body.message).toBe('source_trust: expected a number or one of user, hardware, system, inferred, external, got "boss"');
    expect((await post(hub, '/remember', { fact: 'x' })).body.message).toBe('entity_name: required — a string');
    expect((await raw('/remember', '[]', json)).body.message).toBe('body: expected an object, got an array');
  });

  it('over MCP and in bulk items too', async () => {
    const bulk = await post(hub, '/record/bulk', { readings: [null, { entity_name: 'x', metric: 'm', ts: 1764633600000, value: 1 }] });
    expect(bulk.body.results.map((r: { message: string }) => r.message)).toEqual([
      'readings.0: required — a JSON object with entity_name, metric and value',
      'readings.1.ts: 1764633600000 looks like milliseconds; send epoch seconds (1764633600) or ISO-8601 with a zone',
    ]);
    const { client, call } = await mcp();
    expect((await call('record', { entity_name: 'x', metric: 'm', value: [1] })).body.message).toBe('value: expected a number, a string, a boolean or an object, got an array');
    expect((await call('get_session', { session_id: 'abc' })).body.message).toBe('session_id: expected a number');
    await client.close();
  });
});
