/**
 * Browser sessions for the admin UI. Logging in with the API token creates a random session id,
 * sent as an HttpOnly, SameSite=Strict cookie; each session has its own CSRF token that every
 * state-changing form carries. Sessions live in memory: a restart logs everyone out.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { tokenMatches } from '../auth.js';

export const COOKIE = 'hearth_session';
const TTL_S = 12 * 3600;
const MAX_SESSIONS = 1000;

export interface Session {
  id: string;
  csrf: string;
  expires: number;
}

export function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  for (const part of (header ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0) out[part.slice(0, i).trim()] = part.slice(i + 1).trim();
  }
  return out;
}

export function createSessions(now: () => number = () => Date.now() / 1000) {
  const sessions = new Map<string, Session>();
  return {
    create(): Session {
      if (sessions.size >= MAX_SESSIONS) sessions.delete(sessions.keys().next().value as string);
      const s = { id: randomBytes(24).toString('base64url'), csrf: randomBytes(24).toString('base64url'), expires: now() + TTL_S };
      sessions.set(s.id, s);
      return s;
    },
    /** The live session a request's cookie names, if any. */
    of(req: FastifyRequest): Session | undefined {
      const id = parseCookies(req.headers.cookie)[COOKIE];
      const s = id ? sessions.get(id) : undefined;
      if (!s) return undefined;
      if (s.expires < now()) return void sessions.delete(s.id);
      return s;
    },
    end(s: Session): void {
      sessions.delete(s.id);
    },
  };
}
export type Sessions = ReturnType<typeof createSessions>;

export function setSessionCookie(req: FastifyRequest, reply: FastifyReply, s: Session | null): void {
  const secure = req.protocol === 'https' ? '; Secure' : '';
  const value = s ? `${s.id}; Max-Age=${TTL_S}` : '; Max-Age=0';
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
