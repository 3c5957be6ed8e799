/** Bearer-token auth for every route but /health (SPEC §6), compared in constant time. */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Constant-time comparison; hashing first makes the lengths equal so length doesn't leak either. */
export function tokenMatches(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  return timingSafeEqual(digest(given), digest(expected));
}

export function bearerOf(header: string | undefined): string | undefined {
  const m = /^Bearer\s+(.+)$/i.exec(header ?? '');
  return m?.[1].trim();
}

export function registerAuth(app: FastifyInstance, token: string | undefined): void {
  if (!token) return;
  app.addHook('onRequest', async (req, reply) => {
    const path = req.url.split('?')[0];
    if (path === '/health') return;
    if (tokenMatches(bearerOf(req.headers.authorization), token)) return;
    reply.header('www-authenticate', 'Bearer realm="hearth"');
    return reply.code(401).send({ ok: false, error: 'unauthorized', message: 'authorization: a valid bearer token is required' });
  });
}
