/**
 * The legacy MCP SSE transport (SPEC §8) beside Streamable HTTP at /mcp, for clients that still
 * speak only it (Home Assistant's MCP integration falls back to it): `GET /sse` opens an event
 * stream whose first event names `/messages?sessionId=…`; the client POSTs JSON-RPC there and
 * the answers come back on the stream. The SDK's `SSEServerTransport` speaks the protocol; the
 * sessions are bounded (sse-sessions.ts). Auth: the app's bearer hook (a `?token=` works here
 * too, for clients that cannot send headers); a POST to /messages is authorised by its session,
 * which only an authorised GET /sse can open.
 */
import type { FastifyPluginAsync } from 'fastify';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { createMcpServer } from '../../mcp/server.js';
import type { Services } from '../../services.js';
import type { SseSessions } from '../sse-sessions.js';

/** Comment frames keep proxies and HA's client from timing the stream out; they are not activity. */
const KEEP_ALIVE_MS = 15_000;

export const sseRoutes =
  (services: Services, sessions: SseSessions): FastifyPluginAsync =>
  async (app) => {
    app.get('/sse', { schema: { hide: true } }, async (_req, reply) => {
      if (sessions.full()) {
        return reply
          .code(503)
          .header('retry-after', '30')
          .send({
            ok: false,
            error: 'unavailable',
            message: `sse: ${sessions.maxSessions} MCP SSE sessions are already open (http.mcp_sse_max_sessions); close one, or use POST /mcp`,
          });
      }
      reply.hijack();
      const transport = new SSEServerTransport('/messages', reply.raw);
      const server = createMcpServer(services, 'mcp');
      const id = transport.sessionId;
      const ping = setInterval(() => reply.raw.write(': ping\n\n'), KEEP_ALIVE_MS);
      ping.unref();
      sessions.add(id, {
        transport,
        async close() {
          clearInterval(ping);
          await server.close();
        },
      });
      reply.raw.on('close', () => {
        clearInterval(ping);
        void sessions.drop(id);
      });
      await server.connect(transport); // writes the headers and the endpoint event
    });

    // Home Assistant's client tries Streamable HTTP (a POST) on the URL it was given and falls back
    // to SSE only on 405 (homeassistant/components/mcp/coordinator.py), so /sse must say 405, not 404.
    app.post('/sse', { schema: { hide: true } }, async (_req, reply) =>
      reply
        .code(405)
        .header('allow', 'GET')
        .send({
          jsonrpc: '2.0',
          error: {
            code: -32000,
            message: 'Method not allowed: /sse is the legacy SSE transport (GET); Streamable HTTP is POST /mcp',
          },
          id: null,
        }),
    );

    app.post('/messages', { schema: { hide: true } }, async (req, reply) => {
      const id = (req.query as Record<string, unknown>).sessionId;
      if (typeof id !== 'string' || !id) {
        return reply.code(400).send({
          ok: false,
          error: 'invalid',
          message: 'sessionId: required in the query (the URL the endpoint event of GET /sse names)',
        });
      }
      const session = sessions.touch(id);
      if (!session) {
        return reply.code(404).send({
          ok: false,
          error: 'not_found',
          message: 'sessionId: no open MCP SSE session with this id (closed or idle too long); open GET /sse again',
        });
      }
      try {
        await session.transport.handleMessage(req.body);
      } catch {
        return reply.code(400).send({ ok: false, error: 'invalid', message: 'body: not a JSON-RPC 2.0 message' });
      }
      return reply.code(202).send({ ok: true, result: 'accepted; the answer comes on the event stream' });
    });
  };
