import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { buildTestHub, post, type TestHub } from '../helpers/hub.js';

const TOKEN = 'mcp-test-token';
let hub: TestHub;
let base: string;
let stdio: Client;
let http: Client;

type Structured = Record<string, any>;
const call = async (c: Client, name: string, args: Record<string, unknown>) => {
  const r = await c.callTool({ name, arguments: args });
  return {
    isError: Boolean(r.isError),
    body: r.structuredContent as Structured,
    text: (r.content as { text: string }[])[0].text,
  };
};

beforeAll(async () => {
  hub = await buildTestHub({ config: { http: { token: TOKEN } } });
  const { http: address } = await hub.start();
  base = address!;
  stdio = new Client({ name: 'test-stdio', version: '1.0.0' });
  await stdio.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [join(process.cwd(), 'dist/src/cli.js'), 'mcp'],
      env: {
        PATH: process.env.PATH ?? '',
        HEARTH_DATA_DIR: join(hub.dir, 'data'),
        MEMORY_AI_PROVIDER: 'local',
        HEARTH_MQTT_MODE: 'off',
        HEARTH_TZ: 'UTC',
      },
      stderr: 'pipe',
    }),
  );
  http = new Client({ name: 'test-http', version: '1.0.0' });
  await http.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
    }),
  );
});

afterAll(async () => {
  await stdio?.close();
  await http?.close();
  await hub?.close();
});

describe('MCP', () => {
  it('lists the tier-1 tools with descriptions and input schemas on both transports', async () => {
    for (const c of [stdio, http]) {
      const { tools } = await c.listTools();
      const names = tools.map((t) => t.name);
      for (const n of [
        'remember',
        'recall',
        'get_context',
        'get_profile',
        'relate',
        'unrelate',
        'get_related',
        'forget',
        'get_fading_memories',
      ]) {
        expect(names).toContain(n);
      }
      const remember = tools.find((t) => t.name === 'remember')!;
      expect(remember.description!.length).toBeGreaterThan(60);
      expect(remember.inputSchema.required).toEqual(['entity_name', 'fact']);
    }
  });

  it('recalls over MCP stdio what was remembered over HTTP', async () => {
    const r = await post(
      hub,
      '/remember',
      { entity_name: 'Brian', fact: 'Brian keeps the bedroom at 68°F at night', category: 'preference' },
      { authorization: `Bearer ${TOKEN}` },
    );
    expect(r.body.action).toBe('added');
    const q = await call(stdio, 'recall', { query: 'what temperature does Brian like at night' });
    expect(q.isError).toBe(false);
    expect(q.body.results[0].fact).toBe('Brian keeps the bedroom at 68°F at night');
    expect(JSON.parse(q.text).results[0].id).toBe(r.body.id);
  });

  it('recalls over HTTP what was remembered over MCP stdio, and over MCP HTTP', async () => {
    const m = await call(stdio, 'remember', {
      entity_name: 'Anna',
      fact: 'Anna is lactose intolerant',
      category: 'general',
    });
    expect(m.body).toMatchObject({ ok: true, action: 'added' });
    const q = await post(
      hub,
      '/recall',
      { query: 'lactose', entity_name: 'Anna' },
      { authorization: `Bearer ${TOKEN}` },
    );
    expect(q.body.results.map((x: { id: number }) => x.id)).toEqual([m.body.id]);
    const viaHttpMcp = await call(http, 'recall', { query: 'lactose intolerant' });
    expect(viaHttpMcp.body.results[0].id).toBe(m.body.id);
    const audit = hub.db
      .prepare("SELECT actor FROM audit WHERE target = ? AND op = 'memory.add'")
      .get(String(m.body.id)) as { actor: string };
    expect(audit.actor).toBe('mcp');
  });

  it('answers bad arguments with a tool error naming the field, on both transports', async () => {
    for (const c of [stdio, http]) {
      const r = await call(c, 'remember', { entity_name: 'Brian', category: 'gossip' });
      expect(r.isError).toBe(true);
      expect(r.body).toMatchObject({ ok: false, error: 'invalid' });
      expect(r.body.message).toMatch(/^(fact|category)/);
      const nf = await call(c, 'get_profile', { entity_name: 'Nobody at all' });
      expect(nf.isError).toBe(true);
      expect(nf.body.error).toBe('not_found');
      const both = await call(c, 'forget', { memory_id: 1, entity_name: 'x' });
      expect(both.body.message).toMatch(/^memory_id: give exactly one/);
    }
  });

  it('runs relations and profile through MCP', async () => {
    await call(http, 'relate', { entity_a: 'Brian', entity_b: 'Anna', rel_type: 'spouse_of' });
    const p = await call(stdio, 'get_profile', { entity_name: 'Brian' });
    expect(p.body.relations[0]).toMatchObject({ other: 'Anna', rel_type: 'spouse_of' });
    const rel = await call(http, 'get_related', { entity_name: 'Anna', direction: 'in' });
    expect(rel.body.relations).toHaveLength(1);
    const ctx = await call(http, 'get_context', { query: 'bedroom temperature' });
    expect(ctx.body.memories[0].entity_name).toBe('Brian');
  });

  it('refuses /mcp without the token', async () => {
    const res = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(401);
  });
});
