/**
 * Browser sessions for the admin UI, on fastify's maintained plugins, registered on the admin routes
 * only (the JSON API never sees a cookie):
 *
 * - @fastify/secure-session seals the login into an HttpOnly, SameSite=Strict cookie
 *   (`hearth_session`, XSalsa20-Poly1305 under keys.ts's key bound to the token): the hub keeps no
 *   session table and a restart logs nobody out. A second sealed cookie (`hearth_flash`) carries the
 *   one-minute "Saved: …" message, so no link can make the UI say something the hub did not.
 * - @fastify/csrf-protection keeps each session's CSRF secret inside that cookie.
 * - @fastify/formbody parses the forms.
 *
 * Kept here: the 12-hour limit by the hub's clock (the plugin's own `expiry` counts from the last
 * change) and *Log out*'s ended list (keys.ts).
 */
import { randomBytes } from 'node:crypto';
import cookie from '@fastify/cookie';
import csrf from '@fastify/csrf-protection';
import formbody from '@fastify/formbody';
import secureSession, { type Session } from '@fastify/secure-session';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AdminKeys } from './keys.js';

declare module 'fastify' {
  interface FastifyRequest {
    flash: Session;
  }
}
declare module '@fastify/secure-session' {
  interface SessionData {
    /** issued at, expires (epoch seconds by the hub's clock), id (logins only, for *Log out*) */
    iat: number;
    exp: number;
    sid: string;
    /** the flash cookie's message */
    text: string;
  }
}

export const COOKIE = 'hearth_session';
export const FLASH_COOKIE = 'hearth_flash';
const TTL_S = 12 * 3600;
const FLASH_TTL_S = 60;
const FLASH_MAX_CHARS = 300;

// secure-session writes `<base64>;<base64>`; as base64url joined by a dot the cookie needs no
// percent-encoding (Node's base64 decoder reads both alphabets, so decoding only restores the `;`).
const encode = (v: string) => v.replace(/\+/g, '-').replace(/\//g, '_').replace(/=/g, '').replace(';', '.');
const decode = (v: string) => (/^[\w-]+\.[\w-]+$/.test(v) ? v.replace('.', ';') : v);

export async function registerSessionPlugins(app: FastifyInstance, keys: AdminKeys): Promise<void> {
  const flags = { path: '/', httpOnly: true, sameSite: 'strict', secure: 'auto' } as const;
  await app.register(cookie, { parseOptions: { encode, decode } as object });
  await app.register(secureSession, [
    {
      sessionName: 'session',
      cookieName: COOKIE,
      key: keys.session,
      expiry: TTL_S,
      cookie: { ...flags, maxAge: TTL_S },
    },
    {
      sessionName: 'flash',
      cookieName: FLASH_COOKIE,
      key: keys.flash,
      expiry: FLASH_TTL_S,
      cookie: { ...flags, maxAge: FLASH_TTL_S },
    },
  ]);
  await app.register(csrf, { sessionPlugin: '@fastify/secure-session', logLevel: 'info' });
  // Last value wins, as the forms' schemas expect one string per field.
  await app.register(formbody, {
    bodyLimit: 64 * 1024,
    parser: (body: string) => Object.fromEntries(new URLSearchParams(body)),
  });
}

export function createSessions(keys: AdminKeys, now: () => number) {
  return {
    /**
     * Whether the request's session is live: within its 12 hours by the hub's clock and not ended.
     * A dead one is emptied, so its CSRF secret cannot be used again.
     */
    live(req: FastifyRequest): boolean {
      const s = req.session;
      const exp = s.get('exp');
      if (typeof exp !== 'number') return false;
      if (exp >= now() && !keys.isEnded(s.get('sid'), Number(s.get('iat')))) return true;
      s.regenerate();
      return false;
    },
    /** A new session (a login, or an open hub's first form) with its CSRF secret; the cookie goes with the reply. */
    start(req: FastifyRequest, reply: FastifyReply, withId: boolean): void {
      const s = req.session;
      s.regenerate();
      const t = now();
      s.set('iat', t);
      s.set('exp', Math.floor(t) + TTL_S);
      if (withId) s.set('sid', randomBytes(18).toString('base64url'));
      reply.generateCsrf(); // the secret rides in the login's own cookie, before any page is shown
    },
    end(req: FastifyRequest): void {
      const sid = req.session.get('sid');
      if (typeof sid === 'string') keys.end(sid, Number(req.session.get('exp')), now());
      req.session.delete();
    },
  };
}
export type Sessions = ReturnType<typeof createSessions>;

export const flash = {
  set(req: FastifyRequest, text: string): void {
    req.flash.set('text', text.length > FLASH_MAX_CHARS ? `${text.slice(0, FLASH_MAX_CHARS - 1)}…` : text);
  },
  /** The message a request carries, if genuine and fresh; clears the cookie either way. */
  take(req: FastifyRequest): string | undefined {
    if (req.cookies[FLASH_COOKIE] === undefined) return undefined;
    const text = req.flash.get('text');
    req.flash.delete();
    return typeof text === 'string' ? text : undefined;
  },
};
