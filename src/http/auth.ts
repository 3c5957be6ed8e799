/** Bearer-token auth for every route but /health (SPEC §6), compared in constant time. */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Constant-time comparison; hashing first makes the lengths equal so length doesn't leak either. */
export function tokenMatches(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * The token a request carries: `Authorization: Bearer <t>`, InfluxDB clients' `Token <t>` (v2) or
 * Basic auth with the token as password (v1 clients, Home Assistant's InfluxDB integration).
 */
export function bearerOf(header: string | undefined): string | undefined {
  const m = /^(Bearer|Token)\s+(.+)$/i.exec(header ?? '');
  if (m) return m[2].trim();
  const b = /^Basic\s+(.+)$/i.exec(header ?? '');
  if (!b) return undefined;
  const decoded = Buffer.from(b[1], 'base64').toString('utf8');
  return decoded.slice(decoded.indexOf(':') + 1);
}

/**
 * MCP clients that take only a URL (Home Assistant's MCP integration) carry the token as
 * `?token=` on the MCP endpoints; nowhere else, so tokens stay out of ordinary URLs.
 */
const QUERY_TOKEN_PATHS = new Set(['/sse', '/mcp']);
function queryToken(req: FastifyRequest, path: string): string | undefined {
  if (!QUERY_TOKEN_PATHS.has(path)) return undefined;
  const t = (req.query as Record<string, unknown> | undefined)?.token;
  return typeof t === 'string' ? t : undefined;
}

/** `allow` admits a request without the token (an open MCP SSE session's own messages). */
export function registerAuth(app: FastifyInstance, token: string | undefined, allow?: (req: FastifyRequest, path: string) => boolean): void {
  if (!token) return;
  app.addHook('onRequest', async (req, reply) => {
    const path = req.url.split('?')[0];
    if (path === '/health') return;
    if (tokenMatches(bearerOf(req.headers.authorization) ?? queryToken(req, path), token)) return;
    if (allow?.(req, path)) return;
    reply.header('www-authenticate', 'Bearer realm="hearth"');
    return reply.code(401).send({ ok: false, error: 'unauthorized', message: 'authorization: a valid bearer token is required' });
  });
}
