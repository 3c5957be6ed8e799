/**
 * Bearer-token auth for every route but /health (SPEC §6), compared in constant time; failed
 * logins limited per client address; /health without the token reduced to liveness and status.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
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

/**
 * Failed logins per client address in a fixed one-minute window: past `max`, that address gets 429
 * for every route but /health until the window ends — before its token is even compared, so a
 * guesser learns nothing more (issue #10 item 13). Bounded: the oldest addresses are forgotten first.
 */
export function failedLogins(max: number, windowMs = 60_000, maxAddresses = 10_000) {
  const seen = new Map<string, { count: number; since: number }>();
  return {
    /** Seconds until `ip` may try again, or 0. */
    blocked(ip: string, now = Date.now()): number {
      const e = seen.get(ip);
      if (!max || !e || now - e.since >= windowMs || e.count < max) return 0;
      return Math.ceil((e.since + windowMs - now) / 1000);
    },
    fail(ip: string, now = Date.now()): void {
      if (!max) return;
      const e = seen.get(ip);
      if (e && now - e.since < windowMs) return void e.count++;
      seen.delete(ip);
      if (seen.size >= maxAddresses) seen.delete(seen.keys().next().value!);
      seen.set(ip, { count: 1, since: now });
    },
  };
}

/**
 * Credentials in the query string, where a client can send nothing else: MCP clients that take only a
 * URL (Home Assistant's MCP integration) carry the token as `?token=` on the MCP endpoints, and
 * InfluxDB 1.x clients as `?u=<any name>&p=<token>` on /write, as the InfluxDB 1.x API accepts them
 * (`u` is not checked, as with Basic auth). Nowhere else, so tokens stay out of ordinary URLs; the
 * request log redacts both (text-json.ts redactToken).
 */
const QUERY_TOKEN: ReadonlyMap<string, string> = new Map([
  ['/sse', 'token'],
  ['/mcp', 'token'],
  ['/write', 'p'],
]);
function queryToken(req: FastifyRequest, path: string): string | undefined {
  const name = QUERY_TOKEN.get(path);
  if (!name) return undefined;
  const t = (req.query as Record<string, unknown> | undefined)?.[name];
  return typeof t === 'string' ? t : undefined;
}

/**
 * `opts.allow` admits a request without the token (an open MCP SSE session's own messages);
 * `opts.failuresPerMinute` limits wrong tokens per client address.
 */
export function registerAuth(
  app: FastifyInstance,
  token: string | undefined,
  opts: { failuresPerMinute?: number; allow?: (req: FastifyRequest, path: string) => boolean } = {},
): void {
  if (!token) return;
  const failures = failedLogins(opts.failuresPerMinute ?? 0);
  app.addHook('onRequest', async (req, reply) => {
    const path = req.url.split('?')[0];
    if (path === '/health') return;
    const wait = failures.blocked(req.ip);
    if (wait) {
      return reply.code(429).header('retry-after', String(wait)).send({
        ok: false,
        error: 'rate_limited',
        message: `rate limit: more than ${opts.failuresPerMinute} failed logins per minute from this client (http.auth_failures_per_minute); retry in ${wait} s`,
      });
    }
    if (isAdminPath(path)) return; // the admin guard checks the bearer or a session cookie (admin/guard.ts)
    const presented = bearerOf(req.headers.authorization) ?? queryToken(req, path);
    if (tokenMatches(presented, token)) return;
    if (opts.allow?.(req, path)) return;
    // A wrong token counts; a request with none (a browser's /favicon.ico) is not a guess.
    if (presented !== undefined) failures.fail(req.ip);
    reply.header('www-authenticate', 'Bearer realm="hearth"');
    return reply.code(401).send({ ok: false, error: 'unauthorized', message: 'authorization: a valid bearer token is required' });
  });
  // Without the token /health says liveness and status only: its details name client-chosen
  // things (failing topics, reading sources) and cost work to serialise (issue #10 item 11).
  app.addHook('preSerialization', async (req, _reply, payload) => {
    if (req.url.split('?')[0] !== '/health' || tokenMatches(bearerOf(req.headers.authorization), token)) return payload;
    const { ok = true, status = 'ok' } = (payload ?? {}) as { ok?: boolean; status?: string };
    return { ok, status, result: status === 'ok' ? 'Hearth is up.' : `Hearth is up but ${status}; details need the token.` };
  });
}
