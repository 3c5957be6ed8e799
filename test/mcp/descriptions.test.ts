import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { descriptionProblems, listHearthTools } from '../../scripts/lib/mcp-tools-doc.js';
import { ALL_TOOLS, toolNames } from '../helpers/tools.js';

async function toolsOf(server: McpServer) {
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: 't', version: '1' });
  await client.connect(b);
  return (await client.listTools()).tools;
}

describe('tool descriptions an assistant gets right', () => {
  it('every tool and every parameter of every tool is described; enums name their values', async () => {
    const tools = await listHearthTools();
    expect(toolNames(tools)).toEqual(ALL_TOOLS);
    const params = tools.reduce((n, t) => n + Object.keys(t.inputSchema.properties ?? {}).length, 0);
    expect(params).toBeGreaterThanOrEqual(132);
    expect(descriptionProblems(tools)).toEqual([]);
  });

  it('the check fails for a tool with an undescribed parameter or an enum whose values are not named', async () => {
    const server = new McpServer({ name: 'x', version: '1' });
    server.registerTool(
      'bad',
      {
        description: 'A tool with a long enough description but careless parameters.',
        inputSchema: {
          top_k: z.number(),
          mode: z.enum(['fast', 'slow']).describe('how to run'),
          ok: z.string().describe('fine'),
        },
      },
      async () => ({ content: [] }),
    );
    expect(descriptionProblems(await toolsOf(server))).toEqual([
      'bad.top_k: no description',
      'bad.mode: description does not name the value "fast"',
      'bad.mode: description does not name the value "slow"',
    ]);
  });

  it('locate stores and find asks, unmistakably, each pointing at the other', async () => {
    const tools = Object.fromEntries((await listHearthTools()).map((t) => [t.name, t]));
    expect(tools.locate.description).toMatch(/^STORE where an object is \(writes\)/);
    expect(tools.locate.description).toMatch(/To ASK where something is, call find instead/);
    expect(tools.find.description).toMatch(/^ASK where an object is \(read-only, stores nothing\)/);
    expect(tools.find.description).toMatch(/To STORE a new place, call locate instead/);
    expect(tools.find.annotations?.readOnlyHint).toBe(true);
    expect(tools.locate.annotations?.readOnlyHint).toBeFalsy();
    const props = (name: string) => tools[name].inputSchema.properties as Record<string, { description: string }>;
    expect(props('locate').entity_name.description).toMatch(/being put somewhere/);
    expect(props('find').entity_name.description).toMatch(/being looked for/);
  });
});
