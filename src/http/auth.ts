/** Bearer-token auth for every route but /health (SPEC §6), compared in constant time. */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { isAdminPath } from './admin/paths.js';

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

export function registerAuth(app: FastifyInstance, token: string | undefined): void {
  if (!token) return;
  app.addHook('onRequest', async (req, reply) => {
    const path = req.url.split('?')[0];
    if (path === '/health') return;
    if (isAdminPath(path)) return; // the admin guard checks the bearer or a session cookie (admin/guard.ts)
    if (tokenMatches(bearerOf(req.headers.authorization), token)) return;
    reply.header('www-authenticate', 'Bearer realm="hearth"');
    return reply.code(401).send({ ok: false, error: 'unauthorized', message: 'authorization: a valid bearer token is required' });
  });
}
