/**
 * The ask doors (issue #34 item 1, SPEC §6): the three examples through `POST /ask` over real
 * HTTP and through a real MCP client (Streamable HTTP on /mcp), `GET /sensors` / `list_sensors`, and
 * bad input refused with 400 naming the field.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rememberByHand, type TestHub } from '../../helpers/hub.js';
import { buildHome, GARAGE_OPEN, KETTLE_RUNS } from './home.js';

const TOKEN = 'ask-doors-token';
let hub: TestHub;
let base: string;
let mcp: Client;

const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
async function http(method: 'GET' | 'POST', path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

beforeAll(async () => {
  hub = await buildHome({ token: TOKEN });
  await rememberByHand(hub, 'Anna', "Anna's birthday is on the 3rd of May");
  hub.services.spatial.locate({
    entity_name: 'car keys',
    container_name: 'hall drawer',
    entity_type: 'object',
    container_type: 'room',
    confidence: 1,
  });
  base = (await hub.start()).http!;
  mcp = new Client({ name: 'ask-doors', version: '1.0.0' });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
    }),
  );
}, 120_000);

afterAll(async () => {
  await mcp?.close();
  await hub?.close();
});

/** The examples and what each must answer (from the home's definition). */
const EXAMPLES = [
  {
    question: 'Was the garage door open last night?',
    answer: { kind: 'state', entity: 'garage_door', value: true },
    result: /^Yes, the garage door was open from 10:30 pm to 11:50 pm last night\.$/,
  },
  {
    question: 'How warm was the bedroom yesterday evening?',
    answer: { kind: 'measure', entity: 'bedroom_sensor', metric: 'temperature', value: 21, unit: '°C', stat: 'mean' },
    result: /about 21 °C on average yesterday evening/,
  },
  {
    question: 'When did the kettle last run?',
    answer: { kind: 'last', entity: 'kettle_plug', metric: 'power', at: KETTLE_RUNS[2][0] },
    result: /^The kettle last ran at 7:30 am, .+ ago, for 4 minutes\.$/,
  },
];

describe('POST /ask over HTTP', () => {
  it.each(EXAMPLES)('$question', async ({ question, answer, result }) => {
    const r = await http('POST', '/ask', { question });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ ok: true, sure: true, answer });
    expect(r.body.result).toMatch(result);
    expect(r.body.evidence.length).toBeGreaterThan(0);
  });

  it('one door for readings, facts and places: each question goes to what answers it', async () => {
    const home = await http('POST', '/ask', { question: 'Is Anna home?' });
    expect(home.body.answer).toMatchObject({ kind: 'state', entity: 'person.anna', value: true });
    const birthday = await http('POST', '/ask', { question: "When is Anna's birthday?" });
    expect(birthday.body.answer.kind).toBe('fact');
    expect(birthday.body.result).toMatch(/3rd of May/);
    const keys = await http('POST', '/ask', { question: 'Where are the car keys?' });
    expect(keys.body.answer.kind).toBe('place');
    expect(keys.body.result).toMatch(/hall drawer/);
    const unknown = await http('POST', '/ask', { question: "What is the dog's favourite toy?" });
    expect(unknown.body.answer.kind).toBe('unknown');
  });

  it('`now` replays the question as of another moment (ISO-8601)', async () => {
    const r = await http('POST', '/ask', { question: 'Is the garage door open?', now: '2026-12-03T22:00:00Z' });
    expect(r.body.answer).toMatchObject({ kind: 'state', value: true });
    expect(r.body.result).toBe('Yes, the garage door has been open for 30 minutes, since 10:30 pm.');
    expect(r.body.answer.spans).toEqual([expect.objectContaining({ from: GARAGE_OPEN[1][0], value: true })]);
  });

  it('bad input: 400 naming the field, never 5xx', async () => {
    const missing = await http('POST', '/ask', {});
    expect(missing.status).toBe(400);
    expect(missing.body.message).toMatch(/question/);
    const badNow = await http('POST', '/ask', { question: 'Is the garage door open?', now: 'last tuesday' });
    expect(badNow.status).toBe(400);
    expect(badNow.body.message).toMatch(/now/);
    const extra = await http('POST', '/ask', { question: 'Is the garage door open?', entity: 'garage_door' });
    expect(extra.status).toBe(400);
    expect(extra.body.message).toMatch(/entity/);
    const long = await http('POST', '/ask', { question: 'x'.repeat(501) });
    expect(long.status).toBe(400);
    expect(long.body.message).toMatch(/question/);
  });
});

describe('GET /sensors', () => {
  it('lists what can be asked about, with aliases, kinds, units and reading times', async () => {
    const r = await http('GET', '/sensors');
    expect(r.status).toBe(200);
    const rows = r.body.sensors as Record<string, any>[];
    expect(rows.map((s) => `${s.entity_name}/${s.metric}`).sort()).toEqual([
      'bedroom_sensor/humidity',
      'bedroom_sensor/temperature',
      'front_door/contact',
      'garage_door/contact',
      'kettle_plug/power',
      'person.anna/state',
    ]);
    expect(rows.find((s) => s.entity_name === 'garage_door')).toMatchObject({
      kind: 'two_state',
      last_value: 'true',
      last_state: 'closed',
      unit: null,
    });
    expect(rows.find((s) => s.metric === 'temperature')).toMatchObject({ kind: 'numeric', unit: '°C', last_value: 19 });
    expect(r.body.result).toMatch(/Anna/);
  });

  it('?entity_name filters by name or alias; an unknown name is 404 naming the field', async () => {
    const anna = await http('GET', '/sensors?entity_name=Anna');
    expect(anna.body.sensors).toEqual([
      expect.objectContaining({ entity_name: 'person.anna', aliases: ['Anna'], kind: 'two_state', last_value: 'home' }),
    ]);
    const nobody = await http('GET', '/sensors?entity_name=shed');
    expect(nobody.status).toBe(404);
    expect(nobody.body.message).toMatch(/^entity_name:/);
  });
});

describe('MCP ask and list_sensors', () => {
  const call = async (name: string, args: Record<string, unknown>) => {
    const r = await mcp.callTool({ name, arguments: args });
    return { isError: Boolean(r.isError), body: r.structuredContent as Record<string, any> };
  };

  it('the ask tool tells an assistant to call it for any question about the home', async () => {
    const { tools } = await mcp.listTools();
    const ask = tools.find((t) => t.name === 'ask')!;
    expect(ask.description).toMatch(/ANY question about the home, its people or its past/);
    expect(ask.inputSchema.required).toEqual(['question']);
    expect(tools.map((t) => t.name)).toContain('list_sensors');
  });

  it.each(EXAMPLES)('$question', async ({ question, answer, result }) => {
    const r = await call('ask', { question });
    expect(r.isError).toBe(false);
    expect(r.body).toMatchObject({ ok: true, sure: true, answer });
    expect(r.body.result).toMatch(result);
  });

  it('list_sensors answers as GET /sensors; bad arguments are a tool error naming the field', async () => {
    const r = await call('list_sensors', { entity_name: 'kettle_plug' });
    expect(r.body.sensors).toEqual([expect.objectContaining({ metric: 'power', unit: 'W' })]);
    const bad = await call('ask', {});
    expect(bad.isError).toBe(true);
    expect(bad.body.message).toMatch(/question/);
  });
});
