// Two-tier recall at every door that recalls: `results` (confident) and `possible` (labelled low
// confidence), over HTTP and MCP, for recall, get_context, get_context_budget and cross_query.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { buildTestHub, post, type TestHub } from '../helpers/hub.js';

let hub: TestHub;
let client: Client;
const mcp = async (name: string, args: Record<string, unknown>) => {
  const r = await client.callTool({ name, arguments: args });
  expect(r.isError, JSON.stringify(r.structuredContent)).toBeFalsy();
  return r.structuredContent as Record<string, any>;
};
const facts = (xs: { fact: string }[]) => xs.map((x) => x.fact);
const HEATER = 'Sam the plumber services the gas heater every October';
// Asked in other words: the local embedder ranks the heater fact first, but not surely enough to state it.
const BOILER = 'who looks after our boiler';

beforeAll(async () => {
  hub = await buildTestHub();
  const { http } = await hub.start();
  client = new Client({ name: 'tiers', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${http}/mcp`)));
  for (const [entity_name, fact] of [
    ['Sam', HEATER],
    ['Brian', 'Brian keeps the bedroom at 68°F at night'],
    ['Anna', 'Anna is lactose intolerant and drinks oat milk'],
    ['Biscuit', 'Biscuit the golden retriever eats grain-free kibble twice a day'],
    ['car', 'The Subaru needs new tyres before winter'],
  ])
    await post(hub, '/remember', { entity_name, fact });
  await post(hub, '/remember', { entity_name: 'Brian', fact: 'Brian parks in the garage', fact_key: 'parking' });
  await post(hub, '/remember', { entity_name: 'Brian', fact: 'Brian parks on the driveway now', fact_key: 'parking' });
});
afterAll(async () => {
  await client?.close();
  await hub?.close();
});

describe('recall: results and possible', () => {
  it('HTTP: a paraphrase gets no confident answer but the fact as possible, labelled in the text; possible: false turns it off', async () => {
    const r = (await post(hub, '/recall', { query: BOILER })).body;
    expect(r.results).toEqual([]);
    expect(r.possible[0]).toMatchObject({ fact: HEATER, low_confidence: true });
    expect(typeof r.possible[0].score).toBe('number');
    expect(r.result).toMatch(
      /^Nothing remembered answers that\.\nNot sure — possibly related:\n- Sam: Sam the plumber/,
    );
    const strict = (await post(hub, '/recall', { query: BOILER, possible: false })).body;
    expect(strict.results).toEqual([]);
    expect(strict.possible).toEqual([]);
    expect(strict.result).not.toContain('Not sure');
  });

  it('a confident answer leaves room: possible only when fewer than top_k are confident, and never more than top_k', async () => {
    const r = (await post(hub, '/recall', { query: 'what milk does Anna drink', top_k: 1 })).body;
    expect(facts(r.results)).toEqual(['Anna is lactose intolerant and drinks oat milk']);
    expect(r.possible).toEqual([]);
    const wide = (await post(hub, '/recall', { query: BOILER, top_k: 2 })).body;
    expect(wide.possible.length).toBeLessThanOrEqual(2);
  });

  it('a superseded fact is in neither tier, even asked for in its own words', async () => {
    const r = (await post(hub, '/recall', { query: 'does Brian park in the garage' })).body;
    expect([...facts(r.results), ...facts(r.possible)]).not.toContain('Brian parks in the garage');
  });

  it('rejects a non-boolean possible with a 400 naming the field', async () => {
    const r = await post(hub, '/recall', { query: BOILER, possible: 'yes' });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/^possible/);
  });

  it('MCP recall returns both tiers and the labelled text', async () => {
    const r = await mcp('recall', { query: BOILER });
    expect(r.results).toEqual([]);
    expect(r.possible[0]).toMatchObject({ fact: HEATER, low_confidence: true });
    expect(r.result).toContain('Not sure — possibly related:\n- Sam:');
    expect((await mcp('recall', { query: BOILER, possible: false })).possible).toEqual([]);
  });
});

describe('get_context, get_context_budget and cross_query carry possible', () => {
  it('get_context (HTTP and MCP): possible beside memories, labelled in result', async () => {
    for (const r of [
      (await post(hub, '/get_context', { query: BOILER })).body,
      await mcp('get_context', { query: BOILER }),
    ]) {
      expect(r.memories).toEqual([]);
      expect(r.possible[0]).toMatchObject({ fact: HEATER, low_confidence: true });
      expect(r.result).toContain('Not sure — possibly related:\n- Sam:');
    }
    expect((await post(hub, '/get_context', { query: BOILER, possible: false })).body.result).toBe(
      'Nothing relevant is remembered.',
    );
  });

  it('get_context scoped to an entity with few facts never says nothing when it has facts', async () => {
    const r = (await post(hub, '/get_context', { entity_name: 'Brian', query: 'how warm does he like to sleep' })).body;
    expect(r.result).not.toBe('Nothing relevant is remembered.');
    expect([...facts(r.memories), ...facts(r.possible)]).toContain('Brian keeps the bedroom at 68°F at night');
    expect([...facts(r.memories), ...facts(r.possible)]).not.toContain('Brian parks in the garage');
  });

  it('get_context_budget packs possible memories after the confident ones, labelled; possible: false leaves them out', async () => {
    const r = (await post(hub, '/get_context_budget', { query: BOILER, token_budget: 500, include_readings: false }))
      .body;
    const line = r.items.find((i: { text: string }) => i.text.includes(HEATER));
    expect(line).toMatchObject({ tier: 'memory', low_confidence: true });
    expect(line.text).toMatch(/^\(not sure, possibly related\) Sam: /);
    const strict = (
      await post(hub, '/get_context_budget', {
        query: BOILER,
        token_budget: 500,
        include_readings: false,
        possible: false,
      })
    ).body;
    expect(strict.items.some((i: { text: string }) => i.text.includes(HEATER))).toBe(false);
  });

  it('cross_query (HTTP and MCP): possible memories in their own list and under the label', async () => {
    for (const r of [
      (await post(hub, '/cross_query', { query: BOILER })).body,
      await mcp('cross_query', { query: BOILER }),
    ]) {
      expect(r.results.filter((x: { tier: string }) => x.tier === 'memory')).toEqual([]);
      expect(r.possible[0]).toMatchObject({ tier: 'memory', fact: HEATER, low_confidence: true });
      expect(r.result).toContain('Not sure — possibly related:\n[memory] Sam:');
    }
  });
});
