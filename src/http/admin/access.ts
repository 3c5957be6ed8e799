/** What the guard decided about a request (guard.ts), read by the pages and actions. */
import type { FastifyRequest } from 'fastify';

export interface Access {
  /** `none`: not let in (only the login page is served). */
  via: 'bearer' | 'session' | 'open' | 'none';
  /** A one-time message from the action that sent the browser here, already verified. */
  flash?: string;
  /** The CSRF token for this page's forms (@fastify/csrf-protection); absent for a bearer. */
  csrf?: () => string;
}

const access = new WeakMap<FastifyRequest, Access>();
export const accessOf = (req: FastifyRequest): Access => access.get(req) ?? { via: 'none' };
export const csrfOf = (req: FastifyRequest): string => accessOf(req).csrf?.() ?? '';
export const grant = (req: FastifyRequest, a: Access): void => void access.set(req, a);
