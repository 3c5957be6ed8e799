/**
 * MCP over stdio, the door of `hearth mcp` (lib/door.ts): the hub's tool table on a Server connected
 * to this process's stdin/stdout. stdout is the protocol, so everything else goes to stderr.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Services } from '../services.js';
import { createMcpServer } from './server.js';

export async function startMcpStdio(
  services: Services,
  on: { initialized: () => void; closed: () => void },
): Promise<{ close(): Promise<void> }> {
  const server = createMcpServer(services, 'mcp');
  // The encoder starts loading only once the client's `initialize` has been answered.
  server.oninitialized = on.initialized;
  const transport = new StdioServerTransport();
  transport.onclose = on.closed;
  await server.connect(transport);
  return { close: () => server.close() };
}
