import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { buildTestHub, type TestHub } from '../helpers/hub.js';
import { ALL_TOOLS, toolNames } from '../helpers/tools.js';

const TOKEN = 'sse-test-token';
const auth = { authorization: `Bearer ${TOKEN}` };
let hub: TestHub;
let base: string;

beforeAll(async () => {
  hub = await buildTestHub({ config: { http: { token: TOKEN, mcp_sse_max_sessions: 3, mcp_sse_idle_seconds: 1 } } });
  base = (await hub.start()).http!;
});
afterAll(async () => hub?.close());

async function sseClient(url = `${base}/sse`, headers: Record<string, string> = auth) {
  const client = new Client({ name: 'sse-test', version: '1.0.0' });
  const transport = new SSEClientTransport(new URL(url), { requestInit: { headers } });
  await client.connect(transport);
  return { client, transport };
}

/** Sessions are released when the server sees the stream close, a moment after the client closes it. */
async function openWhenFree() {
  for (let i = 0; ; i++) {
    try {
      return await sseClient();
    } catch (e) {
      if (i > 50) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
const sessionOf = (t: SSEClientTransport) =>
  (t as unknown as { _endpoint: URL })._endpoint.searchParams.get('sessionId');

async function roundTrip(client: Client, who: string) {
  const { tools } = await client.listTools();
  const stored = await client.callTool({
    name: 'remember',
    arguments: { entity_name: who, fact: `${who} takes the dog out at seven`, category: 'routine' },
  });
  expect(stored.isError, JSON.stringify(stored.structuredContent)).toBeFalsy();
  const found = await client.callTool({
    name: 'recall',
    arguments: { query: `when does ${who} take the dog out`, entity_name: who },
  });
  const results = (found.structuredContent as { results: { fact: string }[] }).results;
  return { names: tools.map((t) => t.name).sort(), facts: results.map((r) => r.fact) };
}

describe('MCP over the legacy SSE transport (GET /sse + POST /messages)', () => {
  it('an SDK SSEClientTransport lists every tool and round-trips a fact; /mcp gives the same', async () => {
    const { client } = await sseClient();
    const viaSse = await roundTrip(client, 'Anna');
    expect([...viaSse.names].sort()).toEqual(ALL_TOOLS);
    expect(viaSse.facts).toContain('Anna takes the dog out at seven');
    await client.close();

    const http = new Client({ name: 'http-test', version: '1.0.0' });
    await http.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: auth } }));
    const viaHttp = await roundTrip(http, 'Maya');
    expect(viaHttp.names).toEqual(viaSse.names);
    expect(viaHttp.facts).toContain('Maya takes the dog out at seven');
    // What one door stored, the other recalls.
    const r = await http.callTool({ name: 'recall', arguments: { query: 'dog', entity_name: 'Anna' } });
    expect(JSON.stringify(r.structuredContent)).toContain('Anna takes the dog out at seven');
    await http.close();
  });

  it('answers a POST to /sse with 405, which is what makes Home Assistant fall back to SSE', async () => {
    const res = await fetch(`${base}/sse?token=${TOKEN}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","method":"initialize","id":1}',
    });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
  });

  it('needs the token: bearer header, or ?token= for clients that take only a URL (Home Assistant)', async () => {
    expect((await fetch(`${base}/sse`)).status).toBe(401);
    expect((await fetch(`${base}/sse?token=wrong`)).status).toBe(401);
    const { client } = await sseClient(`${base}/sse?token=${TOKEN}`, {});
    expect(toolNames((await client.listTools()).tools)).toEqual(ALL_TOOLS);
    await client.close();
    // /mcp with the token in the URL too.
    const http = new Client({ name: 'q', version: '1' });
    await http.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp?token=${TOKEN}`)));
    expect(toolNames((await http.listTools()).tools)).toEqual(ALL_TOOLS);
    await http.close();
    // The query token is not a general way in.
    expect((await fetch(`${base}/recall?token=${TOKEN}`, { method: 'POST', body: '{"query":"x"}' })).status).toBe(401);
  });

  it('answers unknown sessions and bad messages in the error shape', async () => {
    const noSession = await fetch(`${base}/messages`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(noSession.status).toBe(400);
    expect((await noSession.json()).message).toMatch(/^sessionId:/);
    const unknown = await fetch(`${base}/messages?sessionId=00000000-0000-0000-0000-000000000000`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","method":"ping","id":1}',
    });
    expect(unknown.status).toBe(404);
    // Without the token an unknown session is simply unauthorised.
    expect((await fetch(`${base}/messages?sessionId=nope`, { method: 'POST', body: '{}' })).status).toBe(401);

    const { client, transport } = await sseClient();
    const bad = await fetch(`${base}/messages?sessionId=${sessionOf(transport)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"hello":1}',
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toMatch(/JSON-RPC/);
    await client.close();
  });

  it('bounds the number of open sessions (503 with a reason), and frees a slot when one closes', async () => {
    const open = [await openWhenFree(), await openWhenFree(), await openWhenFree()];
    const refused = await fetch(`${base}/sse`, { headers: auth });
    expect(refused.status).toBe(503);
    expect((await refused.json()).message).toMatch(/mcp_sse_max_sessions/);
    await open[0].client.close();
    await expect
      .poll(async () => {
        const res = await fetch(`${base}/sse`, { headers: auth });
        await res.body?.cancel();
        return res.status;
      })
      .toBe(200);
    for (const o of open.slice(1)) await o.client.close();
  });

  it('closes a session idle longer than mcp_sse_idle_seconds; its messages then get 404', async () => {
    const { client, transport } = await openWhenFree();
    await client.listTools();
    const id = sessionOf(transport);
    const post = () =>
      fetch(`${base}/messages?sessionId=${id}`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: '{"jsonrpc":"2.0","method":"ping","id":1}',
      }).then((r) => r.status);
    expect(await post()).toBe(202);
    // A message marks the session active, so wait without one: 1 s idle + one 250 ms sweep.
    await new Promise((r) => setTimeout(r, 1600));
    expect(await post()).toBe(404);
    await client.close();
  });
});

describe('a token in the URL', () => {
  it('is hidden in the request log', async () => {
    const { buildApp } = await import('../../src/http/app.js');
    const lines: string[] = [];
    const app = await buildApp({
      services: hub.services,
      token: TOKEN,
      logger: { level: 'info', stream: { write: (l: string) => void lines.push(l) } },
    });
    const res = await app.inject({ method: 'GET', url: `/mcp?token=${TOKEN}&x=1` });
    expect(res.statusCode).toBe(405); // authorised; GET is just not how /mcp is used
    await app.close();
    const log = lines.join('');
    expect(log).toContain('GET /mcp 405'); // one line per request (http/request-log.ts), query strings left out
    expect(log).not.toContain(TOKEN);
  });
});
