/**
 * Who may see the admin UI, and what every admin response carries. With a token configured, a
 * request is let in by `Authorization: Bearer <token>` or by a session cookie from the login page;
 * otherwise a browser gets the login form in place and anything else 401 — no data either way.
 * Without a token (loopback only, SPEC §1) every browser gets a session so forms still carry a
 * CSRF token. State-changing requests from a session must carry its CSRF token and, when the
 * browser sends one, an Origin of this host. A form refused for a stale token or an ended login
 * is shown again with what was typed (pages/resend.ts); htmx requests get one plain sentence.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bearerOf, tokenMatches } from '../auth.js';
import { accessOf, grant } from './access.js';
import { csrfMatches, setSessionCookie, type Sessions } from './session.js';
import { CSP } from './csp.js';
import type { Flash } from './flash.js';
import { html } from './html.js';
import { backTo, page, sendPage } from './layout.js';
import { LOGIN_CSP, loginPage } from './pages/login.js';
import { pendingOf, resendPage } from './pages/resend.js';

export { CSP };
export { accessOf, csrfOf, type Access } from './access.js';

const PUBLIC = new Set(['/admin/login']);

/** A page a browser navigates to (login form in place) rather than a script's fetch (401). */
const isPage = (req: FastifyRequest, path: string) =>
  (req.method === 'GET' || req.method === 'HEAD') && path !== '/api/graph' && !path.startsWith('/admin/assets/') && !path.endsWith('.json') && !path.endsWith('/stream');
const isHtmx = (req: FastifyRequest) => req.headers['hx-request'] === 'true';
/** A form a browser posts (not htmx, not a script's JSON): it can be answered with a page. */
const isFormPost = (req: FastifyRequest) =>
  req.method === 'POST' && !isHtmx(req) && /^application\/x-www-form-urlencoded\b/.test(String(req.headers['content-type'] ?? ''));

export const LOGGED_OUT = 'Your login has ended (or the hub was given a new token). Reload the page to log in again; nothing was changed.';
export const STALE = 'This page is out of date. Reload it and try again; nothing was changed.';

function loginInPlace(req: FastifyRequest, reply: FastifyReply) {
  const pending = req.method === 'POST' ? pendingOf(req) : undefined;
  const next = pending?.next ?? (req.method === 'POST' ? backTo((req.body as Record<string, unknown> | undefined)?.next) : req.url);
  return reply.code(401).header('content-security-policy', LOGIN_CSP).type('text/html; charset=utf-8').send(loginPage(next, undefined, pending).value);
}

export function registerGuard(app: FastifyInstance, sessions: Sessions, flash: Flash, token: string | undefined): void {
  app.addHook('onRequest', async (req, reply) => {
    const path = req.url.split('?')[0];
    const message = isPage(req, path) ? flash.take(req, reply) : undefined;
    if (!token) {
      // Only pages start a session (a script fetching assets or JSON gets none it would not use).
      let s = sessions.of(req);
      if (!s && isPage(req, path)) (s = sessions.create()), setSessionCookie(req, reply, s);
      return grant(req, { via: 'open', session: s, flash: message });
    }
    if (tokenMatches(bearerOf(req.headers.authorization), token)) return grant(req, { via: 'bearer', flash: message });
    const s = sessions.of(req);
    if (s) return grant(req, { via: 'session', session: s, flash: message });
    if (PUBLIC.has(path)) return;
    // A browser gets the login form in place (it posts back to this URL); a form post waits for
    // its body (preValidation) so the login form can carry what was typed; a script gets JSON.
    if (isPage(req, path) && /\btext\/html\b/.test(String(req.headers.accept ?? ''))) return loginInPlace(req, reply);
    if (isFormPost(req) && path.startsWith('/admin/')) return;
    return unauthorized(req, reply);
  });

  app.addHook('preValidation', async (req, reply) => {
    if (req.method !== 'POST' || req.url.split('?')[0] === '/admin/login') return;
    const a = accessOf(req);
    if (a.via === 'bearer') return; // a browser cannot add this header to a cross-site form
    if (a.via === 'none') return isFormPost(req) ? loginInPlace(req, reply) : unauthorized(req, reply);
    if (!sameOrigin(req)) {
      if (isHtmx(req)) return plain(reply, 403, 'This was sent from another site, so the hub refused it; nothing was changed.');
      // Never offered again: the text came from another site.
      return sendPage(reply, page(req, { title: 'Refused' }, html`<p class="error" role="alert">This form was sent from another site, so the hub refused it. Nothing was changed.</p><p><a href="/admin/">Go to the dashboard</a></p>`), 403);
    }
    if (a.session && csrfMatches(a.session, (req.body as Record<string, unknown> | undefined)?._csrf)) return;
    if (isHtmx(req)) return plain(reply, 403, STALE);
    const pending = isFormPost(req) ? pendingOf(req) : undefined;
    if (!pending) return plain(reply, 403, STALE);
    if (!a.session) {
      const s = sessions.create(); // open mode: a post that arrived without a session gets one to send again with
      setSessionCookie(req, reply, s);
      grant(req, { ...a, session: s });
    }
    return sendPage(reply, resendPage(req, pending, 'stale'), 403);
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

function unauthorized(req: FastifyRequest, reply: FastifyReply) {
  if (isHtmx(req)) return plain(reply, 401, LOGGED_OUT);
  reply.header('www-authenticate', 'Bearer realm="hearth"');
  return reply.code(401).send({ ok: false, error: 'unauthorized', message: 'authorization: log in at /admin/login or send a bearer token' });
}

/** One sentence for the in-place actions' banner (admin.js shows text/plain answers as they are). */
const plain = (reply: FastifyReply, status: number, text: string) => reply.code(status).type('text/plain; charset=utf-8').send(text);

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
