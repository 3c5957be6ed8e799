/** Builds an MCP server over the services: one per stdio session, one per Streamable HTTP request. */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Services } from '../services.js';
import type { Actor } from '../tiers/audit/audit.repo.js';
import { useOwnValidation } from './tool.js';
import { usePortableSchemas } from './portable-schema.js';
import { memoryTools } from './tools/memory.tools.js';
import { scheduleTools, timeseriesTools } from './tools/timeseries.tools.js';
import { patternsTools } from './tools/patterns.tools.js';
import { contextTools } from './tools/context.tools.js';
import { episodicTools } from './tools/episodic.tools.js';
import { workingTools } from './tools/working.tools.js';
import { prospectiveTools } from './tools/prospective.tools.js';
import { spatialTools } from './tools/spatial.tools.js';
import { markdownTools } from './tools/markdown.tools.js';
import { voicesTools } from './tools/voices.tools.js';

export const SERVER_INFO = { name: 'hearth', version: '0.1.0' };

export function createMcpServer(services: Services, actor: Actor = 'mcp'): McpServer {
  const server = new McpServer(SERVER_INFO, {
    capabilities: { tools: {} },
    instructions:
      'Hearth is the memory of this home. Call recall or get_context before answering questions about the household, ' +
      'and remember durable facts the user states. Empty results mean nothing is known: say so rather than guess.',
  });
  useOwnValidation(server);
  memoryTools(server, services, actor);
  timeseriesTools(server, services, actor);
  scheduleTools(server, services, actor);
  patternsTools(server, services);
  contextTools(server, services, actor);
  episodicTools(server, services, actor);
  workingTools(server, services, actor);
  prospectiveTools(server, services, actor);
  spatialTools(server, services, actor);
  markdownTools(server, services);
  voicesTools(server, services, actor);
  usePortableSchemas(server);
  return server;
}
