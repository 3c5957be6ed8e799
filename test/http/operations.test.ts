/**
 * The operation table (src/lib/operation.ts): one declaration gives an HTTP route (validated, wrapped
 * as {ok: true, ...}, its output as the /docs answer) and an MCP tool (named, described, validated by
 * the same schema), and the MCP door builds its tool table once per hub.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import swagger from '@fastify/swagger';
import Fastify from 'fastify';
import { jsonSchemaTransform, validatorCompiler } from 'fastify-type-provider-zod';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { operation, type OperationTable } from '../../src/lib/operation.js';
import { operationRoutes } from '../../src/http/operation-routes.js';
import { operationTools } from '../../src/mcp/operation-tools.js';
import { mcpToolTable, serveTools } from '../../src/mcp/server.js';
import { ToolTable } from '../../src/mcp/tool.js';
import { buildTestHub, type TestHub } from '../helpers/hub.js';

type Greeter = { greet(name: string, actor: string): { result: string; name: string; actor: string } };
const greeter: Greeter = { greet: (name, actor) => ({ result: `Hello, ${name}.`, name, actor }) };
const Input = z.strictObject({ name: z.string().min(1).describe('who to greet') });
const table: OperationTable<{ greeter: Greeter }> = {
  tag: 'test',
  operations: [
    operation({
      name: 'greet',
      http: { method: 'POST', path: '/greet' },
      input: Input,
      output: z.looseObject({ name: z.string(), actor: z.string() }),
      summary: 'Greets someone',
      description: 'Call to greet someone by name.',
      annotations: { readOnlyHint: true },
      call: (s, input, ctx) => s.greeter.greet(input.name, ctx.actor),
    }),
    operation({
      name: 'greeting',
      http: { method: 'GET', path: '/greeting' },
      mcp: false,
      input: Input,
      summary: 'A greeting over HTTP only',
      description: 'HTTP only.',
      call: (s, input, ctx) => s.greeter.greet(input.name, ctx.actor),
    }),
  ],
};

let hub: TestHub | undefined;
afterEach(async () => {
  await hub?.close();
  hub = undefined;
});

describe('operation table', () => {
  it('HTTP: one route per operation, validated by its input, its output documented beside it', async () => {
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    await app.register(swagger, { openapi: { info: { title: 't', version: '1' } }, transform: jsonSchemaTransform });
    await app.register(operationRoutes(table, { greeter }));
    await app.ready();
    const ok = await app.inject({ method: 'POST', url: '/greet', payload: { name: 'Anna' } });
    expect(ok.json()).toEqual({ ok: true, result: 'Hello, Anna.', name: 'Anna', actor: 'http' });
    const bad = await app.inject({ method: 'POST', url: '/greet', payload: { name: '' } });
    expect(bad.statusCode).toBe(400);
    const query = await app.inject({ method: 'GET', url: '/greeting?name=Brian' });
    expect(query.json()).toMatchObject({ ok: true, result: 'Hello, Brian.' });
    const doc = app.swagger() as { paths: Record<string, Record<string, any>> };
    const answer = doc.paths['/greet'].post.responses['200'].content['application/json'].schema;
    expect(Object.keys(answer.properties)).toEqual(expect.arrayContaining(['ok', 'result', 'name', 'actor']));
    expect(doc.paths['/greet'].post.summary).toBe('Greets someone');
    await app.close();
  });

  it('MCP: one tool per operation not marked mcp: false, with its description, annotations and schema', async () => {
    const tools = new ToolTable();
    operationTools(tools, table, { greeter }, 'mcp');
    const [a, b] = InMemoryTransport.createLinkedPair();
    const server = serveTools(tools);
    await server.connect(a);
    const client = new Client({ name: 'ops', version: '1' });
    await client.connect(b);
    const listed = (await client.listTools()).tools;
    expect(listed.map((t) => t.name)).toEqual(['greet']);
    expect(listed[0]).toMatchObject({
      description: 'Call to greet someone by name.',
      annotations: { readOnlyHint: true },
    });
    expect(listed[0].inputSchema.required).toEqual(['name']);
    const called = await client.callTool({ name: 'greet', arguments: { name: 'Anna' } });
    expect(called.structuredContent).toEqual({ ok: true, result: 'Hello, Anna.', name: 'Anna', actor: 'mcp' });
    const refused = await client.callTool({ name: 'greet', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toMatch(/name/);
    await client.close();
  });

  it('the MCP door builds its tool table once per hub and actor, not per request', async () => {
    hub = await buildTestHub();
    const first = mcpToolTable(hub.services, 'mcp');
    expect(mcpToolTable(hub.services, 'mcp')).toBe(first);
    expect(mcpToolTable(hub.services, 'cli')).not.toBe(first);
    expect(first.tools.size).toBeGreaterThan(40);
  });
});
