/**
 * Facts, places and reminders through the ask doors (issue #34 item 5): `POST /ask` over real HTTP and
 * MCP `ask` through a real client (Streamable HTTP on /mcp) — the examples: "grandma" reaching
 * Jadwiga's fact, "where's dog lead" said without the question, the car keys found, a speaker's
 * reminders — on a real hub with the local embedder and a manual clock.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestHub, postOk, rememberByHand, type TestHub } from '../../helpers/hub.js';

let hub: TestHub;
let mcp: Client;

beforeAll(async () => {
  hub = await buildTestHub();
  const s = hub.services;
  await rememberByHand(hub, 'Jadwiga', 'Jadwiga comes to stay every August for two weeks', { entity_type: 'person' });
  await rememberByHand(hub, 'Brian', 'Brian has a dentist appointment on Tuesday at 9', { entity_type: 'person' });
  s.aliases.add({ entity_name: 'Jadwiga', alias: 'Grandma' });
  s.spatial.locate({
    entity_name: 'car keys',
    container_name: 'hall drawer',
    entity_type: 'object',
    container_type: 'room',
    confidence: 1,
  });
  await s.prospective.intend({
    entity_name: 'Brian',
    trigger_text: 'when Anna gets home',
    action_text: 'remind her to call the plumber',
    once: true,
  });
  hub.clock.advance(3600);
  const { http } = await hub.start();
  mcp = new Client({ name: 'ask-memory-doors', version: '1.0.0' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${http}/mcp`)));
}, 120_000);

afterAll(async () => {
  await mcp?.close();
  await hub?.close();
});

const CASES = [
  {
    body: { question: 'When does grandma come to stay?' },
    result: 'Jadwiga comes to stay every August for two weeks.',
    answer: { kind: 'fact', entity: 'Jadwiga' },
  },
  {
    body: { question: 'when is my dentist appointment?', speaker: 'Brian' },
    result: 'Brian has a dentist appointment on Tuesday at 9.',
    answer: { kind: 'fact', entity: 'Brian' },
  },
  {
    body: { question: "where's dog lead" },
    result: "I don't know where the dog lead is.",
    answer: { kind: 'unknown' },
  },
  {
    body: { question: 'Where are my car keys?' },
    result: 'The car keys are in the hall drawer, last seen 1 hour ago.',
    answer: { kind: 'place', entity: 'car keys', value: 'hall drawer' },
  },
  {
    body: { question: 'Do I have any reminders?', speaker: 'Brian' },
    result: 'You have one reminder: when Anna gets home, remind her to call the plumber.',
    answer: { kind: 'reminder', entity: 'Brian', count: 1 },
  },
];

describe('facts, places and reminders through the ask doors', () => {
  it.each(CASES)('POST /ask: $body.question', async ({ body, result, answer }) => {
    const r = await postOk(hub, '/ask', body);
    expect(r).toMatchObject({ ok: true, result, answer, sure: true });
  });

  it.each(CASES)('MCP ask: $body.question', async ({ body, result, answer }) => {
    const r = await mcp.callTool({ name: 'ask', arguments: body });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ result, answer, sure: true });
  });
});
