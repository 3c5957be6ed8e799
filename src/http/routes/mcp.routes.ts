/**
 * MCP over Streamable HTTP at /mcp (SPEC §8), stateless: no session state lives in the hub and any
 * number of clients can call at once. One MCP server per hub answers every POST (mcp/http-dispatch.ts).
 * Auth is the app's bearer hook like every other route.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { McpHttpDispatch } from '../../mcp/http-dispatch.js';
import { createMcpServer } from '../../mcp/server.js';
import type { Services } from '../../services.js';

type RateCheck = (req: FastifyRequest) => Promise<{ isExceeded?: boolean; max?: number; ttlInSeconds?: number }>;

export const mcpRoutes =
  (services: Services): FastifyPluginAsync =>
  async (app) => {
    // A JSON-RPC batch counts one request per call against the rate limit (issue #10 item 13):
    // the whole batch is refused with 429 when its calls do not fit, none of them run.
    const limiter = app.hasDecorator('createRateLimit')
      ? (app as unknown as { createRateLimit(): RateCheck }).createRateLimit()
      : null;
    const preHandler = async (req: FastifyRequest, reply: FastifyReply) => {
      const calls = Array.isArray(req.body) ? req.body.length : 1;
      for (let i = 1; limiter && i < calls; i++) {
        const r = await limiter(req);
        if (!r.isExceeded) continue;
        return reply
          .code(429)
          .header('retry-after', String(r.ttlInSeconds))
          .send({
            ok: false,
            error: 'rate_limited',
            message: `rate limit: a JSON-RPC batch of ${calls} calls counts ${calls} requests, more than the ${r.max} per minute allowed from this client; retry in ${r.ttlInSeconds} s`,
          });
      }
    };
    const dispatch = new McpHttpDispatch(createMcpServer(services, 'mcp'));
    app.addHook('onClose', () => dispatch.close());
    app.post('/mcp', { schema: { hide: true }, preHandler }, async (req, reply) => {
      const answer = await dispatch.handle(req.headers, req.body);
      if (answer.body === undefined) return reply.code(answer.status).send();
      return reply.code(answer.status).type('application/json').send(JSON.stringify(answer.body));
    });
    // Stateless server: no SSE stream to resume and no session to delete.
    const notAllowed = {
      jsonrpc: '2.0',
      error: { code: -32000, message: 'Method not allowed: this MCP endpoint is stateless; use POST' },
      id: null,
    };
    app.get('/mcp', { schema: { hide: true } }, async (_req, reply) =>
      reply.code(405).header('allow', 'POST').send(notAllowed),
    );
    app.delete('/mcp', { schema: { hide: true } }, async (_req, reply) =>
      reply.code(405).header('allow', 'POST').send(notAllowed),
    );
  };
