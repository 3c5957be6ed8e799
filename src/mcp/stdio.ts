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
  // One close, whoever starts it. The transport's onclose fires inside close(), so the hub stopping
  // (close() below) is not told `closed` — that would stop it again, recursing until the stack overflows;
  // only a transport that ends by itself is.
  let closed = false;
  transport.onclose = () => {
    if (closed) return;
    closed = true;
    on.closed();
  };
  await server.connect(transport);
  return {
    async close() {
      if (closed) return;
      closed = true;
      await server.close();
    },
  };
}
