import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { buildTestHub, get, post, type TestHub } from '../helpers/hub.js';
import { ALL_TOOLS, SEED_TOOLS, toolNames } from '../helpers/tools.js';

let hub: TestHub;
let client: Client;
const called = new Set<string>();
async function call(name: string, args: Record<string, unknown>) {
  called.add(name);
  const r = await client.callTool({ name, arguments: args });
  return { isError: Boolean(r.isError), body: r.structuredContent as Record<string, any> };
}
const ok = async (name: string, args: Record<string, unknown>) => {
  const r = await call(name, args);
  expect(r.isError, `${name}: ${JSON.stringify(r.body)}`).toBe(false);
  expect(typeof r.body.result, name).toBe('string');
  return r.body;
};

beforeAll(async () => {
  hub = await buildTestHub();
  const { http } = await hub.start();
  client = new Client({ name: 'all-tools', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${http}/mcp`)));
});
afterAll(async () => {
  await client?.close();
  await hub?.close();
});

describe('every seed tool over MCP and HTTP', () => {
  it('lists all 35 seed tools, each with a description and an object input schema', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const n of SEED_TOOLS) expect(names, n).toContain(n);
    expect(SEED_TOOLS).toHaveLength(35);
    expect(toolNames(tools)).toEqual(ALL_TOOLS);
    for (const t of tools) {
      expect(t.description!.length, t.name).toBeGreaterThan(40);
      expect(t.inputSchema.type).toBe('object');
    }
  });

  it('calls each tool once, and the matching HTTP route answers the same way', async () => {
    const m = await ok('remember', {
      entity_name: 'Brian',
      fact: 'Brian keeps the bedroom at 68°F at night',
      category: 'preference',
    });
    await ok('recall', { query: 'bedroom temperature' });
    await ok('get_context', { entity_name: 'Brian' });
    await ok('relate', { entity_a: 'Brian', entity_b: 'Anna', rel_type: 'spouse_of' });
    expect((await ok('get_related', { entity_name: 'Brian' })).relations).toHaveLength(1);
    await ok('unrelate', { entity_a: 'Brian', entity_b: 'Anna', rel_type: 'spouse_of' });
    const noLlm = await call('extract_and_remember', { text: 'I love jazz' });
    expect(noLlm.body.error).toBe('unavailable');

    await ok('record', { entity_name: 'bedroom', metric: 'temperature', value: 20, ts: hub.clock.now() - 86_400 });
    await ok('record', { entity_name: 'bedroom', metric: 'temperature', value: 21 });
    expect((await ok('query_stream', { entity_name: 'bedroom', metric: 'temperature' })).points).toHaveLength(2);
    await ok('get_trends', { entity_name: 'bedroom', metric: 'temperature', days: 3 });
    await ok('schedule', {
      entity_name: 'Maya',
      title: 'Soccer',
      start_ts: hub.clock.now() + 3600,
      recurrence: 'FREQ=WEEKLY;BYDAY=TU',
    });
    expect((await ok('get_profile', { entity_name: 'bedroom' })).readings[0].value).toBe(21);

    const s = await ok('open_session', { entity_name: 'Brian' });
    await ok('log_turn', {
      session_id: s.session_id,
      role: 'user',
      content: 'Remind me that the boiler service is on Friday',
    });
    await ok('close_session', { session_id: s.session_id, summary: 'Boiler service reminder' });
    await ok('get_session', { session_id: s.session_id });
    expect((await ok('search_sessions', { query: 'boiler' })).results).toHaveLength(1);

    const t = await ok('wm_open', { task_name: "plan Maya's birthday", entity_name: 'Maya', ttl_seconds: 3600 });
    await ok('wm_set', { task_id: t.task_id, key: 'guests', value: 12 });
    await ok('wm_get', { task_id: t.task_id, key: 'guests' });
    await ok('wm_list', { status: 'open' });
    expect((await ok('wm_close', { task_id: t.task_id, promote: true })).promoted_memory_id).toBeGreaterThan(0);

    await ok('get_context_budget', { entity_name: 'Brian', token_budget: 500 });
    const i = await ok('intend', {
      entity_name: 'Anna',
      trigger_text: 'when Anna gets home',
      action_text: 'remind her about the parcel',
    });
    expect((await ok('check_intentions', { text: 'Anna just got home' })).triggered[0].id).toBe(i.id);
    await ok('list_intentions', { entity_name: 'Anna', active_only: false });
    const j = await ok('intend', {
      entity_name: 'Anna',
      trigger_text: 'when the car is washed',
      action_text: 'x',
      once: false,
    });
    await ok('dismiss_intention', { intention_id: j.id });

    await ok('locate', { entity_name: 'car keys', container_name: 'kitchen drawer' });
    expect((await ok('find', { query: 'where are my keys?' })).container_name).toBe('kitchen drawer');
    await ok('seen_at', { entity_name: 'car keys' });
    expect((await ok('location_history', { entity_name: 'car keys' })).locations.length).toBeGreaterThan(0);

    await ok('cross_query', { query: 'how warm is the bedroom' });
    await ok('prune', { dry_run: true });
    await ok('get_fading_memories', { threshold: 0.5 });
    await ok('forget', { memory_id: m.id });
    expect([...called].sort()).toEqual([...SEED_TOOLS].sort());

    // The seed's HTTP paths for the same tiers.
    for (const [method, url, body] of [
      ['GET', `/get_session/${s.session_id}`],
      ['GET', `/wm/${t.task_id}`],
      ['GET', '/wm/list?status=all'],
      ['GET', '/intentions?entity_name=Anna&active_only=false'],
      ['GET', '/location_history/car%20keys'],
      ['POST', '/find', { query: 'where are my keys' }],
      ['POST', '/cross_query', { query: 'boiler' }],
      ['GET', '/fading'],
      ['GET', '/schedule?entity_name=Maya'],
      ['POST', '/search_sessions', { query: 'boiler' }],
    ] as [string, string, object?][]) {
      const r = method === 'GET' ? await get(hub, url) : await post(hub, url, body);
      expect(r.status, url).toBe(200);
      expect(r.body.ok, url).toBe(true);
    }
  });
});
