/** What the guard decided about a request (guard.ts), read by the pages and actions. */
import type { FastifyRequest } from 'fastify';
import type { Session } from './session.js';

export interface Access {
  /** `none`: not let in (only the login page is served). */
  via: 'bearer' | 'session' | 'open' | 'none';
  session?: Session;
  /** A one-time message from the action that sent the browser here (flash.ts), already verified. */
  flash?: string;
}

const access = new WeakMap<FastifyRequest, Access>();
export const accessOf = (req: FastifyRequest): Access => access.get(req) ?? { via: 'none' };
export const csrfOf = (req: FastifyRequest): string => accessOf(req).session?.csrf ?? '';
export const grant = (req: FastifyRequest, a: Access): void => void access.set(req, a);
