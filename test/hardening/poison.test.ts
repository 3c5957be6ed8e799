/** Issue #10 item 2: one rejected request never poisons ingest; nesting depth is refused at the door with one named limit. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../src/lib/schema.js';
import { buildTestHub, post, type TestHub } from '../helpers/hub.js';

/** The same nesting as JSON text: JSON.stringify itself overflows the stack at a few thousand levels. */
const nestedJson = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

async function postRaw(hub: TestHub, url: string, json: string) {
  const res = await hub.app.inject({
    method: 'POST',
    url,
    payload: json,
    headers: { 'content-type': 'application/json' },
  });
  return { status: res.statusCode, body: res.json() as Record<string, any> };
}

/** {"a":{"a":…{"a":1}}} nested `depth` objects deep, built without recursion. */
function nested(depth: number, leaf: unknown = 1): Record<string, unknown> {
  let v: unknown = leaf;
  for (let i = 0; i < depth; i++) v = { a: v };
  return v as Record<string, unknown>;
}

describe('a rejected request never poisons ingest', () => {
  let hub: TestHub;
  beforeEach(async () => {
    hub = await buildTestHub();
  });
  afterEach(() => hub.close());

  it('a composite nested 3,000 deep is refused naming value and the limit; new entities still record afterwards', async () => {
    const deep = await postRaw(hub, '/record', `{"entity_name":"probe","metric":"blob","value":${nestedJson(3000)}}`);
    expect(deep.status).toBe(400);
    expect(deep.body.message).toBe(`value: nested deeper than ${MAX_JSON_DEPTH} levels`);
    for (const name of ['kitchen', 'hall', 'probe']) {
      const r = await post(hub, '/record', { entity_name: name, metric: 'temperature', value: 20 });
      expect(r.status, `${name}: ${JSON.stringify(r.body)}`).toBe(200);
    }
  });

  it('an item rejected inside the writer (no storable part) leaves no cached ids behind', async () => {
    // Passes the door (depth 6 ≤ limit) but holds nothing storable below the flattening depth: refused by the writer
    // after it created the entity and series inside the item's savepoint.
    const odd = await post(hub, '/record', { entity_name: 'ghost', metric: 'blob', value: nested(6, []) });
    expect(odd.status).toBe(400);
    const fresh = await post(hub, '/record', { entity_name: 'newcomer', metric: 'blob', value: { t: 1 } });
    expect(fresh.status, JSON.stringify(fresh.body)).toBe(200);
    const again = await post(hub, '/record', { entity_name: 'ghost', metric: 'blob', value: { t: 2 } });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    const q = await post(hub, '/query_stream', { entity_name: 'newcomer', metric: 'blob.t' });
    expect(q.body.points.map((p: { value: number }) => p.value)).toEqual([1]);
    const g = await post(hub, '/query_stream', { entity_name: 'ghost', metric: 'blob.t' });
    expect(g.body.points.map((p: { value: number }) => p.value)).toEqual([2]);
    const ents = hub.db.prepare('SELECT name FROM entities ORDER BY id').pluck().all();
    expect(ents).toEqual(['newcomer', 'ghost']);
  });

  it('a failing item in a shared batch does not fail the others', async () => {
    const [bad, ok1, ok2] = await Promise.all([
      post(hub, '/record', { entity_name: 'ghost', metric: 'blob', value: nested(6, []) }),
      post(hub, '/record', { entity_name: 'a', metric: 'temperature', value: 1 }),
      post(hub, '/record', { entity_name: 'b', metric: 'temperature', value: 2 }),
    ]);
    expect(bad.status).toBe(400);
    expect([ok1.status, ok2.status]).toEqual([200, 200]);
    const bulk = await post(hub, '/record/bulk', {
      readings: [
        { entity_name: 'c', metric: 'm', value: nested(1000) },
        { entity_name: 'c', metric: 'm2', value: nested(6, []) },
        { entity_name: 'd', metric: 'm', value: 3 },
      ],
    });
    expect(bulk.status).toBe(200);
    expect(bulk.body.results.map((r: { ok: boolean }) => r.ok)).toEqual([false, false, true]);
    expect(bulk.body.results[0].message).toBe(`readings.0.value: nested deeper than ${MAX_JSON_DEPTH} levels`);
  });

  it('meta nested 5,000 deep is a 400 naming meta on /relate, /open_session, /schedule and MCP relate', async () => {
    const meta = nestedJson(5000);
    for (const [url, body] of [
      ['/relate', `{"entity_a":"Brian","entity_b":"Anna","rel_type":"spouse_of","meta":${meta}}`],
      ['/open_session', `{"entity_name":"Brian","meta":${meta}}`],
      ['/schedule', `{"entity_name":"Maya","title":"Dentist","start_ts":1900000000,"meta":${meta}}`],
      ['/wm/set', `{"task_id":1,"key":"k","value":${meta}}`],
      ['/record', `{"entity_name":"Maya","metric":"m","value":${meta}}`],
    ] as const) {
      const r = await postRaw(hub, url, body);
      expect(r.status, url).toBe(400);
      expect(r.body.message, url).toBe(
        `${url === '/wm/set' || url === '/record' ? 'value' : 'meta'}: nested deeper than ${MAX_JSON_DEPTH} levels`,
      );
    }
    const within = await post(hub, '/relate', {
      entity_a: 'Brian',
      entity_b: 'Anna',
      rel_type: 'spouse_of',
      meta: nested(MAX_JSON_DEPTH - 1),
    });
    expect(within.status).toBe(200);
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { InMemoryTransport } = await import('@modelcontextprotocol/sdk/inMemory.js');
    const { createMcpServer } = await import('../../src/mcp/server.js');
    const [a, b] = InMemoryTransport.createLinkedPair();
    const server = createMcpServer(hub.services);
    await server.connect(b);
    const client = new Client({ name: 't', version: '1' });
    await client.connect(a);
    const res = (await client.callTool({
      name: 'relate',
      arguments: { entity_a: 'Brian', entity_b: 'Anna', rel_type: 'x', meta: nested(5000) },
    })) as { isError?: boolean; content: { text: string }[] };
    expect(res.isError).toBe(true);
    expect(res.content[0].text).toContain(`meta: nested deeper than ${MAX_JSON_DEPTH} levels`);
    await client.close();
  });
});
