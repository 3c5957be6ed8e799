/**
 * MCP over Streamable HTTP at /mcp (SPEC §8), stateless: each POST gets a fresh server and
 * transport, so no session state lives in the hub and any number of clients can call at once.
 * Auth is the app's bearer hook like every other route.
 */
import type { FastifyPluginAsync } from 'fastify';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpServer } from '../../mcp/server.js';
import type { Services } from '../../services.js';

export const mcpRoutes =
  (services: Services): FastifyPluginAsync =>
  async (app) => {
    app.post('/mcp', { schema: { hide: true } }, async (req, reply) => {
      const server = createMcpServer(services, 'mcp');
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      reply.hijack();
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req.raw, reply.raw, req.body);
    });
    // Stateless server: no SSE stream to resume and no session to delete.
    const notAllowed = { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP endpoint is stateless; use POST' }, id: null };
    app.get('/mcp', { schema: { hide: true } }, async (_req, reply) => reply.code(405).header('allow', 'POST').send(notAllowed));
    app.delete('/mcp', { schema: { hide: true } }, async (_req, reply) => reply.code(405).header('allow', 'POST').send(notAllowed));
  };
