/**
 * Builds an MCP server over the services: one per stdio session, one per Streamable HTTP request, all
 * of one hub answering from one tool table and one tools/list built once.
 * The SDK's low-level Server with its public request handlers, answered from the tool table: tools/list
 * lists each tool's zod schema as JSON Schema (made portable for Home Assistant), tools/call runs the
 * tool, which validates with the same schema as every other door.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Services } from '../services.js';
import type { Actor } from '../tiers/audit/audit.repo.js';
import { portableSchema } from './portable-schema.js';
import { ToolTable } from './tool.js';
import { operationTools } from './operation-tools.js';
import { OPERATION_TABLES } from '../operations.js';

export const SERVER_INFO = { name: 'hearth', version: '0.1.0' };

const INSTRUCTIONS =
  'Hearth is the memory of this home. Call recall or get_context before answering questions about the household, ' +
  'and remember durable facts the user states. Empty results mean nothing is known: say so rather than guess.';

/**
 * The tool table of one hub and actor, built once: POST /mcp's one Server (mcp/http-dispatch.ts), each
 * legacy SSE session's and stdio's answer from the same table and the same tools/list.
 */
const tables = new WeakMap<Services, Map<Actor, ToolTable>>();
export function mcpToolTable(services: Services, actor: Actor): ToolTable {
  let byActor = tables.get(services);
  if (!byActor) tables.set(services, (byActor = new Map()));
  let table = byActor.get(actor);
  if (!table) byActor.set(actor, (table = buildToolTable(services, actor)));
  return table;
}

export function createMcpServer(services: Services, actor: Actor = 'mcp'): Server {
  return serveTools(mcpToolTable(services, actor));
}

function buildToolTable(services: Services, actor: Actor): ToolTable {
  const table = new ToolTable();
  for (const ops of OPERATION_TABLES) operationTools(table, ops, services, actor);
  return table;
}

/** Each table's tools/list answer, made once (the JSON Schemas are derived on the first tools/list). */
const listings = new WeakMap<ToolTable, { tools: Tool[] }>();
function listingOf(table: ToolTable): { tools: Tool[] } {
  let listed = listings.get(table);
  if (!listed) {
    listed = {
      tools: [...table.tools.values()].map((t) => ({
        name: t.name,
        description: t.description,
        // The object itself, not its shape: the JSON Schema then says what zod checks
        // (`additionalProperties: false`: unknown arguments are refused, as over HTTP).
        inputSchema: portableSchema(
          z.toJSONSchema(t.schema, { target: 'draft-7', io: 'input' }),
        ) as Tool['inputSchema'],
        ...(t.annotations ? { annotations: t.annotations } : {}),
      })),
    };
    listings.set(table, listed);
  }
  return listed;
}

/**
 * One JSON Schema validator for every Server: the SDK builds a new Ajv per Server otherwise (one per
 * legacy SSE session). Hearth asks no elicitation, the one thing it validates.
 */
let validator: AjvJsonSchemaValidator | undefined;

/** A Server answering tools/list and tools/call from `table`. */
export function serveTools(table: ToolTable): Server {
  validator ??= new AjvJsonSchemaValidator();
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: {} },
    instructions: INSTRUCTIONS,
    jsonSchemaValidator: validator,
  });
  server.setRequestHandler(ListToolsRequestSchema, () => listingOf(table));
  server.setRequestHandler(CallToolRequestSchema, (req) => table.call(req.params.name, req.params.arguments));
  return server;
}
