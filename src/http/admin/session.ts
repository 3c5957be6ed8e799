/**
 * Browser sessions for the admin UI. Logging in with the API token gives an HttpOnly,
 * SameSite=Strict cookie `<id>.<expires>.<mac>`: an HMAC under the secret in the data dir
 * (secret.ts), so the hub keeps no session table and a restart logs nobody out. Each session's
 * CSRF token is an HMAC of its id, checked the same way. *Log out* puts the id on the ended list.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { tokenMatches } from '../auth.js';
import type { AdminKeys } from './secret.js';

export const COOKIE = 'hearth_session';
const TTL_S = 12 * 3600;

export interface Session {
  id: string;
  csrf: string;
  expires: number;
  /** The cookie value. */
  token: string;
}

export function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  for (const part of (header ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0) out[part.slice(0, i).trim()] = part.slice(i + 1).trim();
  }
  return out;
}

export function createSessions(keys: AdminKeys, now: () => number = () => Date.now() / 1000) {
  const make = (id: string, expires: number): Session => ({ id, expires, csrf: keys.mac('csrf', id), token: keys.seal('session', id, expires) });
  return {
    create: (): Session => make(randomBytes(18).toString('base64url'), Math.floor(now()) + TTL_S),
    /** The live session a request's cookie names, if its signature holds and it has not ended. */
    of(req: FastifyRequest): Session | undefined {
      const s = keys.unseal('session', parseCookies(req.headers.cookie)[COOKIE] ?? '', now());
      return s && !keys.isRevoked(s.value) ? make(s.value, s.expires) : undefined;
    },
    end(s: Session): void {
      keys.revoke(s.id, s.expires, now());
    },
  };
}
export type Sessions = ReturnType<typeof createSessions>;

export function setSessionCookie(req: FastifyRequest, reply: FastifyReply, s: Session | null): void {
  const secure = req.protocol === 'https' ? '; Secure' : '';
  const value = s ? `${s.token}; Max-Age=${TTL_S}` : '; Max-Age=0'; // only ever set for a session created now
  reply.header('set-cookie', `${COOKIE}=${value}; Path=/; HttpOnly; SameSite=Strict${secure}`);
}

/** Constant-time CSRF check of a form's `_csrf` field against the session's token. */
export const csrfMatches = (s: Session, given: unknown) => typeof given === 'string' && tokenMatches(given, s.csrf);

/** Failed logins per client address: after `max` failures within `windowS` the address waits out the window. */
export function createLoginLimiter(now: () => number = () => Date.now() / 1000, max = 10, windowS = 600) {
  const failures = new Map<string, number[]>();
  const recent = (ip: string) => (failures.get(ip) ?? []).filter((t) => t > now() - windowS);
  return {
    blocked: (ip: string) => recent(ip).length >= max,
    fail(ip: string): void {
      if (failures.size > 10_000) failures.clear(); // bounded: a flood of addresses forgets, never grows
      failures.set(ip, [...recent(ip), now()]);
    },
    succeed: (ip: string) => void failures.delete(ip),
  };
}
