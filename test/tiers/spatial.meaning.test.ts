/**
 * "Where is…" by meaning (issue #25 item 4), through the HTTP and MCP doors: find, seen_at and
 * cross_query match object names through WordNet ("my mobile" → phone, "the hoover" → vacuum
 * cleaner), locations lead a where-question in cross_query, and "not found" is a sentence to say aloud.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { buildTestHub, post, type TestHub } from '../helpers/hub.js';
import { objectPhrase } from '../../src/tiers/spatial/spatial.service.js';

let hub: TestHub;
let client: Client;
const tool = async (name: string, args: Record<string, unknown>) => {
  const r = await client.callTool({ name, arguments: args });
  expect(r.isError, JSON.stringify(r.structuredContent)).toBeFalsy();
  return r.structuredContent as Record<string, any>;
};

beforeAll(async () => {
  hub = await buildTestHub();
  const { http } = await hub.start();
  client = new Client({ name: 'spatial-meaning', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${http}/mcp`)));
  for (const [entity_name, container_name] of [
    ['phone', 'kitchen counter'],
    ['vacuum cleaner', 'hall cupboard'],
    ['car keys', 'kitchen drawer'],
    ['house keys', 'hook by the door'],
  ])
    expect((await post(hub, '/locate', { entity_name, container_name })).status).toBe(200);
  await post(hub, '/remember', { entity_name: 'Brian', fact: 'Brian keeps a spare key under the flower pot' });
});
afterAll(async () => {
  await client?.close();
  await hub?.close();
});

describe('find by meaning', () => {
  it('HTTP: "the hoover" is the vacuum cleaner, "my mobile" and "my cellphone" the phone', async () => {
    const hoover = (await post(hub, '/find', { query: 'where did I leave the hoover?' })).body;
    expect(hoover).toMatchObject({ found: true, entity_name: 'vacuum cleaner', container_name: 'hall cupboard' });
    expect(hoover.candidates[0].matched_by).toBe('meaning');
    expect((await post(hub, '/find', { query: 'where is my mobile' })).body).toMatchObject({
      found: true,
      entity_name: 'phone',
    });
    expect((await post(hub, '/find', { entity_name: 'cellphone' })).body).toMatchObject({
      found: true,
      entity_name: 'phone',
    });
  });

  it('MCP: find by a synonym; spelling still decides "my keys" (candidates, no guess)', async () => {
    expect(await tool('find', { query: "where's the hoover" })).toMatchObject({
      found: true,
      entity_name: 'vacuum cleaner',
    });
    const keys = await tool('find', { query: 'where are my keys?' });
    expect(keys.found).toBe(false);
    expect(keys.candidates.map((c: { entity_name: string }) => c.entity_name).sort()).toEqual([
      'car keys',
      'house keys',
    ]);
    expect(keys.candidates[0].matched_by).toBe('spelling');
  });

  it('says "not found" as a sentence to read aloud, not the question in quotes', async () => {
    const r = (await post(hub, '/find', { query: 'where is my wallet?' })).body;
    expect(r).toMatchObject({ found: false, candidates: [] });
    expect(r.result).toBe("I don't know where your wallet is.");
    expect((await tool('find', { query: 'have you seen the scissors' })).result).toBe(
      "I don't know where the scissors are.",
    );
    expect(objectPhrase("where are Brian's gloves")).toEqual({ phrase: "Brian's gloves", plural: true });
    expect(objectPhrase('umbrella')).toEqual({ phrase: 'the umbrella', plural: false });
  });
});

describe('seen_at by meaning', () => {
  it('confirms the one located object a name means instead of inventing "mobile"', async () => {
    const r = (await post(hub, '/seen_at', { entity_name: 'mobile' })).body;
    expect(r).toMatchObject({ action: 'confirmed', entity_name: 'phone', container_name: 'kitchen counter' });
    const moved = await tool('seen_at', { entity_name: 'hoover', container_name: 'landing' });
    expect(moved).toMatchObject({ entity_name: 'vacuum cleaner', container_name: 'landing', action: 'moved' });
    expect(hub.services.entities.find('hoover')).toBeUndefined();
    await post(hub, '/locate', { entity_name: 'vacuum cleaner', container_name: 'hall cupboard' });
  });
});

describe('cross_query where-questions', () => {
  it('puts the stored location first, before a memory about a spare key', async () => {
    const r = (await post(hub, '/cross_query', { query: 'where are my car keys?' })).body;
    expect(r.results[0]).toMatchObject({ tier: 'location', entity_name: 'car keys', container_name: 'kitchen drawer' });
    expect(r.result.split('\n')[0]).toMatch(/^\[location\] car keys: kitchen drawer/);
    const mcp = await tool('cross_query', { query: 'where is the hoover' });
    expect(mcp.results[0]).toMatchObject({ tier: 'location', entity_name: 'vacuum cleaner' });
  });

  it('lists the candidates first when a where-question fits several objects', async () => {
    const r = (await post(hub, '/cross_query', { query: 'where are my keys?' })).body;
    expect(
      r.results
        .slice(0, 2)
        .map((x: { tier: string; entity_name: string }) => `${x.tier}:${x.entity_name}`)
        .sort(),
    ).toEqual(['location:car keys', 'location:house keys']);
  });
});
