/**
 * What a web page in the household's browser must not do to a hub on the same machine. Without a
 * token (the default, loopback only) nothing else stands in its way: a form on any site can POST
 * `text/plain` JSON to http://127.0.0.1:8900/remember (no CORS preflight for that), and a site that
 * points its own name at 127.0.0.1 (DNS rebinding) can read every answer.
 *
 * - A request that changes something (any method but GET, HEAD, OPTIONS) and that a browser marks as
 *   coming from another origin (`Origin`, or `Sec-Fetch-Site: cross-site | same-site`) is refused
 *   with 403. Scripts, Home Assistant, Node-RED and MCP clients send neither header. (The MCP
 *   Streamable HTTP spec asks servers to check Origin for the same reason.) The admin UI's forms have
 *   their own check with a CSRF token (admin/guard.ts), so its paths are left to it.
 * - While the hub listens on loopback without a token, the Host header must name a loopback address
 *   (`localhost`, `127.x.x.x`, `[::1]`); anything else answers 421. With a token (required for any
 *   other bind) a rebinding page has no credentials, so the Host is not checked.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isAdminPath } from './admin/paths.js';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);
const LOOPBACK_HOST = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d+)?$/i;

export function registerBrowserGuard(app: FastifyInstance, opts: { token?: string; loopback: boolean }): void {
  app.addHook('onRequest', async (req, reply) => {
    const path = req.url.split('?')[0];
    if (!opts.token && opts.loopback && path !== '/health' && !LOOPBACK_HOST.test(req.headers.host ?? '')) {
      return reply.code(421).send({
        ok: false,
        error: 'misdirected',
        message: `host: ${req.headers.host ?? '(none)'} is not this hub's address; open it as http://127.0.0.1 or http://localhost (a hub reached by another name needs http.token)`,
      });
    }
    if (SAFE.has(req.method) || isAdminPath(path) || !fromAnotherSite(req)) return;
    return reply.code(403).send({
      ok: false,
      error: 'forbidden',
      message: `origin: a page on ${req.headers.origin ?? 'another site'} may not change this hub; send the request from a script or this hub's own pages`,
    });
  });
}

/**
 * Whether a browser marks the request as sent by a page of another site: `Sec-Fetch-Site`
 * (cross-site, same-site), else an `Origin` (or, without one, a `Referer`) that is not this hub.
 * Scripts and MCP clients send none of these. Also the admin forms' and the query token's check.
 */
export function fromAnotherSite(req: FastifyRequest): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') return true;
  const origin = req.headers.origin ?? (req.headers.referer === undefined ? undefined : originOf(req.headers.referer));
  return origin !== undefined && origin !== `${req.protocol}://${req.headers.host}`;
}
const originOf = (url: string) => {
  try {
    return new URL(url).origin;
  } catch {
    return 'null';
  }
};
