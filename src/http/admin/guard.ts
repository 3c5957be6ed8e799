/**
 * Who may see the admin UI, and what every admin response carries. With a token configured, a
 * request is let in by `Authorization: Bearer <token>` or by a session cookie from the login page;
 * otherwise a page request is sent to the login page and anything else gets 401 — no data either
 * way. Without a token (loopback only, SPEC §1) every browser gets a session so forms still carry
 * a CSRF token. State-changing requests from a session must carry its CSRF token and, when the
 * browser sends one, an Origin of this host.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bearerOf, tokenMatches } from '../auth.js';
import { csrfMatches, setSessionCookie, type Session, type Sessions } from './session.js';
import { CSP } from './csp.js';
import { LOGIN_CSP, loginPage } from './pages/login.js';

export { CSP };

export interface Access {
  /** `none`: not let in (only the login page is served). */
  via: 'bearer' | 'session' | 'open' | 'none';
  session?: Session;
}

const access = new WeakMap<FastifyRequest, Access>();
export const accessOf = (req: FastifyRequest): Access => access.get(req) ?? { via: 'none' };
export const csrfOf = (req: FastifyRequest): string => accessOf(req).session?.csrf ?? '';

const PUBLIC = new Set(['/admin/login']);

/** A page a browser navigates to (redirect to login) rather than a script's fetch (401). */
const isPage = (req: FastifyRequest, path: string) =>
  (req.method === 'GET' || req.method === 'HEAD') && path !== '/api/graph' && !path.startsWith('/admin/assets/') && !path.endsWith('.json') && !path.endsWith('/stream');

export function registerGuard(app: FastifyInstance, sessions: Sessions, token: string | undefined): void {
  app.addHook('onRequest', async (req, reply) => {
    const path = req.url.split('?')[0];
    if (!token) {
      // Only pages start a session (a script fetching assets or JSON must not churn the session table).
      let s = sessions.of(req);
      if (!s && isPage(req, path)) (s = sessions.create()), setSessionCookie(req, reply, s);
      return void access.set(req, { via: 'open', session: s });
    }
    if (tokenMatches(bearerOf(req.headers.authorization), token)) return void access.set(req, { via: 'bearer' });
    const s = sessions.of(req);
    if (s) return void access.set(req, { via: 'session', session: s });
    if (PUBLIC.has(path)) return;
    // A browser gets the login form in place (it posts back to this URL); a script gets JSON.
    if (isPage(req, path) && /\btext\/html\b/.test(String(req.headers.accept ?? ''))) {
      return reply.code(401).header('content-security-policy', LOGIN_CSP).type('text/html; charset=utf-8').send(loginPage(req.url).value);
    }
    reply.header('www-authenticate', 'Bearer realm="hearth"');
    return reply.code(401).send({ ok: false, error: 'unauthorized', message: 'authorization: log in at /admin/login or send a bearer token' });
  });

  app.addHook('preHandler', async (req, reply) => {
    if (req.method !== 'POST' || req.url.split('?')[0] === '/admin/login') return;
    const a = accessOf(req);
    if (a.via === 'bearer') return; // a browser cannot add this header to a cross-site form
    if (!sameOrigin(req)) return refuse(reply, 'origin: this form was sent from another site');
    if (!a.session || !csrfMatches(a.session, (req.body as Record<string, unknown> | undefined)?._csrf)) {
      return refuse(reply, '_csrf: the form is stale or was not sent from this hub; reload the page and try again');
    }
  });

  app.addHook('onSend', async (_req, reply, payload) => {
    if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', CSP);
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'private, no-store');
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'same-origin');
    reply.header('x-frame-options', 'DENY');
    reply.header('cross-origin-opener-policy', 'same-origin');
    reply.header('cross-origin-resource-policy', 'same-origin');
    return payload;
  });
}

/** Origin (or Referer) of a state-changing request, when the browser sends one, must be this host. */
export function sameOrigin(req: FastifyRequest): boolean {
  const origin = req.headers.origin ?? (req.headers.referer ? safeOrigin(req.headers.referer) : undefined);
  if (!origin || origin === 'null') return origin !== 'null';
  return origin === `${req.protocol}://${req.headers.host}`;
}
const safeOrigin = (u: string) => {
  try {
    return new URL(u).origin;
  } catch {
    return 'null';
  }
};

function refuse(reply: FastifyReply, message: string) {
  return reply.code(403).type('text/plain; charset=utf-8').send(`Forbidden: ${message}`);
}
