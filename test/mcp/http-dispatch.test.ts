/**
 * POST /mcp from one MCP server per hub (mcp/http-dispatch.ts): answers go back to the request that
 * asked even when clients reuse the same JSON-RPC ids at once, batches answer as arrays, notifications
 * get 202, and the Streamable HTTP rules (Accept, Content-Type, batch size, protocol version) hold.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { McpHttpDispatch } from '../../src/mcp/http-dispatch.js';
import { serveTools } from '../../src/mcp/server.js';
import { ToolTable } from '../../src/mcp/tool.js';
import { buildTestHub, type TestHub } from '../helpers/hub.js';

let hub: TestHub;
let base: string;
const JSON_AND_SSE = 'application/json, text/event-stream';

const rpc = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: JSON_AND_SSE, ...headers },
    body: JSON.stringify(body),
  });
const call = (id: number | string, name: string, args: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});
const textOf = (answer: { result: { content: { text: string }[] } }) => answer.result.content[0].text;

beforeAll(async () => {
  hub = await buildTestHub();
  base = (await hub.start()).http!;
  const r = await rpc(call(1, 'remember', { entity_name: 'Anna', fact: 'Anna drinks green tea' }));
  expect(r.status).toBe(200);
});
afterAll(() => hub?.close());

describe('POST /mcp from one server per hub', () => {
  it('gives each of many concurrent requests with the same id its own answer', async () => {
    const names = Array.from({ length: 24 }, (_, i) => `Guest${i}`);
    const answers = await Promise.all(
      names.map((name) => rpc(call(7, 'get_profile', { entity_name: name })).then((r) => r.json())),
    );
    answers.forEach((a, i) => {
      expect(a.id).toBe(7);
      expect(textOf(a)).toContain(names[i]);
    });
  });

  it('answers a batch with an array in request order, and a lone notification with 202', async () => {
    const r = await rpc([
      call('a', 'recall', { query: 'green tea' }),
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 'b', method: 'ping' },
    ]);
    const body = await r.json();
    expect(body.map((m: { id: string }) => m.id)).toEqual(['a', 'b']);
    expect(textOf(body[0])).toContain('green tea');
    expect(body[1].result).toEqual({});
    const note = await rpc({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(note.status).toBe(202);
    expect(await note.text()).toBe('');
  });

  it('keeps the Streamable HTTP rules', async () => {
    const accept = await rpc({ jsonrpc: '2.0', id: 1, method: 'ping' }, { accept: 'application/json' });
    expect(accept.status).toBe(406);
    const notRpc = await rpc({ hello: 'world' });
    expect(notRpc.status).toBe(400);
    expect((await notRpc.json()).error.code).toBe(-32700);
    const tooMany = await rpc(Array.from({ length: 101 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'ping' })));
    expect(tooMany.status).toBe(400);
    const version = await rpc({ jsonrpc: '2.0', id: 1, method: 'ping' }, { 'mcp-protocol-version': '1999-01-01' });
    expect(version.status).toBe(400);
    expect((await version.json()).error.message).toMatch(/Unsupported protocol version: 1999-01-01/);
    const init = {
      jsonrpc: '2.0',
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    };
    const twoInits = await rpc([
      { ...init, id: 1 },
      { ...init, id: 2 },
    ]);
    expect(twoInits.status).toBe(400);
    const ok = await rpc({ ...init, id: 3 });
    expect((await ok.json()).result.serverInfo.name).toBeTruthy();
  });
});

describe('McpHttpDispatch', () => {
  it("never lets one client's cancellation stop another client's request", async () => {
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    const table = new ToolTable();
    table.add({ name: 'wait', description: 'waits', schema: z.object({}), handler: () => held.then(() => ({ n: 1 })) });
    const dispatch = new McpHttpDispatch(serveTools(table));
    const headers = { accept: JSON_AND_SSE, 'content-type': 'application/json' };
    // Client A's call is the server's request 1; client B cancels its own request 1.
    const a = dispatch.handle(headers, call('a1', 'wait', {}));
    const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } };
    expect((await dispatch.handle(headers, cancel)).status).toBe(202);
    release();
    const answer = (await a) as { status: number; body: { id: string; result: { structuredContent: unknown } } };
    expect(answer.body.id).toBe('a1');
    expect(answer.body.result.structuredContent).toEqual({ ok: true, n: 1 });
    await dispatch.close();
  });
});
