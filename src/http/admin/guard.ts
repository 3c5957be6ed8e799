/**
 * Who may see the admin UI, and what every admin response carries. With a token configured, a
 * request is let in by `Authorization: Bearer <token>` or by a live session cookie from the login
 * page; otherwise a browser gets the login form in place and anything else 401 — no data either
 * way. A wrong bearer token counts against the same failed-login budget as every other door
 * (auth.ts). Without a token (loopback only, SPEC §1) a browser gets a session with its first form,
 * so forms still carry a CSRF token. Sessions are sealed with a key derived from the token
 * (keys.ts), so a new token ends them all. State-changing requests from a session must come from
 * this site and carry its CSRF token (@fastify/csrf-protection). A form refused for a stale token or
 * an ended login is shown again with what was typed (pages/resend.ts); htmx requests get one plain
 * sentence.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { bearerOf, tokenMatches, type FailureLimiter } from '../auth.js';
import { fromAnotherSite } from '../browser-guard.js';
import { accessOf, grant } from './access.js';
import { flash, type Sessions } from './session.js';
import { CSP } from './csp.js';
import { PUBLIC_PATHS } from './assets.js';
import { html } from './html.js';
import { backTo, page, sendPage } from './layout.js';
import { LOGIN_CSP, loginPage } from './pages/login.js';
import { pendingOf, resendPage } from './pages/resend.js';

export { CSP, fromAnotherSite };
export { accessOf, csrfOf, type Access } from './access.js';

const LOGIN = '/admin/login';

/** A page a browser navigates to (login form in place) rather than a script's fetch (401). */
const isPage = (req: FastifyRequest, path: string) =>
  (req.method === 'GET' || req.method === 'HEAD') &&
  path !== '/api/graph' &&
  !path.startsWith('/admin/assets/') &&
  !path.endsWith('.json') &&
  !path.endsWith('/stream');
const isHtmx = (req: FastifyRequest) => req.headers['hx-request'] === 'true';
/** A form a browser posts (not htmx, not a script's JSON): it can be answered with a page. */
const isFormPost = (req: FastifyRequest) =>
  req.method === 'POST' &&
  !isHtmx(req) &&
  /^application\/x-www-form-urlencoded\b/.test(String(req.headers['content-type'] ?? ''));
const wantsHtml = (req: FastifyRequest) => /\btext\/html\b/.test(String(req.headers.accept ?? ''));

export const LOGGED_OUT =
  'Your login has ended (or the hub was given a new token). Reload the page to log in again; nothing was changed.';
export const STALE = 'This page is out of date. Reload it and try again; nothing was changed.';

function loginInPlace(req: FastifyRequest, reply: FastifyReply, status = 401, error?: string) {
  const pending = req.method === 'POST' ? pendingOf(req) : undefined;
  const next =
    pending?.next ??
    (req.method === 'POST' ? backTo((req.body as Record<string, unknown> | undefined)?.next) : req.url);
  return reply
    .code(status)
    .header('content-security-policy', LOGIN_CSP)
    .type('text/html; charset=utf-8')
    .send(loginPage(next, error, pending).value);
}

export function registerGuard(
  app: FastifyInstance,
  sessions: Sessions,
  token: string | undefined,
  failures: FailureLimiter,
): void {
  app.addHook('onRequest', async (req, reply) => {
    const path = req.url.split('?')[0];
    if (PUBLIC_PATHS.has(path) && (req.method === 'GET' || req.method === 'HEAD')) return; // the icons, before any login
    // A guesser waits on the admin paths too (auth.ts answers the API's); a person gets a page.
    const limited = token ? failures.check(req.ip) : undefined;
    if (limited) {
      reply.header('retry-after', String(limited.wait));
      if ((isPage(req, path) && wantsHtml(req)) || isFormPost(req))
        return loginInPlace(
          req,
          reply,
          429,
          `Too many wrong tokens from this address; try again in ${Math.ceil(limited.wait / 60)} min.`,
        );
      return reply.code(429).send({ ok: false, error: 'rate_limited', message: limited.message });
    }
    const message = isPage(req, path) ? flash.take(req) : undefined;
    const live = sessions.live(req);
    const csrf = () => reply.generateCsrf();
    if (!token) {
      // Only a page with a form starts a session (a script fetching assets or JSON gets none).
      const lazy = () => (sessions.live(req) || sessions.start(req, reply, false), csrf());
      return grant(req, { via: 'open', flash: message, csrf: lazy });
    }
    const bearer = bearerOf(req.headers.authorization);
    if (tokenMatches(bearer, token)) return grant(req, { via: 'bearer', flash: message });
    if (live) return grant(req, { via: 'session', flash: message, csrf }); // (a proxy's Basic auth may ride along)
    if (bearer !== undefined) failures.fail(req); // a wrong token is a guess, whichever door it knocks on
    if (path === LOGIN) return;
    // A browser gets the login form in place (it posts back to this URL); a form post waits for
    // its body (preValidation) so the login form can carry what was typed; a script gets JSON.
    if (isPage(req, path) && wantsHtml(req)) return loginInPlace(req, reply);
    if (isFormPost(req) && path.startsWith('/admin/')) return;
    return unauthorized(req, reply);
  });

  app.addHook('preValidation', (req, reply, done: HookHandlerDoneFunction) => {
    if (req.method !== 'POST') return done();
    const a = accessOf(req);
    if (a.via === 'bearer') return done(); // a browser cannot add this header to a cross-site form
    if (fromAnotherSite(req)) {
      // Before anything is counted or compared: the login form too (a page elsewhere must not use up
      // the household's failed-login budget).
      if (isHtmx(req))
        return void plain(reply, 403, 'This was sent from another site, so the hub refused it; nothing was changed.');
      // Never offered again: the text came from another site.
      return void sendPage(
        reply,
        page(
          req,
          { title: 'Refused' },
          html`<p class="error" role="alert">This form was sent from another site, so the hub refused it. Nothing was changed.</p><p><a href="/admin/">Go to the dashboard</a></p>`,
        ),
        403,
      );
    }
    if (req.url.split('?')[0] === LOGIN) return done();
    if (a.via === 'none') return void (isFormPost(req) ? loginInPlace(req, reply) : unauthorized(req, reply));
    if (a.via === 'open' && !sessions.live(req)) return void refuseStale(req, reply);
    // A wrong or missing token ends in the error handler (index.ts) as FST_CSRF_*, then refuseStale.
    app.csrfProtection(req, reply, done);
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

/** A form from this site whose CSRF token does not match (a page from before a restart or a new login). */
export function refuseStale(req: FastifyRequest, reply: FastifyReply) {
  if (isHtmx(req)) return plain(reply, 403, STALE);
  const pending = isFormPost(req) ? pendingOf(req) : undefined;
  if (!pending) return plain(reply, 403, STALE);
  return sendPage(reply, resendPage(req, pending, 'stale'), 403); // an open hub's form starts a session here
}

function unauthorized(req: FastifyRequest, reply: FastifyReply) {
  if (isHtmx(req)) return plain(reply, 401, LOGGED_OUT);
  reply.header('www-authenticate', 'Bearer realm="hearth"');
  return reply.code(401).send({
    ok: false,
    error: 'unauthorized',
    message: 'authorization: log in at /admin/login or send a bearer token',
  });
}

/** One sentence for the in-place actions' banner (admin.js shows text/plain answers as they are). */
const plain = (reply: FastifyReply, status: number, text: string) =>
  reply.code(status).type('text/plain; charset=utf-8').send(text);
