/**
 * Bearer-token auth for every route but /health (SPEC §6), compared in constant time; failed
 * logins limited per client address; /health without the token reduced to liveness and status.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isAdminPath } from './admin/paths.js';
import { fromAnotherSite } from './browser-guard.js';
import { BlockList, isIP, isIPv4 } from 'node:net';
import { tokenMatches } from '../lib/token.js';

export { tokenMatches };

/**
 * The token a request carries: `Authorization: Bearer <t>`, InfluxDB clients' `Token <t>` (v2) or
 * Basic auth with the token as password (v1 clients, Home Assistant's InfluxDB integration).
 */
export function bearerOf(header: string | undefined): string | undefined {
  const m = /^(Bearer|Token)\s+(.+)$/i.exec(header ?? '');
  if (m) return m[2].trim() || undefined;
  const b = /^Basic\s+(.+)$/i.exec(header ?? '');
  if (!b) return undefined;
  const decoded = Buffer.from(b[1], 'base64').toString('utf8');
  // An empty password is no credential (a client whose token setting is blank), not a guess.
  return decoded.slice(decoded.indexOf(':') + 1) || undefined;
}

/** Node's BlockList of `ignore` (addresses and CIDR ranges, config-checked); IPv4-mapped IPv6 read as IPv4. */
export function addressSet(ignore: readonly string[]): (ip: string) => boolean {
  const list = new BlockList();
  for (const a of ignore) {
    const [addr, bits] = a.split('/');
    const type = isIPv4(addr) ? 'ipv4' : 'ipv6';
    if (bits === undefined) list.addAddress(addr, type);
    else list.addSubnet(addr, Number(bits), type);
  }
  return (ip) => {
    const v4 = ip.startsWith('::ffff:') && isIPv4(ip.slice(7)) ? ip.slice(7) : ip;
    return isIP(v4) !== 0 && list.check(v4, isIPv4(v4) ? 'ipv4' : 'ipv6');
  };
}

/** Whether a request names a client behind a proxy. */
const forwarded = (h: Record<string, unknown>) =>
  h.forwarded !== undefined || h['x-forwarded-for'] !== undefined || h['cf-connecting-ip'] !== undefined;

/** Loopback: exempt from the failed-login lockout by default (`http.auth_failures_ignore`). */
export const LOOPBACK = ['127.0.0.0/8', '::1'] as const;

/**
 * The one failed-login budget of every door (issue #26 item 2): a wrong bearer, `Token` or Basic
 * credential on any route (the API, /mcp, /admin/…, /api/graph), a wrong `?token=`, a wrong token
 * typed into the admin login form. Per client address — the socket's (no `trustProxy`: behind a
 * reverse proxy every client shares the proxy's). Two fixed windows: more than `perMinute` failures
 * in a minute (`http.auth_failures_per_minute`), or more than `LONG_MAX` in ten minutes, and that
 * address gets 429 for every route but /health until its window ends — before its token is even
 * compared, so a guesser learns nothing more (issue #10 item 13). `perMinute` 0 turns both off.
 * Bounded: the oldest addresses are forgotten first. A request without a credential is never
 * counted, and addresses in `ignore` (`http.auth_failures_ignore`, loopback by default, as
 * fail2ban's `ignoreip`) are never locked out, so one misconfigured flow on the Pi cannot lock
 * Home Assistant and Node-RED out beside it (issue #35 item 9). Restarting the hub lifts a lockout.
 */
export const LONG_MAX = 10;
const LONG_MS = 600_000;
export function failedLogins(perMinute: number, maxAddresses = 10_000, ignore: readonly string[] = LOOPBACK) {
  const seen = new Map<string, { minute: number; since: number; long: number; longSince: number }>();
  const ignored = addressSet(ignore);
  return {
    /** How long `ip` must wait and why, or undefined. */
    check(ip: string, now = Date.now()): { wait: number; message: string } | undefined {
      const e = seen.get(ip);
      if (!perMinute || !e) return undefined;
      const retry = (until: number) => Math.max(1, Math.ceil((until - now) / 1000));
      if (e.minute >= perMinute && now - e.since < 60_000) {
        const wait = retry(e.since + 60_000);
        return {
          wait,
          message: `rate limit: more than ${perMinute} failed logins per minute from this client (http.auth_failures_per_minute); retry in ${wait} s`,
        };
      }
      if (e.long >= LONG_MAX && now - e.longSince < LONG_MS) {
        const wait = retry(e.longSince + LONG_MS);
        return {
          wait,
          message: `rate limit: ${LONG_MAX} failed logins within ten minutes from this client; retry in ${wait} s`,
        };
      }
      return undefined;
    },
    /**
     * Counts a wrong credential from `req`'s address — unless that address is ignored (loopback by
     * default) and the request did not come through a reverse proxy: one that names a forwarded
     * client (`Forwarded`, `X-Forwarded-For`, Cloudflare's `CF-Connecting-IP`) counts, so a proxy on
     * the same host does not exempt the internet.
     */
    fail(req: { ip: string; headers: Record<string, unknown> }, now = Date.now()): void {
      const ip = req.ip;
      if (!perMinute || (ignored(ip) && !forwarded(req.headers))) return;
      let e = seen.get(ip);
      if (!e) {
        if (seen.size >= maxAddresses) seen.delete(seen.keys().next().value as string);
        e = { minute: 0, since: now, long: 0, longSince: now };
        seen.set(ip, e);
      }
      if (now - e.since >= 60_000) (e.minute = 0), (e.since = now);
      if (now - e.longSince >= LONG_MS) (e.long = 0), (e.longSince = now);
      e.minute++;
      e.long++;
    },
  };
}
export type FailureLimiter = ReturnType<typeof failedLogins>;

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
 * Whether a request — its URL and headers, before Fastify has parsed it (limits.ts reads the first
 * head itself) — carries `token` where auth.ts accepts it; without a token set, every request does.
 */
export function carriesToken(token: string | undefined) {
  return (url: string, headers: Record<string, string | string[] | undefined>): boolean => {
    if (!token) return true;
    const auth = headers.authorization;
    const presented = bearerOf(typeof auth === 'string' ? auth : undefined);
    if (presented !== undefined) return tokenMatches(presented, token);
    const q = url.indexOf('?');
    const name = QUERY_TOKEN.get(q < 0 ? url : url.slice(0, q));
    if (!name || q < 0) return false;
    return tokenMatches(new URLSearchParams(url.slice(q + 1)).get(name) ?? undefined, token);
  };
}

/** Whether a /health caller sees the details (the token, when one is set); others get liveness and status. */
export const mayReadHealth = (req: FastifyRequest, token: string | undefined) =>
  !token || tokenMatches(bearerOf(req.headers.authorization), token);

/** The 401's words: the header's exact form, where the token is set, never any part of it (issue #35 item 15). */
export const unauthorized = (sent: boolean) =>
  `authorization: ${sent ? "the token sent is not this hub's" : 'this hub needs its API token'}; send the header \`Authorization: Bearer <token>\` with the token set as http.token (HEARTH_API_TOKEN)`;

/**
 * `opts.allow` admits a request without the token (an open MCP SSE session's own messages);
 * `opts.failuresPerMinute` limits wrong tokens per client address. Returns that limiter, which the
 * admin guard shares (admin/guard.ts).
 */
export function registerAuth(
  app: FastifyInstance,
  token: string | undefined,
  opts: {
    failuresPerMinute?: number;
    /** Addresses never locked out (`http.auth_failures_ignore`; default loopback). */
    ignore?: readonly string[];
    allow?: (req: FastifyRequest, path: string) => boolean;
  } = {},
): FailureLimiter {
  const failures = failedLogins(opts.failuresPerMinute ?? 0, undefined, opts.ignore);
  if (!token) return failures;
  app.addHook('onRequest', async (req, reply) => {
    const path = req.url.split('?')[0];
    if (path === '/health') return;
    if (isAdminPath(path)) return; // the admin guard checks the budget, the bearer or a session cookie (admin/guard.ts)
    const limited = failures.check(req.ip);
    if (limited)
      return reply
        .code(429)
        .header('retry-after', String(limited.wait))
        .send({ ok: false, error: 'rate_limited', message: limited.message });
    const fromUrl = queryToken(req, path);
    const presented = bearerOf(req.headers.authorization) ?? fromUrl;
    // A page elsewhere can make the household's browser load `/mcp?token=x` (an <img>); refused
    // before it is compared or counted, so it cannot use up that address's budget (item 4).
    if (presented !== undefined && presented === fromUrl && fromAnotherSite(req)) {
      return reply.code(403).send({
        ok: false,
        error: 'forbidden',
        message:
          'token: a token in the URL is not accepted from a page of another site; send it from the MCP client itself',
      });
    }
    if (tokenMatches(presented, token)) return;
    if (opts.allow?.(req, path)) return;
    // A wrong token counts; a request with none (a browser's /favicon.ico) is not a guess.
    if (presented !== undefined) failures.fail(req);
    reply.header('www-authenticate', 'Bearer realm="hearth"');
    return reply.code(401).send({ ok: false, error: 'unauthorized', message: unauthorized(presented !== undefined) });
  });
  // Without the token /health says liveness and status only: its details name client-chosen
  // things (failing topics, reading sources) and cost work to serialise (issue #10 item 11).
  app.addHook('preSerialization', async (req, _reply, payload) => {
    if (req.url.split('?')[0] !== '/health' || mayReadHealth(req, token)) return payload;
    const { ok = true, status = 'ok' } = (payload ?? {}) as { ok?: boolean; status?: string };
    return {
      ok,
      status,
      result: status === 'ok' ? 'Hearth is up.' : `Hearth is up but ${status}; details need the token.`,
    };
  });
  return failures;
}
